//===--- UncoalescedAccessCheck.cpp - cuda-lint ---------------------------===//
//
// OpenCL best-practices guide for CUDA GPUs, 3.2.1 "Coalesced Access to
// Global Memory" and 3.2.1.4 "Strided Accesses": when consecutive threads
// access addresses a stride apart, a warp's request is served by many
// 32-byte sectors and most of the bandwidth is wasted.
//
//===----------------------------------------------------------------------===//

#include "UncoalescedAccessCheck.h"
#include "cudalint/analysis/DeviceCode.h"
#include "cudalint/analysis/LaneGuards.h"
#include "cudalint/analysis/ThreadIndex.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MathExtras.h"
#include <set>
#include <tuple>
#include <vector>

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

namespace {

enum class AccessKind { Load, Store, LoadStore };

// How the subscript is used: read, written, both; nullopt for anything else
// (its address taken, a member of a struct element, bound to a reference).
std::optional<AccessKind> accessKind(ASTContext &Ctx, const Expr *Access) {
  const Expr *Cur = Access;
  DynTypedNodeList Parents = Ctx.getParents(*Cur);
  while (!Parents.empty() && Parents[0].get<ParenExpr>()) {
    Cur = Parents[0].get<ParenExpr>();
    Parents = Ctx.getParents(*Cur);
  }
  if (Parents.empty())
    return std::nullopt;
  // An element of a braced initialiser (`float a[4] = {p[0], p[1]};`) has
  // two parents: the conversion in the semantic form of the list, and the
  // list itself in its syntactic form.
  for (const DynTypedNode &P : Parents)
    if (const auto *Cast = P.get<ImplicitCastExpr>())
      if (Cast->getCastKind() == CK_LValueToRValue)
        return AccessKind::Load;
  if (Parents[0].get<InitListExpr>() && Access->getType()->isScalarType())
    return AccessKind::Load;
  if (const auto *BO = Parents[0].get<BinaryOperator>())
    if (BO->isAssignmentOp() && BO->getLHS()->IgnoreParens() == Access)
      return BO->getOpcode() == BO_Assign ? AccessKind::Store
                                          : AccessKind::LoadStore;
  if (const auto *UO = Parents[0].get<UnaryOperator>())
    if (UO->isIncrementDecrementOp())
      return AccessKind::LoadStore;
  // Elements of class type (float4, int2): `a[i] = make_float4(...)`
  // and copies out of `a[i]`.
  if (const auto *Op = Parents[0].get<CXXOperatorCallExpr>())
    if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2 &&
        Op->getArg(0)->IgnoreParens() == Cur)
      return AccessKind::Store;
  // The right side of a copy assignment `o[i] = a[j]` reads the element.
  auto IsCopiedFrom = [](const CXXOperatorCallExpr *Op, const Expr *E) {
    return Op->getOperator() == OO_Equal && Op->getNumArgs() == 2 &&
           Op->getArg(1)->IgnoreParens() == E;
  };
  if (const auto *Op = Parents[0].get<CXXOperatorCallExpr>())
    if (IsCopiedFrom(Op, Cur))
      return AccessKind::Load;
  if (const auto *Cast = Parents[0].get<ImplicitCastExpr>())
    if (Cast->getCastKind() == CK_NoOp) {
      DynTypedNodeList Up = Ctx.getParents(*Cast);
      if (!Up.empty()) {
        if (const auto *Construct = Up[0].get<CXXConstructExpr>())
          if (Construct->getConstructor()->isCopyOrMoveConstructor())
            return AccessKind::Load;
        if (const auto *Op = Up[0].get<CXXOperatorCallExpr>())
          if (IsCopiedFrom(Op, Cast))
            return AccessKind::Load;
      }
    }
  if (const auto *Construct = Parents[0].get<CXXConstructExpr>())
    if (Construct->getConstructor()->isCopyOrMoveConstructor())
      return AccessKind::Load;
  return std::nullopt;
}

// Follows a pointer back to a pointer parameter of the kernel, adding up the
// offsets on the way (`float *row = in + y * width;`): the parameter and the
// offset expressions, or null when the pointer is anything else.
const ParmVarDecl *globalPointer(const Expr *E, const FunctionDecl *Kernel,
                                 ThreadIndexAnalysis &TIA,
                                 SmallVectorImpl<const Expr *> &Offsets,
                                 unsigned Depth = 0) {
  if (Depth > 8)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_Add) {
      bool LHSPtr = BO->getLHS()->getType()->isPointerType();
      Offsets.push_back(LHSPtr ? BO->getRHS() : BO->getLHS());
      return globalPointer(LHSPtr ? BO->getLHS() : BO->getRHS(), Kernel, TIA,
                           Offsets, Depth + 1);
    }
    return nullptr;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() != UO_AddrOf)
      return nullptr;
    const auto *ASE =
        dyn_cast<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens());
    if (!ASE)
      return nullptr;
    Offsets.push_back(ASE->getIdx());
    return globalPointer(ASE->getBase(), Kernel, TIA, Offsets, Depth + 1);
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  if (!DRE)
    return nullptr;
  const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
  if (!V || !V->getType()->isPointerType())
    return nullptr;
  if (const auto *P = dyn_cast<ParmVarDecl>(V))
    return P->getDeclContext() == Kernel && TIA.isUnmodified(P) ? P : nullptr;
  if (V->getDeclContext() != Kernel || V->hasAttr<CUDASharedAttr>())
    return nullptr;
  const Expr *Def = TIA.singleDefinition(V);
  return Def ? globalPointer(Def, Kernel, TIA, Offsets, Depth + 1) : nullptr;
}

// True when the kernel only reads through \p P: a `const` pointee, or no
// store, call argument or dereference goes through a pointer derived from it.
bool isReadOnly(ASTContext &Ctx, const ParmVarDecl *P,
                const FunctionDecl *Kernel, ThreadIndexAnalysis &TIA) {
  if (P->getType()->getPointeeType().isConstQualified())
    return true;
  auto DerivesFromP = [&](const Expr *E) {
    SmallVector<const Expr *, 2> Offsets;
    return globalPointer(E, Kernel, TIA, Offsets) == P;
  };
  const Stmt &Body = *Kernel->getBody();
  for (const auto &Node :
       match(findAll(arraySubscriptExpr().bind("e")), Body, Ctx)) {
    const auto *ASE = Node.getNodeAs<ArraySubscriptExpr>("e");
    if (DerivesFromP(ASE->getBase()) &&
        accessKind(Ctx, ASE) != AccessKind::Load)
      return false;
  }
  for (const auto &Node :
       match(findAll(unaryOperator(hasOperatorName("*")).bind("e")), Body, Ctx))
    if (DerivesFromP(Node.getNodeAs<UnaryOperator>("e")->getSubExpr()))
      return false;
  for (const auto &Node : match(findAll(callExpr().bind("e")), Body, Ctx))
    for (const Expr *Arg : Node.getNodeAs<CallExpr>("e")->arguments())
      if (Arg->getType()->isPointerType() && DerivesFromP(Arg))
        return false;
  // A local pointer made from P that is then changed: its uses could not be
  // followed above.
  for (const auto &Node :
       match(findAll(varDecl(hasInitializer(
                                 hasDescendant(declRefExpr(to(equalsNode(P))))))
                         .bind("v")),
             Body, Ctx)) {
    const auto *V = Node.getNodeAs<VarDecl>("v");
    if (V->getType()->isPointerType() && !TIA.singleDefinition(V))
      return false;
  }
  return true;
}

// A run-time width worth reporting: made of the kernel's parameters and the
// launch shape only (not of loop counters or block indices, which can be 0
// or 1).
bool isRunTimeWidth(const IndexPoly &P) {
  for (const auto &Entry : P.terms()) {
    if (Entry.second < 0)
      return false;
    for (const IndexSymbol &S : Entry.first) {
      if (S.Kind == IndexSymbol::BlockDim || S.Kind == IndexSymbol::GridDim)
        continue;
      if (S.Kind == IndexSymbol::Variable && isa<ParmVarDecl>(S.getDecl()))
        continue;
      return false;
    }
  }
  return !P.isZero();
}

