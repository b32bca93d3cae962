//===--- DeviceCode.cpp - cuda-lint ---------------------------------------===//

#include "cudalint/DeviceCode.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ParentMapContext.h"

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
  // Clang marks constexpr functions (and functions in system headers)
  // implicitly __host__ __device__; those are host code as written. Lambdas
  // inside device code are implicitly device code and stay so.
  if (Device->isImplicit() && FD->isConstexpr()) {
    const auto *MD = dyn_cast<CXXMethodDecl>(FD);
    return MD && MD->getParent()->isLambda();
  }
  return true;
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
    for (Decl *D : TU->decls()) {
      SourceLocation Loc = SM.getExpansionLoc(D->getLocation());
      if (Loc.isValid() && !SM.isInSystemHeader(Loc))
        User.push_back(D);
    }
    Ctx.setTraversalScope(User);
  }
};

} // namespace

void limitParentMapToUserCode(ast_matchers::MatchFinder *Finder) {
  // The traversal starts at the translation unit, so this runs before any
  // check's callback can ask for a parent. The match traversal itself goes on
  // over the whole translation unit (it iterates a copy of the old scope).
  static UserCodeScope Callback;
  Finder->addMatcher(ast_matchers::translationUnitDecl(), &Callback);
}

} // namespace clang::tidy::cuda
