//===--- DeviceCode.cpp - cuda-lint ---------------------------------------===//

#include "cudalint/analysis/DeviceCode.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

namespace clang::tidy::cuda {

bool isKernel(const FunctionDecl *FD) {
  return FD && FD->hasAttr<CUDAGlobalAttr>();
}

bool isDeviceFunction(const FunctionDecl *FD) {
  if (!FD)
    return false;
  if (FD->hasAttr<CUDAGlobalAttr>())
    return true;
  const auto *Device = FD->getAttr<CUDADeviceAttr>();
  if (!Device)
    return false;
  if (!Device->isImplicit())
    return true;
  // Clang marks every lambda without an execution-space attribute implicitly
  // __host__ __device__. nvcc compiles such a lambda for the device only when
  // it is defined inside device code (an extended lambda is written
  // `[] __device__ (...)` and has the attribute explicitly): it is device code
  // exactly when the function that defines it is.
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD);
      MD && MD->getParent()->isLambda()) {
    const DeclContext *DC = MD->getParent()->getDeclContext();
    while (DC && !isa<FunctionDecl>(DC) && !DC->isFileContext())
      DC = DC->getParent();
    return isDeviceFunction(dyn_cast_or_null<FunctionDecl>(DC));
  }
  // Clang marks constexpr functions (and functions in system headers)
  // implicitly __host__ __device__; those are host code as written.
  return !FD->isConstexpr();
}

bool isAtomicFunctionName(llvm::StringRef Name) {
  return Name.starts_with("atomic") || Name.starts_with("__nvvm_atom") ||
         Name.starts_with("__atomic") ||
         (Name.starts_with("__") && Name.contains("Atomic"));
}

bool isAtomicFunction(const FunctionDecl *F) {
  return F && F->getIdentifier() && isAtomicFunctionName(F->getName());
}

bool isPureIntegerFunction(const FunctionDecl *Callee) {
  if (!Callee)
    return false;
  if (Callee->getBuiltinID() != 0)
    return true;
  if (!Callee->getIdentifier())
    return false;
  return llvm::is_contained({"min", "max", "umin", "umax", "llmin", "llmax",
                             "abs", "labs", "llabs", "__mul24", "__umul24",
                             "__mulhi", "__umulhi", "__clz", "__popc", "__ffs",
                             "__brev"},
                            Callee->getName());
}

bool isKernelQueryArgument(ASTContext &Ctx, const Expr *Ref) {
  DynTypedNode N = DynTypedNode::create(*Ref);
  for (unsigned Depth = 0; Depth < 6; ++Depth) {
    DynTypedNodeList Ps = Ctx.getParents(N);
    if (Ps.empty())
      return false;
    if (const auto *Call = Ps[0].get<CallExpr>()) {
      const FunctionDecl *F = Call->getDirectCallee();
      if (!F || !F->getIdentifier())
        return false;
      llvm::StringRef Name = F->getName();
      return Name.starts_with("cudaOccupancy") ||
             Name == "cudaFuncSetCacheConfig" ||
             Name == "cudaFuncSetAttribute" ||
             Name == "cudaFuncGetAttributes" ||
             Name == "cudaFuncSetSharedMemConfig" || Name == "cudaFuncGetName";
    }
    if (!Ps[0].get<ImplicitCastExpr>() && !Ps[0].get<ParenExpr>() &&
        !Ps[0].get<ExplicitCastExpr>() && !Ps[0].get<UnaryOperator>())
      return false;
    N = Ps[0];
  }
  return false;
}

bool readsMemory(const Stmt *S, bool NamedMemory) {
  if (!S || (NamedMemory && isa<PseudoObjectExpr>(S)))
    return false;
  if (isa<ArraySubscriptExpr, CallExpr>(S))
    return true;
  if (const auto *UO = dyn_cast<UnaryOperator>(S);
      UO && UO->getOpcode() == UO_Deref)
    return true;
  if (const auto *ME = dyn_cast<MemberExpr>(S); ME && ME->isArrow())
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S); DRE && NamedMemory)
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && (!VD->hasLocalStorage() || VD->hasAttr<CUDASharedAttr>()))
      return true;
  return llvm::any_of(S->children(), [&](const Stmt *C) {
    return readsMemory(C, NamedMemory);
  });
}

const Stmt *loopBody(const Stmt *Loop) {
  if (const auto *For = dyn_cast<ForStmt>(Loop))
    return For->getBody();
  if (const auto *While = dyn_cast<WhileStmt>(Loop))
    return While->getBody();
  if (const auto *Do = dyn_cast<DoStmt>(Loop))
    return Do->getBody();
  if (const auto *Range = dyn_cast<CXXForRangeStmt>(Loop))
    return Range->getBody();
  return nullptr;
}

