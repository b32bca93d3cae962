// RUN: %check_cuda_lint %s cuda-divergent-barrier %t

// Cooperative groups: `block.sync()`, `cg::sync(block)` and `grid.sync()`
// are barriers of the block (a grid's sync starts with one), and every
// thread of the block must reach them, as for __syncthreads() (issue 29;
// GPUVerify's cooperative_groups divergence tests). A tile's sync waits for
// its tile only and is left to the warp-level rules.

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
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'grid.sync()' is reached by only some threads of the block; a barrier that not every thread reaches is undefined behaviour and can hang [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: the barrier is under this condition, which depends on the thread index
  a[threadIdx.x] = 0;
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
}
