//===--- ReadOnlyPointer.cpp - cuda-lint ----------------------------------===//
//
// Kepler tuning guide 1.4.4.3: data read through the read-only data cache
// must be read-only for the lifetime of the kernel. This analysis proves it
// for a pointer parameter from the kernel's body and its device callees.
//
//===----------------------------------------------------------------------===//

#include "cudalint/analysis/ReadOnlyPointer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include <functional>

namespace clang::tidy::cuda {

namespace {

/// Every reference to a variable in one function body.
class RefCollector : public RecursiveASTVisitor<RefCollector> {
public:
  llvm::DenseMap<const VarDecl *, SmallVector<const DeclRefExpr *, 4>> Refs;
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (const auto *V = dyn_cast<VarDecl>(E->getDecl()))
      Refs[V].push_back(E);
    return true;
  }
};

bool pointsToConst(QualType T) {
  if (const auto *PT = T->getAs<PointerType>())
    return PT->getPointeeType().isConstQualified();
  if (T->isReferenceType())
    return T.getNonReferenceType().isConstQualified();
  return false;
}

/// Follows one pointer parameter through one function body.
class Walker {
public:
  Walker(ASTContext &Ctx, ReadOnlyPointerAnalysis &Analysis,
         const FunctionDecl *FD, ReadOnlyResult &R)
      : Ctx(Ctx), Analysis(Analysis), FD(FD), R(R) {}

  void run(const ParmVarDecl *P) {
    RefCollector C;
    C.TraverseStmt(FD->getBody());
    SmallVector<const VarDecl *, 4> Work{P};
    llvm::DenseSet<const VarDecl *> Seen{P};
    while (!Work.empty() && R.ReadOnly) {
      const VarDecl *V = Work.pop_back_val();
      for (const DeclRefExpr *Ref : C.Refs.lookup(V)) {
        SmallVector<const VarDecl *, 2> NewAliases;
        if (!pointerUse(Ref, NewAliases))
          return;
        for (const VarDecl *A : NewAliases)
          if (Seen.insert(A).second)
            Work.push_back(A);
      }
    }
  }

private:
  /// Ordinary code accesses the memory at \p At.
  void plainAccess(const Stmt *At) {
    R.PlainAccess = true;
    if (!R.PlainAccessInLoop && At && inLoop(At))
      R.PlainAccessInLoop = true;
  }

  /// An explicit load instruction reads the memory at \p At.
  void explicitLoad(const Stmt *At) {
    R.ExplicitLoad = true;
    if (!R.ExplicitLoadInLoop && At && inLoop(At))
      R.ExplicitLoadInLoop = true;
  }

  /// Whether \p S is inside a loop of the analysed function.
  bool inLoop(const Stmt *S) {
    DynTypedNode N = DynTypedNode::create(*S);
    for (unsigned Depth = 0; Depth < 256; ++Depth) {
      DynTypedNodeList Parents = Ctx.getParents(N);
      if (Parents.empty())
        return false;
      const Stmt *P = Parents[0].get<Stmt>();
      if (!P)
        return false;
      if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(P))
        return true;
      N = Parents[0];
    }
    return false;
  }

  void blockConst(const Twine &Why, SourceLocation Loc) {
    if (R.ConstBlocker.empty()) {
      R.ConstBlocker = Why.str();
      R.ConstBlockerLoc = Loc;
    }
  }

  void addAlias(const VarDecl *V, SmallVectorImpl<const VarDecl *> &Aliases) {
    Aliases.push_back(V);
    if (!isa<ParmVarDecl>(V) && !pointsToConst(V->getType()) &&
        !llvm::is_contained(R.NonConstLocals, V))
      R.NonConstLocals.push_back(V);
  }

  bool fail(const Twine &Why, SourceLocation Loc) {
    if (R.ReadOnly) {
      R.ReadOnly = false;
      R.Reason = Why.str();
      R.Where = Loc;
    }
    return false;
  }

  /// The parent of \p N. An initialiser's syntactic form lists it as a
  /// child without the implicit conversions of the semantic form: prefer the
  /// other parent (`Val v{p[0]}`: the lvalue-to-rvalue conversion).
  DynTypedNode parent(const DynTypedNode &N) {
    DynTypedNodeList Parents = Ctx.getParents(N);
    for (const DynTypedNode &P : Parents)
      if (!P.get<InitListExpr>())
        return P;
    return Parents.empty() ? DynTypedNode() : Parents[0];
  }

  static StringRef calleeName(const FunctionDecl *F) {
    return F && F->getIdentifier() ? F->getName() : StringRef();
  }

