#include <cmath>

__global__ void step(float *v, const float *f, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] += dt * f[i] * 0.5;
  if (i < n && v[i] > 1e-3)
    v[i] = pow(v[i], 0.5);
}
