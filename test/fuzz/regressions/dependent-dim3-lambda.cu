// Launches in generic lambdas and with a dim3 of a dependent type: the
// patterns have no values; a kernel with a shared tile reads its block
// shape from these launches.
__global__ void tile(float *out, const float *in) {
  __shared__ float t[32][32];
  t[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = t[threadIdx.x][threadIdx.y];
}
struct Launcher {
  template <typename D> static void go(float *o, const float *i, D d) {
    D b(d);
    tile<<<1, b>>>(o, i);
  }
};
void host(float *o, const float *i, int n) {
  auto go = [&](auto w, auto h) {
    dim3 b(w, h);
    tile<<<n, b>>>(o, i);
    tile<<<n, dim3(w)>>>(o, i);
  };
  go(32, 8);
  go(16u, 2u);
  Launcher::go(o, i, dim3(32, 32));
  tile<<<n, dim3(0xffffffffu, 0xffffffffu, 0xffffffffu)>>>(o, i);
}
