// RUN: %check_cuda_lint %s cuda-missing-restrict %t -- --min-impact=low
// (--min-impact=low: most kernels here load their pointers before any
// store, where `__restrict__` only adds .nc and the finding ranks low; the
// file tests what the check finds and fixes, cuda-missing-restrict-benefit.cu
// the rank.)

// A pointer passed to a recursive device function that calls itself at two
// places that are not tail calls, and that writes memory (logic-rewrite's
// Eval and CalcMFFC, audit of stop 26): nvcc keeps the recursion as a real
// call and proves nothing about what it does with the pointer, so no load
// of it becomes ld.global.nc, in the kernel or in the callee, with or
// without `const __restrict__` (nvcc 13.0 -arch=sm_90 -ptx: the same PTX;
// cuda-missing-restrict-recursion-ptx.cu checks it). Not findings, even
// where the kernel reads the pointer itself. The kernel's other pointers
// are reported as usual.
struct Lib {
  int map[1024];
  int fanin[64][8];
  int n[64];
};

__device__ int matchCut(int cur, int *match, int c, const Lib *lib, int tag) {
  if (match[cur] > -1)
    return 0;
  match[cur] = tag;
  return 1 + matchCut(lib->fanin[c][cur & 7] & 7, match, c, lib, tag) +
         matchCut(lib->fanin[c][(cur + 1) & 7] & 7, match, c, lib, tag);
}

__global__ void evaluate(int *out, const int *tt, Lib *lib, int n) {
  // CHECK-MESSAGES: :[[@LINE-1]]:47: warning: pointer parameter 'tt' is only read; declare it 'const int *__restrict__' so that its loads can use the read-only data cache [cuda-missing-restrict]
  // CHECK-FIXES: {{^}}__global__ void evaluate(int *out, const int *__restrict__ tt, Lib *lib, int n) {{{$}}
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= n)
    return;
  int match[8];
  for (int j = 0; j < 8; j++)
    match[j] = -1;
  int c = lib->map[tt[id] & 1023];
  int best = 0;
  for (int k = 0; k < lib->n[c]; k++)
    best += matchCut(k & 7, match, c, lib, -k - 2);
  out[id] = best;
}

// The maximum fanout-free cone: the recursion writes through the kernel's
// local counters in an inlined helper, and the kernel reaches it through
// another helper. Not findings for 'fanin0' and 'fanin1'; 'levels' is not
// passed to it.
__device__ int release(int node, int *size, int *nodes) {
  nodes[(*size)++ & 15] = node;
  return node & 1;
}
__device__ int cone(int cur, int *fanin0, int *fanin1, int *size,
                    int *nodes) {
  int ans = 1;
  if (release(fanin0[cur], size, nodes) == 0)
    ans += cone(fanin0[cur], fanin0, fanin1, size, nodes);
  if (release(fanin1[cur], size, nodes) == 0)
    ans += cone(fanin1[cur], fanin0, fanin1, size, nodes);
  return ans;
}
__device__ int saved(int id, int *fanin0, int *fanin1) {
  int size = 0, nodes[16];
  return cone(id, fanin0, fanin1, &size, nodes);
}
__global__ void gain(int *out, int *fanin0, int *fanin1, int *levels,
                     int n) {
  // CHECK-MESSAGES: :[[@LINE-2]]:63: warning: pointer parameter 'levels' is only read; declare it 'const int *__restrict__' so that its loads can use the read-only data cache [cuda-missing-restrict]
  // CHECK-FIXES: {{^}}__global__ void gain(int *out, int *fanin0, int *fanin1, const int *__restrict__ levels,{{$}}
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id < n)
    out[id] = saved(id, fanin0, fanin1) + levels[fanin0[id]];
}

// Look-alikes that nvcc does load with ld.global.nc once the pointer is
// `const __restrict__` (checked the same way): findings.

// One recursive call (nvcc infers what the call does with the pointer).
__device__ int chain(const int *next, int *seen, int i) {
  if (i < 0 || seen[i & 7])
    return 0;
  seen[i & 7] = 1;
  return 1 + chain(next, seen, next[i]);
}
__global__ void chains(int *out, const int *next, int n) {
  // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: pointer parameter 'next' is only read; declare it 'const int *__restrict__'
  int seen[8] = {0};
  out[threadIdx.x] = chain(next, seen, n) + next[n + 1];
}

