// A seed that mixes the shapes the checks special-case: a literal in a
// macro used by float and double code, a template instantiated for both.
#define K 0.1
template <typename T> __device__ T f(T v) { return v * K + T(0.5) * 2.0; }
__global__ void g(float *a, double *b) {
  a[threadIdx.x] = f(a[threadIdx.x]) * K;
  b[threadIdx.x] = f(b[threadIdx.x]) * K;
}
