//===--- DivergentBarrierCheck.cpp - cuda-lint ----------------------------===//

#include "DivergentBarrierCheck.h"
#include "cudalint/analysis/DeviceCode.h"
#include "cudalint/analysis/LaunchArguments.h"
#include "cudalint/analysis/ThreadIndex.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

namespace {

/// `__syncwarp()` and `__syncwarp(0xffffffff)` wait for the whole warp.
bool isFullWarpMask(const CallExpr &Call, const ASTContext &Ctx) {
  if (Call.getNumArgs() == 0 || isa<CXXDefaultArgExpr>(Call.getArg(0)))
    return true;
  // In a template pattern the mask may depend on a template argument.
  if (Call.getArg(0)->isValueDependent())
    return false;
  std::optional<llvm::APSInt> Mask =
      Call.getArg(0)->getIntegerConstantExpr(Ctx);
  return Mask && Mask->getZExtValue() == 0xffffffffu;
}

/// Whether \p FD is the pattern of a function template that has
/// instantiations with a body: those are the code that runs, and in them
/// the conditions and loop bounds that depend on a template argument have
/// their values.
bool hasInstantiations(const FunctionDecl *FD) {
  const FunctionTemplateDecl *FTD = FD->getDescribedFunctionTemplate();
  if (!FTD)
    return false;
  return llvm::any_of(FTD->specializations(),
                      [](const FunctionDecl *Spec) { return Spec->hasBody(); });
}

/// Whether \p Call is the last thing its kernel runs: the last statement of
/// the kernel's body (a `return;` after it aside).
bool endsKernel(ASTContext &Ctx, const CallExpr &Call) {
  const FunctionDecl *Kernel = enclosingFunction(Ctx, Call);
  if (!Kernel || !isKernel(Kernel) || !Kernel->getBody())
    return false;
  const auto *Body = dyn_cast<CompoundStmt>(Kernel->getBody());
  if (!Body)
    return false;
  const Stmt *Last = nullptr;
  for (const Stmt *S : llvm::reverse(Body->body())) {
    const auto *RS = dyn_cast<ReturnStmt>(S);
    if (isa<NullStmt>(S) || (RS && !RS->getRetValue()))
      continue;
    Last = S;
    break;
  }
  if (const auto *EWC = dyn_cast_or_null<ExprWithCleanups>(Last))
    Last = EWC->getSubExpr();
  if (const auto *E = dyn_cast_or_null<Expr>(Last))
    Last = E->IgnoreParenImpCasts();
  return Last == &Call;
}

} // namespace

bool DivergentBarrierCheck::onlyEndsKernels(ASTContext &Ctx,
                                            const FunctionDecl *FD) {
  auto [It, New] = TailCalled.try_emplace(FD->getCanonicalDecl(), false);
  if (!New)
    return It->second;
  // Every use of the helper is a call that ends a kernel (its address is
  // not taken), and there is one.
  const FunctionDecl *Canon = FD->getCanonicalDecl();
  llvm::SmallVector<const DeclRefExpr *, 4> Refs;
  for (Decl *D : Ctx.getTraversalScope())
    for (const BoundNodes &N :
         match(decl(forEachDescendant(
                   declRefExpr(to(functionDecl(hasName(FD->getName()))))
                       .bind("ref"))),
               *D, Ctx))
      if (const auto *Ref = N.getNodeAs<DeclRefExpr>("ref");
          Ref->getDecl()->getCanonicalDecl() == Canon)
        Refs.push_back(Ref);
  bool All = !Refs.empty();
  for (const DeclRefExpr *Ref : Refs) {
    DynTypedNodeList Up = Ctx.getParents(*Ref);
    const auto *Cast = Up.empty() ? nullptr : Up[0].get<ImplicitCastExpr>();
    DynTypedNodeList CallUp =
        Cast ? Ctx.getParents(*Cast) : DynTypedNodeList(DynTypedNode());
    const auto *Call =
        Cast && !CallUp.empty() ? CallUp[0].get<CallExpr>() : nullptr;
    if (!Call || Call->getCallee()->IgnoreParenImpCasts() != Ref ||
        !endsKernel(Ctx, *Call)) {
      All = false;
      break;
    }
  }
  TailCalled[FD->getCanonicalDecl()] = All;
  return All;
}

