//===--- TimingCfg.h - cuda-lint --------------------------------*- C++ -*-===//
//
// The paths of one function's CFG between GPU work and host timer reads,
// for cuda-unsynchronized-timing: the work pending at a timer read, the
// synchronizations on the way, the timer reads before and after. Used only
// by UnsynchronizedTimingCheck.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_TIMINGCFG_H
#define CUDA_LINT_TIMINGCFG_H

#include "TimingEffects.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <utility>

namespace clang::tidy::cuda::timing {

/// The statements of one function's CFG, in order, with their effects.
class TimingAnalysis {
public:
  TimingAnalysis(const CFG &G, EffectClassifier &C);

  struct Item {
    const Stmt *S = nullptr;
    Effect E;
  };

  /// Every timer read of the function: (block, index).
  template <typename Fn> void forEachTimer(Fn F) const {
    for (const CFGBlock *B : G) {
      const auto &Items = ByBlock.find(B)->second;
      for (unsigned I = 0; I < Items.size(); ++I)
        if (Items[I].E.Kind == EffectKind::Timer)
          F(B, I, Items[I].S);
    }
  }

  /// The asynchronous operations that reach element \p Index of \p B
  /// backwards on some path with neither a synchronization nor another
  /// timer read in between: the first one on each such path.
  llvm::SmallVector<const Item *, 4> pendingAt(const CFGBlock *B,
                                               unsigned Index) const;

  /// Where an item is: its block and index.
  std::pair<const CFGBlock *, unsigned> position(const Item *It) const;

  /// Whether a timer read reaches \p It backwards on some path: the work
  /// it queues then falls inside a timed interval.
  bool timedBefore(const Item *It) const;

  /// Whether some path from \p It (an asynchronous operation) to the timer
  /// read at \p TB, \p TI goes through a synchronization: the program
  /// synchronizes on some paths (`if (last) cudaDeviceSynchronize();`, a
  /// loop of `cudaStreamSynchronize` that the CFG lets run zero times),
  /// which is taken as deliberate (often the paths that skip it cannot
  /// happen together).
  bool syncBetween(const Item *It, const CFGBlock *TB, unsigned TI) const;

  /// Whether every path from the timer read at \p B, \p Index waits for
  /// the device and then reads a timer again, with no GPU work queued in
  /// between: `t0 = now(); cudaGraphLaunch(g, s); api = now();
  /// cudaStreamSynchronize(s); total = now();` measures the launch call's
  /// own latency (t0..api) on purpose, beside the work's time (t0..total).
  bool measuredAfterSync(const CFGBlock *B, unsigned Index,
                         llvm::SmallVectorImpl<const Stmt *> &Later) const;

private:
  bool timerBefore(const CFGBlock *B, unsigned Index) const;

  /// What a backward walk does after a block: go on to its predecessors,
  /// leave them (this path ends), or stop altogether.
  enum class Walk { Preds, Skip, Stop };

  /// Walks the CFG backwards from element \p Index of \p B, each block
  /// once (\p B again where a loop leads back to it), giving \p Visit the
  /// items of each block before the point reached (all of them in a
  /// predecessor); true where \p Visit stopped the walk.
  bool walkBack(const CFGBlock *B, unsigned Index,
                llvm::function_ref<Walk(llvm::ArrayRef<Item>)> Visit) const;

  const CFG &G;
  llvm::DenseMap<const CFGBlock *, llvm::SmallVector<Item, 8>> ByBlock;
};

} // namespace clang::tidy::cuda::timing

#endif // CUDA_LINT_TIMINGCFG_H
