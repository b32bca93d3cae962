//===--- ReadOnlyPointerTest.cpp - cuda-lint unit tests -------------------===//

#include "cudalint/analysis/ReadOnlyPointer.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::cuda;

namespace {

const std::vector<std::string> CudaArgs = {
    "-xcuda",
    "--cuda-device-only",
    "--cuda-path=/usr/local/cuda",
    "-nocudalib",
    "--cuda-gpu-arch=sm_90",
    "-Wno-unknown-cuda-version",
    "-resource-dir=/usr/lib/llvm-22/lib/clang/22"};

std::unique_ptr<ASTUnit> build(const std::string &Code) {
  return tooling::buildASTFromCodeWithArgs(Code, CudaArgs, "input.cu");
}

const FunctionDecl *function(ASTUnit &AST, StringRef Name) {
  auto Found = match(functionDecl(hasName(Name), isDefinition()).bind("f"),
                     AST.getASTContext());
  return Found.empty() ? nullptr : Found[0].getNodeAs<FunctionDecl>("f");
}

/// Read-only-ness of parameter \p Index of kernel \p Name.
bool readOnly(const std::string &Code, StringRef Name, unsigned Index,
              std::string *Reason = nullptr) {
  std::unique_ptr<ASTUnit> AST = build(Code);
  EXPECT_TRUE(AST);
  if (!AST)
    return false;
  const FunctionDecl *FD = function(*AST, Name);
  EXPECT_TRUE(FD) << Name.str();
  if (!FD)
    return false;
  ReadOnlyPointerAnalysis Analysis(AST->getASTContext());
  const ReadOnlyResult &R = Analysis.analyze(FD, FD->getParamDecl(Index));
  if (Reason)
    *Reason = R.Reason;
  return R.ReadOnly;
}

TEST(ReadOnlyPointerTest, LoadsOnly) {
  const char *Code = R"cu(
    __global__ void k(float *out, float *in, int n) {
      int i = threadIdx.x;
      out[i] = in[i] + *in + in[i + 1];
    })cu";
  EXPECT_TRUE(readOnly(Code, "k", 1));
  std::string Why;
  EXPECT_FALSE(readOnly(Code, "k", 0, &Why));
  EXPECT_EQ(Why, "written");
}

TEST(ReadOnlyPointerTest, Writes) {
  const char *Code = R"cu(
    __global__ void k(float *a, float *b, float *c, int *d, float *e) {
      a[0] += 1.0f;
      b[1]++;
      --*c;
      atomicAdd(d, 1);
      asm("mov.f32 %0, 1.0;" : "=f"(e[0]));
    })cu";
  std::string Why;
  EXPECT_FALSE(readOnly(Code, "k", 0, &Why));
  EXPECT_EQ(Why, "written");
  EXPECT_FALSE(readOnly(Code, "k", 1, &Why));
  EXPECT_EQ(Why, "incremented or decremented");
  EXPECT_FALSE(readOnly(Code, "k", 2));
  EXPECT_FALSE(readOnly(Code, "k", 3, &Why));
  EXPECT_EQ(Why, "passed to atomic 'atomicAdd'");
  EXPECT_FALSE(readOnly(Code, "k", 4, &Why));
  EXPECT_EQ(Why, "an inline asm output");
}

TEST(ReadOnlyPointerTest, DerivedPointers) {
  const char *Code = R"cu(
    __global__ void k(float *in, float *ro, int nx) {
      float *row = in + blockIdx.x * nx;
      row[threadIdx.x] = 0.0f;
      float *q = &ro[4];
      float *r;
      r = q + 1;
      float v = *r + q[2];
    })cu";
  EXPECT_FALSE(readOnly(Code, "k", 0));
  EXPECT_TRUE(readOnly(Code, "k", 1));
}

