// The rule in the PTX and in the SASS. `.local`/`ld.local` in the PTX is
// nvcc's placement; ptxas may move the array back to registers. The SASS
// side is ptxas's stack frame (`-Xptxas -v`, per kernel): 0 bytes means no
// LDL/STL at all.
// - trig: a loop of 32 sinf calls that nvcc keeps rolled. The array is in
//   local memory in the PTX and the SASS (160-byte stack frame: 128 for
//   `acc`, 32 for sinf's own slow path); after the fix (`#pragma unroll`)
//   only sinf's 32 bytes are left.
// - rolled: the same loop with powf: the PTX has `.local`, but ptxas keeps
//   `acc` in registers (0 bytes, before and after); reported with a message
//   that says so, and fixed (the rolled loop is the cost).
// - unrolled: a loop of 8 iterations that nvcc unrolls on its own: no
//   `.local` anywhere, not reported.
// - runTime: a 16-float table read at a data index in a loop: local memory
//   in both (64 bytes), reported.
// - smallTable: the same with 4 floats: `.local` in the PTX, but ptxas
//   selects between registers (0 bytes): not reported. (With 8 floats and
//   `& 7` ptxas keeps 32 bytes, with `% 8` none: tables of up to 8 32-bit
//   elements are not reported, a missed finding rather than a false one.)
// REQUIRES: nvcc
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/acc.cu
// RUN: %nvcc -ptx -arch=sm_90 %t/acc.cu -o %t/before.ptx
// RUN: FileCheck --check-prefix=BEFORE --input-file=%t/before.ptx %s
// RUN: %nvcc -cubin -arch=sm_90 -Xptxas -v %t/acc.cu -o %t/before.cubin 2>&1 | awk '/Function properties for/ {k = $NF} /bytes stack frame/ {print k, $1}' | FileCheck --check-prefix=SASS-BEFORE %s
// RUN: %cuda_lint %t/acc.cu --fix --checks='-*,cuda-local-memory-array' -- | FileCheck --check-prefix=DIAG %s
// RUN: FileCheck --check-prefix=FIXED --input-file=%t/acc.cu %s
// RUN: %nvcc -ptx -arch=sm_90 %t/acc.cu -o %t/after.ptx
// RUN: FileCheck --check-prefix=AFTER --input-file=%t/after.ptx %s
// RUN: %nvcc -cubin -arch=sm_90 -Xptxas -v %t/acc.cu -o %t/after.cubin 2>&1 | awk '/Function properties for/ {k = $NF} /bytes stack frame/ {print k, $1}' | FileCheck --check-prefix=SASS-AFTER %s

__global__ void trig(const float *in, float *out, int n) {
  float acc[32];
  for (int k = 0; k < 32; ++k)
    acc[k] = sinf(in[k * n + threadIdx.x]);
  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < 32; ++k)
    s += acc[k] * acc[31 - k];
  out[threadIdx.x] = s;
}

__global__ void rolled(const float *in, float *out, int n) {
  float acc[32];
  for (int k = 0; k < 32; ++k)
    acc[k] = powf(in[k * n + threadIdx.x], 1.7f);
  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < 32; ++k)
    s += acc[k] * acc[31 - k];
  out[threadIdx.x] = s;
}

__global__ void unrolled(const float *in, float *out, int n) {
  float acc[8];
  for (int k = 0; k < 8; ++k)
    acc[k] = powf(in[k * n + threadIdx.x], 1.7f);
  float s = 0.0f;
  for (int k = 0; k < 8; ++k)
    s += acc[k] * acc[7 - k];
  out[threadIdx.x] = s;
}

__global__ void runTime(const float *in, const int *idx, float *out, int n) {
  float acc[16];
#pragma unroll
  for (int k = 0; k < 16; ++k)
    acc[k] = in[k];
  float s = 0.0f;
  for (int i = 0; i < n; ++i)
    s += acc[idx[i] & 15];
  out[threadIdx.x] = s;
}

__global__ void smallTable(const float *in, const int *idx, float *out, int n) {
  float acc[4];
#pragma unroll
  for (int k = 0; k < 4; ++k)
    acc[k] = in[k];
  float s = 0.0f;
  for (int i = 0; i < n; ++i)
    s += acc[idx[i] & 3];
  out[threadIdx.x] = s;
}

// DIAG: acc.cu:34:5: warning: per-thread array 'acc' is indexed by the counter of a loop of 32 iterations that nvcc does not unroll on its own, so it is placed in local memory
// DIAG: acc.cu:45:5: warning: per-thread array 'acc' is indexed by the counter of a loop of 32 iterations that nvcc does not unroll on its own, so the loop runs with run-time indices into the array (nvcc's PTX places it in local memory; ptxas moves it back to registers)
// DIAG-NOT: acc.cu:{{.*}}warning
// DIAG: acc.cu:70:10: warning: per-thread array 'acc' is indexed with a value known only at run time
// DIAG-NOT: acc.cu:{{.*}}warning

// FIXED: float acc[32];
// FIXED-NEXT: {{^}}  #pragma unroll{{$}}
// FIXED-NEXT: {{^}}  for (int k = 0; k < 32; ++k){{$}}
// FIXED-NEXT: {{^}}    acc[k] = sinf(
// FIXED: float acc[32];
// FIXED-NEXT: {{^}}  #pragma unroll{{$}}
// FIXED-NEXT: {{^}}  for (int k = 0; k < 32; ++k){{$}}
// FIXED-NEXT: {{^}}    acc[k] = powf(

// BEFORE-LABEL: .entry {{.*}}trig
// BEFORE: st.local
// BEFORE-LABEL: .entry {{.*}}rolled
// BEFORE: .local
// BEFORE: st.local
// BEFORE: ld.local
// BEFORE-LABEL: .entry {{.*}}unrolled
// BEFORE-NOT: .local
// BEFORE: ret;
// BEFORE-LABEL: .entry {{.*}}runTime
// BEFORE: ld.local
// BEFORE-LABEL: .entry {{.*}}smallTable
// BEFORE: ld.local

// SASS-BEFORE-DAG: {{^}}_Z4trigPKfPfi 160{{$}}
// SASS-BEFORE-DAG: {{^}}_Z6rolledPKfPfi 0{{$}}
// SASS-BEFORE-DAG: {{^}}_Z8unrolledPKfPfi 0{{$}}
// SASS-BEFORE-DAG: {{^}}_Z7runTimePKfPKiPfi 64{{$}}
// SASS-BEFORE-DAG: {{^}}_Z10smallTablePKfPKiPfi 0{{$}}

// AFTER-LABEL: .entry {{.*}}rolled
// AFTER-NOT: .local
// AFTER: ret;
// AFTER-LABEL: .entry {{.*}}unrolled
// AFTER-NOT: .local
// AFTER: ret;
// AFTER-LABEL: .entry {{.*}}runTime
// AFTER: ld.local

// SASS-AFTER-DAG: {{^}}_Z4trigPKfPfi 32{{$}}
// SASS-AFTER-DAG: {{^}}_Z6rolledPKfPfi 0{{$}}
// SASS-AFTER-DAG: {{^}}_Z7runTimePKfPKiPfi 64{{$}}