bool sameExpr(const ASTContext &Ctx, const Expr *A, const Expr *B) {
  llvm::FoldingSetNodeID IA, IB;
  A->IgnoreParenImpCasts()->Profile(IA, Ctx, /*Canonical=*/true);
  B->IgnoreParenImpCasts()->Profile(IB, Ctx, /*Canonical=*/true);
  return IA == IB;
}

bool sameExprOrValue(ASTContext &Ctx, const Expr *A, const Expr *B) {
  if (!A || !B || A->isValueDependent() || B->isValueDependent())
    return false;
  std::optional<llvm::APSInt> CA = A->getIntegerConstantExpr(Ctx),
                              CB = B->getIntegerConstantExpr(Ctx);
  if (CA || CB)
    return CA && CB && llvm::APSInt::isSameValue(*CA, *CB);
  llvm::FoldingSetNodeID IA, IB;
  A->Profile(IA, Ctx, /*Canonical=*/true);
  B->Profile(IB, Ctx, /*Canonical=*/true);
  return IA == IB;
}

llvm::SmallVector<const DeclRefExpr *, 8> referencesTo(const Stmt *S,
                                                       const ValueDecl *V) {
  struct Collector : RecursiveASTVisitor<Collector> {
    const ValueDecl *V;
    llvm::SmallVector<const DeclRefExpr *, 8> Refs;
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      if (DRE->getDecl() == V)
        Refs.push_back(DRE);
      return true;
    }
  } C;
  C.V = V;
  C.TraverseStmt(const_cast<Stmt *>(S));
  return std::move(C.Refs);
}

const FunctionDecl *enclosingFunction(ASTContext &Ctx, const Stmt &S) {
  DynTypedNodeList Parents = Ctx.getParents(S);
  while (!Parents.empty()) {
    const DynTypedNode &P = Parents[0];
    if (const auto *FD = P.get<FunctionDecl>())
      return FD;
    if (const auto *LE = P.get<LambdaExpr>())
      return LE->getCallOperator();
    Parents = Ctx.getParents(P);
  }
  return nullptr;
}

std::optional<DynTypedNode> parentAboveCasts(ASTContext &Ctx, const Expr *E,
                                             bool StopAtLoad) {
  const Stmt *Cur = E;
  DynTypedNodeList P = Ctx.getParents(*Cur);
  while (!P.empty() &&
         (P[0].get<ImplicitCastExpr>() || P[0].get<ParenExpr>())) {
    if (const auto *ICE = P[0].get<ImplicitCastExpr>();
        StopAtLoad && ICE && ICE->getCastKind() == CK_LValueToRValue)
      break;
    Cur = P[0].get<Stmt>();
    P = Ctx.getParents(*Cur);
  }
  if (P.empty())
    return std::nullopt;
  return P[0];
}

namespace {

class UserCodeScope : public ast_matchers::MatchFinder::MatchCallback {
public:
  void run(const ast_matchers::MatchFinder::MatchResult &Result) override {
    ASTContext &Ctx = *Result.Context;
    std::vector<Decl *> Scope = Ctx.getTraversalScope();
    TranslationUnitDecl *TU = Ctx.getTranslationUnitDecl();
    // Already limited (by another check, or by a front end such as clangd
    // that sets its own scope).
    if (Scope.size() != 1 || Scope.front() != TU)
      return;
    const SourceManager &SM = Ctx.getSourceManager();
    std::vector<Decl *> User;
    // The declarations parsed here, not those of a precompiled prelude:
    // decls() would first deserialize every top-level declaration of the
    // CUDA headers from the PCH (tens of thousands, about 5% of a small
    // file's run) only to drop them as system-header code. Without a PCH
    // both give the same list. A precompiled include prefix that holds the
    // build's own headers holds user code: then all are loaded
    // (userCodeDecls).
    for (Decl *D : userCodeDecls(TU)) {
      SourceLocation Loc = SM.getExpansionLoc(D->getLocation());
      if (Loc.isValid() && !SM.isInSystemHeader(Loc))
        User.push_back(D);
    }
    Ctx.setTraversalScope(User);
  }
};

} // namespace

static bool UserHeadersPrecompiled = false;

void setUserHeadersPrecompiled(bool Yes) { UserHeadersPrecompiled = Yes; }
bool userHeadersPrecompiled() { return UserHeadersPrecompiled; }

DeclContext::decl_range userCodeDecls(const DeclContext *DC) {
  return UserHeadersPrecompiled ? DC->decls() : DC->noload_decls();
}

void limitParentMapToUserCode(ast_matchers::MatchFinder *Finder) {
  // The traversal starts at the translation unit, so this runs before any
  // check's callback can ask for a parent. The matching that follows visits
  // the limited scope too (RecursiveASTVisitor's TranslationUnitDecl
  // traversal reads the scope after this callback has set it).
  static UserCodeScope Callback;
  Finder->addMatcher(ast_matchers::translationUnitDecl(), &Callback);
}

} // namespace clang::tidy::cuda
