// RUN: %check_cuda_lint %s cuda-divergent-barrier %t

// Cooperative groups: `block.sync()` and `cg::sync(block)` are barriers of
// the block, and every thread of the block must reach them, as for
// __syncthreads(). `grid.sync()` must be reached by every thread of the grid:
// a condition on the block index diverges too, and threads that exit do
// hold it up (thread 0 of each block arrives for its block), where
// __syncthreads() lets exited threads go (issue 29; GPUVerify's
// cooperative_groups divergence tests). A tile's sync waits for its tile
// only and is left to the warp-level rules.

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void memberSync(int *a) {
  cg::thread_block block = cg::this_thread_block();
  int idx = blockDim.x * blockIdx.x + threadIdx.x;
  int t = 0;
  if (idx % 2 == 0) {
    t = a[idx + 2];
    block.sync();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'block.sync()' is reached by only some threads of the block; a barrier that not every thread reaches is undefined behaviour and can hang [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: the barrier is under this condition, which depends on the thread index
  }
  a[idx] += t;
}

__global__ void freeSync(int *a) {
  cg::thread_block block = cg::this_thread_block();
  if (threadIdx.x < 16)
    cg::sync(block);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cg::sync(block)' is reached by only some threads of the block; a barrier that not every thread reaches is undefined behaviour and can hang [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: the barrier is under this condition, which depends on the thread index
  a[threadIdx.x] = 0;
}

__global__ void gridSync(int *a) {
  cg::grid_group grid = cg::this_grid();
  if (threadIdx.x % 2 == 0)
    grid.sync();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'grid.sync()' is reached by only some threads of the grid; a barrier that not every thread reaches is undefined behaviour and can hang [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: the barrier is under this condition, which depends on the thread or block index
  a[threadIdx.x] = 0;
}

// Whole blocks skip the grid's sync: the blocks that call it wait forever.
__global__ void gridBlockSync(int *a) {
  cg::grid_group grid = cg::this_grid();
  int bid = blockIdx.x;
  if (bid % 2 == 0)
    grid.sync();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'grid.sync()' is reached by only some threads of the grid; a barrier that not every thread reaches is undefined behaviour and can hang [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: the barrier is under this condition, which depends on the thread or block index
  a[threadIdx.x] = 0;
}

// The skipping threads exit: harmless for a block's barrier, not for the
// grid's.
__global__ void gridSyncThenExit(int *a) {
  cg::grid_group grid = cg::this_grid();
  int idx = blockDim.x * blockIdx.x + threadIdx.x;
  if (idx % 2 == 0) {
    int t = a[idx + 2];
    cg::sync(grid);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cg::sync(grid)' is not reached by the threads that skip it and run to the end of the kernel; a grid-wide sync waits for every block of the cooperative launch, and a block whose thread 0 has exited never arrives, so the grid can hang [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: the threads this condition keeps from the barrier reach no other barrier before they exit
    a[idx] = t;
  }
}

__global__ void gridSyncAfterReturn(int *a, int n) {
  cg::grid_group grid = cg::this_grid();
  if (blockIdx.x * blockDim.x + threadIdx.x >= n)
    return;
  a[threadIdx.x] = 1;
  grid.sync();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'grid.sync()' is not reached by the threads that return before it; a grid-wide sync waits for every block of the cooperative launch, and a block whose thread 0 has exited never arrives, so the grid can hang [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-4]]:5: note: some threads return here, before the barrier
  a[threadIdx.x] += a[threadIdx.x + 1];
}

// The same for a block's sync: whole blocks skip it, or the skipping
// threads exit; neither holds up a barrier of the block (the second is
// reported with ReportExitedThreads, cuda-divergent-barrier-exit.cu).
__global__ void blockSyncByBlock(int *a) {
  cg::thread_block block = cg::this_thread_block();
  if (blockIdx.x % 2 == 0)
    block.sync();
  int idx = blockDim.x * blockIdx.x + threadIdx.x;
  if (idx % 2 == 0) {
    int t = a[idx + 2];
    block.sync();
    a[idx] = t;
  }
}

// Negatives: every thread reaches the sync; a tile's sync under a
// condition that keeps whole warps together.
__global__ void uniformSync(int *a, int n) {
  cg::thread_block block = cg::this_thread_block();
  for (int i = 0; i < n; ++i) {
    a[threadIdx.x] += i;
    block.sync();
  }
  if (n > 4)
    cg::sync(block);
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  if (threadIdx.x < 64)
    tile.sync();
  a[threadIdx.x] = 0;
  cg::grid_group grid = cg::this_grid();
  for (int i = 0; i < n; ++i) {
    a[blockIdx.x * blockDim.x + threadIdx.x] += i;
    grid.sync();
  }
}
