// Dynamic shared memory as CUDA code declares it (`extern __shared__`), for the PTX front end's
// test of module-scope `.extern .shared .align 16 .b8 s[];` (sim/tests/launch_test.cc).
// Regenerate: /usr/local/cuda/bin/nvcc --ptx -arch=sm_80 -O3 dynshared.cu -o dynshared.ptx
//
// Each CTA of blockDim.x threads uses 2 x blockDim.x floats of dynamic shared memory after a
// 12-byte static array (so the dynamic part starts at byte 16): thread t writes in[base + t] to
// s[t] and 2 x in[base + t] to s[blockDim.x + t], then, after a barrier,
//   out[base + t] = s[blockDim.x - 1 - t] + s[blockDim.x + t] + tag[t % 3]
//                 = in[base + blockDim.x - 1 - t] + 2 in[base + t] + 100 (t % 3 + 1).

extern "C" __global__ void dynShared(float* out, const float* in) {
  extern __shared__ float s[];
  __shared__ int tag[3];
  const unsigned t = threadIdx.x;
  const unsigned n = blockDim.x;
  const unsigned base = blockIdx.x * n;
  if (t < 3)
    tag[t] = 100 * static_cast<int>(t + 1);
  const float v = in[base + t];
  s[t] = v;
  s[n + t] = 2.0f * v;
  __syncthreads();
  out[base + t] = s[n - 1 - t] + s[n + t] + static_cast<float>(tag[t % 3]);
}
