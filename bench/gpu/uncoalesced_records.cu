// What a per-thread record costs on the GPU at hand when each thread reads
// or writes it whole, against the same data in a structure of arrays and
// against the textbook strided store of one element per record, for records
// of 2 to 16 floats or doubles. cuda-uncoalesced-access leaves unreported
// the short ones these figures show cost nothing (records read whole of up
// to 8 elements, written whole of up to 16 bytes) and reports the longer
// ones with a note that quotes them. Each kernel does nothing but the
// access measured, so the ratios are the most the layout can cost; timed
// with CUDA events over many launches
// (bench/results/2026-11-29-h200-uncoalesced-records.md).
//
//   nvcc -O3 -arch=sm_90 -std=c++17 bench/gpu/uncoalesced_records.cu -o ur &&
//   ./ur

#include "bench_timing.cuh"

// Each thread writes all S elements of its record: out[S * i + k].
template <typename T, int S> __global__ void wholeRecord(T *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
#pragma unroll
    for (int k = 0; k < S; ++k)
      out[S * i + k] = (T)(i + k);
  }
}

// The same values, structure of arrays: out[k * n + i].
template <typename T, int S> __global__ void coalesced(T *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
#pragma unroll
    for (int k = 0; k < S; ++k)
      out[k * n + i] = (T)(i + k);
  }
}

// One element of each record: the strided store the check reports.
template <typename T, int S> __global__ void oneOfRecord(T *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[S * i] = (T)i;
}

// Each thread reads all S elements of its record and writes one sum
// (coalesced): the whole-record load, against the same sums read from a
// structure of arrays.
template <typename T, int S>
__global__ void readRecord(T *sum, const T *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    T s = 0;
#pragma unroll
    for (int k = 0; k < S; ++k)
      s += in[S * i + k];
    sum[i] = s;
  }
}
template <typename T, int S>
__global__ void readCoalesced(T *sum, const T *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    T s = 0;
#pragma unroll
    for (int k = 0; k < S; ++k)
      s += in[k * n + i];
    sum[i] = s;
  }
}

// The same element count, coalesced.
template <typename T> __global__ void oneCoalesced(T *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = (T)i;
}

template <typename T, int S>
static int run(const char *Name, void *Buf, void *Sums) {
  const int N = 1 << 24, Block = 256, Grid = (N + Block - 1) / Block;
  T *Out = static_cast<T *>(Buf), *Sum = static_cast<T *>(Sums);
  float Whole = timeIt([&] { wholeRecord<T, S><<<Grid, Block>>>(Out, N); }, 50);
  float Soa = timeIt([&] { coalesced<T, S><<<Grid, Block>>>(Out, N); }, 50);
  float One = timeIt([&] { oneOfRecord<T, S><<<Grid, Block>>>(Out, N); }, 50);
  float OneC = timeIt([&] { oneCoalesced<T><<<Grid, Block>>>(Out, N); }, 50);
  float Read =
      timeIt([&] { readRecord<T, S><<<Grid, Block>>>(Sum, Out, N); }, 50);
  float ReadC =
      timeIt([&] { readCoalesced<T, S><<<Grid, Block>>>(Sum, Out, N); }, 50);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::printf("| %s (%d bytes) | %.4f | %.4f | %.2fx | %.4f | %.4f | %.2fx | "
              "%.2fx |\n",
              Name, (int)(S * sizeof(T)), Whole, Soa, Whole / Soa, Read, ReadC,
              Read / ReadC, One / OneC);
  return 0;
}

int main() {
  void *Buf, *Sums;
  CHECK(cudaMalloc(&Buf, sizeof(double) * 16 * (1 << 24)));
  CHECK(cudaMalloc(&Sums, sizeof(double) * (1 << 24)));
  std::printf("| record | whole store ms | coalesced ms | ratio | whole load "
              "ms | coalesced ms | ratio | one element stored, ratio |\n");
  std::printf("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
  int Rc = run<float, 2>("2 floats", Buf, Sums) |
           run<float, 3>("3 floats", Buf, Sums) |
           run<float, 4>("4 floats", Buf, Sums) |
           run<float, 7>("7 floats", Buf, Sums) |
           run<float, 8>("8 floats", Buf, Sums) |
           run<float, 16>("16 floats", Buf, Sums) |
           run<double, 2>("2 doubles", Buf, Sums) |
           run<double, 4>("4 doubles", Buf, Sums) |
           run<double, 8>("8 doubles", Buf, Sums) |
           run<double, 16>("16 doubles", Buf, Sums);
  CHECK(cudaFree(Buf));
  CHECK(cudaFree(Sums));
  return Rc;
}
