// RUN: %check_cuda_lint %s cuda-uncoalesced-access %t
// RUN: %check_cuda_lint -check-suffix=WHOLE %s cuda-uncoalesced-access %t -- -config="{CheckOptions: {cuda-uncoalesced-access.ReportWholeRecords: true}}"

// Records of S elements read whole by one thread: the loads through one
// pointer with the same lane stride S and the same non-constant part cover
// every offset mod S, so every sector fetched is used in full across them.
// Not reported by default; ReportWholeRecords reports them with a note.

// A point of three floats: x, y and z of each record.
__global__ void lengths(const float *a, float *len, unsigned n) {
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < n) {
    float x = a[tid * 3];
    // CHECK-NOTES-WHOLE: :[[@LINE-1]]:15: warning: uncoalesced load from global memory: consecutive threads access elements 3 apart, so a warp request touches 12 32-byte sectors instead of 4 [cuda-uncoalesced-access]
    // CHECK-NOTES-WHOLE: :[[@LINE-4]]:12: note: index 'tid' is computed here
    // CHECK-NOTES-WHOLE: :[[@LINE-3]]:15: note: each thread reads all 3 elements of its record, so the sectors fetched are used in full: the cost is in L1 requests, not DRAM traffic
    // CHECK-NOTES-WHOLE: :[[@LINE-4]]:15: note: 'a' is only read: load it with consecutive threads reading consecutive elements into a __shared__ tile, then read the tile
    float y = a[tid * 3 + 1];
    // CHECK-NOTES-WHOLE: :[[@LINE-1]]:15: warning: uncoalesced load from global memory: consecutive threads access elements 3 apart
    // CHECK-NOTES-WHOLE: :[[@LINE-9]]:12: note: index 'tid' is computed here
    // CHECK-NOTES-WHOLE: :[[@LINE-3]]:15: note: each thread reads all 3 elements of its record
    // CHECK-NOTES-WHOLE: :[[@LINE-4]]:15: note: 'a' is only read
    float z = a[tid * 3 + 2];
    // CHECK-NOTES-WHOLE: :[[@LINE-1]]:15: warning: uncoalesced load from global memory: consecutive threads access elements 3 apart
    // CHECK-NOTES-WHOLE: :[[@LINE-14]]:12: note: index 'tid' is computed here
    // CHECK-NOTES-WHOLE: :[[@LINE-3]]:15: note: each thread reads all 3 elements of its record
    // CHECK-NOTES-WHOLE: :[[@LINE-4]]:15: note: 'a' is only read
    len[tid] = sqrtf(x * x + y * y + z * z);
  }
}

// A record of two, written 2 * tid and 2 * tid + 1, in either order, through
// a pointer that is also written elsewhere.
__global__ void pairs(float *a, float *out) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  out[tid] = a[2 * tid + 1] - a[2 * tid];
  // CHECK-MESSAGES-WHOLE: :[[@LINE-1]]:14: warning: uncoalesced load from global memory: consecutive threads access elements 2 apart, so a warp request touches 8 32-byte sectors instead of 4
  // CHECK-MESSAGES-WHOLE: :[[@LINE-2]]:31: warning: uncoalesced load from global memory: consecutive threads access elements 2 apart, so a warp request touches 8 32-byte sectors instead of 4
  a[0] = 0.0f;
}

// Through a local pointer to the record, and by dereference.
__global__ void localRecord(const float *a, float *out) {
  const float *rec = a + (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  out[threadIdx.x] = rec[0] + rec[1] + *(rec + 2) + rec[3];
  // CHECK-MESSAGES-WHOLE: :[[@LINE-1]]:22: warning: uncoalesced load from global memory: consecutive threads access elements 4 apart
  // CHECK-MESSAGES-WHOLE: :[[@LINE-2]]:31: warning: uncoalesced load from global memory: consecutive threads access elements 4 apart
  // CHECK-MESSAGES-WHOLE: :[[@LINE-3]]:40: warning: uncoalesced load from global memory: consecutive threads access elements 4 apart
  // CHECK-MESSAGES-WHOLE: :[[@LINE-4]]:53: warning: uncoalesced load from global memory: consecutive threads access elements 4 apart
}

//===--- Still reported ---------------------------------------------------===//

// Only x and z of a 3-float record: y's bytes are fetched and not used.
__global__ void partial(const float *a, float *out) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  out[tid] = a[tid * 3] + a[tid * 3 + 2];
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: uncoalesced load from global memory: consecutive threads access elements 3 apart, so a warp request touches 12 32-byte sectors instead of 4 [cuda-uncoalesced-access]
  // CHECK-MESSAGES: :[[@LINE-2]]:27: warning: uncoalesced load from global memory: consecutive threads access elements 3 apart, so a warp request touches 12 32-byte sectors instead of 4 [cuda-uncoalesced-access]
  // CHECK-MESSAGES-WHOLE: :[[@LINE-3]]:14: warning: uncoalesced load from global memory: consecutive threads access elements 3 apart
  // CHECK-MESSAGES-WHOLE: :[[@LINE-4]]:27: warning: uncoalesced load from global memory: consecutive threads access elements 3 apart
}

