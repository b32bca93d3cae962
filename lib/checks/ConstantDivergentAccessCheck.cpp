//===--- ConstantDivergentAccessCheck.cpp - cuda-lint ---------------------===//
//
// OpenCL best-practices guide for CUDA GPUs, 3.2.5 "Constant Memory": the
// constant cache serves the threads of a (half-)warp in one transaction
// only when they all read the same address; "the cost scales linearly with
// the number of different addresses read by all threads". The check finds
// reads of `__constant__` arrays whose index provably differs between the
// lanes of a warp and reports how many distinct addresses a warp reads.
//
//===----------------------------------------------------------------------===//

#include "ConstantDivergentAccessCheck.h"
#include "cudalint/analysis/DeviceCode.h"
#include "cudalint/analysis/IntegerFold.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallSet.h"
#include <functional>
#include <set>

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

namespace {

/// Evaluates a thread-dependent index for one thread: `threadIdx` takes the
/// thread's value, a block-uniform subexpression a sample value (the same
/// in every thread of the block), local variables their one definition.
class LaneEvaluator {
public:
  LaneEvaluator(ASTContext &Ctx, ThreadIndexAnalysis &TIA)
      : Ctx(Ctx), TIA(TIA) {}

  /// The sample values uniform subexpressions take are Seed, Seed + 1, ...
  /// in order of first appearance.
  void setThread(int64_t X, int64_t Y, int64_t Z, int64_t Seed) {
    Tid[0] = X;
    Tid[1] = Y;
    Tid[2] = Z;
    this->Seed = Seed;
  }
  void resetUniforms() { Uniforms.clear(); }
  /// Strict: a block-uniform subexpression has no value (for guards, whose
  /// lanes are counted only when they depend on nothing but the thread).
  void setStrict(bool S) { Strict = S; }

  std::optional<int64_t> eval(const Expr *E, unsigned Depth = 0) {
    if (!E || Depth > 32)
      return std::nullopt;
    E = E->IgnoreParens();
    if (E->isValueDependent() || E->isTypeDependent() ||
        (!E->getType()->isIntegralOrEnumerationType() &&
         !E->getType()->isBooleanType()))
      return std::nullopt;
    Expr::EvalResult R;
    if (E->EvaluateAsInt(R, Ctx, Expr::SE_NoSideEffects)) {
      if (R.Val.getInt().getSignificantBits() > 62)
        return std::nullopt;
      return R.Val.getInt().getExtValue();
    }
    if (auto Sym = ThreadIndexAnalysis::builtinSymbol(E))
      if (Sym->Kind == IndexSymbol::ThreadIdx)
        return Tid[Sym->Dim];
    if (!TIA.isThreadDependent(E)) {
      if (Strict)
        return std::nullopt;
      return uniform(E);
    }
    if (const auto *Cast = dyn_cast<CastExpr>(E)) {
      switch (Cast->getCastKind()) {
      case CK_IntegralCast:
      case CK_LValueToRValue:
      case CK_NoOp:
        return eval(Cast->getSubExpr(), Depth + 1);
      case CK_IntegralToBoolean:
        if (std::optional<int64_t> V = eval(Cast->getSubExpr(), Depth + 1))
          return *V != 0;
        return std::nullopt;
      default:
        return std::nullopt;
      }
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      if (!V || !V->hasLocalStorage())
        return std::nullopt;
      const Expr *Def = TIA.definitionAt(V, DRE);
      return Def ? eval(Def, Depth + 1) : std::nullopt;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      std::optional<int64_t> L = eval(BO->getLHS(), Depth + 1);
      std::optional<int64_t> Rv = eval(BO->getRHS(), Depth + 1);
      if (!L || !Rv)
        return std::nullopt;
      if (BO->getOpcode() == BO_LAnd || BO->getOpcode() == BO_LOr)
        return int64_t(BO->getOpcode() == BO_LAnd ? *L && *Rv : *L || *Rv);
      return foldIntegerOperator(
          BO->getOpcode(), *L, *Rv,
          E->getType()->isUnsignedIntegerOrEnumerationType(), 31);
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      std::optional<int64_t> V = eval(UO->getSubExpr(), Depth + 1);
      if (!V)
        return std::nullopt;
      switch (UO->getOpcode()) {
      case UO_LNot:
        return !*V;
      case UO_Minus:
        return -*V;
      case UO_Not:
        return ~*V;
      case UO_Plus:
        return *V;
      default:
        return std::nullopt;
      }
    }
    return std::nullopt;
  }

private:
  /// A block-uniform value: the same sample in every thread.
  int64_t uniform(const Expr *E) {
    auto [It, New] = Uniforms.try_emplace(E, 0);
    if (New)
      It->second = Seed + int64_t(Uniforms.size()) - 1;
    return It->second;
  }

