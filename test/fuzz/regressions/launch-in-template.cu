// Issue 20: launches inside function templates whose configuration depends
// on the template (a dim3 built from members of a dependent type has no type
// in the pattern), explicitly instantiated.
template <typename T> struct Args { T *data; int rows; int cols; };
template <typename T> __global__ void fill(Args<T> a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < a.rows * a.cols) a.data[i] = T(0);
}
template <typename T, int W> void launch(T *data, int rows, int cols) {
  Args<T> a{data, rows, cols};
  dim3 grid(a.rows, a.cols / W);
  dim3 block(a.cols / 4, W, 2);
  fill<<<grid, block>>>(a);
  fill<<<grid, dim3(W, sizeof(T))>>>(a);
  fill<T><<<a.rows, W + 1, 0>>>(a);
}
template void launch<float, 48>(float *, int, int);
template void launch<double, 64>(double *, int, int);