int64_t floorDiv32(int64_t A) { return A >= 0 ? A / 32 : -((-A + 31) / 32); }

/// The sectors of the warp request with the most: the lanes that take part,
/// the 32-byte sectors they touch, and those they would touch reading
/// consecutive elements.
struct WarpCount {
  int64_t Lanes = 0, Sectors = 0, Coalesced = 0;
};

// Counts, warp by warp, the sectors an access touches. Lane (x, y, z)
// accesses byte Offset + (cx * x + cy * y + cz * z) * ElemSize, where the
// coefficients of threadIdx.y and .z are constants; where one is not (a
// run-time row width) each row has sectors of its own. A run-time x stride
// gives each lane sectors of its own (two where \p Inside is false).
WarpCount countSectors(const IndexForm &Index, const LaneStride &Stride,
                       int64_t ElemSize, int64_t AccessSize, int64_t Offset,
                       bool Inside, std::optional<BlockShape> Shape,
                       LaneGuards Guards) {
  std::array<int64_t, 3> Coef = {0, 0, 0};
  std::array<bool, 3> Known = {true, true, true};
  if (Stride.isConstant())
    Coef[0] = Stride.Value;
  else
    Known[0] = false;
  IndexPoly ThreadPart = Index.Poly ? Index.Poly->threadPart() : IndexPoly();
  for (const auto &[M, C] : ThreadPart.terms())
    for (const IndexSymbol &Sym : M) {
      if (Sym.Kind != IndexSymbol::ThreadIdx || Sym.Dim == 0)
        continue;
      if (M.size() == 1)
        Coef[Sym.Dim] += C;
      else
        Known[Sym.Dim] = false;
    }
  BlockShape B = Shape ? *Shape : BlockShape{1024, 1, 1};
  int64_t Threads = B[0] * B[1] * B[2];
  WarpCount Best;
  for (int64_t First = 0; First < Threads && First < 1024; First += 32) {
    // Sectors keyed by the coordinates whose coefficient is not known.
    std::set<std::tuple<int64_t, int64_t, int64_t>> Touched, Consecutive;
    int64_t Lanes = 0;
    for (int64_t T = First; T < First + 32 && T < Threads; ++T) {
      std::array<int64_t, 3> P = {T % B[0], (T / B[0]) % B[1],
                                  T / (B[0] * B[1])};
      if (!Guards.mayRun(P[0], P[1], P[2]))
        continue;
      ++Lanes;
      int64_t KeyY = Known[1] ? 0 : P[1] + 1, KeyZ = Known[2] ? 0 : P[2] + 1;
      if (Known[0]) {
        int64_t Start = Offset + (Coef[0] * P[0] + Coef[1] * P[1] * Known[1] +
                                  Coef[2] * P[2] * Known[2]) *
                                     ElemSize;
        for (int64_t S = floorDiv32(Start);
             S <= floorDiv32(Start + AccessSize - 1); ++S)
          Touched.insert({KeyY, KeyZ, S});
      } else {
        for (int64_t K = 0; K < (Inside ? 1 : 2); ++K)
          Touched.insert({T + 1, K, 0});
      }
      // The same index with the lane stride taken out: rows as far apart,
      // in elements of the access's size (`4 * (y * W + x)` against
      // `y * W + x`); a row whose distance is not a multiple of the stride
      // has sectors of its own.
      int64_t Start = P[0], BaseY = KeyY, BaseZ = KeyZ;
      for (int D = 1; D < 3; ++D) {
        if (!Known[D] || P[D] == 0)
          continue;
        if (Known[0] && Coef[0] != 0 && Coef[D] % Coef[0] == 0)
          Start += Coef[D] / std::abs(Coef[0]) * P[D];
        else
          (D == 1 ? BaseY : BaseZ) = P[D] + 1;
      }
      Start *= AccessSize;
      for (int64_t S = floorDiv32(Start);
           S <= floorDiv32(Start + AccessSize - 1); ++S)
        Consecutive.insert({BaseY, BaseZ, S});
    }
    int64_t Sectors = static_cast<int64_t>(Touched.size());
    if (Sectors > Best.Sectors ||
        (Sectors == Best.Sectors && Lanes > Best.Lanes))
      Best = {Lanes, Sectors, static_cast<int64_t>(Consecutive.size())};
  }
  return Best;
}

// True when every thread that enters \p Loop runs its body for every value
// of its counter: nothing in the body leaves an iteration or the loop early.
bool runsEveryIteration(ASTContext &Ctx, const Stmt *Loop) {
  const auto *For = dyn_cast_or_null<ForStmt>(Loop);
  if (!For || !For->getBody())
    return false;
  return match(findAll(stmt(anyOf(breakStmt(), continueStmt(), returnStmt(),
                                  gotoStmt(), cxxThrowExpr()))),
               *For->getBody(), Ctx)
      .empty();
}

const Expr *countingLoopBound(ASTContext &Ctx, const VarDecl *V,
                              ThreadIndexAnalysis &TIA,
                              int64_t *First = nullptr);

/// The value of a uniform expression where the launches make it a constant.
using BoundValueFn = llvm::function_ref<std::optional<int64_t>(const Expr *)>;

// A term `c * i` of \p Rest whose `i` is the counter of a loop with constant
// bounds that every thread runs in full (`for (i = 0; i < 4; i++)`, or
// `for (i = 0; i < w; i++)` with \p BoundValue giving w): the counter, c
// and the values the counter takes.
std::optional<std::tuple<IndexSymbol, int64_t, LoopSpan>>
loopCounterTerm(ASTContext &Ctx, const IndexPoly &Rest,
                ThreadIndexAnalysis &TIA, BoundValueFn BoundValue) {
  for (const auto &[M, Coef] : Rest.terms()) {
    if (M.size() != 1 || M[0].Kind != IndexSymbol::Variable)
      continue;
    const auto *V = dyn_cast_or_null<VarDecl>(M[0].getDecl());
    if (!V)
      continue;
    std::optional<LoopSpan> Span = TIA.constantLoopSpan(V);
    if (Span && Span->Step != 0 && runsEveryIteration(Ctx, Span->Loop))
      return std::make_tuple(M[0], Coef, *Span);
    int64_t First = 0;
    if (const Expr *Bound = countingLoopBound(Ctx, V, TIA, &First))
      if (std::optional<int64_t> N = BoundValue(Bound); N && *N > First) {
        LoopSpan Known;
        Known.First = First;
        Known.Last = *N - 1;
        Known.Step = 1;
        return std::make_tuple(M[0], Coef, Known);
      }
  }
  return std::nullopt;
}