  ASTContext &Ctx;
  ThreadIndexAnalysis &TIA;
  int64_t Tid[3] = {0, 0, 0};
  int64_t Seed = 1;
  bool Strict = false;
  llvm::DenseMap<const Expr *, int64_t> Uniforms;
};

/// A condition under which a statement runs: \p Cond is \p Sense.
struct Guard {
  const Expr *Cond;
  bool Sense;
};

/// True when \p S leaves the function: `return;`, or a block ending in one.
bool endsInReturn(const Stmt *S) {
  if (isa_and_nonnull<ReturnStmt>(S))
    return true;
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(S))
    return !CS->body_empty() && isa<ReturnStmt>(CS->body_back());
  return false;
}

/// The conditions that decide whether \p Access runs, up to \p Body: those
/// of enclosing `if`s, `?:`, `&&`, `||` and loops, and `if (c) return;`
/// before it in an enclosing block.
llvm::SmallVector<Guard, 4> guardsOf(ASTContext &Ctx, const Stmt *Access,
                                     const Stmt *Body) {
  llvm::SmallVector<Guard, 4> Guards;
  const Stmt *Cur = Access;
  while (Cur && Cur != Body) {
    DynTypedNodeList P = Ctx.getParents(*Cur);
    if (P.empty())
      break;
    const Stmt *Parent = P[0].get<Stmt>();
    if (!Parent)
      break;
    if (const auto *If = dyn_cast<IfStmt>(Parent)) {
      if (Cur == If->getThen())
        Guards.push_back({If->getCond(), true});
      else if (Cur == If->getElse())
        Guards.push_back({If->getCond(), false});
    } else if (const auto *CO = dyn_cast<ConditionalOperator>(Parent)) {
      if (Cur == CO->getTrueExpr())
        Guards.push_back({CO->getCond(), true});
      else if (Cur == CO->getFalseExpr())
        Guards.push_back({CO->getCond(), false});
    } else if (const auto *BO = dyn_cast<BinaryOperator>(Parent)) {
      if (BO->getOpcode() == BO_LAnd && Cur == BO->getRHS())
        Guards.push_back({BO->getLHS(), true});
      else if (BO->getOpcode() == BO_LOr && Cur == BO->getRHS())
        Guards.push_back({BO->getLHS(), false});
    } else if (const auto *While = dyn_cast<WhileStmt>(Parent)) {
      if (Cur == While->getBody())
        Guards.push_back({While->getCond(), true});
    } else if (const auto *For = dyn_cast<ForStmt>(Parent)) {
      if (Cur == For->getBody() && For->getCond())
        Guards.push_back({For->getCond(), true});
    } else if (const auto *CS = dyn_cast<CompoundStmt>(Parent)) {
      for (const Stmt *Prev : CS->body()) {
        if (Prev == Cur)
          break;
        if (const auto *If = dyn_cast<IfStmt>(Prev))
          if (!If->getElse() && endsInReturn(If->getThen()))
            Guards.push_back({If->getCond(), false});
      }
    }
    Cur = Parent;
  }
  return Guards;
}

} // namespace

namespace {

bool isLoop(const Stmt *S) {
  return isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
}

/// Whether the value of \p Index may change from one iteration of
/// \p Loop to the next: it names a variable that the loop declares or
/// writes, or reads memory or calls a function (not followed).
bool variesIn(const Expr *Index, const Stmt *Loop) {
  llvm::SmallPtrSet<const VarDecl *, 4> Vars;
  bool Opaque = false;
  std::function<void(const Stmt *)> Collect = [&](const Stmt *S) {
    if (!S)
      return;
    // threadIdx.x, blockDim.y, ...: the same in every iteration.
    if (const auto *E = dyn_cast<Expr>(S);
        E && ThreadIndexAnalysis::builtinSymbol(E))
      return;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
        if (!V->getType().isConstQualified() || !V->hasGlobalStorage())
          Vars.insert(V);
    } else if (isa<CallExpr, ArraySubscriptExpr, CXXThisExpr>(S)) {
      Opaque = true;
    } else if (const auto *UO = dyn_cast<UnaryOperator>(S);
               UO && UO->getOpcode() == UO_Deref) {
      Opaque = true;
    } else if (const auto *ME = dyn_cast<MemberExpr>(S); ME && ME->isArrow()) {
      Opaque = true;
    }
    for (const Stmt *Child : S->children())
      Collect(Child);
  };
  Collect(Index);
  if (Opaque)
    return true;
  if (Vars.empty())
    return false;
  bool Written = false;
  std::function<void(const Stmt *)> Scan = [&](const Stmt *S) {
    if (!S || Written)
      return;
    auto Names = [&](const Expr *E) {
      const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
      return DRE && Vars.count(dyn_cast<VarDecl>(DRE->getDecl()));
    };
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D); V && Vars.count(V))
          Written = true;
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->isAssignmentOp() && Names(BO->getLHS()))
      Written = true;
    if (const auto *UO = dyn_cast<UnaryOperator>(S);
        UO && (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) &&
        Names(UO->getSubExpr()))
      Written = true;
    for (const Stmt *Child : S->children())
      Scan(Child);
  };
  Scan(Loop);
  return Written;
}

