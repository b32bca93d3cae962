//===--- TimingEffects.h - cuda-lint ----------------------------*- C++ -*-===//
//
// The effects of statements on the timing of GPU work, for
// cuda-unsynchronized-timing: what queues work, what reads a host timer,
// what waits (or may), with a summary of each user function called. Used
// only by UnsynchronizedTimingCheck.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_TIMINGEFFECTS_H
#define CUDA_LINT_TIMINGEFFECTS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"

namespace clang::tidy::cuda::timing {

/// What a statement does to the timing of GPU work, seen from the host.
enum class EffectKind {
  /// Nothing that matters: host computation, error checks, printing.
  Neutral,
  /// Queues GPU work and returns before it is done: a kernel launch, an
  /// asynchronous copy or memset, a graph launch.
  Async,
  /// Reads a host timer.
  Timer,
  /// Waits for the GPU, or may: a synchronizing call, or anything the
  /// analysis cannot see into (a function without a body, a call through a
  /// pointer, a CUDA call it does not know). Ends the search.
  Stop,
};

struct Effect {
  EffectKind Kind = EffectKind::Neutral;
  /// For Async: the stream variable the work is queued on, when it is one
  /// named variable; null for the default stream or anything else.
  const VarDecl *Stream = nullptr;
  /// For Async: whether the work is on the default stream or a stream
  /// variable that `Stream` names (false: not known).
  bool StreamKnown = false;
};

/// Classifies statements, with a summary of each user function that they
/// call.
class EffectClassifier {
public:
  explicit EffectClassifier(ASTContext &Ctx) : Ctx(Ctx) {}

  Effect classify(const Stmt *S, int Depth = 0);

  /// The effect of calling \p FD (a destructor, a constructor) as a whole.
  Effect function(const FunctionDecl *FD, int Depth);

private:
  Effect call(const CallExpr *Call, int Depth);

  bool takesCallable(const CallExpr *Call);

  Effect cudaCall(const CallExpr *Call, StringRef Name);

  /// The effect of a user function as a whole: Stop when it may wait (or
  /// is not visible), Async when it queues work and never waits, Timer
  /// when it only reads a timer (a timing wrapper), Neutral otherwise.
  Effect summary(const FunctionDecl *FD, int Depth);

  struct Entry {
    Effect Result;
    bool InProgress = false;
  };
  ASTContext &Ctx;
  llvm::DenseMap<const FunctionDecl *, Entry> Summaries;
};

} // namespace clang::tidy::cuda::timing

#endif // CUDA_LINT_TIMINGEFFECTS_H
