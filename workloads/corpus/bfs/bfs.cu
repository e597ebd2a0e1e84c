// bfs: level-synchronous breadth-first search (Rodinia BFS style) over a graph in CSR form,
// all levels in one CTA: threads stride over the nodes; a node on the current frontier (cost ==
// level) relaxes its neighbours; a shared flag tells whether the next level is non-empty.
extern "C" __global__ void bfs(int* cost, const unsigned* row_offsets, const unsigned* cols,
                               int nodes, int source) {
  __shared__ int changed;
  for (int i = threadIdx.x; i < nodes; i += blockDim.x)
    cost[i] = (i == source) ? 0 : -1;
  int level = 0;
  do {
    __syncthreads();
    if (threadIdx.x == 0)
      changed = 0;
    __syncthreads();
    for (int i = threadIdx.x; i < nodes; i += blockDim.x) {
      if (cost[i] != level)
        continue;
      for (unsigned e = row_offsets[i]; e < row_offsets[i + 1]; ++e) {
        const unsigned nb = cols[e];
        if (cost[nb] == -1) {
          cost[nb] = level + 1;
          changed = 1;
        }
      }
    }
    __syncthreads();
    ++level;
  } while (changed);
}
