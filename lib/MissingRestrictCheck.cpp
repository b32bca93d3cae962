//===--- MissingRestrictCheck.cpp - cuda-lint -----------------------------===//
//
// Kepler tuning guide 1.4.4.3: for data read through the read-only data
// cache, kernel pointer arguments "should be marked with both the const and
// __restrict__ qualifiers", or the loads written with __ldg().
//
//===----------------------------------------------------------------------===//

#include "MissingRestrictCheck.h"
#include "cudalint/DeviceCode.h"
#include "cudalint/ReadOnlyPointer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/TypeLoc.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

namespace {

const FunctionDecl *kernelKey(const FunctionDecl *FD) {
  if (const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern())
    FD = Pattern;
  return FD->getCanonicalDecl();
}

/// Whether `__ldg` has an overload for loads of type \p T.
bool ldgSupports(QualType T) {
  T = T.getCanonicalType().getUnqualifiedType();
  if (const auto *BT = T->getAs<BuiltinType>()) {
    switch (BT->getKind()) {
    case BuiltinType::Char_S:
    case BuiltinType::Char_U:
    case BuiltinType::SChar:
    case BuiltinType::UChar:
    case BuiltinType::Short:
    case BuiltinType::UShort:
    case BuiltinType::Int:
    case BuiltinType::UInt:
    case BuiltinType::Long:
    case BuiltinType::ULong:
    case BuiltinType::LongLong:
    case BuiltinType::ULongLong:
    case BuiltinType::Float:
    case BuiltinType::Double:
      return true;
    default:
      return false;
    }
  }
  const auto *RD = T->getAsRecordDecl();
  if (!RD || !RD->getIdentifier())
    return false;
  static const char *const Vectors[] = {
      "char2",         "char4",   "uchar2",    "uchar4",     "short2",
      "short4",        "ushort2", "ushort4",   "int2",       "int4",
      "uint2",         "uint4",   "longlong2", "ulonglong2", "float2",
      "float4",        "double2", "__half",    "__half2",    "__nv_bfloat16",
      "__nv_bfloat162"};
  return llvm::is_contained(Vectors, RD->getName());
}

TypeLoc stripQualifiers(TypeLoc TL) {
  while (true) {
    if (auto Q = TL.getAs<QualifiedTypeLoc>())
      TL = Q.getUnqualifiedLoc();
    else if (auto A = TL.getAs<AttributedTypeLoc>())
      TL = A.getModifiedLoc();
    else
      return TL;
  }
}

} // namespace

MissingRestrictCheck::MissingRestrictCheck(StringRef Name,
                                           ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      RestrictWritable(Options.get("RestrictWritable", false)),
      UseLdg(Options.get("UseLdg", false)) {}

void MissingRestrictCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "RestrictWritable", RestrictWritable);
  Options.store(Opts, "UseLdg", UseLdg);
}

void MissingRestrictCheck::registerMatchers(MatchFinder *Finder) {
  limitParentMapToUserCode(Finder);
  Finder->addMatcher(functionDecl(isDefinition(), matchers::isCudaKernel(),
                                  unless(isExpansionInSystemHeader()))
                         .bind("kernel"),
                     this);
  Finder->addMatcher(cudaKernelCallExpr().bind("launch"), this);
}

void MissingRestrictCheck::check(const MatchFinder::MatchResult &Result) {
  Ctx = Result.Context;
  if (const auto *FD = Result.Nodes.getNodeAs<FunctionDecl>("kernel"))
    Kernels.push_back(FD);
  if (const auto *Launch = Result.Nodes.getNodeAs<CallExpr>("launch"))
    Launches.push_back(Launch);
}

