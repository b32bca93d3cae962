// RUN: %check_cuda_lint %s cuda-uncoalesced-access %t

// A read of the bytes the same thread has just stored, with nothing between
// that could change memory or the index: the compiler keeps the value in a
// register and issues no load. The strided stores stay reported; the load of
// a load-and-store after a store of the same element is gone, so it is
// reported as a store.

// Each thread normalises its row of k weights (a t-SNE perplexity search).
__global__ void normalise(float *__restrict__ P,
                          const float *__restrict__ dist, float *entropy,
                          int n, int k, float beta) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const int ik = i * k;
  float sum = 1e-12f;
  for (int j = 0; j < k; j++) {
    P[ik + j] = __expf(-dist[ik + j] * beta);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: uncoalesced store to global memory: consecutive threads access elements 'k' apart, so a warp request touches up to 32 32-byte sectors instead of 4 [cuda-uncoalesced-access]
    // CHECK-MESSAGES: :[[@LINE-2]]:25: warning: uncoalesced load from global memory: consecutive threads access elements 'k' apart
    sum += P[ik + j];
  }
  const float div = __fdividef(1.0f, sum);
  float h = 0.f;
  for (int j = 0; j < k; j++) {
    P[ik + j] *= div;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: uncoalesced load from and store to global memory: consecutive threads access elements 'k' apart
    h += dist[ik + j] * P[ik + j];
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: uncoalesced load from global memory: consecutive threads access elements 'k' apart
  }
  entropy[i] = h;
}

// Stored, then scaled in place: the load of `*=` is forwarded from the
// first store, so the second line is a store only.
__global__ void scale_rows(float *__restrict__ p, const float *__restrict__ d,
                           float *__restrict__ out, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float t = 0.f;
  for (int j = 0; j < n; j++) {
    p[i * n + j] = d[i * n + j] * s;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: uncoalesced store to global memory: consecutive threads access elements 'n' apart
    // CHECK-MESSAGES: :[[@LINE-2]]:20: warning: uncoalesced load from global memory: consecutive threads access elements 'n' apart
    p[i * n + j] *= s;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: uncoalesced store to global memory: consecutive threads access elements 'n' apart
    t += p[i * n + j];
  }
  out[i] = t;
}

__device__ void touch(float *q, int at) { q[at] = 0.f; }

// Something between the store and the read may change the element: the read
// loads it again and stays reported.
__global__ void reloaded(float *p, float *q, const float *__restrict__ d,
                         float *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float t = 0.f;
  for (int j = 0; j < n; j++) {
    p[i * n + j] = d[i * n + j];
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: uncoalesced store to global memory: consecutive threads access elements 'n' apart
    // CHECK-MESSAGES: :[[@LINE-2]]:20: warning: uncoalesced load from global memory: consecutive threads access elements 'n' apart
    q[j] = 1.f; // may alias p
    t += p[i * n + j];
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: uncoalesced load from global memory: consecutive threads access elements 'n' apart
  }
  for (int j = 0; j < n; j++) {
    p[i * n + j] = 2.f;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: uncoalesced store to global memory: consecutive threads access elements 'n' apart
    touch(q, j);
    t += p[i * n + j];
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: uncoalesced load from global memory: consecutive threads access elements 'n' apart
  }
  for (int j = 0; j < n; j++) {
    p[i * n + j] = 3.f;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: uncoalesced store to global memory: consecutive threads access elements 'n' apart
    __syncthreads();
    t += p[i * n + j];
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: uncoalesced load from global memory: consecutive threads access elements 'n' apart
  }
  // The index moves between the store and the read: another element.
  int j = 0;
  while (j < n) {
    p[i * n + j] = 4.f;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: uncoalesced store to global memory: consecutive threads access elements 'n' apart
    j++;
    t += p[i * n + j];
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: uncoalesced load from global memory: consecutive threads access elements 'n' apart
  }
  out[i] = t;
}

// The stored element tested in the condition of an `if` right after the
// store (stsg's STSG_filter): the if's branches, which store, run after
// the test and do not count; nor does the loop's back edge when the next
// iteration stores the element again first. A store in the condition's
// other operand does.
__global__ void tested(float *__restrict__ trend, int *__restrict__ hits,
                       const float *__restrict__ d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int count = 0;
  for (int k = 0; k < n; k++) {
    trend[i * n + k] = d[i * n + k] * 2.f;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: uncoalesced store to global memory: consecutive threads access elements 'n' apart
    // CHECK-MESSAGES: :[[@LINE-2]]:24: warning: uncoalesced load from global memory: consecutive threads access elements 'n' apart
    if (trend[i * n + k] != 0) {
      hits[count++] = k;
    } else {
      hits[count] = -1;
    }
  }
  for (int k = 0; k < n; k++) {
    trend[i * n + k] = 1.f;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: uncoalesced store to global memory: consecutive threads access elements 'n' apart
    if ((hits[k] = 0) == 0 && trend[i * n + k] > 0)
      // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: uncoalesced load from global memory: consecutive threads access elements 'n' apart
      count++;
  }
  hits[i] = count;
}

void run(float *P, const float *dist, float *e, int n, int k, float *q) {
  tested<<<n / 256, 256>>>(P, (int *)q, dist, n);
  normalise<<<n / 256, 256>>>(P, dist, e, n, k, 2.f);
  scale_rows<<<n / 256, 256>>>(P, dist, e, n, 2.f);
  reloaded<<<n / 256, 256>>>(P, q, dist, e, n);
}
