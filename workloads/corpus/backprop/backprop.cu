// backprop: the forward pass of one fully connected layer of a back-propagation network
// (Rodinia's layerforward) for a batch of samples: hidden(s, h) = sigmoid(sum_i in(s, i) w(i, h)),
// sigmoid(a) = 1 / (1 + exp(-a)) (ex2 and a division on the SFU). A CTA handles one sample and
// 16 hidden units: it stages the 256 x 16 weight tile and the sample's 256 inputs in shared
// memory, each of its 128 threads sums 32 inputs for one hidden unit (8 partial sums per
// unit), and 16 threads add the partials and apply the sigmoid.
// Sizes (launch.yaml): 256 inputs, 64 hidden units, 60 samples: 60 x 4 = 240 CTAs of 128
// threads (blockIdx.x = sample, blockIdx.y = group of 16 hidden units); w is input-major
// (w[i * 64 + h]).
//
// Cache sensitivity: every CTA reads its group's whole 16 KB weight tile from global memory.
// CTAs are numbered sample-first, so the SMs work through the 60 CTAs of group 0, then group 1,
// and so on: at any time an SM's CTAs reread the same 16 KB tile (two tiles at a group change)
// plus 1 KB of inputs per CTA. A 48 KB L1 keeps the tile, so after its cold misses nearly
// every weight load hits; in a 16 KB L1 the tile plus the streaming inputs exceed the capacity
// and the tile is read in the same order every time, so LRU evicts each line just before its
// reuse and nearly every weight load misses. The L1 hit rate and IPC change by far more
// than 10%.
// Occupancy on the Fermi-class SM (48 warps, 32768 registers, 8 CTAs, 48 KB shared): the weight
// tile (16 KB), inputs (1 KB) and partials (0.5 KB) take 17.5 KB per CTA, so
// 49152 / 17920 = 2 CTAs: shared memory limits occupancy (warps allow 12, CTA slots 8).
#define NIN 256
#define NH 16     // hidden units per CTA
#define PARTS 8   // partial sums per hidden unit

extern "C" __global__ void backprop(float* hidden, const float* in, const float* w, int nhid) {
  __shared__ float wt[NIN][NH];
  __shared__ float xs[NIN];
  __shared__ float part[PARTS][NH];
  const int t = threadIdx.x, s = blockIdx.x, h0 = blockIdx.y * NH;
  const int col = t % NH, row = t / NH;  // 128 threads = 8 rows x 16 columns per load
#pragma unroll 8
  for (int i = row; i < NIN; i += 128 / NH)
    wt[i][col] = w[i * nhid + h0 + col];
  xs[t] = in[s * NIN + t];
  xs[t + 128] = in[s * NIN + t + 128];
  __syncthreads();
  float acc = 0.0f;
  const int i0 = row * (NIN / PARTS);
#pragma unroll 8
  for (int i = i0; i < i0 + NIN / PARTS; ++i)
    acc = fmaf(xs[i], wt[i][col], acc);
  part[row][col] = acc;
  __syncthreads();
  if (t < NH) {
    float a = 0.0f;
#pragma unroll
    for (int p = 0; p < PARTS; ++p)
      a += part[p][t];
    hidden[s * nhid + h0 + t] = 1.0f / (1.0f + __expf(-a));
  }
}