void MissingRestrictCheck::onEndOfTranslationUnit() {
  if (!Ctx)
    return;
  // Launches that pass pointers into one allocation to two parameters.
  for (const CallExpr *Launch : Launches) {
    const FunctionDecl *Callee = Launch->getDirectCallee();
    if (!Callee)
      continue;
    const FunctionDecl *Key = kernelKey(Callee);
    unsigned N = std::min(Launch->getNumArgs(), Callee->getNumParams());
    for (unsigned I = 0; I < N; ++I) {
      const Expr *A = Launch->getArg(I);
      if (!A->getType()->isPointerType())
        continue;
      const ValueDecl *RootA = pointerRoot(A);
      if (!RootA)
        continue;
      for (unsigned J = I + 1; J < N; ++J) {
        const Expr *B = Launch->getArg(J);
        if (!B->getType()->isPointerType() || pointerRoot(B) != RootA)
          continue;
        SourceLocation Loc = Launch->getBeginLoc();
        Aliased.try_emplace({Key, I}, AliasInfo{J, Loc});
        Aliased.try_emplace({Key, J}, AliasInfo{I, Loc});
      }
    }
  }

  ReadOnlyPointerAnalysis Analysis(*Ctx);
  llvm::MapVector<std::pair<const FunctionDecl *, unsigned>, ParamInfo> Params;
  for (const FunctionDecl *FD : Kernels) {
    if (FD->isDependentContext())
      continue; // Judged in its instantiations.
    const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern();
    bool InTemplate = Pattern != nullptr;
    if (!Pattern)
      Pattern = FD;
    if (Pattern->getNumParams() != FD->getNumParams())
      continue;
    for (unsigned I = 0, N = FD->getNumParams(); I != N; ++I) {
      const ParmVarDecl *P = FD->getParamDecl(I);
      const auto *PT = P->getType()->getAs<PointerType>();
      if (!PT || PT->getPointeeType()->isPointerType() ||
          PT->getPointeeType()->isFunctionType())
        continue;
      ParamInfo &Info = Params[{Pattern, I}];
      Info.Pattern = Pattern;
      Info.Index = I;
      Info.InTemplate |= InTemplate;
      const ReadOnlyResult &R = Analysis.analyze(FD, P);
      Info.ReadOnly &= R.ReadOnly;
      if (!InTemplate)
        Info.Loads.assign(R.Loads.begin(), R.Loads.end());
      Info.NonConstLocals.append(R.NonConstLocals.begin(),
                                 R.NonConstLocals.end());
      if (Info.ConstBlocker.empty())
        Info.ConstBlocker = R.ConstBlocker;
    }
  }
  for (const auto &[Key, Info] : Params)
    diagnose(Info);

  Kernels.clear();
  Launches.clear();
  Aliased.clear();
  Ctx = nullptr;
}

