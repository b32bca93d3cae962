// The fix removes the division sequence: `div`/`rem` before, none after.
// REQUIRES: nvcc
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/decode.cu
// RUN: %nvcc -ptx -arch=sm_90 %t/decode.cu -o %t/before.ptx
// RUN: FileCheck --check-prefix=BEFORE --input-file=%t/before.ptx %s
// RUN: %cuda_lint %t/decode.cu --fix --checks='-*,cuda-integer-division' --
// RUN: FileCheck --check-prefix=FIXED --input-file=%t/decode.cu %s
// RUN: %nvcc -ptx -arch=sm_90 %t/decode.cu -o %t/after.ptx
// RUN: FileCheck --check-prefix=AFTER --input-file=%t/after.ptx %s

__global__ void decode(int *out, int n, int rowShift, unsigned bits) {
  const int rowLen = 1 << rowShift;
  for (int lin = blockIdx.x * blockDim.x + threadIdx.x; lin < n;
       lin += gridDim.x * blockDim.x) {
    int row = lin / rowLen;
    int col = lin % rowLen;
    unsigned h = (unsigned)lin * 2654435761u;
    out[lin] = row * 3 + col + (int)(h & 0x7fffffff) % (1 << bits);
  }
}

// FIXED: int row = lin >> rowShift;
// FIXED: int col = lin & (rowLen - 1);
// FIXED: out[lin] = row * 3 + col + ((int)(h & 0x7fffffff) & ((1 << bits) - 1));

// BEFORE-LABEL: .entry {{.*}}decode
// BEFORE: {{div|rem}}.{{[su]}}32
// BEFORE: ret;

// AFTER-LABEL: .entry {{.*}}decode
// AFTER-NOT: {{(div|rem)\.}}
// AFTER: ret;
