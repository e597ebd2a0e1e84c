// scalarProd: dot products of `vectors` pairs of vectors of length `len` (CUDA samples'
// scalarProd): CTAs stride over the vector pairs; threads accumulate strided partial products
// and reduce them in shared memory.
#define BLOCK 128

extern "C" __global__ void scalarProd(float* out, const float* a, const float* b, int vectors,
                                      int len) {
  __shared__ float acc[BLOCK];
  for (int v = blockIdx.x; v < vectors; v += gridDim.x) {
    const float* va = a + v * len;
    const float* vb = b + v * len;
    float sum = 0.0f;
    for (int i = threadIdx.x; i < len; i += blockDim.x)
      sum += va[i] * vb[i];
    acc[threadIdx.x] = sum;
    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
      __syncthreads();
      if (threadIdx.x < stride)
        acc[threadIdx.x] += acc[threadIdx.x + stride];
    }
    __syncthreads();
    if (threadIdx.x == 0)
      out[v] = acc[0];
  }
}