// One member of a record of four: a[tid * 4] alone.
__global__ void firstOnly(const float *a, float *out) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  out[tid] = a[tid * 4];
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: uncoalesced load from global memory: consecutive threads access elements 4 apart, so a warp request touches 16 32-byte sectors instead of 4 [cuda-uncoalesced-access]
  // CHECK-MESSAGES-WHOLE: :[[@LINE-2]]:14: warning: uncoalesced load from global memory: consecutive threads access elements 4 apart
}

// The same residues through different pointers: each pointer is read in
// part.
__global__ void differentBases(const float *a, const float *b, float *out) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  out[tid] = a[2 * tid] + b[2 * tid + 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: uncoalesced load from global memory: consecutive threads access elements 2 apart, so a warp request touches 8 32-byte sectors instead of 4 [cuda-uncoalesced-access]
  // CHECK-MESSAGES: :[[@LINE-2]]:27: warning: uncoalesced load from global memory: consecutive threads access elements 2 apart, so a warp request touches 8 32-byte sectors instead of 4 [cuda-uncoalesced-access]
  // CHECK-MESSAGES-WHOLE: :[[@LINE-3]]:14: warning: uncoalesced load
  // CHECK-MESSAGES-WHOLE: :[[@LINE-4]]:27: warning: uncoalesced load
}

// Different non-constant parts: tid and threadIdx.x are not one record.
__global__ void differentRest(const float *a, float *out) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  out[tid] = a[2 * tid] + a[2 * threadIdx.x + 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: uncoalesced load from global memory: consecutive threads access elements 2 apart
  // CHECK-MESSAGES: :[[@LINE-2]]:27: warning: uncoalesced load from global memory: consecutive threads access elements 2 apart
  // CHECK-MESSAGES-WHOLE: :[[@LINE-3]]:14: warning: uncoalesced load
  // CHECK-MESSAGES-WHOLE: :[[@LINE-4]]:27: warning: uncoalesced load
}

// Stores stay reported, also when a thread writes its whole record: each
// store sends its partial sectors to L2 (not measured here).
__global__ void storeRecord(float *a) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  a[2 * tid] = 0.0f;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: uncoalesced store to global memory: consecutive threads access elements 2 apart, so a warp request touches 8 32-byte sectors instead of 4 [cuda-uncoalesced-access]
  // CHECK-MESSAGES-WHOLE: :[[@LINE-2]]:3: warning: uncoalesced store
  a[2 * tid + 1] = 1.0f;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: uncoalesced store to global memory: consecutive threads access elements 2 apart, so a warp request touches 8 32-byte sectors instead of 4 [cuda-uncoalesced-access]
  // CHECK-MESSAGES-WHOLE: :[[@LINE-2]]:3: warning: uncoalesced store
}

// The counter of a loop with constant bounds stands for the offsets it
// takes: k = 0, 1, 2 reads the whole record, as a[3 * tid], a[3 * tid + 1]
// and a[3 * tid + 2] would (a C-style counter too).
__global__ void loopOffsets(const float *a, const unsigned long *nbr,
                            float *out, int m) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int k = 0; k < 3; ++k)
    s += a[tid * 3 + k];
  // CHECK-MESSAGES-WHOLE: :[[@LINE-1]]:10: warning: uncoalesced load from global memory: consecutive threads access elements 3 apart, so a warp request touches 12 32-byte sectors instead of 4 [cuda-uncoalesced-access]
  // CHECK-NOTES-WHOLE: :[[@LINE-2]]:10: note: each thread reads all 3 elements of its record
  unsigned long k;
  for (k = 0; k <= 3; k++)
    s += nbr[4 * tid + k];
  // CHECK-MESSAGES-WHOLE: :[[@LINE-1]]:10: warning: uncoalesced load
  // CHECK-NOTES-WHOLE: :[[@LINE-2]]:10: note: each thread reads all 4 elements of its record
  // A bound known only at run time, or a loop that covers one offset of
  // three: still reported.
  for (int j = 0; j < m; ++j)
    s += a[tid * 3 + j];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: uncoalesced load from global memory: consecutive threads access elements 3 apart, so a warp request touches 12 32-byte sectors instead of 4 [cuda-uncoalesced-access]
  // CHECK-MESSAGES-WHOLE: :[[@LINE-2]]:10: warning: uncoalesced load
  for (int j = 0; j < 1; ++j)
    s += a[tid * 5 + j];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: uncoalesced load from global memory: consecutive threads access elements 5 apart
  // CHECK-MESSAGES-WHOLE: :[[@LINE-2]]:10: warning: uncoalesced load
  // The counter changed in the body: not the offsets the bounds give.
  for (int j = 0; j < 3; ++j) {
    s += a[tid * 6 + j];
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: uncoalesced load from global memory: consecutive threads access elements 6 apart
    // CHECK-MESSAGES-WHOLE: :[[@LINE-2]]:10: warning: uncoalesced load
    j += m;
  }
  out[tid] = s;
}