  /// \p E evaluates to the tracked pointer (or a pointer derived from it).
  bool pointerUse(const Expr *E, SmallVectorImpl<const VarDecl *> &Aliases) {
    DynTypedNode PN = parent(DynTypedNode::create(*E));
    SourceLocation Loc = E->getExprLoc();
    if (const auto *VD = PN.get<VarDecl>()) {
      QualType T = VD->getType();
      if (T->isReferenceType())
        return fail("bound to a reference", Loc);
      if (T->isPointerType() && VD->hasLocalStorage())
        addAlias(VD, Aliases);
      else if (T->isPointerType())
        return fail("stored in a non-local variable", Loc);
      return true;
    }
    const auto *P = PN.get<Stmt>();
    if (!P)
      return fail("used outside a statement", Loc);
    if (isa<ParenExpr>(P))
      return pointerUse(cast<Expr>(P), Aliases);
    if (const auto *Cast = dyn_cast<CastExpr>(P)) {
      QualType To = Cast->getType();
      if (Cast->getCastKind() == CK_PointerToBoolean)
        return true;
      if (!To->isPointerType())
        return fail("converted to a non-pointer type", Loc);
      if (isa<ExplicitCastExpr>(Cast) && pointsToConst(E->getType()) &&
          !pointsToConst(To))
        return fail("its constness is cast away", Cast->getBeginLoc());
      if (isa<ExplicitCastExpr>(Cast) && !pointsToConst(To))
        blockConst("it is cast to a non-const pointer", Cast->getBeginLoc());
      return pointerUse(Cast, Aliases);
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (BO->isAdditiveOp())
        return BO->getType()->isPointerType() ? pointerUse(BO, Aliases) : true;
      if (BO->isComparisonOp() || BO->isLogicalOp())
        return true;
      if (BO->getOpcode() == BO_Comma)
        return BO->getRHS() == E ? pointerUse(BO, Aliases) : true;
      if (BO->isAssignmentOp() && BO->getLHS() == E)
        // The pointer variable itself is advanced (`*(p += 2) = 0` writes
        // through it) or reassigned (its new value is followed from the
        // right-hand side when that is tracked).
        return BO->getOpcode() == BO_AddAssign ||
                       BO->getOpcode() == BO_SubAssign
                   ? pointerUse(BO, Aliases)
                   : true;
      if (BO->getOpcode() == BO_Assign) {
        const auto *LHS = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens());
        const auto *V = LHS ? dyn_cast<VarDecl>(LHS->getDecl()) : nullptr;
        if (V && V->hasLocalStorage()) {
          addAlias(V, Aliases);
          return pointsToConst(BO->getType()) ? true : pointerUse(BO, Aliases);
        }
        return fail("stored to memory", BO->getOperatorLoc());
      }
      return fail("used in an unsupported operation", BO->getOperatorLoc());
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(P)) {
      switch (UO->getOpcode()) {
      case UO_Deref:
        return lvalueUse(UO, UO, Aliases);
      case UO_PreInc:
      case UO_PreDec:
      case UO_PostInc:
      case UO_PostDec:
        // The pointer advances, and the expression's value (`*p++`,
        // `(++p)[0]`) still points into the same memory.
        return pointerUse(UO, Aliases);
      case UO_LNot:
        return true;
      default:
        return fail("its address is taken", UO->getOperatorLoc());
      }
    }
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(P))
      return lvalueUse(ASE, ASE, Aliases);
    if (const auto *ME = dyn_cast<MemberExpr>(P))
      return lvalueUse(ME, nullptr, Aliases);
    if (const auto *CO = dyn_cast<ConditionalOperator>(P))
      return CO->getCond() == E ? true : pointerUse(CO, Aliases);
    if (const auto *Call = dyn_cast<CallExpr>(P))
      return callArgument(Call, E);
    if (isa<ReturnStmt>(P)) {
      if (pointsToConst(FD->getReturnType()))
        return true;
      return fail("returned as a non-const pointer", Loc);
    }
    if (const auto *Asm = dyn_cast<GCCAsmStmt>(P))
      if (isLoadOnlyAsm(Asm, E)) {
        explicitLoad(Asm);
        return true;
      }
    if (isa<AsmStmt>(P))
      return fail("an inline asm operand", Loc);
    if (!isa<Expr>(P))
      return true; // A condition, or a discarded value.
    return fail("used in a way the analysis does not follow", Loc);
  }

  /// `nvcuda::wmma::load_matrix_sync(frag, p, ldm[, layout])`: the PTX
  /// instruction `wmma.load.{a,b,c}.sync.aligned...global`, an explicit load
  /// without a non-coherent (read-only cache) form. nvcc proves nothing
  /// about a pointer its intrinsic takes: with `const __restrict__`, the
  /// other loads of the pointer stay ld.global too, and the PTX is
  /// byte-identical (nvcc 13.0, sm_90).
  static bool isWmmaFragmentLoad(const FunctionDecl *Callee) {
    if (calleeName(Callee) != "load_matrix_sync")
      return false;
    const auto *NS = dyn_cast<NamespaceDecl>(Callee->getDeclContext());
    return NS && NS->getIdentifier() && NS->getName() == "wmma";
  }

  /// Whether \p Operand is an input of \p Asm whose instructions access
  /// memory only by loads (`ld.global.cs.f32 %0, [%1];`): the pointer is
  /// read there, by the instruction written out.
  static bool isLoadOnlyAsm(const GCCAsmStmt *Asm, const Expr *Operand) {
    bool IsInput = false;
    for (unsigned I = 0, N = Asm->getNumInputs(); I != N; ++I)
      IsInput |= Asm->getInputExpr(I)->IgnoreParenImpCasts() ==
                 Operand->IgnoreParenImpCasts();
    if (!IsInput || Asm->getNumClobbers() != 0)
      return false;
    const StringLiteral *Str = dyn_cast<StringLiteral>(Asm->getAsmStringExpr());
    if (!Str)
      return false;
    bool AnyLoad = false;
    SmallVector<StringRef, 8> Instructions;
    Str->getString().split(Instructions, ';');
    for (StringRef Inst : Instructions) {
      Inst = Inst.trim();
      // A predicate guard (`@p ld...`) and braces of a scope.
      Inst = Inst.ltrim("{} \t\n");
      if (Inst.starts_with("@"))
        Inst = Inst.drop_until([](char C) { return C == ' ' || C == '\t'; })
                   .trim();
      if (Inst.empty() || Inst.starts_with(".")) // `.reg .f32 t;`
        continue;
      StringRef Op = Inst.take_until(
          [](char C) { return C == ' ' || C == '\t' || C == '.'; });
      if (Op == "ld" || Op == "ldu") {
        AnyLoad = true;
        continue;
      }
      // Register-only instructions; anything with a memory operand or a
      // side effect (st, atom, red, cp, prefetch, ...) is not a plain read.
      if (Inst.contains('['))
        return false;
      if (!llvm::is_contained({"mov", "cvt", "cvta", "add", "sub", "mul", "mad",
                               "and", "or", "xor", "shl", "shr"},
                              Op))
        return false;
    }
    return AnyLoad;
  }

  /// \p L is an lvalue of memory reached through the tracked pointer.
  bool lvalueUse(const Expr *L, const Expr *Element,
                 SmallVectorImpl<const VarDecl *> &Aliases) {
    // `p[i].get()`, `p->get()`: the callee of a member call.
    if (const auto *ME = dyn_cast<MemberExpr>(L))
      if (const auto *M = dyn_cast<CXXMethodDecl>(ME->getMemberDecl())) {
        plainAccess(L);
        return M->isConst() || M->isStatic() ||
               fail("used by a non-const member function", L->getExprLoc());
      }
    DynTypedNode PN = parent(DynTypedNode::create(*L));
    SourceLocation Loc = L->getExprLoc();
    // Ordinary code accesses the memory, unless the lvalue only passes on
    // (parentheses, a member, its address or decayed pointer taken).
    {
      const auto *PS = PN.get<Stmt>();
      const auto *UO = dyn_cast_or_null<UnaryOperator>(PS);
      const auto *IC = dyn_cast_or_null<ImplicitCastExpr>(PS);
      if (!(isa_and_nonnull<ParenExpr, MemberExpr>(PS) ||
            (UO && UO->getOpcode() == UO_AddrOf) ||
            (IC && IC->getCastKind() != CK_LValueToRValue)))
        plainAccess(L);
    }
    if (const auto *VD = PN.get<VarDecl>()) {
      if (VD->getType()->isReferenceType() &&
          !VD->getType().getNonReferenceType().isConstQualified())
        return fail("bound to a non-const reference", Loc);
      return true;
    }
    const auto *P = PN.get<Stmt>();
    if (!P)
      return fail("used outside a statement", Loc);
    if (isa<ParenExpr>(P))
      return lvalueUse(cast<Expr>(P), Element, Aliases);
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(P)) {
      if (Cast->getCastKind() == CK_LValueToRValue) {
        if (Element && !llvm::is_contained(R.Loads, Element))
          R.Loads.push_back(Element);
        return true;
      }
      if (Cast->getCastKind() == CK_ArrayToPointerDecay) {
        return pointerUse(Cast, Aliases);
      }
      return lvalueUse(Cast, Element, Aliases);
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (BO->isAssignmentOp() && BO->getLHS() == L)
        return fail("written", BO->getOperatorLoc());
      if (BO->getOpcode() == BO_Comma)
        return true;
      return fail("used in an unsupported operation", BO->getOperatorLoc());
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(P)) {
      if (UO->isIncrementDecrementOp())
        return fail("incremented or decremented", UO->getOperatorLoc());
      if (UO->getOpcode() == UO_AddrOf) {
        // `float *q = &p[i]`: q is followed like any other alias.
        return pointerUse(UO, Aliases);
      }
      return true;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(P))
      return lvalueUse(ME, Element, Aliases);
    if (const auto *Asm = dyn_cast<GCCAsmStmt>(P)) {
      for (unsigned I = 0, N = Asm->getNumOutputs(); I != N; ++I)
        if (Asm->getOutputExpr(I) == L)
          return fail("an inline asm output", Loc);
      return true;
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(P)) {
      const CXXMethodDecl *M = MC->getMethodDecl();
      if (MC->getImplicitObjectArgument() == L && M && !M->isConst())
        return fail("used by a non-const member function", Loc);
      if (MC->getImplicitObjectArgument() == L)
        return true;
    }
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(P)) {
      if (OC->isAssignmentOp() && OC->getArg(0) == L)
        return fail("written", OC->getOperatorLoc());
    }
    if (const auto *Call = dyn_cast<CallExpr>(P)) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      unsigned Offset = isa<CXXOperatorCallExpr>(Call) &&
                                isa_and_nonnull<CXXMethodDecl>(Callee)
                            ? 1
                            : 0;
      for (unsigned I = 0, N = Call->getNumArgs(); I != N; ++I) {
        if (Call->getArg(I) != L)
          continue;
        if (I == 0 && Offset) {
          if (!cast<CXXMethodDecl>(Callee)->isConst())
            return fail("used by a non-const member operator", Loc);
          return true;
        }
        if (!Callee || I - Offset >= Callee->getNumParams())
          return fail("passed by reference to an unknown function", Loc);
        QualType PT = Callee->getParamDecl(I - Offset)->getType();
        if (!PT->isReferenceType() || pointsToConst(PT))
          return true;
        return fail("passed by non-const reference", Loc);
      }
    }
    if (const auto *Ctor = dyn_cast<CXXConstructExpr>(P)) {
      // `Ref r(in[i]);`: a constructor that binds a non-const reference can
      // keep it and write through it later.
      const CXXConstructorDecl *CD = Ctor->getConstructor();
      if (CD && CD->isMoveConstructor())
        return fail("moved from", Loc);
      for (unsigned I = 0, N = Ctor->getNumArgs(); I != N; ++I) {
        if (Ctor->getArg(I) != L)
          continue;
        if (!CD || I >= CD->getNumParams())
          return fail("passed by reference to an unknown constructor", Loc);
        QualType PT = CD->getParamDecl(I)->getType();
        if (PT->isReferenceType() && !pointsToConst(PT))
          return fail("passed by non-const reference to a constructor", Loc);
      }
      return true;
    }
    if (const auto *ILE = dyn_cast<InitListExpr>(P)) {
      // An lvalue in an initialiser list binds a reference member
      // (`Agg a{in[i]};`): read-only only when that member is a reference
      // to const.
      const FieldDecl *Field = nullptr;
      if (const auto *RD = ILE->getType()->getAsCXXRecordDecl()) {
        unsigned Index = 0;
        while (Index != ILE->getNumInits() && ILE->getInit(Index) != L)
          ++Index;
        if (ILE->getInitializedFieldInUnion())
          Field = ILE->getInitializedFieldInUnion();
        else if (Index >= RD->getNumBases()) {
          unsigned FieldIndex = Index - RD->getNumBases();
          for (const FieldDecl *F : RD->fields()) {
            if (F->isUnnamedBitField())
              continue;
            if (FieldIndex-- == 0) {
              Field = F;
              break;
            }
          }
        }
      }
      if (Field && Field->getType()->isReferenceType() &&
          pointsToConst(Field->getType()))
        return true;
      return fail("bound to a non-const reference member", Loc);
    }
    if (isa<ReturnStmt>(P)) {
      QualType RT = FD->getReturnType();
      if (!RT->isReferenceType() || pointsToConst(RT))
        return true;
      return fail("returned as a non-const reference", Loc);
    }
    return fail("used in a way the analysis does not follow", Loc);
  }

  bool callArgument(const CallExpr *Call, const Expr *Arg) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    SourceLocation Loc = Arg->getExprLoc();
    if (!Callee)
      return fail("passed to an indirect call", Loc);
    StringRef Name = calleeName(Callee);
    if (Name.starts_with("atomic") || Name.starts_with("__nvvm_atom") ||
        Name.starts_with("__atomic") || Name.starts_with("__iAtomic") ||
        Name.starts_with("__fAtomic") || Name.starts_with("__ullAtomic") ||
        Name.starts_with("__uAtomic") || Name.starts_with("__dAtomic"))
      return fail("passed to atomic '" + Name + "'", Loc);
    unsigned Index = 0;
    for (unsigned N = Call->getNumArgs(); Index != N; ++Index)
      if (Call->getArg(Index) == Arg)
        break;
    if (Name == "memcpy" || Name == "memset" || Name == "memmove") {
      plainAccess(Call);
      R.PassedOn = true;
      return Index != 0 || fail("the destination of '" + Name + "'", Loc);
    }
    if (Name.starts_with("__ld")) {
      explicitLoad(Call);
      return true;
    }
    if (isWmmaFragmentLoad(Callee)) {
      explicitLoad(Call);
      if (!R.NcBlocker) {
        R.NcBlocker = Callee;
        R.NcBlockerLoc = Loc;
      }
      return true;
    }
    if (Name == "printf")
      return true;
    if (isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(Callee)) {
      if (Index == 0)
        return fail("used by a member operator", Loc);
      --Index;
    }
    if (Index >= Callee->getNumParams())
      return fail("passed to variadic function '" + Name + "'", Loc);
    const FunctionDecl *Def = nullptr;
    if (Callee->hasBody(Def) && Def->getBody() &&
        (Def->hasAttr<CUDADeviceAttr>() || Def->hasAttr<CUDAGlobalAttr>()) &&
        !Ctx.getSourceManager().isInSystemHeader(Def->getLocation())) {
      if (!R.NcBlocker && Analysis.isKeptRecursiveCall(Def)) {
        R.NcBlocker = Def;
        R.NcBlockerLoc = Loc;
      }
      const ReadOnlyResult &Sub =
          Analysis.analyze(Def, Def->getParamDecl(Index));
      if (Sub.PlainAccess)
        plainAccess(Call);
      R.PlainAccessInLoop |= Sub.PlainAccessInLoop;
      R.PassedOn = true;
      if (Sub.ExplicitLoad)
        explicitLoad(Call);
      R.ExplicitLoadInLoop |= Sub.ExplicitLoadInLoop;
      if (!R.NcBlocker && Sub.NcBlocker) {
        R.NcBlocker = Sub.NcBlocker;
        R.NcBlockerLoc = Loc;
      }
      if (Sub.ReadOnly) {
        if (!pointsToConst(Def->getParamDecl(Index)->getType()) &&
            llvm::none_of(R.NonConstCallees,
                          [&](const ReadOnlyResult::Callee &C) {
                            return C.Definition == Def && C.Index == Index;
                          }))
          R.NonConstCallees.push_back({Def, Index, Loc});
        return true;
      }
      if (R.ReadOnly) {
        R.ReadOnly = false;
        R.Reason =
            ("passed to '" + Name + "', where it is " + Sub.Reason).str();
        R.Where = Sub.Where;
      }
      return false;
    }
    // A callee that is not analysed reads it in ways not seen here.
    plainAccess(Call);
    R.PassedOn = true;
    if (pointsToConst(Callee->getParamDecl(Index)->getType()))
      return true;
    return fail("passed to '" + Name + "', whose body is not visible", Loc);
  }

  ASTContext &Ctx;
  ReadOnlyPointerAnalysis &Analysis;
  const FunctionDecl *FD;
  ReadOnlyResult &R;
};

} // namespace