/// Whether the read \p Sub runs once per thread beside loops of \p Body:
/// no enclosing loop changes its index, and the function has a loop.
bool onceBesideLoops(ASTContext &Ctx, const ArraySubscriptExpr *Sub,
                     const Stmt *Body) {
  DynTypedNode Cur = DynTypedNode::create(*static_cast<const Stmt *>(Sub));
  for (unsigned Depth = 0; Depth < 256; ++Depth) {
    DynTypedNodeList Parents = Ctx.getParents(Cur);
    if (Parents.empty())
      break;
    const Stmt *P = Parents[0].get<Stmt>();
    if (!P)
      break;
    if (isLoop(P)) {
      // Every subscript of the whole access is the index.
      for (const Expr *E = Sub; const auto *ASE = dyn_cast<ArraySubscriptExpr>(
                                    E->IgnoreParenImpCasts());
           E = ASE->getBase())
        if (variesIn(ASE->getIdx(), P))
          return false;
    }
    if (P == Body)
      break;
    Cur = Parents[0];
  }
  std::function<bool(const Stmt *)> HasLoop = [&](const Stmt *S) {
    if (!S)
      return false;
    if (isLoop(S))
      return true;
    return llvm::any_of(S->children(), HasLoop);
  };
  return HasLoop(Body);
}

} // namespace

void ConstantDivergentAccessCheck::registerMatchers(MatchFinder *Finder) {
  limitParentMapToUserCode(Finder);
  Finder->addMatcher(
      arraySubscriptExpr(unless(isExpansionInSystemHeader())).bind("subscript"),
      this);
}

