// RUN: %check_cuda_lint %s cuda-unsynchronized-timing %t

#include <chrono>
#include <cstdio>
#include <ctime>
#include <sys/time.h>

__global__ void work(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = p[i] * 2.0f + 1.0f;
}

double seconds() {
  timeval tv;
  gettimeofday(&tv, nullptr);
  return tv.tv_sec + tv.tv_usec * 1e-6;
}

double syncedSeconds() {
  cudaDeviceSynchronize();
  return seconds();
}

void launch(float *p, int n) { work<<<(n + 255) / 256, 256>>>(p, n); }
void launchAndWait(float *p, int n) {
  work<<<(n + 255) / 256, 256>>>(p, n);
  cudaDeviceSynchronize();
}
void opaque();

#define STOP_TIMER(t) t = std::chrono::steady_clock::now()

// Positives.
void chronoTimer(float *d, int n) {
  auto start = std::chrono::steady_clock::now();
  work<<<(n + 255) / 256, 256>>>(d, n);
  auto stop = std::chrono::steady_clock::now();
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: host timer read after asynchronous GPU work with no synchronization in between: it measures the launch, not the work [cuda-unsynchronized-timing]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the kernel launched here may still be running
  // CHECK-FIXES: {{^}}  work<<<(n + 255) / 256, 256>>>(d, n);{{$}}
  // CHECK-FIXES-NEXT: {{^}}  cudaDeviceSynchronize();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  auto stop = std::chrono::steady_clock::now();{{$}}
  printf("%f\n", std::chrono::duration<double>(stop - start).count());
}

void streamTimer(float *d, int n, cudaStream_t s) {
  double t0 = seconds();
  for (int r = 0; r < 10; ++r)
    work<<<(n + 255) / 256, 256, 0, s>>>(d, n);
  double t1 = seconds();
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: host timer read after asynchronous GPU work
  // CHECK-NOTES: :[[@LINE-3]]:5: note: the kernel launched here may still be running
  // CHECK-FIXES: {{^}}    work<<<(n + 255) / 256, 256, 0, s>>>(d, n);{{$}}
  // CHECK-FIXES-NEXT: {{^}}  cudaStreamSynchronize(s);{{$}}
  // CHECK-FIXES-NEXT: {{^}}  double t1 = seconds();{{$}}
  printf("%f\n", t1 - t0);
}

void clockAndCopy(float *d, const float *h, int n) {
  clock_t c0 = clock();
  cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  if (n > 0) {
    clock_t c1 = clock();
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: host timer read after asynchronous GPU work
    // CHECK-NOTES: :[[@LINE-4]]:3: note: 'cudaMemcpyAsync' returns before the GPU work it queues is done
    // CHECK-FIXES: {{^}}  if (n > 0) {{{$}}
    // CHECK-FIXES-NEXT: {{^}}    cudaDeviceSynchronize();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    clock_t c1 = clock();{{$}}
    printf("%ld\n", (long)(c1 - c0));
  }
}

// Through a host function that launches and does not wait; the timer read
// through a wrapper.
void wrapped(float *d, int n, bool check) {
  double t0 = seconds();
  launch(d, n);
  if (check)
    printf("launched\n");
  double t1 = seconds();
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: host timer read after asynchronous GPU work
  // CHECK-NOTES: :[[@LINE-5]]:3: note: 'launch' returns before the GPU work it queues is done
  // CHECK-FIXES: {{^}}    printf("launched\n");{{$}}
  // CHECK-FIXES-NEXT: {{^}}  cudaDeviceSynchronize();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  double t1 = seconds();{{$}}
  printf("%f\n", t1 - t0);
}

// Reported without a fix: the timer read in a macro, in a condition.
void noFix(float *d, int n) {
  auto a = std::chrono::steady_clock::now();
  auto b = a;
  work<<<1, 256>>>(d, n);
  STOP_TIMER(b);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: host timer read after asynchronous GPU work
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the kernel launched here may still be running
  // CHECK-NOTES: :[[@LINE-3]]:3: note: no automatic fix: the timer is read in a macro
  work<<<1, 256>>>(d, n);
  if (seconds() > 0)
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: host timer read after asynchronous GPU work
    // CHECK-NOTES: :[[@LINE-3]]:3: note: the kernel launched here may still be running
    // CHECK-NOTES: :[[@LINE-3]]:7: note: no automatic fix: the timer is read in a condition or a nested statement
    printf("%f\n", std::chrono::duration<double>(b - a).count());
}

