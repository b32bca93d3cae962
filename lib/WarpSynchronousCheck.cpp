//===--- WarpSynchronousCheck.cpp - cuda-lint -----------------------------===//
//
// Kepler tuning guide 1.4.9, "Warp-synchronous Programming": omitting a
// barrier where the threads of a warp communicate through memory is a data
// race, "easily broken" by the compiler and the hardware, and assumes a warp
// size of 32; the warp shuffle (1.4.3.3) is the supported alternative.
//
// The analysis is small and self-contained: per device function, accesses
// `A[base + c]` and `A[base ^ c]` where `base` is the thread's own index
// (threadIdx.x, threadIdx.x & 31, a local or a helper parameter bound to one)
// are collected in statement order into barrier-free regions, each with the
// range of thread indices that reach it (from guards such as `tid < 32` and
// `lane >= k`, template constants evaluated per instantiation). A write and
// a read of the same array in one region race when a thread reads an element
// that another thread writes.
//
//===----------------------------------------------------------------------===//

#include "WarpSynchronousCheck.h"
#include "cudalint/DeviceCode.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include <limits>
#include <optional>

using namespace clang::ast_matchers;

namespace clang::tidy {

template <> struct OptionEnumMapping<cuda::WarpSynchronousCheck::FixStyleKind> {
  static llvm::ArrayRef<
      std::pair<cuda::WarpSynchronousCheck::FixStyleKind, StringRef>>
  getEnumMapping() {
    static constexpr std::pair<cuda::WarpSynchronousCheck::FixStyleKind,
                               StringRef>
        Mapping[] = {
            {cuda::WarpSynchronousCheck::FixStyleKind::Shuffle, "shuffle"},
            {cuda::WarpSynchronousCheck::FixStyleKind::Syncwarp, "syncwarp"}};
    return {Mapping};
  }
};

namespace cuda {

namespace {

constexpr int64_t Inf = std::numeric_limits<int64_t>::max() / 4;
constexpr int64_t WarpSize = 32;

/// What an own-index value is: the thread's index in the block, or its lane.
enum class Base { None, Tid, Lane };

/// `base + Off` or `base ^ Off`.
struct IndexForm {
  Base B = Base::None;
  bool Xor = false;
  int64_t Off = 0;
};

/// What is known about the threads that reach a point.
struct Guard {
  int64_t TidLo = 0, TidHi = Inf;        ///< threadIdx.x in [TidLo, TidHi).
  int64_t LaneLo = 0, LaneHi = WarpSize; ///< lane in [LaneLo, LaneHi).
  bool WarpUniform = true;  ///< Whole warps reach this point or none.
  bool BlockUniform = true; ///< Every thread of the block reaches it.
};

enum class SlotKind { Compound, IfThen, IfElse, Other };

/// Where a statement sits: what may be inserted before it or around it.
struct Slot {
  SlotKind Kind = SlotKind::Other;
  const Stmt *Parent = nullptr;
  Guard G;
};

struct Access {
  const ArraySubscriptExpr *E;
  const ValueDecl *Array;
  bool Write;
  IndexForm Idx;
  Guard G;
  const Stmt *Stmt; ///< The innermost statement holding the access.
  unsigned Order;
};

struct CallSite {
  const CallExpr *Call;
  Guard G;
};

const char *const BarrierNames[] = {
    "__syncthreads",       "__syncthreads_count", "__syncthreads_and",
    "__syncthreads_or",    "__syncwarp",          "__barrier_sync",
    "__barrier_sync_count"};

bool isBarrierCall(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || !FD->getIdentifier())
    return false;
  StringRef Name = FD->getName();
  if (llvm::is_contained(BarrierNames, Name))
    return true;
  // cooperative_groups: g.sync(), cg::sync(g), grid.sync(), barrier_wait.
  if (Name == "sync" || Name == "barrier_wait" || Name == "arrive_and_wait") {
    const DeclContext *DC = FD->getDeclContext();
    for (; DC; DC = DC->getParent())
      if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
        if (NS->getName() == "cooperative_groups" || NS->getName() == "cuda")
          return true;
  }
  return false;
}

template <typename Fn> void forEachDescendant(const Stmt *S, Fn F) {
  if (!S)
    return;
  F(S);
  for (const Stmt *C : S->children())
    forEachDescendant(C, F);
}

bool isThreadIdxX(const Expr *E) {
  const auto *POE = dyn_cast<PseudoObjectExpr>(E);
  if (!POE)
    return false;
  const auto *Prop = dyn_cast<MSPropertyRefExpr>(POE->getSyntacticForm());
  if (!Prop || Prop->getPropertyDecl()->getName() != "x")
    return false;
  const Expr *B = Prop->getBaseExpr()->IgnoreImpCasts();
  if (const auto *OVE = dyn_cast<OpaqueValueExpr>(B))
    B = OVE->getSourceExpr()->IgnoreImpCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(B);
  return DRE && DRE->getDecl()->getName() == "threadIdx";
}

const Expr *stripCasts(const Expr *E) {
  while (true) {
    E = E->IgnoreParenImpCasts();
    const auto *Cast = dyn_cast<ExplicitCastExpr>(E);
    if (!Cast || !Cast->getType()->isIntegerType())
      return E;
    E = Cast->getSubExpr();
  }
}

class Analysis {
public:
  Analysis(ASTContext &Ctx) : Ctx(Ctx) {}

  std::optional<int64_t> constant(const Expr *E) const {
    if (E->isValueDependent() || E->isTypeDependent())
      return std::nullopt;
    Expr::EvalResult R;
    if (!E->EvaluateAsInt(R, Ctx))
      return std::nullopt;
    return R.Val.getInt().getExtValue();
  }

  Base baseOf(const Expr *E) const {
    E = stripCasts(E);
    if (isThreadIdxX(E))
      return Base::Tid;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      auto It = OwnVars.find(DRE->getDecl());
      return It == OwnVars.end() ? Base::None : It->second;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->getOpcode() != BO_And && BO->getOpcode() != BO_Rem)
        return Base::None;
      std::optional<int64_t> C = constant(BO->getRHS());
      int64_t Want = BO->getOpcode() == BO_And ? WarpSize - 1 : WarpSize;
      if (!C || *C != Want || baseOf(BO->getLHS()) == Base::None)
        return Base::None;
      return Base::Lane;
    }
    return Base::None;
  }

