//===--- UnsynchronizedTimingCheck.cpp - cuda-lint ------------------------===//
//
// OpenCL best-practices guide 2.1.1 ("Using CPU Timers"): kernel launches
// and asynchronous transfers return before their work is done, so "to
// accurately measure the elapsed time for a particular call or sequence of
// calls, it is necessary to synchronize the CPU thread with the GPU ...
// immediately before starting and stopping the CPU timer".
//
//===----------------------------------------------------------------------===//

#include "UnsynchronizedTimingCheck.h"
#include "TimingCfg.h"
#include "TimingEffects.h"
#include "cudalint/analysis/DeviceCode.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Analysis/CFG.h"
#include "clang/Lex/Lexer.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

using namespace timing;

namespace {

/// The variable \p E names, through parentheses and implicit casts.
const VarDecl *refVar(const Expr *E) {
  if (!E)
    return nullptr;
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

/// The statement of a compound statement that \p E is part of, when \p E
/// is evaluated by that statement itself (an expression statement, a
/// declaration's initialiser, a return value), not by a nested statement
/// (a condition, a loop).
const Stmt *enclosingStatement(const Expr *E, ASTContext &Ctx) {
  DynTypedNode Cur = DynTypedNode::create(*E);
  while (true) {
    DynTypedNodeList Parents = Ctx.getParents(Cur);
    if (Parents.size() != 1)
      return nullptr;
    const DynTypedNode &P = Parents[0];
    if (P.get<CompoundStmt>())
      return Cur.get<Stmt>();
    if (P.get<Expr>() || P.get<DeclStmt>() || P.get<ReturnStmt>() ||
        (P.get<VarDecl>() && !P.get<ParmVarDecl>())) {
      Cur = P;
      continue;
    }
    return nullptr;
  }
}

/// Whether \p V, a stream variable, keeps one value in \p F: every use is a
/// read, or its address passed to a cudaStreamCreate call.
bool isStableStream(const VarDecl *V, const FunctionDecl *F, ASTContext &Ctx) {
  for (const DeclRefExpr *Ref : referencesTo(F->getBody(), V)) {
    DynTypedNodeList Parents = Ctx.getParents(*Ref);
    const auto *P = Parents.empty() ? nullptr : Parents[0].get<Expr>();
    if (const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(P);
        Cast && Cast->getCastKind() == CK_LValueToRValue)
      continue;
    const auto *UO = dyn_cast_or_null<UnaryOperator>(P);
    if (!UO || UO->getOpcode() != UO_AddrOf)
      return false;
    DynTypedNodeList Up = Ctx.getParents(*UO);
    const auto *Call = Up.empty() ? nullptr : Up[0].get<CallExpr>();
    const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
    if (!FD || !FD->getIdentifier() ||
        !FD->getName().starts_with("cudaStreamCreate") || Call->getArg(0) != UO)
      return false;
  }
  return true;
}

/// Whether \p V is in scope at \p At, a statement of \p F.
bool inScopeAt(const VarDecl *V, const Stmt *At, const FunctionDecl *F,
               ASTContext &Ctx) {
  if (V->hasGlobalStorage() && !V->isStaticLocal())
    return true;
  if (const auto *P = dyn_cast<ParmVarDecl>(V))
    return P->getDeclContext() == F;
  if (V->getDeclContext() != F)
    return false;
  const SourceManager &SM = Ctx.getSourceManager();
  if (!SM.isBeforeInTranslationUnit(V->getLocation(), At->getBeginLoc()))
    return false;
  // The compound statement that declares V must hold At.
  DynTypedNodeList Parents = Ctx.getParents(*V);
  const Stmt *DS = Parents.empty() ? nullptr : Parents[0].get<DeclStmt>();
  if (!DS)
    return false;
  DynTypedNodeList Up = Ctx.getParents(*DS);
  const auto *Scope = Up.empty() ? nullptr : Up[0].get<CompoundStmt>();
  if (!Scope)
    return false;
  DynTypedNode Cur = DynTypedNode::create(*At);
  while (true) {
    DynTypedNodeList Ps = Ctx.getParents(Cur);
    if (Ps.empty())
      return false;
    if (Ps[0].get<CompoundStmt>() == Scope)
      return true;
    Cur = Ps[0];
  }
}

/// The variable that the timer read \p Timer is stored to (`auto t =
/// now();`, `t = now();`), if any.
const VarDecl *timerVariable(const Expr *Timer, ASTContext &Ctx) {
  DynTypedNode Cur = DynTypedNode::create(*Timer);
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    DynTypedNodeList Parents = Ctx.getParents(Cur);
    if (Parents.size() != 1)
      return nullptr;
    const DynTypedNode &P = Parents[0];
    if (const auto *V = P.get<VarDecl>())
      return V;
    const Expr *Child = Cur.get<Expr>();
    if (const auto *BO = P.get<BinaryOperator>())
      return BO->getOpcode() == BO_Assign && BO->getRHS() == Child
                 ? refVar(BO->getLHS())
                 : nullptr;
    if (const auto *Op = P.get<CXXOperatorCallExpr>())
      return Op->getOperator() == OO_Equal && Op->getNumArgs() == 2 &&
                     Op->getArg(1) == Child
                 ? refVar(Op->getArg(0))
                 : nullptr;
    if (!P.get<Expr>())
      return nullptr;
    Cur = P;
  }
  return nullptr;
}

/// Whether the timer read \p Timer ends an interval that the function
/// computes: its variable is the left operand of a subtraction (`stop -
/// start`).
bool endsInterval(const Expr *Timer, const FunctionDecl *F, ASTContext &Ctx) {
  const VarDecl *V = timerVariable(Timer, Ctx);
  if (!V)
    return false;
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl *V;
    bool Found = false;
    bool VisitBinaryOperator(BinaryOperator *BO) {
      Found |= BO->getOpcode() == BO_Sub && refVar(BO->getLHS()) == V;
      return !Found;
    }
    bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Op) {
      Found |= Op->getOperator() == OO_Minus && Op->getNumArgs() == 2 &&
               refVar(Op->getArg(0)) == V;
      return !Found;
    }
  } Fn;
  Fn.V = V;
  Fn.TraverseStmt(F->getBody());
  return Fn.Found;
}

} // namespace