// Negatives: synchronized on every path, by a call, a synchronous copy, a
// function that waits, or a timer that waits itself; events; a timer read
// before any launch; a start timer after an untimed warm-up; an unknown
// function in between; host-only code.
void synchronized(float *d, float *h, int n, cudaStream_t s) {
  auto t0 = std::chrono::high_resolution_clock::now();
  work<<<1, 256>>>(d, n);
  cudaDeviceSynchronize();
  auto t1 = std::chrono::high_resolution_clock::now();
  work<<<1, 256, 0, s>>>(d, n);
  cudaStreamSynchronize(s);
  auto t2 = std::chrono::high_resolution_clock::now();
  work<<<1, 256>>>(d, n);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  auto t3 = std::chrono::high_resolution_clock::now();
  launchAndWait(d, n);
  auto t4 = std::chrono::high_resolution_clock::now();
  work<<<1, 256>>>(d, n);
  double t5 = syncedSeconds();
  work<<<1, 256>>>(d, n);
  opaque();
  double t6 = seconds();
  printf("%f %f %f\n", std::chrono::duration<double>(t4 - t0).count(),
         std::chrono::duration<double>(t3 - t1).count(), t5 + t6);
  (void)t2;
}

void events(float *d, int n) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  work<<<1, 256>>>(d, n);
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  double host = seconds();
  printf("%f %f\n", ms, host);
}

void warmUp(float *d, int n) {
  work<<<1, 256>>>(d, n); // warm-up, not timed
  double start = seconds();
  for (int r = 0; r < 10; ++r)
    work<<<1, 256>>>(d, n);
  cudaDeviceSynchronize();
  double stop = seconds();
  printf("%f\n", stop - start);
}

void timedLoop(float *d, int n) {
  for (int r = 0; r < 10; ++r) {
    double t0 = seconds();
    work<<<1, 256>>>(d, n);
    cudaDeviceSynchronize();
    double t1 = seconds();
    printf("%f\n", t1 - t0);
  }
}

// Synchronized on some paths only: taken as deliberate (the paths that
// skip the synchronization often cannot happen together), including a
// loop of stream synchronizations that the CFG lets run zero times.
void conditionalSync(float *d, int n, bool last) {
  double t0 = seconds();
  work<<<1, 256>>>(d, n);
  if (last)
    cudaDeviceSynchronize();
  double t1 = seconds();
  printf("%f\n", t1 - t0);
}
void streamsLoop(float *d, int n, cudaStream_t *streams, int count) {
  double t0 = seconds();
  for (int s = 0; s < count; ++s)
    work<<<1, 256, 0, streams[s]>>>(d + s * 256, n);
  for (int s = 0; s < count; ++s)
    cudaStreamSynchronize(streams[s]);
  double t1 = seconds();
  printf("%f\n", t1 - t0);
}

// An empty kernel: the timer measures the launch on purpose (launch-rate
// benchmarks).
__global__ void empty() {}
void launchRate() {
  double t0 = seconds();
  empty<<<1, 1>>>();
  double t1 = seconds();
  printf("%f\n", t1 - t0);
}

double hostOnly() {
  double t0 = seconds();
  double s = 0;
  for (int i = 0; i < 1000; ++i)
    s += i;
  return seconds() - t0 + s;
}

// A scoped timer reads the clock in its destructor: no statement to report
// or to insert before (not reported).
struct ScopedTimer {
  double t0 = seconds();
  ~ScopedTimer() { printf("%f\n", seconds() - t0); }
};
void scoped(float *d, int n) {
  ScopedTimer t;
  work<<<1, 256>>>(d, n);
}

// Templates: one report for the template, fixed once.
template <typename T> void timedT(T *d, int n) {
  double t0 = seconds();
  work<<<1, 256>>>(d, n);
  double t1 = seconds();
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: host timer read after asynchronous GPU work
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the kernel launched here may still be running
  // CHECK-FIXES: {{^}}template <typename T> void timedT(T *d, int n) {{{$}}
  // CHECK-FIXES-NEXT: {{^}}  double t0 = seconds();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  work<<<1, 256>>>(d, n);{{$}}
  // CHECK-FIXES-NEXT: {{^}}  cudaDeviceSynchronize();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  double t1 = seconds();{{$}}
  printf("%f\n", t1 - t0);
}
void instantiate(float *d) {
  timedT(d, 1);
  timedT<float>(d, 2);
}

// Device code reads the device clock: not a host timer.
__global__ void deviceClock(long long *out) {
  long long c = clock64();
  out[threadIdx.x] = clock() + c;
}
