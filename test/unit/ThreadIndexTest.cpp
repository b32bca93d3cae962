//===--- ThreadIndexTest.cpp - cuda-lint ----------------------------------===//
//
// Unit tests of the thread-index analysis: each snippet defines `probe`, an
// integer variable whose initializer is the expression under test, inside a
// function `k`.
//
//===----------------------------------------------------------------------===//

#include "cudalint/analysis/ThreadIndex.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::cuda;

namespace {

class ThreadIndexTest : public ::testing::Test {
protected:
  /// Parses \p Code as CUDA device code and returns the analysis of the
  /// initializer of the last variable named `probe`.
  void parse(const std::string &Code) {
    AST = tooling::buildASTFromCodeWithArgs(
        "#include \"__clang_cuda_builtin_vars.h\"\n"
        "#define __global__ __attribute__((global))\n"
        "#define __device__ __attribute__((device))\n"
        "#define __shared__ __attribute__((shared))\n" +
            Code,
        {"-xcuda", "--cuda-device-only", "-nocudainc", "-nocudalib",
         "--cuda-gpu-arch=sm_90", "-Wno-unknown-cuda-version",
         "-resource-dir=/usr/lib/llvm-22/lib/clang/22", "-std=c++17"},
        "input.cu");
    ASSERT_TRUE(AST);
    ASSERT_FALSE(AST->getDiagnostics().hasErrorOccurred());
    auto Probes =
        match(varDecl(hasName("probe"), hasAncestor(functionDecl().bind("f")))
                  .bind("v"),
              AST->getASTContext());
    ASSERT_FALSE(Probes.empty());
    Probe = Probes.back().getNodeAs<VarDecl>("v");
    Fn = Probes.back().getNodeAs<FunctionDecl>("f");
    Analysis = std::make_unique<ThreadIndexAnalysis>(AST->getASTContext(), Fn);
  }
  IndexForm form() { return Analysis->analyze(Probe->getInit()); }
  std::string str() {
    IndexForm F = form();
    return F.Poly ? F.Poly->str() : "unknown";
  }
  LaneStride stride() { return Analysis->laneStride(Probe->getInit()); }

