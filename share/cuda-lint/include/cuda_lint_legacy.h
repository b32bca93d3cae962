// cuda-lint's legacy compatibility layer: declarations of CUDA runtime APIs
// and language features that CUDA 12 and 13 removed, so that code written
// for old toolkits (cudaThreadSynchronize, texture references) still parses
// and can be linted and modernised. cuda-lint force-includes this header
// with --legacy-compat, or by itself when the source text names one of the
// removed APIs. Every declaration is annotated "cuda-lint-legacy":
// cuda-legacy-runtime-api reports each use of a declaration so annotated
// (and of the same names declared by an old toolkit's own headers). Nothing
// here is meant to be compiled into a program: the functions have no
// definitions.
//
// The non-_sync warp intrinsics (__shfl_down, __ballot, __any, ...) are not
// declared here: clang's own CUDA headers still declare them for every GPU.
#ifndef CUDA_LINT_LEGACY_H
#define CUDA_LINT_LEGACY_H

#define __CUDA_LINT_LEGACY __attribute__((annotate("cuda-lint-legacy")))

#if !defined(CUDART_VERSION) || CUDART_VERSION >= 13000
// Thread management, deprecated in CUDA 4.0; CUDA 13.0's headers no longer
// declare it (libcudart still exports the symbols).
extern __host__ __CUDA_LINT_LEGACY cudaError_t cudaThreadExit(void);
extern __host__ __CUDA_LINT_LEGACY cudaError_t cudaThreadSynchronize(void);
extern __host__ __CUDA_LINT_LEGACY cudaError_t
cudaThreadSetLimit(enum cudaLimit limit, size_t value);
extern __host__ __CUDA_LINT_LEGACY cudaError_t
cudaThreadGetLimit(size_t *pValue, enum cudaLimit limit);
extern __host__ __CUDA_LINT_LEGACY cudaError_t
cudaThreadGetCacheConfig(enum cudaFuncCache *pCacheConfig);
extern __host__ __CUDA_LINT_LEGACY cudaError_t
cudaThreadSetCacheConfig(enum cudaFuncCache cacheConfig);

#endif // CUDART_VERSION >= 13000

#if !defined(CUDART_VERSION) || CUDART_VERSION >= 12000
// Texture references, deprecated in CUDA 11.0 and removed in CUDA 12.0.
struct textureReference {
  int normalized;
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureAddressMode addressMode[3];
  struct cudaChannelFormatDesc channelDesc;
};

template <class T, int texType = cudaTextureType1D,
          enum cudaTextureReadMode mode = cudaReadModeElementType>
struct __attribute__((device_builtin_texture_type)) __CUDA_LINT_LEGACY texture
    : public textureReference {
  __host__ texture(int norm = 0,
                   enum cudaTextureFilterMode fMode = cudaFilterModePoint,
                   enum cudaTextureAddressMode aMode = cudaAddressModeClamp);
};

template <class T, enum cudaTextureReadMode M>
__device__ __CUDA_LINT_LEGACY T tex1Dfetch(texture<T, cudaTextureType1D, M> t,
                                           int x);
template <class T, enum cudaTextureReadMode M>
__device__ __CUDA_LINT_LEGACY T tex1D(texture<T, cudaTextureType1D, M> t,
                                      float x);
template <class T, enum cudaTextureReadMode M>
__device__ __CUDA_LINT_LEGACY T tex2D(texture<T, cudaTextureType2D, M> t,
                                      float x, float y);
template <class T, enum cudaTextureReadMode M>
__device__ __CUDA_LINT_LEGACY T tex3D(texture<T, cudaTextureType3D, M> t,
                                      float x, float y, float z);

template <class T, int D, enum cudaTextureReadMode M>
__host__ __CUDA_LINT_LEGACY cudaError_t
cudaBindTexture(size_t *offset, const struct texture<T, D, M> &tex,
                const void *devPtr, size_t size = ~(size_t)0);
template <class T, int D, enum cudaTextureReadMode M>
__host__ __CUDA_LINT_LEGACY cudaError_t cudaBindTexture(
    size_t *offset, const struct texture<T, D, M> &tex, const void *devPtr,
    const struct cudaChannelFormatDesc &desc, size_t size = ~(size_t)0);
template <class T, int D, enum cudaTextureReadMode M>
__host__ __CUDA_LINT_LEGACY cudaError_t cudaBindTexture2D(
    size_t *offset, const struct texture<T, D, M> &tex, const void *devPtr,
    size_t width, size_t height, size_t pitch);
template <class T, int D, enum cudaTextureReadMode M>
__host__ __CUDA_LINT_LEGACY cudaError_t
cudaBindTexture2D(size_t *offset, const struct texture<T, D, M> &tex,
                  const void *devPtr, const struct cudaChannelFormatDesc &desc,
                  size_t width, size_t height, size_t pitch);
template <class T, int D, enum cudaTextureReadMode M>
__host__ __CUDA_LINT_LEGACY cudaError_t cudaBindTextureToArray(
    const struct texture<T, D, M> &tex, cudaArray_const_t array);
template <class T, int D, enum cudaTextureReadMode M>
__host__ __CUDA_LINT_LEGACY cudaError_t cudaBindTextureToArray(
    const struct texture<T, D, M> &tex, cudaArray_const_t array,
    const struct cudaChannelFormatDesc &desc);
