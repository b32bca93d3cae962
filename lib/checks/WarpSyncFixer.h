//===--- WarpSyncFixer.h - cuda-lint ----------------------------*- C++ -*-===//
//
// The fixes of cuda-warp-synchronous: the shuffle rewrite of recognised warp
// reductions (WarpSyncShuffleFix.cpp) and the barrier insertion for every
// other race (WarpSyncBarrierFix.cpp), built on the regions and races of
// WarpSyncAnalysis.h.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_WARPSYNCFIXER_H
#define CUDA_LINT_WARPSYNCFIXER_H

#include "cudalint/analysis/WarpSyncAnalysis.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::cuda::warpsync {

/// One step of a warp reduction: `A[b] op= A[b + K]`, `A[b] = A[b] op
/// A[b + K]`, `A[b] = f(A[b], A[b + K])`, possibly under a uniform `if`.
struct Step {
  const Stmt *Outer;          ///< The statement in the compound.
  const Expr *Assign;         ///< The assignment.
  const IfStmt *If = nullptr; ///< Its uniform guard, if any.
  const ArraySubscriptExpr *Own;
  const ArraySubscriptExpr *Other;
  const ValueDecl *Array;
  std::string Op; ///< "+", "*", ... or a function name.
  /// The register of `A[b] = r = r op A[b + k]`, which holds A[b].
  const VarDecl *Reg = nullptr;
  bool Compound = false;
  bool Call = false;
  int64_t K;
};

/// Builds the fixes for one function's races.
class Fixer {
public:
  Fixer(Analysis &A, ASTContext &Ctx, const FunctionDecl *FD,
        const CallMap &Calls)
      : A(A), Ctx(Ctx), SM(Ctx.getSourceManager()), LO(Ctx.getLangOpts()),
        FD(FD), Calls(Calls) {}

  // --- What the code after a rewritten reduction reads. ---

  /// How the shuffle rewrite's result is used after it: only by lane 0 or
  /// after a barrier (Fine), as `A[0]` by other lanes of the warp before any
  /// barrier (Sync: a __syncwarp() after the write-back), or as elements
  /// 1..31, or through the register, by lanes other than 0 (Unsafe: those
  /// hold different partial values after the rewrite).
  enum class Use { Fine, Sync, Unsafe };

  unsigned offsetOf(SourceLocation L) const {
    return SM.getFileOffset(SM.getExpansionLoc(L));
  }

  bool lane0Only(const Guard &G, Base B) const {
    return G.TidHi <= 1 || (B == Base::Lane && G.LaneHi <= 1);
  }

  /// The threads that reach \p S in \p F, from the conditions of the `if`s
  /// around it.
  Guard
  guardAt(const Stmt *S,
          const llvm::DenseMap<const Stmt *, const Stmt *> &Parents) const;

  /// Whether a barrier statement lies between the offset \p From and \p S,
  /// in a compound statement around \p S (so on every path to it).
  bool barrierBefore(
      const Stmt *S, unsigned From,
      const llvm::DenseMap<const Stmt *, const Stmt *> &Parents) const;

  /// The reads of \p Arr (and of the register \p Reg) in \p F after the
  /// source range [\p RBegin, \p REnd) or in a loop around it.
  Use scanUses(const FunctionDecl *F, const ValueDecl *Arr, const VarDecl *Reg,
               Base B, unsigned RBegin, unsigned REnd) const;

  /// What follows the write-back of the rewritten reduction: nothing, a
  /// __syncwarp() (other lanes read `A[0]`), or no rewrite at all.
  std::optional<std::string> resultSync(const ValueDecl *StepArray,
                                        const VarDecl *Reg, Base B,
                                        unsigned RBegin, unsigned REnd,
                                        StringRef Mask, StringRef Indent);

  /// The uses of the result of the steps writing \p Arr with own index base
  /// \p B in [\p RBegin, \p REnd), here and, for a helper's parameter, in
  /// its callers after each call.
  Use resultUse(const ValueDecl *StepArray, const VarDecl *Reg, Base B,
                unsigned RBegin, unsigned REnd) const;

  std::optional<std::string> text(SourceRange R) const;

  std::string indentOf(SourceLocation Loc) const;

  /// The range of \p S including its trailing semicolon, if it has one.
  std::optional<CharSourceRange> withSemi(const Stmt *S) const;

  // --- Shuffle rewrite of recognised reductions. ---

  std::optional<Step> parseStep(const Stmt *Outer) const;

