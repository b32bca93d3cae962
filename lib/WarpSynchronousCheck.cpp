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
#include "cudalint/KernelLaunches.h"
#include "cudalint/WarpSyncAnalysis.h"
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
#include <tuple>

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

using namespace warpsync;

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
  /// The register of `A[b] = r = r op A[b + k]`, which holds A[b].
  const VarDecl *Reg = nullptr;
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
  limitParentMapToUserCode(Finder);
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
  using CallMap =
      llvm::DenseMap<const FunctionDecl *, SmallVector<CallSite, 2>>;

  Fixer(Analysis &A, ASTContext &Ctx, const FunctionDecl *FD,
        const CallMap &Calls)
      : A(A), Ctx(Ctx), SM(Ctx.getSourceManager()), LO(Ctx.getLangOpts()),
        FD(FD), Calls(Calls) {}

  // --- What the code after a rewritten reduction reads. ---

  /// How the shuffle rewrite's result is used after it: only by lane 0 or
  /// after a barrier (Fine), as `A[0]` by other lanes of the warp before any
  /// barrier (Sync: a __syncwarp() after the write-back), or as elements
  /// 1..31, or through the register, by lanes other than 0 (Unsafe: those
  /// hold different partial values after the rewrite).
  enum class Use { Fine, Sync, Unsafe };

  unsigned offsetOf(SourceLocation L) const {
    return SM.getFileOffset(SM.getExpansionLoc(L));
  }

  bool lane0Only(const Guard &G, Base B) const {
    return G.TidHi <= 1 || (B == Base::Lane && G.LaneHi <= 1);
  }

  /// The threads that reach \p S in \p F, from the conditions of the `if`s
  /// around it.
  Guard
  guardAt(const Stmt *S,
          const llvm::DenseMap<const Stmt *, const Stmt *> &Parents) const {
    SmallVector<std::pair<const IfStmt *, bool>, 4> Ifs;
    for (const Stmt *Child = S, *P = Parents.lookup(S); P;
         Child = P, P = Parents.lookup(P))
      if (const auto *If = dyn_cast<IfStmt>(P))
        if (Child == If->getThen() || Child == If->getElse())
          Ifs.push_back({If, Child == If->getThen()});
    Guard G;
    for (auto &[If, Then] : llvm::reverse(Ifs)) {
      if (Then)
        A.refine(G, If->getCond());
      else if (A.threadDependent(If->getCond()))
        G.WarpUniform = G.BlockUniform = false;
    }
    return G;
  }

  /// Whether a barrier statement lies between the offset \p From and \p S,
  /// in a compound statement around \p S (so on every path to it).
  bool barrierBefore(
      const Stmt *S, unsigned From,
      const llvm::DenseMap<const Stmt *, const Stmt *> &Parents) const {
    for (const Stmt *Child = S, *P = Parents.lookup(S); P;
         Child = P, P = Parents.lookup(P)) {
      const auto *CS = dyn_cast<CompoundStmt>(P);
      if (!CS)
        continue;
      for (const Stmt *C : CS->body()) {
        if (C == Child)
          break;
        const auto *Call = dyn_cast<CallExpr>(C);
        if (Call && offsetOf(C->getBeginLoc()) >= From &&
            (isBarrierCall(Call) || A.containsBarrier(Call->getDirectCallee())))
          return true;
      }
    }
    return false;
  }

  /// The reads of \p Arr (and of the register \p Reg) in \p F after the
  /// source range [\p RBegin, \p REnd) or in a loop around it.
  Use scanUses(const FunctionDecl *F, const ValueDecl *Arr, const VarDecl *Reg,
               Base B, unsigned RBegin, unsigned REnd) const {
    llvm::DenseMap<const Stmt *, const Stmt *> Parents;
    llvm::DenseSet<const Stmt *> Written;
    unsigned From = REnd;
    forEachDescendant(F->getBody(), [&](const Stmt *S) {
      for (const Stmt *C : S->children())
        if (C)
          Parents[C] = S;
      if (const auto *BO = dyn_cast<BinaryOperator>(S);
          BO && BO->getOpcode() == BO_Assign)
        Written.insert(BO->getLHS()->IgnoreParens());
      if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S) &&
          offsetOf(S->getBeginLoc()) <= RBegin &&
          offsetOf(S->getEndLoc()) >= REnd)
        From = std::min(From, offsetOf(S->getBeginLoc()));
    });
    Use U = Use::Fine;
    forEachDescendant(F->getBody(), [&](const Stmt *S) {
      if (U == Use::Unsafe || !isa<ArraySubscriptExpr, DeclRefExpr>(S) ||
          Written.count(S))
        return;
      unsigned Off = offsetOf(S->getBeginLoc());
      if (Off < From || (Off >= RBegin && Off < REnd))
        return;
      Guard G = guardAt(S, Parents);
      if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
        if (Reg && DRE->getDecl() == Reg && !lane0Only(G, B))
          U = Use::Unsafe;
        return;
      }
      const auto *ASE = cast<ArraySubscriptExpr>(S);
      const auto *ArrRef =
          dyn_cast<DeclRefExpr>(ASE->getBase()->IgnoreParenImpCasts());
      if (!ArrRef || A.canonicalArray(ArrRef->getDecl()) != Arr)
        return;
      // The elements read: [Lo, Hi).
      int64_t Lo, Hi;
      if (std::optional<int64_t> C = A.constant(ASE->getIdx())) {
        Lo = *C;
        Hi = *C + 1;
      } else if (std::optional<IndexForm> I = A.parseIndex(ASE->getIdx());
                 I && !I->Xor && I->B == B) {
        int64_t TLo = B == Base::Tid ? G.TidLo : G.LaneLo;
        int64_t THi = B == Base::Tid ? G.TidHi : G.LaneHi;
        Lo = TLo + I->Off;
        Hi = THi >= Inf ? Inf : THi + I->Off;
      } else {
        U = Use::Unsafe;
        return;
      }
      if (std::max<int64_t>(Lo, 1) < std::min<int64_t>(Hi, WarpSize)) {
        U = Use::Unsafe;
        return;
      }
      if (Lo <= 0 && 0 < Hi && !lane0Only(G, B) &&
          !barrierBefore(S, REnd, Parents))
        U = Use::Sync;
    });
    return U;
  }

  /// What follows the write-back of the rewritten reduction: nothing, a
  /// __syncwarp() (other lanes read `A[0]`), or no rewrite at all.
  std::optional<std::string> resultSync(const ValueDecl *StepArray,
                                        const VarDecl *Reg, Base B,
                                        unsigned RBegin, unsigned REnd,
                                        StringRef Mask, StringRef Indent) {
    switch (resultUse(StepArray, Reg, B, RBegin, REnd)) {
    case Use::Fine:
      return std::string();
    case Use::Sync:
      return ("\n" + Indent + "__syncwarp(" +
              (Mask == "0xffffffff" ? StringRef() : Mask) + ");")
          .str();
    case Use::Unsafe:
      return std::nullopt;
    }
    return std::nullopt;
  }

  /// The uses of the result of the steps writing \p Arr with own index base
  /// \p B in [\p RBegin, \p REnd), here and, for a helper's parameter, in
  /// its callers after each call.
  Use resultUse(const ValueDecl *StepArray, const VarDecl *Reg, Base B,
                unsigned RBegin, unsigned REnd) const {
    const ValueDecl *Arr = A.canonicalArray(StepArray);
    Use U = scanUses(FD, Arr, Reg, B, RBegin, REnd);
    const auto *P = dyn_cast<ParmVarDecl>(Arr);
    if (U == Use::Unsafe || !P || isKernel(FD))
      return U;
    auto It = Calls.find(FD->getCanonicalDecl());
    if (It == Calls.end())
      return U;
    for (const CallSite &CS : It->second) {
      unsigned I = P->getFunctionScopeIndex();
      if (!CS.Caller || I >= CS.Call->getNumArgs())
        return Use::Unsafe;
      const auto *Arg =
          dyn_cast<DeclRefExpr>(CS.Call->getArg(I)->IgnoreParenImpCasts());
      if (!Arg)
        return Use::Unsafe;
      const ValueDecl *CallerArr = A.canonicalArray(Arg->getDecl());
      // Callers of callers are not followed.
      if (isa<ParmVarDecl>(CallerArr) && !isKernel(CS.Caller))
        return Use::Unsafe;
      U = std::max(U, scanUses(CS.Caller, CallerArr, nullptr, B,
                               offsetOf(CS.Call->getBeginLoc()),
                               offsetOf(CS.Call->getEndLoc()) + 1));
      if (U == Use::Unsafe)
        return U;
    }
    return U;
  }

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
    // Statements that end with a compound statement or hold their own
    // semicolon.
    StringRef Last = Lexer::getSourceText(
        CharSourceRange::getTokenRange(S->getEndLoc(), S->getEndLoc()), SM, LO);
    if (Last == "}" || Last == ";")
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
    // `A[b] = r = r op A[b + k]`: the CUDA samples' register accumulator.
    if (BO->getOpcode() == BO_Assign)
      if (const auto *Inner =
              dyn_cast<BinaryOperator>(BO->getRHS()->IgnoreParenImpCasts());
          Inner && Inner->isAssignmentOp()) {
        const auto *Ref =
            dyn_cast<DeclRefExpr>(Inner->getLHS()->IgnoreParens());
        const auto *VD = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
        if (!VD || !VD->isLocalVarDecl() || VD->isStaticLocal() ||
            VD->getType()->isReferenceType())
          return std::nullopt;
        St.Reg = VD;
        BO = Inner;
      }
    auto IsOwn = [&](const Expr *E) {
      if (!St.Reg)
        return sameElement(E, St.Own);
      const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
      return Ref && Ref->getDecl() == St.Reg;
    };
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
      if (!IsOwn(L))
        std::swap(L, R);
      if (!IsOwn(L))
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
      if (!IsOwn(L))
        std::swap(L, R);
      if (!IsOwn(L))
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
      if (It->second.Kind == SlotKind::Compound) {
        // The only statement of a braced `if (c) { S; }`: the `if`.
        const auto *CS = cast<CompoundStmt>(It->second.Parent);
        auto CIt = A.Slots.find(CS);
        if (CS->size() != 1 || CIt == A.Slots.end() ||
            CIt->second.Kind != SlotKind::IfThen)
          return S;
        S = CIt->second.Parent;
        continue;
      }
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

  SourceLocation endOf(const CharSourceRange &R) const {
    return R.isTokenRange() ? Lexer::getLocForEndOfToken(R.getEnd(), 0, SM, LO)
                            : R.getEnd();
  }

  static std::string combine(const Step &St, const std::string &V,
                             const std::string &Operand) {
    if (St.Compound)
      return V + " " + St.Op + "= " + Operand;
    if (St.Call)
      return V + " = " + St.Op + "(" + V + ", " + Operand + ")";
    return V + " = " + V + " " + St.Op + " " + Operand;
  }

  static const Stmt *single(const Stmt *S) {
    const auto *CS = dyn_cast_or_null<CompoundStmt>(S);
    if (!CS)
      return S;
    return CS->size() == 1 ? CS->body_front() : nullptr;
  }

  /// Whether the register of `A[b] = r = r op A[b + k]` holds the thread's
  /// element A[b] when the steps start: every store to A in the function is
  /// `A[b] = r` or `A[b] = r = ...`, nothing else writes A (no address taken,
  /// not passed to a call), and r is assigned otherwise only before the
  /// first store, outside any loop around it.
  bool regHoldsElement(const Step &St) const {
    const ValueDecl *Arr = A.canonicalArray(St.Array);
    const VarDecl *Reg = St.Reg;
    auto refersTo = [&](const Expr *E, const ValueDecl *D) {
      const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
      return Ref &&
             (Ref->getDecl() == D || A.canonicalArray(Ref->getDecl()) == D);
    };
    auto arrayOf = [&](const Expr *E) -> bool {
      const auto *ASE = dyn_cast<ArraySubscriptExpr>(E->IgnoreParens());
      return ASE && refersTo(ASE->getBase(), Arr);
    };
    bool OK = true;
    unsigned FirstStore = std::numeric_limits<unsigned>::max();
    llvm::SmallPtrSet<const Stmt *, 8> Chains;
    SmallVector<unsigned, 4> Others; ///< Other assignments of r.
    SmallVector<std::pair<unsigned, unsigned>, 4> Loops;
    forEachDescendant(FD->getBody(), [&](const Stmt *S) {
      if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S))
        Loops.push_back({offsetOf(S->getBeginLoc()), offsetOf(S->getEndLoc())});
      if (const auto *Call = dyn_cast<CallExpr>(S))
        for (const Expr *Arg : Call->arguments())
          OK &= !refersTo(Arg, Arr);
      if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
        if (UO->getOpcode() == UO_AddrOf || UO->isIncrementDecrementOp()) {
          OK &= !arrayOf(UO->getSubExpr());
          OK &=
              !refersTo(UO->getSubExpr(), Reg) || UO->getOpcode() != UO_AddrOf;
          if (refersTo(UO->getSubExpr(), Reg))
            Others.push_back(offsetOf(UO->getBeginLoc()));
        }
        return;
      }
      const auto *BO = dyn_cast<BinaryOperator>(S);
      if (!BO || !BO->isAssignmentOp())
        return;
      if (refersTo(BO->getLHS(), Reg) && !Chains.count(BO))
        Others.push_back(offsetOf(BO->getBeginLoc()));
      if (!arrayOf(BO->getLHS()))
        return;
      const auto *ASE = cast<ArraySubscriptExpr>(BO->getLHS()->IgnoreParens());
      std::optional<IndexForm> I = A.parseIndex(ASE->getIdx());
      const Expr *R = BO->getRHS()->IgnoreParenImpCasts();
      if (const auto *Inner = dyn_cast<BinaryOperator>(R);
          Inner && Inner->isAssignmentOp()) {
        Chains.insert(Inner);
        R = Inner->getLHS();
      }
      if (!I || I->Xor || I->Off != 0 || BO->getOpcode() != BO_Assign ||
          !refersTo(R, Reg))
        OK = false;
      FirstStore = std::min(FirstStore, offsetOf(BO->getBeginLoc()));
    });
    if (!OK || FirstStore == std::numeric_limits<unsigned>::max())
      return false;
    for (unsigned O : Others) {
      if (O > FirstStore)
        return false;
      for (auto [LB, LE] : Loops)
        if (LB <= O && O <= LE && LB <= FirstStore && FirstStore <= LE)
          return false;
    }
    return true;
  }

  /// `for (o = 16; o > 0; o >>= 1) [if (b < o)] A[b] op= A[b + o];`, maybe
  /// after a 32 step, or the same loop from 32.
  bool loopShuffleFix(llvm::ArrayRef<Race> Races,
                      std::vector<FixItHint> &Fixes) {
    const Stmt *S = Races.front().R->Stmt;
    const ForStmt *For = nullptr;
    while (S && !For) {
      For = dyn_cast<ForStmt>(S);
      auto It = A.Slots.find(S);
      S = It == A.Slots.end() ? nullptr : It->second.Parent;
    }
    const VarDecl *Var = nullptr;
    SmallVector<int64_t, 8> Values;
    if (!For || !A.halvingLoop(For, Var, Values) ||
        (Values.front() != 16 && Values.front() != 32))
      return false;
    auto SlotIt = A.Slots.find(For);
    if (SlotIt == A.Slots.end() || SlotIt->second.Kind != SlotKind::Compound ||
        !SlotIt->second.G.WarpUniform)
      return false;
    const Stmt *Inner = single(For->getBody());
    if (const auto *If = dyn_cast_or_null<IfStmt>(Inner)) {
      const auto *Cond =
          dyn_cast<BinaryOperator>(If->getCond()->IgnoreParens());
      const auto *Bound =
          Cond ? dyn_cast<DeclRefExpr>(stripCasts(Cond->getRHS())) : nullptr;
      if (If->getElse() || !Cond || Cond->getOpcode() != BO_LT ||
          A.baseOf(Cond->getLHS()) == Base::None || !Bound ||
          Bound->getDecl() != Var)
        return false;
      Inner = single(If->getThen());
    }
    if (!Inner)
      return false;
    A.LoopValues[Var] = Values.front();
    std::optional<Step> St = parseStep(Inner);
    A.LoopValues.erase(Var);
    bool UsesVar = false;
    if (St)
      forEachDescendant(St->Other->getIdx(), [&](const Stmt *X) {
        const auto *DRE = dyn_cast<DeclRefExpr>(X);
        UsesVar |= DRE && DRE->getDecl() == Var;
      });
    if (!St || St->Reg || !UsesVar || St->K != Values.front())
      return false;
    // A 32 step just before a loop from 16.
    const auto *Parent = cast<CompoundStmt>(SlotIt->second.Parent);
    const Stmt *Prev = nullptr;
    for (const Stmt *C : Parent->body()) {
      if (C == For)
        break;
      Prev = C;
    }
    std::optional<Step> PrevStep;
    if (Prev && Values.front() == 16)
      PrevStep = parseStep(Prev);
    if (PrevStep && (PrevStep->K != 32 || PrevStep->Array != St->Array ||
                     PrevStep->Op != St->Op || PrevStep->Call != St->Call ||
                     !sameElement(PrevStep->Own, St->Own)))
      PrevStep.reset();
    for (const Race &R : Races)
      for (const Access *Acc : {R.W, R.R}) {
        const Stmt *X = Acc->Stmt;
        bool InLoop = false;
        while (X && !InLoop) {
          InLoop = X == For || (PrevStep && X == Prev);
          auto It = A.Slots.find(X);
          X = It == A.Slots.end() ? nullptr : It->second.Parent;
        }
        if (!InLoop)
          return false;
      }
    if (!wholeWarp(Races.front().W, SlotIt->second.G))
      return false;
    std::optional<std::string> Own = text(St->Own->getSourceRange());
    std::optional<std::string> ArrayText =
        text(St->Own->getBase()->getSourceRange());
    std::optional<std::string> BaseText =
        text(St->Own->getIdx()->getSourceRange());
    std::optional<CharSourceRange> BodyRange = withSemi(For->getBody());
    std::optional<CharSourceRange> ForRange = withSemi(For);
    if (!Own || !ArrayText || !BaseText || !BodyRange || !ForRange ||
        Var->getInit()->getBeginLoc().isMacroID())
      return false;
    std::string V = freshName("v");
    const Stmt *First = PrevStep ? Prev : For;
    std::string Indent = indentOf(First->getBeginLoc());
    std::string Prologue = "auto " + V + " = " + *Own + ";\n" + Indent;
    if (Values.front() == 32) {
      Prologue += combine(*St, V, *ArrayText + "[" + *BaseText + " + 32]") +
                  ";\n" + Indent;
      Fixes.push_back(
          FixItHint::CreateReplacement(Var->getInit()->getSourceRange(), "16"));
    }
    Fixes.push_back(FixItHint::CreateInsertion(First->getBeginLoc(), Prologue));
    if (PrevStep) {
      std::optional<std::string> OtherText =
          text(PrevStep->Other->getSourceRange());
      if (!OtherText || PrevStep->Assign->getBeginLoc().isMacroID())
        return false;
      Fixes.push_back(FixItHint::CreateReplacement(
          CharSourceRange::getTokenRange(PrevStep->Assign->getSourceRange()),
          combine(*PrevStep, V, *OtherText)));
    }
    std::string Shfl = combine(*St, V,
                               "__shfl_down_sync(0xffffffff, " + V + ", " +
                                   Var->getName().str() + ")") +
                       ";";
    if (isa<CompoundStmt>(For->getBody()))
      Shfl = "{\n" + Indent + "  " + Shfl + "\n" + Indent + "}";
    Fixes.push_back(FixItHint::CreateReplacement(*BodyRange, Shfl));
    std::optional<std::string> Sync =
        resultSync(St->Array, nullptr, A.parseIndex(St->Own->getIdx())->B,
                   offsetOf(First->getBeginLoc()), offsetOf(endOf(*ForRange)),
                   "0xffffffff", Indent);
    if (!Sync)
      return false;
    Fixes.push_back(FixItHint::CreateInsertion(
        endOf(*ForRange), "\n" + Indent + *Own + " = " + V + ";" + *Sync));
    return true;
  }

  /// Whether the steps at \p Any, in a statement reached under \p G, are
  /// run by every lane of exactly one warp: a full-mask shuffle executed by
  /// fewer lanes is undefined and reads lanes that do not take part.
  bool wholeWarp(const Access *Any, const Guard &G) {
    if (!G.WarpUniform) {
      ShuffleWhy = "the steps run on only some lanes of a warp (a "
                   "thread-dependent branch); a shuffle or __syncwarp() there "
                   "would be divergent";
      return false;
    }
    // A bound from the array sizes alone may be below a warp: the block
    // may be smaller than the shuffle's full mask.
    return Any->Idx.B != Base::Tid ||
           (Any->G.TidLo == 0 && Any->G.TidHi <= 32 && !Any->G.Bounded);
  }

  bool shuffleFix(llvm::ArrayRef<Race> Races, std::vector<FixItHint> &Fixes) {
    if (loopShuffleFix(Races, Fixes))
      return true;
    Fixes.clear();
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
    // Steps before the racing ones (the 32 step, which reads the other
    // warp's elements; in a small instantiation, steps whose block-size
    // guard is false) belong to the run.
    for (std::optional<Step> FirstStep = parseStep(Body[First]);
         FirstStep && First > 0; FirstStep = parseStep(Body[First])) {
      std::optional<Step> Before = parseStep(Body[First - 1]);
      if (!Before || FirstStep->K >= 32 || Before->K != 2 * FirstStep->K)
        break;
      --First;
    }
    SmallVector<Step, 8> Steps;
    for (unsigned I = First; I <= Last; ++I) {
      std::optional<Step> St = parseStep(Body[I]);
      if (!St)
        return false;
      if (!Steps.empty() &&
          (St->K * 2 != Steps.back().K || St->Array != Steps[0].Array ||
           St->Op != Steps[0].Op || St->Call != Steps[0].Call ||
           St->Reg != Steps[0].Reg || !sameElement(St->Own, Steps[0].Own)))
        return false;
      Steps.push_back(*St);
    }
    if (Steps.back().K != 1 || (Steps.front().K != 32 && Steps.front().K != 16))
      return false;
    // The lanes that run the steps are exactly the first warp (or each lane).
    if (!wholeWarp(Races.front().W, A.Slots[Body[First]].G))
      return false;

    std::optional<std::string> Own = text(Steps[0].Own->getSourceRange());
    const VarDecl *Reg = Steps[0].Reg;
    if (!Own || (Reg && !regHoldsElement(Steps[0])))
      return false;
    // The register of `A[b] = r = r + A[b + k]` is the value of the
    // reduction; otherwise a new one.
    std::string V = Reg ? Reg->getName().str() : freshName("v");
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
    if (!Reg)
      Prologue += "auto " + V + " = " + *Own + ";\n" + Indent;
    if (!Prologue.empty())
      Fixes.insert(Fixes.begin(),
                   FixItHint::CreateInsertion(
                       Steps.front().Outer->getBeginLoc(), Prologue));
    std::optional<CharSourceRange> LastRange = withSemi(Steps.back().Outer);
    if (!LastRange)
      return false;
    std::optional<std::string> Sync =
        resultSync(Steps[0].Array, Reg, A.parseIndex(Steps[0].Own->getIdx())->B,
                   offsetOf(Steps.front().Outer->getBeginLoc()),
                   offsetOf(endOf(*LastRange)), Mask, Indent);
    if (!Sync)
      return false;
    Fixes.push_back(FixItHint::CreateInsertion(
        endOf(*LastRange), "\n" + Indent + *Own + " = " + V + ";" + *Sync));
    return true;
  }

  // --- Barrier fixes (__syncwarp or __syncthreads). ---

  /// The text of \p S with its trailing semicolon.
  std::optional<std::string> textWithSemi(const Stmt *S) const {
    std::optional<CharSourceRange> R = withSemi(S);
    if (!R)
      return std::nullopt;
    return Lexer::getSourceText(*R, SM, LO).str();
  }

  bool atLineStart(SourceLocation Loc) const {
    StringRef Buf = SM.getBufferData(SM.getFileID(Loc));
    unsigned Off = SM.getFileOffset(Loc);
    while (Off > 0 && (Buf[Off - 1] == ' ' || Buf[Off - 1] == '\t'))
      --Off;
    return Off == 0 || Buf[Off - 1] == '\n';
  }

  bool restOfLineBlank(SourceLocation Loc) const {
    StringRef Buf = SM.getBufferData(SM.getFileID(Loc));
    for (unsigned Off = SM.getFileOffset(Loc); Off < Buf.size(); ++Off) {
      if (Buf[Off] == '\n' || Buf[Off] == '\r')
        return true;
      if (Buf[Off] != ' ' && Buf[Off] != '\t')
        return false;
    }
    return true;
  }

  /// Whether the element \p E (`A[base + c]`) is accessed somewhere in the
  /// function by every thread that \p G admits.
  bool accessedByAll(const Expr *E, const Guard &G) const {
    const auto *ASE = dyn_cast<ArraySubscriptExpr>(E->IgnoreParens());
    const auto *Ref =
        ASE ? dyn_cast<DeclRefExpr>(ASE->getBase()->IgnoreParenImpCasts())
            : nullptr;
    std::optional<IndexForm> I =
        ASE ? A.parseIndex(ASE->getIdx()) : std::nullopt;
    if (!Ref || !I || I->Xor)
      return false;
    const ValueDecl *Arr = A.canonicalArray(Ref->getDecl());
    for (const auto &Region : A.Regions)
      for (const Access &X : Region)
        if (X.Array == Arr && X.Idx.B == I->B && !X.Idx.Xor &&
            X.Idx.Off == I->Off && X.G.TidLo <= G.TidLo &&
            X.G.TidHi >= G.TidHi && X.G.LaneLo <= G.LaneLo &&
            X.G.LaneHi >= G.LaneHi)
          return true;
    return false;
  }

  /// The `for` or `while` loop whose unbraced body is \p S.
  static const Stmt *loopWithBody(const Stmt *S, const Slot &Sl) {
    if (Sl.Kind != SlotKind::Other || !Sl.Parent)
      return nullptr;
    if (const auto *For = dyn_cast<ForStmt>(Sl.Parent))
      return For->getBody() == S ? For : nullptr;
    if (const auto *While = dyn_cast<WhileStmt>(Sl.Parent))
      return While->getBody() == S ? While : nullptr;
    return nullptr;
  }

  /// The text of the condition of \p If, where it may be evaluated again
  /// (no side effects, no memory read).
  std::optional<std::string> liftableCond(const IfStmt *If) const {
    bool ReadsMemory = false;
    forEachDescendant(If->getCond(), [&](const Stmt *X) {
      ReadsMemory |= isa<ArraySubscriptExpr>(X) ||
                     (isa<UnaryOperator>(X) &&
                      cast<UnaryOperator>(X)->getOpcode() == UO_Deref);
    });
    if (ReadsMemory || If->getCond()->HasSideEffects(Ctx))
      return std::nullopt;
    return text(If->getCond()->getSourceRange());
  }

  /// The thread-dependent `if (C) { ... S ... }` (no else, in a compound
  /// statement that whole warps, or the block, reach) around \p S whose
  /// statements may each be put under `if (C)` of their own: none declares a
  /// name, none assigns a variable of C.
  const IfStmt *distributable(const Stmt *S, bool Warp) const {
    auto It = A.Slots.find(S);
    if (It == A.Slots.end() || It->second.Kind != SlotKind::Compound)
      return nullptr;
    const auto *CS = dyn_cast_or_null<CompoundStmt>(It->second.Parent);
    auto CIt = CS ? A.Slots.find(CS) : A.Slots.end();
    if (CIt == A.Slots.end() || CIt->second.Kind != SlotKind::IfThen)
      return nullptr;
    const auto *If = cast<IfStmt>(CIt->second.Parent);
    auto IIt = A.Slots.find(If);
    if (If->getElse() || If->getInit() || If->getConditionVariable() ||
        IIt == A.Slots.end() || IIt->second.Kind != SlotKind::Compound ||
        !uniform(IIt->second.G, Warp))
      return nullptr;
    for (const Stmt *Child : CS->body())
      if (isa<DeclStmt, NullStmt, LabelStmt, CaseStmt, DefaultStmt>(Child))
        return nullptr;
    bool Assigned = false;
    forEachDescendant(If->getCond(), [&](const Stmt *X) {
      if (const auto *DRE = dyn_cast<DeclRefExpr>(X))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
          Assigned |= Analysis::assignedIn(CS, VD);
    });
    return Assigned ? nullptr : If;
  }

  struct Plan {
    bool Split = false;
    bool BarrierBefore = false;
    SmallVector<const Access *, 2> Reads; ///< Racing reads to hoist.
  };

  /// The lanes that reach a point with guard \p G, as a mask, where they
  /// are known exactly (every condition on the way is a range of the
  /// thread index or lane, and whole warps reach the first of them) and
  /// the same in every warp that arrives; nullopt otherwise.
  std::optional<uint32_t> laneMask(const Guard &G) const {
    if (!G.Exact)
      return std::nullopt;
    int64_t Lo = G.LaneLo, Hi = G.LaneHi;
    if (G.TidLo > 0 || G.TidHi < Inf) {
      int64_t TLo = G.TidLo, THi = G.TidHi;
      if (THi < Inf && TLo / WarpSize == (THi - 1) / WarpSize) {
        Lo = std::max(Lo, TLo % WarpSize);
        Hi = std::min(Hi, (THi - 1) % WarpSize + 1);
      } else if (TLo % WarpSize != 0 || (THi < Inf && THi % WarpSize != 0)) {
        return std::nullopt;
      }
    }
    if (Lo < 0 || Hi > WarpSize || Lo >= Hi || (Lo == 0 && Hi == WarpSize))
      return std::nullopt;
    uint64_t M = ((uint64_t(1) << Hi) - 1) & ~((uint64_t(1) << Lo) - 1);
    return uint32_t(M);
  }

  std::string maskedSyncwarp(const Guard &G) const {
    return "__syncwarp(0x" + llvm::utohexstr(*laneMask(G), /*LowerCase=*/true) +
           ")";
  }

  bool uniform(const Guard &G, bool Warp) const {
    return Warp ? G.WarpUniform : G.BlockUniform;
  }

  /// Ends the body of the loop \p L with \p Barrier, unless it ends with
  /// a barrier already.
  bool endBodyBarrier(const Stmt *L, const std::string &Barrier, bool Warp,
                      std::vector<FixItHint> &Fixes, std::string &Why) {
    const Stmt *Body = isa<ForStmt>(L)     ? cast<ForStmt>(L)->getBody()
                       : isa<WhileStmt>(L) ? cast<WhileStmt>(L)->getBody()
                                           : cast<DoStmt>(L)->getBody();
    const auto *CS = dyn_cast<CompoundStmt>(Body);
    auto It = A.Slots.find(Body);
    bool Continues = false;
    forEachDescendant(
        Body, [&](const Stmt *X) { Continues |= isa<ContinueStmt>(X); });
    if (It == A.Slots.end() || !uniform(It->second.G, Warp)) {
      Why = "the barrier would be inside a thread-dependent branch or loop";
      return false;
    }
    if (!CS || CS->body_empty() || Continues || CS->getRBracLoc().isMacroID()) {
      Why = "the loop body would need a barrier at its end";
      return false;
    }
    const auto *Last = dyn_cast<CallExpr>(CS->body_back());
    if (Last && isBarrierCall(Last))
      return true;
    Fixes.push_back(FixItHint::CreateInsertion(
        CS->getRBracLoc(),
        "  " + Barrier + ";\n" + indentOf(CS->getRBracLoc())));
    return true;
  }

  /// Whether \p S assigns an element of \p Arr.
  bool writesArray(const Stmt *S, const ValueDecl *Arr) const {
    bool Writes = false;
    forEachDescendant(S, [&](const Stmt *X) {
      const Expr *Target = nullptr;
      if (const auto *B = dyn_cast<BinaryOperator>(X); B && B->isAssignmentOp())
        Target = B->getLHS();
      else if (const auto *U = dyn_cast<UnaryOperator>(X);
               U && U->isIncrementDecrementOp())
        Target = U->getSubExpr();
      const Expr *E = Target ? Target->IgnoreParenImpCasts() : nullptr;
      while (const auto *ASE = dyn_cast_or_null<ArraySubscriptExpr>(E))
        E = ASE->getBase()->IgnoreParenImpCasts();
      if (E && E != (Target ? Target->IgnoreParenImpCasts() : nullptr))
        if (const auto *D = dyn_cast<DeclRefExpr>(E))
          Writes |= A.canonicalArray(D->getDecl()) == Arr;
    });
    return Writes;
  }

  /// Where a barrier before \p Late (which only reads \p Arr) goes: before
  /// the outermost loop walked once around it that writes no element of
  /// \p Arr and does not hold \p Early, where every thread (or lane)
  /// reaches it; one barrier instead of one per iteration.
  const Stmt *liftOutOfLoops(const Stmt *Late, const Stmt *Early,
                             const ValueDecl *Arr, bool Warp) const {
    const Stmt *Best = Late;
    const Stmt *X = Late;
    unsigned EarlyAt =
        SM.getFileOffset(SM.getExpansionLoc(Early->getBeginLoc()));
    while (true) {
      auto It = A.Slots.find(X);
      if (It == A.Slots.end())
        break;
      const Stmt *P = It->second.Parent;
      if (P && isa<CompoundStmt>(P)) {
        auto CI = A.Slots.find(P);
        if (CI == A.Slots.end())
          break;
        P = CI->second.Parent;
      }
      if (!P || !isa<ForStmt, WhileStmt, DoStmt>(P))
        break;
      const VarDecl *Var;
      SmallVector<int64_t, 8> Values;
      if (const auto *For = dyn_cast<ForStmt>(P);
          For &&
          (A.halvingLoop(For, Var, Values) || A.doublingLoop(For, Var, Values)))
        break;
      unsigned B = SM.getFileOffset(SM.getExpansionLoc(P->getBeginLoc()));
      unsigned E = SM.getFileOffset(SM.getExpansionLoc(P->getEndLoc()));
      auto LI = A.Slots.find(P);
      if ((B <= EarlyAt && EarlyAt <= E) || writesArray(P, Arr) ||
          LI == A.Slots.end() || LI->second.Kind != SlotKind::Compound ||
          !uniform(LI->second.G, Warp) || P->getBeginLoc().isMacroID())
        break;
      Best = X = P;
    }
    return Best;
  }

  /// \p AtEntry: the region starts at the entry of a helper, where the
  /// caller may have written the elements just before the call.
  /// \p EdgeLoop: the races are across the back edge of this loop, between
  /// the end of its body and the start of the next iteration.
  bool barrierFix(llvm::ArrayRef<Race> Races, bool Warp, bool AtEntry,
                  std::vector<FixItHint> &Fixes, std::string &Why,
                  const Stmt *EdgeLoop = nullptr) {
    std::string Barrier = Warp ? "__syncwarp()" : "__syncthreads()";
    if (EdgeLoop)
      return endBodyBarrier(EdgeLoop, Barrier, Warp, Fixes, Why) &&
             !Fixes.empty();
    llvm::MapVector<const Stmt *, Plan> Plans;
    auto stmtOrder = [&](const Stmt *S) {
      return SM.getFileOffset(SM.getExpansionLoc(S->getBeginLoc()));
    };
    for (const Race &R : Races) {
      Plan &P = Plans[R.R->Stmt];
      if (llvm::none_of(P.Reads,
                        [&](const Access *X) { return X->E == R.R->E; }))
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
              WritesArray |= A.canonicalArray(D->getDecl()) == Arr;
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
      if (!Covered) {
        auto PI = Plans.find(Late);
        const ValueDecl *Arr = PI != Plans.end() && !PI->second.Reads.empty()
                                   ? PI->second.Reads[0]->Array
                                   : nullptr;
        bool Pure = PI == Plans.end() || !PI->second.Split;
        Plans[Pure && Arr ? liftOutOfLoops(Late, Early, Arr, Warp) : Late]
            .BarrierBefore = true;
      }
    }
    unsigned Counter = 0;
    std::string Peer = freshName("peer");
    // The barrier of the plan being written: Barrier, or __syncwarp(mask)
    // where only some lanes of the warp, exactly known, arrive.
    std::string Cur = Barrier;
    unsigned NumSplits =
        llvm::count_if(Plans, [](const auto &KV) { return KV.second.Split; });

    // The lines that replace \p S: a barrier before it, the racing reads
    // hoisted into temporaries, the statement (under `if (Cond)` where it is
    // lifted out of a thread-dependent branch).
    auto makeLines = [&](const Stmt *S, const Plan &P, const std::string &Cond,
                         bool Braces, SmallVectorImpl<std::string> &Lines,
                         const Guard &Outer) {
      std::string If = Cond.empty() ? "" : "if (" + Cond + ") ";
      if (P.BarrierBefore)
        Lines.push_back(Cur + ";");
      if (!P.Split) {
        std::optional<std::string> T = textWithSemi(S);
        if (!T)
          return false;
        Lines.push_back(If + *T);
        return true;
      }
      std::optional<std::string> StmtText = text(S->getSourceRange());
      const auto *BO = cast<BinaryOperator>(S);
      std::optional<std::string> OwnText = text(BO->getLHS()->getSourceRange());
      if (!StmtText || !OwnText)
        return false;
      // The threads outside the condition read their own element instead:
      // only where the function accesses it in all of them, so that it is
      // known to be in bounds.
      if (!Cond.empty() && !accessedByAll(BO->getLHS(), Outer))
        return false;
      std::string Body = *StmtText;
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
                               ? Peer
                               : Peer + std::to_string(++Counter);
        if (Braces && Reads.size() == 1)
          Name = Peer;
        unsigned B = SM.getFileOffset(Rd->E->getBeginLoc()) - StmtBegin;
        Body.replace(B, RT->size(), Name);
        Decls.insert(
            Decls.begin(),
            "auto " + Name + " = " +
                (Cond.empty() ? *RT : Cond + " ? " + *RT + " : " + *OwnText) +
                ";");
      }
      Lines.append(Decls.begin(), Decls.end());
      Lines.push_back(Cur + ";");
      Lines.push_back(If + Body + ";");
      Lines.push_back(Cur + ";");
      return true;
    };

    // A loop walked once (not per offset) around both statements of a race:
    // the next iteration's statements race with this one's across the back
    // edge, so its body also ends with a barrier.
    llvm::SetVector<const Stmt *> BackEdges;
    for (const Race &R : Races) {
      unsigned WO = stmtOrder(R.W->Stmt);
      for (const Stmt *X = R.R->Stmt; X;) {
        auto It = A.Slots.find(X);
        if (It == A.Slots.end())
          break;
        const Stmt *P = It->second.Parent;
        const VarDecl *Var;
        SmallVector<int64_t, 8> Values;
        if (P && isa<ForStmt, WhileStmt, DoStmt>(P) && stmtOrder(P) <= WO &&
            WO <= SM.getFileOffset(SM.getExpansionLoc(P->getEndLoc()))) {
          const auto *For = dyn_cast<ForStmt>(P);
          if (!For || (!A.halvingLoop(For, Var, Values) &&
                       !A.doublingLoop(For, Var, Values)))
            BackEdges.insert(P);
          break;
        }
        X = P;
      }
    }
    for (const Stmt *L : BackEdges)
      if (!endBodyBarrier(L, Barrier, Warp, Fixes, Why))
        return false;

    llvm::SmallPtrSet<const Stmt *, 4> Distributed;
    for (auto &[S, P] : Plans) {
      if (!P.Split && !P.BarrierBefore)
        continue;
      auto SlotIt = A.Slots.find(S);
      if (SlotIt == A.Slots.end())
        return false;
      const Slot &Sl = SlotIt->second;
      const Stmt *Target = S;
      std::string Indent = indentOf(S->getBeginLoc());
      std::string Cond;
      bool Braces = false;
      const Stmt *Loop = nullptr; ///< Whose unbraced body gets braces.
      Cur = Barrier;
      // `if (C) S;` lifted: C is copied to the lines that need it, the
      // barriers go around the `if`.
      const IfStmt *LiftIf = nullptr;
      const Slot *LiftSlot = nullptr;
      if (Sl.Kind == SlotKind::IfThen) {
        const auto *If = cast<IfStmt>(Sl.Parent);
        auto PIt = A.Slots.find(If);
        if (!If->getElse() && !If->getInit() && !If->getConditionVariable() &&
            PIt != A.Slots.end()) {
          LiftIf = If;
          LiftSlot = &PIt->second;
        }
      }
      auto liftable = [&](bool Masked) {
        if (!LiftIf)
          return false;
        const Stmt *L = loopWithBody(LiftIf, *LiftSlot);
        return (LiftSlot->Kind == SlotKind::Compound || L) &&
               (Masked ? Warp && laneMask(LiftSlot->G).has_value()
                       : uniform(LiftSlot->G, Warp));
      };
      const IfStmt *Dist = nullptr;
      if (Sl.Kind == SlotKind::Compound && uniform(Sl.G, Warp)) {
        // In place.
      } else if ((Loop = loopWithBody(S, Sl)) && uniform(Sl.G, Warp)) {
        // In place, in braces.
      } else if (Sl.Kind == SlotKind::IfThen &&
                 uniform(A.Slots[Sl.Parent].G, Warp) &&
                 !A.threadDependent(cast<IfStmt>(Sl.Parent)->getCond()) &&
                 A.Slots[Sl.Parent].Kind != SlotKind::Other) {
        Braces = true;
        Indent = indentOf(Sl.Parent->getBeginLoc());
      } else if (liftable(false) ||
                 (liftable(true) && !(Sl.Kind == SlotKind::Compound))) {
        // Lift out of a thread-dependent `if (C) S;`: around it, every lane
        // that reaches the `if` arrives (a whole warp, or exactly known
        // lanes of it with __syncwarp(mask)).
        const IfStmt *If = LiftIf;
        Loop = loopWithBody(If, *LiftSlot);
        if (!uniform(LiftSlot->G, Warp))
          Cur = maskedSyncwarp(LiftSlot->G);
        std::optional<std::string> C = liftableCond(If);
        if (!C)
          return false;
        Cond = *C;
        Target = If;
        Indent = indentOf(If->getBeginLoc());
      } else if (Sl.Kind == SlotKind::IfThen && LiftIf &&
                 !(Dist = distributable(S, Warp))) {
        Why = "the barrier would be inside a thread-dependent branch";
        return false;
      } else if (const IfStmt *If = Dist ? Dist : distributable(S, Warp)) {
        // `if (C) { S1; S2; }`: `if (C) S1; barrier; if (C) S2;`.
        if (!Distributed.insert(If).second)
          continue;
        std::optional<std::string> C = liftableCond(If);
        std::optional<CharSourceRange> Range = withSemi(If);
        if (!C || !Range)
          return false;
        SmallVector<std::string, 8> Lines;
        for (const Stmt *Child : cast<CompoundStmt>(If->getThen())->body()) {
          auto PIt = Plans.find(Child);
          if (PIt != Plans.end() &&
              (PIt->second.Split || PIt->second.BarrierBefore)) {
            if (!makeLines(Child, PIt->second, *C, false, Lines, A.Slots[If].G))
              return false;
            continue;
          }
          std::optional<std::string> T = textWithSemi(Child);
          if (!T)
            return false;
          Lines.push_back("if (" + *C + ") " + *T);
        }
        std::string In = indentOf(If->getBeginLoc());
        Fixes.push_back(
            FixItHint::CreateReplacement(*Range, llvm::join(Lines, "\n" + In)));
        continue;
      } else if (Warp && laneMask(Sl.G) &&
                 (Sl.Kind == SlotKind::Compound ||
                  (Loop = loopWithBody(S, Sl)))) {
        // Only some lanes of the warp arrive, exactly known: in place, with
        // __syncwarp(mask) naming them.
        Cur = maskedSyncwarp(Sl.G);
      } else {
        Why = "the barrier would be inside a thread-dependent branch or loop";
        return false;
      }
      std::optional<CharSourceRange> Range = withSemi(Target);
      if (!Range) {
        // A statement that ends in a macro (`out[i] = READ(s, i);`) can
        // still get a barrier on the line before it.
        if (!P.Split && !Braces && !Loop && Cond.empty() &&
            !Target->getBeginLoc().isMacroID() &&
            atLineStart(Target->getBeginLoc())) {
          Fixes.push_back(FixItHint::CreateInsertion(Target->getBeginLoc(),
                                                     Cur + ";\n" + Indent));
          continue;
        }
        Why = "the statement is written in a macro";
        return false;
      }
      SmallVector<std::string, 6> Lines;
      if (!makeLines(S, P, Cond, Braces, Lines, A.Slots[Target].G))
        return false;
      if (Loop) {
        SourceLocation RParen = isa<ForStmt>(Loop)
                                    ? cast<ForStmt>(Loop)->getRParenLoc()
                                    : cast<WhileStmt>(Loop)->getRParenLoc();
        if (RParen.isMacroID())
          return false;
        std::string LI = indentOf(Loop->getBeginLoc());
        std::string New = " {";
        for (const std::string &L : Lines)
          New += "\n" + LI + "  " + L;
        New += "\n" + LI + "}";
        Fixes.push_back(FixItHint::CreateReplacement(
            CharSourceRange::getCharRange(
                Lexer::getLocForEndOfToken(RParen, 0, SM, LO), endOf(*Range)),
            New));
        continue;
      }
      if (!Cond.empty() && !P.Split) {
        // A pure read under a thread-dependent branch: the barrier goes
        // before the branch, the branch stays as it is.
        Fixes.push_back(FixItHint::CreateInsertion(Target->getBeginLoc(),
                                                   Cur + ";\n" + Indent));
        continue;
      }
      // A statement that shares its line with what comes before it
      // (`if (c) { S; }`) starts on a line of its own, one level deeper.
      bool LineStart = atLineStart(Target->getBeginLoc());
      if (!P.Split && !Braces) {
        Fixes.push_back(FixItHint::CreateInsertion(
            S->getBeginLoc(),
            LineStart ? Cur + ";\n" + Indent
                      : "\n" + Indent + "  " + Cur + ";\n" + Indent + "  "));
        continue;
      }
      std::string New;
      if (Braces) {
        New = "{\n";
        for (const std::string &L : Lines)
          New += Indent + "  " + L + "\n";
        New += Indent + "}";
      } else if (LineStart) {
        New = llvm::join(Lines, "\n" + Indent);
      } else {
        // Also replace the blanks around the statement on its line.
        StringRef Buf = SM.getBufferData(SM.getFileID(Range->getBegin()));
        unsigned B = SM.getFileOffset(Range->getBegin());
        unsigned E = SM.getFileOffset(endOf(*Range));
        unsigned NB = B, NE = E;
        while (NB > 0 && (Buf[NB - 1] == ' ' || Buf[NB - 1] == '\t'))
          --NB;
        while (NE < Buf.size() && (Buf[NE] == ' ' || Buf[NE] == '\t'))
          ++NE;
        for (const std::string &L : Lines)
          New += "\n" + Indent + "  " + L;
        if (!restOfLineBlank(endOf(*Range)))
          New += "\n" + Indent;
        else
          NE = E;
        Range = CharSourceRange::getCharRange(
            Range->getBegin().getLocWithOffset(-(int)(B - NB)),
            endOf(*Range).getLocWithOffset(NE - E));
      }
      Fixes.push_back(FixItHint::CreateReplacement(*Range, New));
    }
    return !Fixes.empty();
  }

  std::string ShuffleWhy; ///< Why the shuffle rewrite was not offered.
  Analysis &A;
  ASTContext &Ctx;
  const SourceManager &SM;
  const LangOptions &LO;
  const FunctionDecl *FD;
  const CallMap &Calls;
};