//===--- Fields of an array of structs ------------------------------------===//

// A particle of 16 bytes (4-byte aligned, so not one vector load). A kernel
// that reads x, y and z of its particle reads 12 of the 16 bytes: the
// sectors the first read fetches serve the others from L1, and DRAM moves
// 16 bytes for 12 used (at least MostlyReadPercent, 75%): not reported.
// A field read again by the same thread (no new load in the PTX) is
// reported at most once, at its first read.
struct Particle {
  float x, y, z;
  float mass;
};
__global__ void kinetic(const Particle *p, float *r2, int n) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= n)
    return;
  float x = p[tid].x, y = p[tid].y, z = p[tid].z;
  // CHECK-NOTES-WHOLE: :[[@LINE-1]]:13: warning: uncoalesced load from global memory: consecutive threads access member 'x' 16 bytes apart, so a warp request touches 16 32-byte sectors instead of 4 [cuda-uncoalesced-access]
  // CHECK-NOTES-WHOLE: :[[@LINE-5]]:7: note: index 'tid' is computed here
  // CHECK-NOTES-WHOLE: :[[@LINE-3]]:13: note: each thread reads 12 of the 16 bytes of its record, so most of each sector fetched is used: the cost is in L1 requests, not DRAM traffic
  // CHECK-NOTES-WHOLE: :[[@LINE-4]]:13: note: 'p' is only read: load it with consecutive threads reading consecutive elements into a __shared__ tile, then read the tile
  // CHECK-NOTES-WHOLE: :[[@LINE-5]]:27: warning: uncoalesced load from global memory: consecutive threads access member 'y' 16 bytes apart
  // CHECK-NOTES-WHOLE: :[[@LINE-9]]:7: note: index 'tid' is computed here
  // CHECK-NOTES-WHOLE: :[[@LINE-7]]:27: note: each thread reads 12 of the 16 bytes of its record
  // CHECK-NOTES-WHOLE: :[[@LINE-8]]:27: note: 'p' is only read
  // CHECK-NOTES-WHOLE: :[[@LINE-9]]:41: warning: uncoalesced load from global memory: consecutive threads access member 'z' 16 bytes apart
  // CHECK-NOTES-WHOLE: :[[@LINE-13]]:7: note: index 'tid' is computed here
  // CHECK-NOTES-WHOLE: :[[@LINE-11]]:41: note: each thread reads 12 of the 16 bytes of its record
  // CHECK-NOTES-WHOLE: :[[@LINE-12]]:41: note: 'p' is only read
  float d = x * x + y * y + z * z;
  if (d > 1.0f)
    d += p[tid].x * p[tid].y;
  r2[tid] = d;
}

// Three of four floats of each record: 12 of 16 bytes, also mostly read.
__global__ void threeOfFour(const float *a, float *out) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  out[tid] = a[tid * 4] + a[tid * 4 + 1] * a[tid * 4 + 2];
  // CHECK-MESSAGES-WHOLE: :[[@LINE-1]]:14: warning: uncoalesced load from global memory: consecutive threads access elements 4 apart
  // CHECK-MESSAGES-WHOLE: :[[@LINE-2]]:27: warning: uncoalesced load from global memory: consecutive threads access elements 4 apart
  // CHECK-MESSAGES-WHOLE: :[[@LINE-3]]:44: warning: uncoalesced load from global memory: consecutive threads access elements 4 apart
}

// Still reported: x and mass, 8 of the 16 bytes; the re-read of x is not.
__global__ void weighted(const Particle *p, float *out, int n) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= n)
    return;
  out[tid] = p[tid].x * p[tid].mass;
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: uncoalesced load from global memory: consecutive threads access member 'x' 16 bytes apart, so a warp request touches 16 32-byte sectors instead of 4 [cuda-uncoalesced-access]
  // CHECK-MESSAGES: :[[@LINE-2]]:25: warning: uncoalesced load from global memory: consecutive threads access member 'mass' 16 bytes apart, so a warp request touches 16 32-byte sectors instead of 4 [cuda-uncoalesced-access]
  // CHECK-MESSAGES-WHOLE: :[[@LINE-3]]:14: warning: uncoalesced load
  // CHECK-MESSAGES-WHOLE: :[[@LINE-4]]:25: warning: uncoalesced load
  if (out[tid] > 0.0f)
    out[tid] += p[tid].x;
}
