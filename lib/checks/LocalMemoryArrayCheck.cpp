//===--- LocalMemoryArrayCheck.cpp - cuda-lint ----------------------------===//
//
// OpenCL best-practices guide for CUDA GPUs, 3.2.3 "Local Memory": automatic
// variables that the compiler cannot keep in registers, such as arrays
// indexed with values it cannot determine at compile time, are placed in
// local memory, which is off-chip and as slow as global memory.
//
// nvcc keeps a per-thread array in registers when every index is a constant
// after unrolling. It fully unrolls small loops with constant trip counts on
// its own (measured on CUDA 13.0 for sm_90: a counter loop of 256 iterations
// with a one-load body, a loop of 8 iterations holding a loop of run-time
// trip count), so an array indexed by the counter of such a loop is a
// register array. It leaves loops rolled when their unrolled size would be
// large: 32 iterations calling sinf, cosf, tanf, sincosf or powf, 64
// calling sin, cos, tan, sincos, pow, exp, log or sqrt on doubles, 512 of
// anything; and
// when `#pragma unroll 1` (or a smaller count than the trip count, or
// `#pragma nounroll`) asks it to. ptxas then moves some of the PTX's
// `.local` arrays back to registers (0-byte stack frame): those are not
// reported, or, for loops nvcc keeps rolled, reported with a message that
// says so. See docs/checks/cuda-local-memory-array.md.
//
// This file holds the unrolling model and the check, its judgement of an
// array split into steps; what an index is after unrolling is classified in
// LocalMemoryArrayCheckIndices.cpp.
//
//===----------------------------------------------------------------------===//

#include "LocalMemoryArrayCheck.h"
#include "LocalMemoryArrayIndices.h"
#include "cudalint/analysis/DeviceCode.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

using namespace local_memory_array;

