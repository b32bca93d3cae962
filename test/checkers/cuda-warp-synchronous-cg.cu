// RUN: %check_cuda_lint %s cuda-warp-synchronous %t

// Cooperative groups as thread indices: thread_rank(), a tile's
// meta_group_rank() and meta_group_size(), and tile.sync() / cg::sync(g)
// as barriers; and disjoint index ranges in the exact test, bounded by the
// launched block.

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Audit false alarm: the tile's ranks are thread indices, not data; the
// exchange inside each warp is ordered by tile.sync().
__global__ void tileSynced(const float *in, float *out) {
  __shared__ float s[8][32];
  cg::thread_block cta = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cta);
  s[tile.meta_group_rank()][tile.thread_rank()] = in[cta.thread_rank()];
  tile.sync();
  out[cta.thread_rank()] = s[tile.meta_group_rank()][(tile.thread_rank() + 1) % 32];
}

// The same exchange without tile.sync(): lanes of a warp race.
__global__ void tileRacy(const float *in, float *out) {
  __shared__ float s[8][32];
  auto cta = cg::this_thread_block();
  auto tile = cg::tiled_partition<32>(cta);
  unsigned w = tile.meta_group_rank();
  unsigned l = tile.thread_rank();
  s[w][l] = in[cta.thread_rank()];
  out[cta.thread_rank()] = s[w][l ^ 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: lanes of a warp communicate through 's' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: another thread writes the element here
  // CHECK-NOTES: :[[@LINE-3]]:28: note: for example, thread 0 reads 's[0][1]', which thread 1 writes (in blocks of 256 threads, as launched here)
  // CHECK-NOTES: :[[@LINE-4]]:28: note: this relies on the lanes of a warp running in lock-step and on a warp size of 32; neither is guaranteed since Volta
  // CHECK-FIXES: {{^}}  s[w][l] = in[cta.thread_rank()];{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncwarp();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  out[cta.thread_rank()] = s[w][l ^ 1];{{$}}
}

// A block reduction through one slot per warp: written by lane 0 of each
// tile, read by the first tile after cta.sync(); no race, and the ranks in
// the conditions are not data.
__global__ void tileBroadcast(const float *in, float *out) {
  __shared__ float s[8];
  auto cta = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cta);
  float v = in[cta.thread_rank()];
  for (int o = 16; o > 0; o /= 2)
    v += tile.shfl_down(v, o);
  if (tile.thread_rank() == 0)
    s[tile.meta_group_rank()] = v;
  cta.sync();
  if (tile.meta_group_rank() == 0) {
    v = tile.thread_rank() < tile.meta_group_size() ? s[tile.thread_rank()] : 0.f;
    for (int o = 16; o > 0; o /= 2)
      v += tile.shfl_down(v, o);
    if (tile.thread_rank() == 0)
      out[blockIdx.x] = v;
  }
}

// The same without cta.sync(): tile 0 reads what the other tiles' lane 0
// write.
__global__ void tileBroadcastRacy(const float *in, float *out) {
  __shared__ float s[8];
  auto cta = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cta);
  float v = in[cta.thread_rank()];
  if (tile.thread_rank() == 0)
    s[tile.meta_group_rank()] = v;
  if (tile.meta_group_rank() == 0)
    out[cta.thread_rank()] = tile.thread_rank() < tile.meta_group_size() ? s[tile.thread_rank()] : 0.f;
  // CHECK-MESSAGES: :[[@LINE-1]]:76: warning: threads of different warps communicate through 's' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-4]]:5: note: another thread writes the element here
  // CHECK-NOTES: :[[@LINE-3]]:76: note: for example, thread 1 reads 's[1]', which thread 32 writes (in blocks of 256 threads, as launched here)
  // CHECK-NOTES: :[[@LINE-4]]:76: note: no automatic fix: the statements involved cannot be rewritten in place (macros or statement forms the rewrite does not handle)
}

// cg::sync(cta) is a barrier.
__global__ void groupSynced(const float *in, float *out) {
  __shared__ float s[256];
  auto cta = cg::this_thread_block();
  unsigned t = cta.thread_rank();
  s[t] = in[t];
  cg::sync(cta);
  out[t] = s[(t + 1) % cta.size()];
}

// Audit false alarm: in blocks of 320 threads, threads 256..319 read
// buf[256..319] and write buf[0..63]: the ranges are disjoint.
__global__ void disjointRanges(float *g) {
  __shared__ float buf[320];
  unsigned tid = threadIdx.x;
  if (tid >= 256)
    buf[tid - 256] += buf[tid];
  __syncthreads();
  if (tid < 64)
    g[tid] = buf[tid];
}

// The same with __launch_bounds__ and an extern array.
__global__ void __launch_bounds__(320) disjointBounds(float *g) {
  extern __shared__ float ebuf[];
  int tid = threadIdx.x;
  if (tid >= 256)
    ebuf[tid - 256] += ebuf[tid];
  __syncthreads();
}

// In blocks of 640 threads the ranges overlap: thread 256 reads buf[256],
// which thread 512 writes.
__global__ void overlappingRanges(float *g) {
  extern __shared__ float obuf[];
  unsigned tid = threadIdx.x;
  if (tid >= 256)
    obuf[tid - 256] += obuf[tid];
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: threads of different warps communicate through 'obuf' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-2]]:5: note: another thread writes the element here
  // CHECK-NOTES: :[[@LINE-3]]:24: note: no automatic fix: the statements involved cannot be rewritten in place (macros or statement forms the rewrite does not handle)
  __syncthreads();
}

void launch(float *a, float *b) {
  tileSynced<<<1, 256>>>(a, b);
  tileRacy<<<1, 256>>>(a, b);
  tileBroadcast<<<1, 256>>>(a, b);
  tileBroadcastRacy<<<1, 256>>>(a, b);
  groupSynced<<<1, 256>>>(a, b);
  disjointRanges<<<1, 320>>>(b);
  disjointBounds<<<1, 320, 320 * sizeof(float)>>>(b);
  overlappingRanges<<<1, 640, 640 * sizeof(float)>>>(b);
}
