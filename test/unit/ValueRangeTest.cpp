//===--- ValueRangeTest.cpp - cuda-lint unit tests ------------------------===//

#include "cudalint/analysis/ValueRange.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"
#include <map>

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::cuda;

namespace {

/// Whether the initialiser of every variable named in \p Code's function `f`
/// is provably non-negative, by variable name.
std::map<std::string, bool> signs(const std::string &Code) {
  std::unique_ptr<ASTUnit> AST = tooling::buildASTFromCodeWithArgs(
      Code,
      {"-xcuda", "--cuda-device-only", "--cuda-path=/usr/local/cuda",
       "-nocudalib", "--cuda-gpu-arch=sm_90", "-Wno-unknown-cuda-version",
       "-resource-dir=/usr/lib/llvm-22/lib/clang/22"},
      "input.cu");
  std::map<std::string, bool> Result;
  EXPECT_TRUE(AST);
  if (!AST)
    return Result;
  auto Found = match(
      functionDecl(hasName("f"),
                   forEachDescendant(
                       varDecl(hasInitializer(expr().bind("init"))).bind("v"))),
      AST->getASTContext());
  for (const BoundNodes &N : Found)
    Result[N.getNodeAs<VarDecl>("v")->getName().str()] =
        isProvablyNonNegative(N.getNodeAs<Expr>("init"), AST->getASTContext());
  return Result;
}

TEST(ValueRangeTest, ThreadIndices) {
  auto S = signs(R"cu(
    __device__ void f(int n, unsigned u) {
      int tid = blockIdx.x * blockDim.x + threadIdx.x;
      int lane = tid % 32;
      int half = tid >> 1;
      int masked = n & 31;
      int fromUnsigned = u;
      int literal = 7;
      int shifted = (tid + 3) / 4;
      int sel = n > 0 ? tid : 0;
    })cu");
  EXPECT_TRUE(S["tid"]);
  EXPECT_TRUE(S["lane"]);
  EXPECT_TRUE(S["half"]);
  EXPECT_TRUE(S["masked"]);
  EXPECT_TRUE(S["fromUnsigned"]);
  EXPECT_TRUE(S["literal"]);
  EXPECT_TRUE(S["shifted"]);
  EXPECT_TRUE(S["sel"]);
}

TEST(ValueRangeTest, Unknown) {
  auto S = signs(R"cu(
    __device__ void f(int n, const int *keys) {
      int param = n;
      int diff = threadIdx.x - 1;
      int loaded = keys[0];
      int neg = -1;
      int quotient = n / 2;
      int tid = threadIdx.x;
      int t2 = tid;
      tid -= 5;
    })cu");
  EXPECT_FALSE(S["param"]);
  EXPECT_FALSE(S["diff"]);
  EXPECT_FALSE(S["loaded"]);
  EXPECT_FALSE(S["neg"]);
  EXPECT_FALSE(S["quotient"]);
  EXPECT_FALSE(S["t2"]); // tid is decremented later.
}

TEST(ValueRangeTest, InductionVariables) {
  auto S = signs(R"cu(
    __device__ void f(int n) {
      for (int k = threadIdx.x; k < n; k += blockDim.x) {
        int a = k;
      }
      for (int j = 0; j < n; ++j) {
        int b = j;
      }
      for (int d = n; d > 0; --d) {
        int c = d;
      }
      for (int m = 0; m < n; m = m * 2 + 1) {
        int e = m;
      }
    })cu");
  EXPECT_TRUE(S["a"]);
  EXPECT_TRUE(S["b"]);
  EXPECT_FALSE(S["c"]);
  EXPECT_TRUE(S["e"]);
}

// Narrowing conversions to a signed type wrap: not seen through.
TEST(ValueRangeTest, NarrowingToSigned) {
  auto S = signs(R"cu(
    __device__ void f(long long big) {
      char lane = threadIdx.x;
      short s = blockIdx.x * blockDim.x + threadIdx.x;
      int fromLong = (long long)threadIdx.x;
      char small = 5;
      signed char negConst = 200;
      unsigned short us = threadIdx.x;
      int widened = us;
      unsigned char uc = threadIdx.x;
    })cu");
  EXPECT_FALSE(S["lane"]);
  EXPECT_FALSE(S["s"]);
  EXPECT_FALSE(S["fromLong"]);
  EXPECT_TRUE(S["small"]);
  EXPECT_FALSE(S["negConst"]);
  EXPECT_TRUE(S["widened"]);
  EXPECT_TRUE(S["uc"]);
}

// Variables that may change where the analysis cannot see.
TEST(ValueRangeTest, Escapes) {
  auto S = signs(R"cu(
    struct Ref { int &r; __device__ Ref(int &x) : r(x) {} };
    struct Agg { int &r; };
    __device__ void set(int &v) { v = -1; }
    __device__ int get(const int &v) { return v; }
    __device__ void f() {
      int a = threadIdx.x;
      int &ra = a;
      ra = -7;
      int b = threadIdx.x;
      int *pb = &b;
      int c = threadIdx.x;
      set(c);
      int d = threadIdx.x;
      Ref rd(d);
      int e = threadIdx.x;
      Agg ae{e};
      int g = threadIdx.x;
      const int &cg = g;
      int h = get(g) + cg;
      int l = threadIdx.x;
      [&] { l = -1; }();

      int ua = a;
      int ub = b;
      int uc = c;
      int ud = d;
      int ue = e;
      int ug = g;
      int ul = l;
    })cu");
  EXPECT_FALSE(S["ua"]);
  EXPECT_FALSE(S["ub"]);
  EXPECT_FALSE(S["uc"]);
  EXPECT_FALSE(S["ud"]);
  EXPECT_FALSE(S["ue"]);
  EXPECT_TRUE(S["ug"]); // Only bound to const references.
  EXPECT_FALSE(S["ul"]);
}

} // namespace
