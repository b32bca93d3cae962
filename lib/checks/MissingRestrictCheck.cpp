//===--- MissingRestrictCheck.cpp - cuda-lint -----------------------------===//
//
// Kepler tuning guide 1.4.4.3: for data read through the read-only data
// cache, kernel pointer arguments "should be marked with both the const and
// __restrict__ qualifiers", or the loads written with __ldg().
//
//===----------------------------------------------------------------------===//

#include "MissingRestrictCheck.h"
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

namespace {

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

/// Calls, declared in the CUDA headers, that nvcc inlines as arithmetic
/// without touching memory (no local-memory slow path, unlike the
/// trigonometric functions' argument reduction).
bool isPureArithmeticCall(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || !FD->getIdentifier())
    return false;
  const SourceManager &SM = FD->getASTContext().getSourceManager();
  if (!SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation())))
    return false;
  StringRef Name = FD->getName();
  static const char *const Pure[] = {
      "__syncthreads", "__syncwarp", "min", "max", "umin", "umax", "fma",
      "fmaf", "fmin", "fminf", "fmax", "fmaxf", "fabs", "fabsf", "abs", "sqrt",
      "sqrtf", "rsqrt", "rsqrtf", "floor", "floorf", "ceil", "ceilf", "trunc",
      "truncf", "rint", "rintf", "round", "roundf", "__fdividef", "__fmul_rn",
      "__fadd_rn", "__fmaf_rn", "copysign", "copysignf",
      // The libdevice functions that nvcc inlines without a call or local
      // memory, each checked with nvcc 13.0 -arch=sm_90 -ptx: the PTX of a
      // kernel that stores only through `__restrict__` and calls it is the
      // same with and without `const __restrict__` on its other pointers.
      // Not sinf, cosf, tanf, sincosf, j0f, y0f (a slow path in local
      // memory), nor the double sin, cos, tan, pow, lgamma, tgamma (calls).
      "expf", "exp2f", "exp10f", "expm1f", "logf", "log2f", "log10f", "log1pf",
      "powf", "tanhf", "sinhf", "coshf", "asinf", "acosf", "atanf", "atan2f",
      "asinhf", "acoshf", "atanhf", "erff", "erfcf", "erfinvf", "erfcinvf",
      "normcdff", "normcdfinvf", "cbrtf", "rcbrtf", "hypotf", "rhypotf",
      "lgammaf", "tgammaf", "logbf", "ldexpf", "scalbnf", "fmodf", "remainderf",
      "fdimf", "nextafterf", "nearbyintf", "sinpif", "cospif", "__expf",
      "__exp10f", "__logf", "__log2f", "__log10f", "__powf", "__sinf", "__cosf",
      "__tanf", "__saturatef", "__fdiv_rn", "exp", "exp2", "exp10", "expm1",
      "log", "log2", "log10", "log1p", "tanh", "sinh", "cosh", "asin", "acos",
      "atan", "atan2", "asinh", "acosh", "atanh", "erf", "erfc", "cbrt",
      "rcbrt", "hypot", "logb", "ldexp", "scalbn", "fmod", "remainder", "fdim",
      "nextafter", "sinpi", "cospi"};
  // `threadIdx.x` reads a special register through a property getter.
  return llvm::is_contained(Pure, Name) || Name.starts_with("make_") ||
         Name.starts_with("__fetch_builtin_");
}

/// The parameters of the helper being scanned (see storesOnlyThroughRestrict)
/// that its call binds to the address of a register or to a `__restrict__`
/// pointer of the kernel: stores through them count as such stores.
const llvm::SmallPtrSetImpl<const ParmVarDecl *> *BoundParams = nullptr;

/// Whether the pointer \p E is a `__restrict__` parameter, or an offset or
/// cast of one.
bool isRestrictParamPointer(const Expr *E) {
  E = E->IgnoreParenCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return BO->isAdditiveOp() &&
           isRestrictParamPointer(BO->getLHS()->getType()->isPointerType()
                                      ? BO->getLHS()
                                      : BO->getRHS());
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_AddrOf)
      if (const auto *AS =
              dyn_cast<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens()))
        return AS->getBase()->getType()->isPointerType() &&
               isRestrictParamPointer(AS->getBase());
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  const auto *P = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
  return P && P->getType()->isPointerType() &&
         (BoundParams ? BoundParams->contains(P)
                      : P->getType().isRestrictQualified());
}

