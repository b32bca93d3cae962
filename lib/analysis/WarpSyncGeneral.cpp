//===--- WarpSyncGeneral.cpp - cuda-lint ----------------------------------===//
//
// The general race analysis of cuda-warp-synchronous: subscripts compiled
// to small expression trees and evaluated for every thread of a model block
// (see GeneralRaces in WarpSyncAnalysis.h).
//
//===----------------------------------------------------------------------===//

#include "WarpSyncGeneralImpl.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include <map>
#include <tuple>
#include <vector>

namespace clang::tidy::cuda::warpsync {

std::string GeneralRaces::Impl::thread(uint32_t Key, bool WithBlock) const {
  uint32_t Lin = Key % 1024, Block = Key / 1024;
  int64_t TX = Lin % Shape[0], TY = (Lin / Shape[0]) % Shape[1],
          TZ = Lin / (Shape[0] * Shape[1]);
  std::string S = "thread ";
  if (Shape[2] > 1)
    S += "(" + std::to_string(TX) + ", " + std::to_string(TY) + ", " +
         std::to_string(TZ) + ")";
  else if (Shape[1] > 1)
    S += "(" + std::to_string(TX) + ", " + std::to_string(TY) + ")";
  else
    S += std::to_string(TX);
  if (WithBlock) {
    int64_t BX = Block % Grid[0], BY = (Block / Grid[0]) % Grid[1];
    S += " of block ";
    S += Grid[1] > 1
             ? "(" + std::to_string(BX) + ", " + std::to_string(BY) + ")"
             : std::to_string(BX);
  }
  return S;
}

unsigned GeneralRaces::Impl::singleCondition(const Access &W, const Access &R) {
  if (W.Side || R.Side)
    return 0;
  const SmallVector<Access, 8> *Region = nullptr;
  for (const auto &Rg : A.Regions)
    if (!Rg.empty() && &W >= Rg.begin() && &W < Rg.end())
      Region = &Rg;
  if (!Region)
    return 0;
  auto stable = [&](const Expr *U) {
    bool OK = true;
    forEachDescendant(U, [&](const Stmt *S) {
      const auto *DRE = dyn_cast<DeclRefExpr>(S);
      const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
      if (!VD)
        return;
      // A variable that a loop without a barrier around both changes
      // may differ between its iterations, which one region holds.
      for (const Stmt *L : W.Loops) {
        if (barrierLoop(L))
          continue;
        SourceRange LR = L->getSourceRange();
        if (Analysis::assignedIn(L, VD) ||
            (VD->getLocation().isValid() &&
             !Ctx.getSourceManager().isBeforeInTranslationUnit(
                 VD->getLocation(), LR.getBegin()) &&
             !Ctx.getSourceManager().isBeforeInTranslationUnit(
                 LR.getEnd(), VD->getLocation())))
          OK = false;
      }
      if (VD->hasLocalStorage() && !VD->getType()->isPointerType() &&
          A.Reassigned.count(VD) && !W.Loops.empty())
        OK = false;
      // Memory that the region writes may be read before or after.
      const ValueDecl *Arr = A.canonicalArray(VD);
      for (const Access &X : *Region)
        if (X.Write && X.Array == Arr)
          OK = false;
    });
    return OK;
  };
  unsigned Single = 0;
  for (const auto &[CW, VW] : W.G.Conds) {
    if (!VW)
      continue;
    for (const auto &[CR, VR] : R.G.Conds) {
      if (!VR || CW != CR)
        continue;
      SmallVector<const Expr *, 2> Uniform;
      unsigned S = A.singleCondition(CW, Uniform);
      if (S && llvm::all_of(Uniform, stable))
        Single |= S;
    }
  }
  return Single;
}

std::optional<Race> GeneralRaces::Impl::race(const Access &W, const Access &R,
                                             bool BlocksOnly, bool WriteWrite) {
  if (!W.Write || R.Write != WriteWrite || W.Array != R.Array)
    return std::nullopt;
  if (BlocksOnly && !gridWide(W))
    return std::nullopt;
  computeShape();
  StrictConds = WriteWrite;
  if (WriterMapsOf != &W) {
    WriterMaps.clear();
    WriterMapsOf = &W;
  }
  // Stores of one value in every thread (`threadIdx.x / 64` in blocks of
  // 64) leave the same value whichever comes last.
  if (WriteWrite && sameStoredValue(W, R))
    return std::nullopt;
  // A condition around both that lets in one thread of each block, or
  // one block: pairs of threads it does not let in both do not race.
  unsigned Single = singleCondition(W, R);
  if (Single & Analysis::SingleBlock) {
    if (BlocksOnly || (Single & Analysis::SingleThread))
      return std::nullopt;
  }
  if (Single & Analysis::SingleThread) {
    if (!gridWide(W))
      return std::nullopt;
    BlocksOnly = true;
  }
  // Write-write races between blocks are looked for in grid regions.
  bool SameBlockOnly =
      (Single & Analysis::SingleBlock) || (WriteWrite && !BlocksOnly);
  // An array indexed by the lane (`s[lane]`, `lane = threadIdx.x & 31`)
  // is the warp's own: the threads of one warp, as the own-index test
  // has it.
  bool OneWarp = W.Idx.B == Base::Lane || R.Idx.B == Base::Lane;
  // The loops with barriers around both, whose variables either uses:
  // the two must be in the same iteration (the head of a back-edge
  // region in the next one).
  const std::optional<Compiled> &CW = compiled(W), &CR = compiled(R);
  if (!CW || !CR)
    return std::nullopt;
  SmallVector<const VarDecl *, 2> Corr;
  const VarDecl *EdgeVar = nullptr;
  for (const Stmt *L : W.Loops) {
    if (!llvm::is_contained(R.Loops, L) || !barrierLoop(L))
      continue;
    const auto *For = dyn_cast<ForStmt>(L);
    const auto *Init =
        For ? dyn_cast_or_null<DeclStmt>(For->getInit()) : nullptr;
    const auto *V = Init && Init->isSingleDecl()
                        ? dyn_cast<VarDecl>(Init->getSingleDecl())
                        : nullptr;
    if (!V || !loopOf(W, V) ||
        (!llvm::is_contained(CW->Refs, V) && !llvm::is_contained(CR->Refs, V)))
      continue;
    Corr.push_back(V);
    if (L == W.BackEdgeLoop)
      EdgeVar = V;
  }
  const auto &IW = instances(W, OneWarp, Corr, W.Side == 1 ? EdgeVar : nullptr);
  if (!IW || IW->empty())
    return std::nullopt;
  const auto &IR = instances(R, OneWarp, Corr, R.Side == 1 ? EdgeVar : nullptr);
  if (!IR || IR->empty())
    return std::nullopt;
  // First the threads that surely reach the accesses; then, if they do
  // not race, those that may, by data the evaluation cannot know.
  std::optional<Race> Rc =
      match(W, R, *IW, *IR, BlocksOnly, SameBlockOnly, false);
  // An index read from memory, tried with sample values (its instances
  // are maybes): a race if, for some values, another thread's access meets
  // it, depending on the data (never for a write-write pair: which value
  // remains is then the data's business).
  if (!Rc && (CW->AnyIndex || CR->AnyIndex)) {
    if (!WriteWrite)
      Rc = match(W, R, *IW, *IR, BlocksOnly, SameBlockOnly, true);
    if (Rc) {
      Rc->DataDependent = true;
      Rc->DataIndex = CR->AnyIndex ? R.E : W.E;
    }
    return Rc;
  }
  if (!Rc) {
    Rc = match(W, R, *IW, *IR, BlocksOnly, SameBlockOnly, true);
    if (Rc) {
      Rc->DataDependent = true;
      for (const auto &[X, C] : {std::pair(&W, &*CW), std::pair(&R, &*CR)})
        for (size_t I = 0; I < C->Conds.size() && !Rc->DataCond; ++I)
          if (hasData(C->Conds[I].first))
            Rc->DataCond = X->G.Conds[I].first;
    }
  }
  return Rc;
}

const WriterMap &GeneralRaces::Impl::writers(const std::vector<Instance> &IW,
                                             bool WithMaybe) {
  auto [Pos, New] = WriterMaps.try_emplace({&IW, WithMaybe});
  WriterMap &WM = Pos->second;
  if (!New)
    return WM;
  WM.Map.reserve(IW.size());
  for (const Instance &I : IW) {
    WM.AnyMaybe |= I.Maybe;
    if (I.Maybe && !WithMaybe)
      continue;
    auto [It, Fresh] = WM.Map.try_emplace({I.Elem, I.Iter}, Writers{I.Thread});
    Writers &Wr = It->second;
    if (Fresh || Wr.First == I.Thread)
      continue;
    if (Wr.OtherThread == None)
      Wr.OtherThread = I.Thread;
    if (Wr.OtherWarp == None && Wr.First / 32 != I.Thread / 32)
      Wr.OtherWarp = I.Thread;
    if (Wr.OtherBlock == None && Wr.First / 1024 != I.Thread / 1024)
      Wr.OtherBlock = I.Thread;
  }
  return WM;
}

std::optional<Race> GeneralRaces::Impl::match(const Access &W, const Access &R,
                                              const std::vector<Instance> &IW,
                                              const std::vector<Instance> &IR,
                                              bool BlocksOnly,
                                              bool SameBlockOnly,
                                              bool WithMaybe) {
  bool AnyMaybe = writers(IW, false).AnyMaybe;
  if (WithMaybe && !AnyMaybe &&
      llvm::none_of(IR, [](const Instance &I) { return I.Maybe; }))
    return std::nullopt;
  const auto &Map = writers(IW, WithMaybe).Map;
  bool Any = false, SameWarp = true, CrossBlock = false;
  int Worst = -1;
  std::string Example;
  for (const Instance &I : IR) {
    if (I.Maybe && !WithMaybe)
      continue;
    auto It = Map.find({I.Elem, I.Iter});
    if (It == Map.end())
      continue;
    const Writers &Wr = It->second;
    int Rank = -1;
    uint32_t Ex = None;
    for (uint32_t C : {Wr.First, Wr.OtherThread, Wr.OtherWarp, Wr.OtherBlock}) {
      if (C == None || C == I.Thread)
        continue;
      int K = C / 1024 != I.Thread / 1024 ? 2 : C / 32 != I.Thread / 32;
      if ((K == 2 && SameBlockOnly) || (K > 0 && W.WarpWindow && R.WarpWindow))
        continue;
      if (K > Rank)
        Rank = K, Ex = C;
    }
    if (Rank < 0 || (BlocksOnly && Rank < 2))
      continue;
    Any = true;
    CrossBlock |= Rank == 2;
    SameWarp &= Rank == 0;
    if (Rank > Worst) {
      Worst = Rank;
      bool Blocks = Rank == 2;
      Example = example(R, I, thread(Ex, Blocks), Blocks);
    }
  }
  if (!Any)
    return std::nullopt;
  Race Rc{&W, &R, SameWarp};
  Rc.General = true;
  Rc.CrossBlock = CrossBlock;
  Rc.Example = Example;
  return Rc;
}

bool GeneralRaces::Impl::sameStoredValue(const Access &W, const Access &R) {
  if (!W.Stored || !R.Stored)
    return false;
  SmallVector<const VarDecl *, 2> Vars;
  int VW = compile(W.Stored, W, Vars), VR = compile(R.Stored, R, Vars);
  if (!Vars.empty() || !known(VW) || !known(VR))
    return false;
  std::optional<int64_t> First;
  bool Same = true;
  forEachThread(gridWide(W), /*OneWarp=*/false, [&](Env &En, uint32_t) {
    En.Symbols = true;
    for (int V : {VW, VR}) {
      std::optional<int64_t> X = eval(V, En);
      if (!First)
        First = X;
      Same &= X && X == First;
    }
    return Same;
  });
  return Same && First;
}

std::string GeneralRaces::Impl::example(const Access &R, const Instance &I,
                                        const std::string &Writer,
                                        bool Blocks) {
  std::string S = thread(I.Thread, Blocks) + (R.Write ? " writes " : " reads ");
  const std::optional<Compiled> &C = compiled(R);
  if (!C || !C->Symbolic)
    return S + "'" + subscripted(R, I.Elem) + "', which " + Writer + " writes";
  // The element is a point of the symbols' values: name them instead.
  SmallVector<int, 2> Ids;
  for (int N : C->Subs)
    symbolsOf(N, Ids);
  llvm::sort(Ids);
  std::string Names;
  for (size_t K = 0; K < Ids.size(); ++K)
    Names += (K == 0                ? "'"
              : K + 1 == Ids.size() ? " and '"
                                    : ", '") +
             SymNames[Ids[K]] + "'";
  return S + "the element of '" + accessedName(R) + "' that " + Writer +
         " writes, whatever " + Names + (Ids.size() > 1 ? " are" : " is");
}

std::string GeneralRaces::Impl::subscripted(const Access &X,
                                            int64_t Elem) const {
  SmallVector<int64_t, 2> Ext;
  extents(X, Ext);
  SmallVector<int64_t, 2> Idx(Ext.size());
  for (size_t I = Ext.size(); I-- > 1;) {
    Idx[I] = Elem % Ext[I];
    Elem /= Ext[I];
  }
  if (!Idx.empty())
    Idx[0] = Elem;
  std::string S = accessedName(X);
  for (int64_t V : Idx)
    S += "[" + std::to_string(V) + "]";
  return S;
}

GeneralRaces::GeneralRaces(Analysis &A, const FunctionDecl *FD, bool Kernel,
                           std::optional<BlockShape> Launched,
                           bool LaunchedOnly)
    : P(std::make_unique<Impl>(A, FD, Kernel, Launched, LaunchedOnly)) {}

GeneralRaces::~GeneralRaces() = default;

void GeneralRaces::setLaunchGrid(std::optional<BlockShape> Grid) {
  P->LaunchGrid = Grid;
}

const Expr *GeneralRaces::definitionAt(const VarDecl *V, const Expr *Use) {
  return P->TIA.definitionAt(V, Use);
}

std::optional<Race> GeneralRaces::race(const Access &W, const Access &R,
                                       bool BlocksOnly, bool WriteWrite) {
  return P->race(W, R, BlocksOnly, WriteWrite);
}

int64_t GeneralRaces::maxThreadsX() const {
  if (P->Launched)
    return (*P->Launched)[0];
  if (const auto *LB = P->FD->getAttr<CUDALaunchBoundsAttr>()) {
    Expr::EvalResult R;
    if (LB->getMaxThreads() && !LB->getMaxThreads()->isValueDependent() &&
        LB->getMaxThreads()->EvaluateAsInt(R, P->Ctx))
      return std::clamp<int64_t>(R.Val.getInt().getExtValue(), 1, 1024);
  }
  return Inf;
}

bool GeneralRaces::shapeLaunched() const {
  return P->Launched && P->LaunchedOnly;
}

std::string GeneralRaces::shape() const {
  const int64_t *S = P->Shape;
  if (S[2] > 1)
    return std::to_string(S[0]) + "x" + std::to_string(S[1]) + "x" +
           std::to_string(S[2]) + " threads";
  if (S[1] > 1)
    return std::to_string(S[0]) + "x" + std::to_string(S[1]) + " threads";
  return std::to_string(S[0]) + (S[0] == 1 ? " thread" : " threads");
}

} // namespace clang::tidy::cuda::warpsync
