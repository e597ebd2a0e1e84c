// srad: one iteration of speckle-reducing anisotropic diffusion (SRAD) on a rows x cols image,
// in a single launch. For every pixel the diffusion coefficient is
//   c = clamp(1 / (1 + (q^2 - q0^2) / (q0^2 (1 + q0^2))), 0, 1),
//   q^2 = (G2 / 2 - L^2 / 16) / (1 + L / 4)^2, G2 = (dN^2 + dS^2 + dW^2 + dE^2) / J^2,
//   L = (dN + dS + dW + dE) / J, with dN = J(i-1, j) - J(i, j) etc. and edges replicated;
// then J' = J + lambda / 4 (c(i,j) (dN + dW) + c(i+1,j) dS + c(i,j+1) dE), where the south and
// east coefficients are taken at the clamped neighbour. A CTA of 16 x 16 threads computes the
// coefficients of its tile plus one row and column beyond (17 x 17, two passes) into shared
// memory, so the two Rodinia kernels become one launch; the image is read from global memory
// (neighbours come from L1).
// Sizes (launch.yaml): 256 x 240 pixels, 16 x 15 = 240 CTAs of 256 threads, q0^2 given.
// Occupancy on the Fermi-class SM (48 warps, 32768 registers, 8 CTAs, 48 KB shared): the five
// image values, four differences and the coefficient arithmetic take 26 registers per thread
// in gpurf, so 32768 / (256 x 26) = 4 < 6 CTAs: registers limit occupancy (warps allow 6, shared
// memory, 1.2 KB per CTA, 40).
#define BS 16

__device__ float coefficient(const float* j, int rows, int cols, int y, int x, float q0sqr) {
  const float jc = j[y * cols + x];
  const float dn = j[max(y - 1, 0) * cols + x] - jc;
  const float ds = j[min(y + 1, rows - 1) * cols + x] - jc;
  const float dw = j[y * cols + max(x - 1, 0)] - jc;
  const float de = j[y * cols + min(x + 1, cols - 1)] - jc;
  const float g2 = (dn * dn + ds * ds + dw * dw + de * de) / (jc * jc);
  const float l = (dn + ds + dw + de) / jc;
  const float num = 0.5f * g2 - 0.0625f * l * l;
  const float den = 1.0f + 0.25f * l;
  const float qsqr = num / (den * den);
  const float c = 1.0f / (1.0f + (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr)));
  return fminf(fmaxf(c, 0.0f), 1.0f);
}

extern "C" __global__ void srad(float* out, const float* j, int rows, int cols, float q0sqr,
                                float lambda) {
  __shared__ float cs[BS + 1][BS + 1];
  const int y0 = blockIdx.y * BS, x0 = blockIdx.x * BS;
  const int tid = threadIdx.y * BS + threadIdx.x;
  for (int e = tid; e < (BS + 1) * (BS + 1); e += BS * BS) {
    const int ry = e / (BS + 1), rx = e % (BS + 1);
    cs[ry][rx] = coefficient(j, rows, cols, min(y0 + ry, rows - 1), min(x0 + rx, cols - 1), q0sqr);
  }
  __syncthreads();
  const int y = y0 + threadIdx.y, x = x0 + threadIdx.x;
  if (y >= rows || x >= cols)
    return;
  const float jc = j[y * cols + x];
  const float dn = j[max(y - 1, 0) * cols + x] - jc;
  const float ds = j[min(y + 1, rows - 1) * cols + x] - jc;
  const float dw = j[y * cols + max(x - 1, 0)] - jc;
  const float de = j[y * cols + min(x + 1, cols - 1)] - jc;
  const float cc = cs[threadIdx.y][threadIdx.x];
  const float d = cc * (dn + dw) + cs[threadIdx.y + 1][threadIdx.x] * ds +
                  cs[threadIdx.y][threadIdx.x + 1] * de;
  out[y * cols + x] = jc + 0.25f * lambda * d;
}
