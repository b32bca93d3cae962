//===--- UncoalescedAccessCheckModel.cpp - cuda-lint ----------------------===//
//
// The coalescing model of cuda-uncoalesced-access (UncoalescedAccessModel.h):
// the sectors a warp request touches, loop counters that walk a record, and
// the check's analyses of a kernel kept between matches: the loads that read
// most of each thread's record, the constants every launch passes, and the
// offsets of loads with a run-time lane stride. Guide section: OpenCL
// best-practices guide for CUDA GPUs, 3.2.1 and 3.2.1.4.
//
//===----------------------------------------------------------------------===//

#include "UncoalescedAccessAccesses.h"
#include "UncoalescedAccessCheck.h"
#include "UncoalescedAccessModel.h"
#include "cudalint/analysis/DeviceCode.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include <set>
#include <tuple>
#include <vector>

using namespace clang::ast_matchers;

namespace clang::tidy::cuda::uncoalesced_access {

// A run-time width worth reporting: made of the kernel's parameters and the
// launch shape only (not of loop counters or block indices, which can be 0
// or 1).
bool isRunTimeWidth(const IndexPoly &P) {
  for (const auto &Entry : P.terms()) {
    if (Entry.second < 0)
      return false;
    for (const IndexSymbol &S : Entry.first) {
      if (S.Kind == IndexSymbol::BlockDim || S.Kind == IndexSymbol::GridDim)
        continue;
      if (S.Kind == IndexSymbol::Variable && isa<ParmVarDecl>(S.getDecl()))
        continue;
      return false;
    }
  }
  return !P.isZero();
}

namespace {

int64_t floorDiv32(int64_t A) { return A >= 0 ? A / 32 : -((-A + 31) / 32); }

} // namespace

// Counts, warp by warp, the sectors an access touches. Lane (x, y, z)
// accesses byte Offset + (cx * x + cy * y + cz * z) * ElemSize, where the
// coefficients of threadIdx.y and .z are constants; where one is not (a
// run-time row width) each row has sectors of its own. A run-time x stride
// gives each lane sectors of its own (two where \p Inside is false).
WarpCount countSectors(const IndexForm &Index, const LaneStride &Stride,
                       int64_t ElemSize, int64_t AccessSize, int64_t Offset,
                       bool Inside, std::optional<BlockShape> Shape,
                       LaneGuards Guards) {
  std::array<int64_t, 3> Coef = {0, 0, 0};
  std::array<bool, 3> Known = {true, true, true};
  if (Stride.isConstant())
    Coef[0] = Stride.Value;
  else
    Known[0] = false;
  IndexPoly ThreadPart = Index.Poly ? Index.Poly->threadPart() : IndexPoly();
  for (const auto &[M, C] : ThreadPart.terms())
    for (const IndexSymbol &Sym : M) {
      if (Sym.Kind != IndexSymbol::ThreadIdx || Sym.Dim == 0)
        continue;
      if (M.size() == 1)
        Coef[Sym.Dim] += C;
      else
        Known[Sym.Dim] = false;
    }
  BlockShape B = Shape ? *Shape : BlockShape{1024, 1, 1};
  int64_t Threads = B[0] * B[1] * B[2];
  WarpCount Best;
  for (int64_t First = 0; First < Threads && First < 1024; First += 32) {
    // Sectors keyed by the coordinates whose coefficient is not known.
    std::set<std::tuple<int64_t, int64_t, int64_t>> Touched, Consecutive;
    int64_t Lanes = 0;
    for (int64_t T = First; T < First + 32 && T < Threads; ++T) {
      std::array<int64_t, 3> P = {T % B[0], (T / B[0]) % B[1],
                                  T / (B[0] * B[1])};
      if (!Guards.mayRun(P[0], P[1], P[2]))
        continue;
      ++Lanes;
      int64_t KeyY = Known[1] ? 0 : P[1] + 1, KeyZ = Known[2] ? 0 : P[2] + 1;
      if (Known[0]) {
        int64_t Start = Offset + (Coef[0] * P[0] + Coef[1] * P[1] * Known[1] +
                                  Coef[2] * P[2] * Known[2]) *
                                     ElemSize;
        for (int64_t S = floorDiv32(Start);
             S <= floorDiv32(Start + AccessSize - 1); ++S)
          Touched.insert({KeyY, KeyZ, S});
      } else {
        for (int64_t K = 0; K < (Inside ? 1 : 2); ++K)
          Touched.insert({T + 1, K, 0});
      }
      // The same index with the lane stride taken out: rows as far apart,
      // in elements of the access's size (`4 * (y * W + x)` against
      // `y * W + x`); a row whose distance is not a multiple of the stride
      // has sectors of its own.
      int64_t Start = P[0], BaseY = KeyY, BaseZ = KeyZ;
      for (int D = 1; D < 3; ++D) {
        if (!Known[D] || P[D] == 0)
          continue;
        if (Known[0] && Coef[0] != 0 && Coef[D] % Coef[0] == 0)
          Start += Coef[D] / std::abs(Coef[0]) * P[D];
        else
          (D == 1 ? BaseY : BaseZ) = P[D] + 1;
      }
      Start *= AccessSize;
      for (int64_t S = floorDiv32(Start);
           S <= floorDiv32(Start + AccessSize - 1); ++S)
        Consecutive.insert({BaseY, BaseZ, S});
    }
    int64_t Sectors = static_cast<int64_t>(Touched.size());
    if (Sectors > Best.Sectors ||
        (Sectors == Best.Sectors && Lanes > Best.Lanes))
      Best = {Lanes, Sectors, static_cast<int64_t>(Consecutive.size())};
  }
  return Best;
}

namespace {

// True when every thread that enters \p Loop runs its body for every value
// of its counter: nothing in the body leaves an iteration or the loop early.
bool runsEveryIteration(ASTContext &Ctx, const Stmt *Loop) {
  const auto *For = dyn_cast_or_null<ForStmt>(Loop);
  if (!For || !For->getBody())
    return false;
  return match(findAll(stmt(anyOf(breakStmt(), continueStmt(), returnStmt(),
                                  gotoStmt(), cxxThrowExpr()))),
               *For->getBody(), Ctx)
      .empty();
}

const Expr *countingLoopBound(ASTContext &Ctx, const VarDecl *V,
                              ThreadIndexAnalysis &TIA,
                              int64_t *First = nullptr);

/// The value of a uniform expression where the launches make it a constant.
using BoundValueFn = llvm::function_ref<std::optional<int64_t>(const Expr *)>;

// A term `c * i` of \p Rest whose `i` is the counter of a loop with constant
// bounds that every thread runs in full (`for (i = 0; i < 4; i++)`, or
// `for (i = 0; i < w; i++)` with \p BoundValue giving w): the counter, c
// and the values the counter takes.
std::optional<std::tuple<IndexSymbol, int64_t, LoopSpan>>
loopCounterTerm(ASTContext &Ctx, const IndexPoly &Rest,
                ThreadIndexAnalysis &TIA, BoundValueFn BoundValue) {
  for (const auto &[M, Coef] : Rest.terms()) {
    if (M.size() != 1 || M[0].Kind != IndexSymbol::Variable)
      continue;
    const auto *V = dyn_cast_or_null<VarDecl>(M[0].getDecl());
    if (!V)
      continue;
    std::optional<LoopSpan> Span = TIA.constantLoopSpan(V);
    if (Span && Span->Step != 0 && runsEveryIteration(Ctx, Span->Loop))
      return std::make_tuple(M[0], Coef, *Span);
    int64_t First = 0;
    if (const Expr *Bound = countingLoopBound(Ctx, V, TIA, &First))
      if (std::optional<int64_t> N = BoundValue(Bound); N && *N > First) {
        LoopSpan Known;
        Known.First = First;
        Known.Last = *N - 1;
        Known.Step = 1;
        return std::make_tuple(M[0], Coef, Known);
      }
  }
  return std::nullopt;
}

// The bound B of `for (int i = 0; i < B; ++i)` (`i++`, `i += 1`, `B > i`)
// whose counter \p V every thread runs from 0 to B - 1 in full; null for
// any other variable. With \p First, the counter may start at any constant
// from 0 up (`for (int i = 1; i < B; i++)`), which \p First receives.
const Expr *countingLoopBound(ASTContext &Ctx, const VarDecl *V,
                              ThreadIndexAnalysis &TIA, int64_t *First) {
  if (!TIA.isInductionVariable(V))
    return nullptr;
  Expr::EvalResult Init;
  if (!V->getInit() || V->getInit()->isValueDependent() ||
      !V->getInit()->EvaluateAsInt(Init, Ctx) || !Init.Val.isInt() ||
      Init.Val.getInt().isNegative() ||
      Init.Val.getInt().getSignificantBits() > 32 ||
      (!First && Init.Val.getInt() != 0))
    return nullptr;
  if (First)
    *First = Init.Val.getInt().getExtValue();
  DynTypedNodeList Parents = Ctx.getParents(*V);
  const auto *DS = Parents.empty() ? nullptr : Parents[0].get<DeclStmt>();
  if (!DS)
    return nullptr;
  Parents = Ctx.getParents(*DS);
  const auto *For = Parents.empty() ? nullptr : Parents[0].get<ForStmt>();
  if (!For || For->getInit() != DS || !runsEveryIteration(Ctx, For))
    return nullptr;
  auto IsV = [&](const Expr *E) {
    const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return D && D->getDecl() == V;
  };
  const Expr *Inc = For->getInc() ? For->getInc()->IgnoreParens() : nullptr;
  bool StepOne = false;
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(Inc))
    StepOne = UO->isIncrementOp() && IsV(UO->getSubExpr());
  else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Inc)) {
    Expr::EvalResult R;
    StepOne = BO->getOpcode() == BO_AddAssign && IsV(BO->getLHS()) &&
              !BO->getRHS()->isValueDependent() &&
              BO->getRHS()->EvaluateAsInt(R, Ctx) && R.Val.isInt() &&
              R.Val.getInt() == 1;
  }
  if (!StepOne)
    return nullptr;
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      For->getCond() ? For->getCond()->IgnoreParenImpCasts() : nullptr);
  if (!Cond)
    return nullptr;
  if (Cond->getOpcode() == BO_LT && IsV(Cond->getLHS()))
    return Cond->getRHS();
  if (Cond->getOpcode() == BO_GT && IsV(Cond->getRHS()))
    return Cond->getLHS();
  return nullptr;
}

} // namespace

