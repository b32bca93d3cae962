// RUN: %check_cuda_lint %s cuda-uncoalesced-access %t

// The lanes of a warp: a block narrower than 32 threads puts several rows of
// threadIdx.x in one warp (known from the launches in the translation unit),
// and thread-index guards keep some lanes out of an access.

// Blocks of 16 threads: a warp holds 16 threads, 16 sectors against 2.
__global__ void hashRounds(unsigned *w, int n) {
  for (int t = blockIdx.x * blockDim.x + threadIdx.x; t < n;
       t += gridDim.x * blockDim.x)
    w[64 * t + 13] = t;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: uncoalesced store to global memory: consecutive threads access elements 64 apart, so a warp request touches 16 32-byte sectors instead of 2 (blocks of 16 threads) [cuda-uncoalesced-access]
}

// RGBA bytes of a 16x16 block: two rows of 16 pixels per warp, rows a
// run-time width apart: 2 sectors per row against 1.
__global__ void redChannel(unsigned char *px, int width) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  px[4 * (y * width + x)] = 255;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: uncoalesced store to global memory: consecutive threads access elements 4 apart, so a warp request touches 4 32-byte sectors instead of 2 (blocks of 16x16 threads) [cuda-uncoalesced-access]
}

// The same with a constant width: rows 4 KiB apart, still 2 sectors per row
// against 1 (the coalesced layout keeps rows WIDTH elements apart).
#define WIDTH 1024
__global__ void greenChannel(unsigned char *px) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  px[4 * (y * WIDTH + x) + 1] = 255;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: uncoalesced store to global memory: consecutive threads access elements 4 apart, so a warp request touches 4 32-byte sectors instead of 2 (blocks of 16x16 threads) [cuda-uncoalesced-access]
}

// An 8x4 block over an 8-wide tile of float pairs: the rows of a warp are
// contiguous, 256 bytes in 8 sectors against 4.
__global__ void tilePairs(float *out) {
  int i = threadIdx.y * 8 + threadIdx.x;
  out[2 * i] = 0;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: uncoalesced store to global memory: consecutive threads access elements 2 apart, so a warp request touches 8 32-byte sectors instead of 4 (blocks of 8x4 threads) [cuda-uncoalesced-access]
}

// Launched with blocks of several widths: the shape is not known, a warp is
// 32 threads of threadIdx.x as before.
__global__ void pairsAnyWidth(float *out) {
  out[2 * threadIdx.x] = 0;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: uncoalesced store to global memory: consecutive threads access elements 2 apart, so a warp request touches 8 32-byte sectors instead of 4 [cuda-uncoalesced-access]
}

// One thread per block writes the block's pair: no strided warp request.
__global__ void blockPair(float *out, const float *in) {
  int tid = threadIdx.x;
  int gid = blockIdx.x * blockDim.x + tid;
  if (tid == 0) {
    out[2 * gid] = 0;
    out[2 * gid + 1] = in[gid];
  }
}

// Half of each warp (lane = tid & 31, lane < 16) writes: 16 lanes, 4 sectors
// against 2.
__global__ void halfWarp(float *out) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  if (lane < 16)
    out[2 * tid] = 1;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: uncoalesced store to global memory: consecutive threads access elements 2 apart, so a warp request touches 4 32-byte sectors instead of 2 [cuda-uncoalesced-access]
}

// Thread 0 leaves early: the other 31 lanes still make a strided request.
__global__ void skipFirst(float *out) {
  if (threadIdx.x == 0)
    return;
  out[2 * threadIdx.x] = 1;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: uncoalesced store to global memory: consecutive threads access elements 2 apart, so a warp request touches 8 32-byte sectors instead of 4 [cuda-uncoalesced-access]
}

// A data-dependent guard lets every lane in.
__global__ void flagged(float *out, const int *flags) {
  if (flags[threadIdx.x])
    out[2 * threadIdx.x] = 1;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: uncoalesced store to global memory: consecutive threads access elements 2 apart, so a warp request touches 8 32-byte sectors instead of 4 [cuda-uncoalesced-access]
}

void launch(unsigned *w, int n, unsigned char *px, int width, float *out,
            const float *in) {
  hashRounds<<<1024, 16>>>(w, n);
  redChannel<<<dim3(width / 16, 64), dim3(16, 16)>>>(px, width);
  greenChannel<<<dim3(WIDTH / 16, 64), dim3(16, 16)>>>(px);
  tilePairs<<<1, dim3(8, 4)>>>(out);
  pairsAnyWidth<<<1, 16>>>(out);
  pairsAnyWidth<<<1, 64>>>(out);
  blockPair<<<64, 256>>>(out, in);
}
