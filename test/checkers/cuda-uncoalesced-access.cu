// RUN: %check_cuda_lint %s cuda-uncoalesced-access %t
// RUN: %check_cuda_lint -check-suffix=MIN4 %s cuda-uncoalesced-access %t -- -config="{CheckOptions: {cuda-uncoalesced-access.MinStride: 4}}"

#define TILE_DIM 32
#define BLOCK_ROWS 8

struct Particle { float x, y, z; };

// The naive transpose (guide 3.2.1, Figure 3.9): the store walks a column.
__global__ void transposeNaive(float *odata, const float *idata, int width,
                               int height) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    odata[x * height + (y + j)] = idata[(y + j) * width + x];
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: uncoalesced store to global memory: consecutive threads access elements 'height' apart, so a warp request touches up to 32 32-byte sectors instead of 4 [cuda-uncoalesced-access]
  // CHECK-NOTES: :[[@LINE-5]]:7: note: index 'x' is computed here
  // CHECK-MESSAGES-MIN4: :[[@LINE-3]]:5: warning: uncoalesced store to global memory: consecutive threads access elements 'height' apart
}

// Array of structs flattened to floats: stride 3.
__global__ void aos(float *pos, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    pos[i * 3] += dt;
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: uncoalesced load from and store to global memory: consecutive threads access elements 3 apart, so a warp request touches 12 32-byte sectors instead of 4 [cuda-uncoalesced-access]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: index 'i' is computed here
    pos[threadIdx.x * 3 + 1] = 0.0f;
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: uncoalesced store to global memory: consecutive threads access elements 3 apart, so a warp request touches 12 32-byte sectors
  }
}

// A strided read of a read-only input (guide 3.2.1.4, strideCopy): the note
// suggests staging through shared memory.
__global__ void strideCopy(float *odata, const float *idata, int stride) {
  int xid = (blockIdx.x * blockDim.x + threadIdx.x) * stride;
  odata[xid] = idata[xid];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: uncoalesced store to global memory: consecutive threads access elements 'stride' apart
  // CHECK-NOTES: :[[@LINE-3]]:7: note: index 'xid' is computed here
  // CHECK-NOTES: :[[@LINE-3]]:16: warning: uncoalesced load from global memory: consecutive threads access elements 'stride' apart
  // CHECK-NOTES: :[[@LINE-5]]:7: note: index 'xid' is computed here
  // CHECK-NOTES: :[[@LINE-5]]:16: note: 'idata' is only read: load it with consecutive threads reading consecutive elements into a __shared__ tile, then read the tile
  // CHECK-MESSAGES-MIN4: :[[@LINE-6]]:3: warning: uncoalesced store
  // CHECK-MESSAGES-MIN4: :[[@LINE-7]]:16: warning: uncoalesced load
}

// A column walk over a row-major matrix, through a pointer derived from a
// parameter; the input is never written, though not declared const.
__global__ void columnSum(float *sums, float *m, int n) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  float *rowStart = m + col * n;
  float s = 0.0f;
  for (int k = 0; k < n; ++k)
    s += rowStart[k];
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: uncoalesced load from global memory: consecutive threads access elements 'n' apart
  // CHECK-NOTES: :[[@LINE-6]]:7: note: index 'col' is computed here
  // CHECK-NOTES: :[[@LINE-3]]:10: note: each thread reads all 'n' elements of its record in this loop: the sectors fetched are used across its iterations while L1 keeps them, so for short records the cost is in L1 requests, not DRAM traffic
  // CHECK-NOTES: :[[@LINE-4]]:10: note: 'm' is only read
  // CHECK-MESSAGES-MIN4: :[[@LINE-5]]:10: warning: uncoalesced load
  sums[col] = s;
}

// The definition that dominates the use: the assignment after the early
// return, not the initializer; the note points at the assignment.
__global__ void dominating(float *out, const float *in, int stride, int n) {
  int i = 0;
  if (n > 10)
    return;
  i = (blockIdx.x * blockDim.x + threadIdx.x) * stride;
  out[threadIdx.x] = in[i];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: uncoalesced load from global memory: consecutive threads access elements 'stride' apart, so a warp request touches up to 32 32-byte sectors instead of 4
  // CHECK-NOTES: :[[@LINE-3]]:3: note: index 'i' is computed here
  // CHECK-NOTES: :[[@LINE-3]]:22: note: 'in' is only read
  // CHECK-MESSAGES-MIN4: :[[@LINE-4]]:22: warning: uncoalesced load
  int j;
  j = threadIdx.x * 4;
  out[j] = 0.0f;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: uncoalesced store to global memory: consecutive threads access elements 4 apart
  // CHECK-NOTES: :[[@LINE-3]]:3: note: index 'j' is computed here
  // CHECK-MESSAGES-MIN4: :[[@LINE-3]]:3: warning: uncoalesced store
  j = threadIdx.x;
  out[j] = 1.0f;
  // A branch may redefine: unknown.
  if (n > 3)
    j = threadIdx.x * 2;
  out[j] = 2.0f;
}

