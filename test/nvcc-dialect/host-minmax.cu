// nvcc's math headers declare min and max for the host as well as the
// device (int, unsigned, long, long long, float, double, and mixed signs);
// clang's CUDA headers only for the device. Host code that calls them is
// analysed with the rest of the file: the launch's block size, computed with
// the host `min`, and the kernel's double-precision multiply are seen.
// RUN: %check_cuda_lint %s cuda-double-promotion %t -- -config="{CheckOptions: {cuda-double-promotion.ReportNarrowed: true}}" --min-impact=low

__global__ void scale(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = p[i] * 0.5;
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: double-precision literal '0.5' in a float operation that nvcc computes in float; the 'f' suffix makes that explicit [cuda-double-promotion]
  // CHECK-FIXES: {{^}}    p[i] = p[i] * 0.5f;{{$}}
}

int largest(int a, int b) { return max(a, b); }
unsigned smallest(unsigned a, int b) { return min(a, b); }
long long smallestLL(long long a, long long b) { return min(a, b); }
double largestD(double a, float b) { return max(a, b); }

void launch(float *p, int n) {
  int threads = min(n, 256);
  scale<<<(n + threads - 1) / threads, threads>>>(p, n);
}

// On the device, clang's own overloads are still chosen.
__global__ void clampAll(int *p, unsigned *u) {
  p[threadIdx.x] = max(p[threadIdx.x], 0) + min(u[0], 7u);
}
