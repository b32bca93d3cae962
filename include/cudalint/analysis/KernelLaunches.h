//===--- KernelLaunches.h - cuda-lint ---------------------------*- C++ -*-===//
//
// The block shapes a translation unit launches its kernels with: the block
// argument of each `kernel<<<grid, block>>>` and `cudaLaunchKernel` /
// `cudaLaunchCooperativeKernel` call, evaluated where it is a constant
// (`256`, `dim3(16, 16)`, a macro, a local `dim3 b(16, 16);` or
// `dim3 b; b.x = 256;` before the launch), and followed through a
// parameter of the launching function to the calls that pass it
// (`void run(dim3 threads) { k<<<g, threads>>>(); }` called with
// `dim3(8, 16)`) where those are all its calls: a free function of the main
// file (not `extern "C"`, not declared in a header) or with internal
// linkage, whose address is not taken. The checks that model a block
// (cuda-warp-synchronous, cuda-divergent-barrier) use the shape the kernel
// is really launched with instead of the largest one CUDA allows; it is
// also the one evaluator of launch configurations for the checks that read
// a launch's block or grid (cuda-launch-shape, cuda-shared-bank-conflict).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_KERNELLAUNCHES_H
#define CUDA_LINT_KERNELLAUNCHES_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include <array>
#include <cstdint>
#include <optional>
#include <utility>

namespace clang::tidy::cuda {

/// Whether every call of \p F can be in this translation unit, by its
/// linkage: a free function that is not `main`, with internal linkage, or
/// declared only in the main file and not `extern "C"` (a function of a
/// header, or one meant for C, may be called from another file). Whether
/// its address is taken is the caller's to check.
bool callsStayInFile(const FunctionDecl *F, const SourceManager &SM);

/// A block shape: threads in x, y and z.
using BlockShape = std::array<int64_t, 3>;

/// The launches of the kernels of one translation unit.
class KernelLaunches {
public:
  /// Collects the launches in the user code of \p Ctx's translation unit
  /// (declarations outside system headers, template instantiations
  /// included).
  explicit KernelLaunches(ASTContext &Ctx);

  /// What is known of the blocks \p Kernel is launched with.
  struct Launches {
    /// The distinct constant shapes, in the order first seen.
    llvm::SmallVector<BlockShape, 2> Shapes;
    /// Some launch's block is not a constant, or the kernel's address is
    /// taken other than for a launch this analysis reads (a function
    /// pointer may launch it with any shape).
    bool Unknown = false;
    /// The distinct constant x extents, where only those are constant
    /// (`dim3(32, rows)`); XUnknown: some launch's x is not a constant.
    llvm::SmallVector<int64_t, 2> Xs;
    bool XUnknown = false;
    /// The distinct constant grids; GridUnknown: some launch's grid is not
    /// a constant.
    llvm::SmallVector<BlockShape, 2> Grids;
    bool GridUnknown = false;
  };

  /// The launches of \p Kernel (a specialisation for a template; for a
  /// template's pattern, those of all its specialisations), or null when
  /// the translation unit does not launch it.
  const Launches *launchesOf(const FunctionDecl *Kernel) const;

  /// The shape of every launch of \p Kernel, when the translation unit
  /// launches it and always with that one constant shape.
  std::optional<BlockShape> onlyShape(const FunctionDecl *Kernel) const;

  /// The grid of every launch of \p Kernel, when the translation unit
  /// launches it and always with that one constant grid.
  std::optional<BlockShape> onlyGrid(const FunctionDecl *Kernel) const;

  /// The x extent of every launch of \p Kernel, when the translation unit
  /// launches it and always with that one constant x extent.
  std::optional<int64_t> onlyX(const FunctionDecl *Kernel) const;

  /// The launch shape with the most threads, when every launch of
  /// \p Kernel in the translation unit has a constant shape.
  std::optional<BlockShape> largestShape(const FunctionDecl *Kernel) const;

  /// The constant value of \p E, a launch configuration argument (a
  /// `dim3` or an integer) in \p Caller: the extents in x, y and z, each
  /// positive. A local variable has the value of the definition that
  /// reaches \p E (`dim3 b; b.x = 256;` before the launch), else the one
  /// value that its initialiser and every assignment agree on.
  static std::optional<BlockShape>
  evaluateDim3(const Expr *E, const FunctionDecl *Caller, ASTContext &Ctx);

  /// evaluateDim3 for the block argument of a launch: a shape CUDA can
  /// launch (x and y up to 1024, z up to 64, 1024 threads in all).
  static std::optional<BlockShape>
  evaluateBlock(const Expr *E, const FunctionDecl *Caller, ASTContext &Ctx);

  /// The x and y extents of a block argument whose z is known only at run
  /// time: a `dim3(x, y, z)` temporary or a local `dim3` initialised so,
  /// whose x and y nothing writes, with x and y constant.
  static std::optional<std::pair<int64_t, int64_t>>
  evaluateBlockXY(const Expr *E, const FunctionDecl *Caller, ASTContext &Ctx);

  /// How often the host runs a function, as far as this translation unit
  /// shows (for the impact estimate). Ordered: a function launched or
  /// called from several places runs as often as the most frequent one.
  enum class Frequency { Never, Once, Unknown, Loop };

  /// How often \p F runs: a kernel through its launches, a host function
  /// through its calls (`main` runs once), a device function through the
  /// kernels and device functions that call it. Never: the translation unit
  /// is a program (it defines `main`), and \p F is
  /// neither launched nor called, its address is not taken, and no other
  /// file can name it (a kernel declared only in the main file; a host
  /// function of a program, declared only in the main file). Loop: a launch
  /// or a host call inside a host loop (`for`, `while`, `do`), or from a
  /// function that runs in one. Unknown: a translation unit without
  /// `main` (a library, a test), an address taken, a
  /// virtual function, a constructor, a lambda.
  Frequency frequencyOf(const FunctionDecl *F) const;

  /// Whether some kernel of the translation unit is launched in a host
  /// loop (a program with a hot path).
  bool anyLaunchInLoop() const { return AnyLoopLaunch; }

private:
  llvm::DenseMap<const FunctionDecl *, Launches> ByKernel;

  /// Where a function is launched or called from: the function that holds
  /// the launch or call (null at namespace scope) and whether the site is
  /// inside a loop of that function.
  struct Site {
    const FunctionDecl *Caller;
    bool InLoop;
  };
  llvm::DenseMap<const FunctionDecl *, llvm::SmallVector<Site, 2>> Sites;
  /// Functions named other than as a callee or launched kernel.
  llvm::DenseSet<const FunctionDecl *> AddressTaken;
  bool AnyLaunch = false, AnyLoopLaunch = false, HasMain = false;
  Frequency frequencyOf(const FunctionDecl *F, unsigned Depth) const;

public:
  /// A launch or direct call as the collector records it: callee, the
  /// function holding it, inside a loop of that function, a launch.
  struct CallSite {
    const FunctionDecl *Callee, *Caller;
    bool InLoop, Launch;
  };

private:
  void recordSites(llvm::ArrayRef<CallSite> Calls,
                   const llvm::DenseSet<const FunctionDecl *> &Taken);
  mutable llvm::DenseMap<const FunctionDecl *, Frequency> FrequencyCache;
};

} // namespace clang::tidy::cuda

#endif // CUDA_LINT_KERNELLAUNCHES_H
