//===--- LaunchFrequency.cpp - cuda-lint ----------------------------------===//
//
// KernelLaunches::frequencyOf: how often the host runs a kernel, a host
// function or a device function, from the launches and calls of one
// translation unit (for the impact estimate, Impact.h).
//
//===----------------------------------------------------------------------===//

#include "cudalint/analysis/DeviceCode.h"
#include "cudalint/analysis/KernelLaunches.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"

namespace clang::tidy::cuda {

namespace {

/// The declaration a site or a question is filed under: a template's
/// pattern for its specialisations (a finding is reported in the pattern).
const FunctionDecl *key(const FunctionDecl *F) {
  if (!F)
    return nullptr;
  if (const FunctionDecl *P = F->getTemplateInstantiationPattern())
    F = P;
  return F->getCanonicalDecl();
}

/// Host code: a call in a loop of it runs the callee many times per
/// program run. (A loop of a kernel or device function runs per thread;
/// it says nothing of how often the host launches the kernel.)
bool isHostCode(const FunctionDecl *F) {
  return F && !F->hasAttr<CUDAGlobalAttr>() &&
         (!F->hasAttr<CUDADeviceAttr>() || F->hasAttr<CUDAHostAttr>());
}

/// Whether another file may launch or call \p F: a kernel declared outside
/// the main file or `extern "C"`; a host or device function likewise, and
/// any externally visible one of a file that is not a program.
bool visibleElsewhere(const FunctionDecl *F, bool HasMain) {
  if (!F->isExternallyVisible())
    return false;
  if (F->isExternC())
    return true;
  const SourceManager &SM = F->getASTContext().getSourceManager();
  for (const FunctionDecl *R : F->redecls())
    if (!SM.isInMainFile(SM.getExpansionLoc(R->getLocation())))
      return true;
  return !HasMain && !F->hasAttr<CUDAGlobalAttr>();
}

} // namespace

void KernelLaunches::recordSites(
    llvm::ArrayRef<CallSite> Calls,
    const llvm::DenseSet<const FunctionDecl *> &Taken) {
  for (const CallSite &C : Calls) {
    bool InLoop = C.InLoop && isHostCode(C.Caller);
    Sites[key(C.Callee)].push_back({key(C.Caller), InLoop});
    if (C.Launch) {
      AnyLaunch = true;
      AnyLoopLaunch |= InLoop;
    }
  }
  for (const FunctionDecl *F : Taken)
    AddressTaken.insert(key(F));
}

KernelLaunches::Frequency
KernelLaunches::frequencyOf(const FunctionDecl *F) const {
  return frequencyOf(F, 0);
}

KernelLaunches::Frequency KernelLaunches::frequencyOf(const FunctionDecl *F,
                                                      unsigned Depth) const {
  F = key(F);
  if (!F || Depth > 8)
    return Frequency::Unknown;
  if (F->isMain())
    return Frequency::Once;
  if (auto It = FrequencyCache.find(F); It != FrequencyCache.end())
    return It->second;
  // A call cycle (recursion) is not followed round.
  FrequencyCache[F] = Frequency::Unknown;
  Frequency Result = Frequency::Unknown;
  const auto *M = dyn_cast<CXXMethodDecl>(F);
  bool Opaque =
      AddressTaken.count(F) ||
      (M && (M->isVirtual() || isa<CXXConstructorDecl>(M) ||
             isa<CXXDestructorDecl>(M) || M->getParent()->isLambda()));
  auto It = Sites.find(F);
  if (Opaque) {
    Result = Frequency::Unknown;
  } else if (It == Sites.end() || It->second.empty()) {
    // "Never" only of a program: a file without `main` (a library, a test)
    // may have its kernels launched by code it does not show.
    Result = HasMain && !visibleElsewhere(F, HasMain) ? Frequency::Never
                                                      : Frequency::Unknown;
  } else {
    Result = Frequency::Never;
    for (const Site &S : It->second) {
      Frequency C =
          S.Caller ? frequencyOf(S.Caller, Depth + 1) : Frequency::Unknown;
      if (C == Frequency::Never)
        continue;
      if (S.InLoop)
        C = Frequency::Loop;
      Result = std::max(Result, C);
    }
  }
  FrequencyCache[F] = Result;
  return Result;
}

} // namespace clang::tidy::cuda
