// RUN: %check_cuda_lint %s cuda-uncoalesced-access %t

// Two uses of a variable with several definitions read one value when no
// definition comes between them: `.re` and `.im` of y[a + n * jj] read back
// to back are one 16-byte record read whole, though `jj` is also set from a
// table and stepped elsewhere in the loop.

struct cplx {
  double re, im;
};

// Both members of the record `jj` names, then the next record: no finding.
__global__ void contract(const cplx *__restrict__ y,
                         const int *__restrict__ start, double *out, int n,
                         int m) {
  int a = blockIdx.x * blockDim.x + threadIdx.x;
  double s = 0.0;
  for (int j = 0; j < m; j++) {
    int jj = start[j];
    for (int k = 0; k < j; k++) {
      double r = y[a + n * jj].re;
      double i = y[a + n * jj].im;
      s += r * i;
      jj++;
    }
  }
  out[a] = s;
}

// The same through an index macro, which puts `jj` in parentheses.
#define AT(a, b) ((a) + n * (b))
__global__ void contract_macro(const cplx *__restrict__ y,
                               const int *__restrict__ start, double *out,
                               int n, int m) {
  int a = blockIdx.x * blockDim.x + threadIdx.x;
  double s = 0.0;
  for (int j = 0; j < m; j++) {
    int jj = start[j];
    for (int k = 0; k < j; k++) {
      double r = y[AT(a, jj)].re;
      double i = y[AT(a, jj)].im;
      s += r * i;
      jj++;
    }
  }
  out[a] = s;
}

// `jj` moves between the two reads: `.re` of one record, `.im` of the next,
// each half of its record unused.
__global__ void skewed(const cplx *__restrict__ y,
                       const int *__restrict__ start, double *out, int n,
                       int m) {
  int a = blockIdx.x * blockDim.x + threadIdx.x;
  double s = 0.0;
  for (int j = 0; j < m; j++) {
    int jj = start[j];
    for (int k = 0; k < j; k++) {
      double r = y[a + n * jj].re;
      // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: uncoalesced load from global memory: consecutive threads access member 're' 16 bytes apart, so a warp request touches 16 32-byte sectors instead of 8 [cuda-uncoalesced-access]
      // CHECK-NOTES: :[[@LINE-7]]:7: note: index 'a' is computed here
      // CHECK-NOTES: :[[@LINE-3]]:18: note: 'y' is only read: load it with consecutive threads reading consecutive elements into a __shared__ tile, then read the tile
      jj++;
      double i = y[a + n * jj].im;
      // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: uncoalesced load from global memory: consecutive threads access member 'im' 16 bytes apart, so a warp request touches 16 32-byte sectors instead of 8 [cuda-uncoalesced-access]
      // CHECK-NOTES: :[[@LINE-12]]:7: note: index 'a' is computed here
      // CHECK-NOTES: :[[@LINE-3]]:18: note: 'y' is only read: load it with consecutive threads reading consecutive elements into a __shared__ tile, then read the tile
      s += r * i;
    }
  }
  out[a] = s;
}

// A definition under a branch between the reads: not the same value.
__global__ void branchy(const cplx *__restrict__ y,
                        const int *__restrict__ start, double *out, int n,
                        int m) {
  int a = blockIdx.x * blockDim.x + threadIdx.x;
  double s = 0.0;
  for (int j = 0; j < m; j++) {
    int jj = start[j];
    for (int k = 0; k < j; k++) {
      double r = y[a + n * jj].re;
      // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: uncoalesced load from global memory: consecutive threads access member 're' 16 bytes apart
      // CHECK-NOTES: :[[@LINE-7]]:7: note: index 'a' is computed here
      // CHECK-NOTES: :[[@LINE-3]]:18: note: 'y' is only read
      if (k == m)
        jj = start[k];
      double i = y[a + n * jj].im;
      // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: uncoalesced load from global memory: consecutive threads access member 'im' 16 bytes apart
      // CHECK-NOTES: :[[@LINE-13]]:7: note: index 'a' is computed here
      // CHECK-NOTES: :[[@LINE-3]]:18: note: 'y' is only read
      s += r * i;
      jj++;
    }
  }
  out[a] = s;
}

void run(const cplx *y, const int *st, double *o, int n, int m) {
  contract<<<n / 256, 256>>>(y, st, o, n, m);
  contract_macro<<<n / 256, 256>>>(y, st, o, n, m);
  skewed<<<n / 256, 256>>>(y, st, o, n, m);
  branchy<<<n / 256, 256>>>(y, st, o, n, m);
}
