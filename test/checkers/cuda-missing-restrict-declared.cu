// RUN: %check_cuda_lint %s cuda-missing-restrict %t -- --min-impact=low
// (--min-impact=low: most kernels here load their pointers before any
// store, where `__restrict__` only adds .nc and the finding ranks low; the
// file tests what the check finds and fixes, cuda-missing-restrict-benefit.cu
// the rank.)

// A pointer that is already `__restrict__` and only read: nvcc proves it
// read-only and emits ld.global.nc without `const` (adding `const` gives the
// same PTX, even next to an atomic on another pointer). Not a finding.
__global__ void gather(float *out, float *__restrict__ in,
                       const int *__restrict__ idx, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&out[idx[i]], in[i]);
}

// Every store of the kernel goes through a `__restrict__` pointer (plain
// or volatile): nvcc proves that nothing writes what 'in' points to, and its
// loads are already ld.global.nc with or without `const __restrict__`. Not
// findings.
__global__ void scale(float *__restrict__ out, const float *in, float a,
                      int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = fmaxf(a * in[i], 0.0f);
}
__global__ void boxes(volatile int *__restrict__ box, const float *const xs,
                      const float *const lower, float width, int n) {
  int tid = threadIdx.x + blockIdx.x * blockDim.x;
  if (tid >= n)
    return;
  int b = (int)((xs[tid] - lower[0]) / width);
  b = max(0, b);
  box[tid] = b;
}
__global__ void vec4(const float *x1, const float *x2,
                     float *__restrict__ d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 a = reinterpret_cast<const float4 *>(x1)[i];
  float4 b = reinterpret_cast<const float4 *>(x2)[i];
  float4 r;
  r.x = a.x - b.x;
  r.y = a.y - b.y;
  r.z = a.z - b.z;
  r.w = a.w - b.w;
  reinterpret_cast<float4 *>(d)[i] = r;
}

// An atomic through a `__restrict__` pointer and a thread's own array (even
// one in local memory, a space of its own) are stores nvcc sees cannot
// reach 'in': its loads are ld.global.nc as written (pad, audit of stop 25).
// Not findings.
__global__ void flagged(float *__restrict__ out, const float *in,
                        int *__restrict__ flags) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  if (threadIdx.x == 0)
    atomicAdd(&flags[blockIdx.x], 1);
  __syncthreads();
  out[i] = v;
}
__global__ void ownArray(float *__restrict__ out, const float *in, int k) {
  float reg[4];
  for (int j = 0; j < 4; j++)
    reg[j] = in[threadIdx.x + j * blockDim.x];
  out[threadIdx.x] = reg[k & 3];
}

// An atomic through a plain pointer, or a store through a pointer to the
// thread's array, keeps the finding.
__global__ void flaggedPlain(float *__restrict__ out, const float *in,
                             int *flags) {
  // CHECK-MESSAGES: :[[@LINE-2]]:68: warning: pointer parameter 'in' is only read; declare it 'const float *__restrict__'
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&flags[blockIdx.x], 1);
  out[i] = in[i];
}
__global__ void ownArrayPointer(float *__restrict__ out, const float *in) {
  // CHECK-MESSAGES: :[[@LINE-1]]:71: warning: pointer parameter 'in' is only read; declare it 'const float *__restrict__'
  float reg[4];
  float *p = reg;
  p[threadIdx.x & 3] = in[threadIdx.x];
  out[threadIdx.x] = reg[0];
}

// Stores to shared memory cannot alias a global pointer, and nvcc knows it:
// 'in' is already ld.global.nc in each of these (nvcc -arch=sm_90 -ptx:
// the same loads with and without the qualifier; prna's reductions, audit
// of stop 26): a tile staged through shared memory, a shared histogram's
// atomics, a shared array passed to an inlined helper.
__global__ void staged(float *__restrict__ out, const float *in) {
  __shared__ float tile[64];
  tile[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[63 - threadIdx.x];
}
__global__ void sharedHistogram(int *__restrict__ out, const int *in, int n) {
  extern __shared__ int h[];
  h[threadIdx.x] = 0;
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    atomicAdd(&h[in[i] & 255], 1);
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x] = h[threadIdx.x] + in[threadIdx.x];
}
__device__ void putShared(float *p, int i, float v) { p[i] = v; }
__global__ void sharedThroughHelper(float *__restrict__ out, const float *in) {
  __shared__ float tile[64];
  __shared__ float total;
  putShared(tile, threadIdx.x, in[threadIdx.x]);
  if (threadIdx.x == 0)
    total = in[64];
  __syncthreads();
  out[threadIdx.x] = tile[63 - threadIdx.x] + total;
}

// Any other store (a plain pointer, which may alias 'in'; a `__device__`
// array, kept conservatively) keeps the finding.
__device__ float scratch[64];
__global__ void staticScratch(float *__restrict__ out, const float *in) {
  // CHECK-MESSAGES: :[[@LINE-1]]:69: warning: pointer parameter 'in' is only read; declare it 'const float *__restrict__' so that its loads can use the read-only data cache [cuda-missing-restrict]
  // CHECK-FIXES: {{^}}__global__ void staticScratch(float *__restrict__ out, const float *__restrict__ in) {{{$}}
  scratch[threadIdx.x] = in[threadIdx.x];
  out[threadIdx.x] = scratch[63 - threadIdx.x];
}
__global__ void plainStore(float *out, const float *in) {
  // CHECK-MESSAGES: :[[@LINE-1]]:53: warning: pointer parameter 'in' is only read; declare it 'const float *__restrict__'
  // CHECK-FIXES: {{^}}__global__ void plainStore(float *out, const float *__restrict__ in) {{{$}}
  out[threadIdx.x] = in[threadIdx.x];
}

