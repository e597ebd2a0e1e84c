// particleFilter: the likelihood and weight update of a particle filter tracking a bright disk
// (Rodinia's particlefilter likelihood step). Each particle at (px, py) samples the image at
// the 13 points of a radius-2 disk around floor(px), floor(py) (clamped to the image) and
// scores them against the foreground (228) and background (100) intensities:
//   L = sum_k ((I_k - 100)^2 - (I_k - 228)^2) x scale,   w' = w x exp(L)   (ex2 on the SFU).
//
// Cache sensitivity: the image is 128 x 64 floats = 32 KB and particle positions are uniformly
// random over it, so a particle's 13 samples (5 rows, 1-2 lines per row) land on random lines
// of the 32 KB image; every line is reused only through L1, by other particles of the SM
// (~1900 particles x ~7 lines per SM over 256 lines: ~50 reuses per line). A 48 KB L1 holds
// the whole image, so after the cold misses nearly every sample hits; a 16 KB L1 holds half of
// it at best, so about half the sample lines miss. Hit rate and IPC change by well over 10%.
// Sizes (launch.yaml): 30720 particles, 240 CTAs of 128 threads. Occupancy: 18 registers, no
// shared memory: the 8 CTA slots limit it (32 resident warps).
#define IW 128
#define IH 64

extern "C" __global__ void particleFilter(float* w_out, const float* w_in, const float* px,
                                          const float* py, const float* image, int n,
                                          float scale) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const int cx = (int)floorf(px[i]), cy = (int)floorf(py[i]);
  float l = 0.0f;
#pragma unroll
  for (int dy = -2; dy <= 2; ++dy) {
#pragma unroll
    for (int dx = -2; dx <= 2; ++dx) {
      if (dx * dx + dy * dy > 4)
        continue;
      const int sx = min(max(cx + dx, 0), IW - 1), sy = min(max(cy + dy, 0), IH - 1);
      const float v = image[sy * IW + sx];
      l += (v - 100.0f) * (v - 100.0f) - (v - 228.0f) * (v - 228.0f);
    }
  }
  w_out[i] = w_in[i] * __expf(l * scale);
}
