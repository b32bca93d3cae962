//===--- UncoalescedAccessCheckAccesses.cpp - cuda-lint -------------------===//
//
// The accesses of cuda-uncoalesced-access (UncoalescedAccessAccesses.h):
// whether an element is read or written, the pointer parameter it goes
// through and its index, the launch values that make a lane stride constant,
// and loads of what the same thread has just stored. Guide section: OpenCL
// best-practices guide for CUDA GPUs, 3.2.1.
//
//===----------------------------------------------------------------------===//

#include "UncoalescedAccessAccesses.h"
#include "cudalint/analysis/DeviceCode.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/MathExtras.h"
#include <tuple>

using namespace clang::ast_matchers;

namespace clang::tidy::cuda::uncoalesced_access {

namespace {

// How the subscript is used: read, written, both; nullopt for anything else
// (its address taken, a member of a struct element, bound to a reference).
std::optional<AccessKind> accessKind(ASTContext &Ctx, const Expr *Access) {
  const Expr *Cur = Access;
  DynTypedNodeList Parents = Ctx.getParents(*Cur);
  while (!Parents.empty() && Parents[0].get<ParenExpr>()) {
    Cur = Parents[0].get<ParenExpr>();
    Parents = Ctx.getParents(*Cur);
  }
  if (Parents.empty())
    return std::nullopt;
  // An element of a braced initialiser (`float a[4] = {p[0], p[1]};`) has
  // two parents: the conversion in the semantic form of the list, and the
  // list itself in its syntactic form.
  for (const DynTypedNode &P : Parents)
    if (const auto *Cast = P.get<ImplicitCastExpr>())
      if (Cast->getCastKind() == CK_LValueToRValue)
        return AccessKind::Load;
  if (Parents[0].get<InitListExpr>() && Access->getType()->isScalarType())
    return AccessKind::Load;
  if (const auto *BO = Parents[0].get<BinaryOperator>())
    if (BO->isAssignmentOp() && BO->getLHS()->IgnoreParens() == Access)
      return BO->getOpcode() == BO_Assign ? AccessKind::Store
                                          : AccessKind::LoadStore;
  if (const auto *UO = Parents[0].get<UnaryOperator>())
    if (UO->isIncrementDecrementOp())
      return AccessKind::LoadStore;
  // Elements of class type (float4, int2): `a[i] = make_float4(...)`
  // and copies out of `a[i]`.
  if (const auto *Op = Parents[0].get<CXXOperatorCallExpr>())
    if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2 &&
        Op->getArg(0)->IgnoreParens() == Cur)
      return AccessKind::Store;
  // The right side of a copy assignment `o[i] = a[j]` reads the element.
  auto IsCopiedFrom = [](const CXXOperatorCallExpr *Op, const Expr *E) {
    return Op->getOperator() == OO_Equal && Op->getNumArgs() == 2 &&
           Op->getArg(1)->IgnoreParens() == E;
  };
  if (const auto *Op = Parents[0].get<CXXOperatorCallExpr>())
    if (IsCopiedFrom(Op, Cur))
      return AccessKind::Load;
  if (const auto *Cast = Parents[0].get<ImplicitCastExpr>())
    if (Cast->getCastKind() == CK_NoOp) {
      DynTypedNodeList Up = Ctx.getParents(*Cast);
      if (!Up.empty()) {
        if (const auto *Construct = Up[0].get<CXXConstructExpr>())
          if (Construct->getConstructor()->isCopyOrMoveConstructor())
            return AccessKind::Load;
        if (const auto *Op = Up[0].get<CXXOperatorCallExpr>())
          if (IsCopiedFrom(Op, Cast))
            return AccessKind::Load;
      }
    }
  if (const auto *Construct = Parents[0].get<CXXConstructExpr>())
    if (Construct->getConstructor()->isCopyOrMoveConstructor())
      return AccessKind::Load;
  return std::nullopt;
}

// Follows a pointer back to a pointer parameter of the kernel, adding up the
// offsets on the way (`float *row = in + y * width;`): the parameter and the
// offset expressions, or null when the pointer is anything else.
const ParmVarDecl *globalPointer(const Expr *E, const FunctionDecl *Kernel,
                                 ThreadIndexAnalysis &TIA,
                                 SmallVectorImpl<const Expr *> &Offsets,
                                 unsigned Depth = 0) {
  if (Depth > 8)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_Add) {
      bool LHSPtr = BO->getLHS()->getType()->isPointerType();
      Offsets.push_back(LHSPtr ? BO->getRHS() : BO->getLHS());
      return globalPointer(LHSPtr ? BO->getLHS() : BO->getRHS(), Kernel, TIA,
                           Offsets, Depth + 1);
    }
    return nullptr;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() != UO_AddrOf)
      return nullptr;
    const auto *ASE =
        dyn_cast<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens());
    if (!ASE)
      return nullptr;
    Offsets.push_back(ASE->getIdx());
    return globalPointer(ASE->getBase(), Kernel, TIA, Offsets, Depth + 1);
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  if (!DRE)
    return nullptr;
  const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
  if (!V || !V->getType()->isPointerType())
    return nullptr;
  if (const auto *P = dyn_cast<ParmVarDecl>(V))
    return P->getDeclContext() == Kernel && TIA.isUnmodified(P) ? P : nullptr;
  if (V->getDeclContext() != Kernel || V->hasAttr<CUDASharedAttr>())
    return nullptr;
  const Expr *Def = TIA.singleDefinition(V);
  return Def ? globalPointer(Def, Kernel, TIA, Offsets, Depth + 1) : nullptr;
}

} // namespace

