// lud: LU decomposition without pivoting of a batch of 16 x 16 matrices, two per CTA (the
// in-shared-memory factorization Rodinia's lud applies to its diagonal blocks, here on whole
// small matrices). Each matrix, made diagonally dominant by adding `shift` to its diagonal on
// load, is factored in shared memory by a half-warp: at step k thread i > k of the half
// computes the multiplier l(i, k) = a(i, k) / a(k, k), then thread j > k updates its column
// below row k, a(i, j) -= l(i, k) a(k, j). The packed factors (unit-lower L below the diagonal,
// U on and above it) are written back. The steps shrink the active lanes (divergence) and
// separate the phases with barriers.
// Sizes (launch.yaml): 480 matrices, 240 CTAs of 32 threads.
// Occupancy on the Fermi-class SM (48 warps, 32768 registers, 8 CTAs, 48 KB shared): one warp
// and 2176 bytes of shared memory per CTA: the 8 CTA slots limit occupancy (warps would allow
// 48, shared memory 22, registers far more), the contrast case of the corpus: small CTAs.
#define N 16

extern "C" __global__ void lud(float* out, const float* in, float shift) {
  __shared__ float a[2][N][N + 1];
  const int half = threadIdx.x / N, t = threadIdx.x % N;
  const int mat = blockIdx.x * 2 + half;
  float(*m)[N + 1] = a[half];
  const float* src = in + mat * N * N;
  for (int i = 0; i < N; ++i)
    m[i][t] = src[i * N + t] + (i == t ? shift : 0.0f);
  __syncthreads();
  for (int k = 0; k < N - 1; ++k) {
    if (t > k)
      m[t][k] = m[t][k] / m[k][k];
    __syncthreads();
    if (t > k) {
      const float u = m[k][t];
      for (int i = k + 1; i < N; ++i)
        m[i][t] -= m[i][k] * u;
    }
    __syncthreads();
  }
  float* dst = out + mat * N * N;
  for (int i = 0; i < N; ++i)
    dst[i * N + t] = m[i][t];
}
