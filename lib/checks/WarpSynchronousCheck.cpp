//===--- WarpSynchronousCheck.cpp - cuda-lint -----------------------------===//
//
// Kepler tuning guide 1.4.9, "Warp-synchronous Programming": omitting a
// barrier where the threads of a warp communicate through memory is a data
// race, "easily broken" by the compiler and the hardware, and assumes a warp
// size of 32; the warp shuffle (1.4.3.3) is the supported alternative.
//
// The check: per device function, the barrier-free regions of accesses
// (WarpSyncAnalysis.h), the races between their writes and reads (the exact
// own-index test, and the general analysis of WarpSyncGeneral.cpp), one
// warning per region, and the fixes of WarpSyncFixer.h (the shuffle rewrite
// in WarpSyncShuffleFix.cpp, the barriers in WarpSyncBarrierFix.cpp).
//
//===----------------------------------------------------------------------===//

#include "WarpSynchronousCheck.h"
#include "WarpSyncFixer.h"
#include "cudalint/analysis/DeviceCode.h"
#include "cudalint/analysis/KernelLaunches.h"
#include "cudalint/analysis/WarpSyncAnalysis.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include <limits>
#include <optional>
#include <tuple>

using namespace clang::ast_matchers;

namespace clang::tidy {

template <> struct OptionEnumMapping<cuda::WarpSynchronousCheck::FixStyleKind> {
  static llvm::ArrayRef<
      std::pair<cuda::WarpSynchronousCheck::FixStyleKind, StringRef>>
  getEnumMapping() {
    static constexpr std::pair<cuda::WarpSynchronousCheck::FixStyleKind,
                               StringRef>
        Mapping[] = {
            {cuda::WarpSynchronousCheck::FixStyleKind::Shuffle, "shuffle"},
            {cuda::WarpSynchronousCheck::FixStyleKind::Syncwarp, "syncwarp"}};
    return {Mapping};
  }
};

namespace cuda {

using namespace warpsync;

namespace {

/// Whether every thread names the same element of the array \p Z accesses:
/// no offset, and no subscript that varies between threads.
bool sameElementEverywhere(const Analysis &A, const Access &Z) {
  return !Z.Offset &&
         llvm::none_of(Z.Subs, [&](const Expr *E) { return A.varyingExpr(E); });
}

/// Whether every race of \p Races is a read-modify-write that every thread
/// of the block makes of one element that they all name alike (`v = A[0]; A[0]
/// = v + 1;`, `p[k]++`): the updates of the other threads are lost, and a
/// barrier between the read and the write would not keep them.
bool lostUpdate(const Analysis &A, ArrayRef<Race> Races) {
  auto sameEverywhere = [&](const Access &Z) {
    return !Z.Subs.empty() && sameElementEverywhere(A, Z);
  };
  return !Races.empty() && llvm::all_of(Races, [&](const Race &R) {
    return !R.DataDependent && R.R->Order <= R.W->Order &&
           R.R->G.BlockUniform && R.W->G.BlockUniform && !R.R->Side &&
           !R.W->Side && !R.R->Carried && !R.W->Carried &&
           R.R->Loops == R.W->Loops && sameEverywhere(*R.R) &&
           sameEverywhere(*R.W);
  });
}

/// Whether the write \p W stores back, unchanged, the value its thread read
/// from the same element by \p R (`v = A[0]; A[0] = v;`): whichever thread
/// comes last, the element keeps its value (GPUVerify's benign
/// writeafterread).
bool storesBackRead(const Analysis &A, GeneralRaces &General, const Access &W,
                    const Access &R) {
  if (!W.Stored || R.Order >= W.Order || W.Array != R.Array)
    return false;
  const Expr *S = W.Stored->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
        V && V->isLocalVarDecl())
      if (const Expr *Def = General.definitionAt(V, DRE))
        S = Def->IgnoreParenImpCasts();
  if (S != R.E->IgnoreParenImpCasts())
    return false;
  llvm::FoldingSetNodeID IW, IR;
  W.E->Profile(IW, A.Ctx, /*Canonical=*/true);
  R.E->Profile(IR, A.Ctx, /*Canonical=*/true);
  return IW == IR && !R.Offset && sameElementEverywhere(A, W);
}

} // namespace

WarpSynchronousCheck::WarpSynchronousCheck(StringRef Name,
                                           ClangTidyContext *Context)
    : CudaCheck(Name, Context),
      FixStyle(Options.get("FixStyle", FixStyleKind::Shuffle)),
      SharedScalars(Options.get("SharedScalars", true)) {}

void WarpSynchronousCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "FixStyle", FixStyle);
  Options.store(Opts, "SharedScalars", SharedScalars);
}

