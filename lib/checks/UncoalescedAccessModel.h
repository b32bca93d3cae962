//===--- UncoalescedAccessModel.h - cuda-lint -------------------*- C++ -*-===//
//
// The coalescing model of cuda-uncoalesced-access: the sectors a warp
// request touches, run-time row widths, and the records a thread walks.
// Defined in UncoalescedAccessCheckModel.cpp (with the check's per-kernel
// analyses); used only by UncoalescedAccessCheck.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_UNCOALESCEDACCESSMODEL_H
#define CUDA_LINT_UNCOALESCEDACCESSMODEL_H

#include "cudalint/analysis/KernelLaunches.h"
#include "cudalint/analysis/LaneGuards.h"
#include "cudalint/analysis/ThreadIndex.h"
#include "clang/AST/ASTContext.h"
#include <cstdint>
#include <optional>

namespace clang::tidy::cuda::uncoalesced_access {

// A run-time width worth reporting: made of the kernel's parameters and the
// launch shape only.
bool isRunTimeWidth(const IndexPoly &P);

/// The sectors of the warp request with the most: the lanes that take part,
/// the 32-byte sectors they touch, and those they would touch reading
/// consecutive elements.
struct WarpCount {
  int64_t Lanes = 0, Sectors = 0, Coalesced = 0;
};

// Counts, warp by warp, the sectors an access touches. Lane (x, y, z)
// accesses byte Offset + (cx * x + cy * y + cz * z) * ElemSize, where the
// coefficients of threadIdx.y and .z are constants; where one is not (a
// run-time row width) each row has sectors of its own. A run-time x stride
// gives each lane sectors of its own (two where \p Inside is false).
WarpCount countSectors(const IndexForm &Index, const LaneStride &Stride,
                       int64_t ElemSize, int64_t AccessSize, int64_t Offset,
                       bool Inside, std::optional<BlockShape> Shape,
                       LaneGuards Guards);

// True when \p Index walks a whole record of a run-time length: it holds a
// term `i` whose `i` counts from 0 to the lane stride \p Stride - 1.
bool walksWholeRecord(ASTContext &Ctx, const IndexPoly &Index,
                      const IndexPoly &Stride, ThreadIndexAnalysis &TIA);

// True when every term of \p Rest is a multiple of the one-term stride
// \p Stride: the index's constant part is then an offset into the thread's
// record.
bool startsRecords(const IndexPoly &Rest, const IndexPoly &Stride);

} // namespace clang::tidy::cuda::uncoalesced_access

#endif // CUDA_LINT_UNCOALESCEDACCESSMODEL_H
