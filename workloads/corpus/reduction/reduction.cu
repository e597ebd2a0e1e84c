// reduction: per-CTA sums of an integer array (CUDA samples' reduction, kernel 3 style): each
// thread adds two elements while loading, then a shared-memory tree reduction; thread 0 writes
// the CTA's partial sum.
#define BLOCK 256

extern "C" __global__ void reduction(const int* in, int* partial, unsigned n) {
  __shared__ int s[BLOCK];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  int v = 0;
  if (i < n)
    v = in[i];
  if (i + blockDim.x < n)
    v += in[i + blockDim.x];
  s[tid] = v;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride)
      s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0)
    partial[blockIdx.x] = s[0];
}
