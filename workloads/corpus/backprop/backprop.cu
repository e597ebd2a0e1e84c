// backprop: the forward pass of one fully connected layer of a back-propagation network
// (Rodinia's layerforward) for a batch of samples: hidden(s, h) = sigmoid(sum_i in(s, i) w(i, h)),
// sigmoid(a) = 1 / (1 + exp(-a)) (ex2 and a division on the SFU). A CTA handles one sample and
// 16 hidden units: it stages the 256 x 16 weight tile and the sample's 256 inputs in shared
// memory, each of its 128 threads sums 32 inputs for one hidden unit (8 partial sums per
// unit), and 16 threads add the partials and apply the sigmoid.
// Sizes (launch.yaml): 256 inputs, 64 hidden units, 60 samples: 4 x 60 = 240 CTAs of 128
// threads; w is input-major (w[i * 64 + h]).
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
  const int t = threadIdx.x, s = blockIdx.y, h0 = blockIdx.x * NH;
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
