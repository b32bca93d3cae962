//===--- WarpSyncWalk.cpp - cuda-lint
//---------------------------------------===//
//
// The walk of one function into barrier-free regions of accesses for
// cuda-warp-synchronous: statements, branches with a barrier on one path,
// loops walked once per value and back-edge regions.
//
//===----------------------------------------------------------------------===//

#include "cudalint/analysis/DeviceCode.h"
#include "cudalint/analysis/WarpSyncAnalysis.h"
#include "clang/Basic/SourceManager.h"
#include <functional>

namespace clang::tidy::cuda::warpsync {

Analysis::Analysis(ASTContext &Ctx) : Ctx(Ctx) {}

void Analysis::walkFunction(const FunctionDecl *FD, Guard Entry) {
  Regions.clear();
  Current.clear();
  FirstRegionAtEntry = true;
  Slots.clear();
  Order = 0;
  CurrentFD = FD;
  FlushOrders.clear();
  EdgeRegions.clear();
  LoopStack.clear();
  GridCurrent.clear();
  walkStmt(FD->getBody(), Entry, FD->getBody());
  flush();
  for (auto &R : EdgeRegions)
    Regions.push_back(std::move(R));
  EdgeRegions.clear();
  flushGrid();
  for (auto &R : GridRegions)
    Regions.push_back(std::move(R));
  GridRegions.clear();
}

unsigned Analysis::flushes() const { return FlushOrders.size(); }

void Analysis::separatePaths(const IfStmt *If, unsigned O0, unsigned O1) {
  auto Mark = [&](SmallVectorImpl<Access> &Accesses) {
    for (Access &X : Accesses)
      if (!X.PathOf && X.Order >= O0) {
        X.PathOf = If;
        X.PathAfterBarrier = X.Order < O1;
      }
  };
  for (auto &Region : Regions)
    Mark(Region);
  Mark(Current);
}

void Analysis::flushGrid() {
  if (!GridCurrent.empty())
    GridRegions.push_back(std::move(GridCurrent));
  GridCurrent.clear();
}

const Expr *Analysis::exitCondition(const Stmt *S) {
  const auto *If = dyn_cast<IfStmt>(S);
  if (!If || If->getElse() || If->getInit() || If->getConditionVariable())
    return nullptr;
  const Stmt *Then = If->getThen();
  if (const auto *CS = dyn_cast<CompoundStmt>(Then))
    Then = CS->size() == 1 ? CS->body_front() : nullptr;
  return Then && isa<ReturnStmt>(Then) ? If->getCond() : nullptr;
}

void Analysis::backEdgeRegion(const Stmt *Loop, unsigned F0, unsigned O0) {
  unsigned HeadEnd = FlushOrders[F0];
  SmallVector<Access, 8> Edge;
  auto take = [&](const Access &X, unsigned char Side) {
    Access Y = X;
    Y.Side = Side;
    Y.Carried = false;
    Y.CarriedBy = nullptr;
    Y.BackEdgeLoop = Loop;
    Edge.push_back(std::move(Y));
  };
  for (const auto &R : Regions)
    for (const Access &X : R)
      if (!X.Side && !X.Carried && X.Order >= O0 && X.Order < HeadEnd)
        take(X, 1);
  for (const Access &X : Current)
    if (!X.Side && !X.Carried && X.Order >= O0 && X.Order < HeadEnd)
      take(X, 1);
  bool Head = !Edge.empty();
  unsigned TailStart = FlushOrders.back();
  for (const Access &X : Current)
    if (!X.Side && !X.Carried && X.Order >= TailStart)
      take(X, 2);
  if (Head && Edge.back().Side == 2)
    EdgeRegions.push_back(std::move(Edge));
}

void Analysis::flush() {
  FlushOrders.push_back(Order);
  if (Regions.empty() && Current.empty())
    FirstRegionAtEntry = false;
  if (!Current.empty())
    Regions.push_back(std::move(Current));
  Current.clear();
}

void Analysis::setSlot(const Stmt *S, SlotKind K, const Stmt *Parent,
                       const Guard &G) {
  if (S)
    Slots[S] = Slot{K, Parent, G};
}

void Analysis::walkStmt(const Stmt *S, Guard G, const Stmt *Holder) {
  if (!S)
    return;
  if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
    for (const Stmt *Child : CS->body()) {
      setSlot(Child, SlotKind::Compound, CS, G);
      walkStmt(Child, G, Child);
      // After `if (tid >= n) return;` not every thread is here.
      if (divergentExit(Child, false)) {
        G.BlockUniform = G.WarpUniform = G.Exact = false;
        if (const Expr *C = exitCondition(Child))
          G.Conds.push_back({C, false});
      } else if (const Expr *C = exitCondition(Child);
                 C && blockShapeCondition(C)) {
        // After `if (blockDim.x <= 32) return ...;` the blocks are larger.
        G.Conds.push_back({C, false});
      }
    }
    return;
  }
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    if (If->getInit())
      walkStmt(If->getInit(), G, Holder);
    const Expr *Cond = If->getCond();
    walkExpr(Cond, G, Holder);
    bool Value;
    if (!Cond->isValueDependent() &&
        Cond->EvaluateAsBooleanCondition(Value, Ctx)) {
      const Stmt *Taken = Value ? If->getThen() : If->getElse();
      setSlot(Taken, Value ? SlotKind::IfThen : SlotKind::IfElse, If, G);
      walkStmt(Taken, G, Taken);
      return;
    }
    Guard GT = G, GE = G;
    refine(GT, Cond);
    if (threadDependent(Cond)) {
      GE.BlockUniform = GE.WarpUniform = GE.Exact = false;
      GT.Conds.push_back({Cond, true});
      GE.Conds.push_back({Cond, false});
    } else if (blockShapeCondition(Cond)) {
      // The same in every thread: the general analysis decides it for
      // its model block.
      GT.Conds.push_back({Cond, true});
      GE.Conds.push_back({Cond, false});
    }
    SmallVector<Access, 8> Before(Current);
    unsigned F0 = flushes(), O0 = Order;
    setSlot(If->getThen(), SlotKind::IfThen, If, GT);
    walkStmt(If->getThen(), GT, If->getThen());
    unsigned F1 = flushes(), O1 = Order;
    setSlot(If->getElse(), SlotKind::IfElse, If, GE);
    walkStmt(If->getElse(), GE, If->getElse());
    // Barriers on both paths of a condition every thread of the block
    // evaluates alike (`if (blockIdx.x > blockIdx.y) {...} else {...}`):
    // the block takes one path, so the accesses after the then-path's last
    // barrier never meet those before the else-path's first one, although
    // they share a region. Other blocks may take the other path: the grid
    // regions keep them.
    if (F1 != F0 && flushes() != F1 &&
        !varyingExpr(Cond, /*Builtins=*/true, /*Shared=*/false))
      separatePaths(If, O0, O1);
    // `if (c) __syncthreads();`: on the path without the barrier, the
    // accesses before the branch meet those after it.
    if ((F1 != F0) != (flushes() != F1)) {
      // A shared flag holds one value for the block (threads that store
      // different ones race, which is reported on its own).
      bool Uniform = !varyingExpr(Cond, /*Builtins=*/true, /*Shared=*/false);
      // The accesses after the barrier: of the then branch when it has it.
      unsigned TailLo = F1 != F0 ? O0 : O1, TailHi = F1 != F0 ? O1 : Order;
      if (Uniform)
        for (Access &X : Current)
          if (!X.PathOf && X.Order >= O0) {
            X.PathOf = If;
            X.PathAfterBarrier = X.Order >= TailLo && X.Order < TailHi;
          }
      for (Access X : Before) {
        if (!X.Carried) {
          X.CarriedBy = If;
          X.CarriedThen = F1 != F0;
        }
        if (Uniform && !X.PathOf) {
          X.PathOf = If;
          X.PathAfterBarrier = false;
        }
        X.Carried = true;
        Current.push_back(X);
      }
    }
    return;
  }
  const Expr *LoopCond = nullptr;
  const Stmt *Body = nullptr;
  if (const auto *For = dyn_cast<ForStmt>(S)) {
    walkStmt(For->getInit(), G, Holder);
    LoopCond = For->getCond();
    Body = For->getBody();
  } else if (const auto *While = dyn_cast<WhileStmt>(S)) {
    LoopCond = While->getCond();
    Body = While->getBody();
  } else if (const auto *Do = dyn_cast<DoStmt>(S)) {
    LoopCond = Do->getCond();
    Body = Do->getBody();
  }
  {
    const VarDecl *Var = nullptr;
    SmallVector<int64_t, 8> Values;
    const Expr *ShapeCond = nullptr;
    if (unrolledLoop(S, Var, Values, ShapeCond)) {
      // `for (o = C; o > 0; o >>= 1)`, `for (o = 1; o < C; o <<= 1)`,
      // `o = 1; while (o < blockDim.x) { ...; o *= 2; }`: the same trip
      // count for every thread of a block; walked once per value of `o`.
      // Up to a bound on the block's shape, the values go to the largest
      // block, and each holds only where the model block meets the
      // loop's condition.
      Guard GI = G;
      if (ShapeCond)
        GI.Conds.push_back({ShapeCond, true});
      setSlot(Body, SlotKind::Other, S, G);
      for (int64_t V : Values) {
        LoopValues[Var] = V;
        walkStmt(Body, GI, Body);
      }
      LoopValues.erase(Var);
      return;
    }
  }
  if (Body) {
    Guard GB = G;
    if (LoopCond)
      collectSpinReads(S, LoopCond, Body);
    // A do-while tests its condition after the body: the condition's
    // accesses follow the body's last barrier (and meet the next
    // iteration's head on the back edge).
    const auto *Do = dyn_cast<DoStmt>(S);
    if (LoopCond) {
      if (!Do)
        walkExpr(LoopCond, G, Holder);
      if (threadDependent(LoopCond))
        GB.BlockUniform = GB.WarpUniform = GB.Exact = false;
    }
    if (divergentExit(Body, true))
      GB.BlockUniform = GB.WarpUniform = GB.Exact = false;
    setSlot(Body, SlotKind::Other, S, GB);
    unsigned F0 = flushes(), O0 = Order;
    LoopStack.push_back(S);
    walkStmt(Body, GB, Body);
    if (const auto *For = dyn_cast<ForStmt>(S))
      if (For->getInc())
        walkExpr(For->getInc(), GB, Holder);
    if (Do)
      walkExpr(LoopCond, GB, LoopCond);
    LoopStack.pop_back();
    if (flushes() != F0)
      backEdgeRegion(S, F0, O0);
    return;
  }
  if (const auto *E = dyn_cast<Expr>(S)) {
    walkExpr(E, G, Holder);
    return;
  }
  for (const Stmt *Child : S->children())
    walkStmt(Child, G, Holder);
}

