// warpScan: inclusive prefix sums of independent integer segments (written for this project).
// One CTA per segment; the segment index is blockIdx.y * gridDim.x + blockIdx.x, so the grid is
// two-dimensional. The CTA walks its segment in chunks of blockDim.x elements (one per thread,
// coalesced). Per chunk: a Kogge-Stone scan within each warp with __shfl_up_sync (offsets 1, 2,
// 4, 8, 16; a lane adds the value from `offset` lanes below when it has one), the last lane of
// every warp writes the warp total to shared memory, and after a barrier warp 0 scans those
// totals the same way; every thread then adds the totals of the warps before it and the carry
// of the previous chunks, which lives in shared memory and is advanced by the last thread.
// Sizes (launch.yaml): 256 segments of 1024 s32 values, grid [16, 16] = 256 CTAs of 128 threads
// (8 chunks of 128 per segment).
// Occupancy on the Fermi-class SM (48 warps, 32768 registers, 8 CTAs, 48 KB shared): 4 warps per
// CTA (12 CTAs by warps); gpurf allocates 24 registers per thread, so registers allow
// 32768 / (24 x 128) = 10, and the 20 bytes of shared memory per CTA allow 2457: the 8 CTA slots
// limit occupancy.

#define FULL 0xffffffffu

extern "C" __global__ void warpScan(int* out, const int* in, int len) {
  __shared__ int warpTotal[4];
  __shared__ int carry;
  const int seg = blockIdx.y * gridDim.x + blockIdx.x;
  const int* src = in + static_cast<size_t>(seg) * len;
  int* dst = out + static_cast<size_t>(seg) * len;
  const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
  if (t == 0)
    carry = 0;
  __syncthreads();
#pragma unroll 1
  for (int base = 0; base < len; base += blockDim.x) {
    int v = src[base + t];
#pragma unroll
    for (int off = 1; off < 32; off <<= 1) {
      const int up = __shfl_up_sync(FULL, v, off);
      if (lane >= off)
        v += up;
    }
    if (lane == 31)
      warpTotal[warp] = v;
    __syncthreads();
    if (warp == 0) {
      int w = lane < (blockDim.x >> 5) ? warpTotal[lane] : 0;
#pragma unroll
      for (int off = 1; off < 32; off <<= 1) {
        const int up = __shfl_up_sync(FULL, w, off);
        if (lane >= off)
          w += up;
      }
      if (lane < (blockDim.x >> 5))
        warpTotal[lane] = w;  // inclusive scan of the warp totals
    }
    __syncthreads();
    const int c = carry;
    const int result = v + c + (warp > 0 ? warpTotal[warp - 1] : 0);
    dst[base + t] = result;
    __syncthreads();  // every thread has read carry and warpTotal
    if (t == blockDim.x - 1)
      carry = result;
    __syncthreads();
  }
}
