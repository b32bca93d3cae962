// RUN: %check_cuda_lint -no-compile %s cuda-launch-shape %t -- --min-impact=low
// Launches in templates whose block size depends on the template: the
// pattern has no value (an initialiser with arguments of a dependent type is
// kept unresolved, without a type), each instantiation has its own.

// Issue 20: `dim3 block(...)` with arguments of a dependent type crashed the
// check on the template pattern.
template <typename T> struct Param { T *p; int n; int h; };
template <typename T> __global__ void k(Param<T> param) { param.p[threadIdx.x] = 0; }
template <typename T> void run(T *buf, int n, int h) {
  Param<T> param{buf, n, h};
  dim3 grid(param.n);
  dim3 block(param.h / 4, param.n, 3);
  k<<<grid, block>>>(param);
}
template void run<float>(float *, int, int);

__global__ void kernel(float *p) { p[threadIdx.x] = 0.0f; }

// Dependent on a type, constant in the instantiation: reported there.
template <typename T> struct Tile { static constexpr int W = sizeof(T) * 12; };
template <typename T> void tiled(float *p) {
  dim3 block(Tile<T>::W, 1);
  kernel<<<1, block>>>(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: block of 48 threads is not a multiple of the warp size (32)
  // CHECK-NOTES: :[[@LINE-2]]:15: note: 48 threads = 2 warps = 64 lanes: 16 lanes (25.0%) idle in every block
  // CHECK-NOTES: :[[@LINE-3]]:15: note: in the instantiation 'tiled<int>' (other instantiations of this launch are not reported again)
}
template void tiled<int>(float *);
template void tiled<double>(float *);

// A variable of a dependent type.
template <typename D> void typed(float *p, D d) {
  D block(d);
  kernel<<<1, block>>>(p);
  D block2(100);
  kernel<<<1, block2>>>(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: block of 100 threads is not a multiple of the warp size (32)
  // CHECK-NOTES: :[[@LINE-2]]:15: note: 100 threads = 4 warps = 128 lanes: 28 lanes (21.9%) idle in every block
  // CHECK-NOTES: :[[@LINE-3]]:15: note: in the instantiation 'typed<dim3>' (other instantiations of this launch are not reported again)
}
template void typed<dim3>(float *, dim3);

// A generic lambda: the pattern has no value, the call operator
// instantiated for int none either.
void generic(float *p, int n) {
  auto go = [&](auto m) {
    dim3 block(m, 3);
    kernel<<<1, block>>>(p);
    kernel<<<1, dim3(m, 2)>>>(p);
  };
  go(n);
}

// Dependent on a value: judged per instantiation, not in the pattern.
template <int BS> void sized(float *p) {
  dim3 block(BS, BS / 4);
  kernel<<<1, block>>>(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: block of 36 threads is not a multiple of the warp size (32)
  // CHECK-NOTES: :[[@LINE-2]]:15: note: 36 threads = 2 warps = 64 lanes: 28 lanes (43.8%) idle in every block
  // CHECK-NOTES: :[[@LINE-3]]:15: note: in the instantiation 'sized<12>' (other instantiations of this launch are not reported again)
}
template void sized<12>(float *);
template void sized<32>(float *);
