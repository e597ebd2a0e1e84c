// stencil2d: a 9-point cross stencil of radius 2 (fourth-order Laplacian smoothing)
//   out = c0 in(y, x) + c1 (in(y±1, x) + in(y, x±1)) + c2 (in(y±2, x) + in(y, x±2)),
// zero outside the image, on global memory only: no shared tiles and no register queue, so all
// reuse between rows goes through the L1 data cache. Each thread owns 4 adjacent columns (one
// float4) and marches down `seg` rows; a CTA of 128 threads covers a whole 512-float row.
// Per row step a thread loads five float4 (rows y-2..y+2) and the float4 left and right of its
// own in row y (for x±1, x±2).
//
// Cache sensitivity (why the L1 size matters): rows y-1..y+1 were loaded by the same warp 1..3
// row steps earlier, as y+2 is new. A warp's float4 row segment is 512 B = 4 lines, so between
// two steps of one warp every other resident warp brings ~512 B of new lines: the reuse distance
// of a row reused after d steps is about d x resident warps x 512 B. With 24-48 resident warps
// that is 12-24 KB per step: a 16 KB L1 keeps at most the d = 1 reuse (often not even that),
// a 48 KB L1 keeps d = 1..2 (up to 3 with fewer warps), so the L1 hit rate (and with it
// the IPC of this memory-bound kernel) moves by well over 10% between 16 KB and 48 KB.
// Sizes (launch.yaml): 512 x 1200 floats (2.3 MB), seg = 5 rows: 240 CTAs of 128 threads.
// Occupancy on the Fermi-class SM (48 warps, 32768 registers, 8 CTAs, 48 KB shared): the seven
// float4 operands (28 values) are live at once, 48 registers per thread in gpurf, so
// 32768 / (128 x 48) = 5 < 8 CTAs: registers limit occupancy (20 resident warps, which is the
// warp count the reuse-distance estimate above uses at its low end).
#define W4 128  // float4 per row (width 512)

extern "C" __global__ void stencil2d(float4* out, const float4* in, int h, int seg, float c0,
                                     float c1, float c2) {
  const int x4 = threadIdx.x;
  const int ybegin = blockIdx.x * seg;
  const float4 zero = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  for (int y = ybegin; y < ybegin + seg && y < h; ++y) {
    const float4 m2 = y >= 2 ? in[(y - 2) * W4 + x4] : zero;
    const float4 m1 = y >= 1 ? in[(y - 1) * W4 + x4] : zero;
    const float4 c = in[y * W4 + x4];
    const float4 p1 = y + 1 < h ? in[(y + 1) * W4 + x4] : zero;
    const float4 p2 = y + 2 < h ? in[(y + 2) * W4 + x4] : zero;
    const float4 l = x4 > 0 ? in[y * W4 + x4 - 1] : zero;
    const float4 r = x4 + 1 < W4 ? in[y * W4 + x4 + 1] : zero;
    float4 o;
    o.x = c0 * c.x + c1 * (m1.x + p1.x + l.w + c.y) + c2 * (m2.x + p2.x + l.z + c.z);
    o.y = c0 * c.y + c1 * (m1.y + p1.y + c.x + c.z) + c2 * (m2.y + p2.y + l.w + c.w);
    o.z = c0 * c.z + c1 * (m1.z + p1.z + c.y + c.w) + c2 * (m2.z + p2.z + c.x + r.x);
    o.w = c0 * c.w + c1 * (m1.w + p1.w + c.z + r.x) + c2 * (m2.w + p2.w + c.y + r.y);
    out[y * W4 + x4] = o;
  }
}