void WarpSynchronousCheck::registerMatchers(MatchFinder *Finder) {
  limitParentMapToUserCode(Finder);
  Finder->addMatcher(functionDecl(isDefinition(),
                                  matchers::isCudaDeviceFunction(),
                                  unless(isExpansionInSystemHeader()))
                         .bind("fn"),
                     this);
}

void WarpSynchronousCheck::check(const MatchFinder::MatchResult &Result) {
  Ctx = Result.Context;
  const auto *FD = Result.Nodes.getNodeAs<FunctionDecl>("fn");
  if (!FD->getBody() || FD->isDependentContext())
    return;
  Functions.insert(FD);
}

void WarpSynchronousCheck::onEndOfTranslationUnit() {
  if (!Ctx || Functions.empty())
    return;
  Analysis A(*Ctx);
  A.TrackScalars = SharedScalars;
  SmallVector<const FunctionDecl *, 16> Fns(Functions.begin(), Functions.end());
  // Own-index variables: locals, then helper parameters bound by callers,
  // to a fixed point.
  for (int Round = 0; Round < 4; ++Round) {
    for (const FunctionDecl *FD : Fns)
      A.collectLocals(FD);
    A.bindParameters(Fns);
  }
  for (const FunctionDecl *FD : Fns)
    A.collectVarying(FD);
  // First walk: the guards at every call site.
  for (const FunctionDecl *FD : Fns)
    A.walkFunction(FD, Guard());
  A.collectWindowParams();
  A.collectPrivateParams();
  auto Calls = std::move(A.Calls);

  llvm::DenseSet<unsigned> Reported;
  KernelLaunches Launches(*Ctx);
  const SourceManager &FileSM = Ctx->getSourceManager();
  for (const FunctionDecl *FD : Fns) {
    // A helper of a header that this unit never calls is analysed where it
    // is called, with what its callers pass (a per-warp window, say); here
    // its parameters could only be guessed.
    if (!isKernel(FD) && !Calls.count(FD->getCanonicalDecl()) &&
        !FileSM.isInMainFile(FileSM.getExpansionLoc(FD->getLocation())))
      continue;
    Guard Entry = entryGuard(A, FD, Calls);
    A.walkFunction(FD, Entry);
    boundThreads(A, FD);
    Fixer F(A, *Ctx, FD, Calls);
    std::optional<BlockShape> Launched =
        isKernel(FD) ? Launches.largestShape(FD) : std::nullopt;
    GeneralRaces General(A, FD, isKernel(FD), Launched,
                         Launched && Launches.onlyShape(FD));
    if (isKernel(FD))
      General.setLaunchGrid(Launches.onlyGrid(FD));
    const SourceManager &SM = Ctx->getSourceManager();
    for (const auto &[RegionIndex, Region] : llvm::enumerate(A.Regions)) {
      SmallVector<Race, 8> Races;
      // Every access of a back-edge region names its loop.
      const Stmt *EdgeLoop =
          Region.empty() ? nullptr : Region.front().BackEdgeLoop;
      for (const Access &W : Region)
        for (const Access &R : Region) {
          if (!canMeet(W, R) || !W.Write || R.Write || W.Array != R.Array ||
              (W.Atomic && R.Atomic) || ownStoreFirst(A, W, R) ||
              storesBackRead(A, General, W, R))
            continue;
          std::optional<Race> Rc;
          // An access in a helper the function calls itself is evaluated
          // with the call's arguments; deeper ones get only the exact test.
          bool Inlined = W.Inlined || R.Inlined;
          // An own index plus a constant on both sides: the exact test.
          if (W.GridOnly)
            Rc = Inlined ? std::nullopt
                         : General.race(W, R, /*BlocksOnly=*/true);
          else if (W.Idx.B != Base::None && W.Idx.B == R.Idx.B)
            Rc = raceBetween(W, R, General.maxThreadsX());
          else if (W.InlineDepth <= 1 && R.InlineDepth <= 1)
            Rc = General.race(W, R);
          if (Rc)
            Races.push_back(*Rc);
        }
      if (Races.empty()) {
        reportWriteWrite(A, General, Region, Reported);
        continue;
      }
      // Races that need data-dependent conditions last: when the first
      // does, all do.
      llvm::sort(Races, [](const Race &X, const Race &Y) {
        return std::make_tuple(X.DataDependent, X.R->Order, X.W->Order) <
               std::make_tuple(Y.DataDependent, Y.R->Order, Y.W->Order);
      });
      const Race &First = Races.front();
      SourceLocation Loc = SM.getExpansionLoc(First.R->E->getBeginLoc());
      // One warning per region of the source: a template instantiated
      // twice (or a loop walked per offset) gives the same races again, or
      // some of them.
      auto LocOf = [&](const Race &R) {
        return SM.getExpansionLoc(R.R->E->getBeginLoc()).getRawEncoding();
      };
      bool Seen = llvm::any_of(
          Races, [&](const Race &R) { return Reported.count(LocOf(R)); });
      for (const Race &R : Races)
        Reported.insert(LocOf(R));
      if (Seen)
        continue;
      // Every race needs a thread that a condition on data lets in: whether
      // there is one depends on the data (`keys[t] <= k && k < keys[t + 1]`
      // over sorted keys lets in one thread). Said so, without a fix.
      if (First.DataDependent && First.DataIndex) {
        // An index read from memory: reported, hedged and ranked low, never
        // dropped (issue 29).
        diagCapped(Loc,
                   "threads may communicate through '%0' with no barrier in "
                   "between, depending on the data: an index read from "
                   "memory may name an element another thread accesses",
                   25, "whether it races depends on an index read from memory")
            << accessedName(*First.R);
        diag(SM.getExpansionLoc(First.W->E->getBeginLoc()),
             "another thread may write the element here", DiagnosticIDs::Note);
        diag(SM.getExpansionLoc(First.DataIndex->getBeginLoc()),
             "this index is read from memory", DiagnosticIDs::Note);
        if (!First.Example.empty())
          diag(Loc,
               General.shapeLaunched()
                   ? "for example, %0, where the data names that element (in "
                     "blocks of %1, as launched here)"
                   : "for example, %0, where the data names that element "
                     "(assuming blocks of %1)",
               DiagnosticIDs::Note)
              << First.Example << General.shape();
        continue;
      }
      if (First.DataDependent) {
        diag(Loc, "threads may communicate through '%0' with no barrier in "
                  "between, depending on the data: a race unless a "
                  "data-dependent condition lets only one thread at each "
                  "element")
            << accessedName(*First.R);
        diag(SM.getExpansionLoc(First.W->E->getBeginLoc()),
             "another thread may write the element here", DiagnosticIDs::Note);
        if (First.DataCond)
          diag(SM.getExpansionLoc(First.DataCond->getBeginLoc()),
               "this condition depends on data the check cannot evaluate",
               DiagnosticIDs::Note);
        continue;
      }
      llvm::erase_if(Races, [](const Race &R) { return R.DataDependent; });
      bool Warp = llvm::all_of(Races, [](const Race &R) { return R.SameWarp; });
      bool CrossBlock =
          llvm::any_of(Races, [](const Race &R) { return R.CrossBlock; });
      // Every race is on a path that skips a barrier under a condition
      // (`if (cw) { ...; __syncthreads(); ... }`): said so, and where.
      const Access *Skipped = nullptr;
      if (!CrossBlock && !EdgeLoop && llvm::all_of(Races, [](const Race &R) {
            return R.W->Carried || R.R->Carried;
          }))
        Skipped = Races.front().W->Carried ? Races.front().W : Races.front().R;
      // The example pair for the note: of the worst kind found.
      auto rank = [](const Race &R) {
        return R.CrossBlock ? 2 : R.SameWarp ? 0 : 1;
      };
      const Race *Example = First.General ? &First : nullptr;
      for (const Race &R : Races)
        if (R.General && (!Example || rank(R) > rank(*Example)))
          Example = &R;
      // The array as spelled at the read (an alias such as `vs` of `s`).
      std::string Array = accessedName(*First.R);
      std::vector<FixItHint> Fixes;
      std::string Why;
      bool Fixed = false;
      F.ShuffleWhy.clear();
      bool InHelper = llvm::any_of(
          Races, [](const Race &R) { return R.W->Inlined || R.R->Inlined; });
      bool Lost = !EdgeLoop && lostUpdate(A, Races);
      if (Lost) {
        Why = "a barrier would not keep the other threads' updates; use an "
              "atomic operation, or let one thread make the update";
      } else if (CrossBlock) {
        Why = "only a grid-wide synchronization (a second kernel launch, or "
              "cooperative_groups grid.sync()) orders threads of different "
              "blocks";
      } else {
        // The shuffle rewrite sees the reads after the reduction itself
        // (`s[0]` read by other lanes gets a __syncwarp() after the
        // write-back): it is given the own-index races.
        SmallVector<Race, 8> Own;
        for (const Race &R : Races)
          if (!R.General)
            Own.push_back(R);
        if (Warp && FixStyle == FixStyleKind::Shuffle && !EdgeLoop &&
            !Own.empty())
          Fixed = F.shuffleFix(Own, Fixes);
        if (!Fixed) {
          Fixes.clear();
          bool AtEntry = !isKernel(FD) && RegionIndex == 0 &&
                         A.FirstRegionAtEntry && !EdgeLoop;
          // An access in a called helper is placed at its call: the
          // barrier goes into the caller, around the call.
          Fixed = F.barrierFix(Races, Warp, AtEntry, Fixes, Why, EdgeLoop);
          if (!Fixed)
            Fixes.clear();
          if (!Fixed && InHelper && Why.empty())
            Why = "an access is in a called function; a barrier between the "
                  "accesses belongs in the caller, at a point every thread "
                  "reaches";
        }
      }
      {
        auto D =
            Lost ? diag(Loc, "every thread reads and writes one element of "
                             "'%0' with no atomic operation; the updates of "
                             "concurrent threads are lost")
            : CrossBlock
                ? diag(Loc, "threads of different blocks communicate through "
                            "'%0' with no grid-wide synchronization in "
                            "between; __syncthreads() cannot order them")
            : EdgeLoop
                ? (Warp ? diag(Loc, "lanes of a warp communicate through "
                                    "'%0' across iterations of the loop with "
                                    "no barrier in between; missing "
                                    "__syncwarp() at the end of the loop "
                                    "body")
                        : diag(Loc, "threads of different warps communicate "
                                    "through '%0' across iterations of the "
                                    "loop with no barrier in between; "
                                    "missing __syncthreads() at the end of "
                                    "the loop body"))
            : Skipped
                ? (Warp ? diag(Loc, "lanes of a warp communicate through '%0' "
                                    "with no barrier in between on the paths "
                                    "that skip a conditional barrier; "
                                    "warp-synchronous code is a data race")
                        : diag(Loc, "threads of different warps communicate "
                                    "through '%0' with no barrier in between "
                                    "on the paths that skip a conditional "
                                    "barrier; missing __syncthreads()"))
            : Warp ? diag(Loc, "lanes of a warp communicate through '%0' with "
                               "no barrier in between; warp-synchronous code "
                               "is a data race")
                   : diag(Loc, "threads of different warps communicate "
                               "through '%0' with no barrier in between; "
                               "missing __syncthreads()");
        D << Array;
        for (const FixItHint &H : Fixes)
          D << H;
      }
      diag(SM.getExpansionLoc(First.W->E->getBeginLoc()),
           EdgeLoop ? "another thread writes the element here in the next "
                      "iteration"
                    : "another thread writes the element here",
           DiagnosticIDs::Note);
      for (const Access *X : {First.R, First.W})
        if (X->Via)
          diag(SM.getExpansionLoc(X->Via->getBeginLoc()),
               "the access at %select{the warning|the note}0 is made in the "
               "function called here",
               DiagnosticIDs::Note)
              << (X == First.W);
      if (Skipped && Skipped->CarriedBy)
        diag(SM.getExpansionLoc(Skipped->CarriedBy->getCond()->getBeginLoc()),
             "the barrier between them is reached only where this condition "
             "is %select{false|true}0",
             DiagnosticIDs::Note)
            << Skipped->CarriedThen;
      if (Example)
        diag(Loc,
             General.shapeLaunched()
                 ? "for example, %0 (in blocks of %1, as launched here)"
                 : "for example, %0 (assuming blocks of %1)",
             DiagnosticIDs::Note)
            << Example->Example << General.shape();
      if (Warp && !CrossBlock && !Lost)
        diag(Loc,
             "this relies on the lanes of a warp running in lock-step and on "
             "a warp size of 32; neither is guaranteed since Volta",
             DiagnosticIDs::Note);
      if (!Fixed && !F.ShuffleWhy.empty())
        Why = F.ShuffleWhy;
      if (!Fixed && Why.empty())
        Why = "the statements involved cannot be rewritten in place (macros "
              "or statement forms the rewrite does not handle)";
      if (!Fixed && !Why.empty())
        diag(Loc, "no automatic fix: %0", DiagnosticIDs::Note) << Why;
    }
  }
  Functions.clear();
}

