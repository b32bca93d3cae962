//===--- Impact.cpp - cuda-lint -------------------------------------------===//
//
// The impact estimate of a finding (Impact.h; docs/impact.md).
//
//===----------------------------------------------------------------------===//

#include "cudalint/analysis/Impact.h"
#include "cudalint/analysis/DeviceCode.h"
#include "cudalint/analysis/GridStrideLoops.h"
#include "cudalint/analysis/KernelLaunches.h"
#include "cudalint/analysis/LaneGuards.h"
#include "cudalint/analysis/ThreadIndex.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Process.h"
#include <algorithm>

namespace clang::tidy::cuda {

namespace {

/// The weight of a loop whose trip count is not a constant.
constexpr uint64_t UnknownTrips = 32;
/// A loop this many times lighter than the function's hottest loop nest is
/// setup work beside it (the fourth sealed audit: a shared tile's fill of 4
/// iterations before a main loop of 512 with 32 inner iterations each).
constexpr uint64_t ColdShare = 1024;
/// The highest rank of code that is cold within its function.
constexpr int ColdCap = 30;
constexpr uint64_t MaxMultiplier = uint64_t(1) << 40;

bool isLoop(const Stmt *S) {
  return isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
}

/// Whether \p Child of the loop \p Loop runs with every iteration (not a
/// `for` statement's init, nor a range-for's range).
bool repeats(const Stmt *Loop, const Stmt *Child) {
  if (const auto *F = dyn_cast<ForStmt>(Loop))
    return Child != F->getInit();
  if (const auto *R = dyn_cast<CXXForRangeStmt>(Loop))
    return Child == R->getBody() || Child == R->getLoopVarStmt();
  return true;
}

/// The trip count of a `for (int i = A; i < N; i += S)` with constants.
std::optional<uint64_t> tripCount(const Stmt *Loop, ThreadIndexAnalysis *TIA) {
  const auto *F = dyn_cast<ForStmt>(Loop);
  const auto *Init = F ? dyn_cast_or_null<DeclStmt>(F->getInit()) : nullptr;
  if (!TIA || !Init || !Init->isSingleDecl())
    return std::nullopt;
  const auto *V = dyn_cast<VarDecl>(Init->getSingleDecl());
  if (!V)
    return std::nullopt;
  std::optional<LoopSpan> Span = TIA->constantLoopSpan(V);
  if (!Span || Span->Step <= 0 || Span->Last < Span->First)
    return std::nullopt;
  return uint64_t((Span->Last - Span->First) / Span->Step + 1);
}

uint64_t weight(const Stmt *Loop, ThreadIndexAnalysis *TIA) {
  std::optional<uint64_t> N = tripCount(Loop, TIA);
  return N ? std::max<uint64_t>(*N, 1) : UnknownTrips;
}

uint64_t times(uint64_t A, uint64_t B) {
  return A > MaxMultiplier / std::max<uint64_t>(B, 1) ? MaxMultiplier : A * B;
}

/// The largest multiplier (product of the weights of the enclosing loops)
/// of any statement of \p S that does work.
/// \p Once: grid-stride loops that run at most once per thread.
void hottest(const Stmt *S, uint64_t M, ThreadIndexAnalysis *TIA,
             const llvm::SmallPtrSetImpl<const Stmt *> &Once, uint64_t &Max) {
  if (!S)
    return;
  if (!isa<CompoundStmt, NullStmt>(S))
    Max = std::max(Max, M);
  if (isa<Expr>(S) && !isa<LambdaExpr, StmtExpr>(S))
    return; // Expressions hold no loops.
  bool Loop = isLoop(S) && !Once.count(S);
  uint64_t W = Loop ? weight(S, TIA) : 1;
  for (const Stmt *C : S->children())
    hottest(C, Loop && repeats(S, C) ? times(M, W) : M, TIA, Once, Max);
}

/// Whether \p S names gridDim: only then can it hold a grid-stride loop
/// (the launches are read only for such kernels).
bool gridStrideCandidate(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *E = dyn_cast<Expr>(S))
    if (std::optional<IndexSymbol> Sym = ThreadIndexAnalysis::builtinSymbol(E);
        Sym && Sym->Kind == IndexSymbol::GridDim)
      return true;
  return llvm::any_of(S->children(), gridStrideCandidate);
}

/// The grid-stride loops of \p FD that every launch makes run at most once
/// per thread (GridStrideLoops.h).
void collectOnceLoops(ASTContext &Ctx, const FunctionDecl &FD, const Stmt *S,
                      llvm::SmallPtrSetImpl<const Stmt *> &Once) {
  if (!S)
    return;
  if (const auto *For = dyn_cast<ForStmt>(S);
      For && runsOncePerThread(Ctx, FD, *For))
    Once.insert(For);
  for (const Stmt *C : S->children())
    collectOnceLoops(Ctx, FD, C, Once);
}

void collectFunctions(const DeclContext *DC, const SourceManager &SM,
                      llvm::SmallVectorImpl<const FunctionDecl *> &Out,
                      unsigned Depth) {
  if (Depth > 16)
    return;
  for (const Decl *D : userCodeDecls(DC)) {
    if (D->getLocation().isValid() &&
        SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
      continue;
    if (const auto *T = dyn_cast<FunctionTemplateDecl>(D))
      D = T->getTemplatedDecl();
    else if (const auto *T = dyn_cast<ClassTemplateDecl>(D))
      D = T->getTemplatedDecl();
    if (const auto *FD = dyn_cast<FunctionDecl>(D)) {
      if (FD->doesThisDeclarationHaveABody())
        Out.push_back(FD);
      continue;
    }
    if (const auto *RD = dyn_cast<CXXRecordDecl>(D)) {
      if (RD->isThisDeclarationADefinition())
        collectFunctions(RD, SM, Out, Depth + 1);
      continue;
    }
    if (isa<NamespaceDecl, LinkageSpecDecl, ExportDecl>(D))
      collectFunctions(cast<DeclContext>(D), SM, Out, Depth + 1);
  }
}

std::string quoted(const FunctionDecl *FD) {
  return "'" + FD->getNameAsString() + "'";
}

/// Joins the non-empty parts with "; ".
std::string join(std::initializer_list<std::string> Parts) {
  std::string Out;
  for (const std::string &P : Parts)
    if (!P.empty())
      Out += (Out.empty() ? "" : "; ") + P;
  return Out;
}

/// One model per thread: cuda-clangd analyses files on several threads.
std::unique_ptr<ImpactModel> &sharedModel() {
  static thread_local std::unique_ptr<ImpactModel> Model;
  return Model;
}

} // namespace

Impact::Level Impact::levelOf(unsigned Rank) {
  return Rank >= HighFrom ? High : Rank >= MediumFrom ? Medium : Low;
}

llvm::StringRef Impact::levelName(Level L) {
  return L == High ? "high" : L == Medium ? "medium" : "low";
}

std::optional<Impact::Level> Impact::parseLevel(llvm::StringRef S) {
  std::string L = S.trim().lower();
  if (L == "low")
    return Low;
  if (L == "medium")
    return Medium;
  if (L == "high")
    return High;
  return std::nullopt;
}

std::string Impact::note() const {
  return ("impact: " + levelName(Lvl) + " (rank " + llvm::Twine(Rank) +
          "/100): " + Reason)
      .str();
}

ImpactModel::ImpactModel(ASTContext &Ctx) : Ctx(Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::SmallVector<const FunctionDecl *, 64> Fns;
  collectFunctions(Ctx.getTranslationUnitDecl(), SM, Fns, 0);
  for (const FunctionDecl *FD : Fns) {
    SourceRange R = FD->getSourceRange();
    SourceLocation B = SM.getExpansionLoc(R.getBegin());
    SourceLocation E = SM.getExpansionRange(R.getEnd()).getEnd();
    if (B.isValid() && E.isValid())
      Functions.push_back({B, E, FD});
  }
}

ImpactModel::~ImpactModel() = default;

const FunctionDecl *ImpactModel::functionAt(SourceLocation Loc) const {
  const SourceManager &SM = Ctx.getSourceManager();
  const FunctionRange *Best = nullptr;
  for (const FunctionRange &F : Functions) {
    if (SM.isBeforeInTranslationUnit(Loc, F.Begin) ||
        SM.isBeforeInTranslationUnit(F.End, Loc))
      continue;
    // The innermost (a member function of a local class).
    if (!Best || SM.isBeforeInTranslationUnit(Best->Begin, F.Begin))
      Best = &F;
  }
  return Best ? Best->FD : nullptr;
}

Impact ImpactModel::estimate(SourceLocation Loc) {
  Impact I;
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation ELoc = Loc.isValid() ? SM.getExpansionLoc(Loc) : Loc;
  const FunctionDecl *FD = ELoc.isValid() ? functionAt(ELoc) : nullptr;
  if (!FD) {
    I.Reason = "not in a function body: where it runs is not known";
    return I;
  }
  if (!Launches)
    Launches = std::make_unique<KernelLaunches>(Ctx);
  // The statements from the body down to the innermost one at the finding.
  llvm::SmallVector<const Stmt *, 16> Path;
  auto Contains = [&](const Stmt *S) {
    SourceLocation B = SM.getExpansionLoc(S->getBeginLoc());
    SourceLocation E = SM.getExpansionRange(S->getEndLoc()).getEnd();
    return B.isValid() && E.isValid() &&
           !SM.isBeforeInTranslationUnit(ELoc, B) &&
           !SM.isBeforeInTranslationUnit(E, ELoc);
  };
  const Stmt *Body = FD->getBody();
  for (const Stmt *Cur = Body && Contains(Body) ? Body : nullptr; Cur;) {
    Path.push_back(Cur);
    const Stmt *Next = nullptr;
    for (const Stmt *C : Cur->children()) {
      if (C && Contains(C)) {
        Next = C;
        break;
      }
    }
    Cur = Next;
  }
  if (isKernel(FD) || isDeviceFunction(FD))
    return estimateDevice(FD, Path);
  return estimateHost(FD, Path);
}

Impact ImpactModel::estimateHost(const FunctionDecl *FD,
                                 llvm::ArrayRef<const Stmt *> Path) {
  Impact I;
  KernelLaunches::Frequency F = Launches->frequencyOf(FD);
  bool InLoop = false;
  for (size_t K = 0; K + 1 < Path.size(); ++K)
    InLoop |= isLoop(Path[K]) && repeats(Path[K], Path[K + 1]);
  if (F == KernelLaunches::Frequency::Never) {
    I.Rank = 10;
    I.Reason = "function " + quoted(FD) + " is never called in this program";
  } else if (InLoop) {
    I.Rank = 65;
    I.Reason = "in a host loop";
  } else if (F == KernelLaunches::Frequency::Loop) {
    I.Rank = 65;
    I.Reason = "in " + quoted(FD) + ", which runs in a host loop";
  } else {
    I.Rank = 50;
    I.Reason = F == KernelLaunches::Frequency::Once
                   ? "host code that runs once"
                   : "host code; how often it runs is not known";
  }
  I.Lvl = Impact::levelOf(I.Rank);
  return I;
}

uint64_t ImpactModel::hottestMultiplier(const FunctionDecl *FD) {
  auto It = Hottest.find(FD);
  if (It != Hottest.end())
    return It->second;
  ThreadIndexAnalysis TIA(Ctx, FD);
  uint64_t Max = 1;
  hottest(FD->getBody(), 1, &TIA, onceLoops(FD), Max);
  Hottest[FD] = Max;
  return Max;
}

const llvm::SmallPtrSetImpl<const Stmt *> &
ImpactModel::onceLoops(const FunctionDecl *FD) {
  auto [It, New] = OnceLoops.try_emplace(FD);
  if (New && isKernel(FD) && gridStrideCandidate(FD->getBody()))
    collectOnceLoops(Ctx, *FD, FD->getBody(), It->second);
  return It->second;
}

Impact ImpactModel::estimateDevice(const FunctionDecl *FD,
                                   llvm::ArrayRef<const Stmt *> Path) {
  using Freq = KernelLaunches::Frequency;
  Impact I;
  bool IsKernel = isKernel(FD);
  std::string What = (IsKernel ? "kernel " : "device function ") + quoted(FD);
  Freq F = Launches->frequencyOf(FD);
  if (F == Freq::Never) {
    I.Rank = 10;
    I.Lvl = Impact::Low;
    I.Reason = What + (IsKernel ? " is never launched in this program"
                                : " is never called in this program");
    return I;
  }
  int Rank = 50;
  std::string Launch;
  if (F == Freq::Loop) {
    Rank += 15;
    Launch = IsKernel ? What + " is launched in a host loop"
                      : "called from kernels launched in a host loop";
  } else if (F == Freq::Once && Launches->anyLaunchInLoop()) {
    // A setup kernel beside the kernels of the hot path.
    Rank -= 25;
    Launch = IsKernel ? What + " is launched once, other kernels in host "
                               "loops"
                      : "called from kernels launched once, while other "
                        "kernels run in host loops";
  } else if (F == Freq::Once) {
    Launch = IsKernel ? What + " is launched once" : "";
  }
  std::optional<BlockShape> Grid =
      IsKernel ? Launches->onlyGrid(FD) : std::nullopt;
  int64_t Blocks = Grid ? (*Grid)[0] * (*Grid)[1] * (*Grid)[2] : 0;
  if (Grid && Blocks <= 64) {
    // A small grid run once beside the hot path is a setup step (seeding
    // clusters, building a table): loops in it do not make it hot.
    bool Setup = F == Freq::Once && Launches->anyLaunchInLoop();
    Rank -= Setup ? 20 : 10;
    Launch = join({Launch, Blocks == 1 ? std::string("a grid of one block")
                                       : "a grid of " + std::to_string(Blocks) +
                                             " blocks"});
  }

  // Where in the function: the loops on the way to the finding.
  ThreadIndexAnalysis TIA(Ctx, FD);
  unsigned Loops = 0;
  uint64_t M = 1;
  std::optional<uint64_t> Trips = 1;
  // A grid-stride loop that the launches cover runs once per thread.
  bool Covered = false;
  for (size_t K = 0; K + 1 < Path.size(); ++K)
    if (isLoop(Path[K]) && onceLoops(FD).count(Path[K]))
      Covered = true;
    else if (isLoop(Path[K]) && repeats(Path[K], Path[K + 1])) {
      ++Loops;
      M = times(M, weight(Path[K], &TIA));
      std::optional<uint64_t> N = tripCount(Path[K], &TIA);
      Trips = N && Trips ? std::optional(times(*N, *Trips)) : std::nullopt;
    }
  uint64_t Hot = hottestMultiplier(FD);
  std::string Where;
  // Cold within the function: once per thread, or in a loop ColdShare
  // times lighter than the hottest loop nest, beside a nest of at least
  // ColdShare iterations (two loops of unknown trip count). How often the host
  // runs the function does not make such code worth acting on (the sealed
  // audits read these, launched in host loops and ranked medium, as "right but
  // not worth acting on"): capped low.
  bool Cold = false;
  if (Path.empty()) {
    // The function itself (a parameter): where in it does not apply.
  } else if (Loops == 0 && Hot > 1) {
    Rank -= 25;
    Cold = Hot >= ColdShare;
    Where = "once per thread, outside the loops of " + What;
  } else if (Loops == 0) {
    Where = Covered ? "once per thread (a grid-stride loop that every launch's "
                      "grid covers)"
                    : "once per thread";
  } else if (times(M, ColdShare) <= Hot) {
    // A setup loop (a shared tile filled once before the kernel's main
    // loop nest): as cold as code that runs once per thread.
    Rank -= 25;
    Cold = true;
    Where = "in a loop about " + std::to_string(Hot / M) +
            " times lighter than the hottest loop nest of " + What;
  } else if (times(M, UnknownTrips) <= Hot) {
    Rank -= 15;
    Where = "in a loop outside the hottest loop nest of " + What;
  } else {
    Rank += Loops >= 2 ? 20 : 15;
    Where = Loops >= 2 ? "in a loop nest of depth " + std::to_string(Loops)
                       : "in a loop";
    if (Trips)
      Where += " (" + std::to_string(*Trips) + " iterations)";
  }
  if (Trips && Loops > 0 && *Trips <= 4)
    Rank -= 10; // A loop of a few iterations is barely a loop.

  // Who runs it: one thread, one warp, one block.
  std::string Who;
  if (Path.size() > 1) {
    std::optional<BlockShape> Exact =
        IsKernel ? Launches->onlyShape(FD) : std::nullopt;
    LaneGuards G(Ctx, TIA, Exact, Path.back(), nullptr, Grid);
    if (G.guarded()) {
      static const BlockShape Probes[] = {{0, 0, 0},  {1, 0, 0},   {31, 0, 0},
                                          {32, 0, 0}, {255, 0, 0}, {1023, 0, 0},
                                          {0, 1, 0},  {0, 7, 0},   {0, 0, 1}};
      static const std::array<int64_t, 3> Blocks[] = {
          {1, 0, 0}, {2, 0, 0}, {17, 0, 0}, {0, 1, 0}, {0, 0, 1}};
      auto Inside = [&](const BlockShape &P) {
        return !Exact ||
               (P[0] < (*Exact)[0] && P[1] < (*Exact)[1] && P[2] < (*Exact)[2]);
      };
      bool Zero = G.mayRunIn(0, 0, 0, {0, 0, 0});
      bool Others = false, OutsideWarp = false, OtherWarpsExist = false;
      for (const BlockShape &P : llvm::drop_begin(Probes)) {
        if (!Inside(P))
          continue;
        bool InWarp = P[0] < 32 && P[1] == 0 && P[2] == 0;
        OtherWarpsExist |= !InWarp;
        if (G.mayRunIn(P[0], P[1], P[2], {0, 0, 0})) {
          Others = true;
          OutsideWarp |= !InWarp;
        }
      }
      bool OneBlock = !Grid || (*Grid)[0] * (*Grid)[1] * (*Grid)[2] > 1;
      for (const auto &B : Blocks)
        for (const BlockShape &P : Probes)
          if (OneBlock && Inside(P) && G.mayRunIn(P[0], P[1], P[2], B))
            OneBlock = false;
      bool OneThread = Zero && !Others;
      if (OneThread && OneBlock) {
        Rank = std::min(Rank, 10);
        Who = "one thread of the grid";
      } else if (OneBlock) {
        Rank -= 30;
        Who = "one block of the grid";
      } else if (OneThread) {
        Rank -= 30;
        Who = "one thread per block";
      } else if (Others && !OutsideWarp && OtherWarpsExist) {
        Rank -= 10;
        Who = "one warp per block";
      }
    }
  }
  if (Cold)
    Rank = std::min(Rank, ColdCap);
  I.Rank = unsigned(std::clamp(Rank, 0, 100));
  I.Lvl = Impact::levelOf(I.Rank);
  I.Reason = join({Where, Who, Launch});
  if (I.Reason.empty())
    I.Reason = "in " + What + "; how often it runs is not known";
  return I;
}

ImpactModel &impactModelFor(ASTContext &Ctx) {
  std::unique_ptr<ImpactModel> &M = sharedModel();
  if (!M || &M->context() != &Ctx)
    M = std::make_unique<ImpactModel>(Ctx);
  return *M;
}

void resetImpactModel() {
  sharedModel().reset();
  resetGridStrideLoops();
}

static std::optional<Impact::Level> MinImpactOverride;

void setMinImpactOverride(std::optional<Impact::Level> L) {
  MinImpactOverride = L;
}

std::optional<Impact::Level> minImpactOverride() { return MinImpactOverride; }

bool impactEnabled() {
  static const bool Enabled = [] {
    std::optional<std::string> V =
        llvm::sys::Process::GetEnv("CUDA_LINT_IMPACT");
    return !V || (*V != "off" && *V != "0");
  }();
  return Enabled;
}

} // namespace clang::tidy::cuda
