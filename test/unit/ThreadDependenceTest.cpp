//===--- ThreadDependenceTest.cpp - cuda-lint -----------------------------===//

#include "cudalint/analysis/ThreadDependence.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace clang::ast_matchers;
using clang::tidy::cuda::ThreadDependence;

namespace {

std::unique_ptr<ASTUnit> parse(llvm::StringRef Code) {
  return tooling::buildASTFromCodeWithArgs(
      Code,
      {"-xcuda", "--cuda-device-only", "--cuda-path=/usr/local/cuda",
       "-nocudalib", "--cuda-gpu-arch=sm_90", "-Wno-unknown-cuda-version",
       "-resource-dir=/usr/lib/llvm-22/lib/clang/22"},
      "input.cu");
}

const FunctionDecl *function(ASTUnit &AST, llvm::StringRef Name) {
  auto M = match(functionDecl(hasName(Name), isDefinition()).bind("f"),
                 AST.getASTContext());
  return M.empty() ? nullptr : M.front().getNodeAs<FunctionDecl>("f");
}

const VarDecl *var(ASTUnit &AST, llvm::StringRef Name) {
  auto M = match(varDecl(hasName(Name), isExpansionInMainFile()).bind("v"),
                 AST.getASTContext());
  return M.empty() ? nullptr : M.front().getNodeAs<VarDecl>("v");
}

/// The call to \p Callee in \p FD (the first one).
const CallExpr *call(ASTUnit &AST, llvm::StringRef Callee) {
  auto M = match(
      callExpr(callee(functionDecl(hasName(Callee))), isExpansionInMainFile())
          .bind("c"),
      AST.getASTContext());
  return M.empty() ? nullptr : M.front().getNodeAs<CallExpr>("c");
}

struct Analysed {
  std::unique_ptr<ASTUnit> AST;
  std::unique_ptr<ThreadDependence> TD;
};

Analysed analyse(llvm::StringRef Code) {
  Analysed A;
  A.AST = parse(Code);
  EXPECT_TRUE(A.AST);
  const FunctionDecl *FD = function(*A.AST, "k");
  EXPECT_TRUE(FD);
  A.TD = std::make_unique<ThreadDependence>(*FD, A.AST->getASTContext());
  return A;
}

TEST(ThreadDependence, ThreadIndexAndDerivedLocals) {
  Analysed A = analyse(R"(
    __global__ void k(int *p, int n) {
      int tid = threadIdx.x;
      int lane = tid & 31;
      int lane2 = threadIdx.x % 32;
      int gid = blockIdx.x * blockDim.x + threadIdx.x;
      int bid = blockIdx.x * blockDim.x;
      int param = n * 2;
      int loaded = p[tid];
      int uniformLoad = p[blockIdx.x];
      int copy = 0;
      copy = lane + 1;
      int viaAtomic = atomicAdd(p, 1);
      p[0] = tid + lane + lane2 + gid + bid + param + loaded + uniformLoad +
             copy + viaAtomic;
    })");
  for (const char *Name :
       {"tid", "lane", "lane2", "gid", "loaded", "copy", "viaAtomic"})
    EXPECT_TRUE(A.TD->isDependentVar(var(*A.AST, Name))) << Name;
  for (const char *Name : {"bid", "param", "uniformLoad", "n"})
    EXPECT_FALSE(A.TD->isDependentVar(var(*A.AST, Name))) << Name;
}

TEST(ThreadDependence, ControlDependence) {
  Analysed A = analyse(R"(
    __global__ void k(int *p) {
      int flag = 0;
      if (threadIdx.x == 0)
        flag = 1;
      int steps = 0;
      for (int s = blockDim.x / 2; s > 0; s >>= 1)
        ++steps;
      if (threadIdx.x < 32) {
        int inner = 0;
        for (int off = 16; off > 0; off /= 2)
          inner += off;
        p[0] = inner;
      }
      p[1] = flag + steps;
    })");
  EXPECT_TRUE(A.TD->isDependentVar(var(*A.AST, "flag")));
  EXPECT_FALSE(A.TD->isDependentVar(var(*A.AST, "steps")));
  EXPECT_FALSE(A.TD->isDependentVar(var(*A.AST, "s")));
  // Declared and used inside the divergent region: uniform within it.
  EXPECT_FALSE(A.TD->isDependentVar(var(*A.AST, "off")));
  EXPECT_FALSE(A.TD->isDependentVar(var(*A.AST, "inner")));
}

TEST(ThreadDependence, SharedMemoryAtUniformAddressIsUniform) {
  Analysed A = analyse(R"(
    __global__ void k(int *p) {
      __shared__ int s[256];
      s[threadIdx.x] = p[threadIdx.x];
      __syncthreads();
      int broadcast = s[0];
      int own = s[threadIdx.x];
      p[0] = broadcast + own;
    })");
  EXPECT_FALSE(A.TD->isDependentVar(var(*A.AST, "broadcast")));
  EXPECT_TRUE(A.TD->isDependentVar(var(*A.AST, "own")));
}

TEST(ThreadDependence, DivergentBarrier) {
  Analysed A = analyse(R"(
    __global__ void k(int *p, int n) {
      if (threadIdx.x < n)
        __syncthreads();
    })");
  ThreadDependence::Divergence D =
      A.TD->divergence(*call(*A.AST, "__syncthreads"));
  ASSERT_TRUE(D);
  EXPECT_FALSE(D.EarlyExit);
  EXPECT_TRUE(isa<BinaryOperator>(D.Cause));
}

TEST(ThreadDependence, EarlyReturn) {
  Analysed A = analyse(R"(
    __global__ void k(int *p, int n) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n)
        return;
      __syncthreads();
    })");
  ThreadDependence::Divergence D =
      A.TD->divergence(*call(*A.AST, "__syncthreads"));
  ASSERT_TRUE(D);
  EXPECT_TRUE(D.EarlyExit);
  EXPECT_TRUE(isa<ReturnStmt>(D.Cause));
}