// Writes through a pointer that is advanced in the same expression, the
// parameter itself or a local alias: the increment's value is followed.
TEST(ReadOnlyPointerTest, WritesThroughIncrements) {
  const char *Code = R"cu(
    __global__ void k(float *a, float *b, float *c, float *d, float *e,
                      float *f, float *g, float *ro) {
      *a++ = 0.0f;
      *++b = 0.0f;
      (++c)[0] = 1.0f;
      d++[threadIdx.x] = 2.0f;
      float *q = e;
      *q++ = 3.0f;
      *(f += 2) = 4.0f;
      float *r = g;
      *--r = 5.0f;
      float s = *ro++ + *++ro + (ro += 2)[0];
      for (const float *p = ro; p != ro + 4; ++p)
        s += *p;
      a[0] = s;
    })cu";
  std::string Why;
  for (unsigned I = 0; I != 7; ++I) {
    EXPECT_FALSE(readOnly(Code, "k", I, &Why)) << I;
    EXPECT_EQ(Why, "written") << I;
  }
  EXPECT_TRUE(readOnly(Code, "k", 7));
}

TEST(ReadOnlyPointerTest, CalleesAndEscapes) {
  const char *Code = R"cu(
    __device__ float get(float *p) { return p[0]; }
    __device__ void put(float *p) { p[0] = 1.0f; }
    __device__ void deep(float *p) { put(p + 1); }
    __device__ void unknown(float *p);
    __device__ float *global;
    __global__ void k(float *a, float *b, float *c, float *d, float *e,
                      const float *f) {
      float v = get(a);
      deep(b);
      unknown(c);
      global = d;
      memcpy(e, f, 4);
      float *w = const_cast<float *>(f);
    })cu";
  std::string Why;
  EXPECT_TRUE(readOnly(Code, "k", 0));
  EXPECT_FALSE(readOnly(Code, "k", 1, &Why));
  EXPECT_EQ(Why, "passed to 'deep', where it is passed to 'put', where it is "
                 "written");
  EXPECT_FALSE(readOnly(Code, "k", 2, &Why));
  EXPECT_EQ(Why, "passed to 'unknown', whose body is not visible");
  EXPECT_FALSE(readOnly(Code, "k", 3, &Why));
  EXPECT_EQ(Why, "stored to memory");
  EXPECT_FALSE(readOnly(Code, "k", 4, &Why));
  EXPECT_EQ(Why, "the destination of 'memcpy'");
  EXPECT_FALSE(readOnly(Code, "k", 5, &Why));
  EXPECT_EQ(Why, "its constness is cast away");
}

TEST(ReadOnlyPointerTest, MemberFunctions) {
  const char *Code = R"cu(
    struct V {
      float x;
      __device__ V &operator+=(const V &o) { x += o.x; return *this; }
      __device__ float get() const { return x; }
      __device__ void set(float v) { x = v; }
    };
    __global__ void k(V *a, V *b, V *c) {
      a[0] += b[0];
      float t = b[1].get() + b->get() + c->x;
      c[2].set(t);
    })cu";
  EXPECT_FALSE(readOnly(Code, "k", 0));
  EXPECT_TRUE(readOnly(Code, "k", 1));
  std::string Why;
  EXPECT_FALSE(readOnly(Code, "k", 2, &Why));
  EXPECT_EQ(Why, "used by a non-const member function");
}

TEST(ReadOnlyPointerTest, Recursion) {
  const char *Code = R"cu(
    __device__ float sum(const float *p, int n) {
      return n == 0 ? 0.0f : p[0] + sum(p + 1, n - 1);
    }
    __global__ void k(float *out, const float *in, int n) { *out = sum(in, n); }
  )cu";
  EXPECT_TRUE(readOnly(Code, "k", 1));
}

TEST(ReadOnlyPointerTest, PointerRoot) {
  std::unique_ptr<ASTUnit> AST = build(R"cu(
    void host(float *a, float *b) {
      float *upper = a + 16;
      float *x = &a[3];
      float *y = b;
    })cu");
  ASSERT_TRUE(AST);
  auto Found = match(
      functionDecl(hasName("host"), forEachDescendant(varDecl().bind("v"))),
      AST->getASTContext());
  const ValueDecl *A = function(*AST, "host")->getParamDecl(0);
  const ValueDecl *B = function(*AST, "host")->getParamDecl(1);
  int Checked = 0;
  for (const BoundNodes &N : Found) {
    const auto *V = N.getNodeAs<VarDecl>("v");
    if (!V->getInit())
      continue;
    const ValueDecl *Root = pointerRoot(V->getInit());
    if (V->getName() == "y")
      EXPECT_EQ(Root, B);
    else
      EXPECT_EQ(Root, A) << V->getName().str();
    ++Checked;
  }
  EXPECT_EQ(Checked, 3);
}

