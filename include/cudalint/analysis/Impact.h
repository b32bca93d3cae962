//===--- Impact.h - cuda-lint -----------------------------------*- C++ -*-===//
//
// How much a finding is worth acting on: where the code at a finding's
// location runs and how often, as a rank from 0 to 100 and a level (low,
// medium, high) with a short reason. It combines
//   - how often the host runs the function (KernelLaunches::frequencyOf): a
//     kernel launched in a host loop, once, never in this program, or in a
//     file that launches nothing (unknown: neutral);
//   - where in the function: inside loops (trip counts where constant), or
//     once per thread while the function's work is in loops elsewhere (the
//     deepest loop nest of the function against the finding's);
//   - who runs it: one thread per block, one block, one warp (LaneGuards,
//     probing thread and block indices).
// The rank travels with a finding as a note (`impact: low (rank 10/100):
// kernel 'init' is never launched in this program`) that the reports parse;
// docs/impact.md says how it is computed.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_IMPACT_H
#define CUDA_LINT_IMPACT_H

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::cuda {

class KernelLaunches;

/// The estimate for one finding.
struct Impact {
  enum Level { Low, Medium, High };
  unsigned Rank = 50;
  Level Lvl = Medium;
  std::string Reason;

  /// The lowest ranks of the high and medium levels (docs/impact.md); the
  /// driver reads levels back with them (cudalint::impactLevel).
  static constexpr unsigned HighFrom = 65, MediumFrom = 35;

  /// The note text: `impact: low (rank 10/100): <reason>`.
  std::string note() const;
  static Level levelOf(unsigned Rank);
  static llvm::StringRef levelName(Level L);
  static std::optional<Level> parseLevel(llvm::StringRef S);
};

/// The impact estimates of one translation unit; built at the first
/// question, it indexes the function definitions and the launches.
class ImpactModel {
public:
  explicit ImpactModel(ASTContext &Ctx);
  ~ImpactModel();

  /// The estimate for a finding at \p Loc.
  Impact estimate(SourceLocation Loc);

  ASTContext &context() const { return Ctx; }

private:
  struct FunctionRange {
    SourceLocation Begin, End;
    const FunctionDecl *FD;
  };
  const FunctionDecl *functionAt(SourceLocation Loc) const;
  Impact estimateDevice(const FunctionDecl *FD,
                        llvm::ArrayRef<const Stmt *> Path);
  Impact estimateHost(const FunctionDecl *FD,
                      llvm::ArrayRef<const Stmt *> Path);
  uint64_t hottestMultiplier(const FunctionDecl *FD);
  /// The grid-stride loops of \p FD that run at most once per thread.
  const llvm::SmallPtrSetImpl<const Stmt *> &onceLoops(const FunctionDecl *FD);

  ASTContext &Ctx;
  std::unique_ptr<KernelLaunches> Launches;
  std::vector<FunctionRange> Functions;
  llvm::DenseMap<const FunctionDecl *, uint64_t> Hottest;
  llvm::DenseMap<const FunctionDecl *, llvm::SmallPtrSet<const Stmt *, 2>>
      OnceLoops;
};

/// The model of the translation unit of \p Ctx, shared by every check of
/// the thread: built at the first question, dropped by resetImpactModel()
/// at the start of each translation unit.
ImpactModel &impactModelFor(ASTContext &Ctx);
void resetImpactModel();

/// MinImpact for every check of the process (the driver's --min-impact),
/// over the checks' options; nullopt: each check's option.
void setMinImpactOverride(std::optional<Impact::Level> L);
std::optional<Impact::Level> minImpactOverride();

/// Whether the impact model runs: CUDA_LINT_IMPACT=off turns it off (no
/// notes, nothing hidden), to measure what it costs.
bool impactEnabled();

} // namespace clang::tidy::cuda

#endif // CUDA_LINT_IMPACT_H