TEST(ThreadDependence, UniformBarriers) {
  Analysed A = analyse(R"(
    __global__ void k(int *p, int n) {
      if (blockIdx.x >= n)
        return;
      for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
          p[threadIdx.x] += p[threadIdx.x + s];
        __syncthreads();
      }
    })");
  EXPECT_FALSE(A.TD->divergence(*call(*A.AST, "__syncthreads")));
}

TEST(ThreadDependence, WarpScope) {
  const char *Code = R"(
    __global__ void k(float *p) {
      int tid = threadIdx.x;
      int warp = tid / 32;
      int warp2 = threadIdx.x >> 5;
      int half = tid / 16;
      float v = p[tid];
      unsigned votes = __ballot_sync(0xffffffff, v > 0);
      float first = __shfl_sync(0xffffffff, v, 0);
      float other = __shfl_sync(0xffffffff, v, tid ^ 1);
      p[0] = warp + warp2 + half + votes + first + other;
    })";
  std::unique_ptr<ASTUnit> AST = parse(Code);
  ASSERT_TRUE(AST);
  const FunctionDecl *FD = function(*AST, "k");
  ThreadDependence Warp(*FD, AST->getASTContext(),
                        ThreadDependence::Scope::Warp);
  ThreadDependence Block(*FD, AST->getASTContext());
  for (const char *Name : {"warp", "warp2", "votes", "first"}) {
    EXPECT_FALSE(Warp.isDependentVar(var(*AST, Name))) << Name;
    EXPECT_TRUE(Block.isDependentVar(var(*AST, Name))) << Name;
  }
  for (const char *Name : {"half", "other", "v", "tid"})
    EXPECT_TRUE(Warp.isDependentVar(var(*AST, Name))) << Name;
}

