// RUN: %check_cuda_lint %s cuda-missing-restrict %t -- --min-impact=low
// (--min-impact=low: this file is a program whose main launches two of its
// kernels, so the impact model ranks the others never launched, low.)
//
// A parameter declared as an array (`double phi[N][N]`, `float a[N]`) has
// the type of the pointer it is adjusted to: the fix writes that pointer
// (`const double (*__restrict__ phi)[N]`, `const float *__restrict__ a`), so
// the kernel's type changes only as any restrict fix changes it, and the
// body still compiles (`phi[i][j]` indexes the pointer to rows). Pointer
// types spelled through a typedef or alias are written out where their
// pointee can be.

#include <cuda_runtime.h>

#define NX 400
#define DATA_TYPE double

// A two-dimensional array: a pointer to rows.
__global__ void phase(double phi[NX][NX], double *out) {
  // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: pointer parameter 'phi' is only read; declare it 'const double (*__restrict__ phi)[400]' so that its loads can use the read-only data cache [cuda-missing-restrict]
  // CHECK-FIXES: {{^}}__global__ void phase(const double (*__restrict__ phi)[NX], double *out) {{{$}}
  int i = blockIdx.x, j = threadIdx.x;
  if (j + 1 < NX)
    out[i * NX + j] = phi[i][j + 1] - phi[i][j];
}

// One dimension: a plain pointer.
__global__ void scale(float a[256], float *out) {
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: pointer parameter 'a' is only read; declare it 'const float *__restrict__' so that its loads can use the read-only data cache [cuda-missing-restrict]
  // CHECK-FIXES: {{^}}__global__ void scale(const float *__restrict__ a, float *out) {{{$}}
  out[threadIdx.x] = 2.0f * a[threadIdx.x];
}

// The element type through a macro, three dimensions, and a local pointer to
// a row, which gets `const` too.
__global__ void stencil(DATA_TYPE u[8][16][16], DATA_TYPE *out) {
  // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: pointer parameter 'u' is only read; declare it 'const double (*__restrict__ u)[16][16]'
  // CHECK-FIXES: {{^}}__global__ void stencil(const DATA_TYPE (*__restrict__ u)[16][16], DATA_TYPE *out) {{{$}}
  DATA_TYPE *row = u[blockIdx.x][threadIdx.y];
  // CHECK-FIXES: {{^}}  const DATA_TYPE *row = u[blockIdx.x][threadIdx.y];{{$}}
  out[threadIdx.y * 16 + threadIdx.x] = row[threadIdx.x];
}

// Already const, first dimension left out: only `__restrict__`.
__global__ void laplace(const double c[][16], double f[][16]) {
  // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: pointer parameter 'c' is only read; declare it 'const double (*__restrict__ c)[16]'
  // CHECK-FIXES: {{^}}__global__ void laplace(const double (*__restrict__ c)[16], double f[][16]) {{{$}}
  int x = threadIdx.x, y = blockIdx.x;
  if (x > 0 && x < 15)
    f[y][x] = c[y][x - 1] - 2.0 * c[y][x] + c[y][x + 1];
}

// A declaration before the definition, one with the name left out: both get
// the same type.
__global__ void pool(float[6][6], float *out);
// CHECK-FIXES: {{^}}__global__ void pool(const float(*__restrict__)[6], float *out);{{$}}
__global__ void pool(float in[6][6], float *out) {
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: pointer parameter 'in' is only read; declare it 'const float (*__restrict__ in)[6]'
  // CHECK-FIXES: {{^}}__global__ void pool(const float (*__restrict__ in)[6], float *out) {{{$}}
  out[threadIdx.x] = in[threadIdx.x % 6][threadIdx.x / 6];
}

// A template kernel: the dependent extent stays as written.
template <int B> __global__ void tile(float in[B][B], float *out) {
  // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: pointer parameter 'in' is only read; declare it 'const float (*__restrict__ in)[B]'
  // CHECK-FIXES: {{^}}template <int B> __global__ void tile(const float (*__restrict__ in)[B], float *out) {{{$}}
  out[threadIdx.y * B + threadIdx.x] = in[threadIdx.x][threadIdx.y];
}

// The kernel's type is observed (stored in a function pointer): only the
// top-level `__restrict__`, which is not part of it.
__global__ void observed(float in[6][6], float *out) {
  // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: pointer parameter 'in' is only read; declare it 'const float (*__restrict__ in)[6]'
  // CHECK-FIXES: {{^}}__global__ void observed(float (*__restrict__ in)[6], float *out) {{{$}}
  out[threadIdx.x] = in[threadIdx.x % 6][0];
}
void (*observedPtr)(float (*)[6], float *) = observed;
// CHECK-MESSAGES: :[[@LINE-1]]:46: note: only '__restrict__' added: 'const' would change the type of kernel 'observed'

