//===--- LegacyRuntimeApiCheck.cpp - cuda-lint ----------------------------===//

#include "LegacyRuntimeApiCheck.h"
#include "cudalint/DeviceCode.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/StringMap.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

namespace {

/// Removed runtime functions and the replacement with the same meaning.
const llvm::StringMap<StringRef> &replacements() {
  static const llvm::StringMap<StringRef> Map = {
      {"cudaThreadSynchronize", "cudaDeviceSynchronize"},
      {"cudaThreadExit", "cudaDeviceReset"},
      {"cudaThreadSetLimit", "cudaDeviceSetLimit"},
      {"cudaThreadGetLimit", "cudaDeviceGetLimit"},
      {"cudaThreadSetCacheConfig", "cudaDeviceSetCacheConfig"},
      {"cudaThreadGetCacheConfig", "cudaDeviceGetCacheConfig"},
  };
  return Map;
}

AST_MATCHER(RecordDecl, isTextureReference) {
  const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(&Node);
  // The CUDA (or cuda-lint's legacy) texture reference template, not a
  // program's own class called `texture`.
  return Spec && Spec->getName() == "texture" &&
         Spec->getDeclContext()->isTranslationUnit() &&
         Spec->getSpecializedTemplate()
             ->getTemplatedDecl()
             ->hasAttr<CUDADeviceBuiltinTextureTypeAttr>();
}

} // namespace

void LegacyRuntimeApiCheck::registerMatchers(MatchFinder *Finder) {
  limitParentMapToUserCode(Finder);
  std::vector<StringRef> Names;
  for (const auto &E : replacements())
    Names.push_back(E.getKey());
  Finder->addMatcher(callExpr(callee(functionDecl(hasAnyName(Names))),
                              unless(isExpansionInSystemHeader()))
                         .bind("call"),
                     this);
  auto TexType = hasUnqualifiedDesugaredType(
      recordType(hasDeclaration(cxxRecordDecl(isTextureReference()))));
  Finder->addMatcher(
      varDecl(hasType(TexType), unless(isExpansionInSystemHeader()))
          .bind("texvar"),
      this);
  Finder->addMatcher(
      callExpr(callee(functionDecl(
                   hasAnyName("tex1Dfetch", "tex1D", "tex2D", "tex3D",
                              "cudaBindTexture", "cudaBindTexture2D",
                              "cudaBindTextureToArray", "cudaUnbindTexture"))),
               hasAnyArgument(hasType(TexType)),
               unless(isExpansionInSystemHeader()))
          .bind("texcall"),
      this);
}

void LegacyRuntimeApiCheck::check(const MatchFinder::MatchResult &Result) {
  const SourceManager &SM = *Result.SourceManager;
  if (const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call")) {
    StringRef Name = Call->getDirectCallee()->getName();
    StringRef Replacement = replacements().lookup(Name);
    SourceLocation NameLoc = Call->getCallee()->IgnoreImplicit()->getBeginLoc();
    // A call written as a macro argument is rewritten where it is written.
    if (NameLoc.isMacroID() && SM.isMacroArgExpansion(NameLoc))
      NameLoc = SM.getSpellingLoc(NameLoc);
    auto Diag = diag(NameLoc, "%0 was deprecated in CUDA 4.0 and is no "
                              "longer declared by CUDA 13; use '%1', which "
                              "has the same meaning")
                << Call->getDirectCallee() << Replacement;
    if (NameLoc.isFileID())
      Diag << FixItHint::CreateReplacement(
          CharSourceRange::getTokenRange(NameLoc, NameLoc), Replacement);
    return;
  }
  if (const auto *Var = Result.Nodes.getNodeAs<VarDecl>("texvar")) {
    if (isa<ParmVarDecl>(Var))
      return;
    diag(Var->getLocation(),
         "texture reference %0 was removed in CUDA 12; use a texture object")
        << Var;
    diag(Var->getLocation(),
         "create a 'cudaTextureObject_t' with 'cudaCreateTextureObject', pass "
         "it to the kernel and read it with 'tex1Dfetch<T>(obj, i)'",
         DiagnosticIDs::Note);
    return;
  }
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("texcall");
  SourceLocation Loc = SM.getExpansionLoc(Call->getBeginLoc());
  diag(Loc, "%0 on a texture reference was removed in CUDA 12; use a texture "
            "object")
      << Call->getDirectCallee();
}

} // namespace clang::tidy::cuda