/// Bounds the thread index by the accesses that every thread of \p FD makes:
/// `A[tid + c]` of an array of N elements in a statement of the function's
/// body (no branch, no loop, no return before it) means that the block has
/// at most N - c threads, assuming that the program accesses A in bounds.
void boundThreads(Analysis &A, const FunctionDecl *FD) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(FD->getBody());
  if (!Body)
    return;
  const Stmt *FirstReturn = nullptr;
  for (const Stmt *S : Body->body()) {
    forEachDescendant(S, [&](const Stmt *X) {
      if (!FirstReturn && isa<ReturnStmt>(X))
        FirstReturn = S;
    });
    if (FirstReturn)
      break;
  }
  auto before = [&](const Stmt *S) {
    for (const Stmt *C : Body->body()) {
      if (C == FirstReturn)
        return false;
      if (C == S)
        return true;
    }
    return false;
  };
  int64_t Bound = Inf;
  for (const auto &Region : A.Regions)
    for (const Access &X : Region) {
      const auto *VD = dyn_cast<VarDecl>(X.Array);
      const auto *AT =
          VD ? A.Ctx.getAsConstantArrayType(VD->getType()) : nullptr;
      auto It = A.Slots.find(X.Stmt);
      if (!AT || X.Idx.B != Base::Tid || X.Idx.Xor || X.G.TidLo != 0 ||
          X.G.TidHi != Inf || !X.G.BlockUniform || It == A.Slots.end() ||
          It->second.Kind != SlotKind::Compound || It->second.Parent != Body ||
          !before(X.Stmt))
        continue;
      Bound = std::min<int64_t>(Bound, (int64_t)AT->getSize().getZExtValue() -
                                           X.Idx.Off);
    }
  if (Bound >= Inf)
    return;
  auto clamp = [&](Guard &G) {
    if (G.TidHi > Bound) {
      G.TidHi = Bound;
      G.Bounded = true;
    }
  };
  for (auto &Region : A.Regions)
    for (Access &X : Region)
      clamp(X.G);
  for (auto &KV : A.Slots)
    clamp(KV.second.G);
}

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
  for (const FunctionDecl *FD : Fns)
    A.collectVarying(FD);
  // First walk: the guards at every call site.
  for (const FunctionDecl *FD : Fns)
    A.walkFunction(FD, Guard());
  A.collectPrivateParams();
  auto Calls = std::move(A.Calls);

  llvm::DenseSet<unsigned> Reported;
  KernelLaunches Launches(*Ctx);
  for (const FunctionDecl *FD : Fns) {
    Guard Entry;
    if (!isKernel(FD)) {
      auto It = Calls.find(FD->getCanonicalDecl());
      if (It != Calls.end() && !It->second.empty()) {
        Entry.TidLo = Inf;
        Entry.TidHi = 0;
        Entry.LaneLo = WarpSize;
        Entry.LaneHi = 0;
        // Exact only where every call is reached by exactly the same
        // threads, all of them described by what the helper sees.
        std::optional<Guard> FirstMapped;
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
          Mapped.Exact = G.Exact && Mapped.TidLo == G.TidLo &&
                         (Mapped.TidHi == G.TidHi || G.Bounded);
          if (!FirstMapped)
            FirstMapped = Mapped;
          else if (FirstMapped->TidLo != Mapped.TidLo ||
                   FirstMapped->TidHi != Mapped.TidHi ||
                   FirstMapped->LaneLo != Mapped.LaneLo ||
                   FirstMapped->LaneHi != Mapped.LaneHi)
            Entry.Exact = false;
          Entry.Exact &= Mapped.Exact;
          Entry.TidLo = std::min(Entry.TidLo, Mapped.TidLo);
          Entry.TidHi = std::max(Entry.TidHi, Mapped.TidHi);
          Entry.LaneLo = std::min(Entry.LaneLo, Mapped.LaneLo);
          Entry.LaneHi = std::max(Entry.LaneHi, Mapped.LaneHi);
          Entry.WarpUniform &= Mapped.WarpUniform;
          Entry.BlockUniform &= Mapped.BlockUniform;
        }
      } else {
        Entry.WarpUniform = Entry.BlockUniform = Entry.Exact = false;
      }
    }
    A.walkFunction(FD, Entry);
    boundThreads(A, FD);
    Fixer F(A, *Ctx, FD, Calls);
    std::optional<BlockShape> Launched =
        isKernel(FD) ? Launches.largestShape(FD) : std::nullopt;
    GeneralRaces General(A, FD, isKernel(FD), Launched,
                         Launched && Launches.onlyShape(FD));
    const SourceManager &SM = Ctx->getSourceManager();
    for (const auto &[RegionIndex, Region] : llvm::enumerate(A.Regions)) {
      SmallVector<Race, 8> Races;
      // Every access of a back-edge region names its loop.
      const Stmt *EdgeLoop =
          Region.empty() ? nullptr : Region.front().BackEdgeLoop;
      for (const Access &W : Region)
        for (const Access &R : Region) {
          if (!canMeet(W, R) || !W.Write || R.Write || W.Array != R.Array)
            continue;
          std::optional<Race> Rc;
          // An own index plus a constant on both sides: the exact test.
          if (W.GridOnly)
            Rc = General.race(W, R, /*BlocksOnly=*/true);
          else if (W.Idx.B != Base::None && W.Idx.B == R.Idx.B)
            Rc = raceBetween(W, R);
          else
            Rc = General.race(W, R);
          if (Rc)
            Races.push_back(*Rc);
        }
      if (Races.empty())
        continue;
      // Races that need data-dependent conditions last: when the first
      // does, all do.
      llvm::sort(Races, [](const Race &X, const Race &Y) {
        return std::make_tuple(X.DataDependent, X.R->Order, X.W->Order) <
               std::make_tuple(Y.DataDependent, Y.R->Order, Y.W->Order);
      });
      const Race &First = Races.front();
      SourceLocation Loc = SM.getExpansionLoc(First.R->E->getBeginLoc());
      // One warning per region of the source: a template instantiated
      // twice (or a loop walked per offset) gives the same races again, or
      // some of them.
      auto LocOf = [&](const Race &R) {
        return SM.getExpansionLoc(R.R->E->getBeginLoc()).getRawEncoding();
      };
      bool Seen = llvm::any_of(
          Races, [&](const Race &R) { return Reported.count(LocOf(R)); });
      for (const Race &R : Races)
        Reported.insert(LocOf(R));
      if (Seen)
        continue;
      // Every race needs a thread that a condition on data lets in: whether
      // there is one depends on the data (`keys[t] <= k && k < keys[t + 1]`
      // over sorted keys lets in one thread). Said so, without a fix.
      if (First.DataDependent) {
        diag(Loc, "threads may communicate through '%0' with no barrier in "
                  "between, depending on the data: a race unless a "
                  "data-dependent condition lets only one thread at each "
                  "element")
            << First.R->Root->getName();
        diag(SM.getExpansionLoc(First.W->E->getBeginLoc()),
             "another thread may write the element here", DiagnosticIDs::Note);
        if (First.DataCond)
          diag(SM.getExpansionLoc(First.DataCond->getBeginLoc()),
               "this condition depends on data the check cannot evaluate",
               DiagnosticIDs::Note);
        continue;
      }
      llvm::erase_if(Races, [](const Race &R) { return R.DataDependent; });
      bool Warp = llvm::all_of(Races, [](const Race &R) { return R.SameWarp; });
      bool CrossBlock =
          llvm::any_of(Races, [](const Race &R) { return R.CrossBlock; });
      // The example pair for the note: of the worst kind found.
      auto rank = [](const Race &R) {
        return R.CrossBlock ? 2 : R.SameWarp ? 0 : 1;
      };
      const Race *Example = First.General ? &First : nullptr;
      for (const Race &R : Races)
        if (R.General && (!Example || rank(R) > rank(*Example)))
          Example = &R;
      // The array as spelled at the read (an alias such as `vs` of `s`).
      std::string Array = First.R->Root->getName().str();
      std::vector<FixItHint> Fixes;
      std::string Why;
      bool Fixed = false;
      F.ShuffleWhy.clear();
      if (CrossBlock) {
        Why = "only a grid-wide synchronization (a second kernel launch, or "
              "cooperative_groups grid.sync()) orders threads of different "
              "blocks";
      } else {
        // The shuffle rewrite sees the reads after the reduction itself
        // (`s[0]` read by other lanes gets a __syncwarp() after the
        // write-back): it is given the own-index races.
        SmallVector<Race, 8> Own;
        for (const Race &R : Races)
          if (!R.General)
            Own.push_back(R);
        if (Warp && FixStyle == FixStyleKind::Shuffle && !EdgeLoop &&
            !Own.empty())
          Fixed = F.shuffleFix(Own, Fixes);
        if (!Fixed) {
          Fixes.clear();
          bool AtEntry = !isKernel(FD) && RegionIndex == 0 &&
                         A.FirstRegionAtEntry && !EdgeLoop;
          Fixed = F.barrierFix(Races, Warp, AtEntry, Fixes, Why, EdgeLoop);
          if (!Fixed)
            Fixes.clear();
        }
      }
      {
        auto D =
            CrossBlock
                ? diag(Loc, "threads of different blocks communicate through "
                            "'%0' with no grid-wide synchronization in "
                            "between; __syncthreads() cannot order them")
            : EdgeLoop
                ? (Warp ? diag(Loc, "lanes of a warp communicate through "
                                    "'%0' across iterations of the loop with "
                                    "no barrier in between; missing "
                                    "__syncwarp() at the end of the loop "
                                    "body")
                        : diag(Loc, "threads of different warps communicate "
                                    "through '%0' across iterations of the "
                                    "loop with no barrier in between; "
                                    "missing __syncthreads() at the end of "
                                    "the loop body"))
            : Warp ? diag(Loc, "lanes of a warp communicate through '%0' with "
                               "no barrier in between; warp-synchronous code "
                               "is a data race")
                   : diag(Loc, "threads of different warps communicate "
                               "through '%0' with no barrier in between; "
                               "missing __syncthreads()");
        D << Array;
        for (const FixItHint &H : Fixes)
          D << H;
      }
      diag(SM.getExpansionLoc(First.W->E->getBeginLoc()),
           EdgeLoop ? "another thread writes the element here in the next "
                      "iteration"
                    : "another thread writes the element here",
           DiagnosticIDs::Note);
      if (Example)
        diag(Loc,
             General.shapeLaunched()
                 ? "for example, %0 (in blocks of %1, as launched here)"
                 : "for example, %0 (assuming blocks of %1)",
             DiagnosticIDs::Note)
            << Example->Example << General.shape();
      if (Warp && !CrossBlock)
        diag(Loc,
             "this relies on the lanes of a warp running in lock-step and on "
             "a warp size of 32; neither is guaranteed since Volta",
             DiagnosticIDs::Note);
      if (!Fixed && !F.ShuffleWhy.empty())
        Why = F.ShuffleWhy;
      if (!Fixed && Why.empty())
        Why = "the statements involved cannot be rewritten in place (macros "
              "or statement forms the rewrite does not handle)";
      if (!Fixed && !Why.empty())
        diag(Loc, "no automatic fix: %0", DiagnosticIDs::Note) << Why;
    }
  }
  Functions.clear();
}

} // namespace cuda
} // namespace clang::tidy
