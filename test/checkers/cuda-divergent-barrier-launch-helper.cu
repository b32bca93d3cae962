// RUN: %check_cuda_lint %s cuda-divergent-barrier %t

// A block-stride loop over a kernel parameter runs equally often in every
// thread when the bound is a multiple of the step. The launch may sit in a
// helper that passes its own parameter on, with the multiple made by the
// caller (`n *= 1024; launchScaled(n);`): where the translation unit holds
// every call of the helper, each call's argument decides.
#define NT 256

__global__ void countScaled(const int *in, int *out, int n) {
  __shared__ int s_total;
  int found = 0;
  for (int p = threadIdx.x; p < n; p += NT) {
    if (threadIdx.x == 0)
      s_total = in[p];
    __syncthreads();
    found += s_total;
    if (found < 3) {
      out[p] = found;
      __syncthreads();
    }
  }
  __syncthreads();
  out[threadIdx.x] = found;
}

static void launchScaled(const int *in, int *out, int n) {
  countScaled<<<8, NT>>>(in, out, n);
}

// Two levels of helpers, the second one passing a product.
__global__ void countNested(const int *in, int *out, int n) {
  __shared__ int s_total;
  int found = 0;
  for (int p = threadIdx.x; p < n; p += NT) {
    if (threadIdx.x == 0)
      s_total = in[p];
    __syncthreads();
    found += s_total;
    if (found < 3) {
      out[p] = found;
      __syncthreads();
    }
  }
  __syncthreads();
  out[threadIdx.x] = found;
}

static void launchNested(const int *in, int *out, int n) {
  countNested<<<8, NT>>>(in, out, n);
}

static void runNested(const int *in, int *out, int blocks) {
  launchNested(in, out, blocks * NT);
}

// One call of the helper passes a value not known to be a multiple.
__global__ void countMixed(const int *in, int *out, int n) {
  __shared__ int s_total;
  int found = 0;
  for (int p = threadIdx.x; p < n; p += NT) {
    if (threadIdx.x == 0)
      s_total = in[p];
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads' is reached by every thread of the block only if 'n' is a multiple of the loop's step 256; {{.*}}
    // CHECK-NOTES: :[[@LINE-5]]:29: note: the threads run this loop equally often only when its bound is a multiple of its step
    found += s_total;
    if (found < 3) {
      out[p] = found;
      __syncthreads();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: '__syncthreads' is reached by every thread of the block only if 'n' is a multiple of the loop's step 256; {{.*}}
      // CHECK-NOTES: :[[@LINE-11]]:29: note: the threads run this loop equally often only when its bound is a multiple of its step
      // CHECK-NOTES: :[[@LINE-5]]:9: note: this condition differs between threads only through the iterations of that loop
    }
  }
  __syncthreads();
  out[threadIdx.x] = found;
}

static void launchMixed(const int *in, int *out, int n) {
  countMixed<<<8, NT>>>(in, out, n);
}

// A helper meant for C may be called from another file with any value.
__global__ void countExtern(const int *in, int *out, int n) {
  __shared__ int s_total;
  int found = 0;
  for (int p = threadIdx.x; p < n; p += NT) {
    if (threadIdx.x == 0)
      s_total = in[p];
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads' is reached by every thread of the block only if 'n' is a multiple of the loop's step 256; {{.*}}
    // CHECK-NOTES: :[[@LINE-5]]:29: note: the threads run this loop equally often only when its bound is a multiple of its step
    found += s_total;
    if (found < 3) {
      out[p] = found;
      __syncthreads();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: '__syncthreads' is reached by every thread of the block only if 'n' is a multiple of the loop's step 256; {{.*}}
      // CHECK-NOTES: :[[@LINE-11]]:29: note: the threads run this loop equally often only when its bound is a multiple of its step
      // CHECK-NOTES: :[[@LINE-5]]:9: note: this condition differs between threads only through the iterations of that loop
    }
  }
  __syncthreads();
  out[threadIdx.x] = found;
}

extern "C" void launchExtern(const int *in, int *out, int n) {
  countExtern<<<8, NT>>>(in, out, n);
}

// A helper whose parameter is changed before the launch: its own write
// decides, not the callers' value.
__global__ void countChanged(const int *in, int *out, int n) {
  __shared__ int s_total;
  int found = 0;
  for (int p = threadIdx.x; p < n; p += NT) {
    if (threadIdx.x == 0)
      s_total = in[p];
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads' is reached by every thread of the block only if 'n' is a multiple of the loop's step 256; {{.*}}
    // CHECK-NOTES: :[[@LINE-5]]:29: note: the threads run this loop equally often only when its bound is a multiple of its step
    found += s_total;
    if (found < 3) {
      out[p] = found;
      __syncthreads();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: '__syncthreads' is reached by every thread of the block only if 'n' is a multiple of the loop's step 256; {{.*}}
      // CHECK-NOTES: :[[@LINE-11]]:29: note: the threads run this loop equally often only when its bound is a multiple of its step
      // CHECK-NOTES: :[[@LINE-5]]:9: note: this condition differs between threads only through the iterations of that loop
    }
  }
  __syncthreads();
  out[threadIdx.x] = found;
}

