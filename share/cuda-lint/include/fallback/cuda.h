// cuda-lint fallback: stands in for the CUDA toolkit header <cuda.h> when no
// toolkit is installed.
#pragma once
#include "../cuda_lint_fallback.h"
