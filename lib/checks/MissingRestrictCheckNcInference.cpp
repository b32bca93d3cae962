//===--- MissingRestrictCheckNcInference.cpp - cuda-lint ------------------===//
//
// When nvcc already loads the read-only pointers of a kernel with
// ld.global.nc by itself (MissingRestrictNcInference.h): every store of the
// kernel, and of the helpers it inlines, goes to a register or through a
// `__restrict__` parameter. Guide section: Kepler tuning guide 1.4.4.3.
//
//===----------------------------------------------------------------------===//

#include "MissingRestrictNcInference.h"
#include "cudalint/analysis/DeviceCode.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang::tidy::cuda::missing_restrict {

namespace {

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

} // namespace

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
          isAtomicFunction(FD) && Call->getNumArgs() >= 1) {
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

} // namespace clang::tidy::cuda::missing_restrict
