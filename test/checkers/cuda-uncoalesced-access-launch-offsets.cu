// RUN: %check_cuda_lint %s cuda-uncoalesced-access %t

// Offsets scaled by a parameter that every launch passes the same constant
// for: `r[0 * s]`, `r[1 * s]`, `r[2 * s]` with `s == 1` at every launch read
// offsets 0, 1 and 2 of the thread's 3-float record, the whole record, as
// `r[0]`, `r[1]`, `r[2]` do. Not reported.
__global__ void cross3(int n, float *out, const float *x, int s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const float *r = x + 3 * i;
  float a = r[0 * s];
  float b = r[1 * s];
  float c = r[2 * s];
  out[i] = a * a + b * b + c * c;
}

void runCross3(int n, float *out, const float *x) {
  cross3<<<(n + 255) / 256, 256>>>(n, out, x, 1);
  cross3<<<(n + 127) / 128, 128>>>(n, out, x, 1);
}

// The launches pass different values: offsets 0, s and 2s are not known to
// cover the record. Reported.
__global__ void cross3Mixed(int n, float *out, const float *x, int s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const float *r = x + 3 * i;
  float a = r[0 * s];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: uncoalesced load from global memory: consecutive threads access elements 3 apart, so a warp request touches 12 32-byte sectors instead of 4 [cuda-uncoalesced-access]
  float b = r[1 * s];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: uncoalesced load from global memory: consecutive threads access elements 3 apart, so a warp request touches 12 32-byte sectors instead of 4 [cuda-uncoalesced-access]
  float c = r[2 * s];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: uncoalesced load from global memory: consecutive threads access elements 3 apart, so a warp request touches 12 32-byte sectors instead of 4 [cuda-uncoalesced-access]
  out[i] = a + b + c;
}

void runCross3Mixed(int n, float *out, const float *x) {
  cross3Mixed<<<(n + 255) / 256, 256>>>(n, out, x, 1);
  cross3Mixed<<<(n + 255) / 256, 256>>>(n, out, x, 3);
}

// Every launch passes 2: offsets 0 and 2 of a 3-float record, the middle
// element skipped; the reads cover 2 of 3 elements, below the mostly read
// bar. Reported.
__global__ void skipMiddle(int n, float *out, const float *x, int s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const float *r = x + 3 * i;
  float a = r[0 * s];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: uncoalesced load from global memory: consecutive threads access elements 3 apart, so a warp request touches 12 32-byte sectors instead of 4 [cuda-uncoalesced-access]
  // CHECK-NOTES: :[[@LINE-2]]:13: note: the kernel has 1 more load from 'x' with this lane stride and an index a constant away from this one (lines 52 to 55): one layout, one finding
  float c = r[1 * s];
  out[i] = a + c;
}

void runSkipMiddle(int n, float *out, const float *x) {
  skipMiddle<<<(n + 255) / 256, 256>>>(n, out, x, 2);
}

// The launching function is a function template: its instantiations'
// launches pass its `const` parameter, which every call passes 2 for, so
// the stride is 2 and both elements of each record are read. Not reported.
__global__ void pairSum(const float *__restrict__ zi, float *out, int w) {
  int tx = threadIdx.x;
  out[tx] = zi[tx * w] + zi[tx * w + 1];
}

template <typename T> void launchPairSum(const float *zi, float *o, const int w) {
  pairSum<<<1, 64>>>(zi, o, w);
}

void runPairSum(const float *zi, float *o) {
  const int w = 2;
  launchPairSum<float>(zi, o, w);
  launchPairSum<double>(zi, o, w);
}

// The same through a template whose calls pass 2 and 4: reported.
__global__ void pairSumMixed(const float *__restrict__ zi, float *out, int w) {
  int tx = threadIdx.x;
  out[tx] = zi[tx * w] + zi[tx * w + 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: uncoalesced load from global memory: consecutive threads access elements 'w' apart, so a warp request touches 8 to 32 32-byte sectors instead of 4 [cuda-uncoalesced-access]
  // CHECK-NOTES: :[[@LINE-2]]:13: note: the kernel has 1 more load from 'zi' with this lane stride and an index a constant away from this one (line 84): one layout, one finding
}

template <typename T>
void launchPairSumMixed(const float *zi, float *o, const int w) {
  pairSumMixed<<<1, 64>>>(zi, o, w);
}

void runPairSumMixed(const float *zi, float *o) {
  launchPairSumMixed<float>(zi, o, 2);
  launchPairSumMixed<double>(zi, o, 4);
}

// A launch in a member function counts as any other: it passes 4 where the
// free function passes 2, so the stride is not known. Reported.
__global__ void pairSumMember(const float *__restrict__ zi, float *out, int w) {
  int tx = threadIdx.x;
  out[tx] = zi[tx * w] + zi[tx * w + 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: uncoalesced load from global memory: consecutive threads access elements 'w' apart, so a warp request touches 8 to 32 32-byte sectors instead of 4 [cuda-uncoalesced-access]
  // CHECK-NOTES: :[[@LINE-2]]:13: note: the kernel has 1 more load from 'zi' with this lane stride and an index a constant away from this one (line 103): one layout, one finding
}

struct PairRunner {
  void go(const float *zi, float *o) { pairSumMember<<<1, 64>>>(zi, o, 4); }
};

void runPairSumMember(const float *zi, float *o) {
  pairSumMember<<<1, 64>>>(zi, o, 2);
}
