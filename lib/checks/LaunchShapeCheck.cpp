//===--- LaunchShapeCheck.cpp - cuda-lint ---------------------------------===//

#include "LaunchShapeCheck.h"
#include "cudalint/analysis/DeviceCode.h"
#include "cudalint/analysis/KernelLaunches.h"
#include "cudalint/analysis/ThreadIndex.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"
#include <optional>

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

namespace {

constexpr uint64_t WarpSize = 32;
constexpr uint64_t MinBlock = 64;
/// The fewest multiprocessors of a GPU of the architecture cuda-lint
/// targets by default (sm_90: 114 on the H100 PCIe, 132 on the H100 SXM and
/// H200). A constant grid of at most this many blocks puts at most one block
/// on each multiprocessor.
constexpr uint64_t MinMultiprocessors = 114;
/// The most blocks a multiprocessor holds at once (sm_90).
constexpr uint64_t MaxBlocksPerMultiprocessor = 32;
// Shared memory per multiprocessor on sm_90 (228 KB), and what the runtime
// reserves per block (1 KB).
constexpr uint64_t SharedPerMultiprocessor = 228 * 1024;
constexpr uint64_t SharedReservedPerBlock = 1024;

/// The number of threads (or blocks) that the launch configuration
/// argument \p E (a `dim3` or an integer) describes, if it is a constant.
std::optional<uint64_t> count(const Expr *E, const FunctionDecl &FD,
                              ASTContext &Ctx) {
  std::optional<BlockShape> S = KernelLaunches::evaluateDim3(E, &FD, Ctx);
  if (!S)
    return std::nullopt;
  // Extents are at most 2^32 - 1 (dim3 holds unsigned ints); the product
  // saturates rather than wraps.
  uint64_t N = 1;
  for (int64_t V : *S)
    N = llvm::SaturatingMultiply(N, uint64_t(V));
  return N;
}

/// The bytes of static shared memory (`__shared__` variables of a constant
/// size) that the body of \p Kernel declares, and the functions it calls
/// with visible bodies, to a depth of 4 (each callee counted once).
uint64_t staticSharedBytes(const FunctionDecl *Kernel, ASTContext &Ctx) {
  struct Finder : RecursiveASTVisitor<Finder> {
    ASTContext &Ctx;
    llvm::SmallPtrSet<const Decl *, 16> Seen;
    uint64_t Bytes = 0;
    unsigned Depth = 0;
    explicit Finder(ASTContext &Ctx) : Ctx(Ctx) {}
    bool VisitVarDecl(VarDecl *V) {
      if (!V->hasAttr<CUDASharedAttr>() || V->hasExternalStorage() ||
          V->getType()->isDependentType() || V->getType()->isIncompleteType() ||
          !Seen.insert(V).second)
        return true;
      if (const auto *CAT = Ctx.getAsConstantArrayType(V->getType());
          CAT || !V->getType()->isArrayType())
        Bytes = llvm::SaturatingAdd(
            Bytes,
            uint64_t(Ctx.getTypeSizeInChars(V->getType()).getQuantity()));
      return true;
    }
    bool VisitCallExpr(CallExpr *Call) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
      if (Def && Def->hasBody() && Depth < 4 && Seen.insert(Def).second) {
        ++Depth;
        TraverseStmt(Def->getBody());
        --Depth;
      }
      return true;
    }
  } Fn(Ctx);
  const FunctionDecl *Def = Kernel ? Kernel->getDefinition() : nullptr;
  if (!Def || !Def->hasBody())
    return 0;
  Fn.Seen.insert(Def);
  Fn.TraverseStmt(Def->getBody());
  return Fn.Bytes;
}

/// An upper bound on the value of the grid expression \p E at the launch
/// \p At: constants, and variables that never change, bounded by the
/// condition of an `if` that holds the launch (`else if (n < 4096)
/// k<<<n / 32, 32>>>`, bitpermute), through `/`, `>>`, `+` and `*`.
class GuardBound {
public:
  GuardBound(ASTContext &Ctx, const FunctionDecl &FD, const Stmt *At)
      : Ctx(Ctx), TIA(Ctx, &FD), At(At) {}

