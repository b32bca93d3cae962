//===--- PageableAsyncCopyCheck.cpp - cuda-lint ---------------------------===//
//
// OpenCL best-practices guide 3.1.1 ("Pinned Memory") and 3.1.3
// ("Overlapping Transfers and Device Computation"): overlapping transfers
// with kernels requires "host side memory buffers using pinned memory". An
// asynchronous copy from or to pageable memory is staged through a pinned
// buffer by the driver and does not overlap.
//
//===----------------------------------------------------------------------===//

#include "PageableAsyncCopyCheck.h"
#include "PageableCopyArgs.h"
#include "PageableCopyHostWork.h"
#include "PageableCopyStreams.h"
#include "cudalint/analysis/DeviceCode.h"
#include "cudalint/analysis/HostMemory.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

using namespace pageable_copy;

void PageableAsyncCopyCheck::registerMatchers(MatchFinder *Finder) {
  limitParentMapToUserCode(Finder);
  Finder->addMatcher(
      callExpr(callee(functionDecl(hasAnyName(
                   "cudaMemcpyAsync", "cudaMemcpy2DAsync", "cudaMemcpy3DAsync",
                   "cudaMemcpyToSymbolAsync", "cudaMemcpyFromSymbolAsync"))),
               unless(isExpansionInSystemHeader()))
          .bind("copy"),
      this);
  Finder->addMatcher(callExpr(callee(functionDecl(hasName("cudaHostRegister"))),
                              unless(isExpansionInSystemHeader()))
                         .bind("register"),
                     this);
  Finder->addMatcher(cudaKernelCallExpr().bind("launch"), this);
  Finder->addMatcher(
      callExpr(callee(functionDecl(matchesName("^::cudaLaunch"))))
          .bind("launch"),
      this);
}

void PageableAsyncCopyCheck::check(const MatchFinder::MatchResult &Result) {
  Ctx = Result.Context;
  if (Result.Nodes.getNodeAs<CallExpr>("launch")) {
    LaunchesKernel = true;
    return;
  }
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("copy");
  bool IsRegister = false;
  if (!Call) {
    Call = Result.Nodes.getNodeAs<CallExpr>("register");
    IsRegister = true;
  }
  const FunctionDecl *F = enclosingFunction(*Ctx, *Call);
  // Device-side copies (dynamic parallelism) are another matter; templates
  // are judged per instantiation.
  if (!F || isDeviceFunction(F) || F->isDependentContext())
    return;
  (IsRegister ? Registrations : Copies).push_back({Call, F});
}

