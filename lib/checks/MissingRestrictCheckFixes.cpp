//===--- MissingRestrictCheckFixes.cpp - cuda-lint ------------------------===//
//
// The fixes of cuda-missing-restrict (MissingRestrictFixes.h): the kernel
// declaration a fix starts from, `const` and `__restrict__` on a parameter
// (pointer, array and typedef declarators, explicit instantiations), which
// loads `__ldg()` takes, and `const` carried to local copies and callees.
// Guide section: Kepler tuning guide 1.4.4.3.
//
//===----------------------------------------------------------------------===//

#include "MissingRestrictCheck.h"
#include "MissingRestrictFixes.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang::tidy::cuda::missing_restrict {

/// An explicit specialization of a function template (`template <>
/// __global__ void k<int>(...)`).
bool isExplicitSpecialization(const FunctionDecl *FD) {
  return FD->getPrimaryTemplate() &&
         FD->getTemplateSpecializationKind() == TSK_ExplicitSpecialization;
}

/// The declaration whose parameters a kernel's fix starts from: the template
/// pattern of an instantiation, and also of an explicit specialization, whose
/// parameter types must keep matching the primary template's.
const FunctionDecl *kernelPattern(const FunctionDecl *FD) {
  if (const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern())
    return Pattern;
  if (isExplicitSpecialization(FD)) {
    const FunctionDecl *Primary = FD->getPrimaryTemplate()->getTemplatedDecl();
    if (const FunctionDecl *Def = Primary->getDefinition())
      return Def;
    return Primary;
  }
  return FD;
}

const FunctionDecl *kernelKey(const FunctionDecl *FD) {
  return kernelPattern(FD)->getCanonicalDecl();
}

namespace {

bool isKeyword(const Token &T, StringRef Word) {
  return T.is(tok::raw_identifier) && T.getRawIdentifier() == Word;
}

} // namespace

