//===--- PageableCopyArgs.cpp - cuda-lint ---------------------------------===//
//
// The arguments of an asynchronous copy, for cuda-pageable-async-copy
// (PageableCopyArgs.h).
//
//===----------------------------------------------------------------------===//

#include "PageableCopyArgs.h"
#include "cudalint/analysis/ValueRange.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::tidy::cuda::pageable_copy {

CopyShape shapeOf(StringRef Name) {
  CopyShape S;
  if (Name == "cudaMemcpyAsync") {
    S.Dst = 0, S.Src = 1, S.Kind = 3, S.Size = 2, S.Stream = 4;
  } else if (Name == "cudaMemcpy2DAsync") {
    S.Dst = 0, S.Src = 2, S.Kind = 6, S.Size = 4, S.Height = 5, S.Stream = 7;
  } else if (Name == "cudaMemcpyToSymbolAsync") {
    S.Src = 1, S.Kind = 4, S.Size = 2, S.Stream = 5;
  } else if (Name == "cudaMemcpyFromSymbolAsync") {
    S.Dst = 0, S.Kind = 4, S.Size = 2, S.Stream = 5;
  } else if (Name == "cudaMemcpy3DAsync") {
    S.Parms = true, S.Stream = 1;
  }
  return S;
}

std::optional<int64_t> evaluateKind(const Expr *E, const ASTContext &Ctx) {
  if (!E || E->isValueDependent())
    return std::nullopt;
  if (const auto *D = dyn_cast<CXXDefaultArgExpr>(E))
    E = D->getExpr();
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

bool collectParms(const VarDecl *V, const Stmt *Body, ParmsFields &Out) {
  struct Visitor : RecursiveASTVisitor<Visitor> {
    const VarDecl *V;
    ParmsFields &Out;
    bool OK = true;
    Visitor(const VarDecl *V, ParmsFields &Out) : V(V), Out(Out) {}
    /// `p.a.b` -> p, with the names of the members.
    const DeclRefExpr *base(const Expr *E, SmallVectorImpl<StringRef> &Path) {
      E = E->IgnoreParenImpCasts();
      while (const auto *ME = dyn_cast<MemberExpr>(E)) {
        if (!ME->getMemberDecl()->getIdentifier())
          return nullptr;
        Path.insert(Path.begin(), ME->getMemberDecl()->getName());
        E = ME->getBase()->IgnoreParenImpCasts();
      }
      const auto *DRE = dyn_cast<DeclRefExpr>(E);
      return DRE && DRE->getDecl() == V ? DRE : nullptr;
    }
    void assign(const Expr *LHS, const Expr *RHS) {
      SmallVector<StringRef, 2> Path;
      if (!base(LHS, Path))
        return;
      if (Path.size() == 1 && Path[0] == "kind")
        Out.Kind.push_back(RHS);
      else if (Path.size() == 1 && Path[0] == "extent")
        Out.Extent.push_back(RHS);
      else if (!Path.empty() && Path[0] == "extent")
        Out.Extent.push_back(nullptr); // A part of it: not followed.
      else if (!Path.empty() && (Path[0] == "srcPtr" || Path[0] == "dstPtr") &&
               (Path.size() == 1 || (Path.size() == 2 && Path[1] == "ptr")))
        (Path[0] == "srcPtr" ? Out.Src : Out.Dst).push_back(RHS);
      else if (Path.empty() || Path[0] == "srcPtr" || Path[0] == "dstPtr")
        OK = false; // The whole struct, or a part of a pointer field.
    }
    bool VisitBinaryOperator(BinaryOperator *BO) {
      if (BO->getOpcode() == BO_Assign)
        assign(BO->getLHS(), BO->getRHS());
      return true;
    }
    bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Op) {
      // Struct fields (`p.srcPtr = make_cudaPitchedPtr(...)`) are assigned
      // through the implicit copy assignment operator.
      if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2)
        assign(Op->getArg(0), Op->getArg(1));
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator *UO) {
      SmallVector<StringRef, 2> Path;
      if (UO->getOpcode() == UO_AddrOf && base(UO->getSubExpr(), Path) &&
          !Path.empty())
        OK = false; // `&p.srcPtr` escapes.
      return true;
    }
  } Vis(V, Out);
  Vis.TraverseStmt(const_cast<Stmt *>(Body));
  return Vis.OK;
}

/// The expression of the pointer in a `cudaPitchedPtr` value:
/// `make_cudaPitchedPtr(h, ...)` gives h; a `.ptr` assignment is the pointer
/// itself.
const Expr *pitchedPointer(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (E->getType()->isPointerType())
    return E;
  if (const auto *Call = dyn_cast<CallExpr>(E->IgnoreImplicit()))
    if (const FunctionDecl *FD = Call->getDirectCallee();
        FD && FD->getIdentifier() && FD->getName() == "make_cudaPitchedPtr" &&
        Call->getNumArgs() >= 1)
      return Call->getArg(0);
  return nullptr;
}