namespace {

/// How a loop with a constant trip count is unrolled.
enum class Unrolling {
  Full,           ///< `#pragma unroll`, or by nvcc on its own.
  RolledByPragma, ///< `#pragma unroll 1`, a smaller count, `nounroll`.
  RolledByNvcc,   ///< No pragma, and nvcc leaves it rolled.
};

/// The `#pragma unroll` hint on \p Loop, if any.
const LoopHintAttr *unrollHint(ASTContext &Ctx, const Stmt &Loop) {
  DynTypedNodeList P = Ctx.getParents(Loop);
  if (P.empty())
    return nullptr;
  const auto *AS = P[0].get<AttributedStmt>();
  if (!AS)
    return nullptr;
  for (const Attr *A : AS->getAttrs())
    if (const auto *LH = dyn_cast<LoopHintAttr>(A))
      if (LH->getOption() == LoopHintAttr::Unroll ||
          LH->getOption() == LoopHintAttr::UnrollCount)
        return LH;
  return nullptr;
}

/// The iterations, in the measured nvcc (CUDA 13.0, sm_90), from which a
/// loop with a constant trip count that calls \p F in its body stays
/// rolled; 0 when the call does not make it so. The C++ overloads of the
/// math functions for float (`sin(float)` is `sinf`) count as float.
int64_t rolledFrom(const FunctionDecl &F) {
  StringRef Name = F.getName();
  QualType T =
      F.getNumParams() ? F.getParamDecl(0)->getType() : F.getReturnType();
  bool IsFloat = T->isSpecificBuiltinType(BuiltinType::Float);
  bool IsDouble = T->isSpecificBuiltinType(BuiltinType::Double);
  if (llvm::is_contained({"sinf", "cosf", "tanf", "sincosf", "powf"}, Name))
    return 32;
  if (llvm::is_contained({"sin", "cos", "tan", "sincos", "pow"}, Name))
    return IsFloat ? 32 : IsDouble ? 64 : 0;
  if (llvm::is_contained({"exp", "log", "sqrt"}, Name))
    return IsDouble ? 64 : 0;
  return 0;
}

/// Gives \p Visit the named function each call in \p Body calls directly,
/// until \p Visit returns true; whether it did.
bool anyNamedCallee(const Stmt *Body,
                    llvm::function_ref<bool(const FunctionDecl &)> Visit) {
  llvm::SmallVector<const Stmt *, 16> Work{Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *F = Call->getDirectCallee())
        if (F->getIdentifier() && Visit(*F))
          return true;
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  return false;
}

/// The smallest trip count from which nvcc leaves \p Body's loop rolled
/// (see the file comment).
int64_t rolledTripCount(const Stmt *Body) {
  int64_t Min = 512;
  anyNamedCallee(Body, [&](const FunctionDecl &F) {
    if (int64_t N = rolledFrom(F))
      Min = std::min(Min, N);
    return false;
  });
  return Min;
}

/// Whether the array of a loop of \p Trip iterations over \p Body that nvcc
/// leaves rolled stays in local memory after ptxas. Measured (CUDA 13.0,
/// sm_90, `ptxas -v` stack frame): it does from 512 iterations whatever
/// the body, and with the trigonometric calls (`sinf`, `cosf`, `tanf`,
/// `sincosf`, and `sin`, `cos`, `tan`, `sincos` of doubles), whose slow
/// path has a local array of its own; with `powf`, `pow`, `exp` and `log`
/// the PTX's `.local` array is back in registers (0-byte stack frame).
bool ptxasKeepsLocal(const Stmt *Body, int64_t Trip) {
  if (Trip >= 512)
    return true;
  return anyNamedCallee(Body, [&](const FunctionDecl &F) {
    if (!llvm::is_contained(
            {"sinf", "cosf", "tanf", "sincosf", "sin", "cos", "tan", "sincos"},
            F.getName()))
      return false;
    int64_t N = rolledFrom(F);
    return N && Trip >= N;
  });
}

/// The text before \p Loc on its line, when it is only white space.
std::optional<StringRef> indentation(const SourceManager &SM,
                                     SourceLocation Loc) {
  auto [File, Offset] = SM.getDecomposedLoc(Loc);
  StringRef Buffer = SM.getBufferData(File);
  size_t LineStart = Buffer.rfind('\n', Offset ? Offset - 1 : 0);
  LineStart = LineStart == StringRef::npos ? 0 : LineStart + 1;
  if (Offset < LineStart)
    return std::nullopt;
  StringRef Indent = Buffer.slice(LineStart, Offset);
  if (Indent.find_first_not_of(" \t") != StringRef::npos)
    return std::nullopt;
  return Indent;
}

/// Words (4 bytes) an array of this type takes per thread.
uint64_t wordsOf(ASTContext &Ctx, QualType T) {
  return (Ctx.getTypeSizeInChars(T).getQuantity() + 3) / 4;
}

/// Per-thread arrays small enough for registers once every index is
/// constant (an H100 thread has at most 255 registers).
constexpr uint64_t MaxRegisterWords = 64;
/// A thread has at most 255 registers: a larger array is in local memory
/// whatever its indices.
constexpr uint64_t MaxThreadRegisters = 255;
/// An array this small whose accesses all run once per thread (outside
/// loops) costs a few L1-cached local accesses per thread: not reported.
constexpr int64_t SmallArrayBytes = 32;
/// Longer loops are not worth unrolling for it.
constexpr int64_t MaxUnrollTrip = 128;

/// An access of the array, classified: the whole index and each
/// subscript.
struct Classified {
  const ArraySubscriptExpr *Sub;
  IndexClass Class;
  llvm::SmallVector<const Expr *, 2> Indices; ///< Outermost first.
  llvm::SmallVector<IndexClass, 2> PerIndex;
};

/// Every access of \p Array in \p FD, classified. An access spelled in a
/// macro's body is left out: the macro may be used where its loops are
/// unrolled, and a fix could not be placed.
llvm::SmallVector<Classified, 8> classifyAccesses(const SourceManager &SM,
                                                  const VarDecl *Array,
                                                  const FunctionDecl *FD,
                                                  IndexClassifier &Classifier) {
  llvm::SmallVector<Classified, 8> Accesses;
  for (const ArraySubscriptExpr *A : accessesOf(Array, FD->getBody())) {
    SourceLocation Bracket = A->getRBracketLoc();
    if (Bracket.isMacroID() && SM.isMacroBodyExpansion(Bracket))
      continue;
    Classified Acc{A, {}, {}, {}};
    accessedArray(A, Acc.Indices);
    for (const Expr *Index : Acc.Indices) {
      Acc.PerIndex.push_back(Classifier.classify(Index));
      Acc.Class += Acc.PerIndex.back();
    }
    Accesses.push_back(std::move(Acc));
  }
  return Accesses;
}

// A run-time subscript that is the same value in every access (`f[b][k]`
// with `b = blockIdx.x` everywhere) never selects between the elements
// that a store and a later load reach: nvcc forwards each store to its
// load and the array does not reach memory, not even in the PTX. Judge
// the array by its other subscripts: where one of those is a run-time
// index, it is the cause (phmm's `t[b][k][s]`, `s = threadIdx.x`, is
// reported at that access, not at the first `t[b][k][l]`).
void discountSameSubscripts(ASTContext &Ctx, ThreadIndexAnalysis &TIA,
                            const FunctionDecl *FD,
                            llvm::SmallVectorImpl<Classified> &Accesses) {
  llvm::SmallVector<unsigned, 2> Same;
  bool SameRank = !Accesses.empty();
  size_t Rank = Accesses.empty() ? 0 : Accesses.front().Indices.size();
  for (const Classified &A : Accesses)
    SameRank &= A.Indices.size() == Rank;
  for (size_t D = 0; SameRank && D < Rank; ++D) {
    if (llvm::none_of(Accesses, [&](const Classified &A) {
          return A.PerIndex[D].Kind == IndexClass::RunTime;
        }))
      continue;
    const Expr *First = Accesses.front().Indices[D];
    if (isFixedInEachThread(Ctx, TIA, First, FD->getBody()) &&
        llvm::all_of(Accesses, [&](const Classified &A) {
          return sameExpr(Ctx, A.Indices[D], First);
        }))
      Same.push_back(D);
  }
  if (!Same.empty())
    for (Classified &A : Accesses) {
      A.Class = IndexClass();
      for (size_t D = 0; D < Rank; ++D)
        if (!llvm::is_contained(Same, D))
          A.Class += A.PerIndex[D];
    }
}

// ptxas (not nvcc) moves some run-time-indexed arrays back to registers,
// with selects between the elements; the PTX's `.local` then has no
// LDL/STL in the SASS (0-byte stack frame by `ptxas -v`, CUDA 13.0,
// sm_90). Measured (see the check's docs): a table of at most 8 32-bit
// elements that is only read at run-time indices (written at constant
// ones), and an array of at most 32 words whose run-time indices are
// made of at most 3 comparison results (`(a > b) * 4 + (c > d) * 2`).
// Also a small array whose every access runs once per thread. True when
// the array is not worth reporting for either reason.
bool notWorthReporting(ASTContext &Ctx, const VarDecl *Array,
                       const ConstantArrayType *ArrayType,
                       const FunctionDecl *FD,
                       llvm::ArrayRef<Classified> Accesses) {
  auto IsRunTime = [](const Classified &A) {
    return A.Class.Kind == IndexClass::RunTime;
  };
  uint64_t Words = wordsOf(Ctx, Array->getType());
  uint64_t Elements = Ctx.getConstantArrayElementCount(ArrayType);
  QualType Elem = Ctx.getBaseElementType(Array->getType());
  bool ReadOnlyTable = Elements <= 8 &&
                       Ctx.getTypeSizeInChars(Elem).getQuantity() == 4 &&
                       llvm::all_of(Accesses, [&](const Classified &A) {
                         if (onlyReads(Ctx, A.Sub))
                           return true;
                         return A.Class.Kind == IndexClass::Constant ||
                                A.Class.Kind == IndexClass::Counter;
                       });
  bool FewSelected =
      Words <= 32 && llvm::all_of(Accesses, [&](const Classified &A) {
        return !IsRunTime(A) ||
               (!A.Class.OtherRunTime && A.Class.PredicateBits <= 3);
      });
  if (llvm::any_of(Accesses, IsRunTime) && (ReadOnlyTable || FewSelected))
    return true;
  // A small array (32 bytes or less) whose every access runs once per
  // thread, outside loops: a few local-memory accesses per thread, of one
  // or two L1 cache lines. Not worth acting on.
  if (Ctx.getTypeSizeInChars(Array->getType()).getQuantity() <=
          SmallArrayBytes &&
      llvm::none_of(Accesses, [&](const Classified &A) {
        return isInsideLoop(Ctx, A.Sub, FD->getBody());
      }))
    return true;
  return false;
}

/// A loop whose counter indexes the array, and how it is unrolled.
struct LoopInfo {
  const ForStmt *For;
  int64_t Trip;
  const LoopHintAttr *Hint;
  Unrolling How;
  bool SassLocal; ///< For RolledByNvcc: still local memory after ptxas.
};

/// The loops of the counters that index \p Accesses that stay rolled, in
/// \p Rolled, with the first access indexed by the counter of a loop that
/// a pragma keeps rolled (\p ByPragma) and of one that nvcc does
/// (\p ByNvcc). False when a loop's trip count or unroll count is not
/// known.
bool rolledLoops(ASTContext &Ctx, ThreadIndexAnalysis &TIA,
                 llvm::ArrayRef<Classified> Accesses,
                 const ArraySubscriptExpr *&ByPragma,
                 const ArraySubscriptExpr *&ByNvcc,
                 llvm::SmallVectorImpl<LoopInfo> &Rolled) {
  for (const Classified &A : Accesses) {
    for (const VarDecl *Counter : A.Class.Counters) {
      std::optional<LoopSpan> Span = TIA.constantLoopSpan(Counter);
      if (!Span)
        return false;
      const auto *For = cast<ForStmt>(Span->Loop);
      int64_t Trip = (Span->Last - Span->First) / Span->Step + 1;
      const LoopHintAttr *Hint = unrollHint(Ctx, *For);
      Unrolling How = Unrolling::Full;
      if (Hint) {
        if (Hint->getOption() == LoopHintAttr::Unroll) {
          if (Hint->getState() == LoopHintAttr::Disable)
            How = Unrolling::RolledByPragma;
        } else {
          Expr::EvalResult R;
          const Expr *Count = Hint->getValue();
          if (!Count || Count->isValueDependent() ||
              !Count->EvaluateAsInt(R, Ctx))
            return false;
          if (R.Val.getInt().getExtValue() < Trip)
            How = Unrolling::RolledByPragma;
        }
      } else if (Trip >= rolledTripCount(For->getBody())) {
        How = Unrolling::RolledByNvcc;
      }
      if (How == Unrolling::Full)
        continue;
      if (How == Unrolling::RolledByPragma && !ByPragma)
        ByPragma = A.Sub;
      if (How == Unrolling::RolledByNvcc && !ByNvcc)
        ByNvcc = A.Sub;
      if (llvm::none_of(Rolled,
                        [&](const LoopInfo &L) { return L.For == For; }))
        Rolled.push_back(
            {For, Trip, Hint, How, ptxasKeepsLocal(For->getBody(), Trip)});
    }
  }
  return true;
}

} // namespace

