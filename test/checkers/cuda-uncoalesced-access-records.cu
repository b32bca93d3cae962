// RUN: %check_cuda_lint %s cuda-uncoalesced-access %t
// RUN: %check_cuda_lint -check-suffix=WHOLE %s cuda-uncoalesced-access %t -- -config="{CheckOptions: {cuda-uncoalesced-access.ReportWholeRecords: true, cuda-uncoalesced-access.GroupLayouts: false}}"

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

// A record of 16 floats read whole: a load-bound kernel ran up to 2x slower
// than with a coalesced layout, so it stays reported, with a note (records
// of up to 8 elements cost at most 1.05x and are not).
__global__ void matrices(const float *m, float *trace) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int k = 0; k < 16; ++k)
    s += m[16 * t + k];
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: uncoalesced load from global memory: consecutive threads access elements 16 apart, so a warp request touches 32 32-byte sectors instead of 4 [cuda-uncoalesced-access]
  // CHECK-NOTES: :[[@LINE-2]]:10: note: each thread reads 64 of the 64 bytes of its record, so DRAM traffic is close to a coalesced layout's, but each request still touches a sector per lane: on an H200 a kernel bound by such loads ran up to 2x slower than with a coalesced layout
  // CHECK-NOTES-WHOLE: :[[@LINE-3]]:10: warning: uncoalesced load from global memory: consecutive threads access elements 16 apart
  trace[t] = s;
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
  // CHECK-NOTES: :[[@LINE-2]]:14: note: the kernel has 1 more load from 'a' with this lane stride and an index a constant away from this one (line 71): one layout, one finding
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

// A thread that writes its whole record of at most 16 bytes: the warp's
// stores together fill every sector they touch and cost at most 1.15x a
// coalesced layout when store-bound (H200,
// bench/results/2026-11-29-h200-uncoalesced-records.md). Not reported by
// default, as for a record read whole.
__global__ void storeRecord(float *a) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  a[2 * tid] = 0.0f;
  // CHECK-NOTES-WHOLE: :[[@LINE-1]]:3: warning: uncoalesced store to global memory: consecutive threads access elements 2 apart, so a warp request touches 8 32-byte sectors instead of 4 [cuda-uncoalesced-access]
  // CHECK-NOTES-WHOLE: :[[@LINE-3]]:7: note: index 'tid' is computed here
  // CHECK-NOTES-WHOLE: :[[@LINE-3]]:3: note: each thread writes all 2 elements of its record, so the warp's stores together fill the sectors they touch: the cost is in L2 requests, not DRAM traffic
  a[2 * tid + 1] = 1.0f;
  // CHECK-NOTES-WHOLE: :[[@LINE-1]]:3: warning: uncoalesced store to global memory: consecutive threads access elements 2 apart, so a warp request touches 8 32-byte sectors instead of 4 [cuda-uncoalesced-access]
  // CHECK-NOTES-WHOLE: :[[@LINE-7]]:7: note: index 'tid' is computed here
  // CHECK-NOTES-WHOLE: :[[@LINE-3]]:3: note: each thread writes all 2 elements of its record, so the warp's stores together fill the sectors they touch: the cost is in L2 requests, not DRAM traffic
}