/// Whether \p E names an array in a space of its own that global loads
/// cannot alias, or a row of one: a thread's own array (a local,
/// non-static array variable) or a `__shared__` array. nvcc knows both
/// spaces: stores there leave a global pointer's loads `ld.global.nc`
/// (checked in the PTX: a tile staged through shared memory, a shared
/// histogram's atomics, a shared array passed to an inlined helper; the
/// audit of stop 26, prna).
bool isLocalArray(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    return AS->getBase()->IgnoreParenImpCasts()->getType()->isArrayType() &&
           isLocalArray(AS->getBase());
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  return V && V->getType()->isArrayType() &&
         (V->hasAttr<CUDASharedAttr>() || V->hasLocalStorage());
}

/// Whether the store target \p E is a register (a local scalar or struct),
/// an element of a thread's own array, or memory reached through a
/// `__restrict__` parameter.
bool isRestrictOrRegisterStore(const Expr *E) {
  E = E->IgnoreParens();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
    return V && !V->getType()->isReferenceType() &&
           !V->getType()->isArrayType() &&
           (V->hasAttr<CUDASharedAttr>() || V->hasLocalStorage());
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return !ME->getMemberDecl()->getType()->isReferenceType() &&
           (ME->isArrow() ? isRestrictParamPointer(ME->getBase())
                          : isRestrictOrRegisterStore(ME->getBase()));
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    if (!AS->getBase()->IgnoreParenImpCasts()->getType()->isArrayType())
      return isRestrictParamPointer(AS->getBase());
    // An element of a thread's own array (registers or local memory, a
    // space of its own that global loads cannot alias).
    return isLocalArray(AS->getBase());
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->getOpcode() == UO_Deref &&
           isRestrictParamPointer(UO->getSubExpr());
  return false;
}

/// Whether every store of kernel \p FD goes to a register or through a
/// `__restrict__` parameter, with no atomics, no inline assembly and no call
/// other than inlined arithmetic. Then nvcc proves every other pointer
/// parameter read-only by itself and loads it with ld.global.nc, `const
/// __restrict__` or not (the PTX is the same with them).
bool storesOnlyThroughRestrict(
    const FunctionDecl *FD, unsigned Depth = 0,
    const llvm::SmallPtrSetImpl<const ParmVarDecl *> *Bound = nullptr);

/// Whether the call \p Call of a user `__device__` helper that nvcc inlines
/// stores only to registers or through `__restrict__` pointers of the
/// kernel: the helper's body satisfies storesOnlyThroughRestrict with its
/// pointer parameters bound to what the call passes (`&vij` of a local
/// scalar, a `__restrict__` pointer of the kernel).
bool helperStoresOnlyThroughRestrict(const CallExpr *Call, unsigned Depth) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || Depth >= 3 || isa<CXXMethodDecl>(Callee) ||
      Callee->isVariadic() || !Callee->hasAttr<CUDADeviceAttr>() ||
      Callee->hasAttr<CUDAGlobalAttr>() || Callee->hasAttr<NoInlineAttr>() ||
      !Callee->hasBody() || Call->getNumArgs() != Callee->getNumParams())
    return false;
  const SourceManager &SM = Callee->getASTContext().getSourceManager();
  if (SM.isInSystemHeader(SM.getExpansionLoc(Callee->getLocation())))
    return false;
  llvm::SmallPtrSet<const ParmVarDecl *, 4> Bound;
  for (unsigned I = 0, N = Call->getNumArgs(); I != N; ++I) {
    const ParmVarDecl *P = Callee->getParamDecl(I);
    if (P->getType()->isReferenceType())
      return false; // A store through it is a store in the caller.
    if (!P->getType()->isPointerType())
      continue;
    const Expr *Arg = Call->getArg(I)->IgnoreParenImpCasts();
    // `&x` of a register or shared variable, `&a[i]` of an element of a
    // thread's own or a shared array, a `__restrict__` pointer (or an
    // element's address through one), a thread's own or a shared array.
    const auto *UO = dyn_cast<UnaryOperator>(Arg);
    const Expr *Taken = UO && UO->getOpcode() == UO_AddrOf
                            ? UO->getSubExpr()->IgnoreParens()
                            : nullptr;
    if ((Taken && isa<DeclRefExpr, ArraySubscriptExpr>(Taken) &&
         isRestrictOrRegisterStore(Taken)) ||
        isRestrictParamPointer(Arg) || isLocalArray(Arg))
      Bound.insert(P);
  }
  // The helper's body, with its bound parameters as the only pointers that
  // it may store through.
  return storesOnlyThroughRestrict(Callee->getDefinition(), Depth + 1, &Bound);
}

