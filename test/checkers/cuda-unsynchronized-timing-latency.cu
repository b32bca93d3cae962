// RUN: %check_cuda_lint %s cuda-unsynchronized-timing %t

#include <chrono>
#include <cstdio>

// A program that measures the launch call's own latency on purpose: the
// clock is read right after the launch call (the API time), the device is
// waited for, and the clock is read again (the total time); both intervals
// are reported. The first read is not a timing mistake.

using Clock = std::chrono::high_resolution_clock;

__global__ void step(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] += 1.0f;
}

double ms(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

void graphLatency(cudaGraphExec_t exec, cudaStream_t s, int reps) {
  for (int r = 0; r < reps; ++r) {
    auto begin = Clock::now();
    cudaGraphLaunch(exec, s);
    auto issued = Clock::now();
    cudaStreamSynchronize(s);
    auto finished = Clock::now();
    printf("api %f total %f\n", ms(begin, issued), ms(begin, finished));
    std::chrono::duration<double> api = issued - begin;
    std::chrono::duration<double> total = finished - begin;
    printf("%f %f\n", api.count(), total.count());
  }
}

void launchLatency(float *d, int n) {
  Clock::time_point t0, t1, t2;
  t0 = Clock::now();
  step<<<(n + 255) / 256, 256>>>(d, n);
  t1 = Clock::now();
  cudaDeviceSynchronize();
  t2 = Clock::now();
  printf("%f %f\n", std::chrono::duration<double>(t1 - t0).count(),
         std::chrono::duration<double>(t2 - t0).count());
}

// Look-alikes that stay findings.

// The clock read after the synchronization starts the next interval: the
// first interval ends before the work is done.
void nextIntervalStarts(float *d, int n) {
  auto start = Clock::now();
  step<<<(n + 255) / 256, 256>>>(d, n);
  auto stop = Clock::now();
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: host timer read after asynchronous GPU work with no synchronization in between: it measures the launch, not the work [cuda-unsynchronized-timing]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the kernel launched here may still be running
  // CHECK-FIXES: {{^}}void nextIntervalStarts(float *d, int n) {{{$}}
  // CHECK-FIXES: {{^}}  cudaDeviceSynchronize();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  auto stop = Clock::now();{{$}}
  printf("%f\n", std::chrono::duration<double>(stop - start).count());
  cudaDeviceSynchronize();
  start = Clock::now();
  step<<<(n + 255) / 256, 256>>>(d, n);
  cudaDeviceSynchronize();
  stop = Clock::now();
  printf("%f\n", std::chrono::duration<double>(stop - start).count());
}

// No synchronization before the next clock read.
void noSyncAfter(float *d, int n) {
  auto t0 = Clock::now();
  step<<<(n + 255) / 256, 256>>>(d, n);
  auto t1 = Clock::now();
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: host timer read after asynchronous GPU work with no synchronization in between: it measures the launch, not the work [cuda-unsynchronized-timing]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the kernel launched here may still be running
  // CHECK-FIXES: {{^}}void noSyncAfter(float *d, int n) {{{$}}
  // CHECK-FIXES: {{^}}  cudaDeviceSynchronize();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  auto t1 = Clock::now();{{$}}
  // (t2 follows another clock read: the check reports the first.)
  auto t2 = Clock::now();
  printf("%f %f\n", std::chrono::duration<double>(t1 - t0).count(),
         std::chrono::duration<double>(t2 - t0).count());
}

// Synchronized on one path only.
void syncOnOnePath(float *d, int n, bool check) {
  auto t0 = Clock::now();
  step<<<(n + 255) / 256, 256>>>(d, n);
  auto t1 = Clock::now();
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: host timer read after asynchronous GPU work with no synchronization in between: it measures the launch, not the work [cuda-unsynchronized-timing]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the kernel launched here may still be running
  // CHECK-FIXES: {{^}}void syncOnOnePath(float *d, int n, bool check) {{{$}}
  // CHECK-FIXES: {{^}}  cudaDeviceSynchronize();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  auto t1 = Clock::now();{{$}}
  if (check)
    cudaDeviceSynchronize();
  auto t2 = Clock::now();
  printf("%f %f\n", std::chrono::duration<double>(t1 - t0).count(),
         std::chrono::duration<double>(t2 - t0).count());
}

// A call the analysis cannot see into is no synchronization to rely on.
void flushLogs();
void opaqueBetween(float *d, int n) {
  auto t0 = Clock::now();
  step<<<(n + 255) / 256, 256>>>(d, n);
  auto t1 = Clock::now();
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: host timer read after asynchronous GPU work with no synchronization in between: it measures the launch, not the work [cuda-unsynchronized-timing]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the kernel launched here may still be running
  // CHECK-FIXES: {{^}}void opaqueBetween(float *d, int n) {{{$}}
  // CHECK-FIXES: {{^}}  cudaDeviceSynchronize();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  auto t1 = Clock::now();{{$}}
  flushLogs();
  auto t2 = Clock::now();
  printf("%f %f\n", std::chrono::duration<double>(t1 - t0).count(),
         std::chrono::duration<double>(t2 - t0).count());
}
