//===--- WarpSyncAnalysis.cpp - cuda-lint ---------------------------------===//

#include "cudalint/analysis/WarpSyncAnalysis.h"
#include "cudalint/analysis/DeviceCode.h"

namespace clang::tidy::cuda::warpsync {

namespace {
const char *const BarrierNames[] = {
    "__syncthreads",       "__syncthreads_count", "__syncthreads_and",
    "__syncthreads_or",    "__syncwarp",          "__barrier_sync",
    "__barrier_sync_count"};

} // namespace

bool isBarrierCall(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || !FD->getIdentifier())
    return false;
  StringRef Name = FD->getName();
  if (llvm::is_contained(BarrierNames, Name))
    return true;
  // cooperative_groups: g.sync(), cg::sync(g), grid.sync(), barrier_wait.
  if (Name == "sync" || Name == "barrier_wait" || Name == "arrive_and_wait") {
    const DeclContext *DC = FD->getDeclContext();
    for (; DC; DC = DC->getParent())
      if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
        if (NS->getName() == "cooperative_groups" || NS->getName() == "cuda")
          return true;
  }
  return false;
}

bool isGridSyncCall(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || !FD->getIdentifier())
    return false;
  StringRef Name = FD->getName();
  if (Name == "__threadfence" || Name == "__threadfence_system" ||
      Name == "atomic_thread_fence")
    return true;
  if (Name != "sync")
    return false;
  auto isGrid = [](QualType T) {
    const auto *RD = T->getAsCXXRecordDecl();
    if (!RD) {
      if (const auto *PT = T->getAs<PointerType>())
        RD = PT->getPointeeType()->getAsCXXRecordDecl();
    }
    return RD && RD->getIdentifier() &&
           (RD->getName() == "grid_group" ||
            RD->getName() == "multi_grid_group");
  };
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
    return isGrid(MC->getImplicitObjectArgument()->getType());
  return Call->getNumArgs() == 1 &&
         isGrid(Call->getArg(0)->getType().getNonReferenceType());
}

std::optional<ThreadRank> threadRankCall(const Expr *E) {
  std::optional<GroupQuery> Q = groupQueryCall(E);
  if (!Q || Q->Query != GroupQuery::Rank)
    return std::nullopt;
  return Q->Group;
}

std::optional<GroupQuery> groupQueryCall(const Expr *E) {
  const auto *Call = dyn_cast<CallExpr>(E->IgnoreParenImpCasts());
  const auto *MD =
      Call ? dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee()) : nullptr;
  if (!MD || !MD->getIdentifier() || Call->getNumArgs() != 0)
    return std::nullopt;
  GroupQuery::QueryKind Query;
  StringRef Name = MD->getName();
  if (Name == "thread_rank")
    Query = GroupQuery::Rank;
  else if (Name == "meta_group_rank")
    Query = GroupQuery::MetaRank;
  else if (Name == "meta_group_size")
    Query = GroupQuery::MetaSize;
  else if (Name == "size" || Name == "num_threads")
    Query = GroupQuery::Size;
  else
    return std::nullopt;
  const CXXRecordDecl *RD = MD->getParent();
  bool InCG = false;
  for (const DeclContext *DC = RD; DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      InCG |= NS->getName() == "cooperative_groups";
  if (!InCG || !RD->getIdentifier())
    return std::nullopt;
  if (RD->getName() == "thread_block")
    return Query == GroupQuery::MetaRank || Query == GroupQuery::MetaSize
               ? std::nullopt
               : std::optional<GroupQuery>(
                     GroupQuery{Query, ThreadRank{ThreadRank::Block, 0}});
  if (RD->getName() == "grid_group")
    return Query == GroupQuery::Rank
               ? std::optional<GroupQuery>(
                     GroupQuery{Query, ThreadRank{ThreadRank::Grid, 0}})
               : std::nullopt;
  // thread_block_tile<N> (its rank is in a base that has N).
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD);
      Spec && RD->getName().contains("tile")) {
    const TemplateArgumentList &Args = Spec->getTemplateArgs();
    if (Args.size() >= 1 && Args[0].getKind() == TemplateArgument::Integral) {
      int64_t N = Args[0].getAsIntegral().getExtValue();
      if (N <= 0 || N > 1024)
        return std::nullopt;
      if (Query == GroupQuery::MetaRank || Query == GroupQuery::MetaSize) {
        // The parent, where the base names it: a thread_block, or erased
        // (void), which only a whole warp or more is sure to come from.
        const CXXRecordDecl *Parent =
            Args.size() >= 2 && Args[1].getKind() == TemplateArgument::Type
                ? Args[1].getAsType()->getAsCXXRecordDecl()
                : nullptr;
        bool FromBlock = Parent && Parent->getIdentifier() &&
                         Parent->getName() == "thread_block";
        if (!FromBlock && N < WarpSize)
          return std::nullopt;
      }
      return GroupQuery{Query, ThreadRank{ThreadRank::Tile, N}};
    }
  }
  return std::nullopt;
}

