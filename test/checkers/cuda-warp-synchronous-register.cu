// RUN: %check_cuda_lint %s cuda-warp-synchronous %t

// The CUDA samples reduce4-6 form with a register accumulator,
// `smem[tid] = mySum = mySum + smem[tid + k]`: the register already holds the
// thread's element, the shuffles run on it. One warning and one fix for all
// instantiations of the template.
template <unsigned int blockSize, typename T>
__global__ void reduce5(const T *g_idata, T *g_odata, unsigned int n) {
  __shared__ T sdata[blockSize];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockSize * 2) + threadIdx.x;
  T mySum = (i < n) ? g_idata[i] : 0;
  if (i + blockSize < n) mySum += g_idata[i + blockSize];
  sdata[tid] = mySum;
  __syncthreads();
  if (blockSize >= 512) { if (tid < 256) { sdata[tid] = mySum = mySum + sdata[tid + 256]; } __syncthreads(); }
  if (blockSize >= 256) { if (tid < 128) { sdata[tid] = mySum = mySum + sdata[tid + 128]; } __syncthreads(); }
  if (blockSize >= 128) { if (tid <  64) { sdata[tid] = mySum = mySum + sdata[tid +  64]; } __syncthreads(); }
  if (tid < 32) {
    volatile T *smem = sdata;
    if (blockSize >=  64) { smem[tid] = mySum = mySum + smem[tid + 32]; }
    if (blockSize >=  32) { smem[tid] = mySum = mySum + smem[tid + 16]; }
    if (blockSize >=  16) { smem[tid] = mySum = mySum + smem[tid +  8]; }
    if (blockSize >=   8) { smem[tid] = mySum = mySum + smem[tid +  4]; }
    if (blockSize >=   4) { smem[tid] = mySum = mySum + smem[tid +  2]; }
    if (blockSize >=   2) { smem[tid] = mySum = mySum + smem[tid +  1]; }
  }
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
// CHECK-MESSAGES: :[[@LINE-8]]:57: warning: lanes of a warp communicate through 'smem' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
// CHECK-FIXES: {{^}}__global__ void reduce5(const T *g_idata, T *g_odata, unsigned int n) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}  __shared__ T sdata[blockSize];{{$}}
// CHECK-FIXES-NEXT: {{^}}  unsigned int tid = threadIdx.x;{{$}}
// CHECK-FIXES-NEXT: {{^}}  unsigned int i = blockIdx.x * (blockSize * 2) + threadIdx.x;{{$}}
// CHECK-FIXES-NEXT: {{^}}  T mySum = (i < n) ? g_idata[i] : 0;{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (i + blockSize < n) mySum += g_idata[i + blockSize];{{$}}
// CHECK-FIXES-NEXT: {{^}}  sdata[tid] = mySum;{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (blockSize >= 512) { if (tid < 256) { sdata[tid] = mySum = mySum + sdata[tid + 256]; } __syncthreads(); }{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (blockSize >= 256) { if (tid < 128) { sdata[tid] = mySum = mySum + sdata[tid + 128]; } __syncthreads(); }{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (blockSize >= 128) { if (tid <  64) { sdata[tid] = mySum = mySum + sdata[tid +  64]; } __syncthreads(); }{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (tid < 32) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}    volatile T *smem = sdata;{{$}}
// CHECK-FIXES-NEXT: {{^}}    const unsigned mask = blockSize >= 32 ? 0xffffffffu : (1u << (blockSize & 31)) - 1u;{{$}}
// CHECK-FIXES-NEXT: {{^}}    if (blockSize >=  64) { mySum = mySum + smem[tid + 32]; }{{$}}
// CHECK-FIXES-NEXT: {{^}}    if (blockSize >=  32) { mySum = mySum + __shfl_down_sync(mask, mySum, 16); }{{$}}
// CHECK-FIXES-NEXT: {{^}}    if (blockSize >=  16) { mySum = mySum + __shfl_down_sync(mask, mySum, 8); }{{$}}
// CHECK-FIXES-NEXT: {{^}}    if (blockSize >=   8) { mySum = mySum + __shfl_down_sync(mask, mySum, 4); }{{$}}
// CHECK-FIXES-NEXT: {{^}}    if (blockSize >=   4) { mySum = mySum + __shfl_down_sync(mask, mySum, 2); }{{$}}
// CHECK-FIXES-NEXT: {{^}}    if (blockSize >=   2) { mySum = mySum + __shfl_down_sync(mask, mySum, 1); }{{$}}
// CHECK-FIXES-NEXT: {{^}}    smem[tid] = mySum;{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (tid == 0) g_odata[blockIdx.x] = sdata[0];{{$}}
// CHECK-FIXES-NEXT: {{^}}}{{$}}
template __global__ void reduce5<256, float>(const float *, float *, unsigned);
template __global__ void reduce5<32, double>(const double *, double *, unsigned);
template __global__ void reduce5<8, int>(const int *, int *, unsigned);

