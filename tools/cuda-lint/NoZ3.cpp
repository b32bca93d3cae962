//===--- NoZ3.cpp - a self-contained cuda-lint without Z3 -----------------===//
//
// Linked only into the self-contained cuda-lint (CUDA_LINT_STATIC_LLVM).
// Debian's LLVM is built with Z3, which the clang static analyzer uses on
// request only (`-analyzer-constraints=z3`, `crosscheck-with-z3`); no cuda-*
// check does. Defining what LLVM's Z3Solver.o defines (its entry point and
// the dump methods of the solver interface) keeps that object, and with it
// libz3.so (23 MB, not allowed by manylinux), out of the executable. A run
// that asks for Z3 stops as one with an LLVM built without Z3 does.
//
//===----------------------------------------------------------------------===//

#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/SMTAPI.h"
#include "llvm/Support/raw_ostream.h"

llvm::SMTSolverRef llvm::CreateZ3Solver() {
  llvm::report_fatal_error("cuda-lint: this self-contained build has no Z3 "
                           "support (the clang static analyzer's Z3 options)",
                           /*gen_crash_diag=*/false);
}

void llvm::SMTSort::dump() const { print(llvm::errs()); }
void llvm::SMTExpr::dump() const { print(llvm::errs()); }
void llvm::SMTSolver::dump() const { print(llvm::errs()); }
void llvm::SMTSolverStatistics::dump() const { print(llvm::errs()); }
