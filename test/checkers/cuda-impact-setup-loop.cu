// RUN: %check_cuda_lint -check-suffixes=ALL %s cuda-double-promotion %t-all -- --min-impact=low
// RUN: %check_cuda_lint -check-suffixes=DEFAULT %s cuda-double-promotion %t-default

// Code that is cold within its kernel ranks low (at most 30) even when the
// host runs the kernel in a loop: a loop at least 1024 times lighter than
// the kernel's hottest loop nest (a shared tile filled before the main
// nest), or code run once per thread beside a nest of at least 1024
// iterations. The fourth sealed audit called such findings, ranked medium,
// "right but not worth acting on".

#define NDIM 128
#define NPTS 16384

// The look-alike: a 4-iteration fill of a shared tile before a main loop of
// 1024 iterations with 32 inner iterations each.
__global__ void matchTile(const float *d1, const float *d2, float *out,
                          float bias) {
  __shared__ float buf[8 * NDIM];
  int tx = threadIdx.x, ty = threadIdx.y;
  for (int k = 0; k < 4; k++)
    buf[ty * NDIM + k * 32 + tx] = d1[ty * NDIM + k * 32 + tx] * 0.3 + bias;
  // CHECK-MESSAGES-ALL: :[[@LINE-1]]:66: warning: double-precision literal '0.3' promotes float arithmetic to double [cuda-double-promotion]
  // CHECK-NOTES-ALL: :[[@LINE-2]]:66: note: impact: low (rank 30/100): in a loop about 8192 times lighter than the hottest loop nest of kernel 'matchTile'; kernel 'matchTile' is launched in a host loop
  // CHECK-FIXES-DEFAULT: {{^}}    buf[ty * NDIM + k * 32 + tx] = d1[ty * NDIM + k * 32 + tx] * 0.3 + bias;{{$}}
  // CHECK-FIXES-ALL: {{^}}    buf[ty * NDIM + k * 32 + tx] = d1[ty * NDIM + k * 32 + tx] * 0.3f + bias;{{$}}
  __syncthreads();
  float acc = 0;
  for (int bp = 0; bp < NPTS; bp += 16)
    for (int d = 0; d < NDIM; d += 4)
      acc += buf[tx * NDIM + d] * d2[bp * NDIM + d + tx] * 0.7;
  // CHECK-MESSAGES-ALL: :[[@LINE-1]]:60: warning: double-precision literal '0.7' promotes float arithmetic to double [cuda-double-promotion]
  // CHECK-NOTES-ALL: :[[@LINE-2]]:60: note: impact: high (rank 85/100): in a loop nest of depth 2 (32768 iterations); kernel 'matchTile' is launched in a host loop
  // CHECK-MESSAGES-DEFAULT: :[[@LINE-3]]:60: warning: double-precision literal '0.7'
  out[ty * 32 + tx] = acc * 0.9 + bias;
  // CHECK-MESSAGES-ALL: :[[@LINE-1]]:29: warning: double-precision literal '0.9' promotes float arithmetic to double [cuda-double-promotion]
  // CHECK-NOTES-ALL: :[[@LINE-2]]:29: note: impact: low (rank 30/100): once per thread, outside the loops of kernel 'matchTile'; kernel 'matchTile' is launched in a host loop
}

// Beside one loop of unknown trip count, code run once per thread is not
// known to be cold: medium.
__global__ void rowScale(const float *in, float *out, int w, float bias) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int c = 0; c < w; ++c)
    s += in[r * w + c];
  out[r] = s * 0.9 + bias;
  // CHECK-MESSAGES-ALL: :[[@LINE-1]]:16: warning: double-precision literal '0.9' promotes float arithmetic to double [cuda-double-promotion]
  // CHECK-NOTES-ALL: :[[@LINE-2]]:16: note: impact: medium (rank 40/100): once per thread, outside the loops of kernel 'rowScale'; kernel 'rowScale' is launched in a host loop
  // CHECK-MESSAGES-DEFAULT: :[[@LINE-3]]:16: warning: double-precision literal '0.9'
}

int main() {
  for (int it = 0; it < 100; ++it) {
    matchTile<<<1024, dim3(32, 8)>>>(nullptr, nullptr, nullptr, 1.0f);
    rowScale<<<1024, 256>>>(nullptr, nullptr, 64, 1.0f);
  }
}