bool storesOnlyThroughRestrict(
    const FunctionDecl *FD, unsigned Depth,
    const llvm::SmallPtrSetImpl<const ParmVarDecl *> *Bound) {
  if (!FD || !FD->hasBody())
    return false;
  struct Scan : RecursiveASTVisitor<Scan> {
    bool OK = true;
    unsigned Depth = 0;
    const llvm::SmallPtrSetImpl<const ParmVarDecl *> *Bound = nullptr;
    bool VisitAsmStmt(AsmStmt *) { return OK = false; }
    bool VisitCallExpr(CallExpr *Call) {
      // An atomic on memory reached through a `__restrict__` parameter is
      // a store there (pad's flags: the other loads stay ld.global.nc).
      if (const FunctionDecl *FD = Call->getDirectCallee();
          FD && FD->getIdentifier() && FD->getName().starts_with("atomic") &&
          Call->getNumArgs() >= 1) {
        auto *Saved = BoundParams;
        BoundParams = Bound;
        const Expr *Target = Call->getArg(0)->IgnoreParenImpCasts();
        const auto *Addr = dyn_cast<UnaryOperator>(Target);
        OK &= isRestrictParamPointer(Target) ||
              (Addr && Addr->getOpcode() == UO_AddrOf &&
               isRestrictOrRegisterStore(Addr->getSubExpr()));
        BoundParams = Saved;
        return OK;
      }
      // A helper nvcc inlines, with the same property given what the call
      // passes.
      if (!isPureArithmeticCall(Call) && !isa<CXXOperatorCallExpr>(Call)) {
        auto *Saved = BoundParams;
        BoundParams = Bound;
        bool Helper = helperStoresOnlyThroughRestrict(Call, Depth);
        BoundParams = Saved;
        OK &= Helper;
        return OK;
      }
      if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call))
        if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2 &&
            Op->getArg(0)->getType()->isRecordType() &&
            Op->getArg(0)->getType()->getAsCXXRecordDecl() &&
            Op->getArg(0)->getType()->getAsCXXRecordDecl()->isTrivial()) {
          store(Op->getArg(0));
          return OK;
        }
      OK &= isPureArithmeticCall(Call);
      return OK;
    }
    // A user-written constructor may store anywhere (a reference member
    // bound to the pointee).
    bool VisitCXXConstructExpr(CXXConstructExpr *C) {
      const CXXConstructorDecl *Ctor = C->getConstructor();
      const SourceManager &SM = Ctor->getASTContext().getSourceManager();
      OK &= Ctor->isTrivial() || !Ctor->isUserProvided() ||
            SM.isInSystemHeader(SM.getExpansionLoc(Ctor->getLocation()));
      return OK;
    }
    // Aggregate initialisation may bind a reference member to the pointee.
    bool VisitInitListExpr(InitListExpr *IL) {
      if (const auto *RD = IL->getType()->getAsRecordDecl())
        for (const FieldDecl *F : RD->fields())
          if (F->getType()->isReferenceType())
            OK = false;
      return OK;
    }
    // A bound parameter of a helper keeps what the call passed.
    bool isBound(const Expr *E) const {
      const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParens());
      const auto *P = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
      return Bound && P && Bound->contains(P);
    }
    bool store(const Expr *Target) {
      auto *Saved = BoundParams;
      BoundParams = Bound;
      OK &= !isBound(Target) && isRestrictOrRegisterStore(Target);
      BoundParams = Saved;
      return OK;
    }
    bool VisitBinaryOperator(BinaryOperator *BO) {
      if (BO->isAssignmentOp())
        return store(BO->getLHS());
      return OK;
    }
    bool VisitUnaryOperator(UnaryOperator *UO) {
      if (UO->isIncrementDecrementOp())
        return store(UO->getSubExpr());
      return OK;
    }
    bool VisitVarDecl(VarDecl *V) {
      // A static array is memory nvcc must consider; a thread's own array
      // and a `__shared__` one are not (stores to them are checked as
      // stores).
      if (!V->hasAttr<CUDASharedAttr>() && V->getType()->isArrayType() &&
          !V->hasLocalStorage())
        OK = false;
      return OK;
    }
  } S;
  S.Depth = Depth;
  S.Bound = Bound;
  S.TraverseStmt(FD->getBody());
  return S.OK;
}