  std::optional<uint64_t> upper(const Expr *E, unsigned Depth = 0) {
    if (Depth > 8 || E->isValueDependent())
      return std::nullopt;
    E = E->IgnoreImplicit()->IgnoreParenImpCasts();
    if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(E))
      return upper(Default->getExpr(), Depth + 1);
    // `dim3(x, y, z)`: the product of its extents.
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
      uint64_t N = 1;
      for (const Expr *Arg : Construct->arguments()) {
        std::optional<uint64_t> A = upper(Arg, Depth + 1);
        if (!A)
          return std::nullopt;
        N = llvm::SaturatingMultiply(N, *A);
      }
      return Construct->getNumArgs() ? std::optional<uint64_t>(N)
                                     : std::nullopt;
    }
    if (E->getType()->isIntegerType())
      if (std::optional<llvm::APSInt> C = E->getIntegerConstantExpr(Ctx))
        return C->isNegative() ? std::nullopt
                               : std::optional<uint64_t>(C->getZExtValue());
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return variable(dyn_cast<VarDecl>(DRE->getDecl()));
    const auto *BO = dyn_cast<BinaryOperator>(E);
    if (!BO)
      return std::nullopt;
    std::optional<uint64_t> L = upper(BO->getLHS(), Depth + 1);
    if (!L)
      return std::nullopt;
    std::optional<llvm::APSInt> RC =
        BO->getRHS()->isValueDependent()
            ? std::nullopt
            : BO->getRHS()->getIntegerConstantExpr(Ctx);
    switch (BO->getOpcode()) {
    case BO_Div:
      if (RC && RC->isStrictlyPositive())
        return *L / RC->getZExtValue();
      return std::nullopt;
    case BO_Shr:
      if (RC && !RC->isNegative() && RC->getZExtValue() < 64)
        return *L >> RC->getZExtValue();
      return std::nullopt;
    case BO_Add:
    case BO_Mul: {
      std::optional<uint64_t> R = upper(BO->getRHS(), Depth + 1);
      if (!R)
        return std::nullopt;
      return BO->getOpcode() == BO_Add ? llvm::SaturatingAdd(*L, *R)
                                       : llvm::SaturatingMultiply(*L, *R);
    }
    default:
      return std::nullopt;
    }
  }

private:
  /// The bound an enclosing `if` puts on \p V, which never changes.
  std::optional<uint64_t> variable(const VarDecl *V) {
    if (!V || !V->getType()->isIntegerType() || !TIA.isUnmodified(V))
      return std::nullopt;
    std::optional<uint64_t> Best;
    const Stmt *Cur = At;
    for (unsigned Depth = 0; Depth < 64; ++Depth) {
      DynTypedNodeList Parents = Ctx.getParents(*Cur);
      const Stmt *P = Parents.empty() ? nullptr : Parents[0].get<Stmt>();
      if (!P)
        break;
      if (const auto *If = dyn_cast<IfStmt>(P); If && Cur != If->getCond())
        if (auto B = fromCondition(If->getCond(), V, Cur == If->getThen()))
          Best = Best ? std::min(*Best, *B) : *B;
      Cur = P;
    }
    return Best;
  }

  /// The bound \p Cond gives \p V where it holds (\p Holds) or not.
  std::optional<uint64_t> fromCondition(const Expr *Cond, const VarDecl *V,
                                        bool Holds) {
    const auto *BO = dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts());
    if (!BO)
      return std::nullopt;
    if (Holds && BO->getOpcode() == BO_LAnd) {
      auto L = fromCondition(BO->getLHS(), V, true);
      auto R = fromCondition(BO->getRHS(), V, true);
      if (L && R)
        return std::min(*L, *R);
      return L ? L : R;
    }
    if (!Holds && BO->getOpcode() == BO_LOr) {
      auto L = fromCondition(BO->getLHS(), V, false);
      auto R = fromCondition(BO->getRHS(), V, false);
      if (L && R)
        return std::min(*L, *R);
      return L ? L : R;
    }
    auto IsV = [&](const Expr *E) {
      const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
      return DRE && DRE->getDecl() == V;
    };
    BinaryOperatorKind Op = BO->getOpcode();
    const Expr *K = nullptr;
    if (IsV(BO->getLHS())) {
      K = BO->getRHS();
    } else if (IsV(BO->getRHS())) {
      K = BO->getLHS();
      Op = BinaryOperator::reverseComparisonOp(Op);
    } else {
      return std::nullopt;
    }
    if (!Holds)
      Op = BinaryOperator::negateComparisonOp(Op);
    std::optional<llvm::APSInt> C =
        K->isValueDependent() ? std::nullopt : K->getIntegerConstantExpr(Ctx);
    if (!C || C->isNegative())
      return std::nullopt;
    uint64_t N = C->getZExtValue();
    if (Op == BO_LT)
      return N == 0 ? std::nullopt : std::optional<uint64_t>(N - 1);
    if (Op == BO_LE)
      return N;
    return std::nullopt;
  }

  ASTContext &Ctx;
  ThreadIndexAnalysis TIA;
  const Stmt *At;
};

} // namespace