// Doubles, a stride of 2: 16 sectors instead of 8. Not reported with
// MinStride 4.
__global__ void interleavedDouble(double *re, int n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    re[2 * i] *= 2.0;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: uncoalesced load from and store to global memory: consecutive threads access elements 2 apart, so a warp request touches 16 32-byte sectors instead of 8
}

// A grid-stride loop: the induction variable keeps its lane stride.
__global__ void gridStride(int *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    out[i * 32] = i;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: uncoalesced store to global memory: consecutive threads access elements 32 apart, so a warp request touches 32 32-byte sectors instead of 4
  // CHECK-MESSAGES-MIN4: :[[@LINE-2]]:5: warning: uncoalesced store to global memory: consecutive threads access elements 32 apart
}

// Templates: reported for the instantiation that strides, once.
template <int Stride>
__global__ void templated(float *a) {
  a[threadIdx.x * Stride] = 1.0f;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: uncoalesced store to global memory: consecutive threads access elements 8 apart, so a warp request touches 32 32-byte sectors instead of 4
  // CHECK-MESSAGES-MIN4: :[[@LINE-2]]:3: warning: uncoalesced store to global memory: consecutive threads access elements 8 apart
}
template __global__ void templated<1>(float *);
template __global__ void templated<8>(float *);

// Vector elements: copies in and out of float4 and float2 arrays.
__global__ void vectors(float4 *out, const float4 *in, float2 *pairs) {
  float4 v = in[threadIdx.x * 2];
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: uncoalesced load from global memory: consecutive threads access elements 2 apart, so a warp request touches 32 32-byte sectors instead of 16
  out[threadIdx.x * 4] = v;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: uncoalesced store to global memory: consecutive threads access elements 4 apart, so a warp request touches 32 32-byte sectors instead of 16
  // CHECK-MESSAGES-MIN4: :[[@LINE-2]]:3: warning: uncoalesced store to global memory: consecutive threads access elements 4 apart
  pairs[threadIdx.x] = make_float2(v.x, v.y);
}

