//===--- LaunchShapeCheck.cpp - cuda-lint ---------------------------------===//

#include "LaunchShapeCheck.h"
#include "cudalint/DeviceCode.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/Support/Format.h"
#include <optional>

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

namespace {

constexpr uint64_t WarpSize = 32;
constexpr uint64_t MinBlock = 64;
/// The fewest multiprocessors of a GPU of the architecture cuda-lint
/// targets by default (sm_90: 114 on the H100 PCIe, 132 on the H100 SXM and
/// H200). A constant grid of at most this many blocks puts at most one block
/// on each multiprocessor.
constexpr uint64_t MinMultiprocessors = 114;

/// True if \p VD, a local `dim3`, may be changed after its initialisation:
/// a member or the whole variable is assigned, incremented or has its
/// address taken or is bound to a non-const reference.
bool mayBeModified(const VarDecl &VD, const FunctionDecl &FD, ASTContext &Ctx) {
  if (VD.getType().isConstQualified())
    return false;
  auto Refs =
      match(findAll(declRefExpr(to(varDecl(equalsNode(&VD)))).bind("ref")),
            *FD.getBody(), Ctx);
  for (const BoundNodes &N : Refs) {
    const Expr *Cur = N.getNodeAs<DeclRefExpr>("ref");
    DynTypedNodeList Parents = Ctx.getParents(*Cur);
    while (!Parents.empty()) {
      const auto *P = Parents[0].get<Expr>();
      if (!P)
        break;
      if (const auto *ME = dyn_cast<MemberExpr>(P)) {
        Cur = ME;
        Parents = Ctx.getParents(*P);
        continue;
      }
      if (isa<ImplicitCastExpr>(P) &&
          cast<ImplicitCastExpr>(P)->getCastKind() == CK_LValueToRValue)
        break;
      if (const auto *BO = dyn_cast<BinaryOperator>(P))
        if (BO->isAssignmentOp() && BO->getLHS()->IgnoreParens() == Cur)
          return true;
      if (const auto *UO = dyn_cast<UnaryOperator>(P))
        if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
          return true;
      if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(P))
        if (Op->isAssignmentOp() && Op->getArg(0)->IgnoreParens() == Cur)
          return true;
      // Passed by reference to a function (or a member call): may change.
      if (isa<CallExpr>(P))
        return true;
      break;
    }
  }
  return false;
}

/// The number of threads that the launch configuration argument \p E (a
/// `dim3` or an integer) describes, if it is a compile-time constant.
std::optional<uint64_t> blockThreads(const Expr *E, const FunctionDecl &FD,
                                     ASTContext &Ctx, int Depth = 0) {
  if (!E || Depth > 8)
    return std::nullopt;
  E = E->IgnoreImplicit()->IgnoreParens();
  // In a template pattern the value may depend on the template arguments
  // (each instantiation has it), or be an initialiser that Sema left
  // unresolved: `dim3 block(p.n, 4)` with `p` of a dependent type keeps its
  // arguments as a ParenListExpr, which has no type at all. Expressions with
  // errors are value-dependent too.
  if (E->getType().isNull() || E->isTypeDependent() || E->isValueDependent())
    return std::nullopt;
  if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(E))
    return blockThreads(Cast->getSubExpr(), FD, Ctx, Depth + 1);
  if (E->getType()->isIntegerType()) {
    std::optional<llvm::APSInt> V = E->getIntegerConstantExpr(Ctx);
    if (!V || V->isNegative())
      return std::nullopt;
    return V->getZExtValue();
  }
  if (const auto *Ctor = dyn_cast<CXXConstructExpr>(E)) {
    if (Ctor->getConstructor()->isCopyOrMoveConstructor() ||
        Ctor->getNumArgs() == 1)
      return Ctor->getNumArgs() == 0
                 ? std::nullopt
                 : blockThreads(Ctor->getArg(0), FD, Ctx, Depth + 1);
    uint64_t Product = 1;
    for (const Expr *Arg : Ctor->arguments()) {
      std::optional<uint64_t> V = blockThreads(Arg, FD, Ctx, Depth + 1);
      if (!V)
        return std::nullopt;
      Product *= *V;
    }
    return Ctor->getNumArgs() == 0 ? std::nullopt : std::optional(Product);
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || !VD->hasLocalStorage() || !VD->getInit() ||
        isa<ParmVarDecl>(VD) || mayBeModified(*VD, FD, Ctx))
      return std::nullopt;
    return blockThreads(VD->getInit(), FD, Ctx, Depth + 1);
  }
  return std::nullopt;
}

} // namespace

