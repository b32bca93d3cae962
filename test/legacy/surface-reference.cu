// Surface references and the other runtime APIs that CUDA 13 no longer
// declares (generated_cudart_removed_meta.h) parse with the compatibility
// header and are reported, without a fix-it: none has a same-meaning
// replacement. The names are found by the header's "cuda-lint-legacy"
// annotation; a program's own function of the same name is not a finding.
// RUN: %check_cuda_lint -no-compile %s cuda-legacy-runtime-api %t -- --legacy-compat
// Without the header the file does not parse.
// RUN: not %cuda_lint --no-legacy-compat --checks='-*,cuda-legacy-runtime-api' %s -- 2>&1 | FileCheck --check-prefix=NOPARSE %s
// NOPARSE: error: {{.*}}surface

surface<void, 2> surfOut;
// CHECK-MESSAGES: :[[@LINE-1]]:18: warning: surface reference 'surfOut' is not supported by CUDA 13; use a surface object [cuda-legacy-runtime-api]
// CHECK-NOTES: :[[@LINE-2]]:18: note: create a 'cudaSurfaceObject_t' with 'cudaCreateSurfaceObject', pass it to the kernel and access it with 'surf2Dread(&v, obj, x, y)' and 'surf2Dwrite(v, obj, x, y)'

__global__ void scale(int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  float v;
  surf2Dread(&v, surfOut, x * 4, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'surf2Dread' is not declared by CUDA 13 (it was removed from the runtime API) and has no same-meaning replacement [cuda-legacy-runtime-api]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: use a surface object instead
  surf2Dwrite(v * 2.0f, surfOut, x * 4, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'surf2Dwrite' is not declared by CUDA 13
}

// Surface objects are the modern API: not findings.
__global__ void modern(cudaSurfaceObject_t obj) {
  float v;
  surf2Dread(&v, obj, 0, 0);
  surf2Dwrite(v, obj, 4, 0);
}

namespace mine {
int cudaLaunch(const void *);
}
__global__ void kernel(double d) {}

void host(cudaArray_t arr) {
  cudaBindSurfaceToArray(surfOut, arr);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaBindSurfaceToArray' is not declared by CUDA 13
  // CHECK-NOTES: :[[@LINE-2]]:3: note: use a surface object instead
  const surfaceReference *sref;
  cudaGetSurfaceReference(&sref, &surfOut);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaGetSurfaceReference' is not declared by CUDA 13
  const textureReference *tref;
  cudaGetTextureReference(&tref, "tex");
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaGetTextureReference' is not declared by CUDA 13
  // CHECK-NOTES: :[[@LINE-2]]:3: note: use a texture object instead
  cudaMipmappedArray_t mip;
  cudaBindTextureToMipmappedArray(tref, mip, nullptr);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaBindTextureToMipmappedArray' is not declared by CUDA 13
  size_t offset;
  cudaGetTextureAlignmentOffset(&offset, tref);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaGetTextureAlignmentOffset' is not declared by CUDA 13
  double d = 1.0;
  cudaSetDoubleForDevice(&d);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaSetDoubleForDevice' is not declared by CUDA 13
  // CHECK-NOTES: :[[@LINE-2]]:3: note: it converted double arguments for GPUs without double precision, which CUDA 13 does not support; remove the call
  cudaConfigureCall(dim3(1), dim3(32), 0, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaConfigureCall' is not declared by CUDA 13
  // CHECK-NOTES: :[[@LINE-2]]:3: note: launch the kernel with '<<<...>>>' or 'cudaLaunchKernel' instead
  cudaSetupArgument(&d, sizeof(d), 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaSetupArgument' is not declared by CUDA 13
  cudaLaunch((const void *)kernel);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaLaunch' is not declared by CUDA 13
  mine::cudaLaunch(nullptr);
}