// Helpers that nvcc inlines and that store only to the caller's locals
// (`&e`) or through the kernel's `__restrict__` pointer: the kernel still
// stores only through `__restrict__`, and 'p' is already loaded with
// ld.global.nc. Not a finding.
struct Table {
  float stack[4][4];
  float bonus;
};
__device__ float penalty(const Table *p, int i, int j) {
  return p->stack[i & 3][j & 3] + p->bonus;
}
__device__ void keepMin(float *e, float v) {
  if (v < *e)
    *e = v;
}
__device__ void keepMinTwice(float *e, float v, float w) {
  keepMin(e, v);
  keepMin(e, w);
}
__global__ void energy(int n, const int *__restrict__ s, float *__restrict__ v,
                       const Table *p) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    float e = 1e30f;
    keepMin(&e, penalty(p, s[i], s[(i + 1) % n]));
    keepMinTwice(&e, p->bonus + v[i], p->bonus);
    keepMin(&v[i], e);
  }
}

// A helper that stores through a plain pointer of the kernel, or into
// global memory, or that is not inlined: the finding stays.
__device__ float gLast;
__device__ void record(float v) { gLast = v; }
__device__ __noinline__ void keepMinCall(float *e, float v) {
  if (v < *e)
    *e = v;
}
__global__ void energyPlain(int n, float *__restrict__ v, float *w,
                            const Table *p) {
  // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: pointer parameter 'p' is only read; declare it 'const Table *__restrict__'
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  keepMin(&w[i], p->bonus);
  v[i] = p->stack[0][0];
}
__global__ void energyGlobal(int n, float *__restrict__ v, const Table *p) {
  // CHECK-MESSAGES: :[[@LINE-1]]:73: warning: pointer parameter 'p' is only read; declare it 'const Table *__restrict__'
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  record(p->bonus);
  v[i] = p->stack[0][0];
}
__global__ void energyNoinline(int n, float *__restrict__ v, const Table *p) {
  // CHECK-MESSAGES: :[[@LINE-1]]:75: warning: pointer parameter 'p' is only read; declare it 'const Table *__restrict__'
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float e = v[i];
  keepMinCall(&e, p->bonus);
  v[i] = e;
}

// The exp/log family is inlined arithmetic too: nvcc expands expf, logf,
// log1pf, tanhf, erff, powf (float and double alike, checked one by one)
// without a call or local memory, and 'p' is ld.global.nc as written
// (prna's calc_x sums Boltzmann weights through expf and log1pf in a
// helper; a false finding of the audit of stop 26). Not findings.
__device__ float logAddExp(float a, float b) {
  float hi = fmaxf(a, b), lo = fminf(a, b);
  return hi + log1pf(expf(lo - hi));
}
__global__ void boltzmann(int n, float *__restrict__ x, const Table *p,
                          float kT) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    x[i] = logAddExp(x[i], -p->bonus / kT) +
           logf(kT) * tanhf(p->stack[0][i & 3]) + powf(erff(x[i]), 2.0f);
}
__global__ void boltzmannDouble(int n, double *__restrict__ x,
                                const double *w) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    x[i] = log(x[i]) + exp2(w[i & 7]) * atan2(w[0], x[i]);
}

// cosf's argument reduction has a slow path in local memory: nvcc then
// loads 'p' with plain ld.global, `const __restrict__` makes it
// ld.global.nc, and the finding stays (qem's cosf, a true finding of the
// same audit).
__global__ void boltzmannAngle(int n, float *__restrict__ x, const Table *p) {
  // CHECK-MESSAGES: :[[@LINE-1]]:75: warning: pointer parameter 'p' is only read; declare it 'const Table *__restrict__'
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    x[i] = expf(x[i]) * cosf(p->bonus * i);
}

// The same kernel without `__restrict__` on `in`: the atomic forces plain
// loads, and the finding stays.
__global__ void gatherPlain(float *out, float *in, const int *__restrict__ idx,
                            int n) {
  // CHECK-MESSAGES: :[[@LINE-2]]:48: warning: pointer parameter 'in' is only read; declare it 'const float *__restrict__' so that its loads can use the read-only data cache [cuda-missing-restrict]
  // CHECK-FIXES: {{^}}__global__ void gatherPlain(float *out, const float *__restrict__ in, const int *__restrict__ idx,{{$}}
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&out[idx[i]], in[i]);
}

// A parameter declared as an array is a pointer to rows: the suggestion and
// the fix write it as such a declarator, with `const` once (more in
// cuda-missing-restrict-arrays.cu).
#define NX 16
__global__ void laplace(const double c[][NX], double f[][NX]) {
  // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: pointer parameter 'c' is only read; declare it 'const double (*__restrict__ c)[16]' so that its loads can use the read-only data cache [cuda-missing-restrict]
  // CHECK-FIXES: {{^}}__global__ void laplace(const double (*__restrict__ c)[NX], double f[][NX]) {{{$}}
  int x = threadIdx.x, y = blockIdx.x;
  if (x > 0 && x < NX - 1)
    f[y][x] = c[y][x - 1] - 2.0 * c[y][x] + c[y][x + 1];
}
__global__ void pool(float in[6][6], float *out) {
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: pointer parameter 'in' is only read; declare it 'const float (*__restrict__ in)[6]' so that its loads can use the read-only data cache [cuda-missing-restrict]
  // CHECK-FIXES: {{^}}__global__ void pool(const float (*__restrict__ in)[6], float *out) {{{$}}
  out[threadIdx.x] = in[threadIdx.x % 6][threadIdx.x / 6];
}
