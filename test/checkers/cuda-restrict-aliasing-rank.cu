// RUN: %check_cuda_lint %s cuda-restrict-aliasing %t

// The rank of cuda-restrict-aliasing: an in-place launch where each thread
// writes back only the elements it has read (formal undefined behaviour, no
// hazard) ranks low, with its reason, and is still shown; an aliased launch
// the check cannot prove in place keeps the model's rank.

__global__ void negate(const float *__restrict__ src, float *__restrict__ dst,
                       int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    dst[i] = -src[i];
}

__global__ void shift(const float *__restrict__ src, float *__restrict__ dst,
                      int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n)
    dst[i] = src[i + 1];
}

void run(float *d, int n) {
  negate<<<(n + 255) / 256, 256>>>(d, d, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: launch passes the same pointer to 'src' and 'dst' of kernel 'negate', both '__restrict__' and one written through: undefined behaviour by the '__restrict__' contract, which works only because each thread reads an element before it writes it at the same index; the compiler may reorder it on any change [cuda-restrict-aliasing]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: impact: low (rank 30/100): each thread writes only the elements it has read, after reading them: no load can see another store
  // CHECK-NOTES: :8:50: note: 'src' is '__restrict__'
  // CHECK-NOTES: :8:75: note: 'dst' is '__restrict__' and written through
  // CHECK-NOTES: :12:12: note: 'dst' is written here
  shift<<<(n + 255) / 256, 256>>>(d, d, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: launch passes the same pointer to 'src' and 'dst' of kernel 'shift', both '__restrict__' and one written through: undefined behaviour by the '__restrict__' contract; loads through the read-only data cache return stale data if an element is read after a store to it, which the check could not rule out [cuda-restrict-aliasing]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: impact: medium (rank 50/100): host code; how often it runs is not known
  // CHECK-NOTES: :15:49: note: 'src' is '__restrict__'
  // CHECK-NOTES: :15:74: note: 'dst' is '__restrict__' and written through
  // CHECK-NOTES: :19:12: note: 'dst' is written here
}