  bool sameElement(const Expr *E, const ArraySubscriptExpr *Own) const;

  /// The statement of \p S that is a direct child of a compound statement.
  const Stmt *outerOf(const Stmt *S) const;

  std::string freshName(StringRef Want) const;

  SourceLocation endOf(const CharSourceRange &R) const {
    return R.isTokenRange() ? Lexer::getLocForEndOfToken(R.getEnd(), 0, SM, LO)
                            : R.getEnd();
  }

  static std::string combine(const Step &St, const std::string &V,
                             const std::string &Operand);

  static const Stmt *single(const Stmt *S);

  /// Whether the register of `A[b] = r = r op A[b + k]` holds the thread's
  /// element A[b] when the steps start: every store to A in the function is
  /// `A[b] = r` or `A[b] = r = ...`, nothing else writes A (no address taken,
  /// not passed to a call), and r is assigned otherwise only before the
  /// first store, outside any loop around it.
  bool regHoldsElement(const Step &St) const;

  /// `for (o = 16; o > 0; o >>= 1) [if (b < o)] A[b] op= A[b + o];`, maybe
  /// after a 32 step, or the same loop from 32.
  bool loopShuffleFix(llvm::ArrayRef<Race> Races,
                      std::vector<FixItHint> &Fixes);

  /// Whether the steps at \p Any, in a statement reached under \p G, are
  /// run by every lane of exactly one warp: a full-mask shuffle executed by
  /// fewer lanes is undefined and reads lanes that do not take part.
  bool wholeWarp(const Access *Any, const Guard &G);

  bool shuffleFix(llvm::ArrayRef<Race> Races, std::vector<FixItHint> &Fixes);

  // --- Barrier fixes (__syncwarp or __syncthreads). ---

  /// The text of \p S with its trailing semicolon.
  std::optional<std::string> textWithSemi(const Stmt *S) const;

  bool atLineStart(SourceLocation Loc) const;

  bool restOfLineBlank(SourceLocation Loc) const;

  /// Whether the element \p E (`A[base + c]`) is accessed somewhere in the
  /// function by every thread that \p G admits.
  bool accessedByAll(const Expr *E, const Guard &G) const;

  /// The `for` or `while` loop whose unbraced body is \p S.
  static const Stmt *loopWithBody(const Stmt *S, const Slot &Sl);

  /// The text of the condition of \p If, where it may be evaluated again
  /// (no side effects, no memory read).
  std::optional<std::string> liftableCond(const IfStmt *If) const;

  /// The thread-dependent `if (C) { ... S ... }` (no else, in a compound
  /// statement that whole warps, or the block, reach) around \p S whose
  /// statements may each be put under `if (C)` of their own: none declares a
  /// name, none assigns a variable of C.
  const IfStmt *distributable(const Stmt *S, bool Warp) const;

  struct Plan {
    bool Split = false;
    bool BarrierBefore = false;
    SmallVector<const Access *, 2> Reads; ///< Racing reads to hoist.
  };

  /// The lanes that reach a point with guard \p G, as a mask, where they
  /// are known exactly (every condition on the way is a range of the
  /// thread index or lane, and whole warps reach the first of them) and
  /// the same in every warp that arrives; nullopt otherwise.
  std::optional<uint32_t> laneMask(const Guard &G) const;

  std::string maskedSyncwarp(const Guard &G) const {
    return "__syncwarp(0x" + llvm::utohexstr(*laneMask(G), /*LowerCase=*/true) +
           ")";
  }

  bool uniform(const Guard &G, bool Warp) const {
    return Warp ? G.WarpUniform : G.BlockUniform;
  }

  /// Ends the body of the loop \p L with \p Barrier, unless it ends with
  /// a barrier already.
  bool endBodyBarrier(const Stmt *L, const std::string &Barrier, bool Warp,
                      std::vector<FixItHint> &Fixes, std::string &Why);

  /// Whether \p S assigns an element of \p Arr.
  bool writesArray(const Stmt *S, const ValueDecl *Arr) const;

  /// Where a barrier before \p Late (which only reads \p Arr) goes: before
  /// the outermost loop walked once around it that writes no element of
  /// \p Arr and does not hold \p Early, where every thread (or lane)
  /// reaches it; one barrier instead of one per iteration.
  const Stmt *liftOutOfLoops(const Stmt *Late, const Stmt *Early,
                             const ValueDecl *Arr, bool Warp) const;

