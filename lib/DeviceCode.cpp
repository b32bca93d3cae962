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

} // namespace clang::tidy::cuda
