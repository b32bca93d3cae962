// RUN: %check_cuda_lint %s cuda-missing-restrict %t -- --min-impact=low
// (--min-impact=low: this file is a program whose main launches some of its
// kernels, so the impact model ranks the others never launched, low; the
// file tests the check, not the rank.)

#include <cuda_runtime.h>
#ifdef __clang__
// clang lowers <<<>>> through this call; CUDA 13 no longer declares it.
extern "C" cudaError_t cudaConfigureCall(dim3, dim3, size_t = 0,
                                         cudaStream_t = 0);
#endif

// The guide's case: an input only read, an output written.
__global__ void jacobi(float *out, float *in, int nx, int ny) {
  // CHECK-MESSAGES: :[[@LINE-1]]:43: warning: pointer parameter 'in' is only read; declare it 'const float *__restrict__' so that its loads can use the read-only data cache [cuda-missing-restrict]
  // CHECK-FIXES: {{^}}__global__ void jacobi(float *out, const float *__restrict__ in, int nx, int ny) {{{$}}
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 1 || j < 1 || i >= nx - 1 || j >= ny - 1)
    return;
  out[j * nx + i] = 0.25f * (in[j * nx + i - 1] + in[j * nx + i + 1] +
                             in[(j - 1) * nx + i] + in[(j + 1) * nx + i]);
}

// Already const: only __restrict__ is missing.
__global__ void gather(float *out, const float *in, const int *idx,
                       const float *__restrict__ w, int n) {
  // CHECK-MESSAGES: :[[@LINE-2]]:49: warning: pointer parameter 'in' is only read; declare it 'const float *__restrict__'
  // CHECK-MESSAGES: :[[@LINE-3]]:64: warning: pointer parameter 'idx' is only read; declare it 'const int *__restrict__'
  // CHECK-FIXES: {{^}}__global__ void gather(float *out, const float *__restrict__ in, const int *__restrict__ idx,{{$}}
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[idx[i]] * w[i];
}

// Local copies and derived pointers that are only read get const too.
__global__ void rows(float *out, float *in, int nx) {
  // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: pointer parameter 'in' is only read
  // CHECK-FIXES: {{^}}__global__ void rows(float *out, const float *__restrict__ in, int nx) {{{$}}
  float *row = in + blockIdx.x * nx;
  // CHECK-FIXES: {{^}}  const float *row = in + blockIdx.x * nx;{{$}}
  auto *next = row + nx;
  float *p;
  p = next;
  // CHECK-FIXES: {{^}}  const float *p;{{$}}
  out[threadIdx.x] = row[threadIdx.x] + next[threadIdx.x] + *p;
}

// Already const __restrict__: nothing to do.
__global__ void correct(float *__restrict__ out, const float *__restrict__ in) {
  out[threadIdx.x] = in[threadIdx.x];
}

// Writes through derived pointers, compound assignments, increments.
__global__ void writes(float *a, float *b, float *c, int *d, float *e, int nx) {
  float *row = a + blockIdx.x * nx;
  row[threadIdx.x] = 1.0f;
  b[threadIdx.x] += 1.0f;
  c[threadIdx.x]++;
  float *q = &e[4];
  *q = 2.0f;
  atomicAdd(d, 1);
}

// A declaration before the definition gets the same qualifiers.
__global__ void scale(float *out, float *in, float s);
// CHECK-FIXES: {{^}}__global__ void scale(float *out, const float *__restrict__ in, float s);{{$}}
__global__ void scale(float *out, float *in, float s) {
  // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: pointer parameter 'in' is only read
  // CHECK-FIXES: {{^}}__global__ void scale(float *out, const float *__restrict__ in, float s) {{{$}}
  out[threadIdx.x] = s * *in;
}

// Writes through a pointer advanced in the same expression, directly or
// through a local alias: not read-only.
__global__ void advanceWrites(float *out, float *a, float *b, float *c,
                              float *d) {
  float v = a[threadIdx.x] + b[0] + c[1] + d[2];
  *a++ = 0.0f;
  float *q = b;
  *q++ = v;
  (++c)[0] = 1.0f;
  d++[threadIdx.x] = 2.0f;
  out[0] = v;
}

