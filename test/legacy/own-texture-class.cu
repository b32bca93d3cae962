// A modern program with its own class template called `texture`: the driver
// does not add the legacy header (which would clash with it), and the
// texture-reference diagnostics do not fire.
// RUN: %check_cuda_lint %s cuda-legacy-runtime-api %t
// RUN: env CUDA_LINT_PRINT_ARGS=1 %cuda_lint --checks='-*,cuda-legacy-runtime-api' %s -- 2>&1 | FileCheck --check-prefix=ARGS %s
// ARGS: bin/cuda-lint
// ARGS-NOT: cuda_lint_legacy.h
// CHECK-MESSAGES-NOT: warning:

template <typename T, int Channels = 4> struct texture {
  T *texels;
  int width;
  __host__ __device__ T fetch(int x) const { return texels[x * Channels]; }
};

__global__ void sample(texture<float> tex, float *out) {
  out[threadIdx.x] = tex.fetch(threadIdx.x);
}

texture<float, 3> makeTexture(float *data) { return {data, 16}; }