bool isThreadIdxX(const Expr *E) {
  const auto *POE = dyn_cast<PseudoObjectExpr>(E);
  if (!POE)
    return false;
  const auto *Prop = dyn_cast<MSPropertyRefExpr>(POE->getSyntacticForm());
  if (!Prop || Prop->getPropertyDecl()->getName() != "x")
    return false;
  const Expr *B = Prop->getBaseExpr()->IgnoreImpCasts();
  if (const auto *OVE = dyn_cast<OpaqueValueExpr>(B))
    B = OVE->getSourceExpr()->IgnoreImpCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(B);
  return DRE && DRE->getDecl()->getName() == "threadIdx";
}

/// The built-in variable (`threadIdx`, `blockDim`, ...) whose member \p E
/// reads, if it is one.
static StringRef builtinVariable(const Expr *E) {
  const auto *POE = dyn_cast<PseudoObjectExpr>(E->IgnoreParenImpCasts());
  if (!POE)
    return {};
  const auto *Prop = dyn_cast<MSPropertyRefExpr>(POE->getSyntacticForm());
  if (!Prop)
    return {};
  const Expr *B = Prop->getBaseExpr()->IgnoreImpCasts();
  if (const auto *OVE = dyn_cast<OpaqueValueExpr>(B))
    B = OVE->getSourceExpr()->IgnoreImpCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(B);
  return DRE && DRE->getDecl()->getIdentifier() ? DRE->getDecl()->getName()
                                                : StringRef();
}

bool Analysis::blockShapeCondition(const Expr *C) const {
  bool Shape = false;
  std::function<bool(const Expr *)> Known = [&](const Expr *E) {
    E = E->IgnoreParens();
    if (StringRef B = builtinVariable(E); !B.empty()) {
      Shape |= B == "blockDim";
      return B == "blockDim";
    }
    if (E->isValueDependent() || E->isTypeDependent())
      return false;
    if (E->isIntegerConstantExpr(Ctx))
      return true;
    if (const auto *Cast = dyn_cast<CastExpr>(E))
      return Cast->getType()->isIntegralOrEnumerationType() &&
             Known(Cast->getSubExpr());
    if (const auto *BO = dyn_cast<BinaryOperator>(E))
      return !BO->isAssignmentOp() && BO->getOpcode() != BO_Comma &&
             !BO->isPtrMemOp() && Known(BO->getLHS()) && Known(BO->getRHS());
    if (const auto *UO = dyn_cast<UnaryOperator>(E))
      return (UO->getOpcode() == UO_LNot || UO->getOpcode() == UO_Not ||
              UO->getOpcode() == UO_Minus || UO->getOpcode() == UO_Plus) &&
             Known(UO->getSubExpr());
    return false;
  };
  return Known(C) && Shape;
}

/// `atomicAdd(p, c)` with a positive integer constant c, or
/// `atomicInc(p, m)`: each call returns a different value (a ticket), as
/// long as fewer than m + 1 calls are made.
static bool ticketCall(const Expr *E, const ASTContext &Ctx) {
  const auto *Call = dyn_cast<CallExpr>(E->IgnoreParenImpCasts());
  const FunctionDecl *F = Call ? Call->getDirectCallee() : nullptr;
  if (!F || !F->getIdentifier() || Call->getNumArgs() != 2)
    return false;
  if (F->getName() == "atomicInc")
    return true;
  if (F->getName() != "atomicAdd")
    return false;
  const Expr *Inc = Call->getArg(1)->IgnoreParenImpCasts();
  Expr::EvalResult R;
  return !Inc->isValueDependent() && Inc->getType()->isIntegerType() &&
         Inc->EvaluateAsInt(R, Ctx) && R.Val.getInt().isStrictlyPositive();
}