// True when \p Index walks a whole record of a run-time length: it holds a
// term `i` whose `i` counts from 0 to the lane stride \p Stride - 1
// (`for (f = 0; f < F; ++f) x[t * F + f]`), so each thread reads every
// element of its record.
bool walksWholeRecord(ASTContext &Ctx, const IndexPoly &Index,
                      const IndexPoly &Stride, ThreadIndexAnalysis &TIA) {
  for (const auto &[M, Coef] : Index.terms()) {
    if (Coef != 1 || M.size() != 1 || M[0].Kind != IndexSymbol::Variable)
      continue;
    const auto *V = dyn_cast_or_null<VarDecl>(M[0].getDecl());
    const Expr *Bound = V ? countingLoopBound(Ctx, V, TIA) : nullptr;
    if (!Bound)
      continue;
    IndexForm B = TIA.analyze(Bound);
    if (B.Poly && *B.Poly == Stride)
      return true;
  }
  return false;
}

// True when every term of \p Rest is a multiple of the one-term stride
// \p Stride (`n * tid`, `n * blockIdx.x * blockDim.x`): the index's
// constant part is then an offset into the thread's record, which starts
// at a multiple of the stride (not so for `n * tid + n * n`).
bool startsRecords(const IndexPoly &Rest, const IndexPoly &Stride) {
  if (Stride.terms().size() != 1)
    return false;
  const auto &[SM, SC] = *Stride.terms().begin();
  if (SC == 0)
    return false;
  for (const auto &[M, C] : Rest.terms()) {
    if (C % SC != 0)
      return false;
    IndexPoly::Monomial Left(M.begin(), M.end());
    for (const IndexSymbol &S : SM) {
      auto It = llvm::find(Left, S);
      if (It == Left.end())
        return false;
      Left.erase(It);
    }
  }
  return true;
}