// True when the kernel only reads through \p P: a `const` pointee, or no
// store, call argument or dereference goes through a pointer derived from it.
bool isReadOnly(ASTContext &Ctx, const ParmVarDecl *P,
                const FunctionDecl *Kernel, ThreadIndexAnalysis &TIA) {
  if (P->getType()->getPointeeType().isConstQualified())
    return true;
  auto DerivesFromP = [&](const Expr *E) {
    SmallVector<const Expr *, 2> Offsets;
    return globalPointer(E, Kernel, TIA, Offsets) == P;
  };
  const Stmt &Body = *Kernel->getBody();
  for (const auto &Node :
       match(findAll(arraySubscriptExpr().bind("e")), Body, Ctx)) {
    const auto *ASE = Node.getNodeAs<ArraySubscriptExpr>("e");
    if (DerivesFromP(ASE->getBase()) &&
        accessKind(Ctx, ASE) != AccessKind::Load)
      return false;
  }
  for (const auto &Node :
       match(findAll(unaryOperator(hasOperatorName("*")).bind("e")), Body, Ctx))
    if (DerivesFromP(Node.getNodeAs<UnaryOperator>("e")->getSubExpr()))
      return false;
  for (const auto &Node : match(findAll(callExpr().bind("e")), Body, Ctx))
    for (const Expr *Arg : Node.getNodeAs<CallExpr>("e")->arguments())
      if (Arg->getType()->isPointerType() && DerivesFromP(Arg))
        return false;
  // A local pointer made from P that is then changed: its uses could not be
  // followed above.
  for (const auto &Node :
       match(findAll(varDecl(hasInitializer(
                                 hasDescendant(declRefExpr(to(equalsNode(P))))))
                         .bind("v")),
             Body, Ctx)) {
    const auto *V = Node.getNodeAs<VarDecl>("v");
    if (V->getType()->isPointerType() && !TIA.singleDefinition(V))
      return false;
  }
  return true;
}

// \p Poly with each parameter of \p Kernel that \p Value knows replaced by
// its value; \p Changed is set when one is.
IndexPoly withLaunchValues(const IndexPoly &Poly, const FunctionDecl *Kernel,
                           ParamValueFn Value, bool &Changed) {
  IndexPoly Out;
  for (const auto &[M, C] : Poly.terms()) {
    IndexPoly Term = IndexPoly::constant(C);
    for (const IndexSymbol &S : M) {
      const auto *P = dyn_cast_or_null<ParmVarDecl>(S.getDecl());
      std::optional<int64_t> V;
      if (P && P->getDeclContext() == Kernel)
        V = Value(P);
      if (V && *V > -(int64_t(1) << 24) && *V < (int64_t(1) << 24)) {
        Term = Term * *V;
        Changed = true;
      } else {
        Term = Term * IndexPoly::symbol(S);
      }
    }
    Out = Out + Term;
  }
  return Out;
}

// The index of \p Info with the kernel's parameters that every launch
// passes one constant for replaced by it, where that makes the lane stride
// a constant (`zi[tx * w + i]` with `w == 2` at every launch: stride 2).
void applyLaunchValues(AccessInfo &Info, const FunctionDecl *Kernel,
                       ThreadIndexAnalysis &TIA, ParamValueFn Value) {
  if (!Info.Index.Poly)
    return;
  bool Changed = false;
  IndexForm New = Info.Index;
  New.Poly = withLaunchValues(*Info.Index.Poly, Kernel, Value, Changed);
  if (!Changed)
    return;
  LaneStride Before = TIA.laneStride(Info.Index);
  LaneStride After = TIA.laneStride(New);
  if (!After.isConstant())
    return;
  if (Before.isSymbolic())
    Info.LaunchStride = Before.Symbols;
  Info.Index = New;
}

