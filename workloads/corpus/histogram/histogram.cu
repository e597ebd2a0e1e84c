// histogram: 256-bin histogram of byte values stored one per 32-bit word (CUDA samples'
// histogram256 pattern): per-CTA sub-histograms with shared-memory atomics, merged into the
// global histogram with global atomics.
#define BINS 256

extern "C" __global__ void histogram(const unsigned* data, unsigned* hist, int n) {
  __shared__ unsigned s[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    s[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&s[data[i] & (BINS - 1)], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) {
    unsigned c = s[b];
    if (c != 0)
      atomicAdd(&hist[b], c);
  }
}