  std::optional<IndexForm> parseIndex(const Expr *E) const {
    E = stripCasts(E);
    if (Base B = baseOf(E); B != Base::None)
      return IndexForm{B, false, 0};
    const auto *BO = dyn_cast<BinaryOperator>(E);
    if (!BO)
      return std::nullopt;
    BinaryOperatorKind Op = BO->getOpcode();
    if (Op != BO_Add && Op != BO_Sub && Op != BO_Xor)
      return std::nullopt;
    const Expr *L = BO->getLHS(), *R = BO->getRHS();
    if (Op != BO_Sub && baseOf(L) == Base::None)
      std::swap(L, R);
    Base B = baseOf(L);
    std::optional<int64_t> C = constant(R);
    if (B == Base::None || !C)
      return std::nullopt;
    if (Op == BO_Xor)
      return *C == 0 ? IndexForm{B, false, 0} : IndexForm{B, true, *C};
    return IndexForm{B, false, Op == BO_Sub ? -*C : *C};
  }

  /// Whether \p E may differ between the threads of a block: it names the
  /// thread index or a local variable (which may hold one).
  bool threadDependent(const Expr *E) const {
    bool Dep = false;
    forEachDescendant(E, [&](const Stmt *S) {
      if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
        const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        if (OwnVars.count(DRE->getDecl()))
          Dep = true;
        else if (VD && VD->isLocalVarDeclOrParm() && !isa<ParmVarDecl>(VD) &&
                 !VD->getType().isConstQualified())
          Dep = true;
      } else if (const auto *POE = dyn_cast<PseudoObjectExpr>(S)) {
        if (isThreadIdxX(POE))
          Dep = true;
        else if (const auto *Prop =
                     dyn_cast<MSPropertyRefExpr>(POE->getSyntacticForm())) {
          // threadIdx.y/.z: thread-dependent, not an own index we track.
          const Expr *B = Prop->getBaseExpr()->IgnoreImpCasts();
          if (const auto *OVE = dyn_cast<OpaqueValueExpr>(B))
            B = OVE->getSourceExpr()->IgnoreImpCasts();
          if (const auto *D = dyn_cast<DeclRefExpr>(B))
            Dep |= D->getDecl()->getName() == "threadIdx";
        }
      }
    });
    return Dep;
  }

  /// Narrows \p G by the condition \p Cond being true.
  void refine(Guard &G, const Expr *Cond) const {
    Cond = Cond->IgnoreParenImpCasts();
    if (const auto *BO = dyn_cast<BinaryOperator>(Cond)) {
      if (BO->getOpcode() == BO_LAnd) {
        refine(G, BO->getLHS());
        refine(G, BO->getRHS());
        return;
      }
      if (BO->isComparisonOp()) {
        BinaryOperatorKind Op = BO->getOpcode();
        const Expr *L = BO->getLHS(), *R = BO->getRHS();
        if (baseOf(L) == Base::None) {
          std::swap(L, R);
          Op = BinaryOperator::reverseComparisonOp(Op);
        }
        Base B = baseOf(L);
        std::optional<int64_t> C = constant(R);
        if (B != Base::None && C) {
          int64_t &Lo = B == Base::Tid ? G.TidLo : G.LaneLo;
          int64_t &Hi = B == Base::Tid ? G.TidHi : G.LaneHi;
          bool Aligned = B == Base::Tid && *C % WarpSize == 0;
          switch (Op) {
          case BO_LT:
            Hi = std::min(Hi, *C);
            break;
          case BO_LE:
            Hi = std::min(Hi, *C + 1);
            Aligned = B == Base::Tid && (*C + 1) % WarpSize == 0;
            break;
          case BO_GT:
            Lo = std::max(Lo, *C + 1);
            Aligned = B == Base::Tid && (*C + 1) % WarpSize == 0;
            break;
          case BO_GE:
            Lo = std::max(Lo, *C);
            break;
          case BO_EQ:
            Lo = std::max(Lo, *C);
            Hi = std::min(Hi, *C + 1);
            Aligned = false;
            break;
          default:
            Aligned = false;
            break;
          }
          G.BlockUniform = false;
          G.WarpUniform &= Aligned;
          return;
        }
      }
    }
    if (threadDependent(Cond)) {
      G.BlockUniform = false;
      G.WarpUniform = false;
    }
  }

  /// Finds the own-index variables of \p FD: locals initialised from an own
  /// index and never assigned.
  void collectLocals(const FunctionDecl *FD) {
    llvm::DenseSet<const ValueDecl *> Assigned;
    forEachDescendant(FD->getBody(), [&](const Stmt *S) {
      const Expr *Target = nullptr;
      if (const auto *BO = dyn_cast<BinaryOperator>(S))
        Target = BO->isAssignmentOp() ? BO->getLHS() : nullptr;
      else if (const auto *UO = dyn_cast<UnaryOperator>(S))
        Target = UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf
                     ? UO->getSubExpr()
                     : nullptr;
      if (Target)
        if (const auto *DRE =
                dyn_cast<DeclRefExpr>(Target->IgnoreParenImpCasts()))
          Assigned.insert(DRE->getDecl());
    });
    for (const ParmVarDecl *P : FD->parameters())
      if (Assigned.count(P))
        OwnVars.erase(P);
    forEachDescendant(FD->getBody(), [&](const Stmt *S) {
      const auto *DS = dyn_cast<DeclStmt>(S);
      if (!DS)
        return;
      for (const Decl *D : DS->decls()) {
        const auto *VD = dyn_cast<VarDecl>(D);
        if (!VD || !VD->getInit() || Assigned.count(VD) ||
            !VD->getType()->isIntegerType())
          continue;
        if (Base B = baseOf(VD->getInit()); B != Base::None)
          OwnVars[VD] = B;
      }
    });
  }

  /// Binds the parameters of helpers that every call site passes an own
  /// index.
  void bindParameters(llvm::ArrayRef<const FunctionDecl *> Functions) {
    llvm::DenseMap<const ParmVarDecl *, Base> Bound;
    llvm::DenseSet<const ParmVarDecl *> Unbound;
    for (const FunctionDecl *FD : Functions)
      forEachDescendant(FD->getBody(), [&](const Stmt *S) {
        const auto *Call = dyn_cast<CallExpr>(S);
        const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
        if (!Callee || isa<CXXOperatorCallExpr>(Call))
          return;
        for (unsigned I = 0, N = std::min<unsigned>(Call->getNumArgs(),
                                                    Callee->getNumParams());
             I < N; ++I) {
          const ParmVarDecl *P = Callee->getParamDecl(I);
          if (!P->getType()->isIntegerType())
            continue;
          Base B = baseOf(Call->getArg(I));
          auto It = Bound.find(P);
          if (B == Base::None || (It != Bound.end() && It->second != B))
            Unbound.insert(P);
          else
            Bound[P] = B;
        }
      });
    for (auto &[P, B] : Bound)
      if (!Unbound.count(P))
        OwnVars[P] = B;
  }

  bool containsBarrier(const FunctionDecl *FD, unsigned Depth = 0) const {
    if (!FD || !FD->getBody() || Depth > 3)
      return false;
    bool Found = false;
    forEachDescendant(FD->getBody(), [&](const Stmt *S) {
      if (const auto *Call = dyn_cast<CallExpr>(S))
        Found |= isBarrierCall(Call) ||
                 containsBarrier(Call->getDirectCallee(), Depth + 1);
    });
    return Found;
  }

  // The walk over one function.
  void walkFunction(const FunctionDecl *FD, Guard Entry) {
    Regions.clear();
    Current.clear();
    FirstRegionAtEntry = true;
    Slots.clear();
    Order = 0;
    walkStmt(FD->getBody(), Entry, FD->getBody());
    flush();
  }

  void flush() {
    if (Regions.empty() && Current.empty())
      FirstRegionAtEntry = false;
    if (!Current.empty())
      Regions.push_back(std::move(Current));
    Current.clear();
  }

  void setSlot(const Stmt *S, SlotKind K, const Stmt *Parent, const Guard &G) {
    if (S)
      Slots[S] = Slot{K, Parent, G};
  }

  void walkStmt(const Stmt *S, Guard G, const Stmt *Holder) {
    if (!S)
      return;
    if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
      for (const Stmt *Child : CS->body()) {
        setSlot(Child, SlotKind::Compound, CS, G);
        walkStmt(Child, G, Child);
      }
      return;
    }
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      if (If->getInit())
        walkStmt(If->getInit(), G, Holder);
      const Expr *Cond = If->getCond();
      walkExpr(Cond, G, Holder);
      bool Value;
      if (!Cond->isValueDependent() &&
          Cond->EvaluateAsBooleanCondition(Value, Ctx)) {
        const Stmt *Taken = Value ? If->getThen() : If->getElse();
        setSlot(Taken, Value ? SlotKind::IfThen : SlotKind::IfElse, If, G);
        walkStmt(Taken, G, Taken);
        return;
      }
      Guard GT = G, GE = G;
      refine(GT, Cond);
      if (threadDependent(Cond))
        GE.BlockUniform = GE.WarpUniform = false;
      setSlot(If->getThen(), SlotKind::IfThen, If, GT);
      walkStmt(If->getThen(), GT, If->getThen());
      setSlot(If->getElse(), SlotKind::IfElse, If, GE);
      walkStmt(If->getElse(), GE, If->getElse());
      return;
    }
    const Expr *LoopCond = nullptr;
    const Stmt *Body = nullptr;
    if (const auto *For = dyn_cast<ForStmt>(S)) {
      walkStmt(For->getInit(), G, Holder);
      LoopCond = For->getCond();
      Body = For->getBody();
    } else if (const auto *While = dyn_cast<WhileStmt>(S)) {
      LoopCond = While->getCond();
      Body = While->getBody();
    } else if (const auto *Do = dyn_cast<DoStmt>(S)) {
      LoopCond = Do->getCond();
      Body = Do->getBody();
    }
    if (Body) {
      Guard GB = G;
      if (LoopCond) {
        walkExpr(LoopCond, G, Holder);
        if (threadDependent(LoopCond))
          GB.BlockUniform = GB.WarpUniform = false;
      }
      setSlot(Body, SlotKind::Other, S, GB);
      walkStmt(Body, GB, Body);
      if (const auto *For = dyn_cast<ForStmt>(S))
        if (For->getInc())
          walkExpr(For->getInc(), GB, Holder);
      return;
    }
    if (const auto *E = dyn_cast<Expr>(S)) {
      walkExpr(E, G, Holder);
      return;
    }
    for (const Stmt *Child : S->children())
      walkStmt(Child, G, Holder);
  }

  void record(const ArraySubscriptExpr *ASE, bool Write, const Guard &G,
              const Stmt *Holder) {
    const auto *DRE =
        dyn_cast<DeclRefExpr>(ASE->getBase()->IgnoreParenImpCasts());
    if (!DRE || !isa<VarDecl>(DRE->getDecl()))
      return;
    // A local array is private to its thread; shared and global variables
    // and memory behind pointers are not.
    const auto *VD = cast<VarDecl>(DRE->getDecl());
    if (VD->hasLocalStorage() && !VD->hasAttr<CUDASharedAttr>() &&
        !VD->getType()->isPointerType())
      return;
    std::optional<IndexForm> Idx = parseIndex(ASE->getIdx());
    if (!Idx)
      return;
    Current.push_back(
        Access{ASE, DRE->getDecl(), Write, *Idx, G, Holder, Order++});
  }

  void walkSubscriptOperands(const ArraySubscriptExpr *ASE, const Guard &G,
                             const Stmt *Holder) {
    walkExpr(ASE->getBase(), G, Holder);
    walkExpr(ASE->getIdx(), G, Holder);
  }

  void walkExpr(const Stmt *S, const Guard &G, const Stmt *Holder) {
    if (!S)
      return;
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->isAssignmentOp()) {
      walkExpr(BO->getRHS(), G, Holder);
      if (const auto *ASE =
              dyn_cast<ArraySubscriptExpr>(BO->getLHS()->IgnoreParens())) {
        walkSubscriptOperands(ASE, G, Holder);
        if (BO->isCompoundAssignmentOp())
          record(ASE, false, G, Holder);
        record(ASE, true, G, Holder);
      } else {
        walkExpr(BO->getLHS(), G, Holder);
      }
      return;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(S);
        UO && UO->isIncrementDecrementOp()) {
      if (const auto *ASE =
              dyn_cast<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens())) {
        walkSubscriptOperands(ASE, G, Holder);
        record(ASE, false, G, Holder);
        record(ASE, true, G, Holder);
        return;
      }
    }
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(S)) {
      walkSubscriptOperands(ASE, G, Holder);
      record(ASE, false, G, Holder);
      return;
    }
    if (isa<LambdaExpr>(S))
      return;
    if (const auto *POE = dyn_cast<PseudoObjectExpr>(S)) {
      walkExpr(POE->getSyntacticForm(), G, Holder);
      return;
    }
    for (const Stmt *Child : S->children())
      walkExpr(Child, G, Holder);
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      if (const FunctionDecl *Callee = Call->getDirectCallee();
          Callee && Callee->hasBody())
        Calls[Callee->getCanonicalDecl()].push_back(CallSite{Call, G});
      if (isBarrierCall(Call) || containsBarrier(Call->getDirectCallee()))
        flush();
    }
    if (const auto *Asm = dyn_cast<AsmStmt>(S))
      if (Asm->generateAsmString(Ctx).find("bar.") != std::string::npos)
        flush();
  }

  ASTContext &Ctx;
  llvm::DenseMap<const ValueDecl *, Base> OwnVars;
  llvm::DenseMap<const FunctionDecl *, SmallVector<CallSite, 2>> Calls;
  SmallVector<SmallVector<Access, 8>, 4> Regions;
  SmallVector<Access, 8> Current;
  llvm::DenseMap<const Stmt *, Slot> Slots;
  unsigned Order = 0;
  bool FirstRegionAtEntry = true; ///< No barrier before the first region.
};