// The bound B of `for (int i = 0; i < B; ++i)` (`i++`, `i += 1`, `B > i`)
// whose counter \p V every thread runs from 0 to B - 1 in full; null for
// any other variable. With \p First, the counter may start at any constant
// from 0 up (`for (int i = 1; i < B; i++)`), which \p First receives.
const Expr *countingLoopBound(ASTContext &Ctx, const VarDecl *V,
                              ThreadIndexAnalysis &TIA, int64_t *First) {
  if (!TIA.isInductionVariable(V))
    return nullptr;
  Expr::EvalResult Init;
  if (!V->getInit() || V->getInit()->isValueDependent() ||
      !V->getInit()->EvaluateAsInt(Init, Ctx) || !Init.Val.isInt() ||
      Init.Val.getInt().isNegative() ||
      Init.Val.getInt().getSignificantBits() > 32 ||
      (!First && Init.Val.getInt() != 0))
    return nullptr;
  if (First)
    *First = Init.Val.getInt().getExtValue();
  DynTypedNodeList Parents = Ctx.getParents(*V);
  const auto *DS = Parents.empty() ? nullptr : Parents[0].get<DeclStmt>();
  if (!DS)
    return nullptr;
  Parents = Ctx.getParents(*DS);
  const auto *For = Parents.empty() ? nullptr : Parents[0].get<ForStmt>();
  if (!For || For->getInit() != DS || !runsEveryIteration(Ctx, For))
    return nullptr;
  auto IsV = [&](const Expr *E) {
    const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return D && D->getDecl() == V;
  };
  const Expr *Inc = For->getInc() ? For->getInc()->IgnoreParens() : nullptr;
  bool StepOne = false;
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(Inc))
    StepOne = UO->isIncrementOp() && IsV(UO->getSubExpr());
  else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Inc)) {
    Expr::EvalResult R;
    StepOne = BO->getOpcode() == BO_AddAssign && IsV(BO->getLHS()) &&
              !BO->getRHS()->isValueDependent() &&
              BO->getRHS()->EvaluateAsInt(R, Ctx) && R.Val.isInt() &&
              R.Val.getInt() == 1;
  }
  if (!StepOne)
    return nullptr;
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      For->getCond() ? For->getCond()->IgnoreParenImpCasts() : nullptr);
  if (!Cond)
    return nullptr;
  if (Cond->getOpcode() == BO_LT && IsV(Cond->getLHS()))
    return Cond->getRHS();
  if (Cond->getOpcode() == BO_GT && IsV(Cond->getRHS()))
    return Cond->getLHS();
  return nullptr;
}

// True when \p Index walks a whole record of a run-time length: it holds a
// term `i` whose `i` counts from 0 to the lane stride \p Stride - 1
// (`for (f = 0; f < F; ++f) x[t * F + f]`), so each thread reads every
// element of its record.
bool walksWholeRecord(ASTContext &Ctx, const IndexPoly &Index,
                      const IndexPoly &Stride, ThreadIndexAnalysis &TIA) {
  for (const auto &[M, Coef] : Index.terms()) {
    if (Coef != 1 || M.size() != 1 || M[0].Kind != IndexSymbol::Variable)
      continue;
    const auto *V = dyn_cast_or_null<VarDecl>(M[0].getDecl());
    const Expr *Bound = V ? countingLoopBound(Ctx, V, TIA) : nullptr;
    if (!Bound)
      continue;
    IndexForm B = TIA.analyze(Bound);
    if (B.Poly && *B.Poly == Stride)
      return true;
  }
  return false;
}

// True when every term of \p Rest is a multiple of the one-term stride
// \p Stride (`n * tid`, `n * blockIdx.x * blockDim.x`): the index's
// constant part is then an offset into the thread's record, which starts
// at a multiple of the stride (not so for `n * tid + n * n`).
bool startsRecords(const IndexPoly &Rest, const IndexPoly &Stride) {
  if (Stride.terms().size() != 1)
    return false;
  const auto &[SM, SC] = *Stride.terms().begin();
  if (SC == 0)
    return false;
  for (const auto &[M, C] : Rest.terms()) {
    if (C % SC != 0)
      return false;
    IndexPoly::Monomial Left(M.begin(), M.end());
    for (const IndexSymbol &S : SM) {
      auto It = llvm::find(Left, S);
      if (It == Left.end())
        return false;
      Left.erase(It);
    }
  }
  return true;
}

// The value of \p E where it is an integer constant.
std::optional<int64_t> constantValue(ASTContext &Ctx, const Expr *E) {
  Expr::EvalResult R;
  if (!E || E->isValueDependent() ||
      !E->getType()->isIntegralOrEnumerationType() ||
      !E->EvaluateAsInt(R, Ctx) || !R.Val.isInt() ||
      R.Val.getInt().getSignificantBits() > 40)
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

// The functions with a body in \p DC and its namespaces, outside system
// headers (declarations of a precompiled prelude are not loaded; those of
// a precompiled include prefix with the build's headers are).
void userBodies(const SourceManager &SM, const DeclContext *DC,
                SmallVectorImpl<const FunctionDecl *> &Out) {
  for (const Decl *D : userCodeDecls(DC)) {
    if (SM.isInSystemHeader(D->getLocation()))
      continue;
    if (const auto *FD = dyn_cast<FunctionDecl>(D)) {
      if (FD->doesThisDeclarationHaveABody())
        Out.push_back(FD);
    } else if (const auto *FTD = dyn_cast<FunctionTemplateDecl>(D)) {
      // The instantiations of a function template (their launches and
      // calls have their arguments substituted; the pattern's do not).
      for (const FunctionDecl *Spec : FTD->specializations())
        if (Spec->doesThisDeclarationHaveABody() &&
            Spec->getTemplateSpecializationKind() != TSK_ExplicitSpecialization)
          Out.push_back(Spec);
    } else if (const auto *RD = dyn_cast<CXXRecordDecl>(D)) {
      // The member functions defined in a class (a launch there counts as
      // any other).
      if (RD->isThisDeclarationADefinition() && !RD->isDependentContext())
        userBodies(SM, RD, Out);
    } else if (const auto *NS = dyn_cast<NamespaceDecl>(D)) {
      userBodies(SM, NS, Out);
    } else if (const auto *LS = dyn_cast<LinkageSpecDecl>(D)) {
      userBodies(SM, LS, Out);
    }
  }
}

} // namespace

UncoalescedAccessCheck::UncoalescedAccessCheck(StringRef Name,
                                               ClangTidyContext *Context)
    : CudaCheck(Name, Context), MinStride(Options.get("MinStride", int64_t(2))),
      MostlyReadPercent(Options.get("MostlyReadPercent", int64_t(75))),
      ReportWholeRecords(Options.get("ReportWholeRecords", false)) {}

void UncoalescedAccessCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "MinStride", MinStride);
  Options.store(Opts, "MostlyReadPercent", MostlyReadPercent);
  Options.store(Opts, "ReportWholeRecords", ReportWholeRecords);
}

void UncoalescedAccessCheck::registerMatchers(MatchFinder *Finder) {
  limitParentMapToUserCode(Finder);
  Finder->addMatcher(
      arraySubscriptExpr(
          hasAncestor(functionDecl(matchers::isCudaKernel(), hasBody(stmt()))
                          .bind("kernel")))
          .bind("access"),
      this);
  // `*(p + i)`, and a member of an element: `p[i].x`, `(p + i)->x`.
  Finder->addMatcher(
      unaryOperator(
          hasOperatorName("*"),
          hasAncestor(functionDecl(matchers::isCudaKernel(), hasBody(stmt()))
                          .bind("kernel")))
          .bind("deref"),
      this);
  Finder->addMatcher(
      memberExpr(
          hasAncestor(functionDecl(matchers::isCudaKernel(), hasBody(stmt()))
                          .bind("kernel")))
          .bind("member"),
      this);
}