  std::unique_ptr<ASTUnit> AST;
  const VarDecl *Probe = nullptr;
  const FunctionDecl *Fn = nullptr;
  std::unique_ptr<ThreadIndexAnalysis> Analysis;
};

TEST_F(ThreadIndexTest, GlobalThreadIndex) {
  parse("__global__ void k(float *a) {\n"
        "  int probe = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "}\n");
  EXPECT_EQ(str(), "threadIdx.x + blockIdx.x * blockDim.x");
  EXPECT_TRUE(stride().isConstant());
  EXPECT_EQ(stride().Value, 1);
  EXPECT_TRUE(Analysis->isThreadDependent(Probe->getInit()));
  EXPECT_TRUE(Analysis->isLaneDependent(Probe->getInit()));
  EXPECT_TRUE(Analysis->isNonNegative(Probe->getInit()));
}

TEST_F(ThreadIndexTest, FollowsLocalDefinition) {
  parse("__global__ void k(float *a, int stride) {\n"
        "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "  int probe = i * stride;\n"
        "}\n");
  LaneStride S = stride();
  ASSERT_TRUE(S.isSymbolic());
  EXPECT_EQ(S.Symbols.str(), "stride");
  ASSERT_EQ(form().Definitions.size(), 1u);
  EXPECT_EQ(form().Definitions[0].Var->getName(), "i");
  EXPECT_FALSE(Analysis->isNonNegative(Probe->getInit()));
}

TEST_F(ThreadIndexTest, ColumnWalk) {
  parse("__global__ void k(float *out, int n) {\n"
        "  int x = blockIdx.x * 32 + threadIdx.x;\n"
        "  int y = blockIdx.y * 32 + threadIdx.y;\n"
        "  int probe = x * n + y;\n"
        "}\n");
  ASSERT_TRUE(stride().isSymbolic());
  EXPECT_EQ(stride().Symbols.str(), "n");
}

TEST_F(ThreadIndexTest, ArrayOfStructs) {
  parse("__global__ void k(float *a) {\n"
        "  unsigned probe = threadIdx.x * 3 + 1;\n"
        "}\n");
  EXPECT_EQ(str(), "3 * threadIdx.x + 1");
  ASSERT_TRUE(stride().isConstant());
  EXPECT_EQ(stride().Value, 3);
}

TEST_F(ThreadIndexTest, Broadcast) {
  parse("__global__ void k(float *a, int n) {\n"
        "  int probe = blockIdx.x * n + threadIdx.y;\n"
        "}\n");
  ASSERT_TRUE(stride().isConstant());
  EXPECT_EQ(stride().Value, 0);
  EXPECT_TRUE(Analysis->isThreadDependent(Probe->getInit()));
  EXPECT_FALSE(Analysis->isLaneDependent(Probe->getInit()));
}

TEST_F(ThreadIndexTest, MacrosCastsAndConstants) {
  parse("#define TILE 32\n"
        "constexpr int Rows = 8;\n"
        "__global__ void k(float *a) {\n"
        "  const int w = TILE * Rows;\n"
        "  long probe = (long)(threadIdx.x << 2) * w + "
        "static_cast<int>(threadIdx.y);\n"
        "}\n");
  EXPECT_EQ(str(), "1024 * threadIdx.x + threadIdx.y");
  EXPECT_EQ(stride().Value, 1024);
}

TEST_F(ThreadIndexTest, TruncatingCastIsUnknown) {
  parse("__global__ void k(float *a) {\n"
        "  int probe = (unsigned char)(threadIdx.x * 64);\n"
        "}\n");
  EXPECT_EQ(str(), "unknown");
  EXPECT_TRUE(stride().isUnknown());
  EXPECT_TRUE(Analysis->isThreadDependent(Probe->getInit()));
}

TEST_F(ThreadIndexTest, TruncatingInitializerIsUnknown) {
  parse("__global__ void k(float *a) {\n"
        "  char c = threadIdx.x;\n"
        "  int probe = c * 4;\n"
        "}\n");
  EXPECT_EQ(str(), "unknown");
}

TEST_F(ThreadIndexTest, ValuePreservingNarrowingKeepsTheForm) {
  // threadIdx.x < 1024 fits a short; a same-width sign change is kept.
  parse("__global__ void k(float *a) {\n"
        "  short s = threadIdx.x * 2 + threadIdx.y;\n"
        "  int probe = s + (int)(threadIdx.x * 32u);\n"
        "}\n");
  EXPECT_EQ(str(), "34 * threadIdx.x + threadIdx.y");
}

TEST_F(ThreadIndexTest, NarrowingOfUnboundedValueIsUnknown) {
  parse("__global__ void k(float *a, long n) {\n"
        "  int probe = (int)(n * threadIdx.x);\n"
        "}\n");
  EXPECT_EQ(str(), "unknown");
}

TEST_F(ThreadIndexTest, TemplateArgument) {
  parse("template <int TILE> __global__ void k(float *a) {\n"
        "  int probe = threadIdx.x * (TILE + 1) + threadIdx.y;\n"
        "}\n"
        "template __global__ void k<16>(float *);\n");
  ASSERT_TRUE(stride().isConstant());
  EXPECT_EQ(stride().Value, 17);
}

TEST_F(ThreadIndexTest, LoopInductionVariable) {
  parse("__global__ void k(float *a, int n) {\n"
        "  int tid = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "  for (int j = 0; j < 32; j += 8) {\n"
        "    int probe = (threadIdx.y + j) * 32 + threadIdx.x;\n"
        "  }\n"
        "}\n");
  EXPECT_EQ(stride().Value, 1);
  IndexPoly P = *form().Poly;
  EXPECT_TRUE(P.mentions(IndexSymbol::Variable));
}

TEST_F(ThreadIndexTest, GridStrideLoop) {
  parse("__global__ void k(float *a, int n) {\n"
        "  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;\n"
        "       i += gridDim.x * blockDim.x) {\n"
        "    int probe = i * 4;\n"
        "  }\n"
        "}\n");
  ASSERT_TRUE(stride().isConstant());
  EXPECT_EQ(stride().Value, 4);
  EXPECT_TRUE(Analysis->isNonNegative(Probe->getInit()));
}

TEST_F(ThreadIndexTest, ThreadDependentStepIsUnknown) {
  parse("__global__ void k(float *a, int n) {\n"
        "  for (int i = threadIdx.x; i < n; i += threadIdx.x + 1) {\n"
        "    int probe = i;\n"
        "  }\n"
        "}\n");
  EXPECT_TRUE(stride().isUnknown());
  EXPECT_TRUE(Analysis->isThreadDependent(Probe->getInit()));
}

TEST_F(ThreadIndexTest, DisagreeingDefinitionsAreUnknown) {
  // The assignment under the condition may or may not have happened.
  parse("__global__ void k(float *a, int n) {\n"
        "  int x = blockIdx.x * 32 + threadIdx.x;\n"
        "  a[x] = 0;\n"
        "  if (n > 2)\n"
        "    x = blockIdx.y * 32 + threadIdx.x * 2;\n"
        "  int probe = x;\n"
        "}\n");
  EXPECT_EQ(str(), "unknown");
  EXPECT_TRUE(stride().isUnknown());
}

TEST_F(ThreadIndexTest, DominatingAssignment) {
  // The last assignment of straight-line code before the use reaches it,
  // past an early return; the note goes to the assignment.
  parse("__global__ void k(float *a, int n, int stride) {\n"
        "  int i = 0;\n"
        "  if (n > 10)\n"
        "    return;\n"
        "  i = (blockIdx.x * blockDim.x + threadIdx.x) * stride;\n"
        "  int probe = i;\n"
        "}\n");
  LaneStride S = stride();
  ASSERT_TRUE(S.isSymbolic());
  EXPECT_EQ(S.Symbols.str(), "stride");
  IndexForm F = form();
  ASSERT_EQ(F.Definitions.size(), 1u);
  EXPECT_EQ(F.Definitions[0].Var->getName(), "i");
  EXPECT_EQ(AST->getSourceManager().getPresumedLineNumber(F.Definitions[0].Loc),
            9u);
}

TEST_F(ThreadIndexTest, EachUseItsDominatingDefinition) {
  parse("__global__ void k(float *a) {\n"
        "  int x = threadIdx.x * 4;\n"
        "  a[x] = 0;\n"
        "  x = threadIdx.x * 8;\n"
        "  {\n"
        "    a[0] = 1;\n"
        "    int probe = x;\n"
        "  }\n"
        "}\n");
  EXPECT_EQ(stride().Value, 8);
  auto Uses = match(
      arraySubscriptExpr(hasIndex(ignoringImpCasts(declRefExpr().bind("r")))),
      AST->getASTContext());
  ASSERT_EQ(Uses.size(), 1u);
  EXPECT_EQ(Analysis->laneStride(Uses[0].getNodeAs<Expr>("r")).Value, 4);
}

TEST_F(ThreadIndexTest, LoopRedefinitionIsUnknown) {
  // The loop brings the later assignment round to the use.
  parse("__global__ void k(float *a, int n) {\n"
        "  int x;\n"
        "  x = threadIdx.x * 4;\n"
        "  for (int j = 0; j < n; ++j) {\n"
        "    int probe = x;\n"
        "    x = threadIdx.x;\n"
        "  }\n"
        "}\n");
  EXPECT_EQ(str(), "unknown");
}

TEST_F(ThreadIndexTest, SingleAssignmentNoteAtAssignment) {
  parse("__global__ void k(float *a) {\n"
        "  int i;\n"
        "  i = threadIdx.x * 4;\n"
        "  int probe = i;\n"
        "}\n");
  IndexForm F = form();
  ASSERT_EQ(F.Definitions.size(), 1u);
  EXPECT_EQ(AST->getSourceManager().getPresumedLineNumber(F.Definitions[0].Loc),
            7u);
}

TEST_F(ThreadIndexTest, AgreeingDefinitions) {
  parse("__global__ void k(float *a, int n) {\n"
        "  int x = threadIdx.x * 2;\n"
        "  if (n > 3)\n"
        "    x = 2 * threadIdx.x;\n"
        "  int probe = x;\n"
        "}\n");
  EXPECT_EQ(stride().Value, 2);
}

TEST_F(ThreadIndexTest, AddressTakenIsUnknown) {
  parse("__device__ void touch(int *);\n"
        "__global__ void k(float *a) {\n"
        "  int x = threadIdx.x;\n"
        "  touch(&x);\n"
        "  int probe = x;\n"
        "}\n");
  EXPECT_TRUE(stride().isUnknown());
}

TEST_F(ThreadIndexTest, ReferenceBindingIsUnknown) {
  parse("__device__ void touch(int &);\n"
        "__global__ void k(float *a) {\n"
        "  int x = threadIdx.x;\n"
        "  touch(x);\n"
        "  int probe = x;\n"
        "}\n");
  EXPECT_TRUE(stride().isUnknown());
}

TEST_F(ThreadIndexTest, NonAffineIsUnknownButThreadDependent) {
  parse("__global__ void k(float *a) {\n"
        "  int probe = threadIdx.x / 3 + threadIdx.x * threadIdx.x;\n"
        "}\n");
  EXPECT_TRUE(stride().isUnknown());
  EXPECT_TRUE(Analysis->isThreadDependent(Probe->getInit()));
}

TEST_F(ThreadIndexTest, UniformDivisionIsOpaqueSymbol) {
  parse("__global__ void k(float *a, int n) {\n"
        "  int probe = threadIdx.x * 2 + n / 2;\n"
        "}\n");
  EXPECT_EQ(stride().Value, 2);
  EXPECT_TRUE(form().Poly->mentions(IndexSymbol::Opaque));
}

TEST_F(ThreadIndexTest, ModuloOfThreadIndex) {
  parse("__global__ void k(float *a, int r) {\n"
        "  int probe = (threadIdx.x + r) % 32;\n"
        "}\n");
  IndexForm F = form();
  ASSERT_TRUE(F.Poly);
  EXPECT_TRUE(F.Poly->mentions(IndexSymbol::Modulo));
  // The lane stride of a modulo is not affine: unknown.
  EXPECT_TRUE(stride().isUnknown());
  IndexSymbol S = F.Poly->terms().begin()->first.front();
  auto Operand = Analysis->moduloOperand(S);
  ASSERT_TRUE(Operand);
  EXPECT_EQ(Operand->first.str(), "threadIdx.x + r");
  EXPECT_EQ(Operand->second, 32);
}

TEST_F(ThreadIndexTest, UniformValues) {
  parse("__global__ void k(const int *offsets, int n) {\n"
        "  int base = offsets[blockIdx.x] + n;\n"
        "  int probe = base;\n"
        "}\n");
  EXPECT_FALSE(Analysis->isThreadDependent(Probe->getInit()));
  EXPECT_EQ(stride().Value, 0);
}

TEST_F(ThreadIndexTest, LoadThroughThreadIndexIsThreadDependent) {
  parse("__global__ void k(const int *keys) {\n"
        "  int probe = keys[threadIdx.x];\n"
        "}\n");
  EXPECT_TRUE(stride().isUnknown());
  EXPECT_TRUE(Analysis->isThreadDependent(Probe->getInit()));
}

TEST_F(ThreadIndexTest, CallsAreThreadDependent) {
  parse("__device__ int laneId();\n"
        "__global__ void k(float *a) {\n"
        "  int probe = laneId();\n"
        "}\n");
  EXPECT_TRUE(Analysis->isThreadDependent(Probe->getInit()));
}

TEST_F(ThreadIndexTest, NonNegative) {
  parse("__global__ void k(float *a, int n) {\n"
        "  int probe = threadIdx.x - 1;\n"
        "}\n");
  EXPECT_FALSE(Analysis->isNonNegative(Probe->getInit()));
}

TEST_F(ThreadIndexTest, LaneSubscript) {
  parse("#define TILE 32\n"
        "__global__ void k(float *out, int j) {\n"
        "  __shared__ float tile[TILE][TILE + 1];\n"
        "  int probe = 0;\n"
        "  out[0] = tile[threadIdx.x][threadIdx.y + j] +\n"
        "           tile[threadIdx.y][threadIdx.x] + tile[j][threadIdx.y];\n"
        "}\n");
  auto Subs =
      match(findAll(arraySubscriptExpr(hasBase(implicitCastExpr(has(
                                           arraySubscriptExpr().bind("row")))))
                        .bind("col")),
            *Fn->getBody(), AST->getASTContext());
  ASSERT_EQ(Subs.size(), 3u);
  std::vector<std::optional<unsigned>> Lanes;
  for (const auto &N : Subs) {
    const Expr *Row = N.getNodeAs<ArraySubscriptExpr>("row")->getIdx();
    const Expr *Col = N.getNodeAs<ArraySubscriptExpr>("col")->getIdx();
    Lanes.push_back(Analysis->laneSubscript({Row, Col}));
  }
  EXPECT_EQ(Lanes[0], std::optional<unsigned>(0));
  EXPECT_EQ(Lanes[1], std::optional<unsigned>(1));
  EXPECT_EQ(Lanes[2], std::nullopt);
}

TEST_F(ThreadIndexTest, NonNegativeThroughLoopsAndModulo) {
  parse("__global__ void k(float *a, int n) {\n"
        "  for (int i = threadIdx.x; i < n; i += blockDim.x) {\n"
        "    int probe = (i + 3) % 32 + i;\n"
        "  }\n"
        "}\n");
  EXPECT_TRUE(Analysis->isNonNegative(Probe->getInit()));
  EXPECT_TRUE(Analysis->isThreadDependent(Probe->getInit()));
  EXPECT_TRUE(stride().isUnknown()); // The modulo hides threadIdx.x.
}

TEST_F(ThreadIndexTest, CountingDownIsNotNonNegative) {
  parse("__global__ void k(float *a, int n) {\n"
        "  for (int i = 31; i < n; --i) {\n"
        "    int probe = i;\n"
        "  }\n"
        "}\n");
  EXPECT_FALSE(Analysis->isNonNegative(Probe->getInit()));
  EXPECT_FALSE(Analysis->isThreadDependent(Probe->getInit()));
}

TEST_F(ThreadIndexTest, SingleDefinitionOfDerivedPointer) {
  parse("__global__ void k(float *m, int n) {\n"
        "  float *row = m + threadIdx.x * n;\n"
        "  float *moved = m;\n"
        "  moved += 4;\n"
        "  int probe = 0;\n"
        "}\n");
  auto Vars =
      match(functionDecl(hasName("k"), forEachDescendant(varDecl().bind("v"))),
            AST->getASTContext());
  const VarDecl *Row = nullptr, *Moved = nullptr;
  for (const auto &N : Vars) {
    const auto *V = N.getNodeAs<VarDecl>("v");
    if (V->getName() == "row")
      Row = V;
    if (V->getName() == "moved")
      Moved = V;
  }
  ASSERT_TRUE(Row && Moved);
  EXPECT_EQ(Analysis->singleDefinition(Row), Row->getInit());
  EXPECT_TRUE(Analysis->isUnmodified(Row));
  EXPECT_EQ(Analysis->singleDefinition(Moved), nullptr);
  EXPECT_FALSE(Analysis->isUnmodified(Moved));
  EXPECT_TRUE(Analysis->isUnmodified(Fn->getParamDecl(0)));
}

TEST_F(ThreadIndexTest, PolyArithmetic) {
  IndexSymbol Tx = IndexSymbol::threadIdx(0);
  IndexPoly P = IndexPoly::symbol(Tx) * 3 + IndexPoly::constant(2);
  IndexPoly Q = P * P;
  EXPECT_FALSE(Q.coefficientOf(Tx));
  EXPECT_EQ((P - P).str(), "0");
  EXPECT_EQ(P.coefficientOf(Tx)->getConstant(), 3);
  EXPECT_EQ(P.uniformPart().str(), "2");
}

// Thread-uniform unknowns: variables with several uniform definitions.
TEST_F(ThreadIndexTest, CStyleCounterIsUniform) {
  parse("__global__ void k(float *a, int n) {\n"
        "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "  int j;\n"
        "  if (i < n)\n"
        "    for (j = 0; j < n; j++) {\n"
        "      int probe = i * n + j;\n"
        "    }\n"
        "}\n");
  EXPECT_EQ(str(), "threadIdx.x * n + blockIdx.x * blockDim.x * n + <uniform>");
  LaneStride S = stride();
  ASSERT_TRUE(S.isSymbolic());
  EXPECT_EQ(S.Symbols.str(), "n");
}

TEST_F(ThreadIndexTest, ReassignedParameterIsUniform) {
  parse("__global__ void k(float *a, int off) {\n"
        "  off = off * 2;\n"
        "  if (blockIdx.x > 2)\n"
        "    off += 4;\n"
        "  int probe = threadIdx.x * 3 + off;\n"
        "}\n");
  EXPECT_EQ(str(), "3 * threadIdx.x + <uniform>");
}

TEST_F(ThreadIndexTest, UniformPointerLoad) {
  parse("__global__ void k(const int *starts, int n) {\n"
        "  const int *p = starts;\n"
        "  for (int r = 0; r < n; ++r)\n"
        "    p += n;\n"
        "  int probe = p[blockIdx.x] + threadIdx.x;\n"
        "}\n");
  EXPECT_EQ(str(), "threadIdx.x + <uniform>");
}

TEST_F(ThreadIndexTest, DivergentDefinitionsStayUnknown) {
  // Assigned under a thread-dependent condition, read after it.
  parse("__global__ void k(int n) {\n"
        "  int j = 0;\n"
        "  if (threadIdx.x < 5)\n"
        "    j = n;\n"
        "  int probe = threadIdx.x + j;\n"
        "}\n");
  EXPECT_EQ(str(), "unknown");
  EXPECT_TRUE(form().MayDependOnThread);
  // Left by a loop whose trip count depends on the thread.
  parse("__global__ void k(int n) {\n"
        "  int j;\n"
        "  for (j = 0; j < threadIdx.x; j++)\n"
        "    ;\n"
        "  int probe = j;\n"
        "}\n");
  EXPECT_EQ(str(), "unknown");
  // A divergent break.
  parse("__global__ void k(float *a, int n) {\n"
        "  int j;\n"
        "  for (j = 0; j < n; j++)\n"
        "    if (a[threadIdx.x] > 0)\n"
        "      break;\n"
        "  int probe = j;\n"
        "}\n");
  EXPECT_EQ(str(), "unknown");
  // A divergent continue that skips an update.
  parse("__global__ void k(float *a, int n) {\n"
        "  int c = 0;\n"
        "  for (int r = 0; r < n; ++r) {\n"
        "    if (a[threadIdx.x] > 0)\n"
        "      continue;\n"
        "    c += 2;\n"
        "  }\n"
        "  int probe = c;\n"
        "}\n");
  EXPECT_EQ(str(), "unknown");
  // A call that may read threadIdx.
  parse("__device__ int lane() { return threadIdx.x & 31; }\n"
        "__global__ void k(int n) {\n"
        "  int d = 0;\n"
        "  for (int r = 0; r < n; ++r)\n"
        "    d = lane() + d;\n"
        "  int probe = d;\n"
        "}\n");
  EXPECT_EQ(str(), "unknown");
  // Its address escapes.
  parse("__global__ void k(int n) {\n"
        "  int e = 0;\n"
        "  int *pe = &e;\n"
        "  *pe = threadIdx.x;\n"
        "  e = e + 1;\n"
        "  int probe = e;\n"
        "}\n");
  EXPECT_EQ(str(), "unknown");
}

TEST_F(ThreadIndexTest, ConstantLoopSpan) {
  parse("__global__ void k(float *a) {\n"
        "  for (int j = 0; j < 32; j += 8) {\n"
        "    int probe = j;\n"
        "  }\n"
        "}\n");
  const auto *J = dyn_cast<VarDecl>(
      cast<DeclRefExpr>(Probe->getInit()->IgnoreParenImpCasts())->getDecl());
  std::optional<LoopSpan> Span = Analysis->constantLoopSpan(J);
  ASSERT_TRUE(Span);
  EXPECT_EQ(Span->First, 0);
  EXPECT_EQ(Span->Last, 24);
  EXPECT_EQ(Span->Step, 8);
}

} // namespace
