//===--- MissingRestrictCheck.cpp - cuda-lint -----------------------------===//
//
// Kepler tuning guide 1.4.4.3: for data read through the read-only data
// cache, kernel pointer arguments "should be marked with both the const and
// __restrict__ qualifiers", or the loads written with __ldg().
//
// The check: matching, collecting the kernels and their launches, and the
// diagnostics. The fixes are built in MissingRestrictCheckFixes.cpp; what
// nvcc already infers in MissingRestrictCheckNcInference.cpp.
//
//===----------------------------------------------------------------------===//

#include "MissingRestrictCheck.h"
#include "MissingRestrictBenefit.h"
#include "MissingRestrictFixes.h"
#include "MissingRestrictNcInference.h"
#include "cudalint/analysis/DeviceCode.h"
#include "cudalint/analysis/LaunchAliasing.h"
#include "cudalint/analysis/ReadOnlyPointer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/TypeLoc.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

using namespace missing_restrict;

MissingRestrictCheck::MissingRestrictCheck(StringRef Name,
                                           ClangTidyContext *Context)
    : CudaCheck(Name, Context),
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
  // Every reference to a kernel: those that are not the callee of a call or
  // launch observe its type.
  Finder->addMatcher(
      declRefExpr(to(functionDecl(anyOf(matchers::isCudaKernel(),
                                        hasAttr(attr::CUDADevice)))),
                  unless(isExpansionInSystemHeader()))
          .bind("kernelRef"),
      this);
}

/// The loads of \p R and the calls that pass the pointer to a device
/// function that reads it (restrictBenefit takes such a call for a load).
static llvm::SmallVector<const Expr *, 8>
loadsAndCalleeReads(const ReadOnlyResult &R) {
  llvm::SmallVector<const Expr *, 8> Out(R.Loads.begin(), R.Loads.end());
  Out.append(R.CalleeReads.begin(), R.CalleeReads.end());
  return Out;
}

void MissingRestrictCheck::check(const MatchFinder::MatchResult &Result) {
  Ctx = Result.Context;
  if (const auto *FD = Result.Nodes.getNodeAs<FunctionDecl>("kernel"))
    Kernels.push_back(FD);
  if (const auto *Ref = Result.Nodes.getNodeAs<DeclRefExpr>("kernelRef")) {
    // A direct call or launch: `k(...)`, `k<<<...>>>(...)`, through the
    // function-to-pointer decay (and parentheses) of its callee.
    const Expr *Cur = Ref;
    while (true) {
      DynTypedNodeList Parents = Result.Context->getParents(*Cur);
      const auto *P = Parents.empty() ? nullptr : Parents[0].get<Expr>();
      if (const auto *Call = dyn_cast_or_null<CallExpr>(P)) {
        if (Call->getCallee() == Cur)
          return;
        break;
      }
      if (isa_and_nonnull<ParenExpr>(P) ||
          (isa_and_nonnull<ImplicitCastExpr>(P) &&
           cast<ImplicitCastExpr>(P)->getCastKind() ==
               CK_FunctionToPointerDecay)) {
        Cur = P;
        continue;
      }
      break;
    }
    const auto *FD = cast<FunctionDecl>(Ref->getDecl());
    UsedAsValue.try_emplace(kernelKey(FD), Ref->getBeginLoc());
  }
}

missing_restrict::Benefit
MissingRestrictCheck::benefitInEach(const ParamInfo &Info, ASTContext &Ctx) {
  missing_restrict::Benefit First;
  for (const auto &[FD, Loads] : Info.Instances) {
    missing_restrict::Benefit B =
        restrictBenefit(FD, FD->getParamDecl(Info.Index), Loads, Ctx);
    if (!B.NcOnly)
      return B;
    if (!First.NcOnly)
      First = std::move(B);
  }
  return First;
}

