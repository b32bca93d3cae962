// RUN: %check_cuda_lint -no-compile %s cuda-launch-shape %t -- --min-impact=low
// (-no-compile: clang 22 cannot compile a host-side kernel launch against
// the CUDA 13 headers, which dropped cudaConfigureCall; nvcc compiles it.)

__global__ void kernel(float *p) { p[threadIdx.x] = 0.0f; }

#define BLOCK 200
// Templates: judged per instantiation, reported once per launch with the
// instantiation named.
template <int BS> void launchTemplate(float *p) { kernel<<<1, BS>>>(p); }
// CHECK-MESSAGES: :[[@LINE-1]]:63: warning: block of 100 threads is not a multiple of the warp size (32)
// CHECK-NOTES: :[[@LINE-2]]:63: note: 100 threads = 4 warps = 128 lanes: 28 lanes (21.9%) idle in every block
// CHECK-NOTES: :[[@LINE-3]]:63: note: in the instantiation 'launchTemplate<100>' (other instantiations of this launch are not reported again)
template <int BS> void launchGood(float *p) { kernel<<<1, BS>>>(p); }
template <typename T> void launchFixed(T *p) { kernel<<<1, 48>>>(p); }
// CHECK-MESSAGES: :[[@LINE-1]]:60: warning: block of 48 threads is not a multiple of the warp size (32)