void MissingRestrictCheck::diagnose(const ParamInfo &Info) {
  const SourceManager &SM = Ctx->getSourceManager();
  const LangOptions &LO = Ctx->getLangOpts();
  const FunctionDecl *Pattern = Info.Pattern;
  const ParmVarDecl *PP = Pattern->getParamDecl(Info.Index);
  QualType T = PP->getType();
  const auto *PT = T->getAs<PointerType>();
  if (!PT || !PP->getIdentifier())
    return;
  QualType Pointee = PT->getPointeeType();
  bool HasConst = Pointee.isConstQualified();
  bool HasRestrict = T.isRestrictQualified();
  auto AliasIt = Aliased.find({Pattern->getCanonicalDecl(), Info.Index});
  bool IsAliased = AliasIt != Aliased.end();

  bool NeedConst = false, NeedRestrict = false;
  if (Info.ReadOnly) {
    NeedConst = !HasConst;
    NeedRestrict = !HasRestrict && !IsAliased;
    if (!NeedConst && !NeedRestrict)
      return;
  } else {
    if (!RestrictWritable || HasRestrict || IsAliased)
      return;
    NeedRestrict = true;
  }

  // The fix: the same qualifiers in every declaration of the kernel.
  std::vector<FixItHint> Fixes;
  StringRef WhyNot;
  for (const FunctionDecl *D : Pattern->redecls()) {
    if (Info.Index >= D->getNumParams())
      return;
    const ParmVarDecl *PD = D->getParamDecl(Info.Index);
    const TypeSourceInfo *TSI = PD->getTypeSourceInfo();
    auto PTL = TSI ? stripQualifiers(TSI->getTypeLoc()).getAs<PointerTypeLoc>()
                   : PointerTypeLoc();
    if (!PTL) {
      WhyNot = "the parameter's type is spelled through a typedef or alias";
      break;
    }
    if (D->getLocation().isMacroID() || PD->getLocation().isMacroID() ||
        PTL.getBeginLoc().isMacroID()) {
      WhyNot = "the kernel is declared in a macro";
      break;
    }
    if (NeedConst)
      Fixes.push_back(FixItHint::CreateInsertion(
          PTL.getPointeeLoc().getBeginLoc(), "const "));
    if (NeedRestrict) {
      if (PD->getIdentifier())
        Fixes.push_back(
            FixItHint::CreateInsertion(PD->getLocation(), "__restrict__ "));
      else
        Fixes.push_back(FixItHint::CreateInsertion(
            Lexer::getLocForEndOfToken(PTL.getStarLoc(), 0, SM, LO),
            " __restrict__"));
    }
  }

  // Local pointers that hold the parameter get `const` too, so that the
  // fixed kernel still compiles.
  if (NeedConst && WhyNot.empty() &&
      !(UseLdg && !IsAliased && !Info.InTemplate)) {
    if (!Info.ConstBlocker.empty())
      WhyNot = Info.ConstBlocker;
    llvm::SmallPtrSet<const void *, 8> Done;
    for (const VarDecl *V : Info.NonConstLocals) {
      const TypeSourceInfo *TSI = V->getTypeSourceInfo();
      if (!TSI || !WhyNot.empty())
        break;
      auto PTL = stripQualifiers(TSI->getTypeLoc()).getAs<PointerTypeLoc>();
      if (!PTL) {
        if (!stripQualifiers(TSI->getTypeLoc()).getAs<AutoTypeLoc>())
          WhyNot = "a local copy of the pointer has a type spelled through a "
                   "typedef or alias";
        continue;
      }
      TypeLoc PointeeTL = stripQualifiers(PTL.getPointeeLoc());
      if (PointeeTL.getAs<AutoTypeLoc>())
        continue; // `auto *q = p;` deduces the const.
      SourceLocation Loc = PTL.getPointeeLoc().getBeginLoc();
      if (Loc.isMacroID()) {
        WhyNot = "a local copy of the pointer is declared in a macro";
        break;
      }
      if (Done.insert(Loc.getPtrEncoding()).second)
        Fixes.push_back(FixItHint::CreateInsertion(Loc, "const "));
    }
  }

  if (!Info.ReadOnly) {
    auto Diag = diag(PP->getLocation(),
                     "pointer parameter '%0' is written but not "
                     "'__restrict__'; the compiler must assume that it "
                     "aliases the kernel's other pointers")
                << PP->getName();
    if (WhyNot.empty())
      for (const FixItHint &F : Fixes)
        Diag << F;
  } else if (UseLdg && !IsAliased && !Info.InTemplate) {
    // Rewrite the loads instead of the declaration.
    {
      auto Diag = diag(PP->getLocation(),
                       "pointer parameter '%0' is only read; load it with "
                       "'__ldg()' so that its loads use the read-only data "
                       "cache")
                  << PP->getName();
      for (const Expr *Load : Info.Loads) {
        if (!ldgSupports(Load->getType()) || Load->getBeginLoc().isMacroID() ||
            Load->getEndLoc().isMacroID())
          continue;
        SourceLocation End =
            Lexer::getLocForEndOfToken(Load->getEndLoc(), 0, SM, LO);
        if (const auto *UO = dyn_cast<UnaryOperator>(Load)) {
          Diag << FixItHint::CreateReplacement(
                      CharSourceRange::getTokenRange(UO->getOperatorLoc()),
                      "__ldg(")
               << FixItHint::CreateInsertion(End, ")");
        } else {
          Diag << FixItHint::CreateInsertion(Load->getBeginLoc(), "__ldg(&")
               << FixItHint::CreateInsertion(End, ")");
        }
      }
    }
    for (const Expr *Load : Info.Loads)
      if (!ldgSupports(Load->getType()))
        diag(Load->getBeginLoc(),
             "'__ldg' has no overload for '%0'; this load is left unchanged",
             DiagnosticIDs::Note)
            << Load->getType().getUnqualifiedType().getAsString();
  } else {
    QualType Want = Pointee;
    Want.addConst();
    std::string Spelled =
        Want.getAsString(Ctx->getPrintingPolicy()) + " *__restrict__";
    auto Diag = diag(PP->getLocation(),
                     "pointer parameter '%0' is only read; declare it '%1' so "
                     "that its loads can use the read-only data cache")
                << PP->getName() << Spelled;
    if (WhyNot.empty())
      for (const FixItHint &F : Fixes)
        Diag << F;
  }
  if (IsAliased && Info.ReadOnly)
    diag(AliasIt->second.Launch,
         "'__restrict__' not added: this launch passes pointers into the same "
         "allocation as '%0' and '%1'",
         DiagnosticIDs::Note)
        << PP->getName()
        << Pattern->getParamDecl(AliasIt->second.Other)->getName();
  if (!WhyNot.empty())
    diag(PP->getLocation(), "no automatic fix: %0", DiagnosticIDs::Note)
        << WhyNot;
}

} // namespace clang::tidy::cuda
