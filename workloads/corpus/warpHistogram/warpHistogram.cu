// warpHistogram: a 16-bin histogram of an 8-bit image with warp-aggregated atomics (written for
// this project). Bin = pixel >> 4. The grid is two-dimensional and covers the image in tiles of
// 128 x 8 pixels: CTA (bx, by) of 32 x 8 threads handles columns 128 bx + threadIdx.x + 32 k
// (k = 0..3) of row 8 by + threadIdx.y. For each pixel inside the image, the lanes that hold one
// are found with __activemask (the last tile column is partly outside the image, so warps
// diverge there), __match_any_sync groups the lanes whose pixels fall in the same bin, and only
// the lowest lane of each group (its leader) adds the group's size, __popc of the group's mask,
// to the CTA's histogram in shared memory: one shared atomic per bin present in the warp instead
// of one per pixel. After a barrier the first 16 threads add the non-zero counts to the global
// histogram (one global atomic per bin and CTA); __ballot_sync over those 16 lanes skips the
// whole step in a CTA whose counts are all zero.
// Sizes (launch.yaml): a 1000 x 256 image (u8, row pitch 1000), grid [8, 32] = 256 CTAs of 256
// threads; the last tile column covers 104 of its 128 columns.
// Occupancy on the Fermi-class SM (48 warps, 32768 registers, 8 CTAs, 48 KB shared): 8 warps per
// CTA, so 48 / 8 = 6 CTAs; gpurf allocates 16 registers per thread, so registers allow
// 32768 / (16 x 256) = 8, and 64 bytes of shared memory per CTA allow 768: warps limit
// occupancy.

#define BINS 16

extern "C" __global__ void warpHistogram(unsigned* hist, const unsigned char* img, int width,
                                         int height) {
  __shared__ unsigned shist[BINS];
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const int lane = t & 31;
  if (t < BINS)
    shist[t] = 0;
  __syncthreads();
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    const int x = blockIdx.x * 128 + threadIdx.x + 32 * k;
    if (x < width && y < height) {
      const unsigned bin = img[static_cast<size_t>(y) * width + x] >> 4;
      const unsigned active = __activemask();
      const unsigned peers = __match_any_sync(active, bin);
      const int leader = __ffs(peers) - 1;
      if (lane == leader)
        atomicAdd(&shist[bin], static_cast<unsigned>(__popc(peers)));
    }
  }
  __syncthreads();
  if (t < 32) {
    const unsigned count = t < BINS ? shist[t] : 0u;
    const unsigned nonzero = __ballot_sync(0xffffffffu, count != 0);
    if (nonzero != 0 && count != 0)
      atomicAdd(&hist[t], count);
  }
}
