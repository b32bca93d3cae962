// RUN: %check_cuda_lint -no-compile %s cuda-integer-division %t
// Divisions in template patterns whose dividend is a local initialised with
// arguments of a dependent type: in the pattern that initialiser is kept
// without a type (the sign analysis of the dividend crashed on it, issue
// 20); the instantiation is judged as usual.

struct Sized { int n; };
template <typename T> __global__ void k(T a, int *p) {
  int q(a.n);
  for (int i = 0; i < 10; ++i) {
    p[i] = q / 4 + q % 3;
    int m = q & threadIdx.x;
    p[i] += m / 2;
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: signed integer division by 2 inside a loop costs extra instructions to round toward zero; the dividend is never negative, so a shift is exact [cuda-integer-division]
  }
}
template __global__ void k<Sized>(Sized, int *);