namespace {

// One access to global memory through a pointer parameter of the kernel.
struct AccessInfo {
  AccessKind Kind;
  const ParmVarDecl *Param = nullptr;
  int64_t ElemSize = 0, AccessSize = 0;
  IndexForm Index;
  /// The run-time lane stride that the launch values make a constant.
  std::optional<IndexPoly> LaunchStride;
};

/// The value every launch passes for a parameter of the kernel.
using ParamValueFn =
    llvm::function_ref<std::optional<int64_t>(const ParmVarDecl *)>;

// \p Poly with each parameter of \p Kernel that \p Value knows replaced by
// its value; \p Changed is set when one is.
IndexPoly withLaunchValues(const IndexPoly &Poly, const FunctionDecl *Kernel,
                           ParamValueFn Value, bool &Changed) {
  IndexPoly Out;
  for (const auto &[M, C] : Poly.terms()) {
    IndexPoly Term = IndexPoly::constant(C);
    for (const IndexSymbol &S : M) {
      const auto *P = dyn_cast_or_null<ParmVarDecl>(S.getDecl());
      std::optional<int64_t> V;
      if (P && P->getDeclContext() == Kernel)
        V = Value(P);
      if (V && *V > -(int64_t(1) << 24) && *V < (int64_t(1) << 24)) {
        Term = Term * *V;
        Changed = true;
      } else {
        Term = Term * IndexPoly::symbol(S);
      }
    }
    Out = Out + Term;
  }
  return Out;
}

// The index of \p Info with the kernel's parameters that every launch
// passes one constant for replaced by it, where that makes the lane stride
// a constant (`zi[tx * w + i]` with `w == 2` at every launch: stride 2).
void applyLaunchValues(AccessInfo &Info, const FunctionDecl *Kernel,
                       ThreadIndexAnalysis &TIA, ParamValueFn Value) {
  if (!Info.Index.Poly)
    return;
  bool Changed = false;
  IndexForm New = Info.Index;
  New.Poly = withLaunchValues(*Info.Index.Poly, Kernel, Value, Changed);
  if (!Changed)
    return;
  LaneStride Before = TIA.laneStride(Info.Index);
  LaneStride After = TIA.laneStride(New);
  if (!After.isConstant())
    return;
  if (Before.isSymbolic())
    Info.LaunchStride = Before.Symbols;
  Info.Index = New;
}

// What \p Access (with the pointer \p BasePtr it goes through, its subscript
// \p Idx, and for a member of an element the member \p Member at byte
// \p Offset of the element) reads or writes, or nullopt when it is not an
// access this check analyses.
std::optional<AccessInfo>
describeAccess(ASTContext &Ctx, const FunctionDecl *Kernel, const Expr *Access,
               const Expr *BasePtr, const Expr *Idx, const FieldDecl *Member,
               ThreadIndexAnalysis &TIA) {
  if (Kernel->isDependentContext() ||
      enclosingFunction(Ctx, *Access) != Kernel ||
      !BasePtr->getType()->isPointerType())
    return std::nullopt;
  std::optional<AccessKind> Kind = accessKind(Ctx, Access);
  if (!Kind)
    return std::nullopt;
  // The element the index counts, and the bytes the access reads.
  QualType ElemType = BasePtr->getType()->getPointeeType();
  QualType AccessType = Access->getType();
  if (ElemType->isIncompleteType() || ElemType->isDependentType() ||
      ElemType->isArrayType() || AccessType->isIncompleteType() ||
      AccessType->isDependentType() || AccessType->isArrayType())
    return std::nullopt;
  AccessInfo Info;
  Info.Kind = *Kind;
  Info.ElemSize = Ctx.getTypeSizeInChars(ElemType).getQuantity();
  Info.AccessSize = Ctx.getTypeSizeInChars(AccessType).getQuantity();
  // A struct the compiler may load whole with one vector instruction when
  // several members are read (float4, int2): not reported by member.
  if (Member && Info.ElemSize <= 16 && llvm::isPowerOf2_64(Info.ElemSize) &&
      Ctx.getTypeAlignInChars(ElemType).getQuantity() == Info.ElemSize)
    return std::nullopt;
  if (Info.ElemSize <= 0 || Info.ElemSize > 32 || Info.AccessSize <= 0 ||
      Info.AccessSize > Info.ElemSize)
    return std::nullopt;

  SmallVector<const Expr *, 2> Offsets;
  Info.Param = globalPointer(BasePtr, Kernel, TIA, Offsets);
  if (!Info.Param)
    return std::nullopt;
  IndexForm &Index = Info.Index;
  Index.Poly = IndexPoly();
  Index.MayDependOnThread = false;
  if (Idx)
    Index = TIA.analyze(Idx);
  for (const Expr *Off : Offsets) {
    IndexForm F = TIA.analyze(Off);
    if (!F.Poly || !Index.Poly)
      return std::nullopt;
    Index.Poly = *Index.Poly + *F.Poly;
    Index.Definitions.append(F.Definitions.begin(), F.Definitions.end());
  }
  return Info;
}

// The pointer and subscript of `p[i]` and `*(p + i)`; false for anything
// else.
bool elementAccess(const Expr *E, const Expr *&BasePtr, const Expr *&Idx) {
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    BasePtr = ASE->getBase();
    Idx = ASE->getIdx();
    return true;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_Deref) {
    BasePtr = UO->getSubExpr();
    Idx = nullptr;
    return true;
  }
  return false;
}

} // namespace

namespace {

/// The pointer, subscript and field of a member of an element: `p[i].x`,
/// `(p + i)->x`, `(*p).x`; false for anything else.
bool memberAccess(const MemberExpr *ME, const Expr *&BasePtr, const Expr *&Idx,
                  const FieldDecl *&Member) {
  Member = dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (!Member || Member->isBitField())
    return false;
  const Expr *Base = ME->getBase()->IgnoreParens();
  Idx = nullptr;
  if (ME->isArrow()) {
    BasePtr = Base;
    return true;
  }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(Base)) {
    BasePtr = ASE->getBase();
    Idx = ASE->getIdx();
    return true;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(Base);
      UO && UO->getOpcode() == UO_Deref) {
    BasePtr = UO->getSubExpr();
    return true;
  }
  return false;
}

// True when \p Call neither writes memory nor orders it: a function of the
// CUDA headers or a built-in that returns a value and takes no pointer or
// reference (`__expf`, `sqrtf`, `min`), other than barriers, fences and
// atomics.
bool isValueCall(const SourceManager &SM, const CallExpr *Call) {
  const FunctionDecl *F = Call->getDirectCallee();
  if (!F || F->getReturnType()->isVoidType() || !F->getIdentifier() ||
      (F->getBuiltinID() == 0 && !SM.isInSystemHeader(F->getLocation())))
    return false;
  for (const ParmVarDecl *P : F->parameters())
    if (P->getType()->isPointerType() || P->getType()->isReferenceType())
      return false;
  std::string Name = F->getName().lower();
  for (const char *Word : {"sync", "fence", "atomic", "barrier"})
    if (Name.find(Word) != std::string::npos)
      return false;
  return true;
}

// True when nothing in \p S can change memory the kernel reads, or a
// variable of \p IndexVars: \p S stores to local variables only (besides
// \p Skip, the access whose load is asked about), and calls only value
// functions (see isValueCall); no inline assembly, no `goto`.
bool changesNoMemory(const SourceManager &SM, const Stmt *S, const Expr *Skip,
                     const llvm::SmallPtrSetImpl<const Decl *> &IndexVars) {
  if (!S)
    return true;
  if (isa<AsmStmt, GotoStmt, IndirectGotoStmt, CXXNewExpr, CXXDeleteExpr,
          LambdaExpr>(S))
    return false;
  auto WritesLocal = [&](const Expr *Target) {
    if (Target->IgnoreParens() == Skip)
      return true;
    const auto *DRE = dyn_cast<DeclRefExpr>(Target->IgnoreParenImpCasts());
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    return V && V->hasLocalStorage() && !V->getType()->isReferenceType() &&
           !IndexVars.contains(V);
  };
  if (const auto *BO = dyn_cast<BinaryOperator>(S);
      BO && BO->isAssignmentOp() && !WritesLocal(BO->getLHS()))
    return false;
  if (const auto *UO = dyn_cast<UnaryOperator>(S);
      UO && UO->isIncrementDecrementOp() && !WritesLocal(UO->getSubExpr()))
    return false;
  if (const auto *Call = dyn_cast<CallExpr>(S); Call && !isValueCall(SM, Call))
    return false;
  if (const auto *CE = dyn_cast<CXXConstructExpr>(S);
      CE && !CE->getConstructor()->isTrivial() &&
      !SM.isInSystemHeader(CE->getConstructor()->getLocation()))
    return false;
  for (const Stmt *Child : S->children())
    if (!changesNoMemory(SM, Child, Skip, IndexVars))
      return false;
  return true;
}

