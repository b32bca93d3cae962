//===--- LocalMemoryArrayCheck.cpp - cuda-lint ----------------------------===//
//
// OpenCL best-practices guide for CUDA GPUs, 3.2.3 "Local Memory": automatic
// variables that the compiler cannot keep in registers, such as arrays
// indexed with values it cannot determine at compile time, are placed in
// local memory, which is off-chip and as slow as global memory.
//
// nvcc keeps a per-thread array in registers when every index is a constant
// after unrolling. It fully unrolls small loops with constant trip counts on
// its own (measured on CUDA 13.0 for sm_90: a counter loop of 256 iterations
// with a one-load body, a loop of 8 iterations holding a loop of run-time
// trip count), so an array indexed by the counter of such a loop is a
// register array. It leaves loops rolled when their unrolled size would be
// large: 32 iterations calling sinf, cosf, tanf, sincosf or powf, 64
// calling sin, cos, tan, sincos, pow, exp, log or sqrt on doubles, 512 of
// anything; and
// when `#pragma unroll 1` (or a smaller count than the trip count, or
// `#pragma nounroll`) asks it to. ptxas then moves some of the PTX's
// `.local` arrays back to registers (0-byte stack frame): those are not
// reported, or, for loops nvcc keeps rolled, reported with a message that
// says so. See docs/checks/cuda-local-memory-array.md.
//
//===----------------------------------------------------------------------===//

#include "LocalMemoryArrayCheck.h"
#include "cudalint/analysis/DeviceCode.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

namespace {

/// What an index is after nvcc has unrolled what it unrolls.
struct IndexClass {
  enum ClassKind {
    Constant, ///< A compile-time constant.
    Counter,  ///< Built from counters of loops with constant trip counts.
    Unknown,  ///< Perhaps a constant once inlined or folded: not reported.
    RunTime,  ///< Certainly a run-time value (data, thread index, a bound).
  };
  ClassKind Kind = Constant;
  llvm::SmallVector<const VarDecl *, 2> Counters; ///< For Counter.
  const Expr *Cause = nullptr;                    ///< For RunTime.
  /// For RunTime: the comparison results (`a > b`, `!p`, `p && q`) its
  /// run-time part is made of, and whether it has any other run-time part
  /// (data, a thread index, a parameter) used as a number.
  unsigned PredicateBits = 0;
  bool OtherRunTime = false;

  static IndexClass unknown() { return {Unknown, {}, nullptr}; }
  static IndexClass runTime(const Expr *E) { return {RunTime, {}, E, 0, true}; }
  static IndexClass counter(const VarDecl *V) {
    return {Counter, {V}, nullptr};
  }
  /// A comparison of run-time values: one bit.
  static IndexClass predicate(const IndexClass &Operands) {
    return {RunTime, Operands.Counters, Operands.Cause, 1, false};
  }

  /// Both operands of an operation: the weaker knowledge wins.
  IndexClass &operator+=(const IndexClass &O) {
    if (O.Kind == RunTime && Kind == RunTime) {
      PredicateBits += O.PredicateBits;
      OtherRunTime |= O.OtherRunTime;
    } else if (O.Kind > Kind) {
      Kind = O.Kind;
      Cause = O.Cause;
      PredicateBits = O.PredicateBits;
      OtherRunTime = O.OtherRunTime;
    }
    for (const VarDecl *V : O.Counters)
      if (!llvm::is_contained(Counters, V))
        Counters.push_back(V);
    return *this;
  }
};

/// Functions whose value is a pure function of their integer arguments.
bool isPureIntegerCall(StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
      .Cases({"min",     "max",      "umin",     "umax",    "llmin",
              "llmax",   "ullmin",   "ullmax",   "abs",     "labs",
              "llabs",   "__mul24",  "__umul24", "__mulhi", "__umulhi",
              "__popc",  "__popcll", "__clz",    "__clzll", "__ffs",
              "__ffsll", "__brev",   "__brevll"},
             true)
      .Default(false);
}

/// Calls whose value differs between threads or runs: shuffles, votes,
/// atomics, loads through the cache operators, clocks, random numbers.
bool isRunTimeCall(StringRef Name) {
  return Name.starts_with("__shfl") || Name.starts_with("atomic") ||
         Name.starts_with("__ld") || Name.starts_with("clock") ||
         Name.starts_with("__ballot") || Name.starts_with("curand") ||
         Name == "__activemask" || Name == "__any_sync" ||
         Name == "__all_sync" || Name == "__match_any_sync";
}

/// The variable at the root of `a[i][j]`, `*p`, `p->f` (through casts).
const VarDecl *rootVariable(const Expr *E) {
  while (true) {
    E = E->IgnoreParenImpCasts();
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
      E = ASE->getBase();
      continue;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      E = ME->getBase();
      continue;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E);
        UO && UO->getOpcode() == UO_Deref) {
      E = UO->getSubExpr();
      continue;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return dyn_cast<VarDecl>(DRE->getDecl());
    return nullptr;
  }
}

