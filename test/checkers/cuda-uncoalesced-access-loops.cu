// RUN: %check_cuda_lint %s cuda-uncoalesced-access %t

// Records read whole through a loop counter or a braced initialiser: the
// same bytes as the constant offsets the record rule already exempts, so
// every sector fetched is used in full. Partial reads stay reported.

// A 4-float box read field by field into a local array (the initialiser's
// reads count toward the record like plain declarations).
__global__ void boxArea(float *out, const float *__restrict__ boxes, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  const float *b = boxes + t * 4;
  const float h = b[3] - b[1];
  const float box[5] = {h, b[0], b[1], b[2], b[3]};
  out[t] = (box[3] - box[1]) * box[0];
}

// Only two of the four floats, through an initialiser: still reported.
__global__ void boxCorner(float *out, const float *__restrict__ boxes, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  const float c[2] = {boxes[4 * t], boxes[4 * t + 1]};
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: uncoalesced load from global memory: consecutive threads access elements 4 apart, so a warp request touches 16 32-byte sectors instead of 4 [cuda-uncoalesced-access]
  // CHECK-NOTES: :[[@LINE-2]]:23: note: the kernel has 1 more load from 'boxes' with this lane stride and an index a constant away from this one (line 24): one layout, one finding
  out[t] = c[0] + c[1];
}

// A dot product of 4-vectors: the loop reads a[4t .. 4t+3] (nvcc unrolls it
// into the loads of a[4t] + a[4t+1] + a[4t+2] + a[4t+3]).
__global__ void dot4(float *out, const float *__restrict__ a,
                     const float *__restrict__ b, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  float s = 0;
  for (int i = 0; i < 4; i++)
    s += a[4 * t + i] * b[4 * t + i];
  out[t] = s;
}

// The loop reads only half of each 8-element record: reported.
__global__ void dotHalf(float *out, const float *__restrict__ a, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  float s = 0;
  for (int i = 0; i < 4; i++)
    s += a[8 * t + i];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: uncoalesced load from global memory: consecutive threads access elements 8 apart, so a warp request touches 32 32-byte sectors instead of 4 [cuda-uncoalesced-access]
  out[t] = s;
}

// A loop that may stop early (a data-dependent break): not every element is
// read, reported.
__global__ void dotUntilZero(float *out, const float *__restrict__ a, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  float s = 0;
  for (int i = 0; i < 4; i++) {
    float v = a[4 * t + i];
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: uncoalesced load from global memory: consecutive threads access elements 4 apart, so a warp request touches 16 32-byte sectors instead of 4 [cuda-uncoalesced-access]
    if (v == 0)
      break;
    s += v;
  }
  out[t] = s;
}

// A record of a run-time length, read whole by a loop over it: each request
// is as stated, and whether the sectors stay in L1 across the loop depends
// on the record's length (said in a note).
__global__ void featureSum(float *out, const float *__restrict__ points,
                           int numPoints, int numFeatures) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= numPoints)
    return;
  float s = 0;
  for (int f = 0; f < numFeatures; ++f)
    s += points[p * numFeatures + f];
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: uncoalesced load from global memory: consecutive threads access elements 'numFeatures' apart, so a warp request touches up to 32 32-byte sectors instead of 4 [cuda-uncoalesced-access]
  // CHECK-NOTES: :[[@LINE-7]]:7: note: index 'p' is computed here
  // CHECK-NOTES: :[[@LINE-3]]:10: note: each thread reads all 'numFeatures' elements of its record in this loop: the sectors fetched are used across its iterations while L1 keeps them, so for short records the cost is in L1 requests, not DRAM traffic
  // CHECK-NOTES: :[[@LINE-4]]:10: note: 'points' is only read: load it with consecutive threads reading consecutive elements into a __shared__ tile, then read the tile
  out[p] = s;
}

// The loop stops short of the record: reported as before.
__global__ void featurePrefix(float *out, const float *__restrict__ points,
                              int numPoints, int numFeatures, int k) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= numPoints)
    return;
  float s = 0;
  for (int f = 0; f < k; ++f)
    s += points[p * numFeatures + f];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: uncoalesced load from global memory: consecutive threads access elements 'numFeatures' apart, so a warp request touches up to 32 32-byte sectors instead of 4 [cuda-uncoalesced-access]
  out[p] = s;
}

// Stores through the whole-record loop are still reported (each store is a
// request of its own).
__global__ void featureClear(float *points, int numPoints, int numFeatures) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= numPoints)
    return;
  for (int f = 0; f < numFeatures; ++f)
    points[p * numFeatures + f] = 0;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: uncoalesced store to global memory: consecutive threads access elements 'numFeatures' apart, so a warp request touches up to 32 32-byte sectors instead of 4 [cuda-uncoalesced-access]
}
