// sgemm: C = A * B (row-major, M x K times K x N) with shared-memory tiles along K and a 4 x 4
// register tile per thread. A CTA of 16 x 8 threads computes a 32 x 64 block of C: per K step of
// 8 it stages an 8 x 32 slice of A (transposed, so a thread reads its four rows as one float4)
// and an 8 x 64 slice of B in shared memory, then each thread accumulates its 4 x 4 outputs from
// a float4 of A and a float4 of B per k (16 FMAs per 2 shared loads).
//
// Sizes (launch.yaml): M = 512, N = 1024, K = 16: 16 x 16 = 256 CTAs of 128 threads.
// Occupancy on the Fermi-class SM (48 warps, 32768 registers, 8 CTAs, 48 KB shared): the 16
// accumulators, the 8 operands of a k step (two aligned quads) and the addresses keep 40-56
// registers live, so
// 32768 / (128 x regs) < 8 CTAs: registers limit occupancy (warps would allow 12, shared
// memory, 3 KB per CTA, 16). gpurf allocates 56 registers (4 CTAs); with the k loop unrolled
// nvcc hoists all shared loads and even 63 registers spill, so the k loop is kept rolled.
#define TM 32  // rows of C per CTA
#define TN 64  // columns of C per CTA
#define TK 8

extern "C" __global__ void sgemm(float* c, const float* a, const float* b, int m, int n, int k) {
  __shared__ float4 as[TK][TM / 4];  // as[kk][r/4] = A[row0 + r][k0 + kk], r = 0..31
  __shared__ float4 bs[TK][TN / 4];  // bs[kk][j/4] = B[k0 + kk][col0 + j], j = 0..63
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 16 + tx;
  const int row0 = blockIdx.y * TM, col0 = blockIdx.x * TN;
  float acc[4][4];
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j)
      acc[i][j] = 0.0f;
  for (int k0 = 0; k0 < k; k0 += TK) {
    // A slice: 32 rows x 8 k = 256 values, two per thread, stored transposed.
#pragma unroll
    for (int e = 0; e < 2; ++e) {
      const int idx = tid + e * 128, r = idx / TK, kk = idx % TK;
      reinterpret_cast<float*>(as[kk])[r] = a[(row0 + r) * k + k0 + kk];
    }
    // B slice: 8 k x 64 columns = 128 float4, one per thread.
    {
      const int kk = tid / 16, j4 = tid % 16;
      bs[kk][j4] = reinterpret_cast<const float4*>(b + (k0 + kk) * n + col0)[j4];
    }
    __syncthreads();
#pragma unroll 1  // unrolled, nvcc hoists the shared loads and gpurf spills at 63
    for (int kk = 0; kk < TK; ++kk) {
      const float4 av = as[kk][ty];
      const float4 bv = bs[kk][tx];
      const float ar[4] = {av.x, av.y, av.z, av.w};
      const float br[4] = {bv.x, bv.y, bv.z, bv.w};
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j)
          acc[i][j] = fmaf(ar[i], br[j], acc[i][j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    float4* out = reinterpret_cast<float4*>(c + (row0 + ty * 4 + i) * n + col0) + tx;
    *out = make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
  }
}