bool Analysis::ticket(const Expr *E) const {
  E = stripCasts(E);
  if (ticketCall(E, Ctx))
    return true;
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  return VD && VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) &&
         !Reassigned.count(VD) && VD->getInit() &&
         ticketCall(VD->getInit(), Ctx);
}

/// `T == U` with T a ticket and U the same in every thread.
bool Analysis::ticketCompare(const Expr *E) const {
  const auto *BO = dyn_cast<BinaryOperator>(stripCasts(E));
  if (!BO || BO->getOpcode() != BO_EQ)
    return false;
  const Expr *L = BO->getLHS(), *R = BO->getRHS();
  if (!ticket(L))
    std::swap(L, R);
  return ticket(L) && !ticket(R) && !threadDependent(R);
}

unsigned
Analysis::singleCondition(const Expr *C,
                          SmallVectorImpl<const Expr *> &Uniform) const {
  C = stripCasts(C);
  // `c ? 1 : 0`: the condition c.
  if (const auto *CO = dyn_cast<ConditionalOperator>(C)) {
    std::optional<int64_t> T = constant(CO->getTrueExpr()),
                           F = constant(CO->getFalseExpr());
    return T && F && *T != 0 && *F == 0
               ? singleCondition(CO->getCond(), Uniform)
               : 0;
  }
  const auto *BO = dyn_cast<BinaryOperator>(C);
  if (BO && BO->getOpcode() == BO_LAnd) {
    unsigned S = singleCondition(BO->getLHS(), Uniform) |
                 singleCondition(BO->getRHS(), Uniform);
    // `P[t] <= K && K < P[t + 1]` over a sorted P: one t at most.
    const auto *L = dyn_cast<BinaryOperator>(stripCasts(BO->getLHS()));
    const auto *R = dyn_cast<BinaryOperator>(stripCasts(BO->getRHS()));
    struct Side {
      const Expr *Base, *K;
      int64_t Off;
      BinaryOperatorKind Op; ///< P[t + Off] Op K.
    };
    auto side = [&](const BinaryOperator *Cmp) -> std::optional<Side> {
      if (!Cmp || !Cmp->isRelationalOp())
        return std::nullopt;
      BinaryOperatorKind Op = Cmp->getOpcode();
      const Expr *P = Cmp->getLHS()->IgnoreParenImpCasts();
      const Expr *K = Cmp->getRHS();
      if (!isa<ArraySubscriptExpr>(P)) {
        P = Cmp->getRHS()->IgnoreParenImpCasts();
        K = Cmp->getLHS();
        Op = BinaryOperator::reverseComparisonOp(Op);
      }
      const auto *ASE = dyn_cast<ArraySubscriptExpr>(P);
      if (!ASE || threadDependent(K))
        return std::nullopt;
      std::optional<IndexForm> I = parseIndex(ASE->getIdx());
      if (!I || I->B != Base::Tid || I->Xor)
        return std::nullopt;
      return Side{ASE->getBase(), K, I->Off, Op};
    };
    std::optional<Side> A = side(L), B = side(R);
    if (A && B && A->Off != B->Off && sameExpr(Ctx, A->Base, B->Base) &&
        sameExpr(Ctx, A->K, B->K)) {
      if (A->Off > B->Off)
        std::swap(A, B);
      auto below = [](BinaryOperatorKind Op) {
        return Op == BO_LT || Op == BO_LE;
      };
      auto strict = [](BinaryOperatorKind Op) {
        return Op == BO_LT || Op == BO_GT;
      };
      if (B->Off == A->Off + 1 && below(A->Op) != below(B->Op) &&
          strict(A->Op) != strict(B->Op)) {
        Uniform.push_back(A->K);
        S |= SingleThread;
      }
    }
    return S;
  }
  if (BO && BO->getOpcode() == BO_EQ) {
    if (ticketCompare(BO))
      return SingleThread | SingleBlock;
    // `threadIdx.x + c == U` with U the same in every thread of the block.
    auto isTid = [&](const Expr *E) {
      std::optional<IndexForm> I = parseIndex(E);
      return I && I->B == Base::Tid && !I->Xor;
    };
    const Expr *L = BO->getLHS(), *R = BO->getRHS();
    if (!isTid(L))
      std::swap(L, R);
    if (isTid(L) && !threadDependent(R) && !constant(R)) {
      Uniform.push_back(R);
      return SingleThread;
    }
    return 0;
  }
  // A flag set only from a ticket compare (`isLast = ticket == n - 1;`,
  // the threadFenceReduction sample): true in one block at most.
  const auto *DRE = dyn_cast<DeclRefExpr>(C);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  const auto *Fn = VD ? dyn_cast<FunctionDecl>(VD->getDeclContext()) : nullptr;
  if (!VD || isa<ParmVarDecl>(VD) || !Fn || !Fn->getBody() ||
      !(VD->hasLocalStorage() || VD->hasAttr<CUDASharedAttr>()))
    return 0;
  // A local set once from such a condition (`int last = (tid + 1 == n) ?
  // 1 : 0;`, SHOC's top_scan).
  if (VD->hasLocalStorage() && !VD->hasAttr<CUDASharedAttr>() &&
      VD->getInit() && !Reassigned.count(VD))
    if (unsigned S = singleCondition(VD->getInit(), Uniform))
      return S;
  auto isFalse = [&](const Expr *E) {
    std::optional<int64_t> V = constant(E);
    return V && *V == 0;
  };
  if (VD->getInit() && !isFalse(VD->getInit()))
    return 0;
  bool Set = false, Other = false;
  forEachDescendant(Fn->getBody(), [&](const Stmt *S) {
    auto isVar = [&](const Expr *E) {
      const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
      return D && D->getDecl() == VD;
    };
    if (const auto *B = dyn_cast<BinaryOperator>(S);
        B && B->isAssignmentOp() && isVar(B->getLHS())) {
      if (B->getOpcode() == BO_Assign && ticketCompare(B->getRHS()))
        Set = true;
      else if (B->getOpcode() != BO_Assign || !isFalse(B->getRHS()))
        Other = true;
    } else if (const auto *U = dyn_cast<UnaryOperator>(S);
               U &&
               (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf) &&
               isVar(U->getSubExpr())) {
      Other = true;
    }
  });
  if (!Set || Other)
    return 0;
  return VD->hasAttr<CUDASharedAttr>() ? SingleBlock
                                       : SingleThread | SingleBlock;
}