// What \p Access (with the pointer \p BasePtr it goes through, its subscript
// \p Idx, and for a member of an element the member \p Member at byte
// \p Offset of the element) reads or writes, or nullopt when it is not an
// access this check analyses.
std::optional<AccessInfo>
describeAccess(ASTContext &Ctx, const FunctionDecl *Kernel, const Expr *Access,
               const Expr *BasePtr, const Expr *Idx, const FieldDecl *Member,
               ThreadIndexAnalysis &TIA) {
  if (Kernel->isDependentContext() ||
      enclosingFunction(Ctx, *Access) != Kernel ||
      !BasePtr->getType()->isPointerType())
    return std::nullopt;
  std::optional<AccessKind> Kind = accessKind(Ctx, Access);
  if (!Kind)
    return std::nullopt;
  // The element the index counts, and the bytes the access reads.
  QualType ElemType = BasePtr->getType()->getPointeeType();
  QualType AccessType = Access->getType();
  if (ElemType->isIncompleteType() || ElemType->isDependentType() ||
      ElemType->isArrayType() || AccessType->isIncompleteType() ||
      AccessType->isDependentType() || AccessType->isArrayType())
    return std::nullopt;
  AccessInfo Info;
  Info.Kind = *Kind;
  Info.ElemSize = Ctx.getTypeSizeInChars(ElemType).getQuantity();
  Info.AccessSize = Ctx.getTypeSizeInChars(AccessType).getQuantity();
  // A struct the compiler may load whole with one vector instruction when
  // several members are read (float4, int2): not reported by member.
  if (Member && Info.ElemSize <= 16 && llvm::isPowerOf2_64(Info.ElemSize) &&
      Ctx.getTypeAlignInChars(ElemType).getQuantity() == Info.ElemSize)
    return std::nullopt;
  if (Info.ElemSize <= 0 || Info.ElemSize > 32 || Info.AccessSize <= 0 ||
      Info.AccessSize > Info.ElemSize)
    return std::nullopt;

  SmallVector<const Expr *, 2> Offsets;
  Info.Param = globalPointer(BasePtr, Kernel, TIA, Offsets);
  if (!Info.Param)
    return std::nullopt;
  IndexForm &Index = Info.Index;
  Index.Poly = IndexPoly();
  Index.MayDependOnThread = false;
  if (Idx)
    Index = TIA.analyze(Idx);
  for (const Expr *Off : Offsets) {
    IndexForm F = TIA.analyze(Off);
    if (!F.Poly || !Index.Poly)
      return std::nullopt;
    Index.Poly = *Index.Poly + *F.Poly;
    Index.Definitions.append(F.Definitions.begin(), F.Definitions.end());
  }
  return Info;
}

// The pointer and subscript of `p[i]` and `*(p + i)`; false for anything
// else.
bool elementAccess(const Expr *E, const Expr *&BasePtr, const Expr *&Idx) {
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    BasePtr = ASE->getBase();
    Idx = ASE->getIdx();
    return true;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_Deref) {
    BasePtr = UO->getSubExpr();
    Idx = nullptr;
    return true;
  }
  return false;
}

/// The pointer, subscript and field of a member of an element: `p[i].x`,
/// `(p + i)->x`, `(*p).x`; false for anything else.
bool memberAccess(const MemberExpr *ME, const Expr *&BasePtr, const Expr *&Idx,
                  const FieldDecl *&Member) {
  Member = dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (!Member || Member->isBitField())
    return false;
  const Expr *Base = ME->getBase()->IgnoreParens();
  Idx = nullptr;
  if (ME->isArrow()) {
    BasePtr = Base;
    return true;
  }
  return elementAccess(Base, BasePtr, Idx);
}

int64_t memberOffset(const ASTContext &Ctx, const FieldDecl *Member) {
  return Member
             ? Ctx.toCharUnitsFromBits(Ctx.getFieldOffset(Member)).getQuantity()
             : 0;
}