/// Classifies the index expressions of one function.
class IndexClassifier {
public:
  IndexClassifier(ASTContext &Ctx, const FunctionDecl &FD,
                  ThreadIndexAnalysis &TIA)
      : Ctx(Ctx), FD(FD), TIA(TIA) {}

  IndexClass classify(const Expr *E) {
    if (!E)
      return IndexClass::unknown();
    E = E->IgnoreParens();
    if (E->isValueDependent() || E->isTypeDependent())
      return IndexClass::unknown();
    if (E->getType()->isIntegralOrEnumerationType()) {
      Expr::EvalResult R;
      if (E->EvaluateAsInt(R, Ctx, Expr::SE_NoSideEffects))
        return {};
    }
    if (ThreadIndexAnalysis::builtinSymbol(E))
      return IndexClass::runTime(E);
    if (const auto *Cast = dyn_cast<CastExpr>(E))
      return classify(Cast->getSubExpr());
    if (const auto *S = dyn_cast<SubstNonTypeTemplateParmExpr>(E))
      return classify(S->getReplacement());
    if (const auto *C = dyn_cast<ConstantExpr>(E))
      return classify(C->getSubExpr());
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      return V ? classifyVariable(V, E) : IndexClass::unknown();
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->getOpcode() == BO_Comma)
        return classify(BO->getRHS());
      if (BO->isAssignmentOp())
        return IndexClass::unknown();
      IndexClass L = classify(BO->getLHS());
      L += classify(BO->getRHS());
      if (L.Kind == IndexClass::RunTime &&
          (BO->isComparisonOp() || BO->isLogicalOp()))
        return IndexClass::predicate(L);
      return L;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      switch (UO->getOpcode()) {
      case UO_Plus:
      case UO_Minus:
      case UO_Not:
        return classify(UO->getSubExpr());
      case UO_LNot: {
        IndexClass C = classify(UO->getSubExpr());
        return C.Kind == IndexClass::RunTime ? IndexClass::predicate(C) : C;
      }
      case UO_Deref:
        return load(E);
      default:
        return IndexClass::unknown();
      }
    }
    // `c ? a : b` with constant arms becomes a select of two loads, not a
    // run-time index: only the arms count.
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
      IndexClass T = classify(CO->getTrueExpr());
      T += classify(CO->getFalseExpr());
      return T;
    }
    if (isa<ArraySubscriptExpr, MemberExpr>(E))
      return load(E);
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (!Callee || !Callee->getIdentifier() || isa<CXXMemberCallExpr>(Call))
        return IndexClass::unknown();
      StringRef Name = Callee->getName();
      if (isRunTimeCall(Name))
        return IndexClass::runTime(E);
      if (!isPureIntegerCall(Name))
        return IndexClass::unknown();
      IndexClass R;
      for (const Expr *Arg : Call->arguments())
        R += classify(Arg);
      return R;
    }
    return IndexClass::unknown();
  }