bool WarpSynchronousCheck::underLocalCondition(const Expr *E) {
  // Up to the function: an `if` whose condition reads an integer local
  // that is not the variable of a loop around it.
  DynTypedNode N = DynTypedNode::create(*E);
  SmallVector<const VarDecl *, 2> LoopVars;
  for (int Depth = 0; Depth < 64; ++Depth) {
    auto Parents = Ctx->getParents(N);
    if (Parents.empty())
      return false;
    N = Parents[0];
    if (const auto *For = N.get<ForStmt>())
      if (const auto *DS = dyn_cast_or_null<DeclStmt>(For->getInit()))
        for (const Decl *D : DS->decls())
          if (const auto *VD = dyn_cast<VarDecl>(D))
            LoopVars.push_back(VD);
    if (N.get<FunctionDecl>())
      break;
  }
  N = DynTypedNode::create(*E);
  for (int Depth = 0; Depth < 64; ++Depth) {
    auto Parents = Ctx->getParents(N);
    if (Parents.empty())
      return false;
    N = Parents[0];
    const auto *If = N.get<IfStmt>();
    if (!If)
      continue;
    bool Local = false;
    forEachDescendant(If->getCond(), [&](const Stmt *S) {
      if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
          Local |= VD->isLocalVarDecl() && VD->getType()->isIntegerType() &&
                   !llvm::is_contained(LoopVars, VD);
    });
    if (Local)
      return true;
  }
  return false;
}

