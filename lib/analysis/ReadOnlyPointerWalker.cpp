//===--- ReadOnlyPointerWalker.cpp - cuda-lint ----------------------------===//
//
// The walk of ReadOnlyPointerAnalysis::analyze (see ReadOnlyPointer.h):
// every use of one pointer parameter in one function body, and of the
// local pointers derived from it, followed into the device functions it
// is passed to, recording loads, explicit loads, aliases and the first
// write or escape.
//
//===----------------------------------------------------------------------===//

#include "cudalint/analysis/DeviceCode.h"
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

/// Records what the walk finds about the pointer in its ReadOnlyResult:
/// the accesses (by ordinary code or explicit loads, in a loop or not),
/// the local aliases without `const`, what keeps `const` from compiling,
/// and the first reason the pointer is not read-only.
class UseRecorder {
protected:
  UseRecorder(ASTContext &Ctx, ReadOnlyResult &R) : Ctx(Ctx), R(R) {}

  /// Ordinary code accesses the memory at \p At.
  void plainAccess(const Stmt *At) {
    R.PlainAccess = true;
    if (!R.PlainAccessInLoop && At && inLoop(At))
      R.PlainAccessInLoop = true;
  }

  /// The element \p Element (null for none) is read: one of the Loads.
  void load(const Expr *Element) {
    if (Element && !llvm::is_contained(R.Loads, Element))
      R.Loads.push_back(Element);
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

  ASTContext &Ctx;
  ReadOnlyResult &R;
};

// The callees and inline asm that read the pointer by instructions
// written out (explicit loads).

StringRef calleeName(const FunctionDecl *F) {
  return F && F->getIdentifier() ? F->getName() : StringRef();
}

/// `nvcuda::wmma::load_matrix_sync(frag, p, ldm[, layout])`: the PTX
/// instruction `wmma.load.{a,b,c}.sync.aligned...global`, an explicit load
/// without a non-coherent (read-only cache) form. nvcc proves nothing
/// about a pointer its intrinsic takes: with `const __restrict__`, the
/// other loads of the pointer stay ld.global too, and the PTX is
/// byte-identical (nvcc 13.0, sm_90).
bool isWmmaFragmentLoad(const FunctionDecl *Callee) {
  if (calleeName(Callee) != "load_matrix_sync")
    return false;
  const auto *NS = dyn_cast<NamespaceDecl>(Callee->getDeclContext());
  return NS && NS->getIdentifier() && NS->getName() == "wmma";
}

/// Whether \p Operand is an input of \p Asm whose instructions access
/// memory only by loads (`ld.global.cs.f32 %0, [%1];`): the pointer is
/// read there, by the instruction written out.
bool isLoadOnlyAsm(const GCCAsmStmt *Asm, const Expr *Operand) {
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
      Inst =
          Inst.drop_until([](char C) { return C == ' ' || C == '\t'; }).trim();
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

/// Follows one pointer parameter through one function body: each use of
/// it, or of a local pointer derived from it, as a pointer (pointerUse),
/// as the memory it reaches (lvalueUse) or as a call argument
/// (callArgument).
class Walker : UseRecorder {
public:
  Walker(ASTContext &Ctx, ReadOnlyPointerAnalysis &Analysis,
         const FunctionDecl *FD, ReadOnlyResult &R)
      : UseRecorder(Ctx, R), Analysis(Analysis), FD(FD) {}

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

  /// \p E evaluates to the tracked pointer (or a pointer derived from it).
  bool pointerUse(const Expr *E, SmallVectorImpl<const VarDecl *> &Aliases);

  /// \p L is an lvalue of memory reached through the tracked pointer.
  bool lvalueUse(const Expr *L, const Expr *Element,
                 SmallVectorImpl<const VarDecl *> &Aliases);

  bool callArgument(const CallExpr *Call, const Expr *Arg);

  ReadOnlyPointerAnalysis &Analysis;
  const FunctionDecl *FD;
};

bool Walker::pointerUse(const Expr *E,
                        SmallVectorImpl<const VarDecl *> &Aliases) {
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
      return BO->getOpcode() == BO_AddAssign || BO->getOpcode() == BO_SubAssign
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

bool Walker::lvalueUse(const Expr *L, const Expr *Element,
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
      load(Element);
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
    if (MC->getImplicitObjectArgument() == L) {
      load(Element); // A const method reads the element.
      return true;
    }
  }
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(P)) {
    if (OC->isAssignmentOp() && OC->getArg(0) == L)
      return fail("written", OC->getOperatorLoc());
  }
  if (const auto *Call = dyn_cast<CallExpr>(P)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    unsigned Offset =
        isa<CXXOperatorCallExpr>(Call) && isa_and_nonnull<CXXMethodDecl>(Callee)
            ? 1
            : 0;
    for (unsigned I = 0, N = Call->getNumArgs(); I != N; ++I) {
      if (Call->getArg(I) != L)
        continue;
      if (I == 0 && Offset) {
        if (!cast<CXXMethodDecl>(Callee)->isConst())
          return fail("used by a non-const member operator", Loc);
        load(Element);
        return true;
      }
      if (!Callee || I - Offset >= Callee->getNumParams())
        return fail("passed by reference to an unknown function", Loc);
      QualType PT = Callee->getParamDecl(I - Offset)->getType();
      // `v = p[i];` of a struct: the copy assignment reads the element.
      if (const auto *MD = dyn_cast<CXXMethodDecl>(Callee);
          MD && MD->isCopyAssignmentOperator())
        load(Element);
      if (!PT->isReferenceType())
        return true;
      if (!pointsToConst(PT))
        return fail("passed by non-const reference", Loc);
      // `a[i] * b[i]` of `__half`: its operator reads the elements through
      // const references.
      load(Element);
      return true;
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
    // `float2 v = p[i];`: a copy of the element reads it whole.
    if (CD && CD->isCopyConstructor() && Ctor->getNumArgs() == 1)
      load(Element);
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

bool Walker::callArgument(const CallExpr *Call, const Expr *Arg) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  SourceLocation Loc = Arg->getExprLoc();
  if (!Callee)
    return fail("passed to an indirect call", Loc);
  StringRef Name = calleeName(Callee);
  if (isAtomicFunctionName(Name))
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
    const ReadOnlyResult &Sub = Analysis.analyze(Def, Def->getParamDecl(Index));
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
      if (!llvm::is_contained(R.CalleeReads, Call))
        R.CalleeReads.push_back(Call);
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
      R.Reason = ("passed to '" + Name + "', where it is " + Sub.Reason).str();
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

} // namespace clang::tidy::cuda