/// The fix for parameter \p Index of an explicit instantiation
/// (`template __global__ void k<float>(float *, float *);`), whose parameter
/// types must keep matching the template once it gets `const`: `const` before
/// the parameter's type. Found by lexing from the kernel's name \p NameLoc,
/// as the AST keeps no type locations for it. Sets \p WhyNot when the
/// parameter is not spelled as a plain `type *` or `type *name`.
std::optional<FixItHint> explicitInstantiationFix(SourceLocation NameLoc,
                                                  unsigned Index,
                                                  const SourceManager &SM,
                                                  const LangOptions &LO,
                                                  std::string &WhyNot) {
  WhyNot = "an explicit instantiation of the kernel would no longer match; "
           "add 'const' to its parameter type too";
  if (NameLoc.isInvalid() || NameLoc.isMacroID())
    return std::nullopt;
  std::optional<Token> T = Lexer::findNextToken(NameLoc, SM, LO);
  auto Next = [&] {
    T = Lexer::findNextToken(T->getLocation(), SM, LO);
    return T && T->isNot(tok::eof) && T->getLocation().isFileID();
  };
  if (!T || T->getLocation().isMacroID())
    return std::nullopt;
  if (T->is(tok::less)) { // Explicit template arguments.
    int Depth = 1;
    while (Depth > 0) {
      if (!Next())
        return std::nullopt;
      if (T->isOneOf(tok::less, tok::l_paren))
        ++Depth;
      else if (T->isOneOf(tok::greater, tok::r_paren))
        --Depth;
      else if (T->is(tok::greatergreater))
        Depth -= 2;
    }
    if (Depth < 0 || !Next())
      return std::nullopt;
  }
  if (T->isNot(tok::l_paren))
    return std::nullopt;
  SmallVector<Token, 8> Param;
  unsigned Current = 0;
  int Depth = 0;
  while (true) {
    if (!Next())
      return std::nullopt;
    if (T->isOneOf(tok::l_paren, tok::l_square, tok::l_brace, tok::less))
      ++Depth;
    else if (T->isOneOf(tok::r_paren, tok::r_square, tok::r_brace,
                        tok::greater) &&
             Depth > 0)
      --Depth;
    else if (Depth == 0 && T->isOneOf(tok::comma, tok::r_paren)) {
      if (Current == Index)
        break;
      ++Current;
      if (T->is(tok::r_paren))
        return std::nullopt;
      continue;
    }
    if (Current == Index)
      Param.push_back(*T);
  }
  // `type *` or `type *name`, without qualifiers of its own.
  auto Star = llvm::find_if(llvm::reverse(Param),
                            [](const Token &K) { return K.is(tok::star); });
  if (Param.empty() || Star == Param.rend() ||
      std::distance(Param.rbegin(), Star) > 1 ||
      (Star != Param.rbegin() && Param.back().isNot(tok::raw_identifier)))
    return std::nullopt;
  for (const Token &K : Param)
    if (isKeyword(K, "const") || isKeyword(K, "volatile") ||
        isKeyword(K, "__restrict__") || isKeyword(K, "__restrict") ||
        K.isOneOf(tok::l_paren, tok::l_square))
      return std::nullopt;
  WhyNot.clear();
  return FixItHint::CreateInsertion(Param.front().getLocation(), "const ");
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

namespace {

/// Where `const` goes before the type \p PointeeTL, which the declarator
/// token at \p After (the star of a pointer, the name or first bracket of an
/// array parameter) follows: before its first token, or, for a type spelled
/// through a macro (`DATA_TYPE *a`), before the macro's name when its
/// expansion is the whole type. Invalid when \p After is in a macro or the
/// macro is more than the type.
SourceLocation constLocBefore(TypeLoc PointeeTL, SourceLocation After,
                              const SourceManager &SM, const LangOptions &LO) {
  SourceLocation Begin = PointeeTL.getBeginLoc();
  if (Begin.isInvalid() || After.isInvalid() || After.isMacroID())
    return SourceLocation();
  if (Begin.isFileID())
    return Begin;
  SourceLocation MacroBegin;
  if (!Lexer::isAtStartOfMacroExpansion(Begin, SM, LO, &MacroBegin) ||
      !MacroBegin.isFileID())
    return SourceLocation();
  SourceLocation End = PointeeTL.getEndLoc();
  SourceLocation MacroEnd;
  if (End.isMacroID() &&
      (!Lexer::isAtEndOfMacroExpansion(End, SM, LO, &MacroEnd) ||
       !MacroEnd.isFileID()))
    return SourceLocation();
  if (!SM.isBeforeInTranslationUnit(SM.getExpansionRange(Begin).getEnd(),
                                    After))
    return SourceLocation();
  return MacroBegin;
}

/// Where `const` goes in the pointer type \p PTL (see constLocBefore).
SourceLocation constLoc(PointerTypeLoc PTL, const SourceManager &SM,
                        const LangOptions &LO) {
  return constLocBefore(PTL.getPointeeLoc(), PTL.getStarLoc(), SM, LO);
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

/// The token after \p Loc, if it is in the file (not from a macro).
std::optional<Token> nextFileToken(SourceLocation Loc, const SourceManager &SM,
                                   const LangOptions &LO) {
  std::optional<Token> T = Lexer::findNextToken(Loc, SM, LO);
  if (!T || T->is(tok::eof) || T->getLocation().isMacroID())
    return std::nullopt;
  return T;
}

/// The fix for a parameter declared as an array (`double phi[400][400]`,
/// `float a[N]`), whose type is the pointer it is adjusted to: the declarator
/// written as that pointer (`(*__restrict__ phi)[400]`, `*__restrict__ a`),
/// and `const` before the element type. The body is unchanged (`phi[i][j]`
/// indexes the pointer to rows as it did), and so is what `sizeof(phi)` and
/// `decltype(phi)` name: the parameter's type was that pointer already.
/// Returns false, with \p WhyNot, when the declarator is not spelled plainly.
bool arrayParamFix(const ParmVarDecl *PD, ArrayTypeLoc ATL, bool AddConst,
                   bool AddRestrict, const SourceManager &SM,
                   const LangOptions &LO, std::vector<FixItHint> &Fixes,
                   llvm::SmallPtrSetImpl<const void *> &Done,
                   std::string &WhyNot) {
  SourceLocation LBracket = ATL.getLBracketLoc(),
                 RBracket = ATL.getRBracketLoc();
  SourceLocation NameLoc = PD->getIdentifier() ? PD->getLocation() : LBracket;
  if (LBracket.isInvalid() || RBracket.isInvalid() || LBracket.isMacroID() ||
      RBracket.isMacroID() || NameLoc.isMacroID()) {
    WhyNot = "the array declarator is spelled in a macro";
    return false;
  }
  // `name[`: nothing between the name and the first bracket.
  if (PD->getIdentifier()) {
    std::optional<Token> T = nextFileToken(NameLoc, SM, LO);
    if (!T || T->getLocation() != LBracket) {
      WhyNot = "the array declarator is not spelled as 'name[...]'";
      return false;
    }
  }
  TypeLoc Elem = ATL.getElementLoc();
  bool Rows = static_cast<bool>(stripQualifiers(Elem).getAs<ArrayTypeLoc>());
  TypeLoc Scalar = Elem;
  while (auto Inner = stripQualifiers(Scalar).getAs<ArrayTypeLoc>())
    Scalar = Inner.getElementLoc();
  if (AddConst) {
    SourceLocation ConstLoc = constLocBefore(Scalar, NameLoc, SM, LO);
    if (ConstLoc.isInvalid()) {
      WhyNot = "the array's element type is spelled in a macro";
      return false;
    }
    if (Done.insert(ConstLoc.getPtrEncoding()).second)
      Fixes.push_back(FixItHint::CreateInsertion(ConstLoc, "const "));
  }
  std::string Declarator = AddRestrict ? "*__restrict__" : "*";
  if (PD->getIdentifier())
    Declarator += (AddRestrict ? " " : "") + PD->getName().str();
  if (Rows)
    Declarator = "(" + Declarator + ")";
  if (Done.insert(NameLoc.getPtrEncoding()).second)
    Fixes.push_back(FixItHint::CreateReplacement(
        CharSourceRange::getTokenRange(NameLoc, RBracket), Declarator));
  return true;
}

/// The fix for a parameter whose pointer type is spelled through a typedef
/// or alias (`typedef float *fptr; fptr a`): `__restrict__` before the name
/// (`fptr __restrict__ a`), and, where `const` is needed too, the type
/// written out as the pointer it names (`const float *__restrict__ a`;
/// `const fptr a`, a const pointer, becomes `const float *const
/// __restrict__ a`), when its pointee can be spelled at the parameter: a
/// builtin type, or a named type of the scope that declares both the typedef
/// and the function. Returns false, with \p WhyNot, otherwise.
bool typedefParamFix(const ParmVarDecl *PD, TypedefTypeLoc TDL, bool AddConst,
                     bool AddRestrict, const ASTContext &Ctx,
                     std::vector<FixItHint> &Fixes,
                     llvm::SmallPtrSetImpl<const void *> &Done,
                     std::string &WhyNot) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  SourceLocation Begin = TDL.getBeginLoc(), End = TDL.getEndLoc();
  if (Begin.isInvalid() || End.isInvalid() || Begin.isMacroID() ||
      End.isMacroID() || PD->getLocation().isMacroID()) {
    WhyNot = "the parameter's type is spelled in a macro";
    return false;
  }
  bool Named = PD->getIdentifier() != nullptr;
  if (!AddConst) {
    if (!AddRestrict)
      return true;
    if (Named) {
      std::optional<Token> After = nextFileToken(End, SM, LO);
      if (!After || After->getLocation() != PD->getLocation()) {
        WhyNot = "the parameter's type and name are not adjacent";
        return false;
      }
    }
    SourceLocation Loc =
        Named ? PD->getLocation() : Lexer::getLocForEndOfToken(End, 0, SM, LO);
    if (Done.insert(Loc.getPtrEncoding()).second)
      Fixes.push_back(FixItHint::CreateInsertion(Loc, Named ? "__restrict__ "
                                                            : " __restrict__"));
    return true;
  }
  // `const` goes on the pointee, inside the typedef: write the pointer type
  // out, from the first token of the parameter's type to its name. That
  // span holds the typedef's name and at most a `const` (the pointer's own).
  const TypedefNameDecl *TD = TDL.getDecl();
  const TypeSourceInfo *TDInfo = TD ? TD->getTypeSourceInfo() : nullptr;
  auto Ptr =
      TDInfo ? TDInfo->getTypeLoc().getAs<PointerTypeLoc>() : PointerTypeLoc();
  Qualifiers Quals = PD->getTypeSourceInfo()->getType().getLocalQualifiers();
  bool ConstPointer = Quals.hasConst();
  Quals.removeConst();
  if (!Ptr || !Quals.empty()) {
    WhyNot = "the parameter's type is spelled through a typedef or alias "
             "that does not name a plain pointer";
    return false;
  }
  SourceLocation From = PD->getBeginLoc();
  if (From.isMacroID() || SM.isBeforeInTranslationUnit(Begin, From)) {
    WhyNot = "the parameter's type is spelled in a macro";
    return false;
  }
  SourceLocation Stop =
      Named ? PD->getLocation() : Lexer::getLocForEndOfToken(End, 0, SM, LO);
  Token First;
  if (Lexer::getRawToken(From, First, SM, LO, /*IgnoreWhiteSpace=*/true)) {
    WhyNot = "the parameter's type is spelled in a macro";
    return false;
  }
  for (std::optional<Token> T = First;;
       T = nextFileToken(T->getLocation(), SM, LO)) {
    if (!T || T->getLocation().isMacroID()) {
      WhyNot = "the parameter's type is spelled in a macro";
      return false;
    }
    SourceLocation L = T->getLocation();
    if (!SM.isBeforeInTranslationUnit(L, Stop))
      break;
    bool InTypedefName = !SM.isBeforeInTranslationUnit(L, Begin) &&
                         !SM.isBeforeInTranslationUnit(End, L);
    if (!InTypedefName && !isKeyword(*T, "const")) {
      WhyNot = "the parameter's type and name are not adjacent";
      return false;
    }
  }
  QualType Pointee = Ptr.getPointeeLoc().getType();
  std::string Spelled;
  const DeclContext *FnScope =
      PD->getDeclContext()->getParent()
          ? PD->getDeclContext()->getParent()->getRedeclContext()
          : nullptr;
  if (Pointee.getCanonicalType()->isBuiltinType() ||
      (FnScope && TD->getDeclContext()->getRedeclContext()->Equals(FnScope))) {
    PrintingPolicy Policy(LO);
    Policy.SuppressTagKeyword = false;
    Spelled = Pointee.getAsString(Policy);
  }
  if (Spelled.empty() || StringRef(Spelled).contains_insensitive("unnamed") ||
      StringRef(Spelled).contains_insensitive("anonymous") ||
      StringRef(Spelled).find_first_of("{(\n") != StringRef::npos) {
    WhyNot = "the parameter's type is spelled through a typedef or alias, "
             "whose pointee type cannot be written out here";
    return false;
  }
  std::string Text = "const " + Spelled + " *";
  if (ConstPointer)
    Text += AddRestrict ? "const " : "const";
  if (AddRestrict)
    Text += "__restrict__";
  if (Named && Text.back() != '*')
    Text += " ";
  if (Done.insert(From.getPtrEncoding()).second)
    Fixes.push_back(FixItHint::CreateReplacement(
        CharSourceRange::getCharRange(From, Stop), Text));
  return true;
}

} // namespace

/// The fix that adds `const` to the pointee of parameter \p PD and
/// `__restrict__` to the parameter, as asked: insertions for a pointer
/// declarator (`const` before the pointee type, also where that is a macro's
/// name, `__restrict__` before the name), or the declarator rewritten for an
/// array or a typedef. Returns false, with \p WhyNot, when there is none.
bool paramFix(const ParmVarDecl *PD, bool AddConst, bool AddRestrict,
              const ASTContext &Ctx, std::vector<FixItHint> &Fixes,
              llvm::SmallPtrSetImpl<const void *> &Done, std::string &WhyNot) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  const TypeSourceInfo *TSI = PD->getTypeSourceInfo();
  TypeLoc TL = TSI ? stripQualifiers(TSI->getTypeLoc()) : TypeLoc();
  if (auto ATL = TL ? TL.getAs<ArrayTypeLoc>() : ArrayTypeLoc())
    return arrayParamFix(PD, ATL, AddConst, AddRestrict, SM, LO, Fixes, Done,
                         WhyNot);
  if (auto TDL = TL ? TL.getAs<TypedefTypeLoc>() : TypedefTypeLoc())
    return typedefParamFix(PD, TDL, AddConst, AddRestrict, Ctx, Fixes, Done,
                           WhyNot);
  auto PTL = TL ? TL.getAs<PointerTypeLoc>() : PointerTypeLoc();
  if (!PTL) {
    WhyNot = "the parameter's type is not spelled as a pointer declarator";
    return false;
  }
  // A type spelled through a macro (`DATA_TYPE *a`) still gets `const`
  // before it and `__restrict__` after the star.
  SourceLocation ConstLoc = constLoc(PTL, SM, LO);
  if (PTL.getStarLoc().isMacroID() || (AddConst && ConstLoc.isInvalid())) {
    WhyNot = "the pointer type is spelled in a macro";
    return false;
  }
  if (AddConst && Done.insert(ConstLoc.getPtrEncoding()).second)
    Fixes.push_back(FixItHint::CreateInsertion(ConstLoc, "const "));
  if (AddRestrict) {
    SourceLocation Loc =
        PD->getIdentifier()
            ? PD->getLocation()
            : Lexer::getLocForEndOfToken(PTL.getStarLoc(), 0, SM, LO);
    if (Done.insert(Loc.getPtrEncoding()).second)
      Fixes.push_back(FixItHint::CreateInsertion(
          Loc, PD->getIdentifier() ? "__restrict__ " : " __restrict__"));
  }
  return true;
}

} // namespace clang::tidy::cuda::missing_restrict

