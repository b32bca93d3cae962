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

// What nvcc's implicit include of cuda_runtime.h brings in for the host
// compiler (crt/common_functions.h): <string.h>, <time.h> (clock_t,
// CLOCKS_PER_SEC, time()) and <assert.h>, which code compiled by nvcc or
// NVRTC uses without including it.
#include <assert.h>
#include <string.h>
#include <time.h>

// nvcc defines __CUDACC__ as 1 (code tests `#if __CUDACC__`); clang's CUDA
// wrapper defines it empty. (__NVCC__ is not defined: CCCL would take nvcc's
// code paths and built-ins.)
#undef __CUDACC__
#define __CUDACC__ 1

// nvcc always defines its version (`#if __CUDACC_VER_MAJOR__ >= 9` guards
// the _sync intrinsics, cooperative groups, ...); clang does not, so code
// would be analysed on its pre-CUDA-9 fallback branch, which nvcc never
// compiles. The toolkit's version stands for nvcc's (cuda.h's CUDA_VERSION,
// 13000 for 13.0; clang's CUDA wrapper includes cuda.h first).
#if defined(CUDA_VERSION) && !defined(__CUDACC_VER_MAJOR__)
#define __CUDACC_VER_MAJOR__ (CUDA_VERSION / 1000)
#define __CUDACC_VER_MINOR__ (CUDA_VERSION % 1000 / 10)
#define __CUDACC_VER_BUILD__ 0
#endif

// Managed variables: clang 22 honours the `managed` attribute for HIP only
// and ignores it for CUDA, leaving `__managed__ int n;` a host variable that
// device code may not read. For the analysis a managed variable is what it
// is on the device, a __device__ variable (host code may name those too).
#undef __managed__
#define __managed__ __device__

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

// The `__nv_atomic_*` functions (CUDA 12.8+) are nvcc built-ins: no header
// declares them, and clang knows them not. crt/device_functions.h declares
// their memory-order and scope constants only where clang's CUDA headers do
// not include it. Declared here after the CUDA Programming Guide's
// signatures (the value arguments do not take part in deducing T, so that
// `__nv_atomic_fetch_add(p, 1, ...)` on an `unsigned long long *` is
// accepted, as nvcc accepts it).
enum {
  __NV_ATOMIC_RELAXED,
  __NV_ATOMIC_CONSUME,
  __NV_ATOMIC_ACQUIRE,
  __NV_ATOMIC_RELEASE,
  __NV_ATOMIC_ACQ_REL,
  __NV_ATOMIC_SEQ_CST
};
enum {
  __NV_THREAD_SCOPE_THREAD,
  __NV_THREAD_SCOPE_BLOCK,
  __NV_THREAD_SCOPE_CLUSTER,
  __NV_THREAD_SCOPE_DEVICE,
  __NV_THREAD_SCOPE_SYSTEM
};
template <class __T> struct __cuda_lint_same {
  typedef __T type;
};
#define __CUDA_LINT_V(T) typename __cuda_lint_same<T>::type
#define __CUDA_LINT_SCOPE int __scope = __NV_THREAD_SCOPE_SYSTEM
template <class T>
__device__ T __nv_atomic_load_n(T *__ptr, int __order, __CUDA_LINT_SCOPE);
template <class T>
__device__ void __nv_atomic_load(T *__ptr, __CUDA_LINT_V(T) * __ret,
                                 int __order, __CUDA_LINT_SCOPE);
template <class T>
__device__ void __nv_atomic_store_n(T *__ptr, __CUDA_LINT_V(T) __val,
                                    int __order, __CUDA_LINT_SCOPE);
template <class T>
__device__ void __nv_atomic_store(T *__ptr, __CUDA_LINT_V(T) * __val,
                                  int __order, __CUDA_LINT_SCOPE);
template <class T>
__device__ T __nv_atomic_exchange_n(T *__ptr, __CUDA_LINT_V(T) __val,
                                    int __order, __CUDA_LINT_SCOPE);
template <class T>
__device__ void __nv_atomic_exchange(T *__ptr, __CUDA_LINT_V(T) * __val,
                                     __CUDA_LINT_V(T) * __ret, int __order,
                                     __CUDA_LINT_SCOPE);
template <class T>
__device__ bool
__nv_atomic_compare_exchange_n(T *__ptr, __CUDA_LINT_V(T) * __expected,
                               __CUDA_LINT_V(T) __desired, bool __weak,
                               int __success, int __failure, __CUDA_LINT_SCOPE);
template <class T>
__device__ bool
__nv_atomic_compare_exchange(T *__ptr, __CUDA_LINT_V(T) * __expected,
                             __CUDA_LINT_V(T) * __desired, bool __weak,
                             int __success, int __failure, __CUDA_LINT_SCOPE);
#define __CUDA_LINT_FETCH(NAME)                                                \
  template <class T>                                                           \
  __device__ T NAME(T *__ptr, __CUDA_LINT_V(T) __val, int __order,             \
                    __CUDA_LINT_SCOPE);
__CUDA_LINT_FETCH(__nv_atomic_fetch_add)
__CUDA_LINT_FETCH(__nv_atomic_fetch_sub)
__CUDA_LINT_FETCH(__nv_atomic_fetch_and)
__CUDA_LINT_FETCH(__nv_atomic_fetch_or)
__CUDA_LINT_FETCH(__nv_atomic_fetch_xor)
__CUDA_LINT_FETCH(__nv_atomic_fetch_min)
__CUDA_LINT_FETCH(__nv_atomic_fetch_max)
__device__ void __nv_atomic_thread_fence(int __order, __CUDA_LINT_SCOPE);
#undef __CUDA_LINT_FETCH
#undef __CUDA_LINT_SCOPE
#undef __CUDA_LINT_V

#endif // __CUDA__ && __cplusplus
#endif // CUDA_LINT_NVCC_H
