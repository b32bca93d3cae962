// RUN: %check_cuda_lint %s cuda-warp-synchronous %t

// A kernel's integer parameter that it never writes is one value in every
// thread: a subscript that adds it (`A[base + threadIdx.x]`, `base =
// blockIdx.x * n`) is evaluated as a symbol, so that two accesses that
// hold it alike meet as they would for any value of it, and accesses that
// hold it differently (`A[off + t]` against `A[t]`) never meet.

// Each thread reads its neighbour's element of the block's slice, which
// the neighbour writes with no barrier in between.
__global__ void shiftSlice(float *A, int n) {
  int base = blockIdx.x * n;
  A[base + threadIdx.x] = threadIdx.x;
  float v = A[base + threadIdx.x + 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: threads of different warps communicate through 'A' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: another thread writes the element here
  // CHECK-NOTES: :[[@LINE-3]]:13: note: for example, thread 31 reads the element of 'A' that thread 32 writes, whatever 'n' is (in blocks of 128 threads, as launched here)
  A[base + threadIdx.x] += v;
  // CHECK-FIXES: {{^}}  A[base + threadIdx.x] = threadIdx.x;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  float v = A[base + threadIdx.x + 1];{{$}}
  // CHECK-FIXES: {{^}}  __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  A[base + threadIdx.x] += v;{{$}}
}

// Every thread stores its own value to one element a parameter names.
__global__ void lastWriterWins(int *A, int i) {
  A[i] = threadIdx.x / 64;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: threads write different values to one element of 'A' with no barrier in between; which value remains is undefined [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: for example, thread 0 writes the element of 'A' that thread 32 writes, whatever 'i' is (in blocks of 65 threads, as launched here)
}

struct Slice {
  int offset;
  int width;
};

// A field of a by-value parameter is a symbol too.
__global__ void fieldOffset(float *A, Slice s) {
  A[s.offset + threadIdx.x] = 1.0f;
  float v = A[s.offset + threadIdx.x + 32];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: threads of different warps communicate through 'A' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: another thread writes the element here
  // CHECK-NOTES: :[[@LINE-3]]:13: note: for example, thread 0 reads the element of 'A' that thread 32 writes, whatever 's.offset' is (in blocks of 64 threads, as launched here)
  A[s.offset + threadIdx.x] = v;
  // CHECK-FIXES: {{^}}  A[s.offset + threadIdx.x] = 1.0f;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  float v = A[s.offset + threadIdx.x + 32];{{$}}
  // CHECK-FIXES: {{^}}  __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  A[s.offset + threadIdx.x] = v;{{$}}
}

template <int N> __global__ void templated(int *A, int base) {
  A[base + threadIdx.x] = N;
  int v = A[base + (threadIdx.x ^ 1)];
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: lanes of a warp communicate through 'A' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: another thread writes the element here
  // CHECK-NOTES: :[[@LINE-3]]:11: note: for example, thread 0 reads the element of 'A' that thread 1 writes, whatever 'base' is (in blocks of 64 threads, as launched here)
  // CHECK-NOTES: :[[@LINE-4]]:11: note: this relies on the lanes of a warp running in lock-step and on a warp size of 32; neither is guaranteed since Volta
  A[base + threadIdx.x] = v;
  // CHECK-FIXES: {{^}}  A[base + threadIdx.x] = N;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncwarp();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  int v = A[base + (threadIdx.x ^ 1)];{{$}}
  // CHECK-FIXES: {{^}}  __syncwarp();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  A[base + threadIdx.x] = v;{{$}}
}

// Negatives.

// The barrier is there.
__global__ void withBarrier(float *A, int n) {
  int base = blockIdx.x * n;
  A[base + threadIdx.x] = threadIdx.x;
  __syncthreads();
  float v = A[base + threadIdx.x + 1];
  __syncthreads();
  A[base + threadIdx.x] += v;
}

// Different offsets: whether they meet depends on the value of 'off'.
__global__ void differentOffsets(float *A, int off) {
  float v = A[off + threadIdx.x];
  A[threadIdx.x] = v;
}

// A stride the parameter gives: for any stride above 1 the threads'
// elements are apart.
__global__ void paramStride(float *A, int stride) {
  A[threadIdx.x * stride] = 1.0f;
  float v = A[threadIdx.x * stride + 1];
  A[threadIdx.x * stride] = v;
}

// Divided by the parameter: no symbol survives a division.
__global__ void paramDivision(float *A, int n) {
  A[threadIdx.x / n] = threadIdx.x;
}

// A parameter the kernel changes is no symbol.
__global__ void writtenParam(float *A, int n) {
  n += threadIdx.x & 1;
  A[n + threadIdx.x] = 1.0f;
  float v = A[n + threadIdx.x + 1];
  A[n + threadIdx.x] = v;
}

// A value a call made the same in every thread (a block reduction through
// a reference) is not known to differ: every thread storing it is benign.
__device__ void blockSum(float &v, float *scratch) {
  scratch[threadIdx.x] = v;
  __syncthreads();
  float s = 0.0f;
  for (int i = 0; i < blockDim.x; ++i)
    s += scratch[i];
  __syncthreads();
  v = s;
}

__global__ void reducedStore(const float *in, float *out, int n) {
  __shared__ float scratch[256];
  float v = in[blockIdx.x * 256 + threadIdx.x];
  blockSum(v, scratch);
  out[blockIdx.x * n] = v;
}

// A transposed store through a tile of 16 with a symbolic row length, not
// launched here: the block stride bounds the model block to 16x16, so that
// the blocks' elements stay apart.
__global__ void naiveTranspose(float *odata, const float *idata, int width,
                               int height) {
  int x = blockIdx.x * 16 + threadIdx.x;
  int y = blockIdx.y * 16 + threadIdx.y;
  odata[x * height + y] = idata[y * width + x];
}

// The same through a loop over the tile's rows (one pass here): the loop
// variable takes its first value while the block stride is measured.
__global__ void rowsTranspose(float *odata, const float *idata, int width,
                              int height) {
  int x = blockIdx.x * 16 + threadIdx.x;
  int y = blockIdx.y * 16 + threadIdx.y;
  for (int r = 0; r < 16; r += 16)
    odata[y + r + height * x] = idata[x + width * (y + r)];
}

// Launched with one block: no block meets another; the next row, written
// by another thread of the block, is still a race within it.
__global__ void oneBlock(float *d, int np) {
  int i = blockIdx.x * 16 + threadIdx.x;
  int j = blockIdx.y * 16 + threadIdx.y;
  d[j * np + i] = 1.0f;
  __syncthreads();
  float v = d[(j + 1) * np + i];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: threads of different warps communicate through 'd' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE+5]]:3: note: another thread writes the element here
  // CHECK-NOTES: :[[@LINE-3]]:13: note: for example, thread (0, 1) reads the element of 'd' that thread (0, 2) writes, whatever 'np' is (in blocks of 16x16 threads, as launched here)
  // CHECK-FIXES: {{^}}  float v = d[(j + 1) * np + i];{{$}}
  // CHECK-FIXES: {{^}}  __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  d[j * np + i] = v;{{$}}
  d[j * np + i] = v;
}

// Host code that indexes with a parameter is not device code.
void host(float *A, int n) {
  for (int i = 0; i < 4; ++i)
    A[n + i] = A[n + i + 1];
}

int main() {
  float *A;
  int *I;
  shiftSlice<<<8, 128>>>(A, 128);
  lastWriterWins<<<1, 65>>>(I, 3);
  fieldOffset<<<1, 64>>>(A, Slice{0, 64});
  templated<7><<<1, 64>>>(I, 0);
  withBarrier<<<8, 128>>>(A, 128);
  differentOffsets<<<1, 128>>>(A, 1024);
  paramStride<<<1, 128>>>(A, 2);
  paramDivision<<<1, 128>>>(A, 64);
  writtenParam<<<1, 64>>>(A, 0);
  reducedStore<<<8, 256>>>(A, A, 1);
  oneBlock<<<1, dim3(16, 16)>>>(A, 16);
  host(A, 0);
}
