// RUN: %check_cuda_lint %s cuda-local-memory-array %t -- --min-impact=low
// (--min-impact=low: some kernels here compute once per thread beside a loop,
// which the impact model ranks low; this file tests the check, not the rank.)

// Run-time indices: data, the thread index, a kernel parameter, the counter
// of a loop whose bound is a run-time value. Reported, no fix.
// One warning per array, at its first run-time index. Every positive here
// keeps a stack frame in the SASS (`nvcc -arch=sm_90 -Xptxas -v`, CUDA 13.0).
__global__ void dataIndex(const float *in, const int *idx, float *out,
                          int n) {
  float acc[16];
#pragma unroll
  for (int k = 0; k < 16; ++k)
    acc[k] = in[k];
  float s = 0.0f;
  for (int i = 0; i < n; ++i)
    s += acc[idx[i] & 15];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: per-thread array 'acc' is indexed with a value known only at run time, so it is placed in local memory, as slow as global memory, instead of registers [cuda-local-memory-array]
  // CHECK-NOTES: :[[@LINE-2]]:14: note: the index depends on this value
  // CHECK-NOTES: :[[@LINE-9]]:9: note: 'acc' is declared here
  out[threadIdx.x] = s + acc[threadIdx.x & 15];
}

__global__ void threadIndex(float *out, int n) {
  int lut[16] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3};
  for (int i = 0; i < n; ++i)
    out[i * blockDim.x + threadIdx.x] = lut[(threadIdx.x + i) % 16];
  // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: per-thread array 'lut' is indexed with a value known only at run time
}

__global__ void runTimeLoop(const float *in, float *out, int n) {
  float buf[16];
  for (int k = 0; k < n; ++k)
    buf[k] = in[k];
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: per-thread array 'buf' is indexed with a value known only at run time
  float s = 0.0f;
  for (int j = 0; j < n; ++j)
    for (int k = 0; k < n; ++k)
      s += buf[k] * in[j];
  out[threadIdx.x] = s;
}

__global__ void kernelParam(const float *in, float *out, int which) {
  float r[4][4];
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j)
      r[i][j] = in[i * 4 + j];
  float s = 0.0f;
  for (int i = 0; i < which; ++i)
    s += r[i & 3][(i >> 2) & 3] * in[i];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: per-thread array 'r' is indexed with a value known only at run time
  out[threadIdx.x] = s;
}

// A histogram: read-modify-write at a data index keeps even a 4-word array
// (16 chars) in local memory (16-byte stack frame).
__global__ void histogram(const char *val, float *out, int n) {
  char count[16];
  for (int i = 0; i < 16; i++)
    count[i] = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    count[val[i]]++;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: per-thread array 'count' is indexed with a value known only at run time
  out[threadIdx.x] = count[0] + count[15];
}

// An index made of four comparison results (16 values) into 16 words: ptxas
// no longer selects, the array stays in local memory (64-byte stack frame).
__global__ void fourBits(const int *xyz, int *out, int n) {
  int best[16];
  int x = xyz[threadIdx.x];
  for (int k = 0; k < 16; ++k)
    best[k] = 1 << 30;
  for (int j = 0; j < n; ++j) {
    int t = (xyz[4 * j] > x) * 8 + (xyz[4 * j + 1] > x) * 4 +
            (xyz[4 * j + 2] > x) * 2 + (xyz[4 * j + 3] > x);
    if (j < best[t])
      best[t] = j;
    // CHECK-MESSAGES: :[[@LINE-2]]:13: warning: per-thread array 'best' is indexed with a value known only at run time
  }
  for (int k = 0; k < 16; ++k)
    out[16 * threadIdx.x + k] = best[k];
}

