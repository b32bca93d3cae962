// A float n-body step written the way many codes are: the constants are
// unsuffixed, so every softening, half-step and energy term is computed in
// double on the GPU (OpenCL best-practices guide 5.1.3).
#include <cmath>
#include <cstdio>
#include <cuda_runtime.h>

#define SOFTENING 1e-9

struct Body {
  float x, y, z, vx, vy, vz;
};

__global__ void bodyForce(Body *p, float dt, int n) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i >= n)
    return;
  float fx = 0.0f, fy = 0.0f, fz = 0.0f;
  for (int j = 0; j < n; j++) {
    float dx = p[j].x - p[i].x;
    float dy = p[j].y - p[i].y;
    float dz = p[j].z - p[i].z;
    float distSqr = dx * dx + dy * dy + dz * dz + SOFTENING;
    float invDist = 1.0 / sqrtf(distSqr);
    float invDist3 = invDist * invDist * invDist;
    fx += dx * invDist3;
    fy += dy * invDist3;
    fz += dz * invDist3;
  }
  p[i].vx += dt * fx * 0.5;
  p[i].vy += dt * fy * 0.5;
  p[i].vz += dt * fz * 0.5;
}

__device__ float kineticEnergy(const Body &b) {
  return 0.5 * (b.vx * b.vx + b.vy * b.vy + b.vz * b.vz);
}

__global__ void energy(const Body *p, float *e, int n) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i < n)
    e[i] = kineticEnergy(p[i]) + pow(p[i].x, 2.0) * 1e-3;
}

int main() {
  const int n = 4096;
  Body *d;
  cudaMalloc(&d, n * sizeof(Body));
  cudaMemset(d, 0, n * sizeof(Body));
  bodyForce<<<(n + 255) / 256, 256>>>(d, 0.01f, n);
  cudaDeviceSynchronize();
  cudaFree(d);
  std::printf("done\n");
  return 0;
}
