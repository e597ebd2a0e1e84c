// spmv: y = A x for a sparse matrix in CSR form (row_offsets, cols, vals), 8 threads per row:
// the 8 threads of a row read its nonzeros 8 at a time (consecutive, so vals and cols stream
// through memory), gather x[cols[j]], and the 8 partial sums are combined by a shared-memory
// tree (3 barrier steps). A CTA of 128 threads handles 16 rows.
//
// Cache sensitivity: vals and cols are streamed once (no reuse). x holds 8192 floats = 32 KB
// and the column indices are uniformly random, so the x gathers are reused only through the
// cache: per SM about 3840 x gathers fall on 256 lines. A 48 KB L1 keeps all of x (beside the
// streaming lines), so after the 256 cold misses nearly every gather hits; a 16 KB L1 holds at
// most half of x and the streaming lines evict it further, so at most about half the gathers
// hit. The L1 hit rate and the IPC of this latency-bound kernel change by far more than 10%.
// Sizes (launch.yaml): 3840 rows x 8192 columns, 32 nonzeros per row (122880 in all): 240 CTAs
// of 128 threads. Occupancy: 20 registers, 512 bytes of shared memory: the 8 CTA slots limit
// it (32 resident warps).
#define TPR 8   // threads per row
#define RPC 16  // rows per CTA

extern "C" __global__ void spmv(float* y, const unsigned* row_offsets, const unsigned* cols,
                                const float* vals, const float* x, int rows) {
  __shared__ float part[RPC * TPR];
  const int lane = threadIdx.x % TPR;
  const int row = blockIdx.x * RPC + threadIdx.x / TPR;
  float sum = 0.0f;
  if (row < rows) {
    const unsigned end = row_offsets[row + 1];
    for (unsigned j = row_offsets[row] + lane; j < end; j += TPR)
      sum += vals[j] * x[cols[j]];
  }
  part[threadIdx.x] = sum;
  __syncthreads();
  for (int w = TPR / 2; w > 0; w >>= 1) {
    if (lane < w)
      part[threadIdx.x] += part[threadIdx.x + w];
    __syncthreads();
  }
  if (lane == 0 && row < rows)
    y[row] = part[threadIdx.x];
}
