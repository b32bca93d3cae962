// Cooperative groups: tiles, their shuffles and barriers, in a template
// kernel whose tile size and mask are template arguments.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
template <int Size, unsigned Mask>
__global__ void reduce(const float *in, float *out, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<Size> tile = cg::tiled_partition<Size>(block);
  __shared__ float part[1024 / Size];
  float v = 0.0f;
  for (int i = block.thread_rank(); i < n; i += block.size())
    v += in[i];
  for (int o = tile.size() / 2; o > 0; o /= 2)
    v += tile.shfl_down(v, o);
  if (tile.thread_rank() == 0)
    part[block.thread_rank() / Size] = v;
  block.sync();
  if (threadIdx.x < Size) {
    v = part[threadIdx.x];
    __syncwarp(Mask);
    v += __shfl_down_sync(Mask, v, Size / 2, Size);
  }
  if (block.thread_rank() == 0)
    out[blockIdx.x] = v / Size;
}
template __global__ void reduce<32, 0xffffffffu>(const float *, float *, int);
template __global__ void reduce<16, 0xffffu>(const float *, float *, int);
