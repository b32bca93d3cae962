//===--- TimingCfg.cpp - cuda-lint ----------------------------------------===//
//
// The paths of one function's CFG between GPU work and host timer reads,
// for cuda-unsynchronized-timing (TimingCfg.h).
//
//===----------------------------------------------------------------------===//

#include "TimingCfg.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <tuple>

namespace clang::tidy::cuda::timing {

namespace {

/// Whether \p S is a call of `cuda*Synchronize` (device, stream, event).
bool isSynchronizeCall(const Stmt *S) {
  const auto *Call = dyn_cast_or_null<CallExpr>(S);
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  return FD && FD->getIdentifier() && FD->getName().starts_with("cuda") &&
         FD->getName().ends_with("Synchronize");
}

} // namespace

TimingAnalysis::TimingAnalysis(const CFG &G, EffectClassifier &C) : G(G) {
  for (const CFGBlock *B : G) {
    auto &Effects = ByBlock[B];
    for (const CFGElement &El : *B) {
      Item I;
      if (std::optional<CFGStmt> S = El.getAs<CFGStmt>()) {
        I.S = S->getStmt();
        I.E = C.classify(I.S);
      } else if (std::optional<CFGImplicitDtor> D =
                     El.getAs<CFGImplicitDtor>()) {
        // A local object's destructor (a scoped timer, a RAII wrapper).
        if (std::optional<CFGAutomaticObjDtor> Auto =
                El.getAs<CFGAutomaticObjDtor>()) {
          if (const CXXRecordDecl *RD =
                  Auto->getVarDecl()->getType()->getAsCXXRecordDecl())
            I.E = C.function(RD->getDestructor(), 0);
          // A destructor that queues work or reads a timer has no
          // statement to report or to insert before: it ends the search.
          if (I.E.Kind != EffectKind::Neutral)
            I.E.Kind = EffectKind::Stop;
        } else {
          I.E.Kind = EffectKind::Stop;
        }
      }
      Effects.push_back(I);
    }
  }
}

bool TimingAnalysis::walkBack(
    const CFGBlock *B, unsigned Index,
    llvm::function_ref<Walk(llvm::ArrayRef<Item>)> Visit) const {
  llvm::SmallPtrSet<const CFGBlock *, 32> Visited;
  llvm::SmallVector<std::pair<const CFGBlock *, unsigned>, 16> Work;
  Work.push_back({B, Index});
  bool First = true;
  while (!Work.empty()) {
    auto [Block, End] = Work.pop_back_val();
    if (!First && !Visited.insert(Block).second)
      continue;
    First = false;
    const auto &Items = ByBlock.find(Block)->second;
    Walk Next = Visit(llvm::ArrayRef<Item>(Items).take_front(End));
    if (Next == Walk::Stop)
      return true;
    if (Next == Walk::Skip)
      continue;
    for (const CFGBlock::AdjacentBlock &P : Block->preds())
      if (const CFGBlock *PB = P.getReachableBlock())
        Work.push_back(
            {PB, static_cast<unsigned>(ByBlock.find(PB)->second.size())});
  }
  return false;
}

llvm::SmallVector<const TimingAnalysis::Item *, 4>
TimingAnalysis::pendingAt(const CFGBlock *B, unsigned Index) const {
  llvm::SmallVector<const Item *, 4> Found;
  walkBack(B, Index, [&](llvm::ArrayRef<Item> Items) {
    for (unsigned I = Items.size(); I-- > 0;) {
      const Item &It = Items[I];
      if (It.E.Kind == EffectKind::Neutral)
        continue;
      if (It.E.Kind == EffectKind::Async && !llvm::is_contained(Found, &It))
        Found.push_back(&It);
      return Walk::Skip;
    }
    return Walk::Preds;
  });
  return Found;
}

std::pair<const CFGBlock *, unsigned>
TimingAnalysis::position(const Item *It) const {
  for (const CFGBlock *B : G) {
    const auto &Items = ByBlock.find(B)->second;
    for (unsigned I = 0; I < Items.size(); ++I)
      if (&Items[I] == It)
        return {B, I};
  }
  return {nullptr, 0};
}

bool TimingAnalysis::timedBefore(const Item *It) const {
  auto [B, I] = position(It);
  return B && timerBefore(B, I);
}

bool TimingAnalysis::syncBetween(const Item *It, const CFGBlock *TB,
                                 unsigned TI) const {
  auto [AB, AI] = position(It);
  if (!AB)
    return true;
  // Blocks that reach the timer's block, and blocks that the operation's
  // block reaches.
  llvm::SmallPtrSet<const CFGBlock *, 32> ToTimer, FromOp;
  // Adds to \p Seen the blocks \p From reaches through its predecessors
  // (\p Backwards) or its successors, \p From included.
  auto Reach = [](const CFGBlock *From, bool Backwards,
                  llvm::SmallPtrSetImpl<const CFGBlock *> &Seen) {
    llvm::SmallVector<const CFGBlock *, 16> Work{From};
    while (!Work.empty()) {
      const CFGBlock *B = Work.pop_back_val();
      if (!Seen.insert(B).second)
        continue;
      for (const CFGBlock::AdjacentBlock &A :
           Backwards ? B->preds() : B->succs())
        if (const CFGBlock *Next = A.getReachableBlock())
          Work.push_back(Next);
    }
  };
  Reach(TB, /*Backwards=*/true, ToTimer);
  Reach(AB, /*Backwards=*/false, FromOp);
  bool Loop = false; // The operation's block is reached again.
  for (const CFGBlock *B : FromOp)
    for (const CFGBlock::AdjacentBlock &S : B->succs())
      Loop |= S.getReachableBlock() == AB;
  for (const CFGBlock *B : FromOp) {
    if (!ToTimer.count(B))
      continue;
    const auto &Items = ByBlock.find(B)->second;
    unsigned Begin = 0, End = Items.size();
    if (B == AB && !Loop)
      Begin = AI + 1;
    if (B == TB && !(B == AB && Loop))
      End = TI;
    if (B == AB && B == TB && AI < TI)
      Begin = AI + 1, End = TI;
    for (unsigned I = Begin; I < End; ++I)
      if (Items[I].E.Kind == EffectKind::Stop)
        return true;
  }
  return false;
}

bool TimingAnalysis::measuredAfterSync(
    const CFGBlock *B, unsigned Index,
    llvm::SmallVectorImpl<const Stmt *> &Later) const {
  // Phase 0: before the synchronization; phase 1: after it.
  llvm::SmallPtrSet<const CFGBlock *, 32> Visited[2];
  llvm::SmallVector<std::tuple<const CFGBlock *, unsigned, int>, 16> Work;
  Work.push_back({B, Index + 1, 0});
  bool First = true;
  while (!Work.empty()) {
    auto [Block, Begin, Phase] = Work.pop_back_val();
    if (!First && !Visited[Phase].insert(Block).second)
      continue;
    First = false;
    const auto &Items = ByBlock.find(Block)->second;
    bool Ended = false;
    for (unsigned I = Begin; I < Items.size() && !Ended; ++I) {
      EffectKind K = Items[I].E.Kind;
      if (K == EffectKind::Neutral)
        continue;
      if (Phase == 0 && K == EffectKind::Stop) {
        // A synchronization, not any call the analysis cannot see into.
        if (!isSynchronizeCall(Items[I].S))
          return false;
        Phase = 1;
        continue;
      }
      if (Phase == 1 && K == EffectKind::Timer) {
        Later.push_back(Items[I].S);
        Ended = true;
        continue;
      }
      // Work queued, a timer read before any synchronization, or a second
      // synchronization before the timer: not that pattern.
      if (K != EffectKind::Stop)
        return false;
    }
    if (Ended)
      continue;
    if (Block->succ_empty())
      return false;
    for (const CFGBlock::AdjacentBlock &S : Block->succs())
      if (const CFGBlock *SB = S.getReachableBlock())
        Work.push_back({SB, 0, Phase});
  }
  return true;
}

bool TimingAnalysis::timerBefore(const CFGBlock *B, unsigned Index) const {
  return walkBack(B, Index, [](llvm::ArrayRef<Item> Items) {
    for (unsigned I = Items.size(); I-- > 0;)
      if (Items[I].E.Kind == EffectKind::Timer)
        return Walk::Stop;
    return Walk::Preds;
  });
}

} // namespace clang::tidy::cuda::timing