const ReadOnlyResult &
ReadOnlyPointerAnalysis::analyze(const FunctionDecl *FD,
                                 const ParmVarDecl *Param) {
  auto It = Cache.find(Param);
  if (It != Cache.end())
    return It->second;
  static const ReadOnlyResult Optimistic;
  if (InProgress.lookup(Param))
    return Optimistic; // Recursion: judged by the other uses.
  InProgress[Param] = true;
  ReadOnlyResult R;
  if (!FD->getBody()) {
    R.ReadOnly = false;
    R.Reason = "in a function whose body is not visible";
    R.Where = FD->getLocation();
  } else {
    Walker(Ctx, *this, FD, R).run(Param);
  }
  InProgress.erase(Param);
  return Cache[Param] = std::move(R);
}

namespace {

/// Whether the store target \p E is one of the function's own locals: a
/// local variable (not a reference, not `__shared__`), or an element or
/// member of a local array or struct. Stores to those are not memory effects
/// of the function (LLVM keeps them in its own stack frame).
bool isOwnLocal(const Expr *E) {
  for (int Depth = 0; E && Depth < 16; ++Depth) {
    E = E->IgnoreParenImpCasts();
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (ME->isArrow() || ME->getMemberDecl()->getType()->isReferenceType())
        return false;
      E = ME->getBase();
      continue;
    }
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
      const Expr *Base = ASE->getBase()->IgnoreParenImpCasts();
      if (!Base->getType()->isArrayType())
        return false;
      E = Base;
      continue;
    }
    const auto *Ref = dyn_cast<DeclRefExpr>(E);
    const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    return V && V->hasLocalStorage() && !V->getType()->isReferenceType() &&
           !V->hasAttr<CUDASharedAttr>();
  }
  return false;
}