// Launched with the same pointer twice: `const` only.
__global__ void addTo(float a[64], float *b) {
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: pointer parameter 'a' is only read; declare it 'const float *' (not '__restrict__'
  // CHECK-FIXES: {{^}}__global__ void addTo(const float *a, float *b) {{{$}}
  b[threadIdx.x] += a[threadIdx.x];
}

// Negative: the array declarator comes from a macro.
#define ROWS(name) name[6][6]
__global__ void fromMacro(float ROWS(in), float *out) {
  // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: pointer parameter 'in' is only read
  // CHECK-MESSAGES: :[[@LINE-2]]:38: note: no automatic fix: the kernel is declared in a macro
  out[threadIdx.x] = in[0][threadIdx.x % 6];
}

// Pointer types through a typedef or alias.
typedef float *fptr;
typedef const float *cfptr;
using dptr = double *;
struct Vec {
  float x, y;
};
typedef Vec *VecPtr;
namespace lib {
struct Cell {
  float v;
};
typedef Cell *CellPtr;
typedef float *FloatPtr;
} // namespace lib
typedef fptr fptr2;

__global__ void tdScale(fptr in, fptr out) {
  // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: pointer parameter 'in' is only read; declare it 'const float *__restrict__'
  // CHECK-FIXES: {{^}}__global__ void tdScale(const float *__restrict__ in, fptr out) {{{$}}
  out[threadIdx.x] = in[threadIdx.x];
}
__global__ void tdConst(cfptr in, float *out) {
  // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: pointer parameter 'in' is only read; declare it 'const float *__restrict__'
  // CHECK-FIXES: {{^}}__global__ void tdConst(cfptr __restrict__ in, float *out) {{{$}}
  out[threadIdx.x] = in[threadIdx.x];
}
__global__ void tdAlias(dptr in, double *out) {
  // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: pointer parameter 'in' is only read; declare it 'const double *__restrict__'
  // CHECK-FIXES: {{^}}__global__ void tdAlias(const double *__restrict__ in, double *out) {{{$}}
  out[threadIdx.x] = in[threadIdx.x];
}
__global__ void tdStruct(VecPtr in, float *out) {
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: pointer parameter 'in' is only read; declare it 'const Vec *__restrict__'
  // CHECK-FIXES: {{^}}__global__ void tdStruct(const Vec *__restrict__ in, float *out) {{{$}}
  out[threadIdx.x] = in[threadIdx.x].x;
}
__global__ void tdQualified(lib::FloatPtr in, float *out) {
  // CHECK-MESSAGES: :[[@LINE-1]]:43: warning: pointer parameter 'in' is only read; declare it 'const float *__restrict__'
  // CHECK-FIXES: {{^}}__global__ void tdQualified(const float *__restrict__ in, float *out) {{{$}}
  out[threadIdx.x] = in[threadIdx.x];
}
// Negative: the pointee is named in another namespace.
__global__ void tdOther(lib::CellPtr in, float *out) {
  // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: pointer parameter 'in' is only read
  // CHECK-MESSAGES: :[[@LINE-2]]:38: note: no automatic fix: the parameter's type is spelled through a typedef or alias, whose pointee type cannot be written out here
  out[threadIdx.x] = in[threadIdx.x].v;
}
// Negative: a typedef of a typedef.
__global__ void tdTwice(fptr2 in, float *out) {
  // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: pointer parameter 'in' is only read
  // CHECK-MESSAGES: :[[@LINE-2]]:31: note: no automatic fix: the parameter's type is spelled through a typedef or alias that does not name a plain pointer
  out[threadIdx.x] = in[threadIdx.x];
}
// Observed: `__restrict__` only, after the typedef.
__global__ void tdObserved(fptr in, float *out) {
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: pointer parameter 'in' is only read
  // CHECK-FIXES: {{^}}__global__ void tdObserved(fptr __restrict__ in, float *out) {{{$}}
  out[threadIdx.x] = in[threadIdx.x];
}
void (*tdObservedPtr)(float *, float *) = tdObserved;
// CHECK-MESSAGES: :[[@LINE-1]]:43: note: only '__restrict__' added

// A const pointer through a typedef of a struct defined in it (prna's
// `typedef struct param {...} *param_t;`, `const param_t p`): the pointer
// stays const, and helpers that take the typedef get `const` too.
typedef struct params {
  float scale;
  float bias[4];
} *params_t;
__device__ float affine(params_t p, float v, int k) {
  // CHECK-FIXES: {{^}}__device__ float affine(const struct params *p, float v, int k) {{{$}}
  return p->scale * v + p->bias[k];
}
__global__ void tdParams(float *out, const float *__restrict__ in,
                         const params_t p) {
  // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: pointer parameter 'p' is only read; declare it 'const struct params *__restrict__'
  // CHECK-FIXES: {{^}}                         const struct params *const __restrict__ p) {{{$}}
  out[threadIdx.x] = affine(p, in[threadIdx.x], threadIdx.x & 3);
}
// CHECK-MESSAGES: :[[@LINE-10]]:34: note: 'const' added to parameter 'p' of 'affine' too, which only reads it

int main() {
  float *p, *q;
  cudaMalloc(&p, 256 * sizeof(float));
  cudaMalloc(&q, 256 * sizeof(float));
  addTo<<<1, 64>>>(p, p);
  tile<16><<<1, dim3(16, 16)>>>((float(*)[16])q, p);
  cudaFree(p);
  cudaFree(q);
  return 0;
}