// Escapes into a reference member, by constructor or aggregate
// initialisation, and written through it later: not read-only. A reference
// to const and a copied value are reads.
struct FloatRef {
  float &r;
  __device__ FloatRef(float &x) : r(x) {}
};
struct FloatAgg {
  float &r;
};
struct FloatVal {
  float v;
};
__global__ void refMembers(float *a, float *b, float *c) {
  // CHECK-MESSAGES: :[[@LINE-1]]:55: warning: pointer parameter 'c' is only read
  // CHECK-FIXES: {{^}}__global__ void refMembers(float *a, float *b, const float *__restrict__ c) {{{$}}
  FloatRef ra(a[threadIdx.x]);
  FloatAgg ab{b[threadIdx.x]};
  FloatVal vc{c[threadIdx.x]};
  ra.r = vc.v;
  ab.r = 2.0f;
}

// An unused pointer parameter has no loads to speed up: not reported.
__global__ void unusedParam(float *unused, float *out) { out[0] = 1.0f; }

// Device helpers: read-only through a const helper, written through another.
__device__ float load(const float *p, int i) { return p[i]; }
__device__ void store(float *p, int i, float v) { p[i] = v; }
__device__ float loadNonConst(float *p, int i) { return p[i]; }
// CHECK-FIXES: {{^}}__device__ float loadNonConst(const float *p, int i) { return p[i]; }{{$}}
__device__ void copyOut(float *dst, const float *src) { memcpy(dst, src, 16); }
__device__ float opaque(float *p);

__global__ void helpers(float *a, float *b, float *c, float *d, float *e,
                        float *f) {
  // CHECK-MESSAGES: :[[@LINE-2]]:32: warning: pointer parameter 'a' is only read
  // CHECK-MESSAGES: :[[@LINE-3]]:52: warning: pointer parameter 'c' is only read
  // CHECK-NOTES: :[[@LINE-9]]:38: note: 'const' added to parameter 'p' of 'loadNonConst' too, which only reads it
  // CHECK-MESSAGES: :[[@LINE-4]]:32: warning: pointer parameter 'f' is only read
  // CHECK-FIXES: {{^}}__global__ void helpers(const float *__restrict__ a, float *b, const float *__restrict__ c, float *d, float *e,{{$}}
  // CHECK-FIXES: {{^}}                        const float *__restrict__ f) {{{$}}
  float v = load(a, threadIdx.x);
  store(b, threadIdx.x, v);
  v += loadNonConst(c, threadIdx.x);
  copyOut(d, f);
  v += opaque(e);
  b[0] = v;
}

// Inline asm outputs write; casting constness away writes.
__global__ void asmAndCasts(float *a, const float *b) {
  asm("mov.f32 %0, 1.0;" : "=f"(a[threadIdx.x]));
  float *w = const_cast<float *>(b);
  w[0] = 1.0f;
}

// Escapes: stored to memory, returned, passed to an unknown function.
__device__ float *gSaved;
__global__ void escapes(float *a, float **table) {
  gSaved = a;
}

// Aliased launch: the same buffer for both parameters: only const.
__global__ void axpy(float *y, float *x, float alpha, int n) {
  // CHECK-MESSAGES: :[[@LINE-1]]:39: warning: pointer parameter 'x' is only read; declare it 'const float *' (not '__restrict__', which the read-only data cache needs: it may alias another parameter) [cuda-missing-restrict]
  // CHECK-NOTES: :[[@LINE-2]]:39: note: impact: low (rank 15/100): 'x' gets only 'const', which changes no instruction: nvcc needs '__restrict__' to use the read-only data cache or move its loads
  // CHECK-NOTES: :{{[0-9]+}}:3: note: '__restrict__' not added: this launch passes pointers into the same allocation as 'x' and 'y'
  // CHECK-FIXES: {{^}}__global__ void axpy(float *y, const float *x, float alpha, int n) {{{$}}
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += alpha * x[i];
}

// A launch with pointers into one allocation: only const.
__global__ void shift(float *dst, float *src, int n) {
  // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: pointer parameter 'src' is only read
  // CHECK-NOTES: :{{[0-9]+}}:3: note: '__restrict__' not added: this launch passes pointers into the same allocation as 'src' and 'dst'
  // CHECK-FIXES: {{^}}__global__ void shift(float *dst, const float *src, int n) {{{$}}
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    dst[i] = src[i];
}