/// The references to \p Name in the main file, in source order.
std::vector<const DeclRefExpr *> uses(ASTUnit &AST, llvm::StringRef Name) {
  auto M =
      match(declRefExpr(to(varDecl(hasName(Name))), isExpansionInMainFile())
                .bind("r"),
            AST.getASTContext());
  std::vector<const DeclRefExpr *> Out;
  for (const BoundNodes &B : M)
    Out.push_back(B.getNodeAs<DeclRefExpr>("r"));
  const SourceManager &SM = AST.getSourceManager();
  llvm::sort(Out, [&](const DeclRefExpr *A, const DeclRefExpr *B) {
    return SM.isBeforeInTranslationUnit(A->getBeginLoc(), B->getBeginLoc());
  });
  return Out;
}

TEST(ThreadDependence, LoopBornCounter) {
  Analysed A = analyse(R"(
    __global__ void k(int *p, int n) {
      int j, m;
      if (threadIdx.x < n) {
        for (j = 0; j < 4; j++)
          p[j] = 0;
        for (m = 0; m < 4; m++)
          p[m] = 0;
      }
      p[m] = 1;
    })");
  // Every reference to j is in a loop that starts it: the threads that
  // run the loop together count together, whichever threads they are.
  for (const DeclRefExpr *Use : uses(*A.AST, "j"))
    EXPECT_FALSE(A.TD->isDependent(Use));
  // m is read after the divergent region: 4 in some threads, not set in
  // the others.
  EXPECT_TRUE(A.TD->isDependent(uses(*A.AST, "m").back()));
}

TEST(ThreadDependence, DivergentJumps) {
  Analysed A = analyse(R"(
    __global__ void k(int *p, int n) {
      int b = 0, c = 0, u = 0;
      for (int i = 0; i < n; i++) {
        if (p[threadIdx.x] > i)
          break;
        b++;
      }
      for (int i = 0; i < n; i++) {
        if (p[threadIdx.x] > i)
          continue;
        c++;
      }
      for (int i = 0; i < n; i++) {
        if (p[blockIdx.x] > i)
          break;
        u++;
      }
      p[0] = b + c + u;
    })");
  // The threads that left the loop early counted less.
  EXPECT_TRUE(A.TD->isDependent(uses(*A.AST, "b").back()));
  // Those that skipped an iteration counted less.
  EXPECT_TRUE(A.TD->isDependent(uses(*A.AST, "c").back()));
  EXPECT_FALSE(A.TD->isDependent(uses(*A.AST, "u").back()));
}

TEST(ThreadDependence, UnseenChanges) {
  const char *Code = R"(
    __device__ void set(int *q);
    __device__ void setRef(int &q);
    __global__ void k(int *p) {
      int e = 0, r = 0, g = 0;
      set(&e);
      setRef(r);
      if (p[0] > 1)
        goto out;
      g = 1;
    out:
      p[e + r + g] = 0;
    })";
  std::unique_ptr<ASTUnit> AST = parse(Code);
  ASSERT_TRUE(AST);
  const FunctionDecl *FD = function(*AST, "k");
  ThreadDependence Default(*FD, AST->getASTContext());
  ThreadDependence Strict(*FD, AST->getASTContext(),
                          ThreadDependence::Scope::Block, std::nullopt,
                          /*ParamsDependent=*/false, /*CallDepth=*/0,
                          /*AssumeMultiples=*/false, /*UnseenDependent=*/true);
  // What the definitions do not show: uniform to a check that must prove a
  // value thread-dependent, thread-dependent to one that must prove it
  // uniform.
  for (const char *Name : {"e", "r", "g"}) {
    EXPECT_FALSE(Default.isDependent(uses(*AST, Name).back())) << Name;
    EXPECT_TRUE(Strict.isDependent(uses(*AST, Name).back())) << Name;
  }
}

TEST(ThreadDependence, StatementExpression) {
  Analysed A = analyse(R"(
    #define smax(x, y) ({ int _x = (x); int _y = (y); _x > _y ? _x : _y; })
    __global__ void k(int *p, int n) {
      int dep = smax(0, (int)threadIdx.x - n);
      int uni = smax(0, (int)blockIdx.x - n);
      p[dep + uni] = 0;
    })");
  EXPECT_TRUE(A.TD->isDependentVar(var(*A.AST, "dep")));
  EXPECT_FALSE(A.TD->isDependentVar(var(*A.AST, "uni")));
}

} // namespace