void Analysis::record(const ArraySubscriptExpr *ASE, bool Write, const Guard &G,
                      const Stmt *Holder, const Expr *Stored) {
  if (!Write && SpinReads.count(ASE))
    return;
  // `tile[a][b]`: the subscripts outermost first, down to `tile`.
  SmallVector<const Expr *, 2> Subs{ASE->getIdx()};
  const Expr *BaseE = ASE->getBase()->IgnoreParenImpCasts();
  while (const auto *Inner = dyn_cast<ArraySubscriptExpr>(BaseE)) {
    if (!Inner->getType()->isArrayType())
      return;
    Subs.insert(Subs.begin(), Inner->getIdx());
    BaseE = Inner->getBase()->IgnoreParenImpCasts();
  }
  // `q.p[i]`, `q.v.p[i]`: a pointer field of a struct passed by value.
  if (const MemberExpr *Member = structParamPointer(BaseE)) {
    Access X{ASE,    Member->getMemberDecl(), Write, IndexForm(), G, Holder,
             Order++};
    X.Root = memberRoot(Member);
    X.Member = Member;
    X.Subs = std::move(Subs);
    X.Stored = Stored;
    push(std::move(X));
    return;
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(BaseE);
  if (!DRE || !isa<VarDecl>(DRE->getDecl()))
    return;
  // A local array is private to its thread; shared and global variables
  // and memory behind pointers are not.
  const auto *VD = cast<VarDecl>(DRE->getDecl());
  if (auto It = InlineBound.find(VD); It != InlineBound.end())
    VD = It->second;
  if (VD->hasLocalStorage() && !VD->hasAttr<CUDASharedAttr>() &&
      !VD->getType()->isPointerType())
    return;
  if (const auto *P = dyn_cast<ParmVarDecl>(VD); P && PrivateParams.count(P))
    return;
  // `float *l_H = &tile[e];`: l_H[i] is tile[e + i].
  const Expr *Offset = nullptr;
  if (const VarDecl *Target =
          Subs.size() == 1 ? offsetAlias(VD, Offset) : nullptr) {
    VD = Target;
    if (VD->hasLocalStorage() && !VD->hasAttr<CUDASharedAttr>() &&
        !VD->getType()->isPointerType())
      return;
  } else if (rebased(VD)) {
    return;
  }
  std::optional<IndexForm> Idx;
  if (Subs.size() == 1 && !Offset)
    Idx = parseIndex(Subs[0]);
  const ValueDecl *Array = canonicalArray(VD);
  Access X{ASE, Array, Write, Idx.value_or(IndexForm()), G, Holder, Order++};
  X.Root = VD;
  X.Subs = std::move(Subs);
  X.Offset = Offset;
  X.Stored = Stored;
  push(std::move(X));
}

void Analysis::push(Access X) {
  X.Atomic = RecordingAtomic;
  X.WarpWindow = inWarpWindow(X.Array);
  X.Inlined = !InlineStack.empty();
  X.Via = X.Inlined ? InlineVia : nullptr;
  X.InlinedFrom = X.Inlined ? InlineStack.back() : nullptr;
  X.InlineDepth = unsigned(InlineStack.size());
  X.Loops.assign(LoopStack.begin(), LoopStack.end());
  for (const auto &KV : LoopValues)
    X.Fixed.push_back(KV);
  if (!isa<VarDecl>(X.Array) ||
      !cast<VarDecl>(X.Array)->hasAttr<CUDASharedAttr>()) {
    Access Y = X;
    Y.GridOnly = true;
    GridCurrent.push_back(std::move(Y));
  }
  Current.push_back(std::move(X));
}

const ParmVarDecl *Analysis::memberRoot(const MemberExpr *ME) {
  const Expr *B = ME;
  while (const auto *M = dyn_cast<MemberExpr>(B)) {
    if (M->isArrow() || !isa<FieldDecl>(M->getMemberDecl()))
      return nullptr;
    B = M->getBase()->IgnoreParenImpCasts();
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(B);
  return DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
}

const MemberExpr *Analysis::structParamPointer(const Expr *E) const {
  const auto *ME = dyn_cast<MemberExpr>(E);
  if (!ME || !ME->getType()->isPointerType())
    return nullptr;
  const ParmVarDecl *P = memberRoot(ME);
  if (!P || !P->getType()->isRecordType() || PrivateParams.count(P))
    return nullptr;
  return ME;
}

QualType accessedType(const Access &X) {
  return X.Member ? X.Member->getType() : X.Root->getType();
}

std::string accessedName(const Access &X) {
  if (!X.Member)
    return X.Root->getName().str();
  std::string S;
  for (const Expr *E = X.Member; const auto *M = dyn_cast<MemberExpr>(E);
       E = M->getBase()->IgnoreParenImpCasts())
    S = "." + M->getMemberDecl()->getName().str() + S;
  return X.Root->getName().str() + S;
}

const ArraySubscriptExpr *Analysis::storedElement(const Expr *LHS) {
  const Expr *E = LHS->IgnoreParens();
  // A field or vector lane of an element (`s[i].x = v`): a store to the
  // element (the check does not tell its fields apart).
  if (const auto *ME = dyn_cast<MemberExpr>(E); ME && !ME->isArrow())
    E = ME->getBase()->IgnoreParenImpCasts();
  else if (const auto *VE = dyn_cast<ExtVectorElementExpr>(E))
    E = VE->getBase()->IgnoreParenImpCasts();
  return dyn_cast<ArraySubscriptExpr>(E);
}

void Analysis::recordAtomic(const CallExpr *Call, const Guard &G,
                            const Stmt *Holder) {
  const FunctionDecl *F = Call->getDirectCallee();
  if (!isAtomicFunction(F) || Call->getNumArgs() < 2)
    return;
  const auto *Addr =
      dyn_cast<UnaryOperator>(Call->getArg(0)->IgnoreParenImpCasts());
  if (!Addr || Addr->getOpcode() != UO_AddrOf)
    return;
  RecordingAtomic = true;
  if (const ArraySubscriptExpr *ASE = storedElement(Addr->getSubExpr())) {
    record(ASE, false, G, Holder);
    record(ASE, true, G, Holder);
  } else if (TrackScalars && sharedScalar(Addr->getSubExpr())) {
    const auto *DRE = cast<DeclRefExpr>(Addr->getSubExpr()->IgnoreParens());
    recordScalar(DRE, false, G, Holder);
    recordScalar(DRE, true, G, Holder);
  }
  RecordingAtomic = false;
}

const VarDecl *Analysis::sharedScalar(const Expr *E) {
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParens() : E);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !VD->hasAttr<CUDASharedAttr>())
    return nullptr;
  QualType T = VD->getType();
  if (!T->isArithmeticType() || T.isVolatileQualified())
    return nullptr;
  return VD;
}