/// A racing write and read.
struct Race {
  const Access *W;
  const Access *R;
  bool SameWarp;
};

std::optional<Race> raceBetween(const Access &W, const Access &R) {
  if (!W.Write || R.Write || W.Array != R.Array || W.Idx.B != R.Idx.B ||
      W.Idx.Xor)
    return std::nullopt;
  bool Tid = W.Idx.B == Base::Tid;
  int64_t RLo = Tid ? R.G.TidLo : R.G.LaneLo,
          RHi = Tid ? R.G.TidHi : R.G.LaneHi;
  int64_t WLo = Tid ? W.G.TidLo : W.G.LaneLo,
          WHi = Tid ? W.G.TidHi : W.G.LaneHi;
  if (R.Idx.Xor) {
    if (W.Idx.Off != 0 || std::max(RLo, WLo) >= std::min(RHi, WHi))
      return std::nullopt;
    return Race{&W, &R, R.Idx.Off > 0 && R.Idx.Off < WarpSize};
  }
  // Thread t reads element t + R.Off, written by thread t + D.
  int64_t D = R.Idx.Off - W.Idx.Off;
  if (D == 0)
    return std::nullopt;
  if (std::max(RLo, WLo - D) >= std::min(RHi, WHi - D))
    return std::nullopt;
  bool SameWarp = false;
  if (!Tid)
    SameWarp = D > -WarpSize && D < WarpSize;
  else if (RHi < Inf && WHi < Inf &&
           std::min(RLo, WLo) / WarpSize == (std::max(RHi, WHi) - 1) / WarpSize)
    SameWarp = true;
  else if (D < 0 && R.G.LaneLo >= -D)
    SameWarp = true;
  else if (D > 0 && D < WarpSize && R.G.LaneHi <= WarpSize - D)
    SameWarp = true;
  return Race{&W, &R, SameWarp};
}

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
  bool Compound = false;
  bool Call = false;
  int64_t K;
};