/// Whether a call of \p Callee, a function without a body here or from a
/// system header, may write memory: atomics, printf, allocation, memory
/// copies, assertions and unknown functions do; the math and intrinsic
/// functions of the CUDA headers do not.
bool mayWriteOpaque(const FunctionDecl *Callee) {
  if (!Callee->getIdentifier())
    return true;
  StringRef Name = Callee->getName();
  if (Name.starts_with("atomic") || Name.starts_with("__nvvm_atom") ||
      Name.starts_with("__atomic") || Name.contains("Atomic") ||
      Name.contains("printf") || Name.contains("alloc") ||
      Name.contains("free") || Name.starts_with("mem") ||
      Name.contains("assert") || Name.starts_with("__st"))
    return true;
  const SourceManager &SM = Callee->getASTContext().getSourceManager();
  return !SM.isInSystemHeader(SM.getExpansionLoc(Callee->getLocation()));
}

/// Whether \p FD may write memory other than its own locals, itself or in
/// the user functions it calls (followed four calls deep; deeper counts as
/// a write).
bool mayWriteMemory(const FunctionDecl *FD,
                    llvm::SmallPtrSetImpl<const FunctionDecl *> &Visited,
                    unsigned Depth) {
  if (Depth > 4)
    return true;
  if (!Visited.insert(FD->getCanonicalDecl()).second)
    return false; // Already being scanned.
  struct Scan : RecursiveASTVisitor<Scan> {
    llvm::SmallPtrSetImpl<const FunctionDecl *> &Visited;
    unsigned Depth;
    bool Writes = false;
    Scan(llvm::SmallPtrSetImpl<const FunctionDecl *> &Visited, unsigned Depth)
        : Visited(Visited), Depth(Depth) {}
    bool store(const Expr *Target) {
      Writes |= !isOwnLocal(Target);
      return !Writes;
    }
    bool VisitBinaryOperator(BinaryOperator *BO) {
      return BO->isAssignmentOp() ? store(BO->getLHS()) : true;
    }
    bool VisitUnaryOperator(UnaryOperator *UO) {
      return UO->isIncrementDecrementOp() ? store(UO->getSubExpr()) : true;
    }
    bool VisitAsmStmt(AsmStmt *) { return !(Writes = true); }
    bool VisitCXXNewExpr(CXXNewExpr *) { return !(Writes = true); }
    bool VisitCXXDeleteExpr(CXXDeleteExpr *) { return !(Writes = true); }
    bool VisitCallExpr(CallExpr *Call) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (!Callee)
        return !(Writes = true); // An indirect call.
      if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call))
        if (Op->isAssignmentOp() && Op->getNumArgs() >= 1 &&
            !isOwnLocal(Op->getArg(0)))
          return !(Writes = true);
      const FunctionDecl *Def = nullptr;
      const SourceManager &SM = Callee->getASTContext().getSourceManager();
      if (Callee->hasBody(Def) && Def->getBody() &&
          !SM.isInSystemHeader(SM.getExpansionLoc(Def->getLocation())))
        Writes |= mayWriteMemory(Def, Visited, Depth + 1);
      else
        Writes |= mayWriteOpaque(Callee);
      return !Writes;
    }
  } S(Visited, Depth);
  S.TraverseStmt(FD->getBody());
  return S.Writes;
}

} // namespace