// Two recursive calls, both tail calls: nvcc turns them into a loop.
__device__ int descend(const int *child, int *path, int i) {
  if (i <= 0)
    return 0;
  path[i & 7] = i;
  if (child[i] > 3)
    return descend(child, path, child[i] - 1);
  return descend(child, path, child[i + 1] - 2);
}
__global__ void descents(int *out, const int *child, int n) {
  // CHECK-MESSAGES: :[[@LINE-1]]:47: warning: pointer parameter 'child' is only read; declare it 'const int *__restrict__'
  out[threadIdx.x + 100] = descend(child, out, n) + child[n + 1];
}

// Two recursive calls, but nothing written outside the function's own
// locals.
__device__ int depth(const int *child, int i) {
  int local[4];
  for (int j = 0; j < 4; j++)
    local[j] = child[i + j];
  if (i <= 0)
    return local[i & 3];
  return 1 + depth(child, local[0]) + depth(child, local[1]);
}
__global__ void depths(int *out, const int *child, int n) {
  // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: pointer parameter 'child' is only read; declare it 'const int *__restrict__'
  out[threadIdx.x + 100] = depth(child, n) + child[n + 1];
}

// Two recursive calls whose results are stored, not accumulated into the
// result (a void builder like logic-rewrite's BuildSubgr, or results kept
// in locals and written out): nvcc still proves the pointer read-only.
__device__ void build(int cur, const int *lib, int *match, int *fanin) {
  if (match[cur] != -1)
    return;
  int in0 = lib[cur], in1 = lib[cur + 1];
  build(in0, lib, match, fanin);
  build(in1, lib, match, fanin);
  fanin[cur] = match[in0] + match[in1];
  match[cur] = cur;
}
__global__ void builds(const int *lib, int *match, int *fanin) {
  // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: pointer parameter 'lib' is only read; declare it 'const int *__restrict__'
  int x = lib[threadIdx.x];
  build(x, lib, match, fanin);
  fanin[threadIdx.x + 1000] = lib[x + 3];
}
__device__ int size(int cur, const int *lib, int *match) {
  if (match[cur] != -1)
    return 0;
  int s = size(lib[cur], lib, match);
  s += size(lib[cur + 1], lib, match);
  match[cur] = s;
  return s;
}
__global__ void sizes(const int *lib, int *match, int *out) {
  // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: pointer parameter 'lib' is only read; declare it 'const int *__restrict__'
  int x = lib[threadIdx.x];
  out[threadIdx.x] = size(x, lib, match) + lib[x + 3];
}

// A kept recursion that is not passed the pointer.
__device__ int visit(const int *q, int *out, int i) {
  if (i <= 0)
    return 0;
  out[i & 7] = 1;
  return 1 + visit(q, out, q[i]) + visit(q, out, q[i + 1]);
}
__global__ void visits(int *out, const int *p, const int *__restrict__ q,
                       int n) {
  // CHECK-MESSAGES: :[[@LINE-2]]:45: warning: pointer parameter 'p' is only read; declare it 'const int *__restrict__'
  out[threadIdx.x + 100] = visit(q, out, n) + p[n + 1];
}

// Mutual recursion (nvcc inlines one function into the other and keeps
// most loads ld.global.nc).
__device__ int odd(const int *p, int *out, int i);
__device__ int even(const int *p, int *out, int i) {
  if (i <= 0)
    return 0;
  out[i & 7] = 1;
  return 1 + odd(p, out, p[i]) + odd(p, out, p[i + 1]);
}
__device__ int odd(const int *p, int *out, int i) {
  if (i <= 0)
    return 0;
  out[i & 7] = 2;
  return 1 + even(p, out, p[i]) + even(p, out, p[i + 1]);
}
__global__ void parity(int *out, const int *p, int n) {
  // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: pointer parameter 'p' is only read; declare it 'const int *__restrict__'
  out[threadIdx.x + 100] = even(p, out, n) + p[n + 1];
}

// A template recursion instantiated for one type: the same as a function.
template <typename T>
__device__ T sumTree(const T *w, int *mark, int i) {
  if (i <= 0 || mark[i & 7])
    return T();
  mark[i & 7] = 1;
  return w[i] + sumTree(w, mark, 2 * i) + sumTree(w, mark, 2 * i + 1);
}
template <typename T>
__global__ void trees(T *out, const T *w, int n) {
  int mark[8] = {0};
  out[threadIdx.x] = sumTree(w, mark, n);
}
template __global__ void trees<float>(float *, const float *, int);