// The element or member \p S stores to when it is a whole assignment
// statement (`p[i] = v;`, `p[i] *= d;`, `p[i]++;`, `o[i] = make_float4(...)`);
// null otherwise.
const Expr *storedAccess(const Stmt *S) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  if (!E)
    return nullptr;
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
    E = EWC->getSubExpr();
  E = E->IgnoreParens();
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return BO->isAssignmentOp() ? BO->getLHS()->IgnoreParens() : nullptr;
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->isIncrementDecrementOp() ? UO->getSubExpr()->IgnoreParens()
                                        : nullptr;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E))
    return Op->getOperator() == OO_Equal && Op->getNumArgs() == 2
               ? Op->getArg(0)->IgnoreParens()
               : nullptr;
  return nullptr;
}

// The bytes \p Access reads or writes: its pointer parameter, index, byte
// offset in the element and size.
std::optional<
    std::tuple<const ParmVarDecl *, IndexPoly, int64_t, int64_t, int64_t>>
accessBytes(ASTContext &Ctx, const FunctionDecl *Kernel, const Expr *Access,
            ThreadIndexAnalysis &TIA) {
  const Expr *BasePtr = nullptr, *Idx = nullptr;
  const FieldDecl *Member = nullptr;
  if (const auto *ME = dyn_cast<MemberExpr>(Access)) {
    if (!memberAccess(ME, BasePtr, Idx, Member))
      return std::nullopt;
  } else if (!elementAccess(Access, BasePtr, Idx)) {
    return std::nullopt;
  }
  std::optional<AccessInfo> Info =
      describeAccess(Ctx, Kernel, Access, BasePtr, Idx, Member, TIA);
  if (!Info || !Info->Index.Poly)
    return std::nullopt;
  int64_t Offset =
      Member ? Ctx.toCharUnitsFromBits(Ctx.getFieldOffset(Member)).getQuantity()
             : 0;
  return std::make_tuple(Info->Param, *Info->Index.Poly, Offset,
                         Info->AccessSize, Info->ElemSize);
}

// True when the same thread has just stored the bytes \p Access reads: an
// earlier statement of an enclosing block stores to the same pointer, index
// and bytes (`p[x] *= d;` before `s += p[x];`), and nothing from it to
// \p Access can change memory or the index's variables (see
// changesNoMemory), nor jump in between. The compiler keeps the stored value
// in a register: no load is issued.
bool loadedFromOwnStore(ASTContext &Ctx, const FunctionDecl *Kernel,
                        const Expr *Access, ThreadIndexAnalysis &TIA) {
  auto Bytes = accessBytes(Ctx, Kernel, Access, TIA);
  if (!Bytes ||
      std::get<0>(*Bytes)->getType()->getPointeeType().isVolatileQualified())
    return false;
  llvm::SmallPtrSet<const Decl *, 4> IndexVars;
  for (const auto &[M, C] : std::get<1>(*Bytes).terms())
    for (const IndexSymbol &Sym : M)
      if (const ValueDecl *D = Sym.getDecl())
        IndexVars.insert(D);
  const SourceManager &SM = Ctx.getSourceManager();
  DynTypedNode Node = DynTypedNode::create(*Access);
  const Stmt *Cur = Access;
  for (unsigned Steps = 0; Steps < 256; ++Steps) {
    DynTypedNodeList Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return false;
    Node = Parents[0];
    if (Node.get<FunctionDecl>() || Node.get<LambdaExpr>())
      return false;
    const Stmt *P = Node.get<Stmt>();
    if (!P)
      continue;
    if (const auto *CS = dyn_cast<CompoundStmt>(P)) {
      if (holdsJumpTarget(Cur) || !changesNoMemory(SM, Cur, Access, IndexVars))
        return false;
      auto Body = CS->body();
      const auto *Pos = llvm::find(Body, Cur);
      while (Pos != Body.begin()) {
        const Stmt *Sib = *--Pos;
        if (holdsJumpTarget(Sib))
          return false;
        if (const Expr *Stored = storedAccess(Sib))
          if (auto Other = accessBytes(Ctx, Kernel, Stored, TIA);
              Other && *Other == *Bytes)
            return true;
        if (!changesNoMemory(SM, Sib, nullptr, IndexVars))
          return false;
      }
    }
    Cur = P;
  }
  return false;
}

} // namespace

const llvm::DenseMap<const Expr *, UncoalescedAccessCheck::RecordRead> &
UncoalescedAccessCheck::recordLoads(ASTContext &Ctx, const FunctionDecl *Kernel,
                                    ThreadIndexAnalysis &TIA) {
  auto [It, Inserted] = WholeRecords.try_emplace(Kernel);
  llvm::DenseMap<const Expr *, RecordRead> &Result = It->second;
  if (!Inserted)
    return Result;
  // The reads (`p[i]`, `*(p + i)`, `p[i].x`, `(p + i)->x`) whose lane
  // stride S (in elements) is a constant, grouped by pointer parameter,
  // element size, S and the non-constant part of the index: one record of
  // S elements per thread. The bytes of the record that each group's reads
  // cover.
  struct Group {
    const ParmVarDecl *Param;
    int64_t ElemSize, Stride;
    IndexPoly Rest;
    std::set<int64_t> Residues;
    std::vector<bool> Covered;          ///< Per byte of the record.
    SmallVector<const Expr *, 4> Loads; ///< The pure loads of the group.
  };
  std::vector<Group> Groups;
  const Stmt &Body = *Kernel->getBody();
  auto Value = [&](const ParmVarDecl *P) {
    return launchValue(Ctx, Kernel, P);
  };
  auto Visit = [&](const Expr *E, const Expr *BasePtr, const Expr *Idx,
                   const FieldDecl *Member) {
    std::optional<AccessInfo> Info =
        describeAccess(Ctx, Kernel, E, BasePtr, Idx, Member, TIA);
    if (Info)
      applyLaunchValues(*Info, Kernel, TIA, Value);
    // Reads only: `a[i] += v` reads too, plain stores do not.
    if (!Info || Info->Kind == AccessKind::Store || !Info->Index.Poly)
      return;
    LaneStride Stride = TIA.laneStride(Info->Index);
    if (!Stride.isConstant())
      return;
    int64_t S = Stride.Value < 0 ? -Stride.Value : Stride.Value;
    if (S < 1 || S * Info->ElemSize > 4096)
      return;
    const IndexPoly &Poly = *Info->Index.Poly;
    int64_t C = 0;
    auto ConstTerm = Poly.terms().find(IndexPoly::Monomial());
    if (ConstTerm != Poly.terms().end())
      C = ConstTerm->second;
    IndexPoly Rest = Poly - IndexPoly::constant(C);
    // A parameter that every launch passes the same constant for is that
    // constant (`r[0 * s]`, `r[1 * s]`, `r[2 * s]` with `s == 1` at every
    // launch read offsets 0, 1 and 2), as for the lane stride.
    for (const auto &[M, Coef] : Poly.terms()) {
      if (M.size() != 1 || M[0].Kind != IndexSymbol::Variable)
        continue;
      const auto *P = dyn_cast_or_null<ParmVarDecl>(M[0].getDecl());
      if (!P || P->getDeclContext() != Kernel)
        continue;
      if (std::optional<int64_t> V = launchValue(Ctx, Kernel, P)) {
        C += Coef * *V;
        Rest = Rest - IndexPoly::symbol(M[0]) * Coef;
      }
    }
    // A counter of a loop over constant bounds added to the record's base
    // (`for (int i = 0; i < 4; ++i) a[4 * t + i]`) reads, over the loop,
    // the elements at every value it takes, as constant offsets would.
    SmallVector<int64_t, 8> Consts = {C};
    // A bound that the launches make a constant: for records of up to a
    // cache line (128 bytes), which the loop's first iterations bring into
    // L1 whole; a longer row per thread (`for (l = 0; l < seqlen; l++)
    // u[d * seqlen + l]`) is the textbook strided pattern and stays
    // reported.
    auto BoundValue = [&](const Expr *Bound) -> std::optional<int64_t> {
      if (S * Info->ElemSize > 128)
        return std::nullopt;
      IndexForm F = TIA.analyze(Bound);
      if (!F.Poly)
        return std::nullopt;
      bool Changed = false;
      return withLaunchValues(*F.Poly, Kernel, Value, Changed).getConstant();
    };
    if (std::optional<std::tuple<IndexSymbol, int64_t, LoopSpan>> Counter =
            loopCounterTerm(Ctx, Rest, TIA, BoundValue)) {
      const LoopSpan *Span = &std::get<2>(*Counter);
      Consts.clear();
      for (int64_t N = 0, V = Span->First;
           N < S && (Span->Step > 0 ? V <= Span->Last : V >= Span->Last);
           ++N, V += Span->Step)
        Consts.push_back(C + std::get<1>(*Counter) * V);
      Rest = Rest -
             IndexPoly::symbol(std::get<0>(*Counter)) * std::get<1>(*Counter);
    }
    auto G = llvm::find_if(Groups, [&](const Group &G) {
      return G.Param == Info->Param && G.ElemSize == Info->ElemSize &&
             G.Stride == S && G.Rest == Rest;
    });
    if (G == Groups.end()) {
      Groups.push_back({Info->Param, Info->ElemSize, S, Rest, {}, {}, {}});
      G = std::prev(Groups.end());
      G->Covered.assign(S * Info->ElemSize, false);
    }
    int64_t Offset =
        Member
            ? Ctx.toCharUnitsFromBits(Ctx.getFieldOffset(Member)).getQuantity()
            : 0;
    int64_t RecordBytes = S * Info->ElemSize;
    for (int64_t K : Consts) {
      int64_t Residue = ((K % S) + S) % S;
      if (!Member)
        G->Residues.insert(Residue);
      for (int64_t B = 0; B < Info->AccessSize; ++B)
        G->Covered[(Residue * Info->ElemSize + Offset + B) % RecordBytes] =
            true;
    }
    if (Info->Kind == AccessKind::Load)
      G->Loads.push_back(E);
  };
  for (const auto &Node :
       match(findAll(arraySubscriptExpr().bind("e")), Body, Ctx)) {
    const auto *E = Node.getNodeAs<Expr>("e");
    const Expr *BasePtr = nullptr, *Idx = nullptr;
    if (elementAccess(E, BasePtr, Idx))
      Visit(E, BasePtr, Idx, nullptr);
  }
  for (const auto &Node : match(
           findAll(unaryOperator(hasOperatorName("*")).bind("e")), Body, Ctx)) {
    const auto *E = Node.getNodeAs<Expr>("e");
    const Expr *BasePtr = nullptr, *Idx = nullptr;
    if (elementAccess(E, BasePtr, Idx))
      Visit(E, BasePtr, Idx, nullptr);
  }
  for (const auto &Node : match(findAll(memberExpr().bind("e")), Body, Ctx)) {
    const auto *ME = Node.getNodeAs<MemberExpr>("e");
    const Expr *BasePtr = nullptr, *Idx = nullptr;
    const FieldDecl *Member = nullptr;
    if (memberAccess(ME, BasePtr, Idx, Member))
      Visit(ME, BasePtr, Idx, Member);
  }
  for (const Group &G : Groups) {
    int64_t Bytes = llvm::count(G.Covered, true);
    int64_t RecordBytes = static_cast<int64_t>(G.Covered.size());
    // Mostly read: at least MostlyReadPercent of each record's bytes.
    if (Bytes * 100 < MostlyReadPercent * RecordBytes)
      continue;
    bool WholeElements = static_cast<int64_t>(G.Residues.size()) == G.Stride;
    for (const Expr *E : G.Loads)
      Result[E] = RecordRead{G.Stride, Bytes, RecordBytes,
                             WholeElements && Bytes == RecordBytes};
  }
  return Result;
}