bool ReadOnlyPointerAnalysis::isKeptRecursiveCall(const FunctionDecl *FD) {
  if (!FD || !FD->getBody())
    return false;
  auto It = KeptRecursive.find(FD);
  if (It != KeptRecursive.end())
    return It->second;
  const FunctionDecl *Self = FD->getCanonicalDecl();
  bool ReturnsVoid = FD->getReturnType()->isVoidType();
  // Whether the statement \p S is the last thing the function does: the
  // last statement of its body, of a block or `if` branch that is, or one
  // followed by `return;`.
  std::function<bool(const Stmt *)> IsLast = [&](const Stmt *S) {
    DynTypedNodeList Parents = Ctx.getParents(*S);
    if (Parents.size() != 1)
      return false;
    if (Parents[0].get<FunctionDecl>())
      return true;
    const Stmt *P = Parents[0].get<Stmt>();
    if (const auto *CS = dyn_cast_or_null<CompoundStmt>(P)) {
      const Stmt *const *Pos = llvm::find(CS->body(), S);
      if (Pos == CS->body_end())
        return false;
      if (Pos + 1 == CS->body_end())
        return IsLast(CS);
      const auto *Ret = dyn_cast<ReturnStmt>(*(Pos + 1));
      return Ret && !Ret->getRetValue();
    }
    if (const auto *If = dyn_cast_or_null<IfStmt>(P))
      return If->getCond() != S && IsLast(If);
    return false;
  };
  // Whether the call \p Call is a tail call, which nvcc turns into a loop:
  // `return f(...);` (or an arm of a `?:` that is returned), or, in a void
  // function, a call statement that is the last thing the function does.
  auto IsTailCall = [&](const CallExpr *Call) {
    const Stmt *S = Call;
    for (int Depth = 0; Depth < 16; ++Depth) {
      DynTypedNodeList Parents = Ctx.getParents(*S);
      if (Parents.size() != 1)
        return false;
      const Stmt *P = Parents[0].get<Stmt>();
      if (!P)
        return false;
      if (isa<ReturnStmt>(P))
        return true;
      if (isa<ParenExpr, ExprWithCleanups>(P) ||
          (isa<ImplicitCastExpr>(P) &&
           cast<ImplicitCastExpr>(P)->getCastKind() == CK_NoOp)) {
        S = P;
        continue;
      }
      if (const auto *CO = dyn_cast<ConditionalOperator>(P)) {
        if (CO->getCond() == S)
          return false;
        S = P;
        continue;
      }
      if (isa<Expr>(P))
        return false;
      return ReturnsVoid && S == Call && IsLast(S);
    }
    return false;
  };
  struct Calls : RecursiveASTVisitor<Calls> {
    const FunctionDecl *Self;
    SmallVector<const CallExpr *, 4> Found;
    bool VisitCallExpr(CallExpr *Call) {
      if (const FunctionDecl *Callee = Call->getDirectCallee())
        if (Callee->getCanonicalDecl() == Self)
          Found.push_back(Call);
      return true;
    }
  } C;
  C.Self = Self;
  C.TraverseStmt(FD->getBody());
  // Whether the statement \p S is followed by `return V;`, directly or
  // at the end of the blocks and `if` branches that enclose it.
  std::function<bool(const Stmt *, const VarDecl *)> ReturnsNext =
      [&](const Stmt *S, const VarDecl *V) {
        DynTypedNodeList Parents = Ctx.getParents(*S);
        if (Parents.size() != 1)
          return false;
        const Stmt *P = Parents[0].get<Stmt>();
        if (const auto *CS = dyn_cast_or_null<CompoundStmt>(P)) {
          const Stmt *const *Pos = llvm::find(CS->body(), S);
          if (Pos == CS->body_end())
            return false;
          if (Pos + 1 == CS->body_end())
            return ReturnsNext(CS, V);
          const auto *Ret = dyn_cast<ReturnStmt>(*(Pos + 1));
          const auto *Ref = Ret && Ret->getRetValue()
                                ? dyn_cast<DeclRefExpr>(
                                      Ret->getRetValue()->IgnoreParenImpCasts())
                                : nullptr;
          return Ref && Ref->getDecl() == V;
        }
        if (const auto *If = dyn_cast_or_null<IfStmt>(P))
          return If->getCond() != S && ReturnsNext(If, V);
        return false;
      };
  // Whether the result of the call \p Call is accumulated into the
  // function's result by an associative operator: `return 1 + f(a) +
  // f(b);`, or `ans += f(a);` followed by `return ans;` (Eval, CalcMFFC).
  // nvcc's tail recursion elimination then turns one call into a loop with
  // an accumulator and keeps the other, and it no longer proves anything
  // about the pointer arguments (nvcc 13.0 -ptx): results stored into
  // locals or memory (`int v = f(a);`, minatoIsopRec, a void BuildSubgr)
  // leave the pointer's loads ld.global.nc.
  auto IsAccumulative = [](BinaryOperatorKind Op) {
    return Op == BO_Add || Op == BO_Mul || Op == BO_And || Op == BO_Or ||
           Op == BO_Xor || Op == BO_AddAssign || Op == BO_MulAssign ||
           Op == BO_AndAssign || Op == BO_OrAssign || Op == BO_XorAssign;
  };
  auto IsAccumulated = [&](const CallExpr *Call) {
    const Stmt *S = Call;
    bool Operand = false;
    for (int Depth = 0; Depth < 16; ++Depth) {
      DynTypedNodeList Parents = Ctx.getParents(*S);
      if (Parents.size() != 1)
        return false;
      const Stmt *P = Parents[0].get<Stmt>();
      if (!P)
        return false;
      if (isa<ReturnStmt>(P))
        return Operand;
      if (isa<ParenExpr, ImplicitCastExpr, ExprWithCleanups>(P)) {
        S = P;
        continue;
      }
      const auto *BO = dyn_cast<BinaryOperator>(P);
      if (!BO || !IsAccumulative(BO->getOpcode()))
        return false;
      if (BO->isCompoundAssignmentOp()) {
        const auto *Ref =
            dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
        const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
        return BO->getRHS() == S && V && V->hasLocalStorage() &&
               ReturnsNext(BO, V);
      }
      Operand = true;
      S = P;
    }
    return false;
  };
  unsigned Kept = llvm::count_if(
      C.Found, [&](const CallExpr *Call) { return !IsTailCall(Call); });
  bool Result = false;
  if (Kept >= 2 && llvm::any_of(C.Found, IsAccumulated)) {
    llvm::SmallPtrSet<const FunctionDecl *, 8> Visited;
    Result = mayWriteMemory(FD, Visited, 0);
  }
  return KeptRecursive[FD] = Result;
}

