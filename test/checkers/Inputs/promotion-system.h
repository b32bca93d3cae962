// A system header (included through -isystem): findings are not reported in
// it, and macros defined in it are not rewritten.
#pragma once
#define SYS_HALF 0.5
__device__ inline float sysScale(float v) { return v * 0.1; }
