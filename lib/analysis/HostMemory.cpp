//===--- HostMemory.cpp - cuda-lint ---------------------------------------===//

#include "cudalint/analysis/HostMemory.h"
#include "cudalint/analysis/DeviceCode.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSwitch.h"

namespace clang::tidy::cuda {

namespace {

constexpr int MaxDepth = 12;

bool inSystemHeader(const Decl *D, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  return SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation()));
}

/// A C library or `std` function declared in a system header, by name.
bool isLibraryFunction(const FunctionDecl *FD, const ASTContext &Ctx) {
  if (!FD || !FD->getIdentifier() || !inSystemHeader(FD, Ctx))
    return false;
  const DeclContext *DC = FD->getDeclContext()->getRedeclContext();
  return DC->isTranslationUnit() || DC->isStdNamespace() ||
         (isa<LinkageSpecDecl>(FD->getDeclContext()));
}

/// The class template a record type is a specialisation of, when it is
/// declared in namespace std: "vector", "array".
StringRef stdTemplateName(QualType T) {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
  if (!Spec || !Spec->getDeclContext()->getRedeclContext()->isStdNamespace() ||
      !Spec->getIdentifier())
    return "";
  return Spec->getName();
}

/// A `std::vector` with the default allocator: its storage comes from
/// `operator new`, pageable.
bool isPlainStdVector(QualType T) {
  if (stdTemplateName(T) != "vector")
    return false;
  const auto *Spec = cast<ClassTemplateSpecializationDecl>(
      T.getNonReferenceType()->getAsCXXRecordDecl());
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  if (Args.size() < 2 || Args[1].getKind() != TemplateArgument::Type)
    return false;
  return stdTemplateName(Args[1].getAsType()) == "allocator";
}

HostMemoryOrigin make(HostMemoryKind Kind, SourceLocation Where = {},
                      std::string What = "") {
  HostMemoryOrigin O;
  O.Kind = Kind;
  O.Where = Where;
  O.What = std::move(What);
  return O;
}

/// Merges the origin of another value the pointer may hold.
void merge(HostMemoryOrigin &Into, HostMemoryOrigin From, bool &First) {
  for (const ValueDecl *V : From.Vars)
    if (!llvm::is_contained(Into.Vars, V))
      Into.Vars.push_back(V);
  if (From.Kind == HostMemoryKind::Null)
    return;
  if (First) {
    First = false;
    Into.Kind = From.Kind;
    Into.Where = From.Where;
    Into.What = std::move(From.What);
    return;
  }
  if (Into.Kind != From.Kind)
    Into.Kind = HostMemoryKind::Unknown;
}

/// The kind of memory a variable (an array, an object whose address is
/// taken) lives in.
HostMemoryOrigin objectOrigin(const VarDecl *V, SourceLocation Where) {
  if (V->hasAttr<CUDADeviceAttr>() || V->hasAttr<CUDAConstantAttr>() ||
      V->hasAttr<CUDASharedAttr>())
    return make(V->hasAttr<HIPManagedAttr>() ? HostMemoryKind::Managed
                                             : HostMemoryKind::Device);
  if (V->hasAttr<HIPManagedAttr>())
    return make(HostMemoryKind::Managed);
  if (isa<ParmVarDecl>(V) || V->getType()->isReferenceType())
    return make(HostMemoryKind::Unknown);
  std::string What =
      (V->hasLocalStorage() ? "the stack "
       : V->isStaticLocal() ? "the static "
                            : "the global ") +
      std::string(V->getType()->isArrayType() ? "array '" : "object '") +
      V->getName().str() + "'";
  HostMemoryOrigin O = make(HostMemoryKind::Pageable, Where, What);
  O.Vars.push_back(V);
  return O;
}

class Tracer {
public:
  Tracer(const FunctionDecl *F, ASTContext &Ctx) : F(F), Ctx(Ctx) {}

