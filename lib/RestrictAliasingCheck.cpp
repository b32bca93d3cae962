//===--- RestrictAliasingCheck.cpp - cuda-lint ----------------------------===//
//
// Kepler tuning guide 1.4.4 (read-only data cache): "the data must be
// guaranteed read-only for the duration of the kernel, as the read-only data
// cache is incoherent with respect to writes"; `const __restrict__` is the
// programmer's promise that it is. A launch that passes the same buffer to a
// `__restrict__` parameter and to a parameter the kernel writes through
// breaks that promise.
//
//===----------------------------------------------------------------------===//

#include "RestrictAliasingCheck.h"
#include "cudalint/DeviceCode.h"
#include "cudalint/LaunchAliasing.h"
#include "cudalint/ReadOnlyPointer.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

namespace {

/// Whether the analysis found a store through the pointer (not only an
/// escape it cannot follow): a write, an atomic, a copy destination, an asm
/// output, here or in a device function it is passed to.
bool definitelyWritten(const ReadOnlyResult &R) {
  if (R.ReadOnly)
    return false;
  StringRef Reason = R.Reason;
  while (Reason.consume_front("passed to '")) {
    size_t End = Reason.find("', where it is ");
    if (End == StringRef::npos)
      return false;
    Reason = Reason.drop_front(End + strlen("', where it is "));
  }
  return Reason.starts_with("written") || Reason.starts_with("incremented") ||
         Reason.starts_with("passed to atomic") ||
         Reason.starts_with("the destination of") ||
         Reason.starts_with("an inline asm output");
}

} // namespace

void RestrictAliasingCheck::registerMatchers(MatchFinder *Finder) {
  limitParentMapToUserCode(Finder);
  // The analysis runs once per translation unit, when it has a launch.
  Finder->addMatcher(
      cudaKernelCallExpr(unless(isExpansionInSystemHeader())).bind("launch"),
      this);
}

void RestrictAliasingCheck::check(const MatchFinder::MatchResult &Result) {
  Ctx = Result.Context;
}

void RestrictAliasingCheck::onEndOfTranslationUnit() {
  if (!Ctx)
    return;
  ASTContext &C = *Ctx;
  Ctx = nullptr;
  LaunchAliasing Aliasing(C);
  ReadOnlyPointerAnalysis ReadOnly(C);
  llvm::DenseSet<std::pair<SourceLocation, unsigned>> Reported;
  const SourceManager &SM = C.getSourceManager();
  for (const LaunchAliasing::Pair &P : Aliasing.pairs()) {
    if (!P.SameValue)
      continue;
    const FunctionDecl *Kernel = P.Kernel->getDefinition();
    if (!Kernel || Kernel->isDependentContext() ||
        Kernel->getNumParams() <= P.Second)
      continue;
    const ParmVarDecl *A = Kernel->getParamDecl(P.First);
    const ParmVarDecl *B = Kernel->getParamDecl(P.Second);
    if (!A->getType()->isPointerType() || !B->getType()->isPointerType())
      continue;
    bool RestrictA = A->getType().isRestrictQualified();
    bool RestrictB = B->getType().isRestrictQualified();
    if (!RestrictA && !RestrictB)
      continue;
    const ReadOnlyResult &RA = ReadOnly.analyze(Kernel, A);
    bool WrittenA = definitelyWritten(RA);
    SourceLocation WhereA = RA.Where;
    const ReadOnlyResult &RB = ReadOnly.analyze(Kernel, B);
    bool WrittenB = definitelyWritten(RB);
    SourceLocation WhereB = RB.Where;
    if (!WrittenA && !WrittenB)
      continue;
    SourceLocation Loc = SM.getExpansionLoc(P.loc());
    if (SM.isInSystemHeader(Loc) ||
        !Reported.insert({Loc, P.First * 1024 + P.Second}).second)
      continue;
    diag(Loc, "%select{launch|call}0 passes the same pointer to '%1' and "
              "'%2' of kernel '%3', %select{one|both}4 '__restrict__' and "
              "%select{one|both}5 written through: undefined behaviour, and "
              "loads through the read-only data cache may return stale "
              "data")
        << (P.WrapperCall != nullptr) << A->getName() << B->getName()
        << Kernel->getName() << (RestrictA && RestrictB)
        << (WrittenA && WrittenB);
    if (P.Wrapper)
      diag(SM.getExpansionLoc(P.Launch->getBeginLoc()),
           "'%0' launches the kernel with its parameters here",
           DiagnosticIDs::Note)
          << P.Wrapper->getName();
    auto Note = [&](const ParmVarDecl *Param, bool Restrict, bool Written,
                    SourceLocation Where) {
      diag(Param->getLocation(),
           "'%0' %select{is declared here|is '__restrict__'|is written "
           "through|is '__restrict__' and written through}1",
           DiagnosticIDs::Note)
          << Param->getName() << (unsigned(Restrict) + 2 * unsigned(Written));
      if (Written && Where.isValid())
        diag(Where, "'%0' is written here", DiagnosticIDs::Note)
            << Param->getName();
    };
    Note(A, RestrictA, WrittenA, WhereA);
    Note(B, RestrictB, WrittenB, WhereB);
  }
}

} // namespace clang::tidy::cuda
