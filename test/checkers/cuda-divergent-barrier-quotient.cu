// RUN: %check_cuda_lint %s cuda-divergent-barrier %t

#define BLOCK_SIZE 128
#define THREADS_PER_WORD 128

// Every launch has blocks of BLOCK_SIZE threads and THREADS_PER_WORD is the
// same: the block's threads make BLOCK_SIZE consecutive global indices from
// a multiple of BLOCK_SIZE, so all of them have the same quotient, and the
// loop bound read through it is the same in every thread of the block.
__global__ void perSentence(const int *sen, float *out, int n) {
  __shared__ float s[BLOCK_SIZE];
  int sentence_position =
      (blockIdx.x * blockDim.x + threadIdx.x) / THREADS_PER_WORD;
  int len = sen[sentence_position];
  for (int c = 0; c < len; c++) {
    s[threadIdx.x] = out[c * BLOCK_SIZE + threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0)
      out[c] = s[BLOCK_SIZE - 1];
    __syncthreads();
  }
  if (sentence_position < n) {
    __syncthreads();
    if (threadIdx.x == 0)
      s[0] = 1.0f;
  }
  out[threadIdx.x] = s[threadIdx.x];
}

// Shifted by log2 of a multiple of the block size, through a variable.
template <int Shift> __global__ void shifted(float *out, int n) {
  int gid = blockDim.x * blockIdx.x + threadIdx.x;
  if ((gid >> Shift) < n) {
    out[gid] = 1.0f;
    __syncthreads();
  }
  out[gid] += 1.0f;
}

// Divided by less than the block size: threads of one block differ.
__global__ void halfBlock(float *out, int n) {
  int q = (blockIdx.x * blockDim.x + threadIdx.x) / 64;
  if (q < n) {
    out[q] = 1.0f;
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads' is reached by only some threads of the block; a barrier that not every thread reaches is undefined behaviour and can hang [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: the barrier is under this condition, which depends on the thread index
  }
  out[q + n] = 0.0f;
}

// One launch with another block size: nothing is known of blockDim.x.
__global__ void twoSizes(float *out, int n) {
  int q = (blockIdx.x * blockDim.x + threadIdx.x) / 128;
  if (q < n) {
    out[q] = 1.0f;
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads' is reached by only some threads of the block; a barrier that not every thread reaches is undefined behaviour and can hang [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: the barrier is under this condition, which depends on the thread index
  }
  out[q + n] = 0.0f;
}

// `threadIdx.x - 7` is thread 7's index shifted: `i == 0` holds in thread 7
// only.
__global__ void shiftedIndex(float *out) {
  int i = threadIdx.x - 7;
  if (i == 0) {
    out[0] = 1.0f;
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads' is reached by only some threads of the block; a barrier that not every thread reaches is undefined behaviour and can hang [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: the barrier is under this condition, which depends on the thread index
  }
  out[threadIdx.x] = 2.0f;
}

__global__ void shiftedIndexLater(float *out) {
  int i = threadIdx.x;
  i -= 7;
  if (!i) {
    out[0] = 1.0f;
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads' is reached by only some threads of the block; a barrier that not every thread reaches is undefined behaviour and can hang [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: the barrier is under this condition, which depends on the thread index
  }
  out[threadIdx.x] = 2.0f;
}

void host(const int *sen, float *out, int n) {
  perSentence<<<n, BLOCK_SIZE>>>(sen, out, n);
  shifted<8><<<n, 256>>>(out, n);
  halfBlock<<<n, BLOCK_SIZE>>>(out, n);
  twoSizes<<<n, 128>>>(out, n);
  twoSizes<<<n, 256>>>(out, n);
  shiftedIndex<<<1, 256>>>(out);
  shiftedIndexLater<<<1, 256>>>(out);
}