/// The value of the integer expression \p E when it is a constant: a
/// constant expression (`sizeof`, literals, macros, `constexpr` and `const`
/// variables), or sums, products and shifts of constants and of local
/// variables of \p F that are never changed after a constant initialiser
/// (`int n = 1024; ... n * sizeof(int)`).
std::optional<uint64_t> foldBytes(const Expr *E, const FunctionDecl *F,
                                  ASTContext &Ctx, unsigned Depth) {
  if (!E || Depth > 8 || E->isValueDependent() || E->isTypeDependent())
    return std::nullopt;
  if (const auto *D = dyn_cast<CXXDefaultArgExpr>(E))
    E = D->getExpr();
  Expr::EvalResult R;
  if (E->getType()->isIntegralOrEnumerationType() && E->EvaluateAsInt(R, Ctx)) {
    const llvm::APSInt &V = R.Val.getInt();
    if (V.isSigned() && V.isNegative())
      return std::nullopt;
    if (V.getActiveBits() > 63)
      return std::nullopt;
    return V.getZExtValue();
  }
  E = E->IgnoreParens();
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    // Integer conversions (a count of `int` times a `size_t` sizeof); a
    // narrowing conversion of a value that fits keeps it.
    if (!Cast->getSubExpr()->getType()->isIntegerType() ||
        !E->getType()->isIntegerType())
      return std::nullopt;
    std::optional<uint64_t> V =
        foldBytes(Cast->getSubExpr(), F, Ctx, Depth + 1);
    uint64_t Width = Ctx.getTypeSize(E->getType());
    if (E->getType()->isSignedIntegerType())
      --Width;
    if (!V || (Width < 64 && (*V >> Width)))
      return std::nullopt;
    return V;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    std::optional<uint64_t> L = foldBytes(BO->getLHS(), F, Ctx, Depth + 1);
    std::optional<uint64_t> Rv = foldBytes(BO->getRHS(), F, Ctx, Depth + 1);
    if (!L || !Rv)
      return std::nullopt;
    uint64_t Out;
    switch (BO->getOpcode()) {
    case BO_Mul:
      if (__builtin_mul_overflow(*L, *Rv, &Out))
        return std::nullopt;
      return Out;
    case BO_Add:
      if (__builtin_add_overflow(*L, *Rv, &Out))
        return std::nullopt;
      return Out;
    case BO_Shl:
      if (*Rv >= 63 || (*L >> (63 - *Rv)))
        return std::nullopt;
      return *L << *Rv;
    default:
      return std::nullopt;
    }
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V || isa<ParmVarDecl>(V) || !V->hasLocalStorage() || !V->getInit() ||
      !V->getType()->isIntegerType() || !F->getBody() ||
      V->getType()->isReferenceType())
    return std::nullopt;
  // Never changed: every reference in the function only reads it.
  struct Visitor : RecursiveASTVisitor<Visitor> {
    ASTContext &Ctx;
    const VarDecl *V;
    bool Changed = false;
    Visitor(ASTContext &Ctx, const VarDecl *V) : Ctx(Ctx), V(V) {}
    bool VisitDeclRefExpr(DeclRefExpr *Ref) {
      if (Ref->getDecl() == V && classifyVarUse(Ctx, Ref) != VarUse::Read)
        Changed = true;
      return !Changed;
    }
  } Vis(Ctx, V);
  Vis.TraverseStmt(F->getBody());
  if (Vis.Changed)
    return std::nullopt;
  return foldBytes(V->getInit(), F, Ctx, Depth + 1);
}

/// The bytes of a `make_cudaExtent(width, height, depth)` with constant
/// arguments.
std::optional<uint64_t> extentBytes(const Expr *E, const FunctionDecl *F,
                                    ASTContext &Ctx) {
  if (!E)
    return std::nullopt;
  const auto *Call =
      dyn_cast<CallExpr>(E->IgnoreParenImpCasts()->IgnoreImplicit());
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier() || FD->getName() != "make_cudaExtent" ||
      Call->getNumArgs() != 3)
    return std::nullopt;
  uint64_t Bytes = 1;
  for (const Expr *A : Call->arguments()) {
    std::optional<uint64_t> V = foldBytes(A, F, Ctx);
    if (!V || __builtin_mul_overflow(Bytes, *V, &Bytes))
      return std::nullopt;
  }
  return Bytes;
}

} // namespace clang::tidy::cuda::pageable_copy