void forEachAccess(ASTContext &Ctx, const Stmt &Body,
                   llvm::function_ref<void(const Expr *, const Expr *,
                                           const Expr *, const FieldDecl *)>
                       Visit) {
  using namespace ast_matchers;
  for (const auto &Node :
       match(findAll(arraySubscriptExpr().bind("e")), Body, Ctx)) {
    const auto *E = Node.getNodeAs<Expr>("e");
    const Expr *BasePtr = nullptr, *Idx = nullptr;
    if (elementAccess(E, BasePtr, Idx))
      Visit(E, BasePtr, Idx, nullptr);
  }
  for (const auto &Node : match(
           findAll(unaryOperator(hasOperatorName("*")).bind("e")), Body, Ctx)) {
    const auto *E = Node.getNodeAs<Expr>("e");
    const Expr *BasePtr = nullptr, *Idx = nullptr;
    if (elementAccess(E, BasePtr, Idx))
      Visit(E, BasePtr, Idx, nullptr);
  }
  for (const auto &Node : match(findAll(memberExpr().bind("e")), Body, Ctx)) {
    const auto *ME = Node.getNodeAs<MemberExpr>("e");
    const Expr *BasePtr = nullptr, *Idx = nullptr;
    const FieldDecl *Member = nullptr;
    if (memberAccess(ME, BasePtr, Idx, Member))
      Visit(ME, BasePtr, Idx, Member);
  }
}

namespace {

// True when \p Call neither writes memory nor orders it: a function of the
// CUDA headers or a built-in that returns a value and takes no pointer or
// reference (`__expf`, `sqrtf`, `min`), other than barriers, fences and
// atomics.
bool isValueCall(const SourceManager &SM, const CallExpr *Call) {
  const FunctionDecl *F = Call->getDirectCallee();
  if (!F || F->getReturnType()->isVoidType() || !F->getIdentifier() ||
      (F->getBuiltinID() == 0 && !SM.isInSystemHeader(F->getLocation())))
    return false;
  for (const ParmVarDecl *P : F->parameters())
    if (P->getType()->isPointerType() || P->getType()->isReferenceType())
      return false;
  std::string Name = F->getName().lower();
  for (const char *Word : {"sync", "fence", "atomic", "barrier"})
    if (Name.find(Word) != std::string::npos)
      return false;
  return true;
}

// True when nothing in \p S can change memory the kernel reads, or a
// variable of \p IndexVars: \p S stores to local variables only (besides
// \p Skip, the access whose load is asked about), and calls only value
// functions (see isValueCall); no inline assembly, no `goto`.
bool changesNoMemory(const SourceManager &SM, const Stmt *S, const Expr *Skip,
                     const llvm::SmallPtrSetImpl<const Decl *> &IndexVars) {
  if (!S)
    return true;
  if (isa<AsmStmt, GotoStmt, IndirectGotoStmt, CXXNewExpr, CXXDeleteExpr,
          LambdaExpr>(S))
    return false;
  auto WritesLocal = [&](const Expr *Target) {
    if (Target->IgnoreParens() == Skip)
      return true;
    const auto *DRE = dyn_cast<DeclRefExpr>(Target->IgnoreParenImpCasts());
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    return V && V->hasLocalStorage() && !V->getType()->isReferenceType() &&
           !IndexVars.contains(V);
  };
  if (const auto *BO = dyn_cast<BinaryOperator>(S);
      BO && BO->isAssignmentOp() && !WritesLocal(BO->getLHS()))
    return false;
  if (const auto *UO = dyn_cast<UnaryOperator>(S);
      UO && UO->isIncrementDecrementOp() && !WritesLocal(UO->getSubExpr()))
    return false;
  if (const auto *Call = dyn_cast<CallExpr>(S); Call && !isValueCall(SM, Call))
    return false;
  if (const auto *CE = dyn_cast<CXXConstructExpr>(S);
      CE && !CE->getConstructor()->isTrivial() &&
      !SM.isInSystemHeader(CE->getConstructor()->getLocation()))
    return false;
  for (const Stmt *Child : S->children())
    if (!changesNoMemory(SM, Child, Skip, IndexVars))
      return false;
  return true;
}

// The element or member \p S stores to when it is a whole assignment
// statement (`p[i] = v;`, `p[i] *= d;`, `p[i]++;`, `o[i] = make_float4(...)`);
// null otherwise.
const Expr *storedAccess(const Stmt *S) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  if (!E)
    return nullptr;
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
    E = EWC->getSubExpr();
  E = E->IgnoreParens();
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return BO->isAssignmentOp() ? BO->getLHS()->IgnoreParens() : nullptr;
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->isIncrementDecrementOp() ? UO->getSubExpr()->IgnoreParens()
                                        : nullptr;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E))
    return Op->getOperator() == OO_Equal && Op->getNumArgs() == 2
               ? Op->getArg(0)->IgnoreParens()
               : nullptr;
  return nullptr;
}

