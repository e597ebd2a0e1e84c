// nbody: gravitational accelerations of n bodies (GPU Gems 3 ch. 31 / CUDA samples' nbody),
// all-pairs with shared-memory tiles of positions; softened distance, rsqrtf.
#define BLOCK 128

extern "C" __global__ void nbody(float* acc, const float* pos, int n, float softening2) {
  __shared__ float4 tile[BLOCK];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float4 me = reinterpret_cast<const float4*>(pos)[i];
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  for (int t = 0; t < n; t += BLOCK) {
    tile[threadIdx.x] = reinterpret_cast<const float4*>(pos)[t + threadIdx.x];
    __syncthreads();
    for (int j = 0; j < BLOCK; ++j) {
      const float4 o = tile[j];
      const float dx = o.x - me.x, dy = o.y - me.y, dz = o.z - me.z;
      const float d2 = dx * dx + dy * dy + dz * dz + softening2;
      const float inv = rsqrtf(d2);
      const float s = o.w * inv * inv * inv;
      ax += dx * s;
      ay += dy * s;
      az += dz * s;
    }
    __syncthreads();
  }
  acc[3 * i + 0] = ax;
  acc[3 * i + 1] = ay;
  acc[3 * i + 2] = az;
}
