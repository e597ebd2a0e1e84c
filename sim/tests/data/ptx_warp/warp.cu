#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda_fp16.h>
namespace cg = cooperative_groups;

// One warp per 32 elements of `in`; writes several warp-collective results per warp / lane.
extern "C" __global__ void warpOps(const int* __restrict__ in, const __half* __restrict__ hin,
                                   int* out, unsigned long long* out64, __half* hout, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;
  const int warp = tid >> 5;
  int v = tid < n ? __ldg(in + tid) : 0;
  // shfl_down tree reduction
  int s = v;
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
  // shfl_xor butterfly max
  int mx = v;
  for (int o = 16; o > 0; o >>= 1) mx = max(mx, __shfl_xor_sync(0xffffffffu, mx, o));
  // inclusive scan with shfl_up
  int sc = v;
  for (int o = 1; o < 32; o <<= 1) {
    int t = __shfl_up_sync(0xffffffffu, sc, o);
    if (lane >= o) sc += t;
  }
  int bcast = __shfl_sync(0xffffffffu, v, 5);
  unsigned ballot = __ballot_sync(0xffffffffu, v & 1);
  int anyneg = __any_sync(0xffffffffu, v < 0);
  int allpos = __all_sync(0xffffffffu, v >= 0);
  unsigned am = 0;
  unsigned mt = 0;
  int ra = 0;
  if (v & 2) {
    am = __activemask();
    mt = __match_any_sync(am, v & 12);
    ra = __reduce_add_sync(am, v);
  }
  __syncwarp();
  unsigned rmin = __reduce_min_sync(0xffffffffu, (unsigned)v);
  int rmax = __reduce_max_sync(0xffffffffu, v);
  unsigned ror = __reduce_or_sync(0xffffffffu, (unsigned)v);
  int pred = 0;
  unsigned mall = __match_all_sync(0xffffffffu, v >> 8, &pred);
  auto tile = cg::tiled_partition<8>(cg::this_thread_block());
  int tsum = cg::reduce(tile, v, cg::plus<int>());
  int tscan = cg::exclusive_scan(tile, v, cg::plus<int>());
  __half h = hin[tid];
  __half h2 = __hfma(h, __float2half(2.0f), __float2half(0.5f));
  __half2 hp = __halves2half2(h, h2);
  hp = __hmul2(hp, hp);
  hout[tid] = __hadd(__low2half(hp), __high2half(hp));
  unsigned long long old = atomicCAS(out64 + warp, 0ull, (unsigned long long)tid + 1);
  int* o = out + tid * 16;
  o[0] = s; o[1] = mx; o[2] = sc; o[3] = bcast; o[4] = ballot; o[5] = anyneg; o[6] = allpos;
  o[7] = am; o[8] = mt; o[9] = ra; o[10] = rmin; o[11] = rmax; o[12] = ror;
  o[13] = (int)(mall ^ (pred << 31)); o[14] = tsum; o[15] = tscan + (int)old;
}