template <class T, int D, enum cudaTextureReadMode M>
__host__ __CUDA_LINT_LEGACY cudaError_t
cudaUnbindTexture(const struct texture<T, D, M> &tex);

#endif // CUDART_VERSION >= 12000

#if !defined(CUDART_VERSION) || CUDART_VERSION >= 13000
// Further runtime APIs that CUDA 13.0's headers do not declare: listed in its
// generated_cudart_removed_meta.h. Surface references were deprecated with
// texture references; the launch API (cudaConfigureCall, cudaSetupArgument,
// cudaLaunch) is older than <<<...>>>'s cudaLaunchKernel.
extern "C" {
// No default arguments (the removed declaration had `sharedMem = 0, stream =
// 0`): code that declares cudaConfigureCall itself for clang's <<<...>>>
// lowering, with those defaults, must still parse with this header.
extern __host__ __CUDA_LINT_LEGACY cudaError_t cudaConfigureCall(
    dim3 gridDim, dim3 blockDim, size_t sharedMem, cudaStream_t stream);
extern __host__ __CUDA_LINT_LEGACY cudaError_t
cudaSetupArgument(const void *arg, size_t size, size_t offset);
extern __host__ __CUDA_LINT_LEGACY cudaError_t cudaLaunch(const void *func);
extern __host__ __CUDA_LINT_LEGACY cudaError_t
cudaSetDoubleForDevice(double *d);
extern __host__ __CUDA_LINT_LEGACY cudaError_t cudaSetDoubleForHost(double *d);
extern __host__ __CUDA_LINT_LEGACY cudaError_t cudaGetTextureReference(
    const struct textureReference **texref, const void *symbol);
extern __host__ __CUDA_LINT_LEGACY cudaError_t cudaGetTextureAlignmentOffset(
    size_t *offset, const struct textureReference *texref);
extern __host__ __CUDA_LINT_LEGACY cudaError_t
cudaBindTextureToMipmappedArray(const struct textureReference *texref,
                                cudaMipmappedArray_const_t mipmappedArray,
                                const struct cudaChannelFormatDesc *desc);

struct surfaceReference {
  struct cudaChannelFormatDesc channelDesc;
};
extern __host__ __CUDA_LINT_LEGACY cudaError_t cudaBindSurfaceToArray(
    const struct surfaceReference *surfref, cudaArray_const_t array,
    const struct cudaChannelFormatDesc *desc);
extern __host__ __CUDA_LINT_LEGACY cudaError_t cudaGetSurfaceReference(
    const struct surfaceReference **surfref, const void *symbol);
} // extern "C"

// Surface references: `surface<void, 2> surf;` at namespace scope, bound with
// cudaBindSurfaceToArray and accessed with surf1D/2Dread/write.
template <class T, int dim = 1>
struct __attribute__((device_builtin_surface_type)) __CUDA_LINT_LEGACY surface
    : public surfaceReference {
  __host__ surface();
};

template <class T, int dim>
__host__ __CUDA_LINT_LEGACY cudaError_t cudaBindSurfaceToArray(
    const struct surface<T, dim> &surf, cudaArray_const_t array);
template <class T, int dim>
__host__ __CUDA_LINT_LEGACY cudaError_t cudaBindSurfaceToArray(
    const struct surface<T, dim> &surf, cudaArray_const_t array,
    const struct cudaChannelFormatDesc &desc);

template <class T>
__device__ __CUDA_LINT_LEGACY void
surf1Dwrite(T val, surface<void, 1> surf, int x,
            enum cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T>
__device__ __CUDA_LINT_LEGACY void
surf1Dread(T *val, surface<void, 1> surf, int x,
           enum cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T>
__device__ __CUDA_LINT_LEGACY void
surf2Dwrite(T val, surface<void, 2> surf, int x, int y,
            enum cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T>
__device__ __CUDA_LINT_LEGACY void
surf2Dread(T *val, surface<void, 2> surf, int x, int y,
           enum cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);

#endif // CUDART_VERSION >= 13000

#if !defined(CUDART_VERSION) || CUDART_VERSION >= 13000
// Fields that CUDA 13.0 removed from cudaDeviceProp. A struct cannot be
// reopened, so the name `cudaDeviceProp` is made to mean a struct derived
// from the toolkit's, with the removed fields added back: the runtime's
// functions (declared before this header, with the toolkit's struct) take
// it, since a pointer to it converts to a pointer to its base.
struct __CUDA_LINT_LEGACY __cuda_lint_cudaDeviceProp : cudaDeviceProp {
  int clockRate __CUDA_LINT_LEGACY;
  int deviceOverlap __CUDA_LINT_LEGACY;
  int kernelExecTimeoutEnabled __CUDA_LINT_LEGACY;
  int computeMode __CUDA_LINT_LEGACY;
  int maxTexture1DLinear __CUDA_LINT_LEGACY;
  int memoryClockRate __CUDA_LINT_LEGACY;
  int singleToDoublePrecisionPerfRatio __CUDA_LINT_LEGACY;
  int cooperativeMultiDeviceLaunch __CUDA_LINT_LEGACY;
};
#define cudaDeviceProp __cuda_lint_cudaDeviceProp
#endif // CUDART_VERSION >= 13000

#undef __CUDA_LINT_LEGACY
#endif // CUDA_LINT_LEGACY_H
