// Texture references (removed in CUDA 12) are reported with a pointer to
// texture objects; there is no automatic rewrite, so the file is unchanged
// and still needs CUDA 11 or older to compile.
// RUN: %check_cuda_lint -no-compile %s cuda-legacy-runtime-api %t
// The driver adds the compatibility header by itself (the source names
// texture<); --legacy-compat forces it, and the result is the same.
// RUN: %cuda_lint --legacy-compat --checks='-*,cuda-legacy-runtime-api' %s -- 2>&1 | FileCheck --check-prefix=FORCED %s
// FORCED: warning: texture reference 'texIn' was removed in CUDA 12

texture<float, 1, cudaReadModeElementType> texIn;
// CHECK-MESSAGES: :[[@LINE-1]]:44: warning: texture reference 'texIn' was removed in CUDA 12; use a texture object [cuda-legacy-runtime-api]
// CHECK-NOTES: :[[@LINE-2]]:44: note: create a 'cudaTextureObject_t' with 'cudaCreateTextureObject', pass it to the kernel and read it with 'tex1Dfetch<float>(obj, i)' (linear memory) or 'tex1D<float>(obj, x)' (a CUDA array)
// The note follows the reference's dimensionality: a 2-D texture is read
// with tex2D, a 3-D one with tex3D.
texture<float4, 2> texImage;
// CHECK-MESSAGES: :[[@LINE-1]]:20: warning: texture reference 'texImage' was removed in CUDA 12
// CHECK-NOTES: :[[@LINE-2]]:20: note: create a 'cudaTextureObject_t' with 'cudaCreateTextureObject', pass it to the kernel and read it with 'tex2D<float4>(obj, x, y)'
texture<unsigned char, cudaTextureType3D, cudaReadModeNormalizedFloat> texVolume;
// CHECK-MESSAGES: :[[@LINE-1]]:72: warning: texture reference 'texVolume' was removed in CUDA 12
// CHECK-NOTES: :[[@LINE-2]]:72: note: create a 'cudaTextureObject_t' with 'cudaCreateTextureObject', pass it to the kernel and read it with 'tex3D<float>(obj, x, y, z)'
texture<float, cudaTextureType2DLayered> texLayers;
// CHECK-MESSAGES: :[[@LINE-1]]:42: warning: texture reference 'texLayers' was removed in CUDA 12
// CHECK-NOTES: :[[@LINE-2]]:42: note: create a 'cudaTextureObject_t' with 'cudaCreateTextureObject', pass it to the kernel and read it with 'tex2DLayered<float>(obj, x, y, layer)'

__global__ void gather(float *out, const int *index, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = tex1Dfetch(texIn, index[i]) + tex2D(texImage, 0.5f, 0.5f).x;
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'tex1Dfetch<float, cudaReadModeElementType>' on a texture reference was removed in CUDA 12; use a texture object
  // CHECK-MESSAGES: :[[@LINE-2]]:44: warning: 'tex2D<float4, cudaReadModeElementType>' on a texture reference was removed in CUDA 12
}

// Texture objects are the replacement: not findings.
__global__ void gatherObject(cudaTextureObject_t tex, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = tex1Dfetch<float>(tex, i);
}

void bind(const float *data, size_t bytes) {
  cudaBindTexture(0, texIn, data, bytes);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaBindTexture<float, 1, cudaReadModeElementType>' on a texture reference was removed in CUDA 12
  cudaUnbindTexture(texIn);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaUnbindTexture<float, 1, cudaReadModeElementType>' on a texture reference was removed in CUDA 12
}
