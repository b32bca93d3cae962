// cuda-lint's bundled CUDA declarations: used, with -nocudainc, when no CUDA
// toolkit is installed, so that linting still works. They cover what kernels
// and their launches commonly use: execution-space qualifiers, built-in
// variables, vector types, barriers and warp intrinsics, atomics, the math
// library and the runtime API. They are declarations only; nothing here is
// meant to be compiled into a program.
#ifndef CUDA_LINT_FALLBACK_H
#define CUDA_LINT_FALLBACK_H

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __restrict__ __restrict
#define CUDART_VERSION 13000
// What nvcc 13.0 defines (see cuda_lint_nvcc.h).
#define __CUDACC_VER_MAJOR__ 13
#define __CUDACC_VER_MINOR__ 0
#define __CUDACC_VER_BUILD__ 0

typedef __SIZE_TYPE__ size_t;

#define CUDA_LINT_VEC(T, N)                                                    \
  struct T##1 { N x; };                                                        \
  struct T##2 { N x, y; };                                                     \
  struct T##3 { N x, y, z; };                                                  \
  struct T##4 { N x, y, z, w; };
CUDA_LINT_VEC(char, signed char)
CUDA_LINT_VEC(uchar, unsigned char)
CUDA_LINT_VEC(short, short)
CUDA_LINT_VEC(ushort, unsigned short)
CUDA_LINT_VEC(int, int)
CUDA_LINT_VEC(uint, unsigned int)
CUDA_LINT_VEC(long, long)
CUDA_LINT_VEC(ulong, unsigned long)
CUDA_LINT_VEC(longlong, long long)
CUDA_LINT_VEC(ulonglong, unsigned long long)
CUDA_LINT_VEC(float, float)
CUDA_LINT_VEC(double, double)
#undef CUDA_LINT_VEC

struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1,
                                     unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
};
#include "__clang_cuda_builtin_vars.h"
__device__ inline __cuda_builtin_threadIdx_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_threadIdx_t::operator uint3() const { return {x, y, z}; }
__device__ inline __cuda_builtin_blockIdx_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_blockIdx_t::operator uint3() const { return {x, y, z}; }
__device__ inline __cuda_builtin_blockDim_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_blockDim_t::operator uint3() const { return {x, y, z}; }
__device__ inline __cuda_builtin_gridDim_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_gridDim_t::operator uint3() const { return {x, y, z}; }


// Barriers, fences and warp intrinsics.
__device__ void __syncthreads();
__device__ int __syncthreads_count(int);
__device__ int __syncthreads_and(int);
__device__ int __syncthreads_or(int);
__device__ void __syncwarp(unsigned mask = 0xffffffffu);
__device__ void __threadfence();
__device__ void __threadfence_block();
__device__ unsigned __activemask();
__device__ unsigned __ballot_sync(unsigned, int);
__device__ int __any_sync(unsigned, int);
__device__ int __all_sync(unsigned, int);
#define CUDA_LINT_SHFL(T)                                                      \
  __device__ T __shfl_sync(unsigned, T, int, int = 32);                        \
  __device__ T __shfl_up_sync(unsigned, T, unsigned, int = 32);                \
  __device__ T __shfl_down_sync(unsigned, T, unsigned, int = 32);              \
  __device__ T __shfl_xor_sync(unsigned, T, int, int = 32);
CUDA_LINT_SHFL(int)
CUDA_LINT_SHFL(unsigned)
CUDA_LINT_SHFL(long long)
CUDA_LINT_SHFL(unsigned long long)
CUDA_LINT_SHFL(float)
CUDA_LINT_SHFL(double)
#undef CUDA_LINT_SHFL
__device__ int __popc(unsigned);
__device__ int __ffs(int);
__device__ int __clz(int);

// Atomics.
#define CUDA_LINT_ATOMIC(T)                                                    \
  __device__ T atomicAdd(T *, T);                                              \
  __device__ T atomicExch(T *, T);
CUDA_LINT_ATOMIC(int)
CUDA_LINT_ATOMIC(unsigned)
CUDA_LINT_ATOMIC(unsigned long long)
CUDA_LINT_ATOMIC(float)
CUDA_LINT_ATOMIC(double)
#undef CUDA_LINT_ATOMIC
__device__ int atomicSub(int *, int);
__device__ int atomicMin(int *, int);
__device__ int atomicMax(int *, int);
__device__ int atomicCAS(int *, int, int);
__device__ unsigned atomicCAS(unsigned *, unsigned, unsigned);
__device__ unsigned long long atomicCAS(unsigned long long *, unsigned long long, unsigned long long);
__device__ unsigned atomicInc(unsigned *, unsigned);
__device__ int atomicOr(int *, int);
__device__ int atomicAnd(int *, int);

// Read-only loads.
#define CUDA_LINT_LDG(T) __device__ T __ldg(const T *);
CUDA_LINT_LDG(char) CUDA_LINT_LDG(signed char) CUDA_LINT_LDG(unsigned char)
CUDA_LINT_LDG(short) CUDA_LINT_LDG(unsigned short) CUDA_LINT_LDG(int)
CUDA_LINT_LDG(unsigned) CUDA_LINT_LDG(long) CUDA_LINT_LDG(unsigned long)
CUDA_LINT_LDG(long long) CUDA_LINT_LDG(unsigned long long) CUDA_LINT_LDG(float)
CUDA_LINT_LDG(double) CUDA_LINT_LDG(float2) CUDA_LINT_LDG(float4)
CUDA_LINT_LDG(int2) CUDA_LINT_LDG(int4) CUDA_LINT_LDG(double2)
#undef CUDA_LINT_LDG