namespace {

// The value of \p E where it is an integer constant.
std::optional<int64_t> constantValue(ASTContext &Ctx, const Expr *E) {
  return constantIntValue(Ctx, E, 40);
}

// The functions with a body in \p DC and its namespaces, outside system
// headers (declarations of a precompiled prelude are not loaded; those of
// a precompiled include prefix with the build's headers are).
void userBodies(const SourceManager &SM, const DeclContext *DC,
                SmallVectorImpl<const FunctionDecl *> &Out) {
  for (const Decl *D : userCodeDecls(DC)) {
    if (SM.isInSystemHeader(D->getLocation()))
      continue;
    if (const auto *FD = dyn_cast<FunctionDecl>(D)) {
      if (FD->doesThisDeclarationHaveABody())
        Out.push_back(FD);
    } else if (const auto *FTD = dyn_cast<FunctionTemplateDecl>(D)) {
      // The instantiations of a function template (their launches and
      // calls have their arguments substituted; the pattern's do not).
      for (const FunctionDecl *Spec : FTD->specializations())
        if (Spec->doesThisDeclarationHaveABody() &&
            Spec->getTemplateSpecializationKind() != TSK_ExplicitSpecialization)
          Out.push_back(Spec);
    } else if (const auto *RD = dyn_cast<CXXRecordDecl>(D)) {
      // The member functions defined in a class (a launch there counts as
      // any other).
      if (RD->isThisDeclarationADefinition() && !RD->isDependentContext())
        userBodies(SM, RD, Out);
    } else if (const auto *NS = dyn_cast<NamespaceDecl>(D)) {
      userBodies(SM, NS, Out);
    } else if (const auto *LS = dyn_cast<LinkageSpecDecl>(D)) {
      userBodies(SM, LS, Out);
    }
  }
}

/// The innermost statement on the way from \p E up to its function's body
/// that decides whether \p E runs: the arm of a branch, a loop other than
/// \p CounterLoop (whose counter walks the record), a conditional operator
/// or the right operand of `&&` and `||`. Null: \p E runs whenever the
/// function body's straight-line code does.
const Stmt *controllingStmt(ASTContext &Ctx, const Expr *E,
                            const Stmt *CounterLoop) {
  DynTypedNode Cur = DynTypedNode::create(*E);
  for (unsigned Depth = 0; Depth < 256; ++Depth) {
    DynTypedNodeList Parents = Ctx.getParents(Cur);
    if (Parents.empty() || Parents[0].get<FunctionDecl>())
      return nullptr;
    const Stmt *Child = Cur.get<Stmt>();
    Cur = Parents[0];
    const auto *P = Cur.get<Stmt>();
    if (!P)
      continue;
    // A branch: the arm (`then` and `else` are told apart).
    if (const auto *If = dyn_cast<IfStmt>(P)) {
      if (Child != If->getCond())
        return Child;
    } else if (const auto *CO = dyn_cast<AbstractConditionalOperator>(P)) {
      if (Child != CO->getCond())
        return Child;
    } else if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (BO->isLogicalOp() && Child == BO->getRHS())
        return Child;
    } else if (isa<SwitchCase, ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(
                   P)) {
      if (P != CounterLoop)
        return P;
    }
  }
  return nullptr;
}

} // namespace

} // namespace clang::tidy::cuda::uncoalesced_access