// Eight doubles per element through a local base, as lulesh's forces: a
// record of 64 bytes written whole still costs 6x when store-bound (a
// sector per lane and request), so it stays reported, with a note.
__global__ void elementForces(double *fx, const double *b, int n) {
  int i2 = blockIdx.x * blockDim.x + threadIdx.x;
  if (i2 < n) {
    int i3 = 8 * i2;
    double v = b[i2];
    fx[i3 + 0] = v;
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: uncoalesced store to global memory: consecutive threads access elements 8 apart, so a warp request touches 32 32-byte sectors instead of 8 [cuda-uncoalesced-access]
    // CHECK-NOTES: :[[@LINE-2]]:5: note: each thread writes 64 of the 64 bytes of its record, so DRAM traffic is close to a coalesced layout's, but each request still touches a sector per lane: on an H200 a kernel bound by such stores ran 5x to 13x slower than with a coalesced layout
    // CHECK-NOTES: :[[@LINE-3]]:5: note: the kernel has 7 more stores to 'fx' with this lane stride and an index a constant away from this one (lines 132 to 149): one layout, one finding
    // CHECK-NOTES-WHOLE: :[[@LINE-4]]:5: warning: uncoalesced store to global memory: consecutive threads access elements 8 apart, so a warp request touches 32 32-byte sectors instead of 8 [cuda-uncoalesced-access]
    fx[i3 + 1] = -v;
    // CHECK-MESSAGES-WHOLE: :[[@LINE-1]]:5: warning: uncoalesced store
    fx[i3 + 2] = 2.0 * v;
    // CHECK-MESSAGES-WHOLE: :[[@LINE-1]]:5: warning: uncoalesced store
    fx[i3 + 3] = -2.0 * v;
    // CHECK-MESSAGES-WHOLE: :[[@LINE-1]]:5: warning: uncoalesced store
    fx[i3 + 4] = 3.0 * v;
    // CHECK-MESSAGES-WHOLE: :[[@LINE-1]]:5: warning: uncoalesced store
    fx[i3 + 5] = -3.0 * v;
    // CHECK-MESSAGES-WHOLE: :[[@LINE-1]]:5: warning: uncoalesced store
    fx[i3 + 6] = 4.0 * v;
    // CHECK-MESSAGES-WHOLE: :[[@LINE-1]]:5: warning: uncoalesced store
    fx[i3 + 7] = -4.0 * v;
    // CHECK-MESSAGES-WHOLE: :[[@LINE-1]]:5: warning: uncoalesced store
  }
}

// Seven floats per thread in blocks of six threads, as a box list: 28
// bytes, reported.
__global__ void boxes(float *out, const float *score) {
  int i = blockIdx.x * 6 + threadIdx.x;
  float s = score[i];
  for (int k = 0; k < 7; ++k)
    out[i * 7 + k] = s * k;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: uncoalesced store to global memory: consecutive threads access elements 7 apart, so a warp request touches 5 32-byte sectors instead of 1 (blocks of 6 threads) [cuda-uncoalesced-access]
  // CHECK-MESSAGES-WHOLE: :[[@LINE-2]]:5: warning: uncoalesced store
}
void launchBoxes(float *out, const float *score) {
  boxes<<<216, 6>>>(out, score);
}

// A store of all but one element of each record stays reported: the
// sectors it touches are partly written.
__global__ void storeMostOfRecord(double *fx, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  fx[4 * i] = 0.0;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: uncoalesced store to global memory: consecutive threads access elements 4 apart, so a warp request touches 32 32-byte sectors instead of 8 [cuda-uncoalesced-access]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: the kernel has 2 more stores to 'fx' with this lane stride and an index a constant away from this one (lines 172 to 178): one layout, one finding
  // CHECK-MESSAGES-WHOLE: :[[@LINE-3]]:3: warning: uncoalesced store
  fx[4 * i + 1] = 1.0;
  // CHECK-MESSAGES-WHOLE: :[[@LINE-1]]:3: warning: uncoalesced store
  fx[4 * i + 2] = 2.0;
  // CHECK-MESSAGES-WHOLE: :[[@LINE-1]]:3: warning: uncoalesced store
}

// A record whose last element is written only on a branch: where the
// branch is not taken, the sectors are partly written. The stores that run
// together are judged together.
__global__ void flags(bool *info, int w) {
  int tx = threadIdx.x;
  bool *offs = info + tx * 3;
  *offs = tx >= w;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: uncoalesced store to global memory: consecutive threads access elements 3 apart, so a warp request touches 3 32-byte sectors instead of 1 [cuda-uncoalesced-access]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: the kernel has 2 more stores to 'info' with this lane stride and an index a constant away from this one (lines 188 to 195): one layout, one finding
  // CHECK-MESSAGES-WHOLE: :[[@LINE-3]]:3: warning: uncoalesced store
  *(offs + 1) = tx >= 2 * w;
  // CHECK-MESSAGES-WHOLE: :[[@LINE-1]]:3: warning: uncoalesced store
  if (tx >= 3 * w)
    *(offs + 2) = true;
  // CHECK-MESSAGES-WHOLE: :[[@LINE-1]]:5: warning: uncoalesced store
}