// Math: the double functions, their float forms, and the float overloads
// that CUDA C++ provides, as device functions (the host ones come from the
// C library's headers; CUDA overloads on the execution space).
#define CUDA_LINT_MATH1(F)                                                     \
  __device__ double F(double);                                        \
  __device__ float F##f(float);                                       \
  __device__ float F(float);
#define CUDA_LINT_MATH2(F)                                                     \
  __device__ double F(double, double);                                         \
  __device__ float F##f(float, float);                                         \
  __device__ float F(float, float);                                            \
  __device__ double F(float, double);                                          \
  __device__ double F(double, float);                                          \
  __device__ float F(float, int);                                              \
  __device__ double F(double, int);
CUDA_LINT_MATH1(sqrt) CUDA_LINT_MATH1(rsqrt) CUDA_LINT_MATH1(cbrt)
CUDA_LINT_MATH1(exp) CUDA_LINT_MATH1(exp2) CUDA_LINT_MATH1(exp10)
CUDA_LINT_MATH1(expm1) CUDA_LINT_MATH1(log) CUDA_LINT_MATH1(log2)
CUDA_LINT_MATH1(log10) CUDA_LINT_MATH1(log1p) CUDA_LINT_MATH1(sin)
CUDA_LINT_MATH1(cos) CUDA_LINT_MATH1(tan) CUDA_LINT_MATH1(asin)
CUDA_LINT_MATH1(acos) CUDA_LINT_MATH1(atan) CUDA_LINT_MATH1(sinh)
CUDA_LINT_MATH1(cosh) CUDA_LINT_MATH1(tanh) CUDA_LINT_MATH1(fabs)
CUDA_LINT_MATH1(floor) CUDA_LINT_MATH1(ceil) CUDA_LINT_MATH1(round)
CUDA_LINT_MATH1(trunc) CUDA_LINT_MATH1(erf) CUDA_LINT_MATH1(erfc)
CUDA_LINT_MATH1(sinpi) CUDA_LINT_MATH1(cospi) CUDA_LINT_MATH1(tgamma)
CUDA_LINT_MATH1(lgamma)
CUDA_LINT_MATH2(pow) CUDA_LINT_MATH2(atan2) CUDA_LINT_MATH2(fmod)
CUDA_LINT_MATH2(fmin) CUDA_LINT_MATH2(fmax) CUDA_LINT_MATH2(hypot)
CUDA_LINT_MATH2(copysign) CUDA_LINT_MATH2(fdim)
#undef CUDA_LINT_MATH1
#undef CUDA_LINT_MATH2
__device__ double fma(double, double, double);
__device__ float fmaf(float, float, float);
__device__ float fma(float, float, float);
__device__ float __fdividef(float, float);
__device__ float __expf(float);
__device__ float __logf(float);
__device__ float __sinf(float);
__device__ float __cosf(float);
__device__ int min(int, int);
__device__ int max(int, int);
__device__ unsigned min(unsigned, unsigned);
__device__ unsigned max(unsigned, unsigned);
__device__ float min(float, float);
__device__ float max(float, float);
__device__ double min(double, double);
__device__ double max(double, double);
__device__ int abs(int);

// Runtime API.
enum cudaError { cudaSuccess = 0, cudaErrorInvalidValue = 1 };
typedef enum cudaError cudaError_t;
enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
cudaError_t cudaMalloc(void **, size_t);
template <class T> cudaError_t cudaMalloc(T **P, size_t N) {
  return cudaMalloc(reinterpret_cast<void **>(P), N);
}
cudaError_t cudaMallocManaged(void **, size_t, unsigned = 1);
cudaError_t cudaFree(void *);
cudaError_t cudaMemcpy(void *, const void *, size_t, cudaMemcpyKind);
cudaError_t cudaMemcpyAsync(void *, const void *, size_t, cudaMemcpyKind,
                            cudaStream_t = 0);
cudaError_t cudaMemset(void *, int, size_t);
cudaError_t cudaDeviceSynchronize();
cudaError_t cudaDeviceReset();
cudaError_t cudaGetLastError();
cudaError_t cudaPeekAtLastError();
const char *cudaGetErrorString(cudaError_t);
cudaError_t cudaStreamCreate(cudaStream_t *);
cudaError_t cudaStreamDestroy(cudaStream_t);
cudaError_t cudaStreamSynchronize(cudaStream_t);
cudaError_t cudaEventCreate(cudaEvent_t *);
cudaError_t cudaEventRecord(cudaEvent_t, cudaStream_t = 0);
cudaError_t cudaEventSynchronize(cudaEvent_t);
cudaError_t cudaEventElapsedTime(float *, cudaEvent_t, cudaEvent_t);
cudaError_t cudaEventDestroy(cudaEvent_t);
// Kernel launches (<<<...>>>) are lowered through this call.
extern "C" cudaError_t cudaConfigureCall(dim3, dim3, size_t = 0,
                                         cudaStream_t = 0);
extern "C" unsigned __cudaPushCallConfiguration(dim3, dim3, size_t = 0,
                                                void * = 0);

#endif // CUDA_LINT_FALLBACK_H
