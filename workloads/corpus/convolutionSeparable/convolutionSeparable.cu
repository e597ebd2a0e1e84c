// convolutionSeparable: 2D convolution with a separable kernel (row filter then column filter,
// CUDA samples' convolutionSeparable) of a w x h image with clamp-to-zero borders, both passes
// in one kernel: each CTA loads its tile with a RADIUS apron into shared memory, filters the
// rows (tile rows plus the vertical apron), then the columns.
#define RADIUS 4
#define TW 16
#define TH 16


extern "C" __global__ void convolutionSeparable(float* out, const float* in, const float* filter,
                                                int w, int h) {
  __shared__ float tile[TH + 2 * RADIUS][TW + 2 * RADIUS];
  __shared__ float rows[TH + 2 * RADIUS][TW];
  const int x0 = blockIdx.x * TW - RADIUS, y0 = blockIdx.y * TH - RADIUS;
  for (int i = threadIdx.y * TW + threadIdx.x; i < (TH + 2 * RADIUS) * (TW + 2 * RADIUS);
       i += TW * TH) {
    const int ty = i / (TW + 2 * RADIUS), tx = i % (TW + 2 * RADIUS);
    const int x = x0 + tx, y = y0 + ty;
    tile[ty][tx] = (x >= 0 && x < w && y >= 0 && y < h) ? in[y * w + x] : 0.0f;
  }
  __syncthreads();
  for (int ty = threadIdx.y; ty < TH + 2 * RADIUS; ty += TH) {
    float s = 0.0f;
#pragma unroll
    for (int k = -RADIUS; k <= RADIUS; ++k)
      s += filter[RADIUS - k] * tile[ty][threadIdx.x + RADIUS + k];
    rows[ty][threadIdx.x] = s;
  }
  __syncthreads();
  float s = 0.0f;
#pragma unroll
  for (int k = -RADIUS; k <= RADIUS; ++k)
    s += filter[RADIUS - k] * rows[threadIdx.y + RADIUS + k][threadIdx.x];
  const int x = blockIdx.x * TW + threadIdx.x, y = blockIdx.y * TH + threadIdx.y;
  if (x < w && y < h)
    out[y * w + x] = s;
}
