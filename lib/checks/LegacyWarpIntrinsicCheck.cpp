//===--- LegacyWarpIntrinsicCheck.cpp - cuda-lint -------------------------===//

#include "LegacyWarpIntrinsicCheck.h"
#include "cudalint/analysis/DeviceCode.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

void LegacyWarpIntrinsicCheck::registerMatchers(MatchFinder *Finder) {
  limitParentMapToUserCode(Finder);
  // Only the intrinsics themselves, declared by the CUDA headers (clang's
  // __clang_cuda_intrinsics.h, an old toolkit's sm_30_intrinsics.h): a
  // program may define its own overload of the same name (a float4 or struct
  // wrapper built on the _sync forms), which is neither legacy nor
  // rewritable to a '_sync' intrinsic that has no such overload.
  Finder->addMatcher(
      callExpr(callee(functionDecl(hasAnyName("__shfl", "__shfl_up",
                                              "__shfl_down", "__shfl_xor",
                                              "__any", "__all", "__ballot"),
                                   isExpansionInSystemHeader())),
               unless(isExpansionInSystemHeader()))
          .bind("call"),
      this);
  // Every use of a device function that is not a kernel, to tell whether
  // the whole warp enters it.
  Finder->addMatcher(
      declRefExpr(to(functionDecl(matchers::isCudaDeviceFunction(),
                                  unless(matchers::isCudaKernel()))),
                  unless(isExpansionInSystemHeader()))
          .bind("ref"),
      this);
}

void LegacyWarpIntrinsicCheck::check(const MatchFinder::MatchResult &Result) {
  Ctx = Result.Context;
  SM = Result.SourceManager;
  if (const auto *Ref = Result.Nodes.getNodeAs<DeclRefExpr>("ref")) {
    const auto *Callee = cast<FunctionDecl>(Ref->getDecl());
    const FunctionDecl *User = enclosingFunction(*Ctx, *Ref);
    const Expr *E = Ref;
    DynTypedNodeList Parents = Ctx->getParents(*Ref);
    while (!Parents.empty() && Parents[0].get<ImplicitCastExpr>()) {
      E = Parents[0].get<ImplicitCastExpr>();
      Parents = Ctx->getParents(*E);
    }
    const auto *Call = Parents.empty() ? nullptr : Parents[0].get<CallExpr>();
    bool IsCall = Call && Call->getCallee() == E;
    // A call from host code does not run on the device.
    if (IsCall && !isDeviceFunction(User))
      return;
    Uses[Callee->getCanonicalDecl()].push_back(
        {IsCall ? static_cast<const Expr *>(Call) : Ref, User, IsCall});
    return;
  }
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  const FunctionDecl *FD = enclosingFunction(*Ctx, *Call);
  if (!FD || !isDeviceFunction(FD) || Call->getNumArgs() == 0)
    return;
  // Reported at the end of the translation unit, when every call of the
  // enclosing function is known.
  Calls.emplace_back(Call, FD);
}

ThreadDependence *LegacyWarpIntrinsicCheck::analysis(const FunctionDecl *FD) {
  std::unique_ptr<ThreadDependence> &TD = Analyses[FD];
  if (!TD && FD->hasBody())
    TD = std::make_unique<ThreadDependence>(*FD, *Ctx,
                                            ThreadDependence::Scope::Warp);
  return TD.get();
}

std::optional<LegacyWarpIntrinsicCheck::EntryReason>
LegacyWarpIntrinsicCheck::notWholeWarp(const FunctionDecl *FD) {
  if (isKernel(FD))
    return std::nullopt;
  const FunctionDecl *Key = FD->getCanonicalDecl();
  if (auto It = Entry.find(Key); It != Entry.end())
    return It->second;
  EntryReason Why;
  Why.Callee = FD;
  // Recursion: a cycle of calls is not known to be entered by the whole warp.
  if (!InProgress.insert(Key).second)
    return Why;
  std::optional<EntryReason> Result;
  auto It = Uses.find(Key);
  if (It == Uses.end() || It->second.empty()) {
    Result = Why; // Called from another file, or not at all.
  } else {
    for (const Use &U : It->second) {
      if (!U.IsCall || !U.User) {
        Why.Site = U.E;
        Why.AddressTaken = true;
        Result = Why;
        break;
      }
      if (std::optional<EntryReason> Outer = notWholeWarp(U.User)) {
        Result = Outer;
        break;
      }
      ThreadDependence *TD = analysis(U.User);
      ThreadDependence::Divergence Div;
      if (TD)
        Div = TD->divergence(*U.E);
      if (!TD || Div) {
        Why.Site = U.E;
        Why.Div = Div;
        Result = Why;
        break;
      }
    }
  }
  InProgress.erase(Key);
  Entry[Key] = Result;
  return Result;
}

