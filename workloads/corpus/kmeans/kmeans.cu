// kmeans: one k-means step, single launch: every point finds its nearest centroid (squared
// Euclidean distance, first minimum on ties), records it in membership, and adds itself to
// that cluster's feature sums and count with global atomics (the next step's centroids are
// sums / counts, left to the host or a later launch).
//
// Layout: features are stored feature-major (feat[f * n + i]) so a warp's loads of one feature
// are coalesced; the k x 12 centroid table is row-major in global memory (192 bytes for k = 4:
// small enough to stay in any L1, so this kernel is not cache-sensitive).
// Sizes (launch.yaml): n = 61440 points of 12 features, k = 4 clusters; each thread handles
// two points, so 240 CTAs of 128 threads.
// Occupancy on the Fermi-class SM (48 warps, 32768 registers, 8 CTAs, 48 KB shared): the two
// points' 24 features stay in registers for the whole centroid loop, with the two running
// distances, minima and indices: more than 32 registers per thread, so 32768 / (128 x regs) < 8
// CTAs and registers limit occupancy (warps would allow 12, no shared memory is used).
#define F 12
#define PPT 2  // points per thread

extern "C" __global__ void kmeans(int* membership, float* sums, unsigned* counts,
                                  const float* feat, const float* cent, int n, int k) {
  const int base = blockIdx.x * blockDim.x * PPT + threadIdx.x;
  float x[PPT][F];
#pragma unroll
  for (int p = 0; p < PPT; ++p)
#pragma unroll
    for (int f = 0; f < F; ++f)
      x[p][f] = feat[f * n + base + p * blockDim.x];
  float best[PPT];
  int bi[PPT];
#pragma unroll
  for (int p = 0; p < PPT; ++p) {
    best[p] = 3.0e38f;
    bi[p] = 0;
  }
#pragma unroll 1
  for (int c = 0; c < k; ++c) {
    float d[PPT];
#pragma unroll
    for (int p = 0; p < PPT; ++p)
      d[p] = 0.0f;
#pragma unroll
    for (int f = 0; f < F; ++f) {
      const float cf = cent[c * F + f];
#pragma unroll
      for (int p = 0; p < PPT; ++p) {
        const float diff = x[p][f] - cf;
        d[p] = fmaf(diff, diff, d[p]);
      }
    }
#pragma unroll
    for (int p = 0; p < PPT; ++p) {
      if (d[p] < best[p]) {
        best[p] = d[p];
        bi[p] = c;
      }
    }
  }
#pragma unroll
  for (int p = 0; p < PPT; ++p) {
    membership[base + p * blockDim.x] = bi[p];
    atomicAdd(&counts[bi[p]], 1u);
#pragma unroll
    for (int f = 0; f < F; ++f)
      atomicAdd(&sums[bi[p] * F + f], x[p][f]);
  }
}
