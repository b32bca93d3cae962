// The all-pairs n-body step with unsuffixed constants (softening, half
// step): float data computed in double (OpenCL best-practices guide 5.1.3).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

#define CHECK(x)                                                               \
  do {                                                                         \
    cudaError_t e = (x);                                                       \
    if (e != cudaSuccess) {                                                    \
      std::fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e), \
                   __FILE__, __LINE__);                                        \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

#define SOFTENING 1e-9

struct Body {
  float x, y, z, vx, vy, vz;
};

// The n-body force step of examples/nbody.cu.
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

int main(int argc, char **argv) {
  const int n = 16384;
  int reps = getenv("CUDA_LINT_REPS") ? atoi(getenv("CUDA_LINT_REPS")) : 20;
  std::vector<Body> hb(n);
  unsigned s = 777u;
  auto rnd = [&] {
    s = s * 1664525u + 1013904223u;
    return (s >> 8) * (1.0f / 16777216.0f) * 2.0f - 1.0f;
  };
  for (auto &b : hb)
    b = {rnd(), rnd(), rnd(), 0.0f, 0.0f, 0.0f};
  Body *p;
  CHECK(cudaMalloc(&p, n * sizeof(Body)));
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  std::vector<float> times;
  for (int r = 0; r <= reps; ++r) {
    // Same input every repetition, so the output is one step's result.
    CHECK(cudaMemcpy(p, hb.data(), n * sizeof(Body), cudaMemcpyHostToDevice));
    CHECK(cudaEventRecord(a));
    bodyForce<<<(n + 255) / 256, 256>>>(p, 0.01f, n);
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    CHECK(cudaGetLastError());
    float ms;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    if (r > 0)
      times.push_back(ms);
  }
  std::sort(times.begin(), times.end());
  std::printf("TIME_MS %.5f\n", times[times.size() / 2]);
  std::vector<Body> out(n);
  CHECK(cudaMemcpy(out.data(), p, n * sizeof(Body), cudaMemcpyDeviceToHost));
  if (argc > 1) {
    FILE *f = std::fopen(argv[1], "wb");
    std::fwrite(out.data(), sizeof(Body), n, f);
    std::fclose(f);
  }
  return 0;
}
