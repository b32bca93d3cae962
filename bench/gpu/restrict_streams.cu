// What `const __restrict__` buys a read-only pointer on the GPU at hand, in
// the four shapes cuda-missing-restrict's rank tells apart
// (lib/checks/MissingRestrictCheckBenefit.cpp): a stream in a loop that
// stores (ranked low), a load the storing loop repeats (kept: only
// __restrict__ lets nvcc hoist it), an element reloaded after a store
// (kept) and a load after a store of the same iteration (kept), in a loop
// and once per thread in straight-line code (kept). Each kernel
// is built twice, with and without the qualifiers, and timed with CUDA
// events over many launches; the program prints one line per shape.
//
//   nvcc -O3 -arch=sm_90 -std=c++17 bench/gpu/restrict_streams.cu -o rs && ./rs

#include "bench_timing.cuh"

#define KERNELS(SUFFIX, RO)                                                    \
  /* A stream: y[i] = a * x[i] + y[i] over a grid that iterates. */            \
  __global__ void stream##SUFFIX(float *y, RO x, int n) {                      \
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;                 \
         i += blockDim.x * gridDim.x)                                          \
      y[i] = 2.0f * x[i] + y[i];                                               \
  }                                                                            \
  /* A load the storing loop repeats (in[t]). */                               \
  __global__ void repeat##SUFFIX(float *out, RO in, int m, int w) {            \
    int t = blockIdx.x * blockDim.x + threadIdx.x;                             \
    for (int i = 0; i < m; ++i)                                                \
      out[i * w + t] = in[t] * (float)i + in[t + w];                           \
  }                                                                            \
  /* A recurrence that reloads l[i * w + t] after the store to u. */           \
  __global__ void reload##SUFFIX(float *u, RO l, int m, int w) {               \
    int t = blockIdx.x * blockDim.x + threadIdx.x;                             \
    for (int i = 1; i < m; ++i) {                                              \
      u[i * w + t] = u[(i - 1) * w + t] * l[i * w + t];                        \
      u[i * w + t] += l[i * w + t];                                            \
    }                                                                          \
  }                                                                            \
  /* A load after a store of the same iteration. */                            \
  __global__ void interleaved##SUFFIX(float *out, RO in, int n) {              \
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;                 \
         i += blockDim.x * gridDim.x) {                                        \
      out[2 * i] = in[i];                                                      \
      out[2 * i + 1] = in[i + n];                                              \
    }                                                                          \
  }                                                                            \
  /* The same once per thread: straight-line code, one thread an element. */   \
  __global__ void once##SUFFIX(float *out, RO in, int n) {                     \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                             \
    if (i < n) {                                                               \
      out[2 * i] = in[i];                                                      \
      out[2 * i + 1] = in[i + n];                                              \
    }                                                                          \
  }                                                                            \
  /* Once per thread, a chain: each store feeds on loads after the last. */    \
  __global__ void chain##SUFFIX(float *out, RO in, int n) {                    \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                             \
    if (i < n) {                                                               \
      out[4 * i] = in[i];                                                      \
      out[4 * i + 1] = in[i + n] * 2.0f;                                       \
      out[4 * i + 2] = in[i + 2 * n] * 3.0f;                                   \
      out[4 * i + 3] = in[i + 3 * n] * 4.0f;                                   \
    }                                                                          \
  }

KERNELS(Plain, float *)
KERNELS(Restrict, const float *__restrict__)

int main() {
  const int N = 1 << 26, W = 1 << 16, M = 256, Reps = 50;
  float *X, *Y;
  CHECK(cudaMalloc(&X, 2 * (size_t)N * sizeof(float)));
  CHECK(cudaMalloc(&Y, 2 * (size_t)N * sizeof(float)));
  CHECK(cudaMemset(X, 0, 2 * (size_t)N * sizeof(float)));
  CHECK(cudaMemset(Y, 0, 2 * (size_t)N * sizeof(float)));
  int Sms = 0;
  CHECK(cudaDeviceGetAttribute(&Sms, cudaDevAttrMultiProcessorCount, 0));
  const int Grid = Sms * 8, Block = 256;
  struct Row {
    const char *Shape, *Rank;
    float Plain, Restrict;
  } Rows[] = {
      {"stream (y[i] = 2 x[i] + y[i])", "low",
       timeIt([&] { streamPlain<<<Grid, Block>>>(Y, X, N); }, Reps),
       timeIt([&] { streamRestrict<<<Grid, Block>>>(Y, X, N); }, Reps)},
      {"repeated load (in[t] in the i loop)", "kept",
       timeIt([&] { repeatPlain<<<W / Block, Block>>>(Y, X, M, W); }, Reps),
       timeIt([&] { repeatRestrict<<<W / Block, Block>>>(Y, X, M, W); }, Reps)},
      {"reload after a store (recurrence)", "kept",
       timeIt([&] { reloadPlain<<<W / Block, Block>>>(Y, X, M, W); }, Reps),
       timeIt([&] { reloadRestrict<<<W / Block, Block>>>(Y, X, M, W); }, Reps)},
      {"load after a store, same iteration", "kept",
       timeIt([&] { interleavedPlain<<<Grid, Block>>>(Y, X, N); }, Reps),
       timeIt([&] { interleavedRestrict<<<Grid, Block>>>(Y, X, N); }, Reps)},
      {"load after a store, once per thread", "kept",
       timeIt([&] { oncePlain<<<N / Block, Block>>>(Y, X, N); }, Reps),
       timeIt([&] { onceRestrict<<<N / Block, Block>>>(Y, X, N); }, Reps)},
      {"three loads each after a store, once per thread", "kept",
       timeIt([&] { chainPlain<<<N / 2 / Block, Block>>>(Y, X, N / 2); }, Reps),
       timeIt([&] { chainRestrict<<<N / 2 / Block, Block>>>(Y, X, N / 2); },
              Reps)},
  };
  CHECK(cudaGetLastError());
  cudaDeviceProp P;
  CHECK(cudaGetDeviceProperties(&P, 0));
  std::printf("# const __restrict__ on a read-only pointer, %s\n", P.name);
  std::printf("| shape | cuda-missing-restrict rank | plain ms | restrict ms "
              "| speed-up |\n| --- | --- | ---: | ---: | ---: |\n");
  for (const Row &R : Rows)
    std::printf("| %s | %s | %.4f | %.4f | %.2fx |\n", R.Shape, R.Rank, R.Plain,
                R.Restrict, R.Plain / R.Restrict);
  return 0;
}
