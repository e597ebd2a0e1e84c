// Test kernels for multi-kernel launch files (sim/tests/launch_test.cc). The PTX next to this
// file was generated with: nvcc --ptx -arch=sm_80 -O3 steps.cu -o steps.ptx
extern "C" __global__ void init(int* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = i;
}

// One step of an iterative update: x = 2x + add.
extern "C" __global__ void step(int* x, const int* add, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = 2 * x[i] + add[i];
}

// A 2D grid over a rows x cols matrix: m[r][c] = r * 100 + c.
extern "C" __global__ void fill2d(float* m, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols)
    m[r * cols + c] = static_cast<float>(r * 100 + c);
}
