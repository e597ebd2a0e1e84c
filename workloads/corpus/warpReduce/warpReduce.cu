// warpReduce: the sum and the maximum of every row of a row-major matrix (written for this
// project). One CTA per row; the row index is blockIdx.y * gridDim.x + blockIdx.x, so the grid is
// two-dimensional. Each thread accumulates a strided slice of the row (coalesced loads), each
// warp combines its 32 partial sums and maxima with a __shfl_down_sync tree (offsets 16, 8, 4,
// 2, 1: lane 0 ends with the warp's result), lane 0 of every warp writes them to shared memory,
// and after a barrier warp 0 reduces the per-warp values with a second shuffle tree.
// Sizes (launch.yaml): a 256 x 1024 float matrix, grid [16, 16] = 256 CTAs of 256 threads
// (4 elements per thread).
// Occupancy on the Fermi-class SM (48 warps, 32768 registers, 8 CTAs, 48 KB shared): 8 warps per
// CTA, so 48 / 8 = 6 CTAs; gpurf allocates 20 registers per thread, so registers allow
// 32768 / (20 x 256) = 6 as well, and the 256 bytes of shared memory per CTA allow 192: warps and
// registers limit occupancy together (a tie; one more register would make registers the limit).
#include <math.h>

#define FULL 0xffffffffu

extern "C" __global__ void warpReduce(float* rowSum, float* rowMax, const float* m, int cols) {
  __shared__ float wsum[32];
  __shared__ float wmax[32];
  const int row = blockIdx.y * gridDim.x + blockIdx.x;
  const float* r = m + static_cast<size_t>(row) * cols;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  float s = 0.0f, mx = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    const float v = r[c];
    s += v;
    mx = fmaxf(mx, v);
  }
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) {
    s += __shfl_down_sync(FULL, s, off);
    mx = fmaxf(mx, __shfl_down_sync(FULL, mx, off));
  }
  if (lane == 0) {
    wsum[warp] = s;
    wmax[warp] = mx;
  }
  __syncthreads();
  if (warp == 0) {
    const int warps = blockDim.x >> 5;
    s = lane < warps ? wsum[lane] : 0.0f;
    mx = lane < warps ? wmax[lane] : -INFINITY;
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
      s += __shfl_down_sync(FULL, s, off);
      mx = fmaxf(mx, __shfl_down_sync(FULL, mx, off));
    }
    if (lane == 0) {
      rowSum[row] = s;
      rowMax[row] = mx;
    }
  }
}
