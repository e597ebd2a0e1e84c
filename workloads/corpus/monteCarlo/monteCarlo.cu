// monteCarlo: Monte-Carlo price of European call options, one option per CTA. Each thread draws
// 10 standard normals (5 Box-Muller pairs from 5 counter-based generators: a murmur3 finalizer
// of the path number gives u1, a cheap xorshift-multiply of that hash gives u2, so results do
// not depend on scheduling), simulates S_T = S0 exp((r - v^2/2) T + v sqrt(T) z), and sums
// max(S_T - K, 0). The CTA reduces its 1920 payoffs in shared memory and writes
// exp(-r T) x mean. SFU use per pair: lg2 (log), sqrt, sin, cos and two ex2 (exp).
//
// Uniforms: u = (2 m + 1) / 2^24 with m = hash >> 9 (23 bits), exact in float and never 0.
// Sizes (launch.yaml): 240 options = 240 CTAs of 192 threads (6 warps).
// Occupancy on the Fermi-class SM (48 warps, 32768 registers, 8 CTAs, 48 KB shared): the five
// generators run phase by phase (all uniforms, then all radii and angles, then all normals,
// then the payoffs), so their values are live together: 25 registers per thread in gpurf, and
// 32768 / (192 x 25) = 6 < 8 CTAs: registers limit occupancy (warps allow 8, CTA slots 8,
// shared memory, 768 bytes per CTA, 64).
#define THREADS 192
#define STREAMS 5

__device__ unsigned mix(unsigned h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

__device__ float uniform(unsigned h) {
  return (float)((h >> 9) * 2u + 1u) * 5.9604644775390625e-8f;  // 2^-24
}

extern "C" __global__ void monteCarlo(float* price, const float* s0, const float* strike,
                                      const float* years, float r, float v) {
  __shared__ float part[THREADS];
  const int opt = blockIdx.x;
  const float s = s0[opt], kx = strike[opt], t = years[opt];
  const float drift = (r - 0.5f * v * v) * t, vol = v * sqrtf(t);
  const unsigned path0 = (unsigned)(opt * THREADS + threadIdx.x) * STREAMS;
  float u1[STREAMS], u2[STREAMS], rad[STREAMS], ang[STREAMS];
#pragma unroll
  for (int g = 0; g < STREAMS; ++g) {
    const unsigned h = mix(path0 + g + 0x9e3779b9u);
    u1[g] = uniform(h);
    u2[g] = uniform((h ^ (h >> 15)) * 0x2c1b3c6du);
  }
#pragma unroll
  for (int g = 0; g < STREAMS; ++g) {
    rad[g] = sqrtf(-2.0f * __logf(u1[g]));
    ang[g] = 6.2831853071795865f * u2[g];
  }
  float z[2 * STREAMS];
#pragma unroll
  for (int g = 0; g < STREAMS; ++g) {
    z[2 * g] = rad[g] * __cosf(ang[g]);
    z[2 * g + 1] = rad[g] * __sinf(ang[g]);
  }
  float sum = 0.0f;
#pragma unroll
  for (int p = 0; p < 2 * STREAMS; ++p)
    sum += fmaxf(s * __expf(drift + vol * z[p]) - kx, 0.0f);
  part[threadIdx.x] = sum;
  __syncthreads();
  for (int w = 128; w > 0; w >>= 1) {  // 192 is not a power of two: guard the upper half
    if (threadIdx.x < w && threadIdx.x + w < THREADS)
      part[threadIdx.x] += part[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    price[opt] = __expf(-r * t) * part[0] / (float)(THREADS * STREAMS * 2);
}
