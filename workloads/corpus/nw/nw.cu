// nw: Needleman-Wunsch global alignment scores of a batch of sequence pairs, one pair per CTA.
// A CTA of one warp fills the 33 x 33 score matrix of two 32-residue sequences in shared memory
// along anti-diagonals (thread t owns column t + 1; 63 diagonals separated by barriers):
//   H(i, j) = max(H(i-1, j-1) + S(a_i, b_j), H(i-1, j) - p, H(i, j-1) - p),
//   H(i, 0) = -i p, H(0, j) = -j p,
// with S a 24 x 24 substitution table in global memory. As in Rodinia, the substitution scores
// of the pair (the 32 x 32 "reference" tile) are gathered into shared memory first, then the
// wavefront runs on shared memory only; the CTA writes its whole 33 x 33 matrix.
// Sizes (launch.yaml): 240 pairs = 240 CTAs of 32 threads, residues in 0..23.
// Occupancy on the Fermi-class SM (48 warps, 32768 registers, 8 CTAs, 48 KB shared): 33 x 33
// + 32 x 32 ints = 8452 bytes of shared memory per CTA, so 49152 / 8452 = 5 CTAs: shared memory
// limits occupancy (CTA slots would allow 8, warps 48, registers far more).
#define L 32

extern "C" __global__ void nw(int* score, const int* seq_a, const int* seq_b, const int* sub,
                              int penalty) {
  __shared__ int h[L + 1][L + 1];
  __shared__ int ref[L][L];
  const int t = threadIdx.x, pair = blockIdx.x;
  const int b = seq_b[pair * L + t];
  for (int i = 0; i < L; ++i)
    ref[i][t] = sub[seq_a[pair * L + i] * 24 + b];
  h[0][t + 1] = -(t + 1) * penalty;
  h[t + 1][0] = -(t + 1) * penalty;
  if (t == 0)
    h[0][0] = 0;
  __syncthreads();
  // Not unrolled: unrolled, nvcc strength-reduces the cell addresses to a running pointer
  // minus a constant, an intermediate below shared address 0 that gpurf's executor (which adds
  // 32-bit shared addresses and offsets without wrapping) rejects.
#pragma unroll 1
  for (int d = 0; d < 2 * L - 1; ++d) {
    const int i = d - t + 1, j = t + 1;
    if (i >= 1 && i <= L) {
      const int diag = h[i - 1][j - 1] + ref[i - 1][j - 1];
      const int up = h[i - 1][j] - penalty, left = h[i][j - 1] - penalty;
      h[i][j] = max(diag, max(up, left));
    }
    __syncthreads();
  }
  int* out = score + pair * (L + 1) * (L + 1);
  for (int i = 0; i <= L; ++i) {
    out[i * (L + 1) + t] = h[i][t];
    if (t == 0)
      out[i * (L + 1) + L] = h[i][L];
  }
}
