// cuda-lint fallback: stands in for the CUDA toolkit header <driver_types.h> when no
// toolkit is installed.
#pragma once
#include "../cuda_lint_fallback.h"
