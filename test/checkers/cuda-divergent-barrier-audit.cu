// RUN: %check_cuda_lint %s cuda-divergent-barrier %t

// Causes of false findings from the HeCBench precision audit (issue 19),
// each with the positive that must stay positive.

// A template kernel launched with 32-wide rows: a warp is one row, as for a
// plain kernel (the launches of its specialisations count for its body).
template <typename T>
__global__ void rowsT(const int *rowPtr, const T *val, T *out, int nrows) {
  __shared__ T sh[8 * 32];
  int row = blockDim.y * blockIdx.x + threadIdx.y;
  if (row < nrows) {
    int lb = rowPtr[row], hb = rowPtr[row + 1];
    T acc = 0;
    for (int j = lb; j < hb; j += 32) {
      if (j + threadIdx.x < hb)
        sh[threadIdx.y * 32 + threadIdx.x] = val[j + threadIdx.x];
      __syncwarp();
      for (int k = 0; k < 32 && j + k < hb; k++)
        acc += sh[threadIdx.y * 32 + k];
      __syncwarp();
    }
    out[row * 32 + threadIdx.x] = acc;
  }
}

// The same template launched with rows of 16 threads too: two rows share a
// warp, whose lanes can see different bounds.
template <typename T>
__global__ void rowsMixed(const int *rowPtr, T *out, int nrows) {
  int row = blockDim.y * blockIdx.x + threadIdx.y;
  if (row < nrows) {
    T acc = 0;
    for (int j = rowPtr[row]; j < rowPtr[row + 1]; j += 32) {
      acc += 1;
      __syncwarp();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: '__syncwarp' is reached by only some threads of the warp; a barrier that not every thread reaches is undefined behaviour and can hang [cuda-divergent-barrier]
      // CHECK-NOTES: :[[@LINE-4]]:31: note: the barrier is under this condition, which depends on the thread index
    }
    out[row * 32 + threadIdx.x] = acc;
  }
}

void runRows(const int *rowPtr, const float *val, float *out, int nrows,
             int rowsPerBlock) {
  dim3 grid((nrows + rowsPerBlock - 1) / rowsPerBlock);
  rowsT<float><<<grid, dim3(32, rowsPerBlock)>>>(rowPtr, val, out, nrows);
  rowsT<double><<<grid, dim3(32, 4)>>>(rowPtr, (const double *)val,
                                       (double *)out, nrows);
  rowsMixed<float><<<grid, dim3(32, rowsPerBlock)>>>(rowPtr, out, nrows);
  rowsMixed<int><<<grid, dim3(16, rowsPerBlock)>>>(rowPtr, (int *)out, nrows);
}

// A barrier in the arm of a constant condition that is never taken: no
// thread runs it.
__global__ void deadArm(float *out, const float *in) {
  constexpr int Tile = 32;
  __shared__ float s[Tile];
  if (threadIdx.x / 32 == 0) {
    s[threadIdx.x] = in[threadIdx.x];
    (Tile > 32) ? __syncthreads() : __syncwarp();
    out[threadIdx.x] = s[Tile - 1 - threadIdx.x];
    if (Tile <= 32)
      __syncwarp();
    else
      __syncthreads();
    // The arm a constant condition takes is run by the threads that get
    // there: still reported.
    (Tile <= 32) ? __syncthreads() : __syncwarp();
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: '__syncthreads' is reached by only some threads of the block; {{.*}}
    // CHECK-NOTES: :[[@LINE-12]]:7: note: the barrier is under this condition, which depends on the thread index
  }
  __syncthreads();
}

// A global warp index: `threadIdx.x` plus a multiple of 32, divided by 32,
// is the same in all lanes of a warp; so is the comparison of such an index
// with a multiple of 32.
static const int TPB = 256;
__global__ void warpPerItem(int n, int *q) {
  const int from = (threadIdx.x + blockIdx.x * TPB) / 32;
  const int incr = (gridDim.x * TPB) / 32;
  for (int i = from; i < n; i += incr) {
    if (threadIdx.x % 32 == 0)
      q[i] += 1;
    __syncwarp();
  }
  // Not a multiple of 32: warps straddle the items.
  for (int i = (threadIdx.x + blockIdx.x * 48) / 16; i < n; i += 4) {
    q[i] += 1;
    __syncwarp();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncwarp' is reached by only some threads of the warp; {{.*}}
    // CHECK-NOTES: :[[@LINE-4]]:54: note: the barrier is under this condition, which depends on the thread index
  }
  __syncthreads();
}