bool isAssociativeCommutative(BinaryOperatorKind Op) {
  switch (Op) {
  case BO_Add:
  case BO_Mul:
  case BO_Or:
  case BO_And:
  case BO_Xor:
    return true;
  default:
    return false;
  }
}

const char *const ReductionFunctions[] = {"max",  "min",  "fmaxf", "fminf",
                                          "fmax", "fmin", "umax",  "umin"};

class Fixer;

} // namespace

WarpSynchronousCheck::WarpSynchronousCheck(StringRef Name,
                                           ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      FixStyle(Options.get("FixStyle", FixStyleKind::Shuffle)) {}

void WarpSynchronousCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "FixStyle", FixStyle);
}

void WarpSynchronousCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(functionDecl(isDefinition(),
                                  matchers::isCudaDeviceFunction(),
                                  unless(isExpansionInSystemHeader()))
                         .bind("fn"),
                     this);
}

void WarpSynchronousCheck::check(const MatchFinder::MatchResult &Result) {
  Ctx = Result.Context;
  const auto *FD = Result.Nodes.getNodeAs<FunctionDecl>("fn");
  if (!FD->getBody() || FD->isDependentContext())
    return;
  Functions.insert(FD);
}

namespace {

/// Builds the diagnostics and fixes for one function's regions.
class Fixer {
public:
  Fixer(Analysis &A, ASTContext &Ctx, const FunctionDecl *FD)
      : A(A), Ctx(Ctx), SM(Ctx.getSourceManager()), LO(Ctx.getLangOpts()),
        FD(FD) {}

  std::optional<std::string> text(SourceRange R) const {
    if (R.getBegin().isMacroID() || R.getEnd().isMacroID())
      return std::nullopt;
    return Lexer::getSourceText(CharSourceRange::getTokenRange(R), SM, LO)
        .str();
  }

  std::string indentOf(SourceLocation Loc) const {
    StringRef Buf = SM.getBufferData(SM.getFileID(Loc));
    unsigned Off = SM.getFileOffset(Loc);
    size_t NL = Buf.rfind('\n', Off);
    size_t Start = NL == StringRef::npos ? 0 : NL + 1;
    size_t End = Start;
    while (End < Buf.size() && (Buf[End] == ' ' || Buf[End] == '\t'))
      ++End;
    return Buf.substr(Start, End - Start).str();
  }