void Analysis::recordScalar(const DeclRefExpr *DRE, bool Write, const Guard &G,
                            const Stmt *Holder, const Expr *Stored) {
  const auto *VD = cast<VarDecl>(DRE->getDecl());
  Access X{DRE, canonicalArray(VD), Write, IndexForm(), G, Holder, Order++};
  X.Root = VD;
  X.Stored = Stored;
  push(std::move(X));
}

void Analysis::walkSubscriptOperands(const ArraySubscriptExpr *ASE,
                                     const Guard &G, const Stmt *Holder) {
  // The inner subscripts of `tile[a][b]` select a row, not an element.
  const Expr *Base = ASE->getBase()->IgnoreParenImpCasts();
  while (const auto *Inner = dyn_cast<ArraySubscriptExpr>(Base)) {
    if (!Inner->getType()->isArrayType())
      break;
    walkExpr(Inner->getIdx(), G, Holder);
    Base = Inner->getBase()->IgnoreParenImpCasts();
  }
  walkExpr(Base, G, Holder);
  walkExpr(ASE->getIdx(), G, Holder);
}

void Analysis::walkExpr(const Stmt *S, const Guard &G, const Stmt *Holder) {
  if (!S)
    return;
  if (const auto *BO = dyn_cast<BinaryOperator>(S);
      BO && BO->isAssignmentOp()) {
    walkExpr(BO->getRHS(), G, Holder);
    if (const ArraySubscriptExpr *ASE = storedElement(BO->getLHS())) {
      walkSubscriptOperands(ASE, G, Holder);
      if (BO->isCompoundAssignmentOp())
        record(ASE, false, G, Holder);
      record(ASE, true, G, Holder,
             BO->isCompoundAssignmentOp() ? nullptr : BO->getRHS());
    } else if (TrackScalars && sharedScalar(BO->getLHS())) {
      const auto *DRE = cast<DeclRefExpr>(BO->getLHS()->IgnoreParens());
      if (BO->isCompoundAssignmentOp())
        recordScalar(DRE, false, G, Holder);
      recordScalar(DRE, true, G, Holder,
                   BO->isCompoundAssignmentOp() ? nullptr : BO->getRHS());
    } else {
      walkExpr(BO->getLHS(), G, Holder);
    }
    return;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(S);
      UO && UO->isIncrementDecrementOp()) {
    if (const ArraySubscriptExpr *ASE = storedElement(UO->getSubExpr())) {
      walkSubscriptOperands(ASE, G, Holder);
      record(ASE, false, G, Holder);
      record(ASE, true, G, Holder);
      return;
    }
    if (TrackScalars && sharedScalar(UO->getSubExpr())) {
      const auto *DRE = cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParens());
      recordScalar(DRE, false, G, Holder);
      recordScalar(DRE, true, G, Holder);
      return;
    }
  }
  // A read of a shared scalar: its value loaded (`&s`, a reference to it
  // or an atomic on it is no access).
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(S);
      ICE && ICE->getCastKind() == CK_LValueToRValue && TrackScalars &&
      sharedScalar(ICE->getSubExpr())) {
    recordScalar(cast<DeclRefExpr>(ICE->getSubExpr()->IgnoreParens()), false, G,
                 Holder);
    return;
  }
  // `&A[i]` takes an address: no access.
  if (const auto *UO = dyn_cast<UnaryOperator>(S);
      UO && UO->getOpcode() == UO_AddrOf)
    if (const auto *ASE =
            dyn_cast<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens())) {
      walkSubscriptOperands(ASE, G, Holder);
      return;
    }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(S)) {
    walkSubscriptOperands(ASE, G, Holder);
    record(ASE, false, G, Holder);
    return;
  }
  if (isa<LambdaExpr>(S))
    return;
  if (const auto *POE = dyn_cast<PseudoObjectExpr>(S)) {
    walkExpr(POE->getSyntacticForm(), G, Holder);
    return;
  }
  for (const Stmt *Child : S->children())
    walkExpr(Child, G, Holder);
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    if (const FunctionDecl *Callee = Call->getDirectCallee();
        Callee && Callee->hasBody() && InlineStack.empty())
      Calls[Callee->getCanonicalDecl()].push_back(CallSite{Call, G, CurrentFD});
    recordAtomic(Call, G, Holder);
    if (isBarrierCall(Call) || containsBarrier(Call->getDirectCallee()))
      flush();
    else
      inlineCall(Call, G, Holder);
    if (isGridSyncCall(Call))
      flushGrid();
  }
  if (const auto *Asm = dyn_cast<AsmStmt>(S))
    if (Asm->generateAsmString(Ctx).find("bar.") != std::string::npos)
      flush();
}