/// The calls (launches included) in the user code of the translation unit,
/// with the function that makes each.
const std::vector<std::pair<const CallExpr *, const FunctionDecl *>> &
UncoalescedAccessCheck::calls(ASTContext &Ctx) {
  if (CallsCollected)
    return Calls;
  CallsCollected = true;
  SmallVector<const FunctionDecl *, 16> Bodies;
  userBodies(Ctx.getSourceManager(), Ctx.getTranslationUnitDecl(), Bodies);
  for (const FunctionDecl *F : Bodies)
    for (const auto &Node :
         match(findAll(callExpr().bind("c")), *F->getBody(), Ctx))
      Calls.emplace_back(Node.getNodeAs<CallExpr>("c"), F);
  return Calls;
}

/// The value every launch of \p Kernel in the translation unit passes for
/// \p P: a constant, or a `const` parameter of the launching function that
/// every call of it passes the same constant for (`run(..., 4)` calling
/// `kernel<<<g, b>>>(..., numChannels)`). nullopt when a launch is not
/// visible (the kernel's address is taken) or the values differ.
std::optional<int64_t>
UncoalescedAccessCheck::launchValue(ASTContext &Ctx, const FunctionDecl *Kernel,
                                    const ParmVarDecl *P) {
  auto [Cached, Inserted] = ParamValues.try_emplace(P);
  if (!Inserted)
    return Cached->second;
  std::optional<int64_t> V = launchValueImpl(Ctx, Kernel, P);
  ParamValues[P] = V;
  return V;
}

std::optional<int64_t> UncoalescedAccessCheck::launchValueImpl(
    ASTContext &Ctx, const FunctionDecl *Kernel, const ParmVarDecl *P) {
  const KernelLaunches::Launches *L = Launches->launchesOf(Kernel);
  if (!L || L->Unknown)
    return std::nullopt;
  unsigned Index = P->getFunctionScopeIndex();
  std::optional<int64_t> Value;
  bool Seen = false;
  auto Merge = [&](std::optional<int64_t> V) {
    if (!V || (Seen && Value != V))
      return false;
    Value = V;
    Seen = true;
    return true;
  };
  auto Callee = [](const CallExpr *C) {
    const FunctionDecl *F = C->getDirectCallee();
    return F ? F->getCanonicalDecl() : nullptr;
  };
  for (const auto &[Call, Caller] : calls(Ctx)) {
    if (!isa<CUDAKernelCallExpr>(Call) ||
        Callee(Call) != Kernel->getCanonicalDecl())
      continue;
    if (Index >= Call->getNumArgs())
      return std::nullopt;
    const Expr *Arg = Call->getArg(Index)->IgnoreParenImpCasts();
    if (std::optional<int64_t> V = constantValue(Ctx, Arg)) {
      if (!Merge(V))
        return std::nullopt;
      continue;
    }
    const auto *DRE = dyn_cast<DeclRefExpr>(Arg);
    const auto *CallerParam =
        DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
    if (!CallerParam || !CallerParam->getType().isConstQualified() ||
        CallerParam->getDeclContext() != Caller)
      return std::nullopt;
    unsigned CallerIndex = CallerParam->getFunctionScopeIndex();
    bool Called = false;
    for (const auto &[Outer, OuterCaller] : calls(Ctx)) {
      if (Callee(Outer) != Caller->getCanonicalDecl())
        continue;
      if (CallerIndex >= Outer->getNumArgs() ||
          !Merge(constantValue(Ctx, Outer->getArg(CallerIndex))))
        return std::nullopt;
      Called = true;
    }
    if (!Called)
      return std::nullopt;
  }
  return Seen ? Value : std::nullopt;
}