void launches(float *p, int n) {
  kernel<<<64, 100>>>(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: block of 100 threads is not a multiple of the warp size (32); the last warp of every block runs with idle lanes [cuda-launch-shape]
  // CHECK-NOTES: :[[@LINE-2]]:16: note: 100 threads = 4 warps = 128 lanes: 28 lanes (21.9%) idle in every block
  dim3 block(10, 10);
  kernel<<<n, block>>>(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: block of 100 threads is not a multiple of the warp size (32)
  // CHECK-NOTES: :[[@LINE-2]]:15: note: 100 threads = 4 warps = 128 lanes: 28 lanes (21.9%) idle in every block
  kernel<<<n, dim3(12, 12, 3)>>>(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: block of 432 threads is not a multiple of the warp size (32)
  // CHECK-NOTES: :[[@LINE-2]]:15: note: 432 threads = 14 warps = 448 lanes: 16 lanes (3.6%) idle in every block
  const int Threads = 48;
  kernel<<<n, Threads>>>(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: block of 48 threads is not a multiple of the warp size (32)
  // CHECK-NOTES: :[[@LINE-2]]:15: note: 48 threads = 2 warps = 64 lanes: 16 lanes (25.0%) idle in every block
  kernel<<<n, BLOCK>>>(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: block of 200 threads is not a multiple of the warp size (32)
  // CHECK-NOTES: :[[@LINE-2]]:15: note: 200 threads = 7 warps = 224 lanes: 24 lanes (10.7%) idle in every block
  kernel<<<n, 32>>>(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: block of 32 threads is below the recommended minimum of 64; with more than 32 blocks per multiprocessor waiting, the limit of 32 resident blocks holds a multiprocessor to at most 32 of its 64 warps [cuda-launch-shape]
  kernel<<<n, dim3(4, 4)>>>(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: block of 16 threads is not a multiple of the warp size (32)
  // CHECK-NOTES: :[[@LINE-2]]:15: note: 16 threads = 1 warp = 32 lanes: 16 lanes (50.0%) idle in every block

  launchTemplate<100>(p);
  launchTemplate<48>(p);
  launchTemplate<128>(p);
  launchFixed(p);

  // A local that nothing changes holds its initial value; a dim3 changed
  // before a launch has the value that reaches it.
  int threads = 100;
  kernel<<<n, threads>>>(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: block of 100 threads is not a multiple of the warp size (32)
  // CHECK-NOTES: :[[@LINE-2]]:15: note: 100 threads = 4 warps = 128 lanes: 28 lanes (21.9%) idle in every block
  dim3 tile(16, 16);
  kernel<<<n, tile>>>(p);
  tile.x = 5;
  kernel<<<n, tile>>>(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: block of 80 threads is not a multiple of the warp size (32)
  // CHECK-NOTES: :[[@LINE-2]]:15: note: 80 threads = 3 warps = 96 lanes: 16 lanes (16.7%) idle in every block
  // Not known: changed on one path only, or in the loop around the launch.
  dim3 maybe(64);
  if (n > 2)
    maybe.x = 48;
  kernel<<<n, maybe>>>(p);
  dim3 looped(64);
  for (int i = 0; i < n; ++i) {
    kernel<<<n, looped>>>(p);
    looped.x = 48;
  }

  // Not findings: multiples of 32 from 64 up, runtime sizes, a dim3 that
  // is changed before the launch, good template arguments.
  kernel<<<n, 256>>>(p);
  kernel<<<n, 96>>>(p);
  kernel<<<n, dim3(16, 16)>>>(p);
  kernel<<<n, dim3(8, 8)>>>(p);
  dim3 square(16, 16);
  kernel<<<n, square>>>(p);
  kernel<<<n, n>>>(p);
  dim3 changed(10);
  changed.x = 128;
  kernel<<<n, changed>>>(p);
  int runtime = n;
  kernel<<<n, runtime>>>(p);
  launchGood<128>(p);
  launchGood<256>(p);
}

// One-thread and one-warp launches: a latch, a marker, a one-object delete,
// a final reduction of a few partial sums. The whole launch is at most one
// warp of threads, which no block shape makes faster; a single block is
// exempt from the 64-thread minimum (the guide's rule needs several
// concurrent blocks per multiprocessor).
struct Node {
  int key;
};
__global__ void releaseLatch(int *latch) { atomicExch(latch, 0); }
__global__ void deleteNode(Node **n) { delete *n; }
__global__ void sumPartials(const float *partial, float *out, int n) {
  float s = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    s += partial[i];
  atomicAdd(out, s);
}
#define ONE_BLOCK 1
#define FEW_THREADS 16
void tinyLaunches(int *latch, Node **n, const float *partial, float *out,
                  int blocks, cudaStream_t stream) {
  releaseLatch<<<1, 1>>>(latch);
  deleteNode<<<dim3(1), dim3(1, 1, 1), 0, stream>>>(n);
  sumPartials<<<ONE_BLOCK, FEW_THREADS>>>(partial, out, 16);
  sumPartials<<<1, 32>>>(partial, out, 32);
  sumPartials<<<10, 1>>>(partial, out, 10);
  const dim3 grid(2), block(8, 2);
  sumPartials<<<grid, block>>>(partial, out, 32);
  // Warp-sized blocks in a constant grid no larger than the number of
  // multiprocessors (114 or more on sm_90): one block per multiprocessor,
  // where the 64-thread minimum (several blocks per multiprocessor) does not
  // apply.
  sumPartials<<<2, 32>>>(partial, out, 64);
  dim3 smallGrid(12), warpBlock(32);
  sumPartials<<<smallGrid, warpBlock>>>(partial, out, 384);
  sumPartials<<<112, 32>>>(partial, out, 3584);
  // Up to 32 blocks per multiprocessor (114 x 32 = 3648 blocks): every
  // block is resident at once, and 64-thread blocks would put the same
  // number of warps on each multiprocessor.
  sumPartials<<<1024, 32>>>(partial, out, 64);
  sumPartials<<<3648, 32>>>(partial, out, 64);
  // Still findings: more than a warp of threads in all, or an unknown grid.
  sumPartials<<<blocks, 1>>>(partial, out, blocks);
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: block of 1 thread is not a multiple of the warp size (32); the last warp of every block runs with idle lanes [cuda-launch-shape]
  // CHECK-NOTES: :[[@LINE-2]]:25: note: 1 thread = 1 warp = 32 lanes: 31 lanes (96.9%) idle in every block
  sumPartials<<<4, 16>>>(partial, out, 64);
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: block of 16 threads is not a multiple of the warp size (32)
  // CHECK-NOTES: :[[@LINE-2]]:20: note: 16 threads = 1 warp = 32 lanes: 16 lanes (50.0%) idle in every block
  sumPartials<<<3649, 32>>>(partial, out, 64);
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: block of 32 threads is below the recommended minimum of 64; with more than 32 blocks per multiprocessor waiting, {{.*}} [cuda-launch-shape]
  sumPartials<<<blocks, 32>>>(partial, out, 64);
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: block of 32 threads is below the recommended minimum of 64
  sumPartials<<<1, 48>>>(partial, out, 48);
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: block of 48 threads is not a multiple of the warp size (32)
  // CHECK-NOTES: :[[@LINE-2]]:20: note: 48 threads = 2 warps = 64 lanes: 16 lanes (25.0%) idle in every block
}

// A grid that is a template argument (`blocks`, 112: one block per
// multiprocessor) is judged in the instantiations, where it is a constant.
template <typename T, unsigned Blocks, unsigned Threads>
void mergeType(const T *a, float *out) {
  sumPartials<<<Blocks, 32>>>((const float *)a, out, 64);
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: block of 32 threads is below the recommended minimum of 64; {{.*}}
  // CHECK-NOTES: :[[@LINE-2]]:25: note: in the instantiation 'mergeType<float, 8192U, 128U>' (other instantiations of this launch are not reported again)
  sumPartials<<<Blocks, Threads>>>((const float *)a, out, 64);
}
void runMerge(const float *a, float *out) {
  mergeType<float, 112, 128>(a, out);
  mergeType<float, 8192, 128>(a, out);
}

// A block-size sweep: 32 is one of the shapes the program measures, next
// to 64, 128 and 256.
template <int BS> __global__ void dotRows(float *o, const float *a, int n) {
  float s = 0.f;
  for (int k = threadIdx.x; k < n; k += BS)
    s += a[blockIdx.x * n + k];
  atomicAdd(o + blockIdx.x, s);
}
template <int BS> void runDot(float *o, const float *a, int n, int rows) {
  dotRows<BS><<<rows, BS>>>(o, a, n);
}
// Only warp-sized blocks: reported.
template <int BS> void runDotSmall(float *o, const float *a, int n, int rows) {
  dotRows<BS><<<rows, BS>>>(o, a, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: block of 32 threads is below the recommended minimum of 64; {{.*}}
  // CHECK-NOTES: :[[@LINE-2]]:23: note: in the instantiation 'runDotSmall<32>' (other instantiations of this launch are not reported again)
}
void sweep(float *o, const float *a, int n, int rows) {
  runDot<32>(o, a, n, rows);
  runDot<64>(o, a, n, rows);
  runDot<128>(o, a, n, rows);
  runDot<256>(o, a, n, rows);
  runDotSmall<32>(o, a, n, rows);
}

// A run-time grid that the branch holding the launch bounds (bitpermute,
// audit of stop 25): `n < 4096` makes `n / 32` at most 127 blocks, all
// resident at once. A guard that allows more, or none, keeps the finding.
__global__ void permute(long *out, const long *in, unsigned lg);
void runPermute(long *out, const long *in, unsigned lg) {
  size_t n = (size_t)1 << lg;
  if (n <= 1024)
    permute<<<1, n>>>(out, in, lg);
  else if (n < 4096)
    permute<<<n / 32, 32>>>(out, in, lg);
  else if (n < (1 << 20))
    permute<<<n / 32, 32>>>(out, in, lg);
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: block of 32 threads is below the recommended minimum of 64; {{.*}}
  else
    permute<<<dim3(n / 32), dim3(32)>>>(out, in, lg);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: block of 32 threads is below the recommended minimum of 64; {{.*}}
}

// Dynamic shared memory that already allows fewer than 32 blocks per
// multiprocessor (bitpermute: 8 KB per one-warp block, 25 blocks), whether
// it grows with the block or not: shared memory, not the limit of 32
// resident blocks, caps the resident blocks, and that limit cannot bind
// (issue 28). 128 bytes per block leave room for 32 blocks: reported.
void sharedPerWarp(float *p, unsigned long n) {
  const unsigned bsize = 32;
  kernel<<<n / bsize, bsize, bsize * 32 * sizeof(long)>>>(p);
  kernel<<<n / bsize, bsize, 32 * 32 * sizeof(long)>>>(p);
  kernel<<<n / bsize, bsize, bsize * sizeof(float)>>>(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: block of 32 threads is below the recommended minimum of 64; with more than 32 blocks per multiprocessor waiting, the limit of 32 resident blocks holds a multiprocessor to at most 32 of its 64 warps [cuda-launch-shape]
}