void Analysis::inlineCall(const CallExpr *Call, const Guard &G,
                          const Stmt *Holder) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  const FunctionDecl *Def = nullptr;
  if (!Callee || !Callee->hasBody(Def) || !Def || InlineStack.size() >= 4 ||
      llvm::is_contained(InlineStack, Def) || Def == CurrentFD ||
      Ctx.getSourceManager().isInSystemHeader(Def->getLocation()) ||
      !Def->hasAttr<CUDADeviceAttr>() || isa<CXXMethodDecl>(Def) ||
      Call->getNumArgs() != Def->getNumParams())
    return;
  const auto *Body = dyn_cast<CompoundStmt>(Def->getBody());
  if (!Body)
    return;
  // Straight-line: what reaches the call reaches every statement.
  for (const Stmt *S : Body->body()) {
    bool Last = S == Body->body_back();
    if (!isa<DeclStmt, Expr, NullStmt>(S) && !(Last && isa<ReturnStmt>(S)))
      return;
    bool Branch = false;
    forEachDescendant(S, [&](const Stmt *X) {
      Branch |= isa<ConditionalOperator, BinaryConditionalOperator, LambdaExpr,
                    StmtExpr>(X);
    });
    if (Branch)
      return;
  }
  llvm::DenseMap<const VarDecl *, const VarDecl *> Bound;
  for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
    const ParmVarDecl *P = Def->getParamDecl(I);
    QualType T = P->getType();
    if (T->isReferenceType())
      return;
    if (!T->isPointerType())
      continue;
    const auto *DRE =
        dyn_cast<DeclRefExpr>(Call->getArg(I)->IgnoreParenImpCasts());
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!VD)
      return;
    if (auto It = InlineBound.find(VD); It != InlineBound.end())
      VD = It->second;
    Bound[P] = VD;
  }
  auto Saved = InlineBound;
  for (const auto &[P, VD] : Bound)
    InlineBound[P] = VD;
  if (InlineStack.empty())
    InlineVia = Call;
  InlineStack.push_back(Def);
  for (const Stmt *S : Body->body())
    walkExpr(S, G, Holder);
  InlineStack.pop_back();
  InlineBound = std::move(Saved);
}

bool canMeet(const Access &W, const Access &R) {
  if (W.PathOf && W.PathOf == R.PathOf &&
      W.PathAfterBarrier != R.PathAfterBarrier)
    return false;
  return W.Side || R.Side ? W.Side != R.Side : !(W.Carried && R.Carried);
}

} // namespace clang::tidy::cuda::warpsync