namespace clang::tidy::cuda {

using namespace missing_restrict;

void MissingRestrictCheck::constifyLocals(
    llvm::ArrayRef<const VarDecl *> Locals, std::vector<FixItHint> &Fixes,
    llvm::SmallPtrSetImpl<const void *> &Done, std::string &WhyNot) {
  const SourceManager &SM = Ctx->getSourceManager();
  const LangOptions &LO = Ctx->getLangOpts();
  for (const VarDecl *V : Locals) {
    const TypeSourceInfo *TSI = V->getTypeSourceInfo();
    if (!TSI)
      break;
    auto PTL = stripQualifiers(TSI->getTypeLoc()).getAs<PointerTypeLoc>();
    if (!PTL) {
      if (!stripQualifiers(TSI->getTypeLoc()).getAs<AutoTypeLoc>()) {
        WhyNot = "a local copy of the pointer has a type spelled through a "
                 "typedef or alias";
        return;
      }
      continue;
    }
    TypeLoc PointeeTL = stripQualifiers(PTL.getPointeeLoc());
    if (PointeeTL.getAs<AutoTypeLoc>())
      continue; // `auto *q = p;` deduces the const.
    SourceLocation Loc = constLoc(PTL, SM, LO);
    if (Loc.isInvalid()) {
      WhyNot = "a local copy of the pointer is declared in a macro";
      return;
    }
    if (Done.insert(Loc.getPtrEncoding()).second)
      Fixes.push_back(FixItHint::CreateInsertion(Loc, "const "));
  }
}

bool MissingRestrictCheck::constifyCallee(
    ReadOnlyPointerAnalysis &Analysis, const FunctionDecl *Def, unsigned Index,
    std::vector<FixItHint> &Fixes, llvm::SmallPtrSetImpl<const void *> &Done,
    llvm::SmallVectorImpl<const ParmVarDecl *> &Constified, unsigned Depth) {
  const SourceManager &SM = Ctx->getSourceManager();
  if (Depth > 4 || !Def || Index >= Def->getNumParams())
    return false;
  const ParmVarDecl *P = Def->getParamDecl(Index);
  if (llvm::is_contained(Constified, P))
    return true; // Recursion, or another path to the same parameter.
  // A template, an instantiation or a member of one: `const` would change
  // what other instantiations deduce or must match.
  if (Def->getTemplatedKind() != FunctionDecl::TK_NonTemplate ||
      Def->isDependentContext() ||
      SM.isInSystemHeader(SM.getExpansionLoc(Def->getLocation())))
    return false;
  if (const auto *M = dyn_cast<CXXMethodDecl>(Def))
    if (M->isVirtual())
      return false;
  // Its type observed (address taken, stored, passed), or overloaded: `const`
  // would change which function a call or a pointer picks.
  if (UsedAsValue.count(kernelKey(Def)))
    return false;
  for (const NamedDecl *ND :
       Def->getDeclContext()->getRedeclContext()->lookup(Def->getDeclName())) {
    const auto *F = dyn_cast<FunctionDecl>(ND->getUnderlyingDecl());
    if (!F || F->getCanonicalDecl() != Def->getCanonicalDecl())
      return false;
  }
  Constified.push_back(P);
  // Every declaration gets it, spelled `T *` outside a macro.
  for (const FunctionDecl *D : Def->redecls()) {
    if (Index >= D->getNumParams() || D->getLocation().isMacroID())
      return false;
    const ParmVarDecl *PD = D->getParamDecl(Index);
    std::string WhyNot;
    if (PD->getLocation().isMacroID() ||
        !paramFix(PD, /*AddConst=*/true, /*AddRestrict=*/false, *Ctx, Fixes,
                  Done, WhyNot))
      return false;
  }
  const ReadOnlyResult &R = Analysis.analyze(Def, P);
  if (!R.ReadOnly || !R.ConstBlocker.empty())
    return false;
  std::string WhyNot;
  constifyLocals(R.NonConstLocals, Fixes, Done, WhyNot);
  if (!WhyNot.empty())
    return false;
  for (const ReadOnlyResult::Callee &C : R.NonConstCallees)
    if (!constifyCallee(Analysis, C.Definition, C.Index, Fixes, Done,
                        Constified, Depth + 1))
      return false;
  return true;
}

} // namespace clang::tidy::cuda