  HostMemoryOrigin origin(const Expr *E, int Depth) {
    if (!E || Depth > MaxDepth)
      return make(HostMemoryKind::Unknown);
    E = E->IgnoreParenCasts();
    if (E->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull))
      return make(HostMemoryKind::Null);
    if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
      return origin(EWC->getSubExpr(), Depth + 1);
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->getOpcode() == BO_Comma || BO->getOpcode() == BO_Assign)
        return origin(BO->getRHS(), Depth + 1);
      if (BO->isAdditiveOp() && BO->getType()->isPointerType())
        return origin(BO->getLHS()->getType()->isPointerType() ? BO->getLHS()
                                                               : BO->getRHS(),
                      Depth + 1);
      return make(HostMemoryKind::Unknown);
    }
    if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
      HostMemoryOrigin O;
      bool First = true;
      merge(O, origin(CO->getTrueExpr(), Depth + 1), First);
      merge(O, origin(CO->getFalseExpr(), Depth + 1), First);
      if (First)
        O.Kind = HostMemoryKind::Null;
      return O;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->isIncrementDecrementOp())
        return origin(UO->getSubExpr(), Depth + 1);
      if (UO->getOpcode() != UO_AddrOf)
        return make(HostMemoryKind::Unknown);
      return addressOf(UO->getSubExpr(), Depth + 1);
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      if (!V)
        return make(HostMemoryKind::Unknown);
      if (V->getType()->isArrayType())
        return objectOrigin(V, V->getLocation());
      if (!V->getType()->isPointerType() || isa<ParmVarDecl>(V) ||
          !V->hasLocalStorage())
        return make(HostMemoryKind::Unknown);
      return variable(V, Depth + 1);
    }
    if (const auto *New = dyn_cast<CXXNewExpr>(E)) {
      // The global (replaceable) operator new: pageable. A class's own
      // operator new, a placement new or a user replacement may not be.
      const FunctionDecl *Op = New->getOperatorNew();
      if (New->getNumPlacementArgs() != 0 || !Op || !inSystemHeader(Op, Ctx))
        return make(HostMemoryKind::Unknown);
      return make(HostMemoryKind::Pageable, New->getBeginLoc(),
                  New->isArray() ? "the memory from 'new[]'"
                                 : "the memory from 'new'");
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      const CXXMethodDecl *M = MC->getMethodDecl();
      const Expr *Obj = MC->getImplicitObjectArgument();
      if (!M || !M->getIdentifier() || M->getName() != "data" || !Obj)
        return make(HostMemoryKind::Unknown);
      return container(Obj, Depth + 1);
    }
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *FD = Call->getDirectCallee();
      if (!isLibraryFunction(FD, Ctx))
        return make(HostMemoryKind::Unknown);
      StringRef Name = FD->getName();
      static const StringRef Allocators[] = {
          "malloc", "calloc",   "realloc", "aligned_alloc",
          "valloc", "memalign", "pvalloc"};
      if (llvm::is_contained(Allocators, Name))
        return make(HostMemoryKind::Pageable, Call->getBeginLoc(),
                    ("the memory from '" + Name + "'").str());
      return make(HostMemoryKind::Unknown);
    }
    return make(HostMemoryKind::Unknown);
  }