void DivergentBarrierCheck::registerMatchers(MatchFinder *Finder) {
  limitParentMapToUserCode(Finder);
  Finder->addMatcher(
      callExpr(callee(functionDecl(hasAnyName(
                   "__syncthreads", "__syncthreads_count", "__syncthreads_and",
                   "__syncthreads_or", "__syncwarp", "sync"))),
               unless(isExpansionInSystemHeader()))
          .bind("barrier"),
      this);
}

namespace {

/// The group a cooperative_groups `sync` waits for: `block.sync()`,
/// `cg::sync(block)`, `this_grid().sync()`; a thread_block or a grid_group
/// (whose sync starts with the block's barrier), not a tile.
const CXXRecordDecl *syncedGroup(const CallExpr &Call) {
  const FunctionDecl *FD = Call.getDirectCallee();
  if (!FD || !FD->getIdentifier() || FD->getName() != "sync")
    return nullptr;
  bool InCG = false;
  for (const DeclContext *DC = FD->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      InCG |= NS->getName() == "cooperative_groups";
  if (!InCG)
    return nullptr;
  // `block.sync()` (a static member in CUDA's headers, so a plain call of
  // a member expression), `grid.sync()`, `cg::sync(block)`.
  const Expr *Group = nullptr;
  if (const auto *ME =
          dyn_cast<MemberExpr>(Call.getCallee()->IgnoreParenImpCasts()))
    Group = ME->getBase();
  else if (Call.getNumArgs() == 1)
    Group = Call.getArg(0);
  // The group as declared, before a conversion to its base thread_group.
  const CXXRecordDecl *RD = Group ? Group->IgnoreParenImpCasts()
                                        ->getType()
                                        .getNonReferenceType()
                                        ->getAsCXXRecordDecl()
                                  : nullptr;
  if (!RD || !RD->getIdentifier() ||
      (RD->getName() != "thread_block" && RD->getName() != "grid_group"))
    return nullptr;
  return RD;
}

} // namespace

void DivergentBarrierCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("barrier");
  ASTContext &Ctx = *Result.Context;
  const FunctionDecl *FD = enclosingFunction(Ctx, *Call);
  if (!FD || !isDeviceFunction(FD) || !FD->hasBody() || hasInstantiations(FD))
    return;
  const FunctionDecl *Callee = Call->getDirectCallee();
  // A cooperative-groups sync is named as written (`block.sync()`).
  std::string Name = Callee->getName().str();
  bool IsGrid = false;
  if (Name == "sync") {
    const CXXRecordDecl *Group = syncedGroup(*Call);
    if (!Group)
      return;
    IsGrid = Group->getName() == "grid_group";
    StringRef Text = Lexer::getSourceText(
        CharSourceRange::getTokenRange(Call->getSourceRange()),
        Ctx.getSourceManager(), Ctx.getLangOpts());
    Name = Text.empty() || Text.size() > 40 ? "sync" : Text.str();
  }
  bool IsWarp = Name == "__syncwarp";
  if (IsWarp && !isFullWarpMask(*Call, Ctx))
    return;

  // The block's x extent, where every launch in this file agrees: at warp
  // scope it makes threadIdx.y warp-uniform; it bounds threadIdx.x for a
  // loop's trip count.
  auto launchedX = [&]() -> std::optional<int64_t> {
    if (!isKernel(FD))
      return std::nullopt;
    if (!Launches)
      Launches = std::make_unique<KernelLaunches>(Ctx);
    return Launches->onlyX(FD);
  };
  auto Level = IsWarp   ? ThreadDependence::Scope::Warp
               : IsGrid ? ThreadDependence::Scope::Grid
                        : ThreadDependence::Scope::Block;
  std::unique_ptr<ThreadDependence> &TD = ByScope[unsigned(Level)][FD];
  if (!TD)
    TD = std::make_unique<ThreadDependence>(*FD, Ctx, Level, launchedX());
  // A `return` in a kernel ends the thread, and so does reaching its end;
  // the same in a helper whose every call is the last thing a kernel runs.
  bool EndExits = isKernel(FD);
  ThreadDependence::Divergence Div = TD->divergence(*Call, EndExits);
  if (!Div)
    return;
  if (!EndExits && onlyEndsKernels(Ctx, FD)) {
    EndExits = true;
    Div = TD->divergence(*Call, EndExits);
    if (!Div)
      return;
  }