void LegacyWarpIntrinsicCheck::report(const CallExpr *Call,
                                      const FunctionDecl *FD) {
  StringRef Name = Call->getDirectCallee()->getName();
  ThreadDependence *TD = analysis(FD);
  ThreadDependence::Divergence Div;
  if (TD)
    Div = TD->divergence(*Call);
  std::optional<EntryReason> Entry;
  if (!Div)
    Entry = notWholeWarp(FD);
  StringRef Mask = Div || Entry ? "__activemask()" : "0xffffffff";

  // The callee name and the first argument must be written in this file
  // (not produced by a macro) to be rewritten.
  SourceLocation NameLoc = Call->getCallee()->IgnoreImplicit()->getBeginLoc();
  SourceLocation ArgLoc = Call->getArg(0)->getBeginLoc();
  // A call written as a macro argument is rewritten where it is written.
  if (NameLoc.isMacroID() && SM->isMacroArgExpansion(NameLoc) &&
      ArgLoc.isMacroID() && SM->isMacroArgExpansion(ArgLoc)) {
    NameLoc = SM->getSpellingLoc(NameLoc);
    ArgLoc = SM->getSpellingLoc(ArgLoc);
  }
  {
    // The shuffles are gone from nvcc for sm_70 and newer (`identifier
    // "__shfl_down" is undefined`, nvcc 13): the file does not build, however
    // cold the call. The votes still compile, with a warning.
    StringRef Text = "%0 has no mask and is not supported on sm_70 and newer "
                     "GPUs; use '%0_sync'";
    auto Diag =
        (Name.starts_with("__shfl")
             ? diagAtLeast(Call->getBeginLoc(), Text, 90,
                           "a build break, wherever it runs: nvcc does not "
                           "declare the shuffles without a mask for sm_70 "
                           "and newer")
             : diag(Call->getBeginLoc(), Text))
        << Name;
    if (NameLoc.isFileID() && ArgLoc.isFileID() &&
        SM->getFileID(NameLoc) == SM->getFileID(ArgLoc)) {
      Diag << FixItHint::CreateReplacement(
                  CharSourceRange::getTokenRange(NameLoc, NameLoc),
                  (Name + "_sync").str())
           << FixItHint::CreateInsertion(ArgLoc, (Mask + ", ").str());
    }
  }
  if (Div) {
    diag(Div.Cause->getBeginLoc(),
         Div.EarlyExit
             ? "some threads of the warp may have returned here, so the mask "
               "is '__activemask()'; review the code's assumption about "
               "which lanes take part"
             : "the call is under this thread-dependent condition, so the "
               "mask is '__activemask()'; review the code's assumption about "
               "which lanes take part",
         DiagnosticIDs::Note);
    return;
  }
  if (!Entry)
    return;
  if (!Entry->Site) {
    diag(Entry->Callee->getLocation(),
         "%0 is not a kernel and is not called from one in this file, so "
         "the mask is '__activemask()'; review the code's assumption about "
         "which lanes take part",
         DiagnosticIDs::Note)
        << Entry->Callee;
    return;
  }
  if (Entry->AddressTaken) {
    diag(Entry->Site->getBeginLoc(),
         "%0 is used here other than by a call, so not every call of it is "
         "known and the mask is '__activemask()'; review the code's "
         "assumption about which lanes take part",
         DiagnosticIDs::Note)
        << Entry->Callee;
    return;
  }
  diag(Entry->Site->getBeginLoc(),
       Entry->Div.EarlyExit
           ? "%0 is called here after some threads of the warp may have "
             "returned, so the mask is '__activemask()'; review the code's "
             "assumption about which lanes take part"
           : "%0 is called here under a thread-dependent condition, so the "
             "mask is '__activemask()'; review the code's assumption about "
             "which lanes take part",
       DiagnosticIDs::Note)
      << Entry->Callee;
  if (Entry->Div)
    diag(Entry->Div.Cause->getBeginLoc(),
         Entry->Div.EarlyExit ? "threads may return here"
                              : "thread-dependent condition",
         DiagnosticIDs::Note);
}

void LegacyWarpIntrinsicCheck::onEndOfTranslationUnit() {
  // A call in a template is matched once per instantiation; the first
  // instantiation whose mask would be __activemask() decides, since the
  // fix is shared.
  llvm::DenseMap<SourceLocation, size_t> First;
  std::vector<std::pair<const CallExpr *, const FunctionDecl *>> Chosen;
  for (const auto &[Call, FD] : Calls) {
    auto [It, Inserted] =
        First.try_emplace(SM->getFileLoc(Call->getBeginLoc()), Chosen.size());
    if (Inserted) {
      Chosen.emplace_back(Call, FD);
      continue;
    }
    ThreadDependence *TD = analysis(FD);
    bool Partial = !TD || TD->divergence(*Call) || notWholeWarp(FD);
    if (Partial)
      Chosen[It->second] = {Call, FD};
  }
  for (const auto &[Call, FD] : Chosen)
    report(Call, FD);
  Calls.clear();
  Uses.clear();
  Entry.clear();
  InProgress.clear();
  Analyses.clear();
}

} // namespace clang::tidy::cuda
