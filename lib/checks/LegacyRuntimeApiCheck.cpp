//===--- LegacyRuntimeApiCheck.cpp - cuda-lint ----------------------------===//

#include "LegacyRuntimeApiCheck.h"
#include "cudalint/analysis/DeviceCode.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/StringExtras.h"
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

/// Removed runtime functions that have no same-meaning replacement, and
/// what to use instead.
const llvm::StringMap<StringRef> &removedWithoutReplacement() {
  static const llvm::StringMap<StringRef> Map = {
      {"cudaConfigureCall",
       "launch the kernel with '<<<...>>>' or 'cudaLaunchKernel' instead"},
      {"cudaSetupArgument",
       "launch the kernel with '<<<...>>>' or 'cudaLaunchKernel' instead"},
      {"cudaLaunch",
       "launch the kernel with '<<<...>>>' or 'cudaLaunchKernel' instead"},
      {"cudaSetDoubleForDevice",
       "it converted double arguments for GPUs without double precision, "
       "which CUDA 13 does not support; remove the call"},
      {"cudaSetDoubleForHost",
       "it converted double arguments for GPUs without double precision, "
       "which CUDA 13 does not support; remove the call"},
      {"cudaGetTextureReference", "use a texture object instead"},
      {"cudaGetTextureAlignmentOffset", "use a texture object instead"},
      {"cudaBindTextureToMipmappedArray",
       "create a texture object over the mipmapped array instead"},
      {"cudaBindSurfaceToArray", "use a surface object instead"},
      {"cudaGetSurfaceReference", "use a surface object instead"},
      {"surf1Dread", "use a surface object instead"},
      {"surf1Dwrite", "use a surface object instead"},
      {"surf2Dread", "use a surface object instead"},
      {"surf2Dwrite", "use a surface object instead"},
  };
  return Map;
}

/// Fields CUDA 13.0 removed from cudaDeviceProp, and where the value is now
/// read.
const llvm::StringMap<StringRef> &removedDevicePropFields() {
  static const llvm::StringMap<StringRef> Map = {
      {"clockRate", "cudaDevAttrClockRate"},
      {"deviceOverlap", "cudaDevAttrGpuOverlap"},
      {"kernelExecTimeoutEnabled", "cudaDevAttrKernelExecTimeout"},
      {"computeMode", "cudaDevAttrComputeMode"},
      {"maxTexture1DLinear", ""},
      {"memoryClockRate", "cudaDevAttrMemoryClockRate"},
      {"singleToDoublePrecisionPerfRatio",
       "cudaDevAttrSingleToDoublePrecisionPerfRatio"},
      {"cooperativeMultiDeviceLaunch", ""},
  };
  return Map;
}

/// Declared by cuda-lint's legacy compatibility header (or, for a class
/// template specialization or a function template specialization, its
/// pattern is).
bool isLegacyAnnotated(const Decl *D) {
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(D))
    D = Spec->getSpecializedTemplate()->getTemplatedDecl();
  if (const auto *FD = dyn_cast<FunctionDecl>(D))
    if (const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern())
      D = Pattern;
  for (const Decl *R : D->redecls())
    for (const auto *A : R->specific_attrs<AnnotateAttr>())
      if (A->getAnnotation() == "cuda-lint-legacy")
        return true;
  return false;
}

AST_MATCHER(Decl, isCudaLintLegacy) { return isLegacyAnnotated(&Node); }

/// A field of the toolkit's own `struct cudaDeviceProp` (an older toolkit
/// still declares the fields CUDA 13 removed).
AST_MATCHER(FieldDecl, isCudaDevicePropField) {
  const RecordDecl *Parent = Node.getParent();
  return Parent->getDeclContext()->getRedeclContext()->isTranslationUnit() &&
         Parent->getName() == "cudaDeviceProp";
}

AST_MATCHER(RecordDecl, isTextureReference) {
  const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(&Node);
  // The CUDA (or cuda-lint's legacy) texture reference template, not a
  // program's own class called `texture`.
  return Spec && Spec->getName() == "texture" &&
         Spec->getDeclContext()->isTranslationUnit() &&
         (Spec->getSpecializedTemplate()
              ->getTemplatedDecl()
              ->hasAttr<CUDADeviceBuiltinTextureTypeAttr>() ||
          isLegacyAnnotated(Spec));
}

AST_MATCHER(RecordDecl, isSurfaceReference) {
  const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(&Node);
  return Spec && Spec->getName() == "surface" &&
         Spec->getDeclContext()->isTranslationUnit() &&
         (Spec->getSpecializedTemplate()
              ->getTemplatedDecl()
              ->hasAttr<CUDADeviceBuiltinSurfaceTypeAttr>() ||
          isLegacyAnnotated(Spec));
}

