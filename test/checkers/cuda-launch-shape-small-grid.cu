// RUN: %check_cuda_lint -no-compile -check-suffixes=ALL %s cuda-launch-shape %t-all -- --min-impact=low
// RUN: %check_cuda_lint -no-compile -check-suffixes=DEFAULT %s cuda-launch-shape %t-default

// A block that is not a multiple of the warp size, over a grid known to fit
// on the GPU at once (at most 114 x 32 = 3648 blocks): every block is
// resident from the start and the idle lanes are capacity the launch leaves
// unused anyway (the audit measured 4-thread blocks over 128 blocks faster
// than 32-thread blocks on an H200). Ranked low, with the grid's size in the
// reason; a large or unknown grid keeps the model's rank.

#define TILES 128
#define BIG (1 << 22)

__global__ void tile(float *p) { p[blockIdx.x * blockDim.x + threadIdx.x] = 0; }

void run(float *p, int n) {
  tile<<<TILES, 4>>>(p);
  // CHECK-MESSAGES-ALL: :[[@LINE-1]]:17: warning: block of 4 threads is not a multiple of the warp size (32); the last warp of every block runs with idle lanes [cuda-launch-shape]
  // CHECK-NOTES-ALL: :[[@LINE-2]]:17: note: impact: low (rank 30/100): a grid of at most 128 blocks is resident at once (at most 3648): the idle lanes are capacity the launch leaves unused anyway
  // CHECK-NOTES-ALL: :[[@LINE-3]]:17: note: 4 threads = 1 warp = 32 lanes: 28 lanes (87.5%) idle in every block
  dim3 grid(6, 6);
  tile<<<grid, 36>>>(p);
  // CHECK-MESSAGES-ALL: :[[@LINE-1]]:16: warning: block of 36 threads is not a multiple of the warp size (32); the last warp of every block runs with idle lanes [cuda-launch-shape]
  // CHECK-NOTES-ALL: :[[@LINE-2]]:16: note: impact: low (rank 30/100): a grid of at most 36 blocks is resident at once (at most 3648): the idle lanes are capacity the launch leaves unused anyway
  // CHECK-NOTES-ALL: :[[@LINE-3]]:16: note: 36 threads = 2 warps = 64 lanes: 28 lanes (43.8%) idle in every block
  tile<<<BIG / 16, 16>>>(p);
  // CHECK-MESSAGES-ALL: :[[@LINE-1]]:20: warning: block of 16 threads is not a multiple of the warp size (32); the last warp of every block runs with idle lanes [cuda-launch-shape]
  // CHECK-NOTES-ALL: :[[@LINE-2]]:20: note: impact: medium (rank 50/100): host code; how often it runs is not known
  // CHECK-NOTES-ALL: :[[@LINE-3]]:20: note: 16 threads = 1 warp = 32 lanes: 16 lanes (50.0%) idle in every block
  // CHECK-MESSAGES-DEFAULT: :[[@LINE-4]]:20: warning: block of 16 threads is not a multiple of the warp size (32); the last warp of every block runs with idle lanes [cuda-launch-shape]
  // A grid that host variables give: `int cells = 2048; dim3 g(cells /
  // 16);` is 128 blocks.
  int cells = 2048;
  dim3 g(cells / 16), b(4);
  tile<<<g, b>>>(p);
  // CHECK-MESSAGES-ALL: :[[@LINE-1]]:13: warning: block of 4 threads is not a multiple of the warp size (32); the last warp of every block runs with idle lanes [cuda-launch-shape]
  // CHECK-NOTES-ALL: :[[@LINE-2]]:13: note: impact: low (rank 30/100): a grid of at most 128 blocks is resident at once (at most 3648): the idle lanes are capacity the launch leaves unused anyway
  // CHECK-NOTES-ALL: :[[@LINE-3]]:13: note: 4 threads = 1 warp = 32 lanes: 28 lanes (87.5%) idle in every block
  size_t bytes = size_t(1) << 14;
  tile<<<(bytes + 255) / 256, 20>>>(p);
  // CHECK-MESSAGES-ALL: :[[@LINE-1]]:31: warning: block of 20 threads is not a multiple of the warp size (32); the last warp of every block runs with idle lanes [cuda-launch-shape]
  // CHECK-NOTES-ALL: :[[@LINE-2]]:31: note: impact: low (rank 30/100): a grid of at most 64 blocks is resident at once (at most 3648): the idle lanes are capacity the launch leaves unused anyway
  // CHECK-NOTES-ALL: :[[@LINE-3]]:31: note: 20 threads = 1 warp = 32 lanes: 12 lanes (37.5%) idle in every block
  // Assigned on one path only: the grid is not known.
  int rows = 64;
  if (n > 1)
    rows = n;
  tile<<<rows, 12>>>(p);
  // CHECK-MESSAGES-ALL: :[[@LINE-1]]:16: warning: block of 12 threads is not a multiple of the warp size (32); the last warp of every block runs with idle lanes [cuda-launch-shape]
  // CHECK-NOTES-ALL: :[[@LINE-2]]:16: note: impact: medium (rank 50/100): host code; how often it runs is not known
  // CHECK-NOTES-ALL: :[[@LINE-3]]:16: note: 12 threads = 1 warp = 32 lanes: 20 lanes (62.5%) idle in every block
  // CHECK-MESSAGES-DEFAULT: :[[@LINE-4]]:16: warning: block of 12 threads is not a multiple of the warp size (32); the last warp of every block runs with idle lanes [cuda-launch-shape]
  tile<<<n, 8>>>(p);
  // CHECK-MESSAGES-ALL: :[[@LINE-1]]:13: warning: block of 8 threads is not a multiple of the warp size (32); the last warp of every block runs with idle lanes [cuda-launch-shape]
  // CHECK-NOTES-ALL: :[[@LINE-2]]:13: note: impact: medium (rank 50/100): host code; how often it runs is not known
  // CHECK-NOTES-ALL: :[[@LINE-3]]:13: note: 8 threads = 1 warp = 32 lanes: 24 lanes (75.0%) idle in every block
  // CHECK-MESSAGES-DEFAULT: :[[@LINE-4]]:13: warning: block of 8 threads is not a multiple of the warp size (32); the last warp of every block runs with idle lanes [cuda-launch-shape]
}