// The bytes \p Access reads or writes: its pointer parameter, index, byte
// offset in the element and size.
std::optional<
    std::tuple<const ParmVarDecl *, IndexPoly, int64_t, int64_t, int64_t>>
accessBytes(ASTContext &Ctx, const FunctionDecl *Kernel, const Expr *Access,
            ThreadIndexAnalysis &TIA) {
  const Expr *BasePtr = nullptr, *Idx = nullptr;
  const FieldDecl *Member = nullptr;
  if (const auto *ME = dyn_cast<MemberExpr>(Access)) {
    if (!memberAccess(ME, BasePtr, Idx, Member))
      return std::nullopt;
  } else if (!elementAccess(Access, BasePtr, Idx)) {
    return std::nullopt;
  }
  std::optional<AccessInfo> Info =
      describeAccess(Ctx, Kernel, Access, BasePtr, Idx, Member, TIA);
  if (!Info || !Info->Index.Poly)
    return std::nullopt;
  int64_t Offset = memberOffset(Ctx, Member);
  return std::make_tuple(Info->Param, *Info->Index.Poly, Offset,
                         Info->AccessSize, Info->ElemSize);
}

} // namespace

// True when the same thread has just stored the bytes \p Access reads: an
// earlier statement of an enclosing block stores to the same pointer, index
// and bytes (`p[x] *= d;` before `s += p[x];`), and nothing from it to
// \p Access can change memory or the index's variables (see
// changesNoMemory), nor jump in between. The compiler keeps the stored value
// in a register: no load is issued.
bool loadedFromOwnStore(ASTContext &Ctx, const FunctionDecl *Kernel,
                        const Expr *Access, ThreadIndexAnalysis &TIA) {
  auto Bytes = accessBytes(Ctx, Kernel, Access, TIA);
  if (!Bytes ||
      std::get<0>(*Bytes)->getType()->getPointeeType().isVolatileQualified())
    return false;
  llvm::SmallPtrSet<const Decl *, 4> IndexVars;
  for (const auto &[M, C] : std::get<1>(*Bytes).terms())
    for (const IndexSymbol &Sym : M)
      if (const ValueDecl *D = Sym.getDecl())
        IndexVars.insert(D);
  const SourceManager &SM = Ctx.getSourceManager();
  // What of \p S runs before the access, reached through its child
  // \p Inner, and may change memory: an `if`'s or `switch`'s condition but
  // not its branches (the branch that holds the access was read as a block
  // of its own, the other does not run); a block's statements before it
  // were read as its siblings; a loop all of it (the back edge).
  auto before = [&](const Stmt *S, const Stmt *Inner) {
    auto Quiet = [&](const Stmt *X) {
      return changesNoMemory(SM, X, Access, IndexVars);
    };
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      bool InBranch = Inner == If->getThen() || Inner == If->getElse();
      return Quiet(If->getInit()) &&
             Quiet(If->getConditionVariableDeclStmt()) &&
             Quiet(If->getCond()) &&
             (!InBranch || isa<CompoundStmt>(Inner) || Quiet(Inner));
    }
    return isa<CompoundStmt>(S) || Quiet(S);
  };
  DynTypedNode Node = DynTypedNode::create(*Access);
  const Stmt *Cur = Access, *Inner = Access;
  for (unsigned Steps = 0; Steps < 256; ++Steps) {
    DynTypedNodeList Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return false;
    Node = Parents[0];
    if (Node.get<FunctionDecl>() || Node.get<LambdaExpr>())
      return false;
    const Stmt *P = Node.get<Stmt>();
    if (!P)
      continue;
    if (const auto *CS = dyn_cast<CompoundStmt>(P)) {
      if (holdsJumpTarget(Cur) || !before(Cur, Inner))
        return false;
      auto Body = CS->body();
      const auto *Pos = llvm::find(Body, Cur);
      while (Pos != Body.begin()) {
        const Stmt *Sib = *--Pos;
        if (holdsJumpTarget(Sib))
          return false;
        if (const Expr *Stored = storedAccess(Sib))
          if (auto Other = accessBytes(Ctx, Kernel, Stored, TIA);
              Other && *Other == *Bytes)
            return true;
        if (!changesNoMemory(SM, Sib, nullptr, IndexVars))
          return false;
      }
    }
    Inner = Cur;
    Cur = P;
  }
  return false;
}

} // namespace clang::tidy::cuda::uncoalesced_access