/// The constant offsets of the loads of \p Kernel through \p Param with
/// the element size \p ElemSize, the lane stride \p Stride and the
/// non-constant part \p Rest: the elements of its record each thread reads.
std::set<int64_t> UncoalescedAccessCheck::recordOffsets(
    ASTContext &Ctx, const FunctionDecl *Kernel, ThreadIndexAnalysis &TIA,
    const ParmVarDecl *Param, int64_t ElemSize, const IndexPoly &Stride,
    const IndexPoly &Rest) {
  auto [It, Inserted] = KernelLoads.try_emplace(Kernel);
  if (Inserted) {
    for (const auto &Node : match(findAll(arraySubscriptExpr().bind("e")),
                                  *Kernel->getBody(), Ctx)) {
      const auto *E = Node.getNodeAs<Expr>("e");
      const Expr *BasePtr = nullptr, *Idx = nullptr;
      if (!elementAccess(E, BasePtr, Idx))
        continue;
      std::optional<AccessInfo> Info =
          describeAccess(Ctx, Kernel, E, BasePtr, Idx, nullptr, TIA);
      if (Info)
        applyLaunchValues(*Info, Kernel, TIA, [&](const ParmVarDecl *P) {
          return launchValue(Ctx, Kernel, P);
        });
      if (!Info || Info->Kind == AccessKind::Store || !Info->Index.Poly)
        continue;
      LaneStride S = TIA.laneStride(Info->Index);
      if (!S.isSymbolic())
        continue;
      It->second.push_back(
          {Info->Param, Info->ElemSize, S.Symbols, *Info->Index.Poly});
    }
  }
  std::set<int64_t> Offsets;
  for (const KernelLoad &L : It->second) {
    if (L.Param != Param || L.ElemSize != ElemSize || !(L.Stride == Stride))
      continue;
    int64_t C = 0;
    auto ConstTerm = L.Index.terms().find(IndexPoly::Monomial());
    if (ConstTerm != L.Index.terms().end())
      C = ConstTerm->second;
    if (L.Index - IndexPoly::constant(C) == Rest)
      Offsets.insert(C);
  }
  return Offsets;
}

void UncoalescedAccessCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Kernel = Result.Nodes.getNodeAs<FunctionDecl>("kernel");
  ASTContext &Ctx = *Result.Context;
  // The access, the pointer it goes through and its subscript (none for
  // `*p`); for a member of an element, the member's place in the element.
  const Expr *Access = nullptr, *BasePtr = nullptr, *Idx = nullptr;
  const FieldDecl *Member = nullptr;
  if (const auto *ASE = Result.Nodes.getNodeAs<ArraySubscriptExpr>("access")) {
    Access = ASE;
    elementAccess(ASE, BasePtr, Idx);
  } else if (const auto *UO = Result.Nodes.getNodeAs<UnaryOperator>("deref")) {
    Access = UO;
    elementAccess(UO, BasePtr, Idx);
  } else if (const auto *ME = Result.Nodes.getNodeAs<MemberExpr>("member")) {
    if (!memberAccess(ME, BasePtr, Idx, Member))
      return;
    Access = ME;
  }
  if (!Access || Kernel->isDependentContext())
    return;
  // Every launch the translation unit has of the kernel is one thread wide
  // (`<<<rows, 1>>>`): each warp holds one thread of a block, and there is
  // no neighbour to coalesce with.
  if (!Launches)
    Launches = std::make_unique<KernelLaunches>(Ctx);
  if (std::optional<int64_t> X = Launches->onlyX(Kernel); X && *X == 1)
    return;
  std::unique_ptr<ThreadIndexAnalysis> &Slot = Analyses[Kernel];
  if (!Slot)
    Slot = std::make_unique<ThreadIndexAnalysis>(Ctx, Kernel);
  ThreadIndexAnalysis &TIA = *Slot;
  std::optional<AccessInfo> Info =
      describeAccess(Ctx, Kernel, Access, BasePtr, Idx, Member, TIA);
  if (!Info)
    return;
  applyLaunchValues(*Info, Kernel, TIA, [&](const ParmVarDecl *P) {
    return launchValue(Ctx, Kernel, P);
  });
  AccessKind Kind = Info->Kind;
  // The same thread stored these bytes just before: the value is still in
  // a register, and no load is issued (`p[x] *= d; s += p[x];`); a
  // load-and-store is then a store.
  if (Kind != AccessKind::Store &&
      loadedFromOwnStore(Ctx, Kernel, Access, TIA)) {
    if (Kind == AccessKind::Load)
      return;
    Kind = AccessKind::Store;
  }
  const ParmVarDecl *Param = Info->Param;
  const IndexForm &Index = Info->Index;
  int64_t ElemSize = Info->ElemSize, AccessSize = Info->AccessSize;
  int64_t Offset =
      Member ? Ctx.toCharUnitsFromBits(Ctx.getFieldOffset(Member)).getQuantity()
             : 0;
  LaneStride Stride = TIA.laneStride(Index);
  std::string StrideText;
  bool WholeRecordLoop = false;
  // The consecutive offsets of its record a thread reads, where the record's
  // length is not known.
  std::optional<std::pair<int64_t, int64_t>> ReadOffsets;
  // Whether each lane may need two sectors (an access that may straddle a
  // sector boundary) where the stride is not a constant.
  bool Inside = true;
  if (Stride.isConstant()) {
    int64_t S = Stride.Value < 0 ? -Stride.Value : Stride.Value;
    // Elements: at least MinStride apart. Members: their bytes at least
    // MinStride times their size apart.
    if (S == 0 || S * ElemSize < std::max<int64_t>(MinStride, 2) * AccessSize)
      return;
    StrideText =
        Member ? std::to_string(S * ElemSize) + " bytes" : std::to_string(S);
    // A run-time stride that every launch passes one value for.
    if (Info->LaunchStride)
      StrideText = Member
                       ? StrideText + " ('" + Info->LaunchStride->str() +
                             "' is " + std::to_string(S) + " at every launch)"
                       : "'" + Info->LaunchStride->str() + "' (" +
                             std::to_string(S) + " at every launch)";
  } else if (Stride.isSymbolic() && isRunTimeWidth(Stride.Symbols)) {
    // Each thread reads its whole record, element by element in a loop:
    // the sectors fetched are used across the loop while L1 keeps them,
    // which depends on the record's run-time length (said in a note).
    WholeRecordLoop = Kind == AccessKind::Load && Index.Poly &&
                      walksWholeRecord(Ctx, *Index.Poly, Stride.Symbols, TIA);
    StrideText = "'" + Stride.Symbols.str() + "'";
    if (Member)
      StrideText += " elements of " + std::to_string(ElemSize) + " bytes";
    // The elements of its record each thread reads at constant offsets
    // (`img[i * nc + 0]`, `img[i * nc + 1]`, ...): with the value every
    // launch passes for the stride, mostly read records are exempt as for
    // a constant stride; with no such value, a note says what it depends
    // on.
    if (!Member && Kind == AccessKind::Load && Index.Poly) {
      int64_t C = 0;
      auto ConstTerm = Index.Poly->terms().find(IndexPoly::Monomial());
      if (ConstTerm != Index.Poly->terms().end())
        C = ConstTerm->second;
      std::set<int64_t> Offsets =
          recordOffsets(Ctx, Kernel, TIA, Param, ElemSize, Stride.Symbols,
                        *Index.Poly - IndexPoly::constant(C));
      std::optional<int64_t> Width;
      const auto &Terms = Stride.Symbols.terms();
      if (Terms.size() == 1 && Terms.begin()->first.size() == 1 &&
          Terms.begin()->first[0].Kind == IndexSymbol::Variable)
        if (const auto *P = dyn_cast_or_null<ParmVarDecl>(
                Terms.begin()->first[0].getDecl()))
          if (std::optional<int64_t> V = launchValue(Ctx, Kernel, P))
            Width = *V * Terms.begin()->second;
      if (Width && *Width > 0) {
        std::set<int64_t> Residues;
        for (int64_t O : Offsets)
          Residues.insert(((O % *Width) + *Width) % *Width);
        if (static_cast<int64_t>(Residues.size()) * 100 >=
                MostlyReadPercent * *Width &&
            !ReportWholeRecords)
          return;
      } else if (Offsets.size() >= 2 &&
                 *Offsets.rbegin() - *Offsets.begin() + 1 ==
                     static_cast<int64_t>(Offsets.size()) &&
                 startsRecords(*Index.Poly - IndexPoly::constant(C),
                               Stride.Symbols)) {
        ReadOffsets = std::make_pair(*Offsets.begin(), *Offsets.rbegin());
      }
    }
    // At worst every lane has sectors of its own: one for an access whose
    // power-of-two size and alignment keep it inside a sector, two for one
    // that may straddle a sector boundary.
    Inside = llvm::isPowerOf2_64(AccessSize) && AccessSize <= 32 &&
             Offset % AccessSize == 0 && ElemSize % AccessSize == 0;
  } else {
    return;
  }
  // The warps of the block: with every launch's shape known, its threads in
  // order (a block narrower than 32 puts several rows of threadIdx.x in a
  // warp); else warps of 32 consecutive threadIdx.x. Only the lanes that
  // the thread-index guards on the way let in take part (`if (tid == 0)`:
  // one lane, no strided request).
  std::optional<BlockShape> Shape = Launches->onlyShape(Kernel);
  auto Guards = [&] {
    return LaneGuards(
        Ctx, TIA, Shape, Access,
        [&](const ParmVarDecl *P) { return launchValue(Ctx, Kernel, P); },
        Launches->onlyGrid(Kernel));
  };
  WarpCount Count = countSectors(Index, Stride, ElemSize, AccessSize, Offset,
                                 Inside, Shape, Guards());
  if (Count.Lanes <= 1)
    return;
  int64_t Sectors = Count.Sectors, Coalesced = Count.Coalesced;
  // Elements of 32 bytes fill whole sectors whatever the stride.
  if (Sectors <= Coalesced)
    return;
  // A run-time record of which each thread reads the consecutive offsets
  // First..Last: it holds at least Last + 1 elements, so the lanes are at
  // least that far apart. The fewest sectors a request can then touch.
  std::string CountText = std::to_string(Sectors);
  int64_t FewestSectors = Sectors;
  if (ReadOffsets && ReadOffsets->first >= 0) {
    LaneStride Shortest;
    Shortest.Kind = LaneStride::Constant;
    Shortest.Value = ReadOffsets->second + 1;
    FewestSectors = countSectors(Index, Shortest, ElemSize, AccessSize, Offset,
                                 Inside, Shape, Guards())
                        .Sectors;
    if (FewestSectors < Sectors)
      CountText = std::to_string(FewestSectors) + " to " + CountText;
    else
      FewestSectors = Sectors;
  }
  std::string ShapeText;
  if (Shape && (*Shape)[0] < 32) {
    ShapeText = " (blocks of " + std::to_string((*Shape)[0]);
    if ((*Shape)[1] > 1 || (*Shape)[2] > 1)
      ShapeText += "x" + std::to_string((*Shape)[1]);
    if ((*Shape)[2] > 1)
      ShapeText += "x" + std::to_string((*Shape)[2]);
    ShapeText += " threads)";
  }
  // A field the same thread already loaded: the same bytes through the
  // same pointer and index, read again (the compiler keeps the value in a
  // register, or L1 serves it). The first read carries the finding.
  if (Kind == AccessKind::Load && Index.Poly) {
    auto &Seen = LoadsSeen[Kernel];
    auto Same = llvm::find_if(Seen, [&](const SeenLoad &L) {
      return L.Param == Param && L.Index == *Index.Poly && L.Offset == Offset &&
             L.Size == AccessSize && L.ElemSize == ElemSize &&
             L.Access != Access;
    });
    if (Same != Seen.end())
      return;
    Seen.push_back({Param, *Index.Poly, Offset, AccessSize, ElemSize, Access});
  }
  // Each thread reads most of its record of S elements (the bytes its reads
  // cover, through the same pointer with the same non-constant part of the
  // index): the sectors the first read fetches serve the others from L1,
  // so DRAM traffic is close to that of the coalesced layout.
  std::optional<RecordRead> Record;
  if (Stride.isConstant() && Kind == AccessKind::Load) {
    const auto &Records = recordLoads(Ctx, Kernel, TIA);
    auto It = Records.find(Access);
    if (It != Records.end()) {
      if (!ReportWholeRecords)
        return;
      Record = It->second;
    }
  }

  SourceLocation Loc = Access->getBeginLoc();
  if (!Reported.insert(Loc).second)
    return;
  static const char *const KindNames[] = {"load from", "store to",
                                          "load from and store to"};
  diag(Loc, "uncoalesced %0 global memory: consecutive threads access "
            "%select{elements|member '%6'}5 %1 apart, so a warp "
            "request touches %select{|up to }2%3 32-byte sectors instead of "
            "%4%7")
      << KindNames[static_cast<int>(Kind)] << StrideText
      << (!Stride.isConstant() && FewestSectors == Sectors) << CountText
      << Coalesced << (Member != nullptr)
      << (Member ? Member->getName() : StringRef()) << ShapeText
      << Access->getSourceRange();
  for (const IndexDefinition &D : Index.Definitions) {
    if (isa<ParmVarDecl>(D.Var))
      continue;
    // Only the definitions that carry threadIdx.x.
    LaneStride Own = TIA.laneStride(D.Value);
    if (Own.isConstant() && Own.Value == 0)
      continue;
    diag(D.Loc, "index '%0' is computed here", DiagnosticIDs::Note)
        << D.Var->getName();
  }
  if (ReadOffsets && FewestSectors < Sectors && ReadOffsets->first == 0)
    diag(Loc,
         "each thread reads the %0 consecutive elements at offsets 0 to %1 "
         "of its record of %2: if the record is %0 elements long, that is "
         "all of it, the request touches %3 sectors and every byte fetched "
         "is used (the cost is in L1 requests, not DRAM traffic); the "
         "longer the record, the more of each sector is wasted",
         DiagnosticIDs::Note)
        << static_cast<int>(ReadOffsets->second + 1)
        << static_cast<int>(ReadOffsets->second) << StrideText
        << static_cast<int>(FewestSectors);
  else if (ReadOffsets)
    diag(Loc,
         "each thread reads the %0 consecutive elements at offsets %1 to %2 "
         "of its record of %3: the fewer elements the record has beyond "
         "them, the more of each sector fetched is used",
         DiagnosticIDs::Note)
        << static_cast<int>(ReadOffsets->second - ReadOffsets->first + 1)
        << static_cast<int>(ReadOffsets->first)
        << static_cast<int>(ReadOffsets->second) << StrideText;
  if (WholeRecordLoop)
    diag(Loc,
         "each thread reads all %0 elements of its record in this loop: "
         "the sectors fetched are used across its iterations while L1 keeps "
         "them, so for short records the cost is in L1 requests, not DRAM "
         "traffic",
         DiagnosticIDs::Note)
        << StrideText;
  if (Record && Record->Whole)
    diag(Loc,
         "each thread reads all %0 elements of its record, so the sectors "
         "fetched are used in full: the cost is in L1 requests, not DRAM "
         "traffic",
         DiagnosticIDs::Note)
        << static_cast<int>(Record->Stride);
  else if (Record)
    diag(Loc,
         "each thread reads %0 of the %1 bytes of its record, so most of "
         "each sector fetched is used: the cost is in L1 requests, not DRAM "
         "traffic",
         DiagnosticIDs::Note)
        << static_cast<int>(Record->Bytes)
        << static_cast<int>(Record->RecordBytes);
  if (Kind == AccessKind::Load && isReadOnly(Ctx, Param, Kernel, TIA))
    diag(Loc,
         "'%0' is only read: load it with consecutive threads reading "
         "consecutive elements into a __shared__ tile, then read the tile",
         DiagnosticIDs::Note)
        << Param->getName();
}

void UncoalescedAccessCheck::onEndOfTranslationUnit() {
  WholeRecords.clear();
  LoadsSeen.clear();
  Analyses.clear();
  Reported.clear();
  Launches.reset();
  KernelLoads.clear();
  ParamValues.clear();
  Calls.clear();
  CallsCollected = false;
}

} // namespace clang::tidy::cuda