void PageableAsyncCopyCheck::onEndOfTranslationUnit() {
  if (!Ctx)
    return;
  // Registered ranges: the variables they are reached through; a range of
  // unknown origin (a parameter) may be any buffer.
  llvm::DenseSet<const ValueDecl *> Registered;
  bool RegisteredUnknown = false;
  for (const Copy &R : Registrations) {
    if (R.Call->getNumArgs() == 0)
      continue;
    HostMemoryOrigin O = hostMemoryOrigin(R.Call->getArg(0), R.Function, *Ctx);
    if (O.Vars.empty())
      RegisteredUnknown = true;
    Registered.insert(O.Vars.begin(), O.Vars.end());
  }

  llvm::DenseSet<SourceLocation> Reported;
  for (const Copy &C : Copies) {
    if (RegisteredUnknown)
      break;
    const FunctionDecl *Callee = C.Call->getDirectCallee();
    CopyShape S = shapeOf(Callee->getName());
    // The candidate host pointers and their direction ("from", "to").
    SmallVector<std::pair<const Expr *, bool>, 2> Candidates;
    std::optional<int64_t> Kind;
    // The bytes copied, when constant.
    std::optional<uint64_t> Bytes;
    if (S.Parms) {
      if (C.Call->getNumArgs() < 1)
        continue;
      const auto *AddrOf =
          dyn_cast<UnaryOperator>(C.Call->getArg(0)->IgnoreParenImpCasts());
      const auto *DRE =
          AddrOf && AddrOf->getOpcode() == UO_AddrOf
              ? dyn_cast<DeclRefExpr>(AddrOf->getSubExpr()->IgnoreParens())
              : nullptr;
      const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
      ParmsFields Fields;
      if (!V || !V->hasLocalStorage() || !C.Function->getBody() ||
          !collectParms(V, C.Function->getBody(), Fields) ||
          Fields.Kind.size() != 1 || Fields.Src.size() > 1 ||
          Fields.Dst.size() > 1)
        continue;
      Kind = evaluateKind(Fields.Kind.front(), *Ctx);
      if (Fields.Extent.size() == 1)
        Bytes = extentBytes(Fields.Extent.front(), C.Function, *Ctx);
      if (!Fields.Src.empty())
        if (const Expr *P = pitchedPointer(Fields.Src.front()))
          Candidates.push_back({P, true});
      if (!Fields.Dst.empty())
        if (const Expr *P = pitchedPointer(Fields.Dst.front()))
          Candidates.push_back({P, false});
    } else {
      if (S.Kind < 0 || static_cast<unsigned>(S.Kind) >= C.Call->getNumArgs())
        continue;
      Kind = evaluateKind(C.Call->getArg(S.Kind), *Ctx);
      if (S.Size >= 0 && static_cast<unsigned>(S.Size) < C.Call->getNumArgs())
        Bytes = foldBytes(C.Call->getArg(S.Size), C.Function, *Ctx);
      if (Bytes && S.Height >= 0) {
        std::optional<uint64_t> Height =
            static_cast<unsigned>(S.Height) < C.Call->getNumArgs()
                ? foldBytes(C.Call->getArg(S.Height), C.Function, *Ctx)
                : std::nullopt;
        if (!Height || __builtin_mul_overflow(*Bytes, *Height, &*Bytes))
          Bytes.reset();
      }
      if (S.Src >= 0)
        Candidates.push_back({C.Call->getArg(S.Src), true});
      if (S.Dst >= 0)
        Candidates.push_back({C.Call->getArg(S.Dst), false});
    }
    // Which side is on the host: the kind says; cudaMemcpyDefault and a
    // kind not known here leave both (a pageable allocation is host memory
    // whatever the kind says).
    if (Kind && (*Kind == HostToHost || *Kind == DeviceToDevice))
      continue;
    // A copy recorded into a graph under stream capture is not run here.
    if (inStreamCapture(C.Call, C.Function, *Ctx))
      continue;
    // Overlap is what pinning buys; report only where the program plausibly
    // wants it: a copy repeated in a loop, or a function that works with
    // more than one stream. A one-time upload or download on the only
    // stream has nothing to overlap with (the caller's loops and streams are
    // not seen).
    for (auto &[Arg, From] : Candidates) {
      if (Kind && *Kind == HostToDevice && !From)
        continue;
      if (Kind && *Kind == DeviceToHost && From)
        continue;
      HostMemoryOrigin O = hostMemoryOrigin(Arg, C.Function, *Ctx);
      if (O.Kind != HostMemoryKind::Pageable ||
          llvm::any_of(O.Vars,
                       [&](const ValueDecl *V) { return Registered.count(V); }))
        continue;
      // A host-to-device copy of 64 KB or less returns once the driver has
      // staged it: it is asynchronous with respect to the host. Copies to
      // pageable memory wait for their completion at any size.
      if (From && Bytes && *Bytes <= SmallCopyBytes)
        continue;
      // What pinning gains: overlap with work in other streams, which needs
      // another stream; or, on one stream, overlap with the host work that
      // follows the copy before the host waits for the device anyway, which
      // needs a kernel for the device to run and a copy repeated in a loop
      // (a one-time copy gains little).
      // The caller's work may be in flight on the default stream and on
      // the streams it passes in.
      bool UsesDefault = false;
      bool Several =
          usesSeveralStreams(C.Function, *Ctx, &UsesDefault) &&
          kernelMayBeInFlight(
              C.Call, UsesDefault || usesCallersStreams(C.Function), *Ctx);
      // Host work that a copy to the host could overlap with: not when the
      // host reads the result first (it needs the data there, and with
      // pinned memory it would have to wait at that point instead).
      llvm::ArrayRef<const ValueDecl *> Needed;
      if (!From)
        Needed = O.Vars;
      bool Follows = hostWorkFollows(C.Call, C.Function, *Ctx, Needed);
      // A small copy to the host (64 KB or less) takes microseconds: it
      // loses no overlap with kernels worth having, only the host's wait,
      // which matters when host work follows.
      if (!From && Bytes && *Bytes <= SmallCopyBytes && !Follows)
        continue;
      if (!Several &&
          (!LaunchesKernel || !inLoop(C.Call, From, *Ctx) || !Follows))
        continue;
      SourceLocation Loc = C.Call->getBeginLoc();
      if (!Reported.insert(Loc).second)
        break;
      // A copy to the device of a size not known here is asynchronous up to
      // 64 KB: say so.
      diag(Loc, "'%0' %select{to|from}1 pageable host memory is not "
                "asynchronous%select{| if it is larger than 64 KB}2: "
                "%select{the host waits until the copy has completed|the host "
                "waits while the driver copies the data into a pinned staging "
                "buffer}1, %select{so the host work that follows cannot "
                "overlap with it (and, on one stream, overlap with kernels "
                "needs a second stream as well)|and the transfer cannot "
                "overlap with kernels in other streams}3")
          << Callee->getName() << From << (From && !Bytes) << Several;
      diag(O.Where,
           "%0 is pageable: allocate it with 'cudaMallocHost' or "
           "'cudaHostAlloc', or pin it with 'cudaHostRegister'",
           DiagnosticIDs::Note)
          << (O.What.empty() ? std::string("the buffer") : O.What);
      break;
    }
  }
  Copies.clear();
  Registrations.clear();
  Ctx = nullptr;
  LaunchesKernel = false;
}

} // namespace clang::tidy::cuda