void LaunchShapeCheck::registerMatchers(MatchFinder *Finder) {
  limitParentMapToUserCode(Finder);
  Finder->addMatcher(
      cudaKernelCallExpr(unless(isExpansionInSystemHeader())).bind("launch"),
      this);
}

void LaunchShapeCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Launch = Result.Nodes.getNodeAs<CUDAKernelCallExpr>("launch");
  ASTContext &Ctx = *Result.Context;
  const CallExpr *Config = Launch->getConfig();
  const FunctionDecl *FD = enclosingFunction(Ctx, *Launch);
  if (!Config || Config->getNumArgs() < 2 || !FD || !FD->hasBody())
    return;
  const Expr *Block = Config->getArg(1);
  // A grid that depends on a template argument is judged in each
  // instantiation, where it has its value.
  if (Config->getArg(0)->isValueDependent())
    return;
  // In a template, the pattern's block size may depend on a template
  // argument (then it is not a constant here); each instantiation has it.
  std::optional<uint64_t> Threads = count(Block, *FD, Ctx);
  if (!Threads || *Threads > UINT32_MAX)
    return;
  bool Bad = *Threads % WarpSize != 0 || *Threads < MinBlock;
  std::optional<uint64_t> Blocks;
  // A grid of known size: a launch of at most one warp's worth of threads
  // in all (`<<<1, 1>>>`, `<<<1, 16>>>`, `<<<10, 1>>>`) is a serial or
  // tiny task, which no block shape makes faster. A warp-sized block is
  // short of the guide's 64-thread minimum only through the limit of 32
  // resident blocks per multiprocessor, which holds one-warp blocks to 32
  // warps: with a constant grid of at most 32 blocks per multiprocessor
  // every block is resident at once, and regrouping the same threads into
  // larger blocks puts no more warps on a multiprocessor.
  if (Bad) {
    Blocks = count(Config->getArg(0), *FD, Ctx);
    // A run-time grid that the branch holding the launch bounds.
    if (!Blocks && FD->hasBody())
      Blocks = GuardBound(Ctx, *FD, Launch).upper(Config->getArg(0));
    if (Blocks && *Blocks != 0) {
      if (llvm::SaturatingMultiply(*Blocks, *Threads) <= WarpSize)
        return;
      if (*Blocks <= MinMultiprocessors * MaxBlocksPerMultiprocessor &&
          *Threads % WarpSize == 0)
        return;
    }
    // Shared memory that already allows fewer than 32 blocks per
    // multiprocessor: the kernel's static `__shared__` variables and a
    // constant dynamic size (or one that grows with the block, `<<<g,
    // bsize, bsize * 32 * sizeof(long)>>>`, bitpermute). Then shared
    // memory, not the limit of 32 resident blocks, sets how many blocks
    // are resident, and the limit the finding is about cannot bind.
    if (*Threads % WarpSize == 0) {
      uint64_t Bytes = staticSharedBytes(Launch->getDirectCallee(), Ctx);
      if (Config->getNumArgs() > 2 &&
          !isa<CXXDefaultArgExpr>(Config->getArg(2)))
        if (std::optional<uint64_t> Dynamic =
                count(Config->getArg(2), *FD, Ctx))
          Bytes = llvm::SaturatingAdd(Bytes, *Dynamic);
      if (SharedPerMultiprocessor /
              llvm::SaturatingAdd(Bytes, SharedReservedPerBlock) <
          MaxBlocksPerMultiprocessor)
        return;
    }
  }
  SourceLocation Loc =
      Result.SourceManager->getExpansionLoc(Block->getBeginLoc());
  LaunchSite &L = Launches[Loc];
  // An instantiation with a block of whole warps from 64 threads up: the
  // block size is a parameter the program sweeps or tunes.
  if (!Bad) {
    if (FD->isTemplateInstantiation() && *Threads >= MinBlock)
      L.TunedElsewhere = true;
    return;
  }
  // One report per launch in the source: the first instantiation (or the
  // pattern, when the size does not depend on the template) that is bad.
  if (L.Threads)
    return;
  L.Threads = *Threads;
  L.Blocks = Blocks.value_or(0);
  if (FD->isTemplateInstantiation()) {
    llvm::raw_string_ostream OS(L.Instantiation);
    FD->getNameForDiagnostic(OS, Ctx.getPrintingPolicy(), /*Qualified=*/true);
  }
}