void UnsynchronizedTimingCheck::registerMatchers(MatchFinder *Finder) {
  limitParentMapToUserCode(Finder);
  Finder->addMatcher(functionDecl(isDefinition(),
                                  unless(isExpansionInSystemHeader()),
                                  unless(matchers::isCudaDeviceFunction()))
                         .bind("function"),
                     this);
}

void UnsynchronizedTimingCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *F = Result.Nodes.getNodeAs<FunctionDecl>("function");
  ASTContext &Ctx = *Result.Context;
  if (!F->getBody() || F->isDependentContext() || F->isInvalidDecl())
    return;
  // A cheap filter: the function reads a timer directly or through a
  // wrapper it calls.
  EffectClassifier C(Ctx);
  {
    struct Finder : RecursiveASTVisitor<Finder> {
      EffectClassifier &C;
      bool Timer = false, Async = false;
      explicit Finder(EffectClassifier &C) : C(C) {}
      bool shouldVisitLambdaBody() const { return false; }
      bool VisitCallExpr(CallExpr *Call) {
        EffectKind K = C.classify(Call).Kind;
        Timer |= K == EffectKind::Timer;
        Async |= K == EffectKind::Async;
        return true;
      }
    } Pre(C);
    Pre.TraverseStmt(F->getBody());
    if (!Pre.Timer || !Pre.Async)
      return;
  }
  CFG::BuildOptions Opts;
  Opts.setAllAlwaysAdd();
  Opts.AddImplicitDtors = true;
  std::unique_ptr<CFG> G = CFG::buildCFG(F, F->getBody(), &Ctx, Opts);
  if (!G)
    return;
  TimingAnalysis A(*G, C);
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::DenseSet<const Stmt *> Fixed;
  A.forEachTimer([&](const CFGBlock *B, unsigned Index, const Stmt *Timer) {
    llvm::SmallVector<const TimingAnalysis::Item *, 4> Pending =
        A.pendingAt(B, Index);
    const TimingAnalysis::Item *Shown = nullptr;
    for (const TimingAnalysis::Item *It : Pending) {
      if (A.syncBetween(It, B, Index))
        return;
      if (!Shown && A.timedBefore(It))
        Shown = It;
    }
    if (!Shown)
      return;
    // The launch call's own latency, measured on purpose next to the
    // work's time: the device is waited for right after this read, and
    // the clock read again.
    llvm::SmallVector<const Stmt *, 2> Later;
    if (A.measuredAfterSync(B, Index, Later) &&
        endsInterval(cast<Expr>(Timer), F, Ctx) &&
        llvm::all_of(Later, [&](const Stmt *T) {
          return endsInterval(cast<Expr>(T), F, Ctx);
        }))
      return;
    SourceLocation Loc = SM.getExpansionLoc(Timer->getBeginLoc());
    if (SM.isInSystemHeader(Loc) || !Reported.insert(Loc).second)
      return;

    // The fix: a synchronization before the statement that reads the
    // timer; the stream's when every pending operation names the same
    // stream variable, which is in scope there and never changes.
    std::string WhyNot;
    const Stmt *S = enclosingStatement(cast<Expr>(Timer), Ctx);
    std::string Sync = "cudaDeviceSynchronize();";
    if (!S)
      WhyNot = "the timer is read in a condition or a nested statement";
    else if (!S->getBeginLoc().isFileID() || !Timer->getBeginLoc().isFileID())
      WhyNot = "the timer is read in a macro";
    else if (!Fixed.insert(S).second)
      WhyNot = "already synchronized";
    if (WhyNot.empty()) {
      const VarDecl *Stream = Pending.front()->E.Stream;
      bool Same = llvm::all_of(Pending, [&](const TimingAnalysis::Item *It) {
        return It->E.StreamKnown && It->E.Stream == Stream;
      });
      if (Same && Stream && inScopeAt(Stream, S, F, Ctx) &&
          isStableStream(Stream, F, Ctx))
        Sync = ("cudaStreamSynchronize(" + Stream->getName() + ");").str();
    }

    {
      auto Diag = diag(Loc, "host timer read after asynchronous GPU work with "
                            "no synchronization in between: it measures the "
                            "launch, not the work");
      if (WhyNot.empty()) {
        SourceLocation Begin = S->getBeginLoc();
        std::pair<FileID, unsigned> Pos = SM.getDecomposedLoc(Begin);
        StringRef Buffer = SM.getBufferData(Pos.first);
        unsigned LineStart = Pos.second;
        while (LineStart > 0 && Buffer[LineStart - 1] != '\n')
          --LineStart;
        StringRef Indent = Buffer.slice(LineStart, Pos.second);
        if (Indent.find_first_not_of(" \t") == StringRef::npos)
          Diag << FixItHint::CreateInsertion(Begin, Sync + "\n" + Indent.str());
        else
          Diag << FixItHint::CreateInsertion(Begin, Sync + " ");
      }
    }
    const Stmt *Op = Shown->S;
    SourceLocation OpLoc = SM.getExpansionLoc(Op->getBeginLoc());
    if (isa<CUDAKernelCallExpr>(Op))
      diag(OpLoc, "the kernel launched here may still be running",
           DiagnosticIDs::Note);
    else if (const auto *Call = dyn_cast<CallExpr>(Op);
             Call && Call->getDirectCallee() &&
             Call->getDirectCallee()->getIdentifier())
      diag(OpLoc, "'%0' returns before the GPU work it queues is done",
           DiagnosticIDs::Note)
          << Call->getDirectCallee()->getName();
    else
      diag(OpLoc, "asynchronous GPU work queued here", DiagnosticIDs::Note);
    if (!WhyNot.empty() && WhyNot != "already synchronized")
      diag(Loc, "no automatic fix: %0", DiagnosticIDs::Note) << WhyNot;
  });
}

} // namespace clang::tidy::cuda