/// How a texture object replacing the reference of type \p T is read, by
/// the reference's dimensionality (`texture<T, dim, mode>`) and, for a
/// normalized-float read mode, the float type the fetch returns.
std::string textureObjectRead(QualType T, ASTContext &Ctx) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T->getAsCXXRecordDecl());
  std::string Elem = "T";
  int64_t Dim = 1, Mode = 0;
  if (Spec && Spec->getTemplateArgs().size() >= 1) {
    const TemplateArgumentList &Args = Spec->getTemplateArgs();
    QualType ET = Args[0].getAsType();
    Elem = ET.getAsString(Ctx.getPrintingPolicy());
    if (Args.size() >= 2 && Args[1].getKind() == TemplateArgument::Integral)
      Dim = Args[1].getAsIntegral().getExtValue();
    if (Args.size() >= 3 && Args[2].getKind() == TemplateArgument::Integral)
      Mode = Args[2].getAsIntegral().getExtValue();
    // cudaReadModeNormalizedFloat: 8- and 16-bit integers read as float.
    if (Mode == 1) {
      StringRef E = Elem;
      if (ET->isIntegerType()) {
        Elem = "float";
      } else {
        for (StringRef Prefix : {"uchar", "char", "ushort", "short"})
          if (E.starts_with(Prefix) && E.size() == Prefix.size() + 1 &&
              llvm::isDigit(E.back())) {
            Elem = ("float" + E.take_back(1)).str();
            break;
          }
      }
    }
  }
  std::string R = "'";
  switch (Dim) {
  case 0x02:
    return R + "tex2D<" + Elem + ">(obj, x, y)'";
  case 0x03:
    return R + "tex3D<" + Elem + ">(obj, x, y, z)'";
  case 0x0C:
    return R + "texCubemap<" + Elem + ">(obj, x, y, z)'";
  case 0xF1:
    return R + "tex1DLayered<" + Elem + ">(obj, x, layer)'";
  case 0xF2:
    return R + "tex2DLayered<" + Elem + ">(obj, x, y, layer)'";
  case 0xFC:
    return R + "texCubemapLayered<" + Elem + ">(obj, x, y, z, layer)'";
  default:
    return R + "tex1Dfetch<" + Elem + ">(obj, i)' (linear memory) or 'tex1D<" +
           Elem + ">(obj, x)' (a CUDA array)";
  }
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
  // Removed functions without a same-meaning replacement, and anything else
  // the legacy header declares: recognised by its annotation, or by name
  // where an old toolkit's own header declares it (at global scope).
  std::vector<StringRef> Removed;
  for (const auto &E : removedWithoutReplacement())
    // surf1Dread & co. still exist for surface objects: only the legacy
    // header's surface-reference forms (annotated) are findings.
    if (!E.getKey().starts_with("surf"))
      Removed.push_back(E.getKey());
  auto SurfType = hasUnqualifiedDesugaredType(
      recordType(hasDeclaration(cxxRecordDecl(isSurfaceReference()))));
  auto TexRefType = hasUnqualifiedDesugaredType(
      recordType(hasDeclaration(cxxRecordDecl(isTextureReference()))));
  Finder->addMatcher(
      callExpr(callee(functionDecl(
                   anyOf(isCudaLintLegacy(),
                         allOf(hasAnyName(Removed),
                               hasDeclContext(translationUnitDecl()))),
                   unless(hasAnyName(Names)))),
               unless(hasAnyArgument(hasType(TexRefType))),
               unless(isExpansionInSystemHeader()))
          .bind("removed"),
      this);
  // Fields CUDA 13 removed from cudaDeviceProp: declared again by the legacy
  // header (annotated), or still by an older toolkit's own struct.
  std::vector<StringRef> Fields;
  for (const auto &E : removedDevicePropFields())
    Fields.push_back(E.getKey());
  Finder->addMatcher(
      memberExpr(
          member(fieldDecl(hasAnyName(Fields),
                           anyOf(isCudaLintLegacy(), isCudaDevicePropField()))),
          unless(isExpansionInSystemHeader()))
          .bind("field"),
      this);
  Finder->addMatcher(varDecl(hasType(SurfType), unless(parmVarDecl()),
                             unless(isExpansionInSystemHeader()))
                         .bind("surfvar"),
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
  if (const auto *Call = Result.Nodes.getNodeAs<CallExpr>("removed")) {
    const FunctionDecl *FD = Call->getDirectCallee();
    StringRef Instead = removedWithoutReplacement().lookup(FD->getName());
    SourceLocation Loc = SM.getExpansionLoc(Call->getBeginLoc());
    diag(Loc, "'%0' is not declared by CUDA 13 (it was removed from the "
              "runtime API) and has no same-meaning replacement")
        << FD->getName();
    if (!Instead.empty())
      diag(Loc, "%0", DiagnosticIDs::Note) << Instead;
    return;
  }
  if (const auto *Member = Result.Nodes.getNodeAs<MemberExpr>("field")) {
    StringRef Name = Member->getMemberDecl()->getName();
    StringRef Attr = removedDevicePropFields().lookup(Name);
    SourceLocation Loc = SM.getExpansionLoc(Member->getMemberLoc());
    auto Diag = diag(Loc, "'cudaDeviceProp::%0' was removed in CUDA 13; %1")
                << Name;
    if (!Attr.empty())
      Diag << ("read it with 'cudaDeviceGetAttribute(&value, " + Attr +
               ", device)'")
                  .str();
    else if (Name == "maxTexture1DLinear")
      Diag << "use 'cudaDeviceGetTexture1DLinearMaxWidth' instead";
    else
      Diag << "multi-device cooperative launches were removed with it "
              "(use 'cooperativeLaunch' for single-device ones)";
    return;
  }
  if (const auto *Var = Result.Nodes.getNodeAs<VarDecl>("surfvar")) {
    diag(Var->getLocation(), "surface reference %0 is not supported by CUDA "
                             "13; use a surface object")
        << Var;
    diag(Var->getLocation(),
         "create a 'cudaSurfaceObject_t' with 'cudaCreateSurfaceObject', "
         "pass it to the kernel and access it with 'surf2Dread(&v, obj, x, "
         "y)' and 'surf2Dwrite(v, obj, x, y)'",
         DiagnosticIDs::Note);
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
         "it to the kernel and read it with %0",
         DiagnosticIDs::Note)
        << textureObjectRead(Var->getType(), *Result.Context);
    return;
  }
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("texcall");
  SourceLocation Loc = SM.getExpansionLoc(Call->getBeginLoc());
  diag(Loc, "%0 on a texture reference was removed in CUDA 12; use a texture "
            "object")
      << Call->getDirectCallee();
}

} // namespace clang::tidy::cuda