  /// The range of \p S including its trailing semicolon, if it has one.
  std::optional<CharSourceRange> withSemi(const Stmt *S) const {
    if (S->getBeginLoc().isMacroID() || S->getEndLoc().isMacroID())
      return std::nullopt;
    if (isa<CompoundStmt>(S) || isa<DeclStmt>(S) ||
        isa<IfStmt>(S) && isa<CompoundStmt>(cast<IfStmt>(S)->getThen()))
      return CharSourceRange::getTokenRange(S->getSourceRange());
    SourceLocation After = Lexer::findLocationAfterToken(
        S->getEndLoc(), tok::semi, SM, LO, /*SkipTrailingWhitespaceAndNewLine=*/
        false);
    if (After.isInvalid())
      return std::nullopt;
    return CharSourceRange::getCharRange(S->getBeginLoc(), After);
  }

  // --- Shuffle rewrite of recognised reductions. ---

  std::optional<Step> parseStep(const Stmt *Outer) const {
    Step St;
    St.Outer = Outer;
    const Stmt *S = Outer;
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      if (If->getElse() || If->getInit() || If->getConditionVariable() ||
          A.threadDependent(If->getCond()))
        return std::nullopt;
      St.If = If;
      S = If->getThen();
      if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
        if (CS->size() != 1)
          return std::nullopt;
        S = CS->body_front();
      }
    }
    const auto *BO = dyn_cast<BinaryOperator>(S);
    if (!BO || !BO->isAssignmentOp())
      return std::nullopt;
    St.Assign = BO;
    St.Own = dyn_cast<ArraySubscriptExpr>(BO->getLHS()->IgnoreParens());
    if (!St.Own)
      return std::nullopt;
    const Expr *OtherE = nullptr;
    const Expr *RHS = BO->getRHS()->IgnoreParenImpCasts();
    if (const auto *CAO = dyn_cast<CompoundAssignOperator>(BO)) {
      if (!isAssociativeCommutative(
              BinaryOperator::getOpForCompoundAssignment(CAO->getOpcode())))
        return std::nullopt;
      St.Compound = true;
      St.Op = BinaryOperator::getOpcodeStr(
          BinaryOperator::getOpForCompoundAssignment(CAO->getOpcode()));
      OtherE = RHS;
    } else if (const auto *Bin = dyn_cast<BinaryOperator>(RHS)) {
      if (!isAssociativeCommutative(Bin->getOpcode()))
        return std::nullopt;
      St.Op = BinaryOperator::getOpcodeStr(Bin->getOpcode());
      const Expr *L = Bin->getLHS(), *R = Bin->getRHS();
      if (!sameElement(L, St.Own))
        std::swap(L, R);
      if (!sameElement(L, St.Own))
        return std::nullopt;
      OtherE = R;
    } else if (const auto *Call = dyn_cast<CallExpr>(RHS)) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (!Callee || !Callee->getIdentifier() || Call->getNumArgs() != 2 ||
          !llvm::is_contained(ReductionFunctions, Callee->getName()))
        return std::nullopt;
      St.Call = true;
      St.Op = Callee->getName().str();
      const Expr *L = Call->getArg(0), *R = Call->getArg(1);
      if (!sameElement(L, St.Own))
        std::swap(L, R);
      if (!sameElement(L, St.Own))
        return std::nullopt;
      OtherE = R;
    } else {
      return std::nullopt;
    }
    St.Other = dyn_cast<ArraySubscriptExpr>(OtherE->IgnoreParenImpCasts());
    if (!St.Other)
      return std::nullopt;
    const auto *OwnBase =
        dyn_cast<DeclRefExpr>(St.Own->getBase()->IgnoreParenImpCasts());
    const auto *OtherBase =
        dyn_cast<DeclRefExpr>(St.Other->getBase()->IgnoreParenImpCasts());
    if (!OwnBase || !OtherBase || OwnBase->getDecl() != OtherBase->getDecl())
      return std::nullopt;
    St.Array = OwnBase->getDecl();
    std::optional<IndexForm> OwnIdx = A.parseIndex(St.Own->getIdx());
    std::optional<IndexForm> OtherIdx = A.parseIndex(St.Other->getIdx());
    if (!OwnIdx || !OtherIdx || OwnIdx->Xor || OtherIdx->Xor ||
        OwnIdx->Off != 0 || OtherIdx->B != OwnIdx->B || OtherIdx->Off <= 0)
      return std::nullopt;
    St.K = OtherIdx->Off;
    return St;
  }

  bool sameElement(const Expr *E, const ArraySubscriptExpr *Own) const {
    const auto *ASE = dyn_cast<ArraySubscriptExpr>(E->IgnoreParenImpCasts());
    if (!ASE)
      return false;
    const auto *B1 =
        dyn_cast<DeclRefExpr>(ASE->getBase()->IgnoreParenImpCasts());
    const auto *B2 =
        dyn_cast<DeclRefExpr>(Own->getBase()->IgnoreParenImpCasts());
    std::optional<IndexForm> I1 = A.parseIndex(ASE->getIdx());
    std::optional<IndexForm> I2 = A.parseIndex(Own->getIdx());
    return B1 && B2 && B1->getDecl() == B2->getDecl() && I1 && I2 &&
           I1->B == I2->B && !I1->Xor && !I2->Xor && I1->Off == I2->Off;
  }

  /// The statement of \p S that is a direct child of a compound statement.
  const Stmt *outerOf(const Stmt *S) const {
    while (S) {
      auto It = A.Slots.find(S);
      if (It == A.Slots.end())
        return nullptr;
      if (It->second.Kind == SlotKind::Compound)
        return S;
      S = It->second.Parent;
      if (S && isa<CompoundStmt>(S))
        return nullptr;
    }
    return nullptr;
  }

  std::string freshName(StringRef Want) const {
    llvm::StringSet<> Used;
    forEachDescendant(FD->getBody(), [&](const Stmt *S) {
      if (const auto *DS = dyn_cast<DeclStmt>(S))
        for (const Decl *D : DS->decls())
          if (const auto *ND = dyn_cast<NamedDecl>(D))
            if (ND->getIdentifier())
              Used.insert(ND->getName());
    });
    for (const ParmVarDecl *P : FD->parameters())
      if (P->getIdentifier())
        Used.insert(P->getName());
    std::string Name = Want.str();
    while (Used.count(Name))
      Name += "_";
    return Name;
  }

  bool shuffleFix(llvm::ArrayRef<Race> Races, std::vector<FixItHint> &Fixes) {
    // Every racing statement is a step of one run of steps in one compound.
    llvm::SmallPtrSet<const Stmt *, 8> Outers;
    const Stmt *Parent = nullptr;
    for (const Race &R : Races)
      for (const Access *Acc : {R.W, R.R}) {
        const Stmt *O = outerOf(Acc->Stmt);
        if (!O)
          return false;
        const Stmt *P = A.Slots[O].Parent;
        if (Parent && P != Parent)
          return false;
        Parent = P;
        Outers.insert(O);
      }
    const auto *CS = dyn_cast_or_null<CompoundStmt>(Parent);
    if (!CS)
      return false;
    SmallVector<const Stmt *, 16> Body(CS->body());
    unsigned First = Body.size(), Last = 0;
    for (unsigned I = 0; I < Body.size(); ++I)
      if (Outers.count(Body[I])) {
        First = std::min(First, I);
        Last = std::max(Last, I);
      }
    if (First > Last)
      return false;
    std::optional<Step> Before =
        First > 0 ? parseStep(Body[First - 1]) : std::nullopt;
    std::optional<Step> FirstStep = parseStep(Body[First]);
    if (Before && FirstStep && Before->K == 2 * FirstStep->K)
      --First;
    SmallVector<Step, 8> Steps;
    for (unsigned I = First; I <= Last; ++I) {
      std::optional<Step> St = parseStep(Body[I]);
      if (!St)
        return false;
      if (!Steps.empty() &&
          (St->K * 2 != Steps.back().K || St->Array != Steps[0].Array ||
           St->Op != Steps[0].Op || St->Call != Steps[0].Call ||
           !sameElement(St->Own, Steps[0].Own)))
        return false;
      Steps.push_back(*St);
    }
    if (Steps.back().K != 1 || (Steps.front().K != 32 && Steps.front().K != 16))
      return false;
    // The lanes that run the steps are exactly the first warp (or each lane).
    const Access *Any = Races.front().W;
    if (Any->Idx.B == Base::Tid && (Any->G.TidLo != 0 || Any->G.TidHi > 32 ||
                                    !A.Slots[Body[First]].G.WarpUniform))
      return false;

    std::optional<std::string> Own = text(Steps[0].Own->getSourceRange());
    if (!Own)
      return false;
    std::string V = freshName("v");
    std::string Mask = "0xffffffff";
    std::string MaskInit;
    // A block-size template parameter in the guards: blocks smaller than a
    // warp have fewer lanes.
    for (const Step &St : Steps) {
      if (!St.If)
        continue;
      forEachDescendant(St.If->getCond(), [&](const Stmt *S) {
        if (const auto *Sub = dyn_cast<SubstNonTypeTemplateParmExpr>(S))
          if (Sub->getParameter()->getIdentifier()) {
            std::string P = Sub->getParameter()->getName().str();
            MaskInit =
                P + " >= 32 ? 0xffffffffu : (1u << (" + P + " & 31)) - 1u";
          }
      });
    }
    std::string Indent = indentOf(Steps.front().Outer->getBeginLoc());
    std::string Prologue;
    if (!MaskInit.empty()) {
      Mask = freshName("mask");
      Prologue = "const unsigned " + Mask + " = " + MaskInit + ";\n" + Indent;
    }
    for (const Step &St : Steps) {
      std::string Operand;
      if (St.K == 32) {
        std::optional<std::string> T = text(St.Other->getSourceRange());
        if (!T)
          return false;
        Operand = *T;
      } else {
        Operand = "__shfl_down_sync(" + Mask + ", " + V + ", " +
                  std::to_string(St.K) + ")";
      }
      std::string New;
      if (St.Compound)
        New = V + " " + St.Op + "= " + Operand;
      else if (St.Call)
        New = V + " = " + St.Op + "(" + V + ", " + Operand + ")";
      else
        New = V + " = " + V + " " + St.Op + " " + Operand;
      if (St.Assign->getBeginLoc().isMacroID() ||
          St.Assign->getEndLoc().isMacroID())
        return false;
      Fixes.push_back(FixItHint::CreateReplacement(
          CharSourceRange::getTokenRange(St.Assign->getSourceRange()), New));
    }
    Fixes.insert(Fixes.begin(),
                 FixItHint::CreateInsertion(Steps.front().Outer->getBeginLoc(),
                                            Prologue + "auto " + V + " = " +
                                                *Own + ";\n" + Indent));
    std::optional<CharSourceRange> LastRange = withSemi(Steps.back().Outer);
    if (!LastRange)
      return false;
    Fixes.push_back(FixItHint::CreateInsertion(
        LastRange->getEnd(), "\n" + Indent + *Own + " = " + V + ";"));
    return true;
  }

  // --- Barrier fixes (__syncwarp or __syncthreads). ---

  struct Plan {
    bool Split = false;
    bool BarrierBefore = false;
    SmallVector<const Access *, 2> Reads; ///< Racing reads to hoist.
  };

  bool uniform(const Guard &G, bool Warp) const {
    return Warp ? G.WarpUniform : G.BlockUniform;
  }

  /// \p AtEntry: the region starts at the entry of a helper, where the
  /// caller may have written the elements just before the call.
  bool barrierFix(llvm::ArrayRef<Race> Races, bool Warp, bool AtEntry,
                  std::vector<FixItHint> &Fixes, std::string &Why) {
    std::string Barrier = Warp ? "__syncwarp()" : "__syncthreads()";
    llvm::MapVector<const Stmt *, Plan> Plans;
    auto stmtOrder = [&](const Stmt *S) {
      return SM.getFileOffset(SM.getExpansionLoc(S->getBeginLoc()));
    };
    for (const Race &R : Races) {
      Plan &P = Plans[R.R->Stmt];
      if (!llvm::is_contained(P.Reads, R.R))
        P.Reads.push_back(R.R);
    }
    for (auto &[S, P] : Plans) {
      const auto *BO = dyn_cast<BinaryOperator>(S);
      bool WritesArray = false;
      const ValueDecl *Arr = P.Reads[0]->Array;
      forEachDescendant(S, [&](const Stmt *X) {
        if (const auto *B = dyn_cast<BinaryOperator>(X);
            B && B->isAssignmentOp())
          if (const auto *ASE =
                  dyn_cast<ArraySubscriptExpr>(B->getLHS()->IgnoreParens()))
            if (const auto *D = dyn_cast<DeclRefExpr>(
                    ASE->getBase()->IgnoreParenImpCasts()))
              WritesArray |= D->getDecl() == Arr;
      });
      if (!WritesArray)
        continue;
      if (!BO || !BO->isAssignmentOp() ||
          !isa<ArraySubscriptExpr>(BO->getLHS()->IgnoreParens()))
        return false;
      P.Split = true;
    }
    if (AtEntry) {
      const Stmt *First = nullptr;
      for (auto &[S, P] : Plans)
        if (!P.Reads.empty() && (!First || stmtOrder(S) < stmtOrder(First)))
          First = S;
      if (First)
        Plans[First].BarrierBefore = true;
    }
    // Every racing pair of statements needs a barrier between them: the
    // one a split statement ends with, or one inserted before the later.
    SmallVector<std::pair<const Stmt *, const Stmt *>, 8> Pairs;
    for (const Race &R : Races) {
      const Stmt *SW = R.W->Stmt, *SR = R.R->Stmt;
      if (SW == SR) {
        if (!Plans[SR].Split)
          return false;
        continue;
      }
      bool WFirst = stmtOrder(SW) < stmtOrder(SR);
      Pairs.push_back(WFirst ? std::make_pair(SW, SR) : std::make_pair(SR, SW));
    }
    llvm::sort(Pairs, [&](const auto &X, const auto &Y) {
      return stmtOrder(X.second) < stmtOrder(Y.second);
    });
    for (const auto &[Early, Late] : Pairs) {
      unsigned E = stmtOrder(Early), L = stmtOrder(Late);
      bool Covered = llvm::any_of(Plans, [&](const auto &KV) {
        unsigned O = stmtOrder(KV.first);
        return (KV.second.Split && E <= O && O < L) ||
               (KV.second.BarrierBefore && E < O && O <= L);
      });
      if (!Covered)
        Plans[Late].BarrierBefore = true;
    }
    unsigned Counter = 0;
    unsigned NumSplits =
        llvm::count_if(Plans, [](const auto &KV) { return KV.second.Split; });
    for (auto &[S, P] : Plans) {
      if (!P.Split && !P.BarrierBefore)
        continue;
      auto SlotIt = A.Slots.find(S);
      if (SlotIt == A.Slots.end())
        return false;
      const Slot &Sl = SlotIt->second;
      std::string Replacement;
      const Stmt *Target = S;
      std::string Indent = indentOf(S->getBeginLoc());
      std::string Cond;
      bool Braces = false;
      const Stmt *Own = nullptr;
      if (Sl.Kind == SlotKind::Compound && uniform(Sl.G, Warp)) {
        // In place.
      } else if (Sl.Kind == SlotKind::IfThen &&
                 uniform(A.Slots[Sl.Parent].G, Warp) &&
                 !A.threadDependent(cast<IfStmt>(Sl.Parent)->getCond()) &&
                 A.Slots[Sl.Parent].Kind != SlotKind::Other) {
        Braces = true;
        Indent = indentOf(Sl.Parent->getBeginLoc());
      } else if (Sl.Kind == SlotKind::IfThen) {
        // Lift out of a thread-dependent `if (C) S;`.
        const auto *If = cast<IfStmt>(Sl.Parent);
        auto PIt = A.Slots.find(If);
        if (If->getElse() || If->getInit() || If->getConditionVariable() ||
            PIt == A.Slots.end() || PIt->second.Kind != SlotKind::Compound ||
            !uniform(PIt->second.G, Warp)) {
          Why = "the barrier would be inside a thread-dependent branch";
          return false;
        }
        bool ReadsArray = false;
        forEachDescendant(If->getCond(), [&](const Stmt *X) {
          ReadsArray |= isa<ArraySubscriptExpr>(X);
        });
        if (ReadsArray)
          return false;
        std::optional<std::string> C = text(If->getCond()->getSourceRange());
        if (!C)
          return false;
        Cond = *C;
        Target = If;
        Indent = indentOf(If->getBeginLoc());
      } else {
        Why = "the barrier would be inside a thread-dependent branch or loop";
        return false;
      }
      std::optional<CharSourceRange> Range = withSemi(Target);
      std::optional<std::string> StmtText = text(S->getSourceRange());
      if (!Range || !StmtText)
        return false;
      std::string In = Braces ? Indent + "  " : Indent;
      SmallVector<std::string, 4> Lines;
      if (P.BarrierBefore)
        Lines.push_back(Barrier + ";");
      std::string Body = *StmtText;
      if (P.Split) {
        const auto *BO = cast<BinaryOperator>(S);
        Own = BO->getLHS();
        std::optional<std::string> OwnText = text(Own->getSourceRange());
        if (!OwnText)
          return false;
        // Replace the racing reads, last first, by temporaries.
        SmallVector<const Access *, 2> Reads(P.Reads);
        llvm::sort(Reads, [&](const Access *X, const Access *Y) {
          return SM.getFileOffset(X->E->getBeginLoc()) >
                 SM.getFileOffset(Y->E->getBeginLoc());
        });
        unsigned StmtBegin = SM.getFileOffset(S->getBeginLoc());
        SmallVector<std::string, 2> Decls;
        for (const Access *Rd : Reads) {
          std::optional<std::string> RT = text(Rd->E->getSourceRange());
          if (!RT || Rd->E->getBeginLoc().isMacroID())
            return false;
          std::string Name = NumSplits == 1 && Reads.size() == 1 && !Braces
                                 ? "peer"
                                 : "peer" + std::to_string(++Counter);
          if (Braces && Reads.size() == 1)
            Name = "peer";
          unsigned B = SM.getFileOffset(Rd->E->getBeginLoc()) - StmtBegin;
          Body.replace(B, RT->size(), Name);
          Decls.insert(
              Decls.begin(),
              "auto " + Name + " = " +
                  (Cond.empty() ? *RT : Cond + " ? " + *RT + " : " + *OwnText) +
                  ";");
        }
        Lines.append(Decls.begin(), Decls.end());
        Lines.push_back(Barrier + ";");
        Lines.push_back((Cond.empty() ? "" : "if (" + Cond + ") ") + Body +
                        ";");
        Lines.push_back(Barrier + ";");
      } else {
        Lines.push_back((Cond.empty() ? "" : "if (" + Cond + ") ") + Body +
                        (isa<Expr>(S) ? ";" : ""));
      }
      std::string New;
      if (Braces)
        New = "{\n";
      for (unsigned I = 0; I < Lines.size(); ++I) {
        if (I > 0 || Braces)
          New += In;
        New += Lines[I];
        New += "\n";
      }
      if (Braces)
        New += Indent + "}";
      else
        New.pop_back();
      if (!Cond.empty() && !P.Split) {
        // A pure read under a thread-dependent branch: the barrier goes
        // before the branch, the branch stays as it is.
        Fixes.push_back(FixItHint::CreateInsertion(Target->getBeginLoc(),
                                                   Barrier + ";\n" + Indent));
        continue;
      }
      if (!P.Split && !Braces) {
        Fixes.push_back(FixItHint::CreateInsertion(S->getBeginLoc(),
                                                   Barrier + ";\n" + Indent));
        continue;
      }
      Fixes.push_back(FixItHint::CreateReplacement(*Range, New));
    }
    return !Fixes.empty();
  }

  Analysis &A;
  ASTContext &Ctx;
  const SourceManager &SM;
  const LangOptions &LO;
  const FunctionDecl *FD;
};

} // namespace