// A whole struct and its flag on one branch (written whole, but 28 bytes:
// reported), the flag alone on the other (reported).
struct Cut {
  int leaves[6];
  int used;
};
__global__ void select(Cut *selected, const Cut *cuts, const int *best) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (best[id] >= 0) {
    selected[id] = cuts[best[id]];
    selected[id].used = 1;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: uncoalesced store to global memory: consecutive threads access member 'used' 28 bytes apart, so a warp request touches 28 32-byte sectors instead of 4 [cuda-uncoalesced-access]
    // CHECK-NOTES: :[[@LINE-2]]:5: note: the kernel has 1 more store to 'selected' with this lane stride and an index a constant away from this one (lines 208 to 214): one layout, one finding
    // CHECK-MESSAGES-WHOLE: :[[@LINE-3]]:5: warning: uncoalesced store to global memory: consecutive threads access member 'used' 28 bytes apart, so a warp request touches 28 32-byte sectors instead of 4 [cuda-uncoalesced-access]
  } else {
    selected[id].used = 0;
    // CHECK-MESSAGES-WHOLE: :[[@LINE-1]]:5: warning: uncoalesced store
  }
}

// Loads of one record and stores to another: the stores write only half
// of theirs, so they stay reported though the loads read all of theirs.
__global__ void halfWritten(const float *in, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float x = in[2 * t], y = in[2 * t + 1];
  // CHECK-MESSAGES-WHOLE: :[[@LINE-1]]:13: warning: uncoalesced load
  // CHECK-MESSAGES-WHOLE: :[[@LINE-2]]:28: warning: uncoalesced load
  out[2 * t] = x + y;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: uncoalesced store to global memory: consecutive threads access elements 2 apart, so a warp request touches 8 32-byte sectors instead of 4 [cuda-uncoalesced-access]
  // CHECK-MESSAGES-WHOLE: :[[@LINE-2]]:3: warning: uncoalesced store
}

// The offsets of a loop counter over constant bounds: every value it takes
// is an offset, the loop reads the whole record.
__global__ void loopOffsets(const float *a, float *out) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int k = 0; k < 3; ++k)
    s += a[tid * 3 + k];
  // CHECK-MESSAGES-WHOLE: :[[@LINE-1]]:10: warning: uncoalesced load from global memory: consecutive threads access elements 3 apart, so a warp request touches 12 32-byte sectors instead of 4 [cuda-uncoalesced-access]
  out[tid] = s;
}

// A counter that skips an offset: a third of each record is not read.
__global__ void loopOffsetsStep(const float *a, float *out) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int k = 0; k < 3; k += 2)
    s += a[tid * 3 + k];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: uncoalesced load from global memory: consecutive threads access elements 3 apart, so a warp request touches 12 32-byte sectors instead of 4 [cuda-uncoalesced-access]
  // CHECK-MESSAGES-WHOLE: :[[@LINE-2]]:10: warning: uncoalesced load
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
  // CHECK-NOTES: :[[@LINE-2]]:14: note: the kernel has 1 more load from 'p' with this lane stride and an index a constant away from this one (lines 302 to 308): one layout, one finding
  // CHECK-MESSAGES-WHOLE: :[[@LINE-3]]:14: warning: uncoalesced load
  // CHECK-MESSAGES-WHOLE: :[[@LINE-4]]:25: warning: uncoalesced load
  if (out[tid] > 0.0f)
    out[tid] += p[tid].x;
}