#define NB(n, b) (((n) + (b)-1) / (b))
__global__ void paddedWarps(int n, int *out) {
  int nThreads = NB(n, 32) * 32;
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < nThreads) {
    if (idx < n)
      out[idx] = idx;
    __syncwarp();
  }
  __syncthreads();
  // A bound that is not padded to whole warps.
  if (idx < n) {
    out[idx] += 1;
    __syncwarp();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncwarp' is reached by only some threads of the warp; {{.*}}
    // CHECK-NOTES: :[[@LINE-4]]:7: note: the barrier is under this condition, which depends on the thread index
  }
  __syncthreads();
}

void runWarps(int n, int *q) {
  warpPerItem<<<80, TPB>>>(n, q);
  paddedWarps<<<NB(n, 128), 128>>>(n, q);
}

// A loop bound rounded up to a multiple of the stride: a thread starting at
// 0 <= t < stride runs bound / stride iterations, like every other.
#define NT 256
__global__ void paddedTiles(const float *in, float *out, int n) {
  __shared__ float t[NT];
  const int padded = ((n + NT - 1) / NT) * NT;
  for (int j = threadIdx.x; j < padded; j += NT) {
    t[threadIdx.x] = j < n ? in[j] : 0.f;
    __syncthreads();
    if (j < n)
      out[j] = t[NT - 1 - threadIdx.x];
    __syncthreads();
  }
  // The stride a constant product, through a local.
  const int tile = 8 * 32;
  const int paddedTiles = ((n + tile - 1) / tile) * tile;
  for (int j = threadIdx.x; j < paddedTiles; j += tile) {
    t[threadIdx.x] = j < n ? in[j] : 0.f;
    __syncthreads();
  }
  // Not rounded: the last tile is partial unless n is a multiple of NT.
  for (int j = threadIdx.x; j < n; j += NT) {
    t[threadIdx.x] = in[j];
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads' is reached by every thread of the block only if 'n' is a multiple of the loop's step 256; {{.*}}
    // CHECK-NOTES: :[[@LINE-4]]:29: note: the threads run this loop equally often only when its bound is a multiple of its step
  }
  out[threadIdx.x] = t[0];
}

__global__ void roundedGrid(const float *in, float *out, int n) {
  const int stride = gridDim.x * blockDim.x * 4;
  const int rounded = ((n - 1) / stride + 1) * stride;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < rounded;
       i += stride) {
    if (i < n)
      out[i] = in[i];
    __syncthreads();
  }
  // The stride does not cover the grid: a thread may start past it.
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < rounded;
       i += blockDim.x * 4) {
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads' is reached by only some threads of the block; {{.*}}
    // CHECK-NOTES: :[[@LINE-4]]:55: note: the barrier is under this condition, which depends on the thread index
  }
  out[0] = 0.0f;
}

void runTiles(const float *in, float *out, int n) {
  paddedTiles<<<1, NT>>>(in, out, n);
  roundedGrid<<<64, 256>>>(in, out, n);
}

// A template kernel whose counter and bound have a template-dependent type,
// launched from a class template's member: decided in its instantiations,
// where the bound is rounded up to a multiple of the stride.
#define WPB 16
#define SDIV(x, y) (((x) + (y)-1) / (y))
template <typename T, typename IndexT>
__global__ void paddedRowsT(const T *in, T *out, IndexT width) {
  __shared__ T tile[WPB * 32];
  const IndexT blockSize = WPB * 32;
  const IndexT padded = SDIV(width, blockSize) * blockSize;
  T acc = 0;
  for (IndexT j = threadIdx.x; j < padded; j += blockSize) {
    tile[threadIdx.x] = j < width ? in[j] : 0;
    __syncthreads();
    acc += tile[(threadIdx.x + 1) % blockSize];
    __syncthreads();
  }
  // Not rounded: the last tile is partial unless width is a multiple of the
  // step, in every instantiation.
  for (IndexT j = threadIdx.x; j < width; j += blockSize) {
    tile[threadIdx.x] = in[j];
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads' is reached by every thread of the block only if 'width' is a multiple of the loop's step 512; {{.*}}
    // CHECK-NOTES: :[[@LINE-4]]:32: note: the threads run this loop equally often only when its bound is a multiple of its step
  }
  out[blockIdx.x * blockSize + threadIdx.x] = acc;
}

