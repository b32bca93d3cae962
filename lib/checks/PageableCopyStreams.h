//===--- PageableCopyStreams.h - cuda-lint ----------------------*- C++ -*-===//
//
// The device side of an asynchronous copy, for cuda-pageable-async-copy: the
// loops that repeat it, the streams its function uses, whether a kernel may
// still run when it is issued, whether a stream capture records it. Used
// only by PageableAsyncCopyCheck.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_PAGEABLECOPYSTREAMS_H
#define CUDA_LINT_PAGEABLECOPYSTREAMS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/ASTTypeTraits.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <optional>

namespace clang::tidy::cuda::pageable_copy {

/// True when \p S is repeated by a loop of its function (in its body,
/// condition or increment) that, for a copy to the device (\p ToDevice),
/// also launches a kernel or synchronizes: a loop that only uploads the
/// parts of a data structure one after another is a one-time upload.
bool inLoop(const Stmt *S, bool ToDevice, ASTContext &Ctx);

/// Whether \p F visibly uses more than one stream, so that a copy could
/// overlap with work on another: two streams other than the default one
/// among those of its asynchronous copies, memsets, kernel launches and
/// event records and those it creates, told apart by their spelling; or the
/// default stream (`0`, `NULL`, `nullptr`, `cudaStreamLegacy`,
/// `cudaStreamPerThread`, an omitted argument) with a stream created
/// `cudaStreamNonBlocking` (a stream created otherwise, or of unknown
/// origin, may be blocking, and its work does not overlap with the legacy
/// default stream's); an array of streams indexed by a variable, or
/// `cudaStreamWaitEvent`, is a pipeline by itself.
bool usesSeveralStreams(const FunctionDecl *F, ASTContext &Ctx,
                        bool *UsesDefault = nullptr);

/// Whether \p F reaches a stream it does not create: a parameter, a global
/// or a member of type `cudaStream_t` (or an array of, or a pointer to,
/// streams). Work its caller left running may be in flight on those.
bool usesCallersStreams(const FunctionDecl *F);

/// Whether a kernel may still run on the device when the copy \p Call is
/// issued: a kernel launched earlier in its function (in the statements
/// before it, or anywhere in a loop that repeats it) with no wait for the
/// whole device in between. Without one, the copy has nothing in another
/// stream to overlap with (a set-up upload before the first launch, a
/// result download after a `cudaDeviceSynchronize`), whatever the streams.
/// The callers are not seen: work they left running may be in flight on
/// the streams they pass in (\p FromCaller), not on streams the function
/// creates itself.
bool kernelMayBeInFlight(const CallExpr *Call, bool FromCaller,
                         ASTContext &Ctx);

/// Whether \p Call lies between a `cudaStreamBeginCapture` and the next
/// `cudaStreamEndCapture` of its function \p F, in source order: it is
/// recorded into a graph, not run.
bool inStreamCapture(const CallExpr *Call, const FunctionDecl *F,
                     ASTContext &Ctx);

/// Walks up from \p S through its parents (256 at most), giving \p Step
/// each parent and the node below it until \p Step settles the question:
/// its answer. At the function, lambda or block that holds \p S the answer
/// is \p AtFunction; where the parents end first, or the walk runs out,
/// false.
bool walkUpToFunction(const Stmt *S, ASTContext &Ctx, bool AtFunction,
                      llvm::function_ref<std::optional<bool>(
                          const DynTypedNode &, const DynTypedNode &)>
                          Step);

/// Whether \p S is a loop: `for`, `while`, range-based `for`, or a `do`
/// that is not the `do { ... } while (0)` of a macro.
bool isLoop(const Stmt *S, ASTContext &Ctx);

} // namespace clang::tidy::cuda::pageable_copy

#endif // CUDA_LINT_PAGEABLECOPYSTREAMS_H
