// hotspot: one explicit time step of the Rodinia HotSpot thermal stencil on a w x h grid: each
// CTA loads its 16 x 16 tile of temperatures with a one-cell halo into shared memory (borders
// replicate the edge cell) and updates every cell from its four neighbours and its power.
#define BS 16

extern "C" __global__ void hotspot(float* temp_out, const float* temp_in, const float* power,
                                   int w, int h, float cap, float rx, float ry, float rz,
                                   float amb) {
  __shared__ float t[BS + 2][BS + 2];
  const int x = blockIdx.x * BS + threadIdx.x, y = blockIdx.y * BS + threadIdx.y;
  const int cx = min(x, w - 1), cy = min(y, h - 1);
  const int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
  t[ty][tx] = temp_in[cy * w + cx];
  if (threadIdx.x == 0)
    t[ty][0] = temp_in[cy * w + max(cx - 1, 0)];
  if (threadIdx.x == BS - 1)
    t[ty][BS + 1] = temp_in[cy * w + min(cx + 1, w - 1)];
  if (threadIdx.y == 0)
    t[0][tx] = temp_in[max(cy - 1, 0) * w + cx];
  if (threadIdx.y == BS - 1)
    t[BS + 1][tx] = temp_in[min(cy + 1, h - 1) * w + cx];
  __syncthreads();
  if (x >= w || y >= h)
    return;
  const float c = t[ty][tx];
  const float delta = (power[y * w + x] + (t[ty][tx + 1] + t[ty][tx - 1] - 2.0f * c) * rx +
                       (t[ty + 1][tx] + t[ty - 1][tx] - 2.0f * c) * ry + (amb - c) * rz) /
                      cap;
  temp_out[y * w + x] = c + delta;
}
