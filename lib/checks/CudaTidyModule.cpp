//===--- CudaTidyModule.cpp - cuda-lint -----------------------------------===//
//
// The `cuda` clang-tidy module: every cuda-lint check, registered under its
// `cuda-<name>` name. The same module is linked into the cuda-lint driver and
// into the clang-tidy plugin.
//
//===----------------------------------------------------------------------===//

#include "ConstantDivergentAccessCheck.h"
#include "DivergentBarrierCheck.h"
#include "DoublePromotionCheck.h"
#include "IntegerDivisionCheck.h"
#include "LaunchShapeCheck.h"
#include "LegacyRuntimeApiCheck.h"
#include "LegacyWarpIntrinsicCheck.h"
#include "LocalMemoryArrayCheck.h"
#include "MissingRestrictCheck.h"
#include "PageableAsyncCopyCheck.h"
#include "RestrictAliasingCheck.h"
#include "SharedBankConflictCheck.h"
#include "UncoalescedAccessCheck.h"
#include "UnsynchronizedTimingCheck.h"
#include "WarpSynchronousCheck.h"
#include "clang-tidy/ClangTidyModule.h"

namespace clang::tidy::cuda {

class CudaModule : public ClangTidyModule {
public:
  void addCheckFactories(ClangTidyCheckFactories &CheckFactories) override {
    CheckFactories.registerCheck<ConstantDivergentAccessCheck>(
        "cuda-constant-divergent-access");
    CheckFactories.registerCheck<DoublePromotionCheck>("cuda-double-promotion");
    CheckFactories.registerCheck<DivergentBarrierCheck>(
        "cuda-divergent-barrier");
    CheckFactories.registerCheck<LaunchShapeCheck>("cuda-launch-shape");
    CheckFactories.registerCheck<LegacyRuntimeApiCheck>(
        "cuda-legacy-runtime-api");
    CheckFactories.registerCheck<LegacyWarpIntrinsicCheck>(
        "cuda-legacy-warp-intrinsic");
    CheckFactories.registerCheck<LocalMemoryArrayCheck>(
        "cuda-local-memory-array");
    CheckFactories.registerCheck<RestrictAliasingCheck>(
        "cuda-restrict-aliasing");
    CheckFactories.registerCheck<SharedBankConflictCheck>(
        "cuda-shared-bank-conflict");
    CheckFactories.registerCheck<UncoalescedAccessCheck>(
        "cuda-uncoalesced-access");
    CheckFactories.registerCheck<UnsynchronizedTimingCheck>(
        "cuda-unsynchronized-timing");
    CheckFactories.registerCheck<IntegerDivisionCheck>("cuda-integer-division");
    CheckFactories.registerCheck<MissingRestrictCheck>("cuda-missing-restrict");
    CheckFactories.registerCheck<PageableAsyncCopyCheck>(
        "cuda-pageable-async-copy");
    CheckFactories.registerCheck<WarpSynchronousCheck>("cuda-warp-synchronous");
  }
};

// Register the module with clang-tidy's module registry.
static ClangTidyModuleRegistry::Add<CudaModule>
    X("cuda-module", "Adds the CUDA performance and correctness checks.");

} // namespace clang::tidy::cuda

namespace clang::tidy {
// This anchor is used to force the linker to link in the generated object
// file and thus register the module.
volatile int CudaModuleAnchorSource = 0; // NOLINT(misc-use-internal-linkage)
} // namespace clang::tidy
