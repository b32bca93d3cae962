// RUN: %check_cuda_lint %s cuda-warp-synchronous %t

// Kernels often take their pointers in a struct passed by value
// (`Params P; P.out[i]`). An access through a pointer field of such a
// parameter, however deep (`q.v.p[i]`), is an access to that field's array
// (issue 29; GPUVerify's fresh_arrays struct_char, struct_nested, inherit).
// Two fields are two arrays.

struct Buf {
  float *p;
};
struct Nested {
  Buf v;
};
struct Derived : Buf {};
struct Params {
  float *out;
  const float *in;
  int n;
};

// Every thread stores its own id to element 0.
__global__ void one(Buf q) {
  q.p[0] = threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: threads write different values to one element of 'q.p' with no barrier in between; which value remains is undefined [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: for example, thread 0 writes 'q.p[0]', which thread 32 writes (in blocks of 128 threads, as launched here)
}

__global__ void nested(Nested q) {
  q.v.p[0] = threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: threads write different values to one element of 'q.v.p' with no barrier in between; which value remains is undefined [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: for example, thread 0 writes 'q.v.p[0]', which thread 32 writes (in blocks of 128 threads, as launched here)
}

// A field of a base class is a field of the parameter.
__global__ void inherited(Derived q) {
  q.p[0] = threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: threads write different values to one element of 'q.p' with no barrier in between; which value remains is undefined [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: for example, thread 0 writes 'q.p[0]', which thread 32 writes (in blocks of 128 threads, as launched here)
}

// A neighbour's element read back with no barrier.
__global__ void neighbour(Params P) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  P.out[i] = P.in[i];
  float v = P.out[i + 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: threads of different warps communicate through 'P.out' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: another thread writes the element here
  // CHECK-NOTES: :[[@LINE-3]]:13: note: for example, thread 31 reads 'P.out[32]', which thread 32 writes (in blocks of 128 threads, as launched here)
  P.out[i] = v;
  // The barriers go before the read and before the write back.
  // CHECK-FIXES: {{^}}  P.out[i] = P.in[i];{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  float v = P.out[i + 1];{{$}}
  // CHECK-FIXES: {{^}}  __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  P.out[i] = v;{{$}}
}

// Negatives: each thread its own element; two fields are two arrays; a
// struct reached through a pointer (`P->out`) is not followed.
__global__ void own(Params P) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  P.out[i] = P.in[i] * 2.0f;
  P.out[i] += 1.0f;
}

__global__ void twoFields(Params P) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  P.out[i] = 1.0f;
  float v = P.in[i + 1];
  P.out[i] = v;
}

__global__ void throughPointer(Params *P) {
  P->out[0] = threadIdx.x;
}

int main() {
  Buf b;
  Nested n;
  Derived d;
  Params p;
  one<<<4, 128>>>(b);
  nested<<<4, 128>>>(n);
  inherited<<<4, 128>>>(d);
  neighbour<<<4, 128>>>(p);
  own<<<4, 128>>>(p);
  twoFields<<<4, 128>>>(p);
  throughPointer<<<4, 128>>>(&p);
}
