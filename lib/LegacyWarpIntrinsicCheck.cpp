//===--- LegacyWarpIntrinsicCheck.cpp - cuda-lint -------------------------===//

#include "LegacyWarpIntrinsicCheck.h"
#include "cudalint/DeviceCode.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

void LegacyWarpIntrinsicCheck::registerMatchers(MatchFinder *Finder) {
  limitParentMapToUserCode(Finder);
  Finder->addMatcher(callExpr(callee(functionDecl(hasAnyName(
                                  "__shfl", "__shfl_up", "__shfl_down",
                                  "__shfl_xor", "__any", "__all", "__ballot"))),
                              unless(isExpansionInSystemHeader()))
                         .bind("call"),
                     this);
}

void LegacyWarpIntrinsicCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = *Result.SourceManager;
  const FunctionDecl *FD = enclosingFunction(Ctx, *Call);
  if (!FD || !isDeviceFunction(FD) || Call->getNumArgs() == 0)
    return;
  StringRef Name = Call->getDirectCallee()->getName();

  std::unique_ptr<ThreadDependence> &TD = Analyses[FD];
  if (!TD && FD->hasBody())
    TD = std::make_unique<ThreadDependence>(*FD, Ctx,
                                            ThreadDependence::Scope::Warp);
  ThreadDependence::Divergence Div;
  if (TD)
    Div = TD->divergence(*Call);
  StringRef Mask = Div ? "__activemask()" : "0xffffffff";

  // The callee name and the first argument must be written in this file
  // (not produced by a macro) to be rewritten.
  SourceLocation NameLoc = Call->getCallee()->IgnoreImplicit()->getBeginLoc();
  SourceLocation ArgLoc = Call->getArg(0)->getBeginLoc();
  // A call written as a macro argument is rewritten where it is written.
  if (NameLoc.isMacroID() && SM.isMacroArgExpansion(NameLoc) &&
      ArgLoc.isMacroID() && SM.isMacroArgExpansion(ArgLoc)) {
    NameLoc = SM.getSpellingLoc(NameLoc);
    ArgLoc = SM.getSpellingLoc(ArgLoc);
  }
  {
    auto Diag = diag(Call->getBeginLoc(),
                     "%0 has no mask and is not supported on sm_70 and newer "
                     "GPUs; use '%0_sync'")
                << Name;
    if (NameLoc.isFileID() && ArgLoc.isFileID() &&
        SM.getFileID(NameLoc) == SM.getFileID(ArgLoc)) {
      Diag << FixItHint::CreateReplacement(
                  CharSourceRange::getTokenRange(NameLoc, NameLoc),
                  (Name + "_sync").str())
           << FixItHint::CreateInsertion(ArgLoc, (Mask + ", ").str());
    }
  }
  if (Div)
    diag(Div.Cause->getBeginLoc(),
         Div.EarlyExit
             ? "some threads of the warp may have returned here, so the mask "
               "is '__activemask()'; review the code's assumption about "
               "which lanes take part"
             : "the call is under this thread-dependent condition, so the "
               "mask is '__activemask()'; review the code's assumption about "
               "which lanes take part",
         DiagnosticIDs::Note);
}

} // namespace clang::tidy::cuda
