// mriQ: the Q matrix of non-Cartesian MRI reconstruction (Parboil's MRI-Q computation, written
// for this project), for one chunk of k-space samples per launch:
//   Qr(v) = sum_k |phi_k|^2 cos(2 pi (kx_k x_v + ky_k y_v + kz_k z_v)),
//   Qi(v) = sum_k |phi_k|^2 sin(2 pi (...)),
// with the chunk's samples (kx, ky, kz, |phi|^2) staged in shared memory as float4 and the
// sin/cos on the SFU (__sinf, __cosf). Each thread computes 4 voxels, interleaved, so one
// shared-memory sample load feeds 4 voxels.
// Sizes (launch.yaml): 122880 voxels, a chunk of 8 k-space samples: 240 CTAs of 128 threads.
// Occupancy on the Fermi-class SM (48 warps, 32768 registers, 8 CTAs, 48 KB shared): four
// voxels' coordinates and Q accumulators (20 values) plus a sample and the arguments keep more
// than 32 registers live, so 32768 / (128 x regs) < 8 CTAs: registers limit occupancy (warps
// would allow 12, shared memory, 128 bytes per CTA, 384).
#define KCHUNK 8
#define VPT 4

extern "C" __global__ void mriQ(float* qr, float* qi, const float* x, const float* y,
                                const float* z, const float4* ks, int n) {
  __shared__ float4 k[KCHUNK];
  if (threadIdx.x < KCHUNK)
    k[threadIdx.x] = ks[threadIdx.x];
  __syncthreads();
  const int base = blockIdx.x * blockDim.x * VPT + threadIdx.x;
  float vx[VPT], vy[VPT], vz[VPT], ar[VPT], ai[VPT];
#pragma unroll
  for (int v = 0; v < VPT; ++v) {
    const int i = min(base + v * (int)blockDim.x, n - 1);
    vx[v] = x[i];
    vy[v] = y[i];
    vz[v] = z[i];
    ar[v] = 0.0f;
    ai[v] = 0.0f;
  }
#pragma unroll 2
  for (int s = 0; s < KCHUNK; ++s) {
    const float4 kv = k[s];
#pragma unroll
    for (int v = 0; v < VPT; ++v) {
      const float arg = 6.2831853071795865f * (kv.x * vx[v] + kv.y * vy[v] + kv.z * vz[v]);
      ar[v] += kv.w * __cosf(arg);
      ai[v] += kv.w * __sinf(arg);
    }
  }
#pragma unroll
  for (int v = 0; v < VPT; ++v) {
    const int i = base + v * blockDim.x;
    if (i < n) {
      qr[i] = ar[v];
      qi[i] = ai[v];
    }
  }
}
