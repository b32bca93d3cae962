// RUN: %check_cuda_lint %s cuda-uncoalesced-access %t -- -config="{CheckOptions: {cuda-uncoalesced-access.GroupLayouts: false}}"
// (GroupLayouts: false: this file tests each access's notes; the records
// test checks one finding per layout.)

// Interleaved channels with a run-time channel count: each thread reads
// channels 0, 1 and 2 of its pixel. Where every launch passes the same
// constant count (directly, or through a const parameter of the launching
// function that every call passes a constant for), the record is measured
// as for a constant stride: 3 of 4 floats read is mostly read, not
// reported. Without a known count, the finding says what it depends on.

__global__ void luminance(const float *__restrict__ in, float *out,
                          unsigned nc, unsigned w) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  float r = in[w * nc * y + x * nc + 0];
  float g = in[w * nc * y + x * nc + 1];
  float b = in[w * nc * y + x * nc + 2];
  out[w * y + x] = 0.2126f * r + 0.7152f * g + 0.0722f * b;
}

void runLuminance(const float *in, float *out, const unsigned numChannels,
                  unsigned w, unsigned h) {
  luminance<<<dim3(w / 16, h / 16), dim3(16, 16)>>>(in, out, numChannels, w);
}

void toneMap(const float *in, float *out, unsigned w, unsigned h) {
  const unsigned numChannels = 4;
  runLuminance(in, out, numChannels, w, h);
}

// The same kernel launched directly with the constant 8: 3 of 8 floats
// read, reported, with the sectors counted at that stride.
__global__ void luminance8(const float *__restrict__ in, float *out,
                           unsigned nc, unsigned w) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  float r = in[x * nc + 0];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: uncoalesced load from global memory: consecutive threads access elements 'nc' (8 at every launch) apart, so a warp request touches 32 32-byte sectors instead of 4 [cuda-uncoalesced-access]
  float g = in[x * nc + 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: uncoalesced load from global memory: consecutive threads access elements 'nc' (8 at every launch) apart
  float b = in[x * nc + 2];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: uncoalesced load from global memory: consecutive threads access elements 'nc' (8 at every launch) apart
  out[x] = r + g + b;
}

void runLuminance8(const float *in, float *out, unsigned w) {
  luminance8<<<w / 256, 256>>>(in, out, 8, w);
}

// No launch in the translation unit: reported, with the fewest sectors
// (records of 2 elements, read whole) and the most, and a note on what the
// cost depends on.
__global__ void luminanceAnyCount(const float *__restrict__ in, float *out,
                                  unsigned nc) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  float r = in[x * nc + 0];
  // CHECK-NOTES: :[[@LINE-1]]:13: warning: uncoalesced load from global memory: consecutive threads access elements 'nc' apart, so a warp request touches 8 to 32 32-byte sectors instead of 4 [cuda-uncoalesced-access]
  // CHECK-NOTES: :[[@LINE-3]]:12: note: index 'x' is computed here
  // CHECK-NOTES: :[[@LINE-3]]:13: note: each thread reads the 2 consecutive elements at offsets 0 to 1 of its record of 'nc': if the record is 2 elements long, that is all of it, the request touches 8 sectors and every byte fetched is used (the cost is in L1 requests, not DRAM traffic); the longer the record, the more of each sector is wasted
  // CHECK-NOTES: :[[@LINE-4]]:13: note: 'in' is only read: load it with consecutive threads reading consecutive elements into a __shared__ tile, then read the tile
  float g = in[x * nc + 1];
  // CHECK-NOTES: :[[@LINE-1]]:13: warning: uncoalesced load from global memory: consecutive threads access elements 'nc' apart, so a warp request touches 8 to 32 32-byte sectors instead of 4 [cuda-uncoalesced-access]
  // CHECK-NOTES: :[[@LINE-8]]:12: note: index 'x' is computed here
  // CHECK-NOTES: :[[@LINE-3]]:13: note: each thread reads the 2 consecutive elements at offsets 0 to 1 of its record of 'nc': if the record is 2 elements long, that is all of it, the request touches 8 sectors and every byte fetched is used (the cost is in L1 requests, not DRAM traffic); the longer the record, the more of each sector is wasted
  // CHECK-NOTES: :[[@LINE-4]]:13: note: 'in' is only read: load it with consecutive threads reading consecutive elements into a __shared__ tile, then read the tile
  out[x] = r + g;
}

// Launched with different counts: not one value, reported as before.
__global__ void luminanceMixed(const float *__restrict__ in, float *out,
                               unsigned nc) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  out[x] = in[x * nc + 0] + in[x * nc + 1] + in[x * nc + 2];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: uncoalesced load from global memory: consecutive threads access elements 'nc' apart
  // CHECK-MESSAGES: :[[@LINE-2]]:29: warning: uncoalesced load from global memory: consecutive threads access elements 'nc' apart
  // CHECK-MESSAGES: :[[@LINE-3]]:46: warning: uncoalesced load from global memory: consecutive threads access elements 'nc' apart
}

void runMixed(const float *in, float *out, unsigned w) {
  luminanceMixed<<<w / 256, 256>>>(in, out, 4);
  luminanceMixed<<<w / 256, 256>>>(in, out, 16);
}

// Offsets past a uniform term that is not a multiple of the record's
// length (`n * n`): not offsets into the record from its start, so no range
// and no note.
__global__ void statsAfterMatrix(const float *__restrict__ res, float *out,
                                 int n) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  const float *r = res + x * (n * n + n);
  out[x] = r[n * n] - r[n * n + 1];
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: uncoalesced load from global memory: consecutive threads access elements 'n + n * n' apart, so a warp request touches up to 32 32-byte sectors instead of 4 [cuda-uncoalesced-access]
  // CHECK-NOTES: :[[@LINE-4]]:12: note: index 'x' is computed here
  // CHECK-NOTES: :[[@LINE-3]]:12: note: 'res' is only read: load it with consecutive threads reading consecutive elements into a __shared__ tile, then read the tile
  // CHECK-NOTES: :[[@LINE-4]]:23: warning: uncoalesced load from global memory: consecutive threads access elements 'n + n * n' apart, so a warp request touches up to 32 32-byte sectors instead of 4 [cuda-uncoalesced-access]
  // CHECK-NOTES: :[[@LINE-7]]:12: note: index 'x' is computed here
  // CHECK-NOTES: :[[@LINE-6]]:23: note: 'res' is only read: load it with consecutive threads reading consecutive elements into a __shared__ tile, then read the tile
}