private:
  /// `&E`: an element of an array or a container, or an object.
  HostMemoryOrigin addressOf(const Expr *E, int Depth) {
    E = E->IgnoreParens();
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
      return origin(ASE->getBase(), Depth + 1);
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
        Op && Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2)
      return container(Op->getArg(0), Depth + 1);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
        return objectOrigin(V, V->getLocation());
    return make(HostMemoryKind::Unknown);
  }

  /// The storage of a container object: `v.data()`, `&v[i]`.
  HostMemoryOrigin container(const Expr *Obj, int Depth) {
    Obj = Obj->IgnoreParenImpCasts();
    QualType T = Obj->getType();
    const auto *DRE = dyn_cast<DeclRefExpr>(Obj);
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (isPlainStdVector(T)) {
      HostMemoryOrigin O = make(
          HostMemoryKind::Pageable, V ? V->getLocation() : Obj->getBeginLoc(),
          V ? ("the storage of the std::vector '" + V->getName() + "'").str()
            : "the storage of a std::vector");
      if (V)
        O.Vars.push_back(V);
      return O;
    }
    if (stdTemplateName(T) == "array" && V)
      return objectOrigin(V, V->getLocation());
    return make(HostMemoryKind::Unknown);
  }

  /// Every value the local pointer \p V is given in the function.
  HostMemoryOrigin variable(const VarDecl *V, int Depth) {
    if (!Visiting.insert(V).second)
      return make(HostMemoryKind::Null); // A cycle adds nothing.
    HostMemoryOrigin O;
    O.Vars.push_back(V);
    bool First = true;
    if (const Expr *Init = V->getInit())
      merge(O, origin(Init, Depth + 1), First);
    if (F && F->getBody())
      for (const DeclRefExpr *Use : uses(V)) {
        merge(O, use(Use, Depth + 1), First);
        if (O.Kind == HostMemoryKind::Unknown)
          break;
      }
    Visiting.erase(V);
    if (First)
      O.Kind = HostMemoryKind::Null;
    return O;
  }

  llvm::SmallVector<const DeclRefExpr *, 8> uses(const VarDecl *V) {
    return referencesTo(F->getBody(), V);
  }

  /// What one use of a local pointer variable says of its value: nothing
  /// (a read, an increment), a value assigned to it, an allocation call
  /// that its address is passed to, or unknown.
  HostMemoryOrigin use(const DeclRefExpr *Use, int Depth) {
    const Expr *Cur = Use;
    while (true) {
      DynTypedNodeList Parents = Ctx.getParents(*Cur);
      if (Parents.empty())
        return make(HostMemoryKind::Unknown);
      if (Parents[0].get<UnaryExprOrTypeTraitExpr>())
        return make(HostMemoryKind::Null); // sizeof
      const auto *P = Parents[0].get<Expr>();
      if (!P)
        return make(HostMemoryKind::Unknown);
      if (isa<ParenExpr>(P)) {
        Cur = P;
        continue;
      }
      if (const auto *Cast = dyn_cast<ImplicitCastExpr>(P);
          Cast && Cast->getCastKind() == CK_LValueToRValue)
        return make(HostMemoryKind::Null);
      if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
        if (BO->getLHS()->IgnoreParens() != Cur)
          return make(HostMemoryKind::Unknown);
        if (BO->getOpcode() == BO_Assign)
          return origin(BO->getRHS(), Depth + 1);
        if (BO->getOpcode() == BO_AddAssign || BO->getOpcode() == BO_SubAssign)
          return make(HostMemoryKind::Null); // Same allocation.
        return make(HostMemoryKind::Unknown);
      }
      if (const auto *UO = dyn_cast<UnaryOperator>(P)) {
        if (UO->isIncrementDecrementOp())
          return make(HostMemoryKind::Null);
        if (UO->getOpcode() == UO_AddrOf)
          return allocatedThrough(UO);
      }
      return make(HostMemoryKind::Unknown);
    }
  }

  /// `&p` passed to an allocation function: what it allocates.
  HostMemoryOrigin allocatedThrough(const UnaryOperator *AddrOf) {
    const Expr *Cur = AddrOf;
    while (true) {
      DynTypedNodeList Parents = Ctx.getParents(*Cur);
      const auto *P = Parents.empty() ? nullptr : Parents[0].get<Expr>();
      if (P && (isa<ParenExpr>(P) || isa<CastExpr>(P))) {
        Cur = P;
        continue;
      }
      const auto *Call = dyn_cast_or_null<CallExpr>(P);
      const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
      if (!FD || !FD->getIdentifier() || Call->getNumArgs() == 0 ||
          Call->getArg(0)->IgnoreParenCasts() != AddrOf->IgnoreParenCasts() ||
          !inSystemHeader(FD, Ctx))
        return make(HostMemoryKind::Unknown);
      HostMemoryKind Kind =
          llvm::StringSwitch<HostMemoryKind>(FD->getName())
              .Cases({"cudaMallocHost", "cudaHostAlloc"},
                     HostMemoryKind::Pinned)
              .Case("cudaMallocManaged", HostMemoryKind::Managed)
              .Cases({"cudaMalloc", "cudaMallocPitch", "cudaMallocAsync",
                      "cudaMallocFromPoolAsync"},
                     HostMemoryKind::Device)
              .Case("posix_memalign", HostMemoryKind::Pageable)
              .Default(HostMemoryKind::Unknown);
      return make(Kind, Call->getBeginLoc(),
                  ("the memory from '" + FD->getName() + "'").str());
    }
  }

  const FunctionDecl *F;
  ASTContext &Ctx;
  llvm::SmallPtrSet<const VarDecl *, 8> Visiting;
};

} // namespace

HostMemoryOrigin hostMemoryOrigin(const Expr *E, const FunctionDecl *F,
                                  ASTContext &Ctx) {
  Tracer T(F, Ctx);
  return T.origin(E, 0);
}

} // namespace clang::tidy::cuda
