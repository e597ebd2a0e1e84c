// stencil3d: one Jacobi step of the 7-point Laplacian smoother on an nx x ny x nz grid,
//   out = c0 in(x,y,z) + c1 (in(x±1,y,z) + in(x,y±1,z) + in(x,y,z±1)) on interior points
// (the boundary of out is left as it is). Each thread owns one (x, y) column and marches over a
// chunk of 8 planes with a register queue along z (below, centre, above: the z reuse never
// leaves registers); the four in-plane neighbours are global loads that hit lines brought in
// by the neighbouring threads and warps (reuse distance of about one z step of the resident
// warps, a few KB: not expected to be L1-size sensitive).
// Sizes (launch.yaml): 64 x 64 x 66 grid (64 interior planes), CTAs of 32 x 4 threads,
// 2 x 16 x 8 = 256 CTAs.
// Occupancy on the Fermi-class SM (48 warps, 32768 registers, 8 CTAs, 48 KB shared): 24
// registers per thread in gpurf (registers would allow 10 CTAs, warps 12, no shared memory):
// the 8 CTA slots limit occupancy.
#define ZCHUNK 8

extern "C" __global__ void stencil3d(float* out, const float* in, int nx, int ny, int nz,
                                     float c0, float c1) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  const int z0 = 1 + blockIdx.z * ZCHUNK;
  const bool interior = x > 0 && x < nx - 1 && y > 0 && y < ny - 1;
  if (!interior)
    return;
  const int plane = nx * ny;
  const float* p = in + z0 * plane + y * nx + x;
  float below = p[-plane], centre = p[0];
#pragma unroll
  for (int k = 0; k < ZCHUNK; ++k) {
    if (z0 + k >= nz - 1)
      break;
    const float above = p[plane];
    const float s = p[-1] + p[1] + p[-nx] + p[nx] + below + above;
    out[(z0 + k) * plane + y * nx + x] = c0 * centre + c1 * s;
    below = centre;
    centre = above;
    p += plane;
  }
}