private:
  /// A value read from memory: data, unless it is read from a per-thread
  /// variable (whose contents may be constants that nvcc folds) or from a
  /// constant table.
  IndexClass load(const Expr *E) {
    const VarDecl *Root = rootVariable(E);
    if (!Root)
      return IndexClass::unknown();
    if (const auto *P = dyn_cast<ParmVarDecl>(Root))
      return isKernel(&FD) && P->getDeclContext() == &FD
                 ? IndexClass::runTime(E)
                 : IndexClass::unknown();
    if (Root->hasGlobalStorage() && !Root->getType().isConstQualified())
      return IndexClass::runTime(E);
    if (Root->hasAttr<CUDAConstantAttr>() || Root->hasAttr<CUDASharedAttr>())
      return IndexClass::runTime(E);
    return IndexClass::unknown();
  }

  IndexClass classifyVariable(const VarDecl *V, const Expr *Ref) {
    if (const auto *P = dyn_cast<ParmVarDecl>(V)) {
      // A kernel's parameters are run-time values; a device function's may
      // be constants where it is inlined.
      if (isKernel(&FD) && P->getDeclContext() == &FD)
        return IndexClass::runTime(Ref);
      return IndexClass::unknown();
    }
    if (V->hasGlobalStorage())
      return V->getType().isConstQualified() || V->isConstexpr()
                 ? IndexClass::unknown()
                 : IndexClass::runTime(Ref);
    if (!V->hasLocalStorage() || !V->getType()->isIntegralOrEnumerationType())
      return IndexClass::unknown();
    if (!InProgress.insert(V).second)
      return IndexClass::unknown();
    IndexClass R = classifyLocal(V, Ref);
    InProgress.erase(V);
    return R;
  }

  IndexClass classifyLocal(const VarDecl *V, const Expr *Ref) {
    if (TIA.isInductionVariable(V)) {
      if (TIA.constantLoopSpan(V))
        return IndexClass::counter(V);
      // A loop whose bound or start is a run-time value.
      const auto *For = loopOf(V);
      if (!For)
        return IndexClass::unknown();
      const auto *Cond = dyn_cast_or_null<BinaryOperator>(
          For->getCond() ? For->getCond()->IgnoreParenImpCasts() : nullptr);
      if (!Cond || !Cond->isComparisonOp())
        return IndexClass::unknown();
      // The counter itself is in progress (unknown); a run-time bound or
      // start makes it a run-time value.
      IndexClass B = classify(Cond);
      IndexClass Start = classify(V->getInit());
      if (B.Kind == IndexClass::RunTime)
        return IndexClass::runTime(B.Cause);
      if (Start.Kind == IndexClass::RunTime)
        return IndexClass::runTime(Start.Cause);
      return IndexClass::unknown();
    }
    if (const Expr *Def = TIA.singleDefinition(V))
      return classify(Def);
    return IndexClass::unknown();
  }

  const ForStmt *loopOf(const VarDecl *V) {
    DynTypedNodeList P = Ctx.getParents(*V);
    if (P.empty() || !P[0].get<DeclStmt>())
      return nullptr;
    P = Ctx.getParents(*P[0].get<DeclStmt>());
    return P.empty() ? nullptr : P[0].get<ForStmt>();
  }

  ASTContext &Ctx;
  const FunctionDecl &FD;
  ThreadIndexAnalysis &TIA;
  llvm::DenseSet<const VarDecl *> InProgress;
};

/// How a loop with a constant trip count is unrolled.
enum class Unrolling {
  Full,           ///< `#pragma unroll`, or by nvcc on its own.
  RolledByPragma, ///< `#pragma unroll 1`, a smaller count, `nounroll`.
  RolledByNvcc,   ///< No pragma, and nvcc leaves it rolled.
};

/// The `#pragma unroll` hint on \p Loop, if any.
const LoopHintAttr *unrollHint(ASTContext &Ctx, const Stmt &Loop) {
  DynTypedNodeList P = Ctx.getParents(Loop);
  if (P.empty())
    return nullptr;
  const auto *AS = P[0].get<AttributedStmt>();
  if (!AS)
    return nullptr;
  for (const Attr *A : AS->getAttrs())
    if (const auto *LH = dyn_cast<LoopHintAttr>(A))
      if (LH->getOption() == LoopHintAttr::Unroll ||
          LH->getOption() == LoopHintAttr::UnrollCount)
        return LH;
  return nullptr;
}

