//===--- WarpSyncAnalysisTest.cpp - cuda-lint unit tests ------------------===//
//
// The thread-index analysis of cuda-warp-synchronous: own-index recognition,
// guard ranges, barrier-free regions and the races between their accesses.
// Independent of a CUDA installation: the snippets declare what they use.
//
//===----------------------------------------------------------------------===//

#include "cudalint/analysis/WarpSyncAnalysis.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::cuda::warpsync;

namespace {

const char *const Preamble = R"cu(
#include "__clang_cuda_builtin_vars.h"
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))
__device__ void __syncthreads();
__device__ void __syncwarp(unsigned mask = 0xffffffffu);
)cu";

struct Result {
  unsigned Races = 0;
  unsigned SameWarp = 0;
  unsigned Regions = 0;
};

/// Analyses every non-dependent function with a body in \p Code and counts
/// the races in the function named \p Name.
Result analyse(const std::string &Code, StringRef Name) {
  std::unique_ptr<ASTUnit> AST = tooling::buildASTFromCodeWithArgs(
      std::string(Preamble) + Code,
      {"-xcuda", "--cuda-device-only", "-nocudainc", "-nocudalib",
       "--cuda-gpu-arch=sm_90", "--cuda-path=/nonexistent",
       "-Wno-unknown-cuda-version",
       "-resource-dir=" CUDA_LINT_TEST_RESOURCE_DIR},
      "input.cu");
  EXPECT_TRUE(AST);
  if (!AST)
    return {};
  ASTContext &Ctx = AST->getASTContext();
  SmallVector<const FunctionDecl *, 8> Fns;
  for (const BoundNodes &N :
       match(functionDecl(isDefinition(), unless(isExpansionInSystemHeader()))
                 .bind("f"),
             Ctx)) {
    const auto *FD = N.getNodeAs<FunctionDecl>("f");
    if (FD->getBody() && !FD->isDependentContext())
      Fns.push_back(FD);
  }
  Analysis A(Ctx);
  for (int Round = 0; Round < 3; ++Round) {
    for (const FunctionDecl *FD : Fns)
      A.collectLocals(FD);
    A.bindParameters(Fns);
  }
  Result R;
  for (const FunctionDecl *FD : Fns) {
    if (FD->getNameAsString() != Name)
      continue;
    Guard Entry;
    Entry.TidHi = 32; // Helpers in these tests run under `tid < 32`.
    if (FD->hasAttr<CUDAGlobalAttr>())
      Entry = Guard();
    A.walkFunction(FD, Entry);
    // As the check does: grid regions (races between blocks only) and the
    // head/head or tail/tail pairs of back-edge regions are not counted.
    for (const auto &Region : A.Regions) {
      if (!Region.empty() && Region.front().GridOnly)
        continue;
      ++R.Regions;
      for (const Access &W : Region)
        for (const Access &Rd : Region) {
          if (!canMeet(W, Rd))
            continue;
          if (std::optional<Race> Rc = raceBetween(W, Rd)) {
            ++R.Races;
            R.SameWarp += Rc->SameWarp;
          }
        }
    }
  }
  return R;
}

TEST(WarpSyncAnalysisTest, FirstReductionStepAloneDoesNotRace) {
  // Reads s[32..63], written before the barrier; writes s[0..31].
  Result R = analyse(R"cu(
__global__ void k(float *o) {
  __shared__ float s[64];
  unsigned tid = threadIdx.x;
  s[tid] = o[tid];
  __syncthreads();
  if (tid < 32)
    s[tid] += s[tid + 32];
  o[tid] = s[tid];
})cu",
                     "k");
  EXPECT_EQ(R.Races, 0u);
  EXPECT_EQ(R.Regions, 2u);
}

TEST(WarpSyncAnalysisTest, SecondReductionStepRacesInsideTheWarp) {
  Result R = analyse(R"cu(
__global__ void k(float *o) {
  __shared__ float s[64];
  unsigned tid = threadIdx.x;
  s[tid] = o[tid];
  __syncthreads();
  if (tid < 32) {
    s[tid] += s[tid + 32];
    s[tid] += s[tid + 16];
  }
})cu",
                     "k");
  // Step 16 reads what step 32 wrote and what step 16 itself writes.
  EXPECT_EQ(R.Races, 2u);
  EXPECT_EQ(R.SameWarp, 2u);
}