const ValueDecl *pointerRoot(const Expr *E) {
  for (int Depth = 0; E && Depth < 16; ++Depth) {
    E = E->IgnoreParenCasts();
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (!BO->isAdditiveOp())
        return nullptr;
      E = BO->getLHS()->getType()->isPointerType() ? BO->getLHS()
                                                   : BO->getRHS();
      continue;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->getOpcode() != UO_AddrOf)
        return nullptr;
      const Expr *Sub = UO->getSubExpr()->IgnoreParens();
      if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(Sub)) {
        E = ASE->getBase();
        continue;
      }
      if (const auto *DRE = dyn_cast<DeclRefExpr>(Sub))
        return DRE->getDecl(); // `&x` and `&x + 1` point into x.
      return nullptr;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      return ME->getMemberDecl();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      if (!V)
        return DRE->getDecl();
      if (!isa<ParmVarDecl>(V) && V->hasLocalStorage() && V->getInit() &&
          V->getType()->isPointerType() &&
          V->getInit()->IgnoreParenCasts()->getType()->isPointerType()) {
        // `float *b = a + n;`: b points into a's allocation.
        if (const ValueDecl *Root = pointerRoot(V->getInit()))
          return Root;
      }
      return V;
    }
    return nullptr;
  }
  return nullptr;
}