void MissingRestrictCheck::noteBenefit(const missing_restrict::Benefit &B) {
  if (!B.Load || !B.Store)
    return;
  const SourceManager &SM = Ctx->getSourceManager();
  unsigned StoreLine = SM.getExpansionLineNumber(B.Store->getExprLoc());
  bool IsCall = missing_restrict::isCalleeRead(B.Load);
  diag(B.Load->getExprLoc(),
       "%select{this load|this call, which loads it,}2 %select{repeats in "
       "every iteration of a loop that stores to global memory (line %1): "
       "only '__restrict__' lets nvcc keep its value in a register|comes "
       "after a global store (line %1) that may alias it: only "
       "'__restrict__' lets nvcc load first|reads again what was loaded "
       "before a global store (line %1) that may alias it: only "
       "'__restrict__' lets nvcc reuse the first load}0",
       DiagnosticIDs::Note)
      << static_cast<unsigned>(B.How) << StoreLine << IsCall;
}

SourceLocation MissingRestrictCheck::observedType(const FunctionDecl *Pattern,
                                                  bool &Declared) {
  Declared = false;
  auto It = UsedAsValue.find(Pattern->getCanonicalDecl());
  if (It != UsedAsValue.end())
    return It->second;
  const SourceManager &SM = Ctx->getSourceManager();
  const FunctionDecl *Def = Pattern->getDefinition();
  if (!Def)
    return SourceLocation();
  FileID DefFile = SM.getFileID(SM.getExpansionLoc(Def->getLocation()));
  for (const FunctionDecl *D : Pattern->redecls())
    if (D != Def &&
        SM.getFileID(SM.getExpansionLoc(D->getLocation())) != DefFile) {
      Declared = true;
      return D->getLocation();
    }
  return SourceLocation();
}

void MissingRestrictCheck::onEndOfTranslationUnit() {
  if (!Ctx)
    return;
  // Launches that pass pointers into one allocation to two parameters
  // (the shared launch aliasing analysis): no `__restrict__` for either.
  LaunchAliasing Aliasing(*Ctx);
  for (const LaunchAliasing::Pair &P : Aliasing.pairs()) {
    const FunctionDecl *Key = kernelKey(P.Kernel);
    Aliased.try_emplace({Key, P.First},
                        AliasInfo{P.Second, P.loc(), P.Wrapper, P.Member});
    Aliased.try_emplace({Key, P.Second},
                        AliasInfo{P.First, P.loc(), P.Wrapper, P.Member});
  }

  ReadOnlyPointerAnalysis Analysis(*Ctx);
  // Adds what one analysis \p R found of a parameter to \p Info.
  auto Merge = [](ParamInfo &Info, const ReadOnlyResult &R) {
    Info.ReadOnly &= R.ReadOnly;
    Info.PlainAccess |= R.PlainAccess;
    Info.ExplicitLoad |= R.ExplicitLoad;
    Info.PlainAccessInLoop |= R.PlainAccessInLoop;
    Info.PassedOn |= R.PassedOn;
    Info.ExplicitLoadInLoop |= R.ExplicitLoadInLoop;
    Info.NonConstLocals.append(R.NonConstLocals.begin(),
                               R.NonConstLocals.end());
    if (Info.ConstBlocker.empty())
      Info.ConstBlocker = R.ConstBlocker;
    Info.NonConstCallees.append(R.NonConstCallees.begin(),
                                R.NonConstCallees.end());
  };
  llvm::MapVector<std::pair<const FunctionDecl *, unsigned>, ParamInfo> Params;
  for (const FunctionDecl *FD : Kernels) {
    if (FD->isDependentContext())
      continue; // Judged in its instantiations.
    const FunctionDecl *Pattern = kernelPattern(FD);
    bool IsSpecialization = isExplicitSpecialization(FD);
    bool InTemplate = Pattern != FD;
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
      if (IsSpecialization)
        Info.Specializations.push_back(FD);
      else
        Info.PatternAnalysed = true;
      const ReadOnlyResult &R = Analysis.analyze(FD, P);
      Info.NcInferred &= storesOnlyThroughRestrict(FD);
      Info.NcBlocked &= R.NcBlocker != nullptr;
      if (!Info.NcBlocker)
        Info.NcBlocker = R.NcBlocker;
      Merge(Info, R);
      if (!InTemplate)
        Info.Loads.assign(R.Loads.begin(), R.Loads.end());
      if (!IsSpecialization)
        Info.Instances.push_back({FD, loadsAndCalleeReads(R)});
    }
  }
  for (auto &[Key, Info] : Params) {
    // Explicit specializations share the primary template's parameter
    // types: judge the template's own (dependent) body too when no
    // instantiation of it was analysed.
    if (!Info.PatternAnalysed && Info.ReadOnly) {
      const FunctionDecl *Pattern = Info.Pattern;
      const ReadOnlyResult &R =
          Analysis.analyze(Pattern, Pattern->getParamDecl(Info.Index));
      Merge(Info, R);
    }
    diagnose(Info, Analysis);
  }

  Kernels.clear();
  Aliased.clear();
  UsedAsValue.clear();
  Ctx = nullptr;
}