void ConstantDivergentAccessCheck::check(
    const MatchFinder::MatchResult &Result) {
  const auto *Sub = Result.Nodes.getNodeAs<ArraySubscriptExpr>("subscript");
  ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = *Result.SourceManager;

  // The whole `c[i][j]` access, from its outermost subscript; not one whose
  // address is taken.
  if (auto P = parentAboveCasts(Ctx, Sub, /*StopAtLoad=*/true)) {
    if (const auto *Outer = P->get<ArraySubscriptExpr>())
      if (Outer->getBase()->IgnoreParenImpCasts() == Sub)
        return;
    if (const auto *UO = P->get<UnaryOperator>())
      if (UO->getOpcode() == UO_AddrOf)
        return;
  }
  // Subscripts from the outermost in, with each one's stride in elements.
  llvm::SmallVector<std::pair<const Expr *, const Expr *>, 2> Subscripts;
  const Expr *Base = Sub;
  while (const auto *ASE = dyn_cast<ArraySubscriptExpr>(Base)) {
    if (!ASE->getBase()->IgnoreParenImpCasts()->getType()->isArrayType())
      return;
    Subscripts.push_back({ASE, ASE->getIdx()});
    Base = ASE->getBase()->IgnoreParenImpCasts();
  }
  const auto *Ref = dyn_cast<DeclRefExpr>(Base);
  const auto *Table = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  // Written `__constant__`: clang also marks `__device__ const` variables
  // (and `constexpr` ones) constant implicitly, but nvcc keeps those in
  // global memory (`.global`, read with `ld.global.nc`).
  const auto *Constant = Table ? Table->getAttr<CUDAConstantAttr>() : nullptr;
  if (!Constant || Constant->isImplicit() ||
      Table->getType()->isDependentType())
    return;

  const FunctionDecl *FD = enclosingFunction(Ctx, *Sub);
  if (!FD || !isDeviceFunction(FD) || !FD->hasBody() ||
      FD->isDependentContext())
    return;
  SourceLocation Loc = SM.getFileLoc(Sub->getExprLoc());
  if (Reported.contains(Loc))
    return;

  std::unique_ptr<ThreadIndexAnalysis> &TIA = Analyses[FD];
  if (!TIA)
    TIA = std::make_unique<ThreadIndexAnalysis>(Ctx, FD);

  // The thread-dependent subscripts, each with the number of elements one
  // step of it moves (the product of the inner extents).
  llvm::SmallVector<std::pair<const Expr *, int64_t>, 2> Varying;
  for (const auto &[Access, Index] : Subscripts) {
    if (!TIA->isThreadDependent(Index))
      continue;
    const auto *AT = Ctx.getAsConstantArrayType(cast<ArraySubscriptExpr>(Access)
                                                    ->getBase()
                                                    ->IgnoreParenImpCasts()
                                                    ->getType());
    if (!AT)
      return;
    int64_t Stride = 1;
    QualType Elem = AT->getElementType();
    while (const auto *Inner = Ctx.getAsConstantArrayType(Elem)) {
      Stride *= int64_t(Inner->getSize().getZExtValue());
      Elem = Inner->getElementType();
    }
    Varying.push_back({Index, Stride});
  }
  if (Varying.empty())
    return;
  // Read once per thread where the function's work is in loops: outside
  // every loop, or in loops whose iterations do not change the index (a
  // bound `for (k = 0; k < c_len[tid]; ++k)`, which nvcc loads once before
  // the loop). The serialization then happens once per thread, beside the
  // loop that does the work.
  if (onceBesideLoops(Ctx, Sub, FD->getBody()))
    return;

  // The threads of each warp of the block: from the kernel's launches when
  // they agree on one shape, otherwise one warp of consecutive threadIdx.x
  // (blocks at least 32 threads wide).
  BlockShape Shape = {32, 1, 1};
  bool FromLaunch = false;
  if (isKernel(FD)) {
    if (!Launches)
      Launches = std::make_unique<KernelLaunches>(Ctx);
    if (std::optional<BlockShape> S = Launches->onlyShape(FD)) {
      Shape = *S;
      FromLaunch = true;
    }
  }
  int64_t Threads = Shape[0] * Shape[1] * Shape[2];
  if (Threads <= 0)
    return;
  int64_t Warps = std::min<int64_t>((Threads + 31) / 32, 32);

  // Distinct addresses per warp: the most over the block's warps, the
  // fewest over sample values of the uniform terms (a uniform multiplier
  // might be small, an offset might align a division).
  // The thread-dependent conditions the read is under. Those that depend
  // on the thread alone (`threadIdx.x == 0`, `lane < 4`) leave out the
  // lanes where they fail; the others (a bounds check `i < n`, data) are
  // taken to let every lane through.
  LaneEvaluator Eval(Ctx, *TIA);
  llvm::SmallVector<Guard, 4> Guards;
  for (const Guard &G : guardsOf(Ctx, Sub, FD->getBody()))
    if (TIA->isThreadDependent(G.Cond))
      Guards.push_back(G);
  auto Active = [&]() {
    Eval.setStrict(true);
    bool On = true;
    for (const Guard &G : Guards)
      if (std::optional<int64_t> V = Eval.eval(G.Cond))
        On = On && (*V != 0) == G.Sense;
    Eval.setStrict(false);
    return On;
  };
  const int64_t Seeds[] = {1, 3, 8, 32, 1000};
  int64_t Degree = 0;
  for (int64_t W = 0; W < Warps; ++W) {
    int64_t Fewest = INT64_MAX;
    for (int64_t Seed : Seeds) {
      std::set<int64_t> Addresses;
      Eval.resetUniforms();
      for (int64_t L = W * 32; L < std::min(Threads, W * 32 + 32); ++L) {
        Eval.setThread(L % Shape[0], L / Shape[0] % Shape[1],
                       L / (Shape[0] * Shape[1]), Seed);
        if (!Active())
          continue;
        int64_t Offset = 0;
        for (const auto &[Index, Stride] : Varying) {
          std::optional<int64_t> V = Eval.eval(Index);
          if (!V)
            return;
          Offset += *V * Stride;
        }
        Addresses.insert(Offset);
      }
      Fewest = std::min<int64_t>(Fewest, Addresses.size());
    }
    Degree = std::max(Degree, Fewest);
  }
  // In-bounds reads cannot reach more addresses than the table has.
  if (const auto *AT = Ctx.getAsConstantArrayType(Table->getType()))
    Degree = std::min<int64_t>(Degree,
                               int64_t(Ctx.getConstantArrayElementCount(AT)));
  if (Degree < 2)
    return;

  Reported.insert(Loc);
  diag(Loc, "__constant__ array %0 is read at %1 different addresses by the "
            "threads of a warp%select{| (blocks of %3 threads)}2; constant "
            "memory serves one address at a time, so the read is serialized "
            "%1 ways")
      << Table << Degree << FromLaunch
      << (std::to_string(Shape[0]) +
          (Shape[1] > 1 || Shape[2] > 1 ? "x" + std::to_string(Shape[1]) : "") +
          (Shape[2] > 1 ? "x" + std::to_string(Shape[2]) : ""));
  diag(Table->getLocation(),
       "%0 is declared __constant__ here; reading it through a 'const "
       "__restrict__' global pointer (the read-only cache) or from shared "
       "memory serves the warp at once",
       DiagnosticIDs::Note)
      << Table;
}

} // namespace clang::tidy::cuda