// Written at one run-time subscript and read at another: stored at
// `b = blockIdx.x`, loaded at `threadIdx.x` (512-byte stack frame). The
// same `b` in every access selects nothing (see sameSubscript below): the
// cause is the last subscript, reported where it is (phmm, audit of stop
// 25: the note blamed `b`).
__global__ void differentSubscripts(const double *in, double *out) {
  int b = blockIdx.x & 3;
  double t[4][2][2];
  for (int k = 0; k < 2; k++)
    for (int l = 0; l < 2; l++)
      t[b][k][l] = in[(b * 2 + k) * 2 + l];
  double s = 0.0;
  for (int k = 0; k < 2; k++)
    s += t[b][k][threadIdx.x & 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: per-thread array 't' is indexed with a value known only at run time
  // CHECK-NOTES: :[[@LINE-2]]:18: note: the index depends on this value
  // CHECK-NOTES: :[[@LINE-9]]:10: note: 't' is declared here
  out[threadIdx.x] = s;
}

// A loop that nvcc leaves rolled (32 iterations calling powf, measured in
// cuda-local-memory-array-ptx.cu): the fix inserts `#pragma unroll`. ptxas
// moves the array back to registers (0-byte stack frame), so the message
// says what is left: the rolled loop's run-time indices.
__global__ void rolledByNvcc(const float *in, float *out, int n) {
  float acc[32];
  for (int k = 0; k < 32; ++k)
    acc[k] = powf(in[k * n + threadIdx.x], 1.7f);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: per-thread array 'acc' is indexed by the counter of a loop of 32 iterations that nvcc does not unroll on its own, so the loop runs with run-time indices into the array (nvcc's PTX places it in local memory; ptxas moves it back to registers) [cuda-local-memory-array]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: '#pragma unroll' on this loop makes every index constant
  // CHECK-NOTES: :[[@LINE-5]]:9: note: 'acc' is declared here
  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < 32; ++k)
    s += acc[k];
  out[threadIdx.x] = s;
}
// CHECK-FIXES: {{^}}  float acc[32];{{$}}
// CHECK-FIXES-NEXT: {{^}}  #pragma unroll{{$}}
// CHECK-FIXES-NEXT: {{^}}  for (int k = 0; k < 32; ++k){{$}}
// CHECK-FIXES-NEXT: {{^}}    acc[k] = powf(in[k * n + threadIdx.x], 1.7f);{{$}}

// A pragma that keeps the loop rolled: reported with a note, no fix (the
// pragma is the author's choice). One warning per array: its first access
// that the pragma leaves at a run-time index.
__global__ void rolledByPragma(const float *in, float *out) {
  float acc[8];
#pragma unroll 1
  for (int k = 0; k < 8; ++k)
    acc[k] = in[k];
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: per-thread array 'acc' is indexed by the counter of a loop that a pragma keeps rolled, so it is placed in local memory, as slow as global memory, instead of registers
  // CHECK-NOTES: :[[@LINE-4]]:9: note: this pragma keeps the loop of 8 iterations rolled; '#pragma unroll' would make every index constant
  float s = 0.0f;
#pragma unroll 4
  for (int k = 0; k < 8; ++k)
    s += acc[k] * acc[7 - k];
  out[threadIdx.x] = s;
}

// The C++ float overloads: sin(float) is sinf, rolled from 32 iterations;
// exp(float) is expf, which nvcc unrolls up to 64 (not reported below).
__global__ void overloads(const float *in, float *out) {
  float a[32];
  for (int k = 0; k < 32; ++k)
    a[k] = sin(in[k]);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: per-thread array 'a' is indexed by the counter of a loop of 32 iterations that nvcc does not unroll on its own, so it is placed in local memory, as slow as global memory, instead of registers [cuda-local-memory-array]
  float b[64];
  for (int k = 0; k < 64; ++k)
    b[k] = exp(in[k]);
  out[threadIdx.x] = a[0] + a[31] + b[5];
}
// CHECK-FIXES: {{^}}  float a[32];{{$}}
// CHECK-FIXES-NEXT: {{^}}  #pragma unroll{{$}}
// CHECK-FIXES-NEXT: {{^}}  for (int k = 0; k < 32; ++k){{$}}
// CHECK-FIXES-NEXT: {{^}}    a[k] = sin(in[k]);{{$}}

// Negatives.

// A run-time index elsewhere puts the array in local memory whatever the
// loops do: the run-time index is reported, not the rolled loop (whose
// `#pragma unroll` would not help).
__global__ void runTimeAndRolled(const float *in, float *out, int n) {
  float acc[32];
  for (int k = 0; k < 32; ++k)
    acc[k] = powf(in[k], 1.7f);
  out[threadIdx.x] = acc[n & 31];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: per-thread array 'acc' is indexed with a value known only at run time
}

// An index that may be a run-time value (a counter with several
// definitions): not reported, even with a rolled loop.
__global__ void unknownAndRolled(const float *in, float *out) {
  float acc[32];
  for (int k = 0; k < 32; ++k)
    acc[k] = powf(in[k], 1.7f);
  int m = 0;
  while (m < 31 && acc[m] < 1.0f)
    ++m;
  out[threadIdx.x] = acc[0];
}

// Run-time indices that ptxas resolves to registers (PTX `.local`, but a
// 0-byte stack frame and no LDL/STL in the SASS):
// - a table of at most 8 32-bit elements only read at run-time indices;
__global__ void smallTable(unsigned *truth, int nVars, int nWords) {
  unsigned masks[5] = {0xAAAAAAAA, 0xCCCCCCCC, 0xF0F0F0F0, 0xFF00FF00,
                       0xFFFF0000};
  for (int i = 0; i < nVars; i++)
    for (int k = 0; k < nWords; k++)
      truth[i * nWords + k] = i < 5 ? masks[i] : ((k >> (i - 5)) & 1 ? ~0u : 0u);
}
__global__ void smallDataTable(const float *in, const int *idx, float *out) {
  float acc[8];
#pragma unroll
  for (int k = 0; k < 8; ++k)
    acc[k] = in[k];
  out[threadIdx.x] = acc[idx[threadIdx.x] & 7] + acc[threadIdx.x % 8];
}
// - an index made of at most three comparison results (octants), into an
//   array of up to 32 words, read and written.
__global__ void octants(int n, int radius, const int *xyz, int *out) {
  int best[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int x = xyz[3 * i], y = xyz[3 * i + 1], z = xyz[3 * i + 2];
  for (int k = 0; k < 32; ++k)
    best[k] = radius;
  for (int j = 0; j < n; ++j) {
    int tx = xyz[3 * j], ty = xyz[3 * j + 1], tz = xyz[3 * j + 2];
    int d = (x - tx) * (x - tx) + (y - ty) * (y - ty) + (z - tz) * (z - tz);
    int _x = (tx > x);
    int _y = (ty > y);
    int _z = (tz > z);
    int o = _x * 16 + _y * 8 + _z * 4;
    if (d < best[o])
      best[o] = d;
  }
  for (int k = 0; k < 32; ++k)
    out[32 * i + k] = best[k];
}

// A run-time subscript that is the same value in every access: each load
// reads what the store before it wrote, nvcc forwards it, and the array does
// not even reach the PTX's `.local`.
__global__ void sameSubscript(const double *in, const double *w, double *out) {
  int b = blockIdx.x & 3;
  double f[2][4][2];
  for (int i = 0; i < 2; i++) {
    f[0][b][i] = in[(b * 2 + i) * 2];
    f[1][b][i] = in[(b * 2 + i) * 2 + 1];
  }
  double s = 0.0;
  for (int k = 0; k < 2; k++)
    s += f[0][b][k] * w[k] + f[1][b][k] * w[k + 2];
  out[b * blockDim.x + threadIdx.x] = s;
}

// Constant indices, and small loops with constant trip counts that nvcc
// fully unrolls on its own (no pragma needed), nested too.
__global__ void unrolledByNvcc(const float *in, float *out, int n) {
  float acc[8];
  for (int k = 0; k < 8; ++k)
    acc[k] = in[k * n + threadIdx.x];
  float t[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      t[i][j] = acc[i] * acc[j];
  float s = acc[0] + acc[7] + t[1][2];
  for (int j = 0; j < n; ++j)
    for (int k = 0; k < 8; ++k)
      s += acc[k] * in[j];
  out[threadIdx.x] = s;
}

// Fully unrolled by pragma, with a count no smaller than the trip count.
__global__ void unrolledByPragma(const float *in, float *out, int n) {
  float acc[64];
#pragma unroll
  for (int k = 0; k < 64; ++k)
    acc[k] = powf(in[k * n + threadIdx.x], 1.7f);
  float s = 0.0f;
#pragma unroll 64
  for (int k = 0; k < 64; ++k)
    s += acc[k];
  out[threadIdx.x] = s;
}

// The address escapes to an inlined helper that indexes with constants;
// a device function's parameter may be a constant where it is inlined.
__device__ float sum4(const float *v) { return v[0] + v[1] + v[2] + v[3]; }
__device__ float pick(int which) {
  float w[4] = {0.1f, 0.2f, 0.3f, 0.4f};
  return w[which];
}
__global__ void helpers(const float *in, float *out) {
  float v[4] = {in[0], in[1], in[2], in[3]};
  out[threadIdx.x] = sum4(v) + pick(2);
}

// A select between two constant indices is two loads, not a run-time
// index; a counter with several definitions is not followed.
__global__ void selects(const float *in, float *out, int n) {
  float v[2] = {in[0], in[1]};
  out[threadIdx.x] = v[threadIdx.x < 16 ? 0 : 1];
  int k = 0;
  while (k < 2) {
    v[k] = in[k + 2];
    ++k;
  }
  out[threadIdx.x] += v[1];
}

// Templates: the trip count is a template parameter, judged per
// instantiation (both are small enough for nvcc to unroll).
template <int N> __global__ void tmpl(const float *in, float *out) {
  float acc[N];
  for (int k = 0; k < N; ++k)
    acc[k] = in[k];
  float s = 0.0f;
  for (int k = 0; k < N; ++k)
    s += acc[k];
  out[threadIdx.x] = s;
}
template __global__ void tmpl<4>(const float *, float *);
template __global__ void tmpl<16>(const float *, float *);

// Macros: an access spelled in a macro's body is not reported.
#define PICK(a, i) a[i]
__global__ void macros(const int *idx, float *out) {
  float v[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  out[threadIdx.x] = PICK(v, idx[threadIdx.x] & 3);
}

// __shared__ arrays, pointers, single elements, host code.
__global__ void notPerThread(const int *idx, float *out) {
  __shared__ float tile[32];
  float one[1] = {2.0f};
  tile[threadIdx.x] = one[idx[0] & 0];
  const float *p = out;
  out[threadIdx.x] = tile[idx[threadIdx.x] & 31] + p[idx[0]];
}
float host(const int *idx) {
  float h[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  return h[idx[0] & 3];
}

// An array larger than the 255 registers a thread can have (here 256 words)
// is in local memory whatever its indices: the message says so and names what
// helps, not the run-time index.
__global__ void tooLargeForRegisters(const int *__restrict__ cut,
                                     const int *__restrict__ sizes,
                                     const int *__restrict__ pick,
                                     int *__restrict__ out, int n) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= n)
    return;
  int mapId[256];
  int m = sizes[idx];
  for (int i = 0; i < m; i++)
    mapId[i] = cut[idx * 256 + i];
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: per-thread array 'mapId' (256 words) is larger than the 255 registers a thread can have, so it is placed in local memory, as slow as global memory, whatever its indices; shared memory or a smaller array would keep it on chip [cuda-local-memory-array]
  // CHECK-NOTES: :[[@LINE-4]]:11: note: the index depends on this value
  // CHECK-NOTES: :[[@LINE-6]]:7: note: 'mapId' is declared here
  out[idx] = mapId[pick[idx] & 255];
}

// A pragma that keeps a loop over a too-large array rolled: '#pragma unroll'
// would not bring it to registers, so no finding.
__global__ void tooLargeRolledByPragma(const float *in, float *out) {
  float acc[512];
#pragma unroll 1
  for (int k = 0; k < 512; ++k)
    acc[k] = in[k];
  float s = 0.0f;
#pragma unroll 1
  for (int k = 0; k < 512; ++k)
    s += acc[k] * acc[511 - k];
  out[threadIdx.x] = s;
}
