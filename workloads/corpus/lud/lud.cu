// lud: LU decomposition without pivoting of a batch of 24 x 24 matrices, one per CTA (the
// in-shared-memory factorization Rodinia's lud applies to its diagonal blocks, here on whole
// small matrices). The matrix, made diagonally dominant by adding `shift` to its diagonal on
// load, is factored in shared memory by a warp: at step k thread i > k computes the multiplier
// l(i, k) = a(i, k) / a(k, k), then thread j > k updates its column below row k,
// a(i, j) -= l(i, k) a(k, j). The packed factors (unit-lower L below the diagonal, U on and
// above it) are written back.
// Sizes (launch.yaml): 240 matrices = 240 CTAs of 32 threads (24 active in the steps).
// Occupancy on the Fermi-class SM (48 warps, 32768 registers, 8 CTAs, 48 KB shared): one warp
// and 2400 bytes of shared memory per CTA: the 8 CTA slots limit occupancy (warps would allow
// 48, shared memory 20), the contrast case of the corpus: few, small CTAs with barriers.
#define N 24

extern "C" __global__ void lud(float* out, const float* in, float shift) {
  __shared__ float a[N][N + 1];
  const int t = threadIdx.x;
  const float* m = in + blockIdx.x * N * N;
  if (t < N) {
    for (int i = 0; i < N; ++i)
      a[i][t] = m[i * N + t] + (i == t ? shift : 0.0f);
  }
  __syncthreads();
  for (int k = 0; k < N - 1; ++k) {
    if (t > k && t < N)
      a[t][k] = a[t][k] / a[k][k];
    __syncthreads();
    if (t > k && t < N) {
      const float u = a[k][t];
      for (int i = k + 1; i < N; ++i)
        a[i][t] -= a[i][k] * u;
    }
    __syncthreads();
  }
  float* o = out + blockIdx.x * N * N;
  if (t < N) {
    for (int i = 0; i < N; ++i)
      o[i * N + t] = a[i][t];
  }
}
