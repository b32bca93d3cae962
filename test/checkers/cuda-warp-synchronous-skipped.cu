// RUN: %check_cuda_lint %s cuda-warp-synchronous %t

// A race only on the paths that skip a barrier under a condition: the
// finding says so and points at the condition (whether those paths run
// depends on values the check cannot know). One word per block of 128
// threads: every thread reads the word's random state, thread 0 writes it
// back at the end; the barriers in between run only when the word has
// neighbours to train with (`if (cnt)`).
#define TPW 128
#define LEN 1024
__global__ void trainWords(unsigned *state, const int *words, float *out,
                           int n) {
  __shared__ float s[TPW];
  int pos = blockIdx.x;
  int lane = threadIdx.x;
  unsigned r = state[pos];
  for (int it = 0; it < n; ++it) {
    r = r * 1664525u + 1013904223u;
    int cnt = (pos + 1 < LEN) + (pos > 0);
    if (cnt) {
      s[lane] = (float)(r & 255u) + words[pos];
      __syncthreads();
      out[pos * TPW + lane] += s[TPW - 1 - lane];
      __syncthreads();
    }
  }
  if (lane == 0)
    state[pos] = r;
}
// CHECK-MESSAGES: :[[@LINE-14]]:16: warning: threads of different warps communicate through 'state' with no barrier in between on the paths that skip a conditional barrier; missing __syncthreads() [cuda-warp-synchronous]
// CHECK-NOTES: :[[@LINE-3]]:5: note: another thread writes the element here
// CHECK-NOTES: :[[@LINE-12]]:9: note: the barrier between them is reached only where this condition is true
// CHECK-FIXES: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (lane == 0){{$}}

void launchTrain(unsigned *st, const int *w, float *o, int n) {
  trainWords<<<LEN, TPW>>>(st, w, o, n);
}

// The barrier in an unconditional loop body: assumed to run (no finding).
__global__ void trainAlways(unsigned *state, const int *words, float *out,
                            int n) {
  __shared__ float s[TPW];
  int pos = blockIdx.x;
  int lane = threadIdx.x;
  unsigned r = state[pos];
  for (int it = 0; it < n; ++it) {
    r = r * 1664525u + 1013904223u;
    s[lane] = (float)(r & 255u) + words[pos];
    __syncthreads();
    out[pos * TPW + lane] += s[TPW - 1 - lane];
    __syncthreads();
  }
  if (lane == 0)
    state[pos] = r;
}

void launchAlways(unsigned *st, const int *w, float *o, int n) {
  trainAlways<<<LEN, TPW>>>(st, w, o, n);
}