  // `__syncwarp` waits only for the lanes that have not exited; `bar.sync`
  // (`__syncthreads`) is released when the threads it still waits for exit
  // (PTX ISA, `exit`). Neither hangs, and __syncwarp is well defined.
  bool Exited = Div.EarlyExit && EndExits && !Div.OtherBarrier;
  // A grid sync is not a hardware barrier: thread 0 of each block arrives
  // for its block (cooperative_groups' sync_grids), and the other blocks
  // spin until every block has. Exited threads do hold it up.
  if (Exited && !IsGrid && (IsWarp || !ReportExitedThreads))
    return;
  if (Exited) {
    bool Skipped = !isa<ReturnStmt>(Div.Cause);
    if (IsGrid)
      diag(Call->getBeginLoc(),
           "'%0' is not reached by the threads that %select{return before "
           "it|skip it and run to the end of the kernel}1; a grid-wide sync "
           "waits for every block of the cooperative launch, and a block "
           "whose thread 0 has exited never arrives, so the grid can hang")
          << Name << Skipped;
    else
      diag(Call->getBeginLoc(),
           "'%0' is not reached by the threads that %select{returned before "
           "it|skip it and run to the end of the kernel}1; exited threads do "
           "not hold up the barrier, but the CUDA programming guide asks "
           "every thread of the block to reach a barrier in conditional code")
          << Name << Skipped;
    diag(Div.Cause->getBeginLoc(),
         Skipped ? "the threads this condition keeps from the barrier reach "
                   "no other barrier before they exit"
                 : "some threads return here, before the barrier",
         DiagnosticIDs::Note);
    return;
  }

  // A block-stride loop over a bound the check cannot evaluate: every
  // thread runs it equally often when the bound is a multiple of the step
  // (the host often makes it one), else the last iteration diverges. When
  // that is the only reason the barrier diverges (also through a variable
  // the loop's iterations change, `found += total; if (found < 3)`), the
  // finding says what must hold.
  if (!Div.EarlyExit) {
    std::unique_ptr<ThreadDependence> &TM =
        MultiplesByScope[unsigned(Level)][FD];
    if (!TM)
      TM = std::make_unique<ThreadDependence>(*FD, Ctx, Level, launchedX(),
                                              /*ParamsDependent=*/false,
                                              /*CallDepth=*/0,
                                              /*AssumeMultiples=*/true);
    const ForStmt *Loop = nullptr;
    const Expr *Bound = nullptr, *Step = nullptr;
    if (!TM->divergence(*Call, EndExits))
      for (DynTypedNodeList Ps = Ctx.getParents(*Call); !Ps.empty();
           Ps = Ctx.getParents(Ps[0])) {
        const auto *For = Ps[0].get<ForStmt>();
        if (For && TM->assumedMultiple(For) &&
            (Bound = TD->boundUnlessMultiple(*For, Step))) {
          Loop = For;
          break;
        }
        if (!Ps[0].get<Stmt>())
          break;
      }
    if (Loop) {
      const SourceManager &SM = Ctx.getSourceManager();
      auto Text = [&](const Expr *E) {
        return Lexer::getSourceText(
                   CharSourceRange::getTokenRange(E->getSourceRange()), SM,
                   Ctx.getLangOpts())
            .str();
      };
      std::string StepText = Text(Step);
      std::optional<llvm::APSInt> C = Step->isValueDependent()
                                          ? std::nullopt
                                          : Step->getIntegerConstantExpr(Ctx);
      if (C)
        StepText = std::to_string(C->getExtValue());
      // The bound is a kernel parameter that every launch passes a
      // multiple of the step for (`num_paths *= 1024;` before the launch):
      // every thread runs the loop equally often.
      if (const auto *Ref = dyn_cast<DeclRefExpr>(Bound->IgnoreParenImpCasts());
          Ref && C && C->getSignificantBits() <= 63 && isKernel(FD))
        if (const auto *P = dyn_cast<ParmVarDecl>(Ref->getDecl());
            P && P->getDeclContext() == FD &&
            everyLaunchPassesMultiple(Ctx, *FD, *P, C->getExtValue()))
          return;
      // Conditional on a value the host usually makes a multiple: worth
      // less than a barrier that diverges whatever the input.
      diagCapped(
          Call->getBeginLoc(),
          "'%0' is reached by every thread of the %select{block|warp|grid}1 "
          "only if '%2' is a multiple of the loop's step %3; otherwise only "
          "some threads run the last iteration, and a barrier that not every "
          "thread reaches is undefined behaviour and can hang",
          /*MaxRank=*/25,
          "the barrier diverges only if the loop's bound is not a multiple "
          "of its step")
          << Name << unsigned(Level) << Text(Bound) << StepText;
      diag(Loop->getCond()->getBeginLoc(),
           "the threads run this loop equally often only when its bound is a "
           "multiple of its step",
           DiagnosticIDs::Note);
      if (Div.Cause != Loop->getCond())
        diag(Div.Cause->getBeginLoc(),
             "this condition differs between threads only through the "
             "iterations of that loop",
             DiagnosticIDs::Note);
      return;
    }
  }

