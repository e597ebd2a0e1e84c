// pathfinder: minimum-cost paths down a grid, Rodinia's pyramid scheme. Starting from the costs
// `src` of one row, each of P = 16 wall rows adds its cost to the cheapest of the three cells
// above (x-1, x, x+1, only those inside the grid):
//   cost_r(x) = wall(r, x) + min(cost_{r-1}(x-1), cost_{r-1}(x), cost_{r-1}(x+1)).
// A CTA of 128 threads covers 128 columns and runs all 16 steps on shared memory; after step s
// only its columns s..127-s are exact, so it writes the middle 96 (CTAs overlap by 16 columns on
// each side). The whole 16 x 128 wall tile is staged in shared memory before the steps
// (as a prefetch of the pyramid), plus two rows of costs.
// Sizes (launch.yaml): 23040 columns, 16 wall rows: 240 CTAs of 128 threads.
// Occupancy on the Fermi-class SM (48 warps, 32768 registers, 8 CTAs, 48 KB shared):
// 16 x 128 + 2 x 128 ints = 9216 bytes of shared memory per CTA, so 49152 / 9216 = 5 CTAs:
// shared memory limits occupancy (CTA slots would allow 8, warps 12).
#define T 128
#define P 16
#define BIG 0x3fffffff

extern "C" __global__ void pathfinder(int* dst, const int* src, const int* wall, int cols) {
  __shared__ int wt[P][T];
  __shared__ int cost[2][T];
  const int t = threadIdx.x;
  const int x = blockIdx.x * (T - 2 * P) - P + t;
  const bool inside = x >= 0 && x < cols;
#pragma unroll
  for (int r = 0; r < P; ++r)
    wt[r][t] = inside ? wall[r * cols + x] : 0;
  cost[0][t] = inside ? src[x] : BIG;
  __syncthreads();
  for (int r = 0; r < P; ++r) {
    const int* prev = cost[r & 1];
    int m = prev[t];
    if (t > 0)
      m = min(m, prev[t - 1]);
    if (t < T - 1)
      m = min(m, prev[t + 1]);
    cost[(r + 1) & 1][t] = inside ? wt[r][t] + m : BIG;
    __syncthreads();
  }
  if (t >= P && t < T - P && inside)
    dst[x] = cost[P & 1][t];
}