TEST(WarpSyncAnalysisTest, HelperParameterBoundToThreadIdx) {
  Result R = analyse(R"cu(
template <unsigned B>
__device__ void warpReduce(volatile int *s, unsigned t) {
  if (B >= 64) s[t] += s[t + 32];
  if (B >= 32) s[t] += s[t + 16];
}
__global__ void k(int *o) {
  __shared__ int s[64];
  unsigned tid = threadIdx.x;
  if (tid < 32)
    warpReduce<64>(s, tid);
})cu",
                     "warpReduce");
  EXPECT_EQ(R.Races, 2u);
  EXPECT_EQ(R.SameWarp, 2u);
}

TEST(WarpSyncAnalysisTest, TemplateConstantSkipsBranch) {
  // For B = 16 neither step runs.
  Result R = analyse(R"cu(
template <unsigned B>
__device__ void warpReduce(volatile int *s, unsigned t) {
  if (B >= 64) s[t] += s[t + 32];
  if (B >= 32) s[t] += s[t + 16];
}
__global__ void k(int *o) {
  __shared__ int s[64];
  unsigned tid = threadIdx.x;
  if (tid < 32)
    warpReduce<16>(s, tid);
})cu",
                     "warpReduce");
  EXPECT_EQ(R.Races, 0u);
}

TEST(WarpSyncAnalysisTest, LaneGuardKeepsScanInsideTheWarp) {
  Result R = analyse(R"cu(
__global__ void k(int *o) {
  __shared__ int s[256];
  int tid = threadIdx.x;
  int lane = tid & 31;
  s[tid] = o[tid];
  __syncthreads();
  if (lane >= 1) s[tid] += s[tid - 1];
})cu",
                     "k");
  EXPECT_EQ(R.Races, 1u);
  EXPECT_EQ(R.SameWarp, 1u);
}

TEST(WarpSyncAnalysisTest, XorExchangeAndCrossWarpRead) {
  Result R = analyse(R"cu(
__global__ void x(float *o) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  s[tid] = o[tid];
  o[tid] = s[tid ^ 1];
}
)cu",
                     "x");
  EXPECT_EQ(R.Races, 1u);
  EXPECT_EQ(R.SameWarp, 1u);
  R = analyse(R"cu(
__global__ void c(float *o) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  s[tid] = o[tid];
  o[tid] = s[tid + 64];
}
)cu",
              "c");
  EXPECT_EQ(R.Races, 1u);
  EXPECT_EQ(R.SameWarp, 0u);
}

TEST(WarpSyncAnalysisTest, BarriersAndPrivateArraysDoNotRace) {
  Result R = analyse(R"cu(
__global__ void k(float *o) {
  __shared__ float s[256];
  float priv[257];
  unsigned tid = threadIdx.x;
  s[tid] = o[tid];
  priv[tid] = 1.0f;
  __syncthreads();
  o[tid] = s[tid + 1] + priv[tid + 1];
  __syncwarp();
  s[tid] = 0.0f;
  s[tid] += 1.0f;
  o[tid] = s[tid];
})cu",
                     "k");
  EXPECT_EQ(R.Races, 0u);
  EXPECT_EQ(R.Regions, 3u);
}

TEST(WarpSyncAnalysisTest, AssignedVariableIsNotAnOwnIndex) {
  Result R = analyse(R"cu(
__global__ void k(float *o) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  tid = tid / 2;
  s[tid] = o[tid];
  o[tid] = s[tid + 1];
})cu",
                     "k");
  EXPECT_EQ(R.Races, 0u);
}

TEST(WarpSyncAnalysisTest, HalvingLoopIsWalkedPerOffset) {
  Result R = analyse(R"cu(
__global__ void k(float *o) {
  __shared__ float s[64];
  unsigned tid = threadIdx.x;
  s[tid] = o[tid];
  __syncthreads();
  if (tid < 32)
    for (int d = 32; d > 0; d >>= 1)
      s[tid] += s[tid + d];
})cu",
                     "k");
  // Offsets 32..1: each read from 16 down races with the earlier writes.
  EXPECT_GT(R.Races, 5u);
  EXPECT_EQ(R.Races, R.SameWarp);
  R = analyse(R"cu(
__global__ void k(float *o) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  s[tid] = o[tid];
  __syncthreads();
  for (int d = 128; d > 0; d >>= 1) {
    if (tid < d)
      s[tid] += s[tid + d];
    __syncthreads();
  }
})cu",
              "k");
  EXPECT_EQ(R.Races, 0u);
}

TEST(WarpSyncAnalysisTest, LocalAliasIsTheSharedArray) {
  Result R = analyse(R"cu(
__global__ void k(float *o) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  s[tid] = o[tid];
  volatile float *vs = s;
  o[tid] = vs[tid + 1];
})cu",
                     "k");
  EXPECT_EQ(R.Races, 1u);
}

} // namespace