namespace clang::tidy::cuda {

using namespace uncoalesced_access;

const llvm::DenseMap<const Expr *, UncoalescedAccessCheck::RecordRead> &
UncoalescedAccessCheck::recordAccesses(ASTContext &Ctx,
                                       const FunctionDecl *Kernel,
                                       ThreadIndexAnalysis &TIA) {
  auto [It, Inserted] = WholeRecords.try_emplace(Kernel);
  llvm::DenseMap<const Expr *, RecordRead> &Result = It->second;
  if (!Inserted)
    return Result;
  // The reads (`p[i]`, `*(p + i)`, `p[i].x`, `(p + i)->x`) whose lane
  // stride S (in elements) is a constant, grouped by pointer parameter,
  // element size, S and the non-constant part of the index: one record of
  // S elements per thread. The bytes of the record that each group's reads
  // cover. The plain stores likewise, in groups of their own: a thread that
  // writes its whole record (`f[8 * i + 0] = ...; ... f[8 * i + 7] = ...;`)
  // has the warp's stores fill every byte of the sectors they touch.
  struct Group {
    bool Stores;
    /// For stores, the statement that decides whether they run: a record
    /// is written whole only by stores that run together.
    const Stmt *Control;
    const ParmVarDecl *Param;
    int64_t ElemSize, Stride;
    IndexPoly Rest;
    std::set<int64_t> Residues;
    std::vector<bool> Covered; ///< Per byte of the record.
    /// The pure loads, or the plain stores, of the group.
    SmallVector<const Expr *, 4> Accesses;
  };
  std::vector<Group> Groups;
  const Stmt &Body = *Kernel->getBody();
  auto Value = [&](const ParmVarDecl *P) {
    return launchValue(Ctx, Kernel, P);
  };
  auto Visit = [&](const Expr *E, const Expr *BasePtr, const Expr *Idx,
                   const FieldDecl *Member) {
    std::optional<AccessInfo> Info =
        describeAccess(Ctx, Kernel, E, BasePtr, Idx, Member, TIA);
    if (Info)
      applyLaunchValues(*Info, Kernel, TIA, Value);
    // `a[i] += v` reads; plain stores are grouped apart.
    if (!Info || !Info->Index.Poly)
      return;
    bool Stores = Info->Kind == AccessKind::Store;
    LaneStride Stride = TIA.laneStride(Info->Index);
    if (!Stride.isConstant())
      return;
    int64_t S = Stride.Value < 0 ? -Stride.Value : Stride.Value;
    if (S < 1 || S * Info->ElemSize > 4096)
      return;
    const IndexPoly &Poly = *Info->Index.Poly;
    int64_t C = Poly.constantTerm();
    IndexPoly Rest = Poly - IndexPoly::constant(C);
    // A parameter that every launch passes the same constant for is that
    // constant (`r[0 * s]`, `r[1 * s]`, `r[2 * s]` with `s == 1` at every
    // launch read offsets 0, 1 and 2), as for the lane stride.
    for (const auto &[M, Coef] : Poly.terms()) {
      if (M.size() != 1 || M[0].Kind != IndexSymbol::Variable)
        continue;
      const auto *P = dyn_cast_or_null<ParmVarDecl>(M[0].getDecl());
      if (!P || P->getDeclContext() != Kernel)
        continue;
      if (std::optional<int64_t> V = launchValue(Ctx, Kernel, P)) {
        C += Coef * *V;
        Rest = Rest - IndexPoly::symbol(M[0]) * Coef;
      }
    }
    // A counter of a loop over constant bounds added to the record's base
    // (`for (int i = 0; i < 4; ++i) a[4 * t + i]`) reads, over the loop,
    // the elements at every value it takes, as constant offsets would.
    SmallVector<int64_t, 8> Consts = {C};
    const Stmt *CounterLoop = nullptr;
    // A bound that the launches make a constant: for records of up to a
    // cache line (128 bytes), which the loop's first iterations bring into
    // L1 whole; a longer row per thread (`for (l = 0; l < seqlen; l++)
    // u[d * seqlen + l]`) is the textbook strided pattern and stays
    // reported.
    auto BoundValue = [&](const Expr *Bound) -> std::optional<int64_t> {
      if (S * Info->ElemSize > 128)
        return std::nullopt;
      IndexForm F = TIA.analyze(Bound);
      if (!F.Poly)
        return std::nullopt;
      bool Changed = false;
      return withLaunchValues(*F.Poly, Kernel, Value, Changed).getConstant();
    };
    if (std::optional<std::tuple<IndexSymbol, int64_t, LoopSpan>> Counter =
            loopCounterTerm(Ctx, Rest, TIA, BoundValue)) {
      const LoopSpan *Span = &std::get<2>(*Counter);
      CounterLoop = Span->Loop;
      Consts.clear();
      for (int64_t N = 0, V = Span->First;
           N < S && (Span->Step > 0 ? V <= Span->Last : V >= Span->Last);
           ++N, V += Span->Step)
        Consts.push_back(C + std::get<1>(*Counter) * V);
      Rest = Rest -
             IndexPoly::symbol(std::get<0>(*Counter)) * std::get<1>(*Counter);
    }
    const Stmt *Control =
        Stores ? controllingStmt(Ctx, E, CounterLoop) : nullptr;
    auto G = llvm::find_if(Groups, [&](const Group &G) {
      return G.Stores == Stores && G.Control == Control &&
             G.Param == Info->Param && G.ElemSize == Info->ElemSize &&
             G.Stride == S && G.Rest == Rest;
    });
    if (G == Groups.end()) {
      Groups.push_back(
          {Stores, Control, Info->Param, Info->ElemSize, S, Rest, {}, {}, {}});
      G = std::prev(Groups.end());
      G->Covered.assign(S * Info->ElemSize, false);
    }
    int64_t Offset = memberOffset(Ctx, Member);
    int64_t RecordBytes = S * Info->ElemSize;
    for (int64_t K : Consts) {
      int64_t Residue = ((K % S) + S) % S;
      if (!Member)
        G->Residues.insert(Residue);
      for (int64_t B = 0; B < Info->AccessSize; ++B)
        G->Covered[(Residue * Info->ElemSize + Offset + B) % RecordBytes] =
            true;
    }
    if (Info->Kind != AccessKind::LoadStore)
      G->Accesses.push_back(E);
  };
  forEachAccess(Ctx, Body, Visit);
  for (const Group &G : Groups) {
    int64_t Bytes = llvm::count(G.Covered, true);
    int64_t RecordBytes = static_cast<int64_t>(G.Covered.size());
    // Mostly read: at least MostlyReadPercent of each record's bytes.
    // Written: every byte (a sector partly written costs its whole write).
    if (Bytes * 100 < MostlyReadPercent * RecordBytes ||
        (G.Stores && Bytes < RecordBytes))
      continue;
    bool WholeElements = static_cast<int64_t>(G.Residues.size()) == G.Stride;
    // Measured on an H200 (bench/gpu/uncoalesced_records.cu), each kernel
    // bound by the access: a record read whole costs at most 1.05x a
    // coalesced layout up to 8 elements (of 4 or 8 bytes), 2x at 16; one
    // written whole at most 1.15x up to 16 bytes, 5x to 13x from 28.
    bool Cheap = G.Stores ? RecordBytes <= 16 : G.Stride <= 8;
    for (const Expr *E : G.Accesses)
      Result[E] = RecordRead{G.Stride, Bytes, RecordBytes,
                             WholeElements && Bytes == RecordBytes, Cheap};
  }
  return Result;
}

const llvm::DenseMap<const Expr *, UncoalescedAccessCheck::Layout> &
UncoalescedAccessCheck::layouts(ASTContext &Ctx, const FunctionDecl *Kernel,
                                ThreadIndexAnalysis &TIA) {
  auto [It, Inserted] = Layouts.try_emplace(Kernel);
  llvm::DenseMap<const Expr *, Layout> &Result = It->second;
  if (!Inserted)
    return Result;
  struct Key {
    AccessKind Kind;
    const ParmVarDecl *Param;
    int64_t ElemSize;
    LaneStride Stride;
    IndexPoly Rest;
  };
  std::vector<Key> Keys;
  std::vector<Layout> Groups;
  std::vector<std::pair<const Expr *, unsigned>> Members;
  // Counted by the bytes they access: the same element read twice is one
  // load (the compiler keeps it, or L1 serves it), as for the findings.
  std::set<std::tuple<unsigned, int64_t, int64_t>> Seen;
  const SourceManager &SM = Ctx.getSourceManager();
  auto Visit = [&](const Expr *E, const Expr *BasePtr, const Expr *Idx,
                   const FieldDecl *Member) {
    std::optional<AccessInfo> Info =
        describeAccess(Ctx, Kernel, E, BasePtr, Idx, Member, TIA);
    if (!Info || !Info->Index.Poly)
      return;
    applyLaunchValues(*Info, Kernel, TIA, [&](const ParmVarDecl *P) {
      return launchValue(Ctx, Kernel, P);
    });
    LaneStride Stride = TIA.laneStride(Info->Index);
    if (Stride.isUnknown() || (Stride.isConstant() && Stride.Value == 0))
      return;
    // What the same thread has just stored is not loaded again.
    if (Info->Kind == AccessKind::Load &&
        loadedFromOwnStore(Ctx, Kernel, E, TIA))
      return;
    const IndexPoly &Poly = *Info->Index.Poly;
    int64_t C = Poly.constantTerm();
    IndexPoly Rest = Poly - IndexPoly::constant(C);
    int64_t Offset = memberOffset(Ctx, Member);
    auto Same = [&](const Key &K) {
      return K.Kind == Info->Kind && K.Param == Info->Param &&
             K.ElemSize == Info->ElemSize && K.Stride.Kind == Stride.Kind &&
             K.Stride.Value == Stride.Value &&
             K.Stride.Symbols == Stride.Symbols && K.Rest == Rest;
    };
    unsigned Id = llvm::find_if(Keys, Same) - Keys.begin();
    if (Id == Keys.size()) {
      Keys.push_back({Info->Kind, Info->Param, Info->ElemSize, Stride, Rest});
      Groups.push_back({Id, 0, ~0u, 0});
    }
    unsigned Line = SM.getExpansionLineNumber(E->getBeginLoc());
    Layout &G = Groups[Id];
    G.Count += Seen.insert({Id, C, Offset}).second;
    G.FirstLine = std::min(G.FirstLine, Line);
    G.LastLine = std::max(G.LastLine, Line);
    Members.emplace_back(E, Id);
  };
  forEachAccess(Ctx, *Kernel->getBody(), Visit);
  for (auto [E, Id] : Members)
    Result[E] = Groups[Id];
  return Result;
}

/// The calls (launches included) in the user code of the translation unit,
/// with the function that makes each.
const std::vector<std::pair<const CallExpr *, const FunctionDecl *>> &
UncoalescedAccessCheck::calls(ASTContext &Ctx) {
  if (CallsCollected)
    return Calls;
  CallsCollected = true;
  SmallVector<const FunctionDecl *, 16> Bodies;
  userBodies(Ctx.getSourceManager(), Ctx.getTranslationUnitDecl(), Bodies);
  for (const FunctionDecl *F : Bodies)
    for (const auto &Node :
         match(findAll(callExpr().bind("c")), *F->getBody(), Ctx))
      Calls.emplace_back(Node.getNodeAs<CallExpr>("c"), F);
  return Calls;
}

/// The value every launch of \p Kernel in the translation unit passes for
/// \p P: a constant, or a `const` parameter of the launching function that
/// every call of it passes the same constant for (`run(..., 4)` calling
/// `kernel<<<g, b>>>(..., numChannels)`). nullopt when a launch is not
/// visible (the kernel's address is taken) or the values differ.
std::optional<int64_t>
UncoalescedAccessCheck::launchValue(ASTContext &Ctx, const FunctionDecl *Kernel,
                                    const ParmVarDecl *P) {
  auto [Cached, Inserted] = ParamValues.try_emplace(P);
  if (!Inserted)
    return Cached->second;
  std::optional<int64_t> V = launchValueImpl(Ctx, Kernel, P);
  ParamValues[P] = V;
  return V;
}

std::optional<int64_t> UncoalescedAccessCheck::launchValueImpl(
    ASTContext &Ctx, const FunctionDecl *Kernel, const ParmVarDecl *P) {
  const KernelLaunches::Launches *L = Launches->launchesOf(Kernel);
  if (!L || L->Unknown)
    return std::nullopt;
  unsigned Index = P->getFunctionScopeIndex();
  std::optional<int64_t> Value;
  bool Seen = false;
  auto Merge = [&](std::optional<int64_t> V) {
    if (!V || (Seen && Value != V))
      return false;
    Value = V;
    Seen = true;
    return true;
  };
  auto Callee = [](const CallExpr *C) {
    const FunctionDecl *F = C->getDirectCallee();
    return F ? F->getCanonicalDecl() : nullptr;
  };
  for (const auto &[Call, Caller] : calls(Ctx)) {
    if (!isa<CUDAKernelCallExpr>(Call) ||
        Callee(Call) != Kernel->getCanonicalDecl())
      continue;
    if (Index >= Call->getNumArgs())
      return std::nullopt;
    const Expr *Arg = Call->getArg(Index)->IgnoreParenImpCasts();
    if (std::optional<int64_t> V = constantValue(Ctx, Arg)) {
      if (!Merge(V))
        return std::nullopt;
      continue;
    }
    const auto *DRE = dyn_cast<DeclRefExpr>(Arg);
    const auto *CallerParam =
        DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
    if (!CallerParam || !CallerParam->getType().isConstQualified() ||
        CallerParam->getDeclContext() != Caller)
      return std::nullopt;
    unsigned CallerIndex = CallerParam->getFunctionScopeIndex();
    bool Called = false;
    for (const auto &[Outer, OuterCaller] : calls(Ctx)) {
      if (Callee(Outer) != Caller->getCanonicalDecl())
        continue;
      if (CallerIndex >= Outer->getNumArgs() ||
          !Merge(constantValue(Ctx, Outer->getArg(CallerIndex))))
        return std::nullopt;
      Called = true;
    }
    if (!Called)
      return std::nullopt;
  }
  return Seen ? Value : std::nullopt;
}

/// The constant offsets of the loads of \p Kernel through \p Param with
/// the element size \p ElemSize, the lane stride \p Stride and the
/// non-constant part \p Rest: the elements of its record each thread reads.
std::set<int64_t> UncoalescedAccessCheck::recordOffsets(
    ASTContext &Ctx, const FunctionDecl *Kernel, ThreadIndexAnalysis &TIA,
    const ParmVarDecl *Param, int64_t ElemSize, const IndexPoly &Stride,
    const IndexPoly &Rest) {
  auto [It, Inserted] = KernelLoads.try_emplace(Kernel);
  if (Inserted) {
    for (const auto &Node : match(findAll(arraySubscriptExpr().bind("e")),
                                  *Kernel->getBody(), Ctx)) {
      const auto *E = Node.getNodeAs<Expr>("e");
      const Expr *BasePtr = nullptr, *Idx = nullptr;
      if (!elementAccess(E, BasePtr, Idx))
        continue;
      std::optional<AccessInfo> Info =
          describeAccess(Ctx, Kernel, E, BasePtr, Idx, nullptr, TIA);
      if (Info)
        applyLaunchValues(*Info, Kernel, TIA, [&](const ParmVarDecl *P) {
          return launchValue(Ctx, Kernel, P);
        });
      if (!Info || Info->Kind == AccessKind::Store || !Info->Index.Poly)
        continue;
      LaneStride S = TIA.laneStride(Info->Index);
      if (!S.isSymbolic())
        continue;
      It->second.push_back(
          {Info->Param, Info->ElemSize, S.Symbols, *Info->Index.Poly});
    }
  }
  std::set<int64_t> Offsets;
  for (const KernelLoad &L : It->second) {
    if (L.Param != Param || L.ElemSize != ElemSize || !(L.Stride == Stride))
      continue;
    int64_t C = L.Index.constantTerm();
    if (L.Index - IndexPoly::constant(C) == Rest)
      Offsets.insert(C);
  }
  return Offsets;
}

} // namespace clang::tidy::cuda