// Escapes through constructors and aggregates that bind a reference.
TEST(ReadOnlyPointerTest, ReferenceMembers) {
  const char *Code = R"cu(
    struct Ref { float &r; __device__ Ref(float &x) : r(x) {} };
    struct CRef { const float &r; __device__ CRef(const float &x) : r(x) {} };
    struct Agg { float &r; };
    struct CAgg { int n; const float &r; };
    struct Val { float v; };
    __device__ float &pick(float *p) { return p[1]; }
    __device__ const float &cpick(float *p) { return p[1]; }
    __global__ void k(float *a, float *b, float *c, float *d, float *e,
                      float *f, float *g) {
      Ref ra(a[threadIdx.x]);
      ra.r = 1.0f;
      Agg ab{b[threadIdx.x]};
      ab.r = 2.0f;
      pick(c) = 3.0f;
      CRef rd(d[0]);
      CAgg ae{1, e[0]};
      Val vf{f[0]};
      float s = rd.r + ae.r + vf.v + cpick(g);
      a[0] = s;
    })cu";
  std::string Why;
  EXPECT_FALSE(readOnly(Code, "k", 0, &Why));
  EXPECT_EQ(Why, "passed by non-const reference to a constructor");
  EXPECT_FALSE(readOnly(Code, "k", 1, &Why));
  EXPECT_EQ(Why, "bound to a non-const reference member");
  EXPECT_FALSE(readOnly(Code, "k", 2, &Why));
  EXPECT_EQ(Why, "passed to 'pick', where it is returned as a non-const "
                 "reference");
  EXPECT_TRUE(readOnly(Code, "k", 3));
  EXPECT_TRUE(readOnly(Code, "k", 4));
  EXPECT_TRUE(readOnly(Code, "k", 5, &Why)) << Why;
  EXPECT_TRUE(readOnly(Code, "k", 6));
}

// pointerRoots: assignments after the declaration and both sides of ?:.
TEST(ReadOnlyPointerTest, PointerRoots) {
  std::unique_ptr<ASTUnit> AST = build(R"cu(
    void host(float *a, float *b, float *c, bool f) {
      float *p = c;
      p = a + 4;
      float *q;
      q = f ? p : b;
      float *r = q;
      (void)r;
    })cu");
  ASSERT_TRUE(AST);
  const FunctionDecl *Host = function(*AST, "host");
  auto Found =
      match(functionDecl(hasName("host"),
                         hasDescendant(varDecl(hasName("r")).bind("r"))),
            AST->getASTContext());
  ASSERT_EQ(Found.size(), 1u);
  const auto *R = Found[0].getNodeAs<VarDecl>("r");
  SmallVector<const ValueDecl *, 4> Roots;
  pointerRoots(R->getInit(), Roots);
  for (unsigned I = 0; I != 3; ++I)
    EXPECT_TRUE(llvm::is_contained(Roots, Host->getParamDecl(I))) << I;
  EXPECT_FALSE(llvm::is_contained(Roots, Host->getParamDecl(3)));
}

} // namespace

namespace {
/// The call that keeps nvcc from proving parameter \p Index of kernel
/// \p Name read-only (ReadOnlyResult::NcBlocker), by name; empty if none.
std::string ncBlocker(const std::string &Code, StringRef Name, unsigned Index,
                      bool *ExplicitLoad = nullptr) {
  std::unique_ptr<ASTUnit> AST = build(Code);
  EXPECT_TRUE(AST);
  if (!AST)
    return "";
  const FunctionDecl *FD = function(*AST, Name);
  EXPECT_TRUE(FD) << Name.str();
  if (!FD)
    return "";
  ReadOnlyPointerAnalysis Analysis(AST->getASTContext());
  const ReadOnlyResult &R = Analysis.analyze(FD, FD->getParamDecl(Index));
  EXPECT_TRUE(R.ReadOnly) << R.Reason;
  if (ExplicitLoad)
    *ExplicitLoad = R.ExplicitLoad;
  return R.NcBlocker ? R.NcBlocker->getNameAsString() : "";
}
} // namespace