void WarpSynchronousCheck::onEndOfTranslationUnit() {
  if (!Ctx || Functions.empty())
    return;
  Analysis A(*Ctx);
  SmallVector<const FunctionDecl *, 16> Fns(Functions.begin(), Functions.end());
  // Own-index variables: locals, then helper parameters bound by callers,
  // to a fixed point.
  for (int Round = 0; Round < 4; ++Round) {
    for (const FunctionDecl *FD : Fns)
      A.collectLocals(FD);
    A.bindParameters(Fns);
  }
  // First walk: the guards at every call site.
  for (const FunctionDecl *FD : Fns)
    A.walkFunction(FD, Guard());
  auto Calls = std::move(A.Calls);

  llvm::DenseSet<unsigned> Reported;
  for (const FunctionDecl *FD : Fns) {
    Guard Entry;
    if (!isKernel(FD)) {
      auto It = Calls.find(FD->getCanonicalDecl());
      if (It != Calls.end() && !It->second.empty()) {
        Entry.TidLo = Inf;
        Entry.TidHi = 0;
        Entry.LaneLo = WarpSize;
        Entry.LaneHi = 0;
        for (const CallSite &CS : It->second) {
          Guard G = CS.G;
          // Map the caller's guards through own-index parameters.
          Guard Mapped;
          Mapped.WarpUniform = G.WarpUniform;
          Mapped.BlockUniform = G.BlockUniform;
          for (unsigned I = 0;
               I < CS.Call->getNumArgs() && I < FD->getNumParams(); ++I) {
            Base B = A.baseOf(CS.Call->getArg(I));
            if (B == Base::Tid) {
              Mapped.TidLo = G.TidLo;
              Mapped.TidHi = G.TidHi;
            }
          }
          Mapped.LaneLo = G.LaneLo;
          Mapped.LaneHi = G.LaneHi;
          Entry.TidLo = std::min(Entry.TidLo, Mapped.TidLo);
          Entry.TidHi = std::max(Entry.TidHi, Mapped.TidHi);
          Entry.LaneLo = std::min(Entry.LaneLo, Mapped.LaneLo);
          Entry.LaneHi = std::max(Entry.LaneHi, Mapped.LaneHi);
          Entry.WarpUniform &= Mapped.WarpUniform;
          Entry.BlockUniform &= Mapped.BlockUniform;
        }
      } else {
        Entry.WarpUniform = Entry.BlockUniform = false;
      }
    }
    A.walkFunction(FD, Entry);
    Fixer F(A, *Ctx, FD);
    const SourceManager &SM = Ctx->getSourceManager();
    for (const auto &[RegionIndex, Region] : llvm::enumerate(A.Regions)) {
      SmallVector<Race, 8> Races;
      for (const Access &W : Region)
        for (const Access &R : Region)
          if (std::optional<Race> Rc = raceBetween(W, R))
            Races.push_back(*Rc);
      if (Races.empty())
        continue;
      llvm::sort(Races, [](const Race &X, const Race &Y) {
        return X.R->Order < Y.R->Order ||
               (X.R->Order == Y.R->Order && X.W->Order < Y.W->Order);
      });
      const Race &First = Races.front();
      SourceLocation Loc = SM.getExpansionLoc(First.R->E->getBeginLoc());
      if (!Reported.insert(Loc.getRawEncoding()).second)
        continue;
      bool Warp = llvm::all_of(Races, [](const Race &R) { return R.SameWarp; });
      std::string Array = First.R->Array->getName().str();
      std::vector<FixItHint> Fixes;
      std::string Why;
      bool Fixed = false;
      if (Warp && FixStyle == FixStyleKind::Shuffle)
        Fixed = F.shuffleFix(Races, Fixes);
      if (!Fixed) {
        Fixes.clear();
        bool AtEntry =
            !isKernel(FD) && RegionIndex == 0 && A.FirstRegionAtEntry;
        Fixed = F.barrierFix(Races, Warp, AtEntry, Fixes, Why);
        if (!Fixed)
          Fixes.clear();
      }
      {
        auto D =
            Warp ? diag(Loc, "lanes of a warp communicate through '%0' with "
                             "no barrier in between; warp-synchronous code "
                             "is a data race")
                 : diag(Loc, "threads of different warps communicate through "
                             "'%0' with no barrier in between; missing "
                             "__syncthreads()");
        D << Array;
        for (const FixItHint &H : Fixes)
          D << H;
      }
      diag(SM.getExpansionLoc(First.W->E->getBeginLoc()),
           "another thread writes the element here", DiagnosticIDs::Note);
      if (Warp)
        diag(Loc,
             "this relies on the lanes of a warp running in lock-step and on "
             "a warp size of 32; neither is guaranteed since Volta",
             DiagnosticIDs::Note);
      if (!Fixed && !Why.empty())
        diag(Loc, "no automatic fix: %0", DiagnosticIDs::Note) << Why;
    }
  }
  Functions.clear();
}

} // namespace cuda
} // namespace clang::tidy