namespace {

/// The right-hand sides of `V = ...` in one function body.
class AssignmentCollector : public RecursiveASTVisitor<AssignmentCollector> {
public:
  explicit AssignmentCollector(const VarDecl *V) : V(V) {}
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->getOpcode() != BO_Assign)
      return true;
    const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens());
    if (DRE && DRE->getDecl() == V)
      Values.push_back(BO->getRHS());
    return true;
  }
  const VarDecl *V;
  SmallVector<const Expr *, 4> Values;
};

void collectRoots(const Expr *E, SmallVectorImpl<const ValueDecl *> &Roots,
                  llvm::SmallPtrSetImpl<const VarDecl *> &Visited,
                  unsigned Depth) {
  auto Add = [&](const ValueDecl *D) {
    if (D && !llvm::is_contained(Roots, D))
      Roots.push_back(D);
  };
  for (; E && Depth < 16; ++Depth) {
    E = E->IgnoreParenCasts();
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->getOpcode() == BO_Comma) {
        E = BO->getRHS();
        continue;
      }
      if (BO->getOpcode() == BO_Assign) {
        E = BO->getRHS();
        continue;
      }
      if (!BO->isAdditiveOp())
        return;
      E = BO->getLHS()->getType()->isPointerType() ? BO->getLHS()
                                                   : BO->getRHS();
      continue;
    }
    if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
      collectRoots(CO->getTrueExpr(), Roots, Visited, Depth + 1);
      E = CO->getFalseExpr();
      continue;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->isIncrementDecrementOp()) {
        E = UO->getSubExpr();
        continue;
      }
      if (UO->getOpcode() != UO_AddrOf)
        return;
      const Expr *Sub = UO->getSubExpr()->IgnoreParens();
      if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(Sub)) {
        E = ASE->getBase();
        continue;
      }
      if (const auto *DRE = dyn_cast<DeclRefExpr>(Sub))
        Add(DRE->getDecl());
      return;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      return Add(ME->getMemberDecl());
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    if (!DRE)
      return;
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    Add(DRE->getDecl());
    if (!V || isa<ParmVarDecl>(V) || !V->hasLocalStorage() ||
        !V->getType()->isPointerType() || !Visited.insert(V).second)
      return;
    if (V->getInit())
      collectRoots(V->getInit(), Roots, Visited, Depth + 1);
    const auto *FD = dyn_cast_or_null<FunctionDecl>(V->getDeclContext());
    if (!FD || !FD->getBody())
      return;
    AssignmentCollector C(V);
    C.TraverseStmt(FD->getBody());
    for (const Expr *Value : C.Values)
      collectRoots(Value, Roots, Visited, Depth + 1);
    return;
  }
}

} // namespace

void pointerRoots(const Expr *E, SmallVectorImpl<const ValueDecl *> &Roots) {
  llvm::SmallPtrSet<const VarDecl *, 8> Visited;
  collectRoots(E, Roots, Visited, 0);
}

} // namespace clang::tidy::cuda
