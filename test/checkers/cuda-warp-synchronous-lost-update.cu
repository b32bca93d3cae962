// RUN: %check_cuda_lint %s cuda-warp-synchronous %t

// A read-modify-write that every thread of the block makes of one element
// (`v = A[0]; A[0] = v + 1;`, `p[0]++`) loses the other threads' updates.
// A barrier between the read and the write would remove the race but not
// the loss, so none is offered: the fix is an atomic operation, or one
// thread making the update (GPUVerify's writeafterread_addition and
// test_for_benign_read_write_bug).

// A counter bumped by every thread: the kernel never asks which thread it
// is, yet runs in all 64 threads of the launch.
__global__ void bumpAll(int *A) {
  int v = A[0];
  A[0] = v + 1;
  // CHECK-MESSAGES: :[[@LINE-2]]:11: warning: every thread reads and writes one element of 'A' with no atomic operation; the updates of concurrent threads are lost [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: another thread writes the element here
  // CHECK-NOTES: :[[@LINE-4]]:11: note: for example, thread 0 reads 'A[0]', which thread 32 writes (in blocks of 64 threads, as launched here)
  // CHECK-NOTES: :[[@LINE-5]]:11: note: no automatic fix: a barrier would not keep the other threads' updates; use an atomic operation, or let one thread make the update
}

__global__ void incrementAll(short *p) {
  p[0]++;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every thread reads and writes one element of 'p' with no atomic operation; the updates of concurrent threads are lost [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: another thread writes the element here
  // CHECK-NOTES: :[[@LINE-3]]:3: note: for example, thread 0 reads 'p[0]', which thread 32 writes (in blocks of 128 threads, as launched here)
  // CHECK-NOTES: :[[@LINE-4]]:3: note: no automatic fix: a barrier would not keep the other threads' updates; use an atomic operation, or let one thread make the update
}

// With the thread index used elsewhere.
__global__ void bumpBeside(int *A, float *B) {
  B[threadIdx.x] = 0.0f;
  A[0] += 1;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every thread reads and writes one element of 'A' with no atomic operation; the updates of concurrent threads are lost [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: another thread writes the element here
  // CHECK-NOTES: :[[@LINE-3]]:3: note: for example, thread 0 reads 'A[0]', which thread 32 writes (in blocks of 64 threads, as launched here)
  // CHECK-NOTES: :[[@LINE-4]]:3: note: no automatic fix: a barrier would not keep the other threads' updates; use an atomic operation, or let one thread make the update
}

// At an element a parameter names.
__global__ void bumpAt(float *A, int k) {
  A[k] = A[k] + 1.0f;
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: every thread reads and writes one element of 'A' with no atomic operation; the updates of concurrent threads are lost [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: another thread writes the element here
  // CHECK-NOTES: :[[@LINE-3]]:10: note: for example, thread 0 reads the element of 'A' that thread 32 writes, whatever 'k' is (in blocks of 256 threads, as launched here)
  // CHECK-NOTES: :[[@LINE-4]]:10: note: no automatic fix: a barrier would not keep the other threads' updates; use an atomic operation, or let one thread make the update
}

// Negatives.

// One thread does it (launched with one thread).
__global__ void bumpOnce(int *A) {
  A[0] += 1;
}

// An atomic operation.
__global__ void bumpAtomic(int *A) {
  atomicAdd(&A[0], 1);
}

// Every thread stores the same value: whichever comes last, it stays.
__global__ void sameValue(int *A, int i) {
  A[i] = threadIdx.x / 64;
}

// The value read is stored back unchanged: whichever thread comes last,
// the element keeps it (GPUVerify's benign writeafterread).
__global__ void storeBack(int *A) {
  int v;
  v = A[0];
  A[0] = v;
}

// No launch here says how many threads run it.
__global__ void notLaunched(int *A) {
  A[0] += 1;
}

int main() {
  int *A;
  float *F;
  bumpAll<<<1, 64>>>(A);
  incrementAll<<<2, 128>>>((short *)A);
  bumpBeside<<<1, 64>>>(A, F);
  bumpAt<<<4, 256>>>(F, 3);
  bumpOnce<<<1, 1>>>(A);
  bumpAtomic<<<1, 64>>>(A);
  sameValue<<<4, 64>>>(A, 0);
  storeBack<<<1, 64>>>(A);
}