// Aliasing through an assignment after the declaration, and through a host
// function that forwards its parameters to the launch: only const.
__global__ void assigned(float *out, float *in) {
  // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: pointer parameter 'in' is only read
  // CHECK-NOTES: :{{[0-9]+}}:3: note: '__restrict__' not added: this launch passes pointers into the same allocation as 'in' and 'out'
  // CHECK-FIXES: {{^}}__global__ void assigned(float *out, const float *in) {{{$}}
  out[threadIdx.x] = in[threadIdx.x];
}
__global__ void wrapped(float *out, float *in) {
  // CHECK-MESSAGES: :[[@LINE-1]]:44: warning: pointer parameter 'in' is only read
  // CHECK-NOTES: :{{[0-9]+}}:3: note: '__restrict__' not added: this call of 'launchWrapped' passes pointers into the same allocation, which it launches the kernel with as 'in' and 'out'
  // CHECK-FIXES: {{^}}__global__ void wrapped(float *out, const float *in) {{{$}}
  out[threadIdx.x] = in[threadIdx.x];
}
void launchWrapped(float *o, float *i) { wrapped<<<1, 32>>>(o, i); }
// The same member of two objects (`in.data`, `out.data`): they may hold one
// pointer (nothing here says otherwise), so only const, and the note says
// why without claiming one allocation; a member of one object passed twice
// is the same pointer.
struct Field {
  float *data;
  int n;
};
__global__ void scaleField(int n, float *inData, float *outData, float s) {
  // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: pointer parameter 'inData' is only read; declare it 'const float *' (not '__restrict__'
  // CHECK-NOTES: :{{[0-9]+}}:3: note: '__restrict__' not added: this launch passes 'inData' and 'outData' pointers read from the same member 'data', which may point into one allocation
  // CHECK-FIXES: {{^}}__global__ void scaleField(int n, const float *inData, float *outData, float s) {{{$}}
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    outData[i] = s * inData[i];
}
void applyField(Field &in, Field &out) {
  scaleField<<<(in.n + 255) / 256, 256>>>(in.n, in.data, out.data, 2.0f);
}
__global__ void sameField(float *dst, float *src, int n) {
  // CHECK-MESSAGES: :[[@LINE-1]]:46: warning: pointer parameter 'src' is only read
  // CHECK-NOTES: :{{[0-9]+}}:29: note: '__restrict__' not added: this launch passes pointers into the same allocation as 'src' and 'dst'
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    dst[i] = src[i];
}
void shiftField(Field &f) { sameField<<<1, 32>>>(f.data, f.data, f.n); }
// A wrapper only ever called with distinct buffers: __restrict__ is fine.
__global__ void wrappedDistinct(float *out, float *in) {
  // CHECK-MESSAGES: :[[@LINE-1]]:52: warning: pointer parameter 'in' is only read
  // CHECK-FIXES: {{^}}__global__ void wrappedDistinct(float *out, const float *__restrict__ in) {{{$}}
  out[threadIdx.x] = in[threadIdx.x];
}
void launchDistinct(float *o, float *i) { wrappedDistinct<<<1, 32>>>(o, i); }

// Templates: fixed only when read-only in every instantiation; one
// instantiation is launched with pointers into one allocation: only const.
template <typename T> __global__ void copyT(T *out, T *in) {
  // CHECK-MESSAGES: :[[@LINE-1]]:56: warning: pointer parameter 'in' is only read; declare it 'const T *' (not '__restrict__'
  // CHECK-NOTES: :{{[0-9]+}}:3: note: '__restrict__' not added: this launch passes pointers into the same allocation as 'in' and 'out'
  // CHECK-FIXES: {{^}}template <typename T> __global__ void copyT(T *out, const T *in) {{{$}}
  out[threadIdx.x] = in[threadIdx.x];
}
__device__ void touch(float *p) { p[0] = 0; }
__device__ void touch(const int *) {}
template <typename T> __global__ void mixedT(float *out, T *in) {
  touch(in);
  out[0] = in[1];
}

// Explicit instantiations repeat the parameter types and explicit
// specializations must keep matching the primary template: all get the
// same qualifiers, each only where it lacks them.
template <typename T> __global__ void scaleT(T *out, T *in);
// CHECK-FIXES: {{^}}template <typename T> __global__ void scaleT(T *out, const T *__restrict__ in);{{$}}
template <typename T> __global__ void scaleT(T *out, T *in) {
  // CHECK-MESSAGES: :[[@LINE-1]]:57: warning: pointer parameter 'in' is only read; declare it 'const T *__restrict__'
  // CHECK-FIXES: {{^}}template <typename T> __global__ void scaleT(T *out, const T *__restrict__ in) {{{$}}
  out[threadIdx.x] = 2 * in[threadIdx.x];
}
template __global__ void scaleT<float>(float *, float *);
// CHECK-FIXES: {{^}}template __global__ void scaleT<float>(float *, const float *);{{$}}
template __global__ void scaleT(double *out, double *in);
// CHECK-FIXES: {{^}}template __global__ void scaleT(double *out, const double *in);{{$}}
template <> __global__ void scaleT<int>(int *out, int *in) {
  // CHECK-FIXES: {{^}}template <> __global__ void scaleT<int>(int *out, const int *__restrict__ in) {{{$}}
  out[threadIdx.x] = in[threadIdx.x] + 1;
}
template <> __global__ void scaleT<const char>(const char *out, const char *in) {}
// CHECK-FIXES: {{^}}template <> __global__ void scaleT<const char>(const char *out, const char *__restrict__ in) {}{{$}}