// The register is changed after its last store: it does not hold the
// element, no shuffle rewrite.
__global__ void regChanged(const float *in, float *out) {
  __shared__ float sdata[64];
  unsigned tid = threadIdx.x;
  float mySum = in[tid];
  sdata[tid] = mySum;
  mySum *= 2.0f;
  __syncthreads();
  if (tid < 32) {
    volatile float *smem = sdata;
    smem[tid] = mySum = mySum + smem[tid + 32];
    smem[tid] = mySum = mySum + smem[tid + 16];
    smem[tid] = mySum = mySum + smem[tid + 8];
    smem[tid] = mySum = mySum + smem[tid + 4];
    smem[tid] = mySum = mySum + smem[tid + 2];
    smem[tid] = mySum = mySum + smem[tid + 1];
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}
// CHECK-MESSAGES: :[[@LINE-8]]:33: warning: lanes of a warp communicate through 'smem' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
// CHECK-FIXES: {{^}}__global__ void regChanged(const float *in, float *out) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}  __shared__ float sdata[64];{{$}}
// CHECK-FIXES-NEXT: {{^}}  unsigned tid = threadIdx.x;{{$}}
// CHECK-FIXES-NEXT: {{^}}  float mySum = in[tid];{{$}}
// CHECK-FIXES-NEXT: {{^}}  sdata[tid] = mySum;{{$}}
// CHECK-FIXES-NEXT: {{^}}  mySum *= 2.0f;{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (tid < 32) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}    volatile float *smem = sdata;{{$}}
// CHECK-FIXES-NEXT: {{^}}    smem[tid] = mySum = mySum + smem[tid + 32];{{$}}
// CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}    auto peer1 = smem[tid + 16];{{$}}
// CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}    smem[tid] = mySum = mySum + peer1;{{$}}
// CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}    auto peer2 = smem[tid + 8];{{$}}
// CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}    smem[tid] = mySum = mySum + peer2;{{$}}
// CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}    auto peer3 = smem[tid + 4];{{$}}
// CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}    smem[tid] = mySum = mySum + peer3;{{$}}
// CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}    auto peer4 = smem[tid + 2];{{$}}
// CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}    smem[tid] = mySum = mySum + peer4;{{$}}
// CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}    auto peer5 = smem[tid + 1];{{$}}
// CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}    smem[tid] = mySum = mySum + peer5;{{$}}
// CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (tid == 0) out[blockIdx.x] = sdata[0];{{$}}
// CHECK-FIXES-NEXT: {{^}}}{{$}}

// Every lane reads the register after the steps: lanes 1..31 would hold
// other partial values, no shuffle rewrite.
__global__ void regReadAfter(const int *in, int *out) {
  __shared__ int sdata[64];
  unsigned tid = threadIdx.x;
  int mySum = in[tid];
  sdata[tid] = mySum;
  __syncthreads();
  if (tid < 32) {
    volatile int *smem = sdata;
    smem[tid] = mySum = mySum + smem[tid + 32];
    smem[tid] = mySum = mySum + smem[tid + 16];
    smem[tid] = mySum = mySum + smem[tid + 8];
    smem[tid] = mySum = mySum + smem[tid + 4];
    smem[tid] = mySum = mySum + smem[tid + 2];
    smem[tid] = mySum = mySum + smem[tid + 1];
  }
  out[tid] = mySum;
}
// CHECK-MESSAGES: :[[@LINE-8]]:33: warning: lanes of a warp communicate through 'smem' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
// CHECK-FIXES: {{^}}__global__ void regReadAfter(const int *in, int *out) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}  __shared__ int sdata[64];{{$}}
// CHECK-FIXES-NEXT: {{^}}  unsigned tid = threadIdx.x;{{$}}
// CHECK-FIXES-NEXT: {{^}}  int mySum = in[tid];{{$}}
// CHECK-FIXES-NEXT: {{^}}  sdata[tid] = mySum;{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (tid < 32) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}    volatile int *smem = sdata;{{$}}
// CHECK-FIXES-NEXT: {{^}}    smem[tid] = mySum = mySum + smem[tid + 32];{{$}}
// CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}    auto peer1 = smem[tid + 16];{{$}}
// CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}    smem[tid] = mySum = mySum + peer1;{{$}}
// CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}    auto peer2 = smem[tid + 8];{{$}}
// CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}    smem[tid] = mySum = mySum + peer2;{{$}}
// CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}    auto peer3 = smem[tid + 4];{{$}}
// CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}    smem[tid] = mySum = mySum + peer3;{{$}}
// CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}    auto peer4 = smem[tid + 2];{{$}}
// CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}    smem[tid] = mySum = mySum + peer4;{{$}}
// CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}    auto peer5 = smem[tid + 1];{{$}}
// CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}    smem[tid] = mySum = mySum + peer5;{{$}}
// CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}  out[tid] = mySum;{{$}}
// CHECK-FIXES-NEXT: {{^}}}{{$}}

// Lane 0 reads the register: the CUDA samples' reduce6 ending.
__global__ void regLane0(const unsigned *in, unsigned *out) {
  __shared__ unsigned sdata[64];
  unsigned tid = threadIdx.x;
  unsigned mySum = in[tid];
  sdata[tid] = mySum;
  __syncthreads();
  if (tid < 32) {
    volatile unsigned *smem = sdata;
    smem[tid] = mySum = mySum + smem[tid + 32];
    smem[tid] = mySum = mySum + smem[tid + 16];
    smem[tid] = mySum = mySum + smem[tid + 8];
    smem[tid] = mySum = mySum + smem[tid + 4];
    smem[tid] = mySum = mySum + smem[tid + 2];
    smem[tid] = mySum = mySum + smem[tid + 1];
  }
  if (tid == 0) out[blockIdx.x] = mySum;
}
// CHECK-MESSAGES: :[[@LINE-8]]:33: warning: lanes of a warp communicate through 'smem' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
// CHECK-FIXES: {{^}}__global__ void regLane0(const unsigned *in, unsigned *out) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}  __shared__ unsigned sdata[64];{{$}}
// CHECK-FIXES-NEXT: {{^}}  unsigned tid = threadIdx.x;{{$}}
// CHECK-FIXES-NEXT: {{^}}  unsigned mySum = in[tid];{{$}}
// CHECK-FIXES-NEXT: {{^}}  sdata[tid] = mySum;{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (tid < 32) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}    volatile unsigned *smem = sdata;{{$}}
// CHECK-FIXES-NEXT: {{^}}    mySum = mySum + smem[tid + 32];{{$}}
// CHECK-FIXES-NEXT: {{^}}    mySum = mySum + __shfl_down_sync(0xffffffff, mySum, 16);{{$}}
// CHECK-FIXES-NEXT: {{^}}    mySum = mySum + __shfl_down_sync(0xffffffff, mySum, 8);{{$}}
// CHECK-FIXES-NEXT: {{^}}    mySum = mySum + __shfl_down_sync(0xffffffff, mySum, 4);{{$}}
// CHECK-FIXES-NEXT: {{^}}    mySum = mySum + __shfl_down_sync(0xffffffff, mySum, 2);{{$}}
// CHECK-FIXES-NEXT: {{^}}    mySum = mySum + __shfl_down_sync(0xffffffff, mySum, 1);{{$}}
// CHECK-FIXES-NEXT: {{^}}    smem[tid] = mySum;{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (tid == 0) out[blockIdx.x] = mySum;{{$}}
// CHECK-FIXES-NEXT: {{^}}}{{$}}
