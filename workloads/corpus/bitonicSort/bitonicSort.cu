// bitonicSort: each CTA sorts its 2 * blockDim.x keys ascending with a bitonic network in
// shared memory (CUDA samples' bitonicSortShared); blockDim.x must be a power of two.
#define MAX_KEYS 1024

extern "C" __global__ void bitonicSort(unsigned* keys) {
  __shared__ unsigned s[MAX_KEYS];
  const unsigned n = 2 * blockDim.x;
  unsigned* base = keys + blockIdx.x * n;
  s[threadIdx.x] = base[threadIdx.x];
  s[threadIdx.x + blockDim.x] = base[threadIdx.x + blockDim.x];
  for (unsigned size = 2; size <= n; size <<= 1) {
    for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
      __syncthreads();
      const unsigned pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
      const bool ascending = ((threadIdx.x & (size / 2)) == 0) || size == n;
      const unsigned a = s[pos], b = s[pos + stride];
      if ((a > b) == ascending) {
        s[pos] = b;
        s[pos + stride] = a;
      }
    }
  }
  __syncthreads();
  base[threadIdx.x] = s[threadIdx.x];
  base[threadIdx.x + blockDim.x] = s[threadIdx.x + blockDim.x];
}