void LaunchShapeCheck::onEndOfTranslationUnit() {
  for (const auto &[Loc, L] : Launches) {
    if (!L.Threads)
      continue;
    // A warp-sized point of a block-size sweep (`run<32>`, `run<64>`, ...,
    // `run<256>`): the program measures the shapes, the 32 among them.
    if (L.Threads % WarpSize == 0 && !L.Instantiation.empty() &&
        L.TunedElsewhere)
      continue;
    reportBlock(Loc, L.Threads, L.Blocks);
    if (!L.Instantiation.empty())
      diag(Loc,
           "in the instantiation '%0' (other instantiations of this launch "
           "are not reported again)",
           DiagnosticIDs::Note)
          << L.Instantiation;
  }
  Launches.clear();
}

void LaunchShapeCheck::reportBlock(SourceLocation Loc, uint64_t Threads,
                                   uint64_t Blocks) {
  if (Threads % WarpSize != 0) {
    uint64_t Warps = (Threads + WarpSize - 1) / WarpSize;
    uint64_t Lanes = Warps * WarpSize;
    uint64_t Idle = Lanes - Threads;
    StringRef Msg = "block of %0 %plural{1:thread|:threads}0 is not a "
                    "multiple of the warp size (32); the last warp of every "
                    "block runs with idle lanes";
    // A grid known to fit on the GPU at once (at most 114 x 32 blocks):
    // every block is resident from the start, the GPU has lanes to spare,
    // and the idle ones cost no throughput the grid could use (the audit
    // measured 4-thread blocks over 128 blocks faster than 32-thread
    // blocks on an H200: fewer warps per multiprocessor). Ranked low.
    if (Blocks != 0 &&
        Blocks <= MinMultiprocessors * MaxBlocksPerMultiprocessor) {
      std::string Why;
      llvm::raw_string_ostream(Why)
          << "a grid of at most " << Blocks
          << " blocks is resident at once (at most "
          << MinMultiprocessors * MaxBlocksPerMultiprocessor
          << "): the idle lanes are capacity the launch leaves unused anyway";
      diagCapped(Loc, Msg, 30, Why) << static_cast<unsigned>(Threads);
    } else {
      diag(Loc, Msg) << static_cast<unsigned>(Threads);
    }
    std::string Percent;
    llvm::raw_string_ostream(Percent)
        << llvm::format("%.1f", 100.0 * Idle / Lanes);
    diag(Loc,
         "%0 %plural{1:thread|:threads}0 = %1 %plural{1:warp|:warps}1 = %2 "
         "lanes: %3 lanes (%4%%) idle in every block",
         DiagnosticIDs::Note)
        << static_cast<unsigned>(Threads) << static_cast<unsigned>(Warps)
        << static_cast<unsigned>(Lanes) << static_cast<unsigned>(Idle)
        << Percent;
    return;
  }
  if (Threads < MinBlock)
    diag(Loc, "block of %0 threads is below the recommended minimum of 64; "
              "with more than 32 blocks per multiprocessor waiting, the "
              "limit of 32 resident blocks holds a multiprocessor to at most "
              "32 of its 64 warps")
        << static_cast<unsigned>(Threads);
}

} // namespace clang::tidy::cuda