namespace {
/// Whether the load \p L (an lvalue read through the pointer) is the whole
/// right-hand side of an assignment to an element of a `__shared__` array.
bool isStagedIntoShared(const Expr *L, ASTContext &Ctx) {
  DynTypedNode N = DynTypedNode::create(*L);
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    DynTypedNodeList Parents = Ctx.getParents(N);
    if (Parents.empty())
      return false;
    const auto *P = Parents[0].get<Expr>();
    if (!P)
      return false;
    if (isa<ParenExpr>(P) ||
        (isa<ImplicitCastExpr>(P) &&
         cast<ImplicitCastExpr>(P)->getCastKind() == CK_LValueToRValue)) {
      N = Parents[0];
      continue;
    }
    const auto *BO = dyn_cast<BinaryOperator>(P);
    if (!BO || BO->getOpcode() != BO_Assign ||
        BO->getRHS()->IgnoreParenImpCasts() != L->IgnoreParens())
      return false;
    const Expr *Base = BO->getLHS()->IgnoreParenImpCasts();
    while (const auto *ASE = dyn_cast<ArraySubscriptExpr>(Base))
      Base = ASE->getBase()->IgnoreParenImpCasts();
    const auto *DRE = dyn_cast<DeclRefExpr>(Base);
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    return V && V->hasAttr<CUDASharedAttr>() && V->getType()->isArrayType();
  }
  return false;
}
} // namespace

void MissingRestrictCheck::noteAliased(const ParmVarDecl *PP,
                                       const FunctionDecl *Pattern,
                                       const AliasInfo &A) {
  // Pointers read from one member of objects that may be different
  // (`a.data`, `b.data`): they may or may not point into one allocation.
  if (const FieldDecl *Member = A.Member)
    diag(A.Launch,
         "'__restrict__' not added: %select{this launch|this call of "
         "'%3'}2 passes '%0' and '%1' pointers read from the same member "
         "'%4', which may point into one allocation",
         DiagnosticIDs::Note)
        << PP->getName() << Pattern->getParamDecl(A.Other)->getName()
        << (A.Wrapper != nullptr)
        << (A.Wrapper ? A.Wrapper->getName() : StringRef())
        << Member->getName();
  else if (const FunctionDecl *Wrapper = A.Wrapper)
    diag(A.Launch,
         "'__restrict__' not added: this call of '%2' passes pointers into "
         "the same allocation, which it launches the kernel with as '%0' "
         "and '%1'",
         DiagnosticIDs::Note)
        << PP->getName() << Pattern->getParamDecl(A.Other)->getName()
        << Wrapper->getName();
  else
    diag(A.Launch,
         "'__restrict__' not added: this launch passes pointers into the "
         "same allocation as '%0' and '%1'",
         DiagnosticIDs::Note)
        << PP->getName() << Pattern->getParamDecl(A.Other)->getName();
}