// The same with the step spelled as a constant product (`WPB * 32`, the
// block size of every launch): the bound is a multiple of it.
template <typename T, typename IndexT>
__global__ void paddedRowsProduct(const T *in, T *out, IndexT width) {
  __shared__ T tile[WPB * 32];
  const IndexT padded = SDIV(width, WPB * 32) * WPB * 32;
  T acc = 0;
  for (IndexT j = threadIdx.x; j < padded; j += WPB * 32) {
    tile[threadIdx.x] = j < width ? in[j] : 0;
    __syncthreads();
    acc += tile[(threadIdx.x + 1) % (WPB * 32)];
    __syncthreads();
  }
  // A step of half the block: the two halves run different trip counts.
  for (IndexT j = threadIdx.x; j < padded; j += WPB * 16) {
    tile[threadIdx.x] = in[j];
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads' is reached by only some threads of the block; {{.*}}
    // CHECK-NOTES: :[[@LINE-4]]:32: note: the barrier is under this condition, which depends on the thread index
  }
  out[blockIdx.x * WPB * 32 + threadIdx.x] = acc;
}

template <typename T> class PaddedRunner {
public:
  using IndexT = unsigned;
  void run(const T *in, T *out, IndexT h, IndexT w) {
    paddedRowsT<<<SDIV(h, WPB), WPB * 32>>>(in, out, w);
    paddedRowsProduct<<<SDIV(h, WPB), WPB * 32>>>(in, out, w);
  }
};
template class PaddedRunner<float>;

// A helper that returns a value every thread reads from shared memory at
// the same address after a barrier (a block-wide argmin) returns the same
// value in every thread, whatever it was given.
__device__ int blockArgmin(float v, int idx) {
  __shared__ float sv[256];
  __shared__ int si[256];
  sv[threadIdx.x] = v;
  si[threadIdx.x] = idx;
  __syncthreads();
  if (threadIdx.x == 0)
    for (int j = 1; j < blockDim.x; j++)
      if (sv[j] < sv[0]) {
        sv[0] = sv[j];
        si[0] = si[j];
      }
  __syncthreads();
  return si[0];
}

// The thread's own candidate: differs between threads.
__device__ int ownCandidate(float v, int idx) { return v > 0.f ? idx : -1; }

// A uniform value for thread 0 only.
__device__ int firstThreadOnly(int idx) {
  __shared__ int s;
  if (threadIdx.x == 0)
    return idx;
  s = idx;
  return s;
}

__global__ void growCluster(const float *d, int *out, int n) {
  int picked = 0;
  bool more = true;
  while (picked < n && more) {
    int best = blockArgmin(d[picked * blockDim.x + threadIdx.x], threadIdx.x);
    if (best >= 0)
      picked++;
    else
      more = false;
    __syncthreads();
  }
  int mine = ownCandidate(d[threadIdx.x], threadIdx.x);
  if (mine >= 0) {
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads' is reached by only some threads of the block; {{.*}}
    // CHECK-NOTES: :[[@LINE-3]]:7: note: the barrier is under this condition, which depends on the thread index
    out[0] = mine;
  }
  if (firstThreadOnly(threadIdx.x) > 0) {
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads' is reached by only some threads of the block; {{.*}}
    // CHECK-NOTES: :[[@LINE-3]]:7: note: the barrier is under this condition, which depends on the thread index
    out[1] = 1;
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = picked;
}

// `threadIdx.x / K` where every launch's x extent is at most K is 0 in
// every thread: one item per block, and what is derived from it is
// block-uniform.
#define TPW 128
__global__ void perWord(const int *sen, float *out, int len) {
  __shared__ float f[TPW];
  int pos = threadIdx.x / TPW + (blockDim.x / TPW) * blockIdx.x;
  int lane = threadIdx.x % TPW;
  if (pos < len) {
    if (sen[pos] > 0) {
      f[lane] = lane;
      __syncthreads();
      out[pos] = f[TPW - 1 - lane];
    }
  }
  __syncthreads();
}

// Blocks of 256 threads hold two items: the halves see different words.
__global__ void twoWords(const int *sen, float *out, int len) {
  __shared__ float f[2 * TPW];
  int pos = threadIdx.x / TPW + (blockDim.x / TPW) * blockIdx.x;
  if (pos < len) {
    if (sen[pos] > 0) {
      f[threadIdx.x] = pos;
      __syncthreads();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: '__syncthreads' is reached by only some threads of the block; {{.*}}
      // CHECK-NOTES: :[[@LINE-4]]:9: note: the barrier is under this condition, which depends on the thread index
      out[pos] = f[2 * TPW - 1 - threadIdx.x];
    }
  }
  __syncthreads();
}

void runWords(const int *sen, float *out, int len) {
  perWord<<<len, TPW>>>(sen, out, len);
  twoWords<<<(len + 1) / 2, 2 * TPW>>>(sen, out, len);
}