void WarpSynchronousCheck::reportWriteWrite(
    const Analysis &A, GeneralRaces &General, ArrayRef<Access> Region,
    llvm::DenseSet<unsigned> &Reported) {
  std::optional<Race> Found;
  auto race = [&](const Access &X, const Access &Y) -> std::optional<Race> {
    bool Inlined = X.Inlined || Y.Inlined;
    if (X.GridOnly && Inlined)
      return std::nullopt;
    if (X.GridOnly)
      return General.race(X, Y, /*BlocksOnly=*/true, /*WriteWrite=*/true);
    // Kept to what the evaluation decides surely: an own-index pair needs
    // a known block or offsets within a warp (`s[tid]` against
    // `s[tid + 128]` under unknown bounds meets only in blocks over 128);
    // another pair needs a subscript the same in every thread on one side
    // (one element many threads store to), not two computed indices.
    if (X.Idx.B != Base::None && X.Idx.B == Y.Idx.B) {
      if (General.maxThreadsX() == Inf && !X.Idx.Xor && !Y.Idx.Xor &&
          std::abs(X.Idx.Off - Y.Idx.Off) >= WarpSize)
        return std::nullopt;
      return raceBetween(X, Y, General.maxThreadsX(), /*WriteWrite=*/true);
    }
    // And the thread-dependent conditions on their paths must name the
    // built-ins themselves (`if (tid == 0)`), not locals computed from them
    // (`i = (int)(threadIdx.x) - 7; if (i == 0)`), which the evaluation
    // does not always follow.
    auto Direct = [](const Access &Z) {
      return llvm::none_of(Z.G.Conds, [](const auto &C) {
        bool Local = false;
        forEachDescendant(C.first, [&](const Stmt *S) {
          if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
            if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
              Local |= VD->isLocalVarDecl();
        });
        return Local;
      });
    };
    if (Inlined ||
        (!sameElementEverywhere(A, X) && !sameElementEverywhere(A, Y)) ||
        !Direct(X) || !Direct(Y) || underLocalCondition(X.E) ||
        underLocalCondition(Y.E))
      return std::nullopt;
    return General.race(X, Y, /*BlocksOnly=*/false, /*WriteWrite=*/true);
  };
  for (size_t I = 0; I < Region.size() && !Found; ++I)
    for (size_t J = I; J < Region.size() && !Found; ++J) {
      const Access &X = Region[I], &Y = Region[J];
      if (!X.Write || !Y.Write || X.Array != Y.Array || !canMeet(X, Y) ||
          (X.Atomic && Y.Atomic) || !storesDiffer(A, X, Y, X.GridOnly))
        continue;
      // A race that needs a data-dependent condition is left out: a write
      // under `if (a[t] > m)` may well be the only one.
      for (auto [P, Q] : {std::pair(&X, &Y), std::pair(&Y, &X)})
        if (std::optional<Race> Rc = race(*P, *Q);
            !Found && Rc && !Rc->DataDependent)
          Found = Rc;
    }
  if (!Found)
    return;
  const SourceManager &SM = Ctx->getSourceManager();
  const Access &Later =
      Found->W->Order > Found->R->Order ? *Found->W : *Found->R;
  const Access &Other = &Later == Found->W ? *Found->R : *Found->W;
  SourceLocation Loc = SM.getExpansionLoc(Later.E->getBeginLoc());
  if (!Reported.insert(Loc.getRawEncoding()).second)
    return;
  std::string Array = accessedName(Later);
  if (Found->CrossBlock || Later.GridOnly)
    diag(Loc, "threads of different blocks write different values to one "
              "element of '%0' with no grid-wide synchronization in between; "
              "which value remains is undefined")
        << Array;
  else
    diag(Loc, "threads write different values to %select{one element of "
              "|}1'%0' with no barrier in between; which value remains is "
              "undefined")
        << Array << (Analysis::sharedScalar(Later.E) != nullptr);
  if (Other.E != Later.E)
    diag(SM.getExpansionLoc(Other.E->getBeginLoc()),
         "another thread writes the element here", DiagnosticIDs::Note);
  if (Found->General)
    diag(Loc,
         General.shapeLaunched()
             ? "for example, %0 (in blocks of %1, as launched here)"
             : "for example, %0 (assuming blocks of %1)",
         DiagnosticIDs::Note)
        << Found->Example << General.shape();
}

} // namespace cuda
} // namespace clang::tidy
