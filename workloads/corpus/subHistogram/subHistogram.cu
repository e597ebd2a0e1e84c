// subHistogram: a 1024-bin histogram with per-warp private sub-histograms in shared memory (the
// privatization scheme of the CUDA SDK's histogram kernels, written for this project). Each of
// the 8 warps of a CTA owns 1024 counters, so shared-memory atomics only collide within a warp;
// after a barrier every thread merges 4 bins across the 8 sub-histograms and adds the non-zero
// totals to the global histogram with one atomic each. Bin = key >> 22 (the top 10 bits).
// Sizes (launch.yaml): 245760 keys, 4 per thread (strided by the grid, so loads coalesce):
// 240 CTAs of 256 threads.
// Occupancy on the Fermi-class SM (48 warps, 32768 registers, 8 CTAs, 48 KB shared):
// 8 x 1024 x 4 = 32 KB of shared memory per CTA, so 49152 / 32768 = 1 CTA: shared memory limits
// occupancy (warps would allow 6, CTA slots 8).
#define BINS 1024
#define WARPS 8
#define PER_THREAD 4

extern "C" __global__ void subHistogram(unsigned* hist, const unsigned* keys, int n) {
  __shared__ __align__(16) unsigned sub[WARPS][BINS];
  const int t = threadIdx.x, warp = t / 32;
  uint4* z = reinterpret_cast<uint4*>(&sub[0][0]);
#pragma unroll
  for (int b = 0; b < WARPS * BINS / 4 / 256; ++b)  // 16-byte stores, 8 per thread
    z[b * 256 + t] = make_uint4(0, 0, 0, 0);
  __syncthreads();
  const int stride = gridDim.x * blockDim.x;
#pragma unroll
  for (int k = 0; k < PER_THREAD; ++k) {
    const int i = blockIdx.x * blockDim.x + t + k * stride;
    if (i < n)
      atomicAdd(&sub[warp][keys[i] >> 22], 1u);
  }
  __syncthreads();
#pragma unroll
  for (int b = t; b < BINS; b += 256) {
    unsigned total = 0;
#pragma unroll
    for (int w = 0; w < WARPS; ++w)
      total += sub[w][b];
    if (total != 0)
      atomicAdd(&hist[b], total);
  }
}
