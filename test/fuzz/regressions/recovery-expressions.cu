// Code with errors: recovery expressions in kernels and launch
// configurations, an invalid record and an incomplete type.
struct Incomplete;
struct Invalid { unknown_type a; float b; };
__global__ void k(Incomplete *f, Invalid *v, float *p, int n) {
  __shared__ Invalid sv[32];
  __shared__ float s[32][undeclared_width];
  sv[threadIdx.x].b = v[threadIdx.x].b;
  p[threadIdx.x * undeclared_stride] = sv[threadIdx.x * 2].b;
  if (threadIdx.x < undeclared_limit) __syncthreads();
  __syncwarp(undeclared_mask);
  p[threadIdx.x] = __shfl_down_sync(0xffffffffu, p[0], 1, undeclared_w);
  for (int i = 0; i < n; i += undeclared_step) p[i] /= missing_fn(3);
  p[threadIdx.x] = f[threadIdx.x];
}
template <typename T> __global__ void t(T *p) {
  __shared__ T s[32][32];
  s[threadIdx.x][threadIdx.y] = p[threadIdx.x * undeclared_stride];
  p[threadIdx.x] = s[threadIdx.y][threadIdx.x] / undeclared_div;
}
template __global__ void t<float>(float *);
void host(float *p) {
  dim3 b(undeclared_x, 2);
  k<<<1, b>>>(nullptr, nullptr, p, 3);
  k<<<1, dim3(32, undeclared_y)>>>(nullptr, nullptr, p, 3);
  k<<<1, 33, undeclared_smem>>>(nullptr, nullptr, p, 3);
  t<unknown_type><<<1, 32>>>(p);
}