const Expr *stripCasts(const Expr *E) {
  while (true) {
    E = E->IgnoreParenImpCasts();
    const auto *Cast = dyn_cast<ExplicitCastExpr>(E);
    if (!Cast || !Cast->getType()->isIntegerType())
      return E;
    E = Cast->getSubExpr();
  }
}

bool refersTo(const Expr *E, const VarDecl *V) {
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(stripCasts(E));
  return DRE && DRE->getDecl() == V;
}

std::optional<Race> raceBetween(const Access &W, const Access &R,
                                int64_t MaxThreadsX, bool WriteWrite) {
  if (!W.Write || R.Write != WriteWrite || W.Array != R.Array ||
      W.Idx.B != R.Idx.B || W.Idx.B == Base::None || W.Idx.Xor)
    return std::nullopt;
  bool Tid = W.Idx.B == Base::Tid;
  int64_t RLo = Tid ? R.G.TidLo : R.G.LaneLo,
          RHi = Tid ? R.G.TidHi : R.G.LaneHi;
  int64_t WLo = Tid ? W.G.TidLo : W.G.LaneLo,
          WHi = Tid ? W.G.TidHi : W.G.LaneHi;
  if (Tid) {
    RHi = std::min(RHi, MaxThreadsX);
    WHi = std::min(WHi, MaxThreadsX);
  }
  if (R.Idx.Xor) {
    if (W.Idx.Off != 0 || std::max(RLo, WLo) >= std::min(RHi, WHi))
      return std::nullopt;
    return Race{&W, &R, R.Idx.Off > 0 && R.Idx.Off < WarpSize};
  }
  // Thread t reads element t + R.Off, written by thread t + D.
  int64_t D = R.Idx.Off - W.Idx.Off;
  if (D == 0)
    return std::nullopt;
  int64_t Lo = std::max(RLo, WLo - D), Hi = std::min(RHi, WHi - D);
  if (Lo >= Hi)
    return std::nullopt;
  if (!Tid) {
    bool Same = D > -WarpSize && D < WarpSize;
    if (!Same && W.WarpWindow && R.WarpWindow)
      return std::nullopt;
    return Race{&W, &R, Same};
  }
  // The lanes each side's guards let in (`if (lane < o)` with
  // `lane = tid & 31`): whether t and t + D are in the same warp, and
  // whether both lanes pass, depends on t % 32 only, so the first 64
  // readers of the range show every case.
  auto lane = [](int64_t T) { return ((T % WarpSize) + WarpSize) % WarpSize; };
  bool Any = false, SameWarp = true;
  for (int64_t T = Lo; T < Hi && T < Lo + 2 * WarpSize; ++T) {
    int64_t L = lane(T), LW = lane(T + D);
    if (L < R.G.LaneLo || L >= R.G.LaneHi || LW < W.G.LaneLo ||
        LW >= W.G.LaneHi)
      continue;
    bool Same = T >= 0 && T + D >= 0 && T / WarpSize == (T + D) / WarpSize;
    if (!Same && W.WarpWindow && R.WarpWindow)
      continue;
    Any = true;
    SameWarp &= Same;
  }
  if (!Any)
    return std::nullopt;
  return Race{&W, &R, SameWarp};
}