static void launchChanged(const int *in, int *out, int n) {
  n += 1;
  countChanged<<<8, NT>>>(in, out, n);
}

// The helper is called in a loop, after the multiple is made in a block
// around it: the write reaches every call.
__global__ void countLooped(const int *in, int *out, int n) {
  __shared__ int s_total;
  int found = 0;
  for (int p = threadIdx.x; p < n; p += NT) {
    if (threadIdx.x == 0)
      s_total = in[p];
    __syncthreads();
    found += s_total;
    if (found < 3) {
      out[p] = found;
      __syncthreads();
    }
  }
  __syncthreads();
  out[threadIdx.x] = found;
}

static void launchLooped(const int *in, int *out, int n) {
  countLooped<<<8, NT>>>(in, out, n);
}

// The loop changes the value after the call: the next call sees that.
__global__ void countRewritten(const int *in, int *out, int n) {
  __shared__ int s_total;
  int found = 0;
  for (int p = threadIdx.x; p < n; p += NT) {
    if (threadIdx.x == 0)
      s_total = in[p];
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads' is reached by every thread of the block only if 'n' is a multiple of the loop's step 256; {{.*}}
    // CHECK-NOTES: :[[@LINE-5]]:29: note: the threads run this loop equally often only when its bound is a multiple of its step
    found += s_total;
    if (found < 3) {
      out[p] = found;
      __syncthreads();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: '__syncthreads' is reached by every thread of the block only if 'n' is a multiple of the loop's step 256; {{.*}}
      // CHECK-NOTES: :[[@LINE-11]]:29: note: the threads run this loop equally often only when its bound is a multiple of its step
      // CHECK-NOTES: :[[@LINE-5]]:9: note: this condition differs between threads only through the iterations of that loop
    }
  }
  __syncthreads();
  out[threadIdx.x] = found;
}

static void launchRewritten(const int *in, int *out, int n) {
  countRewritten<<<8, NT>>>(in, out, n);
}

static void runLoops(const int *in, int *out, int reps, int m) {
  int n = m * 1024;
  for (int r = 0; r < reps; ++r) {
    if (r > 0)
      out = out + 1;
    launchLooped(in, out, n);
  }
  int k = m * 1024;
  for (int r = 0; r < reps; ++r) {
    launchRewritten(in, out, k);
    k += 1;
  }
}

// The value is parsed from the command line through its address, then
// made a multiple (`parse(argc, argv, &n); n *= 1024;`); the kernel's
// cache preference is set by name, which launches nothing.
__global__ void countParsed(const int *in, int *out, int n) {
  __shared__ int s_total;
  int found = 0;
  for (int p = threadIdx.x; p < n; p += NT) {
    if (threadIdx.x == 0)
      s_total = in[p];
    __syncthreads();
    found += s_total;
    if (found < 3) {
      out[p] = found;
      __syncthreads();
    }
  }
  __syncthreads();
  out[threadIdx.x] = found;
}

static void launchParsed(const int *in, int *out, int n) {
  cudaFuncSetCacheConfig(countParsed, cudaFuncCachePreferL1);
  countParsed<<<8, NT>>>(in, out, n);
}

// Parsed after it was made a multiple: the parsed value reaches the launch.
__global__ void countParsedLast(const int *in, int *out, int n) {
  __shared__ int s_total;
  int found = 0;
  for (int p = threadIdx.x; p < n; p += NT) {
    if (threadIdx.x == 0)
      s_total = in[p];
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads' is reached by every thread of the block only if 'n' is a multiple of the loop's step 256; {{.*}}
    // CHECK-NOTES: :[[@LINE-5]]:29: note: the threads run this loop equally often only when its bound is a multiple of its step
    found += s_total;
    if (found < 3) {
      out[p] = found;
      __syncthreads();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: '__syncthreads' is reached by every thread of the block only if 'n' is a multiple of the loop's step 256; {{.*}}
      // CHECK-NOTES: :[[@LINE-11]]:29: note: the threads run this loop equally often only when its bound is a multiple of its step
      // CHECK-NOTES: :[[@LINE-5]]:9: note: this condition differs between threads only through the iterations of that loop
    }
  }
  __syncthreads();
  out[threadIdx.x] = found;
}

static void launchParsedLast(const int *in, int *out, int n) {
  countParsedLast<<<8, NT>>>(in, out, n);
}

static void parseInt(int argc, char **argv, int *value) {
  if (argc > 1)
    *value = argv[1][0];
}

static void runParsed(int argc, char **argv, const int *in, int *out) {
  int n = 32;
  parseInt(argc, argv, &n);
  n *= 1024;
  launchParsed(in, out, n);
  int m = 32 * 1024;
  parseInt(argc, argv, &m);
  launchParsedLast(in, out, m);
}

int main(int argc, char **argv) {
  int *in = nullptr, *out = nullptr;
  int n = argc;
  n *= 1024;
  launchScaled(in, out, n);
  runNested(in, out, argc);
  launchMixed(in, out, n);
  launchMixed(in, out, argc);
  launchExtern(in, out, n);
  launchChanged(in, out, n);
  runLoops(in, out, argc, argc);
  runParsed(argc, argv, in, out);
  return 0;
}