void LaunchShapeCheck::registerMatchers(MatchFinder *Finder) {
  limitParentMapToUserCode(Finder);
  Finder->addMatcher(
      cudaKernelCallExpr(unless(isExpansionInSystemHeader())).bind("launch"),
      this);
}

void LaunchShapeCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Launch = Result.Nodes.getNodeAs<CUDAKernelCallExpr>("launch");
  ASTContext &Ctx = *Result.Context;
  const CallExpr *Config = Launch->getConfig();
  const FunctionDecl *FD = enclosingFunction(Ctx, *Launch);
  if (!Config || Config->getNumArgs() < 2 || !FD || !FD->hasBody())
    return;
  const Expr *Block = Config->getArg(1);
  // In a template, the pattern's block size may depend on a template
  // argument (then it is not a constant here); each instantiation has it.
  std::optional<uint64_t> Threads = blockThreads(Block, *FD, Ctx);
  if (!Threads || *Threads == 0)
    return;
  bool Bad = *Threads % WarpSize != 0 || *Threads < MinBlock;
  // A grid of known size: a launch of at most one warp's worth of threads
  // in all (`<<<1, 1>>>`, `<<<1, 16>>>`, `<<<10, 1>>>`) is a serial or
  // tiny task, which no block shape makes faster; and with at most one
  // block per multiprocessor (a constant grid no larger than the number of
  // multiprocessors) the guide's 64-thread minimum, which holds "only if
  // there are multiple concurrent blocks per multiprocessor", does not
  // apply: regrouping the same threads into larger blocks hides no more
  // latency.
  if (Bad)
    if (std::optional<uint64_t> Blocks =
            blockThreads(Config->getArg(0), *FD, Ctx);
        Blocks && *Blocks != 0) {
      if (*Blocks * *Threads <= WarpSize)
        return;
      if (*Blocks <= MinMultiprocessors && *Threads % WarpSize == 0)
        return;
    }
  SourceLocation Loc =
      Result.SourceManager->getExpansionLoc(Block->getBeginLoc());
  // One report per launch in the source: the first instantiation (or the
  // pattern, when the size does not depend on the template) that is bad.
  if (!Bad || !Reported.insert(Loc).second)
    return;
  std::string Instantiation;
  if (FD->isTemplateInstantiation()) {
    llvm::raw_string_ostream OS(Instantiation);
    FD->getNameForDiagnostic(OS, Ctx.getPrintingPolicy(), /*Qualified=*/true);
  }
  reportBlock(Loc, *Threads);
  if (!Instantiation.empty())
    diag(Loc,
         "in the instantiation '%0' (other instantiations of this launch "
         "are not reported again)",
         DiagnosticIDs::Note)
        << Instantiation;
}

void LaunchShapeCheck::reportBlock(SourceLocation Loc, uint64_t Threads) {
  if (Threads % WarpSize != 0) {
    uint64_t Warps = (Threads + WarpSize - 1) / WarpSize;
    uint64_t Lanes = Warps * WarpSize;
    uint64_t Idle = Lanes - Threads;
    diag(Loc, "block of %0 %plural{1:thread|:threads}0 is not a multiple of "
              "the warp size (32); the last warp of every block runs with "
              "idle lanes")
        << static_cast<unsigned>(Threads);
    std::string Percent;
    llvm::raw_string_ostream(Percent)
        << llvm::format("%.1f", 100.0 * Idle / Lanes);
    diag(Loc,
         "%0 %plural{1:thread|:threads}0 = %1 %plural{1:warp|:warps}1 = %2 "
         "lanes: %3 lanes (%4%%) idle in every block",
         DiagnosticIDs::Note)
        << static_cast<unsigned>(Threads) << static_cast<unsigned>(Warps)
        << static_cast<unsigned>(Lanes) << static_cast<unsigned>(Idle)
        << Percent;
    return;
  }
  if (Threads < MinBlock)
    diag(Loc, "block of %0 threads is below the recommended minimum of 64; "
              "too few warps per block to hide latency")
        << static_cast<unsigned>(Threads);
}

} // namespace clang::tidy::cuda