/// Whether \p E reads blockIdx, directly or through a local initialised
/// from it.
static bool blockDependent(const Expr *E, unsigned Depth = 0) {
  bool Found = false;
  forEachDescendant(E, [&](const Stmt *S) {
    const auto *X = dyn_cast<Expr>(S);
    if (Found || !X)
      return;
    if (builtinVariable(X) == "blockIdx")
      Found = true;
    else if (const auto *DRE = dyn_cast<DeclRefExpr>(X))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
          VD && VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) &&
          VD->getInit() && Depth < 4)
        Found = blockDependent(VD->getInit(), Depth + 1);
  });
  return Found;
}

bool storesDiffer(const Analysis &A, const Access &X, const Access &Y,
                  bool Blocks) {
  if (!X.Stored || !Y.Stored)
    return false;
  if (Blocks)
    return blockDependent(X.Stored) || blockDependent(Y.Stored);
  // A value a call may have made the same in every thread (`reduce(&v)`,
  // `state.merge(...)`) is not known to differ.
  auto opaque = [&](const Expr *E) {
    bool Any = false;
    forEachDescendant(E, [&](const Stmt *S) {
      if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
          Any |= A.Opaque.count(VD) > 0;
    });
    return Any;
  };
  if ((A.threadDependent(X.Stored) && !opaque(X.Stored)) ||
      (A.threadDependent(Y.Stored) && !opaque(Y.Stored)))
    return true;
  std::optional<int64_t> CX = A.constant(X.Stored), CY = A.constant(Y.Stored);
  return CX && CY && *CX != *CY;
}

/// Whether \p E holds one value for every thread of the block: a constant,
/// or an expression of parameters, block built-ins and uniform locals that
/// loads nothing from memory.
static bool sameInEveryThread(const Analysis &A, const Expr *E) {
  if (A.constant(E))
    return true;
  if (A.threadDependent(E))
    return false;
  return !readsMemory(E, /*NamedMemory=*/true);
}

bool ownStoreFirst(const Analysis &A, const Access &W, const Access &R) {
  if (!W.Write || R.Write || !W.Stored || W.Atomic || W.GridOnly ||
      W.Order >= R.Order || W.Side || R.Side || W.Carried || R.Carried ||
      W.Inlined != R.Inlined || !sameInEveryThread(A, W.Stored))
    return false;
  // The same element for every thread.
  if (W.Subs.size() != R.Subs.size() || W.Offset || R.Offset)
    return false;
  for (auto [SW, SR] : llvm::zip(W.Subs, R.Subs)) {
    std::optional<int64_t> CW = A.constant(SW), CR = A.constant(SR);
    if (!CW || !CR || *CW != *CR)
      return false;
  }
  // Every thread that reaches the read has passed the write.
  const Guard &GW = W.G, &GR = R.G;
  if (GW.TidLo > GR.TidLo || GW.TidHi < GR.TidHi || GW.LaneLo > GR.LaneLo ||
      GW.LaneHi < GR.LaneHi || GW.Conds.size() > GR.Conds.size() ||
      !std::equal(GW.Conds.begin(), GW.Conds.end(), GR.Conds.begin()))
    return false;
  return W.Loops.size() <= R.Loops.size() &&
         std::equal(W.Loops.begin(), W.Loops.end(), R.Loops.begin());
}