void MissingRestrictCheck::diagnose(const ParamInfo &Info,
                                    ReadOnlyPointerAnalysis &Analysis) {
  const SourceManager &SM = Ctx->getSourceManager();
  const LangOptions &LO = Ctx->getLangOpts();
  const FunctionDecl *Pattern = Info.Pattern;
  const ParmVarDecl *PP = Pattern->getParamDecl(Info.Index);
  QualType T = PP->getType();
  const auto *PT = T->getAs<PointerType>();
  // An unused parameter has no loads to speed up.
  if (!PT || !PP->getIdentifier() || !PP->isReferenced())
    return;
  QualType Pointee = PT->getPointeeType();
  bool HasConst = Pointee.isConstQualified();
  bool HasRestrict = T.isRestrictQualified();
  auto AliasIt = Aliased.find({Pattern->getCanonicalDecl(), Info.Index});
  bool IsAliased = AliasIt != Aliased.end();
  bool InTemplate = Info.InTemplate;

  // Read only by explicit load instructions (`__ldcs(p + i)`, an inline asm
  // `ld.global.cs`): the instruction and its cache policy are written out,
  // and `const __restrict__` changes nothing.
  // Also where the loads in loops are all explicit and the plain ones run
  // once per thread (`float first = p[0];` before a loop of
  // `__ldcs(p + i)`): one load per thread is not worth a change.
  if (Info.ReadOnly && Info.ExplicitLoad &&
      (!Info.PlainAccess ||
       (Info.ExplicitLoadInLoop && !Info.PlainAccessInLoop)))
    return;
  // Staged into shared memory: every load of the pointer is one element
  // stored straight into a `__shared__` array (`tile[ty][tx] = A[row * n +
  // k + tx];` of a tiled GEMM), each element loaded once per block and then
  // read from shared memory. ld.global.nc buys nothing for such loads on
  // sm_70 and later, where the read-only data cache is the L1 cache that
  // ld.global uses too (nvcc -ptx -arch=sm_90 changes ld.global to
  // ld.global.nc, nothing else).
  if (Info.ReadOnly && !Info.PassedOn && !Info.InTemplate &&
      !Info.Loads.empty() && llvm::all_of(Info.Loads, [&](const Expr *L) {
        return isStagedIntoShared(L, *Ctx);
      }))
    return;

  bool NeedConst = false, NeedRestrict = false;
  if (Info.ReadOnly) {
    // Already `__restrict__` and only read: nvcc proves the data read-only
    // and emits ld.global.nc without `const` (adding it changes no
    // instruction), so there is nothing for the read-only data cache here.
    if (HasRestrict)
      return;
    // Every store of the kernel goes through a `__restrict__` parameter:
    // nvcc proves this pointer read-only too, and its loads are already
    // ld.global.nc.
    if (Info.NcInferred && Info.PatternAnalysed)
      return;
    // Passed to a call that keeps nvcc from proving it read-only (a
    // recursive function it keeps as a call, a WMMA fragment load): its
    // loads stay ld.global, `const __restrict__` or not (the PTX is the
    // same). Only `__ldg` loads in the kernel's own body (UseLdg) would
    // change that.
    if (Info.NcBlocked && Info.NcBlocker && Info.PatternAnalysed &&
        !(UseLdg && !IsAliased && !InTemplate && !Info.Loads.empty()))
      return;
    NeedConst = !HasConst;
    NeedRestrict = !HasRestrict && !IsAliased;
    if (!NeedConst && !NeedRestrict)
      return;
  } else {
    if (!RestrictWritable || HasRestrict)
      return;
    // Aliased: warned, with a note on the launch, but not fixed.
    NeedRestrict = !IsAliased;
  }

  // `const` on the pointee changes the kernel's type; `__restrict__` on the
  // parameter itself does not (top-level qualifiers are not part of a
  // function's type). Where the type is observed, only the latter is added.
  bool DeclaredElsewhere = false;
  SourceLocation Observed;
  bool ConstKept = false;
  if (NeedConst && !(UseLdg && !IsAliased && !InTemplate)) {
    Observed = observedType(Pattern, DeclaredElsewhere);
    if (Observed.isValid()) {
      NeedConst = false;
      ConstKept = true;
    }
  }

  // The fix: the same qualifiers in every declaration of the kernel, and of
  // its explicit specializations, each only where that declaration lacks
  // them. Declarations of implicit instantiations share the template's
  // locations and are skipped by location.
  std::vector<FixItHint> Fixes;
  std::string WhyNot;
  llvm::SmallPtrSet<const void *, 8> Done;
  SmallVector<const FunctionDecl *, 8> Decls(Pattern->redecls());
  for (const FunctionDecl *S : Info.Specializations)
    Decls.append(S->redecls().begin(), S->redecls().end());
  for (const FunctionDecl *D : Decls) {
    if (Info.Index >= D->getNumParams())
      return;
    const ParmVarDecl *PD = D->getParamDecl(Info.Index);
    if (D->getLocation().isMacroID() || PD->getLocation().isMacroID()) {
      WhyNot = "the kernel is declared in a macro";
      break;
    }
    QualType DT = PD->getType();
    if (!paramFix(PD, NeedConst && !DT->getPointeeType().isConstQualified(),
                  NeedRestrict && !DT.isRestrictQualified(), *Ctx, Fixes, Done,
                  WhyNot))
      break;
  }

  // Explicit instantiations name the parameter types again: with `const`
  // added to the template, they must say it too.
  if (NeedConst && WhyNot.empty() && !(UseLdg && !IsAliased && !InTemplate))
    if (const FunctionTemplateDecl *FTD =
            Pattern->getDescribedFunctionTemplate())
      for (const FunctionDecl *S : FTD->specializations()) {
        TemplateSpecializationKind TSK = S->getTemplateSpecializationKind();
        if ((TSK != TSK_ExplicitInstantiationDeclaration &&
             TSK != TSK_ExplicitInstantiationDefinition) ||
            Info.Index >= S->getNumParams() ||
            S->getParamDecl(Info.Index)
                ->getType()
                ->getPointeeType()
                .isConstQualified())
          continue;
        std::optional<FixItHint> Fix = explicitInstantiationFix(
            S->getPointOfInstantiation(), Info.Index, SM, LO, WhyNot);
        if (!Fix)
          break;
        if (Done.insert(Fix->RemoveRange.getBegin().getPtrEncoding()).second)
          Fixes.push_back(*Fix);
      }

  // Local pointers that hold the parameter get `const` too, so that the
  // fixed kernel still compiles, and so do the parameters of the device
  // functions it is passed to, where that is safe.
  SmallVector<const ParmVarDecl *, 2> Constified;
  bool LocalsConstified = false;
  if (NeedConst && WhyNot.empty() &&
      !(UseLdg && !IsAliased && !Info.InTemplate)) {
    if (!Info.ConstBlocker.empty())
      WhyNot = Info.ConstBlocker;
    if (WhyNot.empty())
      constifyLocals(Info.NonConstLocals, Fixes, Done, WhyNot);
    LocalsConstified = WhyNot.empty();
    for (const ReadOnlyResult::Callee &C : Info.NonConstCallees) {
      if (!WhyNot.empty())
        break;
      if (!constifyCallee(Analysis, C.Definition, C.Index, Fixes, Done,
                          Constified))
        WhyNot = ("it is passed to '" + C.Definition->getName() +
                  "' as a non-const pointer; declare that parameter 'const' "
                  "first")
                     .str();
    }
  }

  missing_restrict::Benefit Gain;
  if (!Info.ReadOnly) {
    auto Diag = diag(PP->getLocation(),
                     "pointer parameter '%0' is written but not "
                     "'__restrict__'; the compiler must assume that it "
                     "aliases the kernel's other pointers")
                << PP->getName();
    if (WhyNot.empty() && NeedRestrict)
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
        if (!ldgSupports(Load->getType()) ||
            Load->getType().isVolatileQualified() ||
            Load->getBeginLoc().isMacroID() || Load->getEndLoc().isMacroID())
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
      if (Load->getType().isVolatileQualified())
        diag(Load->getBeginLoc(),
             "'__ldg' has no overload for volatile '%0', and a volatile load "
             "must not go through a cache; this load is left unchanged",
             DiagnosticIDs::Note)
            << Load->getType().getUnqualifiedType().getAsString(
                   Ctx->getPrintingPolicy());
      else if (!ldgSupports(Load->getType()))
        diag(Load->getBeginLoc(),
             "'__ldg' has no overload for '%0'; this load is left unchanged",
             DiagnosticIDs::Note)
            << Load->getType().getUnqualifiedType().getAsString(
                   Ctx->getPrintingPolicy());
  } else {
    QualType Want = Pointee;
    if (!HasConst)
      Want.addConst();
    // Say what the fix adds: no `__restrict__` where a launch aliases it.
    bool WithRestrict = HasRestrict || NeedRestrict;
    std::string Spelled;
    if (Want->isArrayType()) {
      // A parameter declared as an array (`const double c[][N]`) is a
      // pointer to an array: `const double (*__restrict__ c)[N]`.
      QualType Ptr = Ctx->getPointerType(Want);
      if (WithRestrict)
        Ptr.addRestrict();
      llvm::raw_string_ostream OS(Spelled);
      Ptr.print(OS, Ctx->getPrintingPolicy(), PP->getName());
      OS.flush();
      if (size_t At = Spelled.find("__restrict");
          At != std::string::npos &&
          Spelled.compare(At, 12, "__restrict__") != 0)
        Spelled.insert(At + 10, "__");
      else if (size_t At = Spelled.find("restrict ");
               At != std::string::npos && WithRestrict &&
               Spelled.find("__restrict__") == std::string::npos)
        Spelled.replace(At, 8, "__restrict__");
    } else {
      Spelled = Want.getAsString(Ctx->getPrintingPolicy()) +
                (WithRestrict ? " *__restrict__" : " *");
    }
    StringRef Message = "pointer parameter '%0' is only read; declare it "
                        "'%1'%select{ (not '__restrict__', which the read-only "
                        "data cache needs: it may alias another parameter)| so "
                        "that its loads can use the read-only data cache}2";
    // Worth little where `__restrict__` can only add `.nc` to the loads
    // (MissingRestrictBenefit.h): ranked low, with the reason.
    // Only `const`: no instruction changes (the third sealed audit's PTX).
    if (WithRestrict)
      Gain = benefitInEach(Info, *Ctx);
    else
      Gain.NcOnly = "'" + PP->getName().str() +
                    "' gets only 'const', which changes no instruction: nvcc "
                    "needs '__restrict__' to use the read-only data cache or "
                    "move its loads";
    const std::optional<std::string> &NcOnly = Gain.NcOnly;
    unsigned Cap = WithRestrict ? 30 : 15;
    auto Diag = (NcOnly ? diagCapped(PP->getLocation(), Message, Cap, *NcOnly)
                        : diag(PP->getLocation(), Message))
                << PP->getName() << Spelled << WithRestrict;
    if (WhyNot.empty())
      for (const FixItHint &F : Fixes)
        Diag << F;
  }
  noteBenefit(Gain);
  if (IsAliased)
    noteAliased(PP, Pattern, AliasIt->second);
  if (ConstKept) {
    if (WhyNot.empty() && !NeedRestrict)
      WhyNot = "'const' would change the kernel's type, which is observed "
               "elsewhere";
    diag(Observed,
         "%select{only '__restrict__' added: |}0'const' would change the type "
         "of kernel '%1', %select{which this use as a value (its address "
         "taken, stored or passed) depends on|declared here in another file, "
         "which other translation units may include}2",
         DiagnosticIDs::Note)
        << (!WhyNot.empty() || !NeedRestrict) << Pattern->getName()
        << DeclaredElsewhere;
  }
  // What the fix changes beyond the parameter, so that a reader of the
  // finding sees why the fixed kernel still compiles.
  if (WhyNot.empty() && LocalsConstified)
    for (const VarDecl *L : Info.NonConstLocals)
      diag(L->getLocation(),
           "'const' added to local pointer '%0' too, which holds '%1'",
           DiagnosticIDs::Note)
          << L->getName() << PP->getName();
  if (WhyNot.empty())
    for (const ParmVarDecl *CP : Constified)
      diag(CP->getLocation(),
           "'const' added to parameter '%0' of '%1' too, which only reads it",
           DiagnosticIDs::Note)
          << CP->getName()
          << cast<FunctionDecl>(CP->getDeclContext())->getName();
  if (!WhyNot.empty())
    diag(PP->getLocation(), "no automatic fix: %0", DiagnosticIDs::Note)
        << WhyNot;
}

} // namespace clang::tidy::cuda