void LocalMemoryArrayCheck::registerMatchers(MatchFinder *Finder) {
  limitParentMapToUserCode(Finder);
  Finder->addMatcher(
      arraySubscriptExpr(unless(isExpansionInSystemHeader())).bind("subscript"),
      this);
}

void LocalMemoryArrayCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Sub = Result.Nodes.getNodeAs<ArraySubscriptExpr>("subscript");
  ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = *Result.SourceManager;

  // The whole `a[i][j]` access, from its outermost subscript.
  if (auto P = parentAboveCasts(Ctx, Sub, /*StopAtLoad=*/false))
    if (const auto *Outer = P->get<ArraySubscriptExpr>())
      if (Outer->getBase()->IgnoreParenImpCasts() == Sub)
        return;
  llvm::SmallVector<const Expr *, 2> Indices;
  const VarDecl *Array = accessedArray(Sub, Indices);
  if (!Array || !Array->hasLocalStorage() || isa<ParmVarDecl>(Array) ||
      Array->hasAttr<CUDASharedAttr>() || Array->getType()->isDependentType())
    return;
  const auto *ArrayType = Ctx.getAsConstantArrayType(Array->getType());
  if (!ArrayType || Ctx.getConstantArrayElementCount(ArrayType) < 2)
    return;
  // Each array is judged once, from all its accesses (a template's array
  // once per instantiation).
  if (!Judged.insert(Array).second)
    return;
  const FunctionDecl *FD = enclosingFunction(Ctx, *Sub);
  if (!FD || !isDeviceFunction(FD) || !FD->hasBody() ||
      FD->isDependentContext())
    return;

  std::unique_ptr<ThreadIndexAnalysis> &TIA = Analyses[FD];
  if (!TIA)
    TIA = std::make_unique<ThreadIndexAnalysis>(Ctx, FD);
  IndexClassifier Classifier(Ctx, *FD, *TIA);

  // Every access of the array in the function, classified.
  llvm::SmallVector<Classified, 8> Accesses =
      classifyAccesses(SM, Array, FD, Classifier);
  // A run-time subscript that is the same value in every access: judged
  // by the others.
  discountSameSubscripts(Ctx, *TIA, FD, Accesses);
  // Moved back to registers by ptxas, or too small to matter.
  if (notWorthReporting(Ctx, Array, ArrayType, FD, Accesses))
    return;

  auto LocOf = [&](const ArraySubscriptExpr *A) {
    return SM.getFileLoc(A->getExprLoc());
  };
  auto NoteDeclaration = [&] {
    diag(Array->getLocation(), "%0 is declared here", DiagnosticIDs::Note)
        << Array;
  };

  // One run-time index puts the whole array in local memory: report the
  // first, and nothing else (unrolling loops would not help).
  for (const Classified &A : Accesses) {
    if (A.Class.Kind != IndexClass::RunTime)
      continue;
    SourceLocation Loc = LocOf(A.Sub);
    if (!Reported.insert(Loc).second)
      return;
    // Above a thread's registers the array is in local memory whatever its
    // indices: say so, and name what helps.
    uint64_t Words = wordsOf(Ctx, Array->getType());
    if (Words > MaxThreadRegisters)
      diag(Loc, "per-thread array %0 (%1 words) is larger than the 255 "
                "registers a thread can have, so it is placed in local "
                "memory, as slow as global memory, whatever its indices; "
                "shared memory or a smaller array would keep it on chip")
          << Array << static_cast<unsigned>(Words);
    else
      diag(Loc, "per-thread array %0 is indexed with a value known only at "
                "run time, so it is placed in local memory, as slow as global "
                "memory, instead of registers")
          << Array;
    if (A.Class.Cause && SM.getFileLoc(A.Class.Cause->getExprLoc()) != Loc)
      diag(SM.getFileLoc(A.Class.Cause->getExprLoc()),
           "the index depends on this value", DiagnosticIDs::Note);
    NoteDeclaration();
    return;
  }
  // An index that might be a run-time value: the array may be in local
  // memory whatever the loops do; say nothing.
  for (const Classified &A : Accesses)
    if (A.Class.Kind == IndexClass::Unknown)
      return;

  // Every non-constant index is a loop counter: how are those loops
  // unrolled?
  const ArraySubscriptExpr *ByPragma = nullptr, *ByNvcc = nullptr;
  const LoopInfo *PragmaLoop = nullptr;
  llvm::SmallVector<LoopInfo, 2> Rolled;
  if (!rolledLoops(Ctx, *TIA, Accesses, ByPragma, ByNvcc, Rolled))
    return;
  for (const LoopInfo &L : Rolled)
    if (L.How == Unrolling::RolledByPragma) {
      PragmaLoop = &L;
      break;
    }

  if (ByPragma) {
    SourceLocation Loc = LocOf(ByPragma);
    if (!Reported.insert(Loc).second)
      return;
    // Too large for registers: the pragma is not what costs.
    if (wordsOf(Ctx, Array->getType()) > MaxThreadRegisters)
      return;
    diag(Loc, "per-thread array %0 is indexed by the counter of a loop that "
              "a pragma keeps rolled, so it is placed in local memory, as "
              "slow as global memory, instead of registers")
        << Array;
    diag(PragmaLoop->Hint->getLocation(),
         "this pragma keeps the loop of %0 iterations rolled; '#pragma "
         "unroll' would make every index constant",
         DiagnosticIDs::Note)
        << PragmaLoop->Trip;
    NoteDeclaration();
    return;
  }
  if (!ByNvcc)
    return;

  // Unrolled, every index would be constant: offer `#pragma unroll` on each
  // rolled loop where the array fits in registers and the loops are short.
  SourceLocation Loc = LocOf(ByNvcc);
  if (!Reported.insert(Loc).second)
    return;
  bool CanFix = wordsOf(Ctx, Array->getType()) <= MaxRegisterWords;
  llvm::SmallVector<FixItHint, 2> Fixes;
  for (const LoopInfo &L : Rolled) {
    SourceLocation ForLoc = L.For->getBeginLoc();
    std::optional<StringRef> Indent;
    if (L.Trip > MaxUnrollTrip || ForLoc.isMacroID() ||
        !(Indent = indentation(SM, ForLoc))) {
      CanFix = false;
      break;
    }
    if (!FixedLoops.contains(ForLoc))
      Fixes.push_back(FixItHint::CreateInsertion(
          ForLoc, ("#pragma unroll\n" + *Indent).str()));
  }
  {
    // Where ptxas moves the array back to registers, the finding is the
    // rolled loop, not memory traffic (test/gpu/local-array-unroll: 1.61x
    // from `#pragma unroll` with no LDL/STL before or after).
    bool SassLocal = llvm::any_of(Rolled, [](const LoopInfo &L) {
      return L.How == Unrolling::RolledByNvcc && L.SassLocal;
    });
    auto D =
        diag(Loc, SassLocal ? "per-thread array %0 is indexed by the counter "
                              "of a loop of %1 iterations that nvcc does not "
                              "unroll on its own, so it is placed in local "
                              "memory, as slow as global memory, instead of "
                              "registers"
                            : "per-thread array %0 is indexed by the counter "
                              "of a loop of %1 iterations that nvcc does not "
                              "unroll on its own, so the loop runs with "
                              "run-time indices into the array (nvcc's PTX "
                              "places it in local memory; ptxas moves it back "
                              "to registers)")
        << Array << Rolled.front().Trip;
    if (CanFix)
      for (const FixItHint &F : Fixes) {
        D << F;
        FixedLoops.insert(F.RemoveRange.getBegin());
      }
  }
  for (const LoopInfo &L : Rolled)
    diag(L.For->getBeginLoc(),
         CanFix ? "'#pragma unroll' on this loop makes every index constant"
                : "'#pragma unroll' on this loop would make every index "
                  "constant, but the array or the loop is too large for "
                  "registers",
         DiagnosticIDs::Note);
  NoteDeclaration();
}

} // namespace clang::tidy::cuda