const FunctionDecl *kernelKey(const FunctionDecl *FD) {
  return kernelPattern(FD)->getCanonicalDecl();
}

bool isKeyword(const Token &T, StringRef Word) {
  return T.is(tok::raw_identifier) && T.getRawIdentifier() == Word;
}

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

} // namespace

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
      Info.ReadOnly &= R.ReadOnly;
      Info.PlainAccess |= R.PlainAccess;
      Info.ExplicitLoad |= R.ExplicitLoad;
      Info.PlainAccessInLoop |= R.PlainAccessInLoop;
      Info.PassedOn |= R.PassedOn;
      Info.ExplicitLoadInLoop |= R.ExplicitLoadInLoop;
      if (!InTemplate)
        Info.Loads.assign(R.Loads.begin(), R.Loads.end());
      Info.NonConstLocals.append(R.NonConstLocals.begin(),
                                 R.NonConstLocals.end());
      if (Info.ConstBlocker.empty())
        Info.ConstBlocker = R.ConstBlocker;
      Info.NonConstCallees.append(R.NonConstCallees.begin(),
                                  R.NonConstCallees.end());
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
      Info.ReadOnly &= R.ReadOnly;
      Info.PlainAccess |= R.PlainAccess;
      Info.ExplicitLoad |= R.ExplicitLoad;
      Info.PlainAccessInLoop |= R.PlainAccessInLoop;
      Info.PassedOn |= R.PassedOn;
      Info.ExplicitLoadInLoop |= R.ExplicitLoadInLoop;
      if (Info.ConstBlocker.empty())
        Info.ConstBlocker = R.ConstBlocker;
      Info.NonConstLocals.append(R.NonConstLocals.begin(),
                                 R.NonConstLocals.end());
      Info.NonConstCallees.append(R.NonConstCallees.begin(),
                                  R.NonConstCallees.end());
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
  if (NeedConst && WhyNot.empty() &&
      !(UseLdg && !IsAliased && !Info.InTemplate)) {
    if (!Info.ConstBlocker.empty())
      WhyNot = Info.ConstBlocker;
    if (WhyNot.empty())
      constifyLocals(Info.NonConstLocals, Fixes, Done, WhyNot);
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
    auto Diag = diag(PP->getLocation(),
                     "pointer parameter '%0' is only read; declare it "
                     "'%1'%select{ (not '__restrict__', which the read-only "
                     "data cache needs: it may alias another parameter)| so "
                     "that its loads can use the read-only data cache}2")
                << PP->getName() << Spelled << WithRestrict;
    if (WhyNot.empty())
      for (const FixItHint &F : Fixes)
        Diag << F;
  }
  if (IsAliased) {
    // Pointers read from one member of objects that may be different
    // (`a.data`, `b.data`): they may or may not point into one allocation.
    if (const FieldDecl *Member = AliasIt->second.Member)
      diag(AliasIt->second.Launch,
           "'__restrict__' not added: %select{this launch|this call of "
           "'%3'}2 passes '%0' and '%1' pointers read from the same member "
           "'%4', which may point into one allocation",
           DiagnosticIDs::Note)
          << PP->getName()
          << Pattern->getParamDecl(AliasIt->second.Other)->getName()
          << (AliasIt->second.Wrapper != nullptr)
          << (AliasIt->second.Wrapper ? AliasIt->second.Wrapper->getName()
                                      : StringRef())
          << Member->getName();
    else if (const FunctionDecl *Wrapper = AliasIt->second.Wrapper)
      diag(AliasIt->second.Launch,
           "'__restrict__' not added: this call of '%2' passes pointers into "
           "the same allocation, which it launches the kernel with as '%0' "
           "and '%1'",
           DiagnosticIDs::Note)
          << PP->getName()
          << Pattern->getParamDecl(AliasIt->second.Other)->getName()
          << Wrapper->getName();
    else
      diag(AliasIt->second.Launch,
           "'__restrict__' not added: this launch passes pointers into the "
           "same allocation as '%0' and '%1'",
           DiagnosticIDs::Note)
          << PP->getName()
          << Pattern->getParamDecl(AliasIt->second.Other)->getName();
  }
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
