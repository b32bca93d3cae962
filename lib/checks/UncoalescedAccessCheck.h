//===--- UncoalescedAccessCheck.h - cuda-lint -------------------*- C++ -*-===//

#ifndef CUDA_LINT_UNCOALESCEDACCESSCHECK_H
#define CUDA_LINT_UNCOALESCEDACCESSCHECK_H

#include "CudaCheck.h"
#include "cudalint/analysis/KernelLaunches.h"
#include "cudalint/analysis/ThreadIndex.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <memory>
#include <set>
#include <vector>

namespace clang::tidy::cuda {

/// Finds loads and stores to global memory in kernels whose index moves by a
/// constant other than 0 or 1, or by a run-time row width, from one thread to
/// the next (consecutive `threadIdx.x`), so a warp's request is split over
/// many memory sectors.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-uncoalesced-access.md
class UncoalescedAccessCheck : public CudaCheck {
public:
  UncoalescedAccessCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  /// How much of its record of Stride elements each thread reads (or
  /// writes).
  struct RecordRead {
    int64_t Stride = 0, Bytes = 0, RecordBytes = 0;
    bool Whole = false; ///< Every element of the record, read whole.
    /// Short enough that the layout costs little next to a coalesced one
    /// (measured): not reported unless ReportWholeRecords.
    bool Cheap = false;
  };
  /// The loads of \p Kernel that read, with the others of their group, at
  /// least MostlyReadPercent of the bytes of each thread's record; the
  /// plain stores that, with the others of their group, write all of it.
  const llvm::DenseMap<const Expr *, RecordRead> &
  recordAccesses(ASTContext &Ctx, const FunctionDecl *Kernel,
                 ThreadIndexAnalysis &TIA);

  /// The strided accesses of a kernel that are one layout: through the same
  /// pointer, in the same direction, with the same lane stride, their
  /// indices a constant apart (the fields of one record: `w[64 * t + 0]`
  /// ... `w[64 * t + 63]`, `p[i].x`, `p[i].y`). One finding for them all.
  struct Layout {
    unsigned Id = 0, Count = 0;
    unsigned FirstLine = 0, LastLine = 0;
  };
  const llvm::DenseMap<const Expr *, Layout> &
  layouts(ASTContext &Ctx, const FunctionDecl *Kernel,
          ThreadIndexAnalysis &TIA);

  /// The note on how much of its record each thread reads or writes.
  void noteRecord(SourceLocation Loc, bool Store, const RecordRead &Record);

  /// A load already seen in a kernel: its pointer, index and bytes.
  struct SeenLoad {
    const ParmVarDecl *Param;
    IndexPoly Index;
    int64_t Offset, Size, ElemSize;
    const Expr *Access;
  };

  /// The calls in the user code of the translation unit, with their caller.
  const std::vector<std::pair<const CallExpr *, const FunctionDecl *>> &
  calls(ASTContext &Ctx);
  /// The one constant every launch of \p Kernel passes for \p P.
  std::optional<int64_t> launchValue(ASTContext &Ctx,
                                     const FunctionDecl *Kernel,
                                     const ParmVarDecl *P);
  std::optional<int64_t> launchValueImpl(ASTContext &Ctx,
                                         const FunctionDecl *Kernel,
                                         const ParmVarDecl *P);
  /// The constant offsets of the loads with a run-time lane stride.
  std::set<int64_t> recordOffsets(ASTContext &Ctx, const FunctionDecl *Kernel,
                                  ThreadIndexAnalysis &TIA,
                                  const ParmVarDecl *Param, int64_t ElemSize,
                                  const IndexPoly &Stride,
                                  const IndexPoly &Rest);
  /// A load whose lane stride is a run-time value.
  struct KernelLoad {
    const ParmVarDecl *Param;
    int64_t ElemSize;
    IndexPoly Stride, Index;
  };

  const int64_t MinStride;
  const int64_t MostlyReadPercent;
  const bool ReportWholeRecords;
  /// One finding per layout (Layout), not one per access.
  const bool GroupLayouts;
  llvm::DenseMap<const FunctionDecl *, llvm::DenseMap<const Expr *, RecordRead>>
      WholeRecords;
  llvm::DenseMap<const FunctionDecl *, std::vector<SeenLoad>> LoadsSeen;
  /// One analysis per kernel of the translation unit.
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<ThreadIndexAnalysis>>
      Analyses;
  llvm::DenseSet<SourceLocation> Reported;
  llvm::DenseMap<const FunctionDecl *, llvm::DenseMap<const Expr *, Layout>>
      Layouts;
  /// The layouts reported, by kernel and Layout::Id.
  llvm::DenseSet<std::pair<const FunctionDecl *, unsigned>> ReportedLayouts;
  llvm::DenseMap<const FunctionDecl *, std::vector<KernelLoad>> KernelLoads;
  std::vector<std::pair<const CallExpr *, const FunctionDecl *>> Calls;
  bool CallsCollected = false;
  std::unique_ptr<KernelLaunches> Launches;
  /// launchValue's answers.
  llvm::DenseMap<const ParmVarDecl *, std::optional<int64_t>> ParamValues;
};

} // namespace clang::tidy::cuda

#endif // CUDA_LINT_UNCOALESCEDACCESSCHECK_H