/// The iterations, in the measured nvcc (CUDA 13.0, sm_90), from which a
/// loop with a constant trip count that calls \p F in its body stays
/// rolled; 0 when the call does not make it so. The C++ overloads of the
/// math functions for float (`sin(float)` is `sinf`) count as float.
int64_t rolledFrom(const FunctionDecl &F) {
  StringRef Name = F.getName();
  QualType T =
      F.getNumParams() ? F.getParamDecl(0)->getType() : F.getReturnType();
  bool IsFloat = T->isSpecificBuiltinType(BuiltinType::Float);
  bool IsDouble = T->isSpecificBuiltinType(BuiltinType::Double);
  if (llvm::is_contained({"sinf", "cosf", "tanf", "sincosf", "powf"}, Name))
    return 32;
  if (llvm::is_contained({"sin", "cos", "tan", "sincos", "pow"}, Name))
    return IsFloat ? 32 : IsDouble ? 64 : 0;
  if (llvm::is_contained({"exp", "log", "sqrt"}, Name))
    return IsDouble ? 64 : 0;
  return 0;
}

/// The smallest trip count from which nvcc leaves \p Body's loop rolled
/// (see the file comment).
int64_t rolledTripCount(const Stmt *Body) {
  int64_t Min = 512;
  llvm::SmallVector<const Stmt *, 16> Work{Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *F = Call->getDirectCallee())
        if (F->getIdentifier())
          if (int64_t N = rolledFrom(*F))
            Min = std::min(Min, N);
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  return Min;
}

/// Whether the array of a loop of \p Trip iterations over \p Body that nvcc
/// leaves rolled stays in local memory after ptxas. Measured (CUDA 13.0,
/// sm_90, `ptxas -v` stack frame): it does from 512 iterations whatever
/// the body, and with the trigonometric calls (`sinf`, `cosf`, `tanf`,
/// `sincosf`, and `sin`, `cos`, `tan`, `sincos` of doubles), whose slow
/// path has a local array of its own; with `powf`, `pow`, `exp` and `log`
/// the PTX's `.local` array is back in registers (0-byte stack frame).
bool ptxasKeepsLocal(const Stmt *Body, int64_t Trip) {
  if (Trip >= 512)
    return true;
  llvm::SmallVector<const Stmt *, 16> Work{Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *F = Call->getDirectCallee())
        if (F->getIdentifier() &&
            llvm::is_contained({"sinf", "cosf", "tanf", "sincosf", "sin", "cos",
                                "tan", "sincos"},
                               F->getName()))
          if (int64_t N = rolledFrom(*F); N && Trip >= N)
            return true;
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  return false;
}

/// The text before \p Loc on its line, when it is only white space.
std::optional<StringRef> indentation(const SourceManager &SM,
                                     SourceLocation Loc) {
  auto [File, Offset] = SM.getDecomposedLoc(Loc);
  StringRef Buffer = SM.getBufferData(File);
  size_t LineStart = Buffer.rfind('\n', Offset ? Offset - 1 : 0);
  LineStart = LineStart == StringRef::npos ? 0 : LineStart + 1;
  if (Offset < LineStart)
    return std::nullopt;
  StringRef Indent = Buffer.slice(LineStart, Offset);
  if (Indent.find_first_not_of(" \t") != StringRef::npos)
    return std::nullopt;
  return Indent;
}

/// Words (4 bytes) an array of this type takes per thread.
uint64_t wordsOf(ASTContext &Ctx, QualType T) {
  return (Ctx.getTypeSizeInChars(T).getQuantity() + 3) / 4;
}

/// Per-thread arrays small enough for registers once every index is
/// constant (an H100 thread has at most 255 registers).
constexpr uint64_t MaxRegisterWords = 64;
/// A thread has at most 255 registers: a larger array is in local memory
/// whatever its indices.
constexpr uint64_t MaxThreadRegisters = 255;
/// An array this small whose accesses all run once per thread (outside
/// loops) costs a few L1-cached local accesses per thread: not reported.
constexpr int64_t SmallArrayBytes = 32;
/// Longer loops are not worth unrolling for it.
constexpr int64_t MaxUnrollTrip = 128;

/// The per-thread array variable that the access \p Sub (its outermost
/// subscript) reads, with its indices from the outermost in; null when it
/// is not a subscript chain on an array variable.
const VarDecl *accessedArray(const ArraySubscriptExpr *Sub,
                             llvm::SmallVectorImpl<const Expr *> &Indices) {
  const Expr *Base = Sub;
  while (const auto *ASE = dyn_cast<ArraySubscriptExpr>(Base)) {
    // Only arrays: `p[i]` on a pointer is no per-thread array.
    if (!ASE->getBase()->IgnoreParenImpCasts()->getType()->isArrayType())
      return nullptr;
    Indices.push_back(ASE->getIdx());
    Base = ASE->getBase()->IgnoreParenImpCasts();
  }
  const auto *Ref = dyn_cast<DeclRefExpr>(Base);
  return Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
}