// Written in the primary template, only read in a specialization: neither
// is changed, as both would have to be.
template <typename T> __global__ void fillT(T *out, T *in) {
  in[0] = 1;
  out[0] = in[1];
}
template <> __global__ void fillT<int>(int *out, int *in) { out[0] = in[0]; }
template __global__ void fillT<float>(float *, float *);

// An explicit instantiation that spells the parameter through a typedef.
typedef float *FloatPtr;
template <typename T> __global__ void copyTd(T *out, T *in) { out[0] = in[0]; }
// CHECK-MESSAGES: :[[@LINE-1]]:57: warning: pointer parameter 'in' is only read; declare it 'const T *__restrict__'
// CHECK-NOTES: :[[@LINE-2]]:57: note: no automatic fix: an explicit instantiation of the kernel would no longer match; add 'const' to its parameter type too
template __global__ void copyTd<float>(float *, FloatPtr);

// Macros: no fix inside a macro body.
#define DECLARE_KERNEL(name) \
  __global__ void name(float *out, float *in) { out[0] = in[0]; }
DECLARE_KERNEL(fromMacro)
// CHECK-MESSAGES: :[[@LINE-1]]:1: warning: pointer parameter 'in' is only read
// CHECK-NOTES: :[[@LINE-2]]:1: note: no automatic fix: the kernel is declared in a macro

// Host code is untouched.
void host(float *out, float *in) { out[0] = in[0]; }

int main() {
  float *a, *b;
  int *k;
  cudaMalloc(&a, 1024 * sizeof(float));
  cudaMalloc(&b, 1024 * sizeof(float));
  cudaMalloc(&k, 1024 * sizeof(int));
  axpy<<<4, 256>>>(a, a, 2.0f, 1024);
  float *upper = a + 512;
  shift<<<2, 256>>>(a, upper, 512);
  float *c = b;
  c = a;
  assigned<<<1, 32>>>(a, c);
  launchWrapped(a, a + 16);
  launchDistinct(a, b);
  copyT<float><<<1, 32>>>(a, b);
  copyT<int><<<1, 32>>>(k, k + 32);
  mixedT<float><<<1, 1>>>(a, b);
  mixedT<int><<<1, 1>>>(a, k);
  return 0;
}

// Read only through explicit load instructions: the `__ld*` intrinsics
// (streaming `__ldcs`, L2-only `__ldcg`, `__ldg`) and inline asm loads.
// The instruction and its cache policy are written out; `const
// __restrict__` changes nothing, so no finding.
__device__ __forceinline__ float4 loadStreaming(const float4 *p) {
  float4 v;
  asm volatile("ld.global.cs.v4.f32 {%0, %1, %2, %3}, [%4];"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
               : "l"(p));
  return v;
}
__global__ void streamScale(float4 *out, float4 *in, float *gain,
                            float *bias, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float4 v = loadStreaming(in + i);
  float g = __ldcs(gain + i) + __ldcg(&gain[n + i]);
  float b = bias[i];
  // CHECK-MESSAGES: :[[@LINE-7]]:36: warning: pointer parameter 'bias' is only read; declare it 'const float *__restrict__'
  // CHECK-FIXES: {{^}}                            const float *__restrict__ bias, int n) {{{$}}
  out[i] = make_float4(v.x * g + b, v.y * g + b, v.z * g + b, v.w * g + b);
}

// An asm that stores through its input operand writes.
__global__ void asmStore(float *dst, float *src) {
  asm volatile("st.global.f32 [%0], %1;" ::"l"(dst), "f"(1.0f));
  float v;
  asm volatile("ld.global.f32 %0, [%1];" : "=f"(v) : "l"(src));
  // A plain load next to the explicit one: reported.
  v += src[1];
  // CHECK-MESSAGES: :[[@LINE-6]]:45: warning: pointer parameter 'src' is only read; declare it 'const float *__restrict__'
  // CHECK-FIXES: {{^}}__global__ void asmStore(float *dst, const float *__restrict__ src) {{{$}}
  dst[1] = v;
}