// The right side of a copy assignment of class-type elements is a load.
__global__ void copyAssign(float4 *out, const float4 *in, int2 *pairs) {
  out[threadIdx.x] = in[threadIdx.x * 2];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: uncoalesced load from global memory: consecutive threads access elements 2 apart, so a warp request touches 32 32-byte sectors instead of 16
  pairs[threadIdx.x] = pairs[threadIdx.x * 4 + 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: uncoalesced load from global memory: consecutive threads access elements 4 apart, so a warp request touches 32 32-byte sectors instead of 8
  // CHECK-MESSAGES-MIN4: :[[@LINE-2]]:24: warning: uncoalesced load from global memory: consecutive threads access elements 4 apart
}

// Sectors by element size, lane 0 at a sector boundary: lanes 8 bytes
// apart cover 256 bytes; 12-byte elements 24 bytes apart cover 24 sectors
// (12 when consecutive); 32-byte elements fill whole sectors at any stride,
// 32 of them, as many as when consecutive: no finding.
struct alignas(32) Quad { double a, b, c, d; };
__global__ void elementSizes(char *c, short *h, Particle *p, Quad *q) {
  c[threadIdx.x * 8] = 0;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: uncoalesced store to global memory: consecutive threads access elements 8 apart, so a warp request touches 8 32-byte sectors instead of 1
  // CHECK-MESSAGES-MIN4: :[[@LINE-2]]:3: warning: uncoalesced store to global memory: consecutive threads access elements 8 apart
  h[threadIdx.x * 2] = 0;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: uncoalesced store to global memory: consecutive threads access elements 2 apart, so a warp request touches 4 32-byte sectors instead of 2
  p[threadIdx.x * 2] = p[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: uncoalesced store to global memory: consecutive threads access elements 2 apart, so a warp request touches 24 32-byte sectors instead of 12
  q[threadIdx.x] = q[threadIdx.x * 2];
  q[threadIdx.x * 4] = q[0];
}

// `*(p + i)` is analysed like `p[i]`; a member of an array-of-structs
// element is strided by the element's size: consecutive threads read 'y'
// 12 bytes apart, 12 sectors instead of the 4 of an array of 'y' alone.
// float4 members are left alone: reading several of them is one vector load.
__global__ void derefAndMembers(float *out, const float *in, Particle *p,
                                const float4 *v, int n) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  out[tid] = *(in + tid * 2);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: uncoalesced load from global memory: consecutive threads access elements 2 apart, so a warp request touches 8 32-byte sectors instead of 4
  p[tid].y = 0.0f;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: uncoalesced store to global memory: consecutive threads access member 'y' 12 bytes apart, so a warp request touches 12 32-byte sectors instead of 4
  out[tid] = (p + tid)->z + p[tid * n].x;
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: uncoalesced load from global memory: consecutive threads access member 'z' 12 bytes apart, so a warp request touches 12 32-byte sectors instead of 4
  // CHECK-MESSAGES: :[[@LINE-2]]:29: warning: uncoalesced load from global memory: consecutive threads access member 'x' 'n' elements of 12 bytes apart, so a warp request touches up to 32 32-byte sectors instead of 4
  // CHECK-MESSAGES-MIN4: :[[@LINE-3]]:29: warning: uncoalesced load from global memory: consecutive threads access member 'x'
  out[tid] = v[tid].x + v[tid].y + *(in + tid);
}

// A 2-D block with blockDim.x as the row width of the index.
__global__ void blockWidth(float *a) {
  a[threadIdx.x * blockDim.x + threadIdx.y] = 0.0f;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: uncoalesced store to global memory: consecutive threads access elements 'blockDim.x' apart
  // CHECK-MESSAGES-MIN4: :[[@LINE-2]]:3: warning: uncoalesced store
}

// A 3-D block over a volume: x must be the fastest index.
__global__ void volume(float *dst, const float *src, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  dst[(z * ny + y) * nx + x] = src[(x * ny + y) * nz + z];
  // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: uncoalesced load from global memory: consecutive threads access elements 'ny * nz' apart
  // CHECK-MESSAGES-MIN4: :[[@LINE-2]]:32: warning: uncoalesced load
}

//===--- No finding -------------------------------------------------------===//

// Coalesced: the tiled transpose's global accesses, stencils, matrix
// multiply, reductions.
__global__ void jacobi(float *out, const float *in, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 1 || j < 1 || i >= nx - 1 || j >= ny - 1)
    return;
  out[j * nx + i] = 0.25f * (in[j * nx + i - 1] + in[j * nx + i + 1] +
                             in[(j - 1) * nx + i] + in[(j + 1) * nx + i]);
}

__global__ void matmul(const float *a, const float *b, float *c, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  for (int k = 0; k < n; ++k)
    sum += a[row * n + k] * b[k * n + col]; // Broadcast and stride 1.
  c[row * n + col] = sum;
}

// threadIdx.x is the fast index of the loop.
__global__ void rows(float *out, const float *in, int width, int h) {
  for (int r = 0; r < h; ++r)
    out[r * width + threadIdx.x] = in[r * width + threadIdx.x] * 2.0f;
}

// Reversed order: stride -1 is coalesced.
__global__ void reverse(int *out, const int *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[n - 1 - i] = in[i];
}

// Histogram: the bin is data-dependent, the stride unknown; not guessed.
__global__ void histogram(unsigned *bins, const unsigned char *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&bins[data[i]], 1u);
  bins[data[i] * 4] += 1;
}

// Unknown strides: non-affine, loop counters, disagreeing definitions.
__global__ void unknowns(float *a, int n) {
  a[threadIdx.x * threadIdx.x] = 0.0f;
  a[threadIdx.x / 2] = 0.0f;
  // A narrowing conversion wraps around: threadIdx.x * 64 does not fit.
  a[(unsigned char)(threadIdx.x * 64)] = 0.0f;
  char c = threadIdx.x;
  a[c * 4] = 0.0f;
  for (int j = 0; j < n; ++j)
    a[threadIdx.x * j] = 0.0f;
  int x = threadIdx.x * 4;
  if (n > 2)
    x = threadIdx.x;
  a[x] = 1.0f;
}

// Shared and local memory are not global memory.
__global__ void sharedAndLocal(float *out) {
  __shared__ float s[32 * 32];
  float local[64];
  s[threadIdx.x * 32] = 1.0f;
  local[threadIdx.x * 2 % 64] = 2.0f;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x] + local[0];
}

// A device function's pointer may point to shared memory: not reported.
__device__ void store3(float *p) { p[threadIdx.x * 3] = 0.0f; }

// Host code is never touched.
void hostTranspose(float *out, const float *in, int n) {
  for (int x = 0; x < n; ++x)
    for (int y = 0; y < n; ++y)
      out[x * n + y] = in[y * n + x];
}