/// Every access of \p Array in \p Body, by its outermost subscript, in
/// source order.
llvm::SmallVector<const ArraySubscriptExpr *, 8>
accessesOf(const VarDecl *Array, const Stmt *Body) {
  llvm::SmallVector<const ArraySubscriptExpr *, 8> Out;
  llvm::DenseSet<const Stmt *> Inner;
  llvm::SmallVector<const Stmt *, 32> Work{Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(S);
        ASE && !Inner.contains(ASE)) {
      llvm::SmallVector<const Expr *, 2> Idx;
      if (accessedArray(ASE, Idx) == Array) {
        Out.push_back(ASE);
        for (const Expr *B = ASE->getBase()->IgnoreParenImpCasts();
             const auto *In = dyn_cast<ArraySubscriptExpr>(B);
             B = In->getBase()->IgnoreParenImpCasts())
          Inner.insert(In);
      }
    }
    // Children in reverse, so that the first child is visited first.
    llvm::SmallVector<const Stmt *, 8> Children(S->child_begin(),
                                                S->child_end());
    for (const Stmt *C : llvm::reverse(Children))
      Work.push_back(C);
  }
  return Out;
}

/// Whether the access \p A (an outermost subscript) only reads the element:
/// its value is loaded, it is not assigned, incremented, bound to a
/// reference or decayed to a pointer.
bool onlyReads(ASTContext &Ctx, const ArraySubscriptExpr *A) {
  const Stmt *Cur = A;
  DynTypedNodeList P = Ctx.getParents(*Cur);
  while (!P.empty() && P[0].get<ParenExpr>()) {
    Cur = P[0].get<Stmt>();
    P = Ctx.getParents(*Cur);
  }
  if (P.empty())
    return false;
  const auto *Cast = P[0].get<ImplicitCastExpr>();
  return Cast && Cast->getCastKind() == CK_LValueToRValue;
}

/// Whether two index expressions are spelled the same.
bool sameExpr(ASTContext &Ctx, const Expr *A, const Expr *B) {
  llvm::FoldingSetNodeID IA, IB;
  A->IgnoreParenImpCasts()->Profile(IA, Ctx, /*Canonical=*/true);
  B->IgnoreParenImpCasts()->Profile(IB, Ctx, /*Canonical=*/true);
  return IA == IB;
}

} // namespace

void LocalMemoryArrayCheck::registerMatchers(MatchFinder *Finder) {
  limitParentMapToUserCode(Finder);
  Finder->addMatcher(
      arraySubscriptExpr(unless(isExpansionInSystemHeader())).bind("subscript"),
      this);
}

void LocalMemoryArrayCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Sub = Result.Nodes.getNodeAs<ArraySubscriptExpr>("subscript");
  ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = *Result.SourceManager;

  // The whole `a[i][j]` access, from its outermost subscript.
  {
    const Stmt *Cur = Sub;
    DynTypedNodeList P = Ctx.getParents(*Cur);
    while (!P.empty() &&
           (P[0].get<ImplicitCastExpr>() || P[0].get<ParenExpr>())) {
      Cur = P[0].get<Stmt>();
      P = Ctx.getParents(*Cur);
    }
    if (!P.empty())
      if (const auto *Outer = P[0].get<ArraySubscriptExpr>())
        if (Outer->getBase()->IgnoreParenImpCasts() == Sub)
          return;
  }
  llvm::SmallVector<const Expr *, 2> Indices;
  const VarDecl *Array = accessedArray(Sub, Indices);
  if (!Array || !Array->hasLocalStorage() || isa<ParmVarDecl>(Array) ||
      Array->hasAttr<CUDASharedAttr>() || Array->getType()->isDependentType())
    return;
  const auto *ArrayType = Ctx.getAsConstantArrayType(Array->getType());
  if (!ArrayType || Ctx.getConstantArrayElementCount(ArrayType) < 2)
    return;
  // Each array is judged once, from all its accesses (a template's array
  // once per instantiation).
  if (!Judged.insert(Array).second)
    return;
  const FunctionDecl *FD = enclosingFunction(Ctx, *Sub);
  if (!FD || !isDeviceFunction(FD) || !FD->hasBody() ||
      FD->isDependentContext())
    return;

  std::unique_ptr<ThreadIndexAnalysis> &TIA = Analyses[FD];
  if (!TIA)
    TIA = std::make_unique<ThreadIndexAnalysis>(Ctx, FD);
  IndexClassifier Classifier(Ctx, *FD, *TIA);

  // Every access of the array in the function, classified. An access
  // spelled in a macro's body is left out: the macro may be used where
  // its loops are unrolled, and a fix could not be placed.
  struct Classified {
    const ArraySubscriptExpr *Sub;
    IndexClass Class;
    llvm::SmallVector<const Expr *, 2> Indices; ///< Outermost first.
    llvm::SmallVector<IndexClass, 2> PerIndex;
  };
  llvm::SmallVector<Classified, 8> Accesses;
  for (const ArraySubscriptExpr *A : accessesOf(Array, FD->getBody())) {
    SourceLocation Bracket = A->getRBracketLoc();
    if (Bracket.isMacroID() && SM.isMacroBodyExpansion(Bracket))
      continue;
    Classified Acc{A, {}, {}, {}};
    accessedArray(A, Acc.Indices);
    for (const Expr *Index : Acc.Indices) {
      Acc.PerIndex.push_back(Classifier.classify(Index));
      Acc.Class += Acc.PerIndex.back();
    }
    Accesses.push_back(std::move(Acc));
  }

  // A run-time subscript that is the same value in every access (`f[b][k]`
  // with `b = blockIdx.x` everywhere) never selects between the elements
  // that a store and a later load reach: nvcc forwards each store to its
  // load and the array does not reach memory, not even in the PTX. Judge
  // the array by its other subscripts: where one of those is a run-time
  // index, it is the cause (phmm's `t[b][k][s]`, `s = threadIdx.x`, is
  // reported at that access, not at the first `t[b][k][l]`).
  {
    llvm::SmallVector<unsigned, 2> Same;
    bool SameRank = !Accesses.empty();
    size_t Rank = Accesses.empty() ? 0 : Accesses.front().Indices.size();
    for (const Classified &A : Accesses)
      SameRank &= A.Indices.size() == Rank;
    for (size_t D = 0; SameRank && D < Rank; ++D) {
      if (llvm::none_of(Accesses, [&](const Classified &A) {
            return A.PerIndex[D].Kind == IndexClass::RunTime;
          }))
        continue;
      const Expr *First = Accesses.front().Indices[D];
      if (isThreadInvariant(Ctx, *TIA, First, FD->getBody()) &&
          llvm::all_of(Accesses, [&](const Classified &A) {
            return sameExpr(Ctx, A.Indices[D], First);
          }))
        Same.push_back(D);
    }
    if (!Same.empty())
      for (Classified &A : Accesses) {
        A.Class = IndexClass();
        for (size_t D = 0; D < Rank; ++D)
          if (!llvm::is_contained(Same, D))
            A.Class += A.PerIndex[D];
      }
  }

  // ptxas (not nvcc) moves some run-time-indexed arrays back to registers,
  // with selects between the elements; the PTX's `.local` then has no
  // LDL/STL in the SASS (0-byte stack frame by `ptxas -v`, CUDA 13.0,
  // sm_90). Measured (see the check's docs): a table of at most 8 32-bit
  // elements that is only read at run-time indices (written at constant
  // ones), and an array of at most 32 words whose run-time indices are
  // made of at most 3 comparison results (`(a > b) * 4 + (c > d) * 2`).
  {
    auto IsRunTime = [](const Classified &A) {
      return A.Class.Kind == IndexClass::RunTime;
    };
    uint64_t Words = wordsOf(Ctx, Array->getType());
    uint64_t Elements = Ctx.getConstantArrayElementCount(ArrayType);
    QualType Elem = Ctx.getBaseElementType(Array->getType());
    bool ReadOnlyTable = Elements <= 8 &&
                         Ctx.getTypeSizeInChars(Elem).getQuantity() == 4 &&
                         llvm::all_of(Accesses, [&](const Classified &A) {
                           if (onlyReads(Ctx, A.Sub))
                             return true;
                           return A.Class.Kind == IndexClass::Constant ||
                                  A.Class.Kind == IndexClass::Counter;
                         });
    bool FewSelected =
        Words <= 32 && llvm::all_of(Accesses, [&](const Classified &A) {
          return !IsRunTime(A) ||
                 (!A.Class.OtherRunTime && A.Class.PredicateBits <= 3);
        });
    if (llvm::any_of(Accesses, IsRunTime) && (ReadOnlyTable || FewSelected))
      return;
    // A small array (32 bytes or less) whose every access runs once per
    // thread, outside loops: a few local-memory accesses per thread, of one
    // or two L1 cache lines. Not worth acting on.
    if (Ctx.getTypeSizeInChars(Array->getType()).getQuantity() <=
            SmallArrayBytes &&
        llvm::none_of(Accesses, [&](const Classified &A) {
          return isInsideLoop(Ctx, A.Sub, FD->getBody());
        }))
      return;
  }

  auto LocOf = [&](const ArraySubscriptExpr *A) {
    return SM.getFileLoc(A->getExprLoc());
  };
  auto NoteDeclaration = [&] {
    diag(Array->getLocation(), "%0 is declared here", DiagnosticIDs::Note)
        << Array;
  };

  // One run-time index puts the whole array in local memory: report the
  // first, and nothing else (unrolling loops would not help).
  for (const Classified &A : Accesses) {
    if (A.Class.Kind != IndexClass::RunTime)
      continue;
    SourceLocation Loc = LocOf(A.Sub);
    if (!Reported.insert(Loc).second)
      return;
    // Above a thread's registers the array is in local memory whatever its
    // indices: say so, and name what helps.
    uint64_t Words = wordsOf(Ctx, Array->getType());
    if (Words > MaxThreadRegisters)
      diag(Loc, "per-thread array %0 (%1 words) is larger than the 255 "
                "registers a thread can have, so it is placed in local "
                "memory, as slow as global memory, whatever its indices; "
                "shared memory or a smaller array would keep it on chip")
          << Array << static_cast<unsigned>(Words);
    else
      diag(Loc, "per-thread array %0 is indexed with a value known only at "
                "run time, so it is placed in local memory, as slow as global "
                "memory, instead of registers")
          << Array;
    if (A.Class.Cause && SM.getFileLoc(A.Class.Cause->getExprLoc()) != Loc)
      diag(SM.getFileLoc(A.Class.Cause->getExprLoc()),
           "the index depends on this value", DiagnosticIDs::Note);
    NoteDeclaration();
    return;
  }
  // An index that might be a run-time value: the array may be in local
  // memory whatever the loops do; say nothing.
  for (const Classified &A : Accesses)
    if (A.Class.Kind == IndexClass::Unknown)
      return;

  // Every non-constant index is a loop counter: how are those loops
  // unrolled?
  struct LoopInfo {
    const ForStmt *For;
    int64_t Trip;
    const LoopHintAttr *Hint;
    Unrolling How;
    bool SassLocal; ///< For RolledByNvcc: still local memory after ptxas.
  };
  const ArraySubscriptExpr *ByPragma = nullptr, *ByNvcc = nullptr;
  const LoopInfo *PragmaLoop = nullptr;
  llvm::SmallVector<LoopInfo, 2> Rolled;
  for (const Classified &A : Accesses) {
    for (const VarDecl *Counter : A.Class.Counters) {
      std::optional<LoopSpan> Span = TIA->constantLoopSpan(Counter);
      if (!Span)
        return;
      const auto *For = cast<ForStmt>(Span->Loop);
      int64_t Trip = (Span->Last - Span->First) / Span->Step + 1;
      const LoopHintAttr *Hint = unrollHint(Ctx, *For);
      Unrolling How = Unrolling::Full;
      if (Hint) {
        if (Hint->getOption() == LoopHintAttr::Unroll) {
          if (Hint->getState() == LoopHintAttr::Disable)
            How = Unrolling::RolledByPragma;
        } else {
          Expr::EvalResult R;
          const Expr *Count = Hint->getValue();
          if (!Count || Count->isValueDependent() ||
              !Count->EvaluateAsInt(R, Ctx))
            return;
          if (R.Val.getInt().getExtValue() < Trip)
            How = Unrolling::RolledByPragma;
        }
      } else if (Trip >= rolledTripCount(For->getBody())) {
        How = Unrolling::RolledByNvcc;
      }
      if (How == Unrolling::Full)
        continue;
      if (How == Unrolling::RolledByPragma && !ByPragma)
        ByPragma = A.Sub;
      if (How == Unrolling::RolledByNvcc && !ByNvcc)
        ByNvcc = A.Sub;
      if (llvm::none_of(Rolled,
                        [&](const LoopInfo &L) { return L.For == For; }))
        Rolled.push_back(
            {For, Trip, Hint, How, ptxasKeepsLocal(For->getBody(), Trip)});
    }
  }
  for (const LoopInfo &L : Rolled)
    if (L.How == Unrolling::RolledByPragma) {
      PragmaLoop = &L;
      break;
    }

  if (ByPragma) {
    SourceLocation Loc = LocOf(ByPragma);
    if (!Reported.insert(Loc).second)
      return;
    // Too large for registers: the pragma is not what costs.
    if (wordsOf(Ctx, Array->getType()) > MaxThreadRegisters)
      return;
    diag(Loc, "per-thread array %0 is indexed by the counter of a loop that "
              "a pragma keeps rolled, so it is placed in local memory, as "
              "slow as global memory, instead of registers")
        << Array;
    diag(PragmaLoop->Hint->getLocation(),
         "this pragma keeps the loop of %0 iterations rolled; '#pragma "
         "unroll' would make every index constant",
         DiagnosticIDs::Note)
        << PragmaLoop->Trip;
    NoteDeclaration();
    return;
  }
  if (!ByNvcc)
    return;

  // Unrolled, every index would be constant: offer `#pragma unroll` on each
  // rolled loop where the array fits in registers and the loops are short.
  SourceLocation Loc = LocOf(ByNvcc);
  if (!Reported.insert(Loc).second)
    return;
  bool CanFix = wordsOf(Ctx, Array->getType()) <= MaxRegisterWords;
  llvm::SmallVector<FixItHint, 2> Fixes;
  for (const LoopInfo &L : Rolled) {
    SourceLocation ForLoc = L.For->getBeginLoc();
    std::optional<StringRef> Indent;
    if (L.Trip > MaxUnrollTrip || ForLoc.isMacroID() ||
        !(Indent = indentation(SM, ForLoc))) {
      CanFix = false;
      break;
    }
    if (!FixedLoops.contains(ForLoc))
      Fixes.push_back(FixItHint::CreateInsertion(
          ForLoc, ("#pragma unroll\n" + *Indent).str()));
  }
  {
    // Where ptxas moves the array back to registers, the finding is the
    // rolled loop, not memory traffic (test/gpu/local-array-unroll: 1.61x
    // from `#pragma unroll` with no LDL/STL before or after).
    bool SassLocal = llvm::any_of(Rolled, [](const LoopInfo &L) {
      return L.How == Unrolling::RolledByNvcc && L.SassLocal;
    });
    auto D =
        diag(Loc, SassLocal ? "per-thread array %0 is indexed by the counter "
                              "of a loop of %1 iterations that nvcc does not "
                              "unroll on its own, so it is placed in local "
                              "memory, as slow as global memory, instead of "
                              "registers"
                            : "per-thread array %0 is indexed by the counter "
                              "of a loop of %1 iterations that nvcc does not "
                              "unroll on its own, so the loop runs with "
                              "run-time indices into the array (nvcc's PTX "
                              "places it in local memory; ptxas moves it back "
                              "to registers)")
        << Array << Rolled.front().Trip;
    if (CanFix)
      for (const FixItHint &F : Fixes) {
        D << F;
        FixedLoops.insert(F.RemoveRange.getBegin());
      }
  }
  for (const LoopInfo &L : Rolled)
    diag(L.For->getBeginLoc(),
         CanFix ? "'#pragma unroll' on this loop makes every index constant"
                : "'#pragma unroll' on this loop would make every index "
                  "constant, but the array or the loop is too large for "
                  "registers",
         DiagnosticIDs::Note);
  NoteDeclaration();
}

} // namespace clang::tidy::cuda