TEST(ReadOnlyPointerTest, KeptRecursion) {
  const char *Code = R"cu(
    __device__ int eval(int cur, int *match, const int *lib) {
      if (match[cur] > -1) return 0;
      match[cur] = 1;
      return 1 + eval(lib[cur], match, lib) + eval(lib[cur + 1], match, lib);
    }
    __device__ int mffc(int cur, const int *f, int *size) {
      int ans = 1;
      if (++*size < 8) ans += mffc(f[cur], f, size);
      if (++*size < 8) ans += mffc(f[cur + 1], f, size);
      return ans;
    }
    __device__ int through(const int *lib, int *match) {
      return eval(0, match, lib) * 2;
    }
    __device__ void build(int cur, const int *lib, int *match) {
      if (match[cur] != -1) return;
      build(lib[cur], lib, match);
      build(lib[cur + 1], lib, match);
      match[cur] = cur;
    }
    __device__ int once(const int *lib, int *match, int i) {
      if (i < 0) return 0;
      match[i & 7] = 1;
      return 1 + once(lib, match, lib[i]);
    }
    __device__ int tails(const int *lib, int *match, int i) {
      if (i <= 0) return 0;
      match[i & 7] = 1;
      if (lib[i] > 3) return tails(lib, match, lib[i] - 1);
      return tails(lib, match, lib[i + 1]);
    }
    __device__ int pure(const int *lib, int i) {
      if (i <= 0) return lib[0];
      return pure(lib, i - 1) + pure(lib, i - 2);
    }
    __global__ void k(int *out, const int *a, const int *b, const int *c,
                      const int *d, const int *e, const int *f,
                      const int *g) {
      int match[8], size = 0;
      out[0] = eval(0, match, a) + mffc(0, b, &size) + through(c, match) +
               once(e, match, 3) + tails(f, match, 3) + pure(g, 3);
      build(0, d, match);
    })cu";
  EXPECT_EQ(ncBlocker(Code, "k", 1), "eval");
  EXPECT_EQ(ncBlocker(Code, "k", 2), "mffc");
  EXPECT_EQ(ncBlocker(Code, "k", 3), "eval"); // Through an inlined helper.
  EXPECT_EQ(ncBlocker(Code, "k", 4), "");     // Results not accumulated.
  EXPECT_EQ(ncBlocker(Code, "k", 5), "");     // One recursive call.
  EXPECT_EQ(ncBlocker(Code, "k", 6), "");     // Tail calls.
  EXPECT_EQ(ncBlocker(Code, "k", 7), "");     // Writes nothing.
}

TEST(ReadOnlyPointerTest, WmmaFragmentLoads) {
  const char *Code = R"cu(
    namespace nvcuda { namespace wmma {
    template <typename T> struct fragment { T x[8]; };
    template <typename T>
    __device__ void load_matrix_sync(fragment<T> &f, const T *p, unsigned ld);
    } }
    namespace other {
    template <typename T>
    __device__ void load_matrix_sync(T *f, const T *p, unsigned ld);
    }
    __global__ void k(const float *c, const float *d, float *out) {
      nvcuda::wmma::fragment<float> f;
      nvcuda::wmma::load_matrix_sync(f, c + 16, 16);
      other::load_matrix_sync(out, d, 16);
      out[0] = f.x[0];
    })cu";
  bool Explicit = false;
  EXPECT_EQ(ncBlocker(Code, "k", 0, &Explicit), "load_matrix_sync");
  EXPECT_TRUE(Explicit);
  EXPECT_EQ(ncBlocker(Code, "k", 1, &Explicit), "");
  EXPECT_FALSE(Explicit);
}