  /// \p AtEntry: the region starts at the entry of a helper, where the
  /// caller may have written the elements just before the call.
  /// \p EdgeLoop: the races are across the back edge of this loop, between
  /// the end of its body and the start of the next iteration.
  /// Where a barrier for the race reads of \p S goes when \p S is under a
  /// thread-dependent branch or loop: before the outermost statement
  /// around \p S in a compound statement that every thread (or, with
  /// \p Warp, whole warps) reaches, if every race with a side in it has
  /// its other side before it (so that the barrier separates them all);
  /// null otherwise.
  const Stmt *hoistTarget(const Stmt *S, llvm::ArrayRef<Race> Races,
                          bool Warp) const;

  // --- The steps of barrierFix. ---

  /// The order of \p S in its file: the offset of its expansion.
  unsigned stmtOrder(const Stmt *S) const;

  /// The plans of the statements of \p Races: the racing reads of each,
  /// which statements are split around a barrier, and before which ones a
  /// barrier goes so that every racing pair has one between them (or, with
  /// \p AtEntry, before the first read). False when a statement that
  /// writes the array cannot be split.
  bool planBarriers(llvm::ArrayRef<Race> Races, bool Warp, bool AtEntry,
                    llvm::MapVector<const Stmt *, Plan> &Plans);

  /// The loops walked once (not per offset) around both statements of a
  /// race: the next iteration's statements race with this one's across the
  /// back edge, so their bodies also end with a barrier.
  llvm::SetVector<const Stmt *> backEdgeLoops(llvm::ArrayRef<Race> Races);

  /// What the plans of one barrierFix share while their text is written.
  struct PlanText {
    std::string Barrier; ///< __syncwarp() or __syncthreads().
    /// The barrier of the plan being written: Barrier, or __syncwarp(mask)
    /// where only some lanes of the warp, exactly known, arrive.
    std::string Cur;
    std::string Peer;       ///< The base name of the temporaries.
    unsigned Counter = 0;   ///< The temporaries named so far.
    unsigned NumSplits = 0; ///< The plans that split their statement.
  };

  /// The lines that replace \p S: a barrier before it, the racing reads
  /// hoisted into temporaries, the statement (under `if (Cond)` where it is
  /// lifted out of a thread-dependent branch).
  bool planLines(const Stmt *S, const Plan &P, const std::string &Cond,
                 bool Braces, SmallVectorImpl<std::string> &Lines,
                 const Guard &Outer, PlanText &T);

  /// Where the lines of one plan go.
  struct Placement {
    const Stmt *Target = nullptr; ///< The statement they replace.
    std::string Indent;
    std::string Cond; ///< The condition of a lifted `if`, if any.
    bool Braces = false;
    const Stmt *Loop = nullptr; ///< Whose unbraced body gets braces.
  };
  enum class Placed {
    InPlace, ///< Placement says where; writePlan writes it.
    Done,    ///< Its fix is written already (hoisted, distributed).
    Failed,  ///< No fix (Why may say why).
  };

  /// Where the barriers of the plan of \p S go: in place, in braces, around
  /// a lifted thread-dependent `if`, hoisted before the branch (written
  /// here), distributed over the statements of an `if` (written here), or
  /// as __syncwarp(mask) where the lanes that arrive are known exactly.
  Placed placePlan(const Stmt *S, const Plan &P, llvm::ArrayRef<Race> Races,
                   bool Warp, const Stmt *EdgeLoop,
                   llvm::MapVector<const Stmt *, Plan> &Plans, PlanText &T,
                   Placement &Pl,
                   llvm::SmallPtrSetImpl<const Stmt *> &Distributed,
                   llvm::SmallPtrSetImpl<const Stmt *> &Hoisted,
                   std::vector<FixItHint> &Fixes, std::string &Why);

  /// Writes the fix of the plan of \p S where \p Pl says.
  bool writePlan(const Stmt *S, const Plan &P, const Placement &Pl, PlanText &T,
                 std::vector<FixItHint> &Fixes, std::string &Why);

  bool barrierFix(llvm::ArrayRef<Race> Races, bool Warp, bool AtEntry,
                  std::vector<FixItHint> &Fixes, std::string &Why,
                  const Stmt *EdgeLoop = nullptr);

  std::string ShuffleWhy; ///< Why the shuffle rewrite was not offered.
  Analysis &A;
  ASTContext &Ctx;
  const SourceManager &SM;
  const LangOptions &LO;
  const FunctionDecl *FD;
  const CallMap &Calls;
};

} // namespace clang::tidy::cuda::warpsync

#endif // CUDA_LINT_WARPSYNCFIXER_H
