// cuda-lint's nvcc compatibility header: what the CUDA toolkit's headers
// declare when nvcc compiles a file, and clang's CUDA headers do not, so that
// code that nvcc accepts parses. cuda-lint force-includes it (precompiled
// into its prelude) whenever it uses a CUDA toolkit. Nothing here changes
// the meaning of code that already parses with clang: it only adds overloads
// that clang's headers lack, and only in the CUDA language mode.
//
// The declarations are for analysis: where a function has no definition,
// nothing here is meant to be compiled into a program.
#ifndef CUDA_LINT_NVCC_H
#define CUDA_LINT_NVCC_H

#if defined(__CUDA__) && defined(__cplusplus)

// Cache-hint loads and stores (sm_32_intrinsics.h). clang's
// __clang_cuda_intrinsics.h defines __ldcg, __ldcs, __ldcv and __stwt for
// most types; nvcc also has __ldca, __ldlu, __stcg, __stcs and __stwb, and
// the `unsigned long` (and, for __stwt, `long`) overloads. Declaring a
// function that clang's header also defines would be harmless (a
// redeclaration); only what is missing is listed.
#define __CUDA_LINT_LOAD(NAME, T) __device__ T NAME(const T *__ptr);
#define __CUDA_LINT_STORE(NAME, T) __device__ void NAME(T *__ptr, T __value);
#define __CUDA_LINT_FOR_EACH_TYPE(M, NAME)                                     \
  M(NAME, char)                                                                \
  M(NAME, signed char)                                                         \
  M(NAME, short)                                                               \
  M(NAME, int)                                                                 \
  M(NAME, long)                                                                \
  M(NAME, long long)                                                           \
  M(NAME, unsigned char)                                                       \
  M(NAME, unsigned short)                                                      \
  M(NAME, unsigned int)                                                        \
  M(NAME, unsigned long)                                                       \
  M(NAME, unsigned long long)                                                  \
  M(NAME, char2)                                                               \
  M(NAME, char4)                                                               \
  M(NAME, short2)                                                              \
  M(NAME, short4)                                                              \
  M(NAME, int2)                                                                \
  M(NAME, int4)                                                                \
  M(NAME, longlong2)                                                           \
  M(NAME, uchar2)                                                              \
  M(NAME, uchar4)                                                              \
  M(NAME, ushort2)                                                             \
  M(NAME, ushort4)                                                             \
  M(NAME, uint2)                                                               \
  M(NAME, uint4)                                                               \
  M(NAME, ulonglong2)                                                          \
  M(NAME, float)                                                               \
  M(NAME, double)                                                              \
  M(NAME, float2)                                                              \
  M(NAME, float4)                                                              \
  M(NAME, double2)

__CUDA_LINT_FOR_EACH_TYPE(__CUDA_LINT_LOAD, __ldca)
__CUDA_LINT_FOR_EACH_TYPE(__CUDA_LINT_LOAD, __ldlu)
__CUDA_LINT_LOAD(__ldcg, unsigned long)
__CUDA_LINT_LOAD(__ldcs, unsigned long)
__CUDA_LINT_LOAD(__ldcv, unsigned long)
__CUDA_LINT_FOR_EACH_TYPE(__CUDA_LINT_STORE, __stcg)
__CUDA_LINT_FOR_EACH_TYPE(__CUDA_LINT_STORE, __stcs)
__CUDA_LINT_FOR_EACH_TYPE(__CUDA_LINT_STORE, __stwb)
__CUDA_LINT_STORE(__stwt, long)
__CUDA_LINT_STORE(__stwt, unsigned long)

#undef __CUDA_LINT_FOR_EACH_TYPE
#undef __CUDA_LINT_STORE
#undef __CUDA_LINT_LOAD

// Host min and max (crt/math_functions.h and .hpp). nvcc declares them
// __host__ __device__; clang's CUDA headers only for the device, so host code
// such as `int n = max(a, b);` does not parse in a device-side analysis.
// These are the host overloads, with the same signatures as nvcc's (so the
// same calls are ambiguous); on the device clang's own overloads are chosen.
#define __CUDA_LINT_MINMAX(R, A, B)                                            \
  static inline __host__ R min(const A __a, const B __b) {                     \
    return static_cast<R>(__a) < static_cast<R>(__b) ? static_cast<R>(__a)     \
                                                     : static_cast<R>(__b);    \
  }                                                                            \
  static inline __host__ R max(const A __a, const B __b) {                     \
    return static_cast<R>(__a) > static_cast<R>(__b) ? static_cast<R>(__a)     \
                                                     : static_cast<R>(__b);    \
  }
__CUDA_LINT_MINMAX(int, int, int)
__CUDA_LINT_MINMAX(unsigned int, unsigned int, unsigned int)
__CUDA_LINT_MINMAX(unsigned int, int, unsigned int)
__CUDA_LINT_MINMAX(unsigned int, unsigned int, int)
__CUDA_LINT_MINMAX(long, long, long)
__CUDA_LINT_MINMAX(unsigned long, unsigned long, unsigned long)
__CUDA_LINT_MINMAX(unsigned long, long, unsigned long)
__CUDA_LINT_MINMAX(unsigned long, unsigned long, long)
__CUDA_LINT_MINMAX(long long, long long, long long)
__CUDA_LINT_MINMAX(unsigned long long, unsigned long long, unsigned long long)
__CUDA_LINT_MINMAX(unsigned long long, long long, unsigned long long)
__CUDA_LINT_MINMAX(unsigned long long, unsigned long long, long long)
__CUDA_LINT_MINMAX(float, float, float)
__CUDA_LINT_MINMAX(double, double, double)
__CUDA_LINT_MINMAX(double, float, double)
__CUDA_LINT_MINMAX(double, double, float)
#undef __CUDA_LINT_MINMAX

#endif // __CUDA__ && __cplusplus
#endif // CUDA_LINT_NVCC_H