void boundThreads(Analysis &A, const FunctionDecl *FD) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(FD->getBody());
  if (!Body)
    return;
  const Stmt *FirstReturn = nullptr;
  for (const Stmt *S : Body->body()) {
    forEachDescendant(S, [&](const Stmt *X) {
      if (!FirstReturn && isa<ReturnStmt>(X))
        FirstReturn = S;
    });
    if (FirstReturn)
      break;
  }
  auto before = [&](const Stmt *S) {
    for (const Stmt *C : Body->body()) {
      if (C == FirstReturn)
        return false;
      if (C == S)
        return true;
    }
    return false;
  };
  int64_t Bound = Inf;
  for (const auto &Region : A.Regions)
    for (const Access &X : Region) {
      const auto *VD = dyn_cast<VarDecl>(X.Array);
      const auto *AT =
          VD ? A.Ctx.getAsConstantArrayType(VD->getType()) : nullptr;
      auto It = A.Slots.find(X.Stmt);
      if (!AT || X.Idx.B != Base::Tid || X.Idx.Xor || X.G.TidLo != 0 ||
          X.G.TidHi != Inf || !X.G.BlockUniform || It == A.Slots.end() ||
          It->second.Kind != SlotKind::Compound || It->second.Parent != Body ||
          !before(X.Stmt))
        continue;
      Bound = std::min<int64_t>(Bound, (int64_t)AT->getSize().getZExtValue() -
                                           X.Idx.Off);
    }
  if (Bound >= Inf)
    return;
  auto clamp = [&](Guard &G) {
    if (G.TidHi > Bound) {
      G.TidHi = Bound;
      G.Bounded = true;
    }
  };
  for (auto &Region : A.Regions)
    for (Access &X : Region)
      clamp(X.G);
  for (auto &KV : A.Slots)
    clamp(KV.second.G);
}

Guard entryGuard(const Analysis &A, const FunctionDecl *FD,
                 const CallMap &Calls) {
  Guard Entry;
  if (!FD->hasAttr<CUDAGlobalAttr>()) {
    auto It = Calls.find(FD->getCanonicalDecl());
    if (It != Calls.end() && !It->second.empty()) {
      Entry.TidLo = Inf;
      Entry.TidHi = 0;
      Entry.LaneLo = WarpSize;
      Entry.LaneHi = 0;
      // Exact only where every call is reached by exactly the same
      // threads, all of them described by what the helper sees.
      std::optional<Guard> FirstMapped;
      for (const CallSite &CS : It->second) {
        Guard G = CS.G;
        // Map the caller's guards through own-index parameters.
        Guard Mapped;
        Mapped.WarpUniform = G.WarpUniform;
        Mapped.BlockUniform = G.BlockUniform;
        for (unsigned I = 0;
             I < CS.Call->getNumArgs() && I < FD->getNumParams(); ++I) {
          Base B = A.baseOf(CS.Call->getArg(I));
          if (B == Base::Tid) {
            Mapped.TidLo = G.TidLo;
            Mapped.TidHi = G.TidHi;
          }
        }
        Mapped.LaneLo = G.LaneLo;
        Mapped.LaneHi = G.LaneHi;
        Mapped.Exact = G.Exact && Mapped.TidLo == G.TidLo &&
                       (Mapped.TidHi == G.TidHi || G.Bounded);
        if (!FirstMapped)
          FirstMapped = Mapped;
        else if (FirstMapped->TidLo != Mapped.TidLo ||
                 FirstMapped->TidHi != Mapped.TidHi ||
                 FirstMapped->LaneLo != Mapped.LaneLo ||
                 FirstMapped->LaneHi != Mapped.LaneHi)
          Entry.Exact = false;
        Entry.Exact &= Mapped.Exact;
        Entry.TidLo = std::min(Entry.TidLo, Mapped.TidLo);
        Entry.TidHi = std::max(Entry.TidHi, Mapped.TidHi);
        Entry.LaneLo = std::min(Entry.LaneLo, Mapped.LaneLo);
        Entry.LaneHi = std::max(Entry.LaneHi, Mapped.LaneHi);
        Entry.WarpUniform &= Mapped.WarpUniform;
        Entry.BlockUniform &= Mapped.BlockUniform;
      }
    } else {
      Entry.WarpUniform = Entry.BlockUniform = Entry.Exact = false;
    }
  }
  return Entry;
}

} // namespace clang::tidy::cuda::warpsync