  // `if (t < k) { ...; __syncthreads(); return; } ...; __syncthreads();`
  // in a kernel: both are `bar.sync 0`, the returning threads arrive at it
  // once and exit, and the barrier waits for no exited thread afterwards
  // (moe_align). Nothing hangs; the guide's letter is not kept.
  bool PairedWithExit = Level == ThreadDependence::Scope::Block &&
                        Div.EarlyExit && EndExits && Div.OtherBarrier &&
                        !isInsideLoop(Ctx, Div.OtherBarrier, FD->getBody());
  Pendings.push_back({Call, Name, Level, Div, PairedWithExit});
}

void DivergentBarrierCheck::onEndOfTranslationUnit() {
  // The barriers the returning threads of a pairing wait at: their own
  // finding ("reached by only some threads") is the other half of it.
  llvm::SmallPtrSet<const Stmt *, 4> PairedOthers;
  for (const Pending &P : Pendings)
    if (P.PairedWithExit)
      PairedOthers.insert(P.Div.OtherBarrier);
  for (const Pending &P : Pendings) {
    if (P.PairedWithExit) {
      if (ReportExitedThreads) {
        diag(P.Call->getBeginLoc(),
             "'%0' pairs with another barrier that the returning threads wait "
             "at before they exit; both are barrier 0, so this cannot hang, "
             "but the CUDA programming guide asks every thread of the block "
             "to reach the same barrier")
            << P.Name;
        diag(P.Div.Cause->getBeginLoc(),
             "some threads return here, after waiting at another barrier in "
             "its place",
             DiagnosticIDs::Note);
        diag(P.Div.OtherBarrier->getBeginLoc(),
             "the threads that return wait at this barrier instead",
             DiagnosticIDs::Note);
      }
      continue;
    }
    if (!P.Div.EarlyExit && PairedOthers.count(P.Call))
      continue;
    report(P);
  }
  Pendings.clear();
  for (Analyses &A : ByScope)
    A.clear();
  for (Analyses &A : MultiplesByScope)
    A.clear();
  TailCalled.clear();
  Launches.reset();
}

void DivergentBarrierCheck::report(const Pending &P) {
  const CallExpr *Call = P.Call;
  const ThreadDependence::Divergence &Div = P.Div;
  diag(Call->getBeginLoc(),
       "'%0' is reached by only some threads of the %select{block|warp|grid}1; "
       "a barrier that not every thread reaches is undefined behaviour and "
       "can hang")
      << P.Name << unsigned(P.Level);
  if (Div.OtherBarrier) {
    diag(Div.Cause->getBeginLoc(),
         "some threads return here, before the barrier, after waiting at "
         "another barrier in its place",
         DiagnosticIDs::Note);
    diag(Div.OtherBarrier->getBeginLoc(),
         "the threads that return wait at this barrier instead",
         DiagnosticIDs::Note);
  } else if (Div.EarlyExit)
    diag(Div.Cause->getBeginLoc(),
         "some threads return here, before the barrier; they go on running "
         "in the caller",
         DiagnosticIDs::Note);
  else
    diag(Div.Cause->getBeginLoc(),
         "the barrier is under this condition, which depends on the thread "
         "%select{index|index|or block index}0",
         DiagnosticIDs::Note)
        << unsigned(P.Level);
}

} // namespace clang::tidy::cuda
