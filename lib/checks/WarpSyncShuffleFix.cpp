//===--- WarpSyncShuffleFix.cpp - cuda-lint ------------------------------===//
//
// cuda-warp-synchronous: the shuffle rewrite of recognised warp reductions
// (`A[b] op= A[b + k]` steps, the register form of the CUDA samples, the
// halving loop) to __shfl_down_sync, and what the code after a rewritten
// reduction reads (which decides whether the rewrite keeps the results).
//
//===----------------------------------------------------------------------===//

#include "WarpSyncFixer.h"
#include "cudalint/analysis/DeviceCode.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include <limits>
#include <optional>
#include <tuple>

namespace clang::tidy::cuda::warpsync {

namespace {

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

} // namespace

Guard Fixer::guardAt(
    const Stmt *S,
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

bool Fixer::barrierBefore(
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

Fixer::Use Fixer::scanUses(const FunctionDecl *F, const ValueDecl *Arr,
                           const VarDecl *Reg, Base B, unsigned RBegin,
                           unsigned REnd) const {
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

std::optional<std::string> Fixer::resultSync(const ValueDecl *StepArray,
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

Fixer::Use Fixer::resultUse(const ValueDecl *StepArray, const VarDecl *Reg,
                            Base B, unsigned RBegin, unsigned REnd) const {
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

std::optional<Step> Fixer::parseStep(const Stmt *Outer) const {
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
      const auto *Ref = dyn_cast<DeclRefExpr>(Inner->getLHS()->IgnoreParens());
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

bool Fixer::sameElement(const Expr *E, const ArraySubscriptExpr *Own) const {
  const auto *ASE = dyn_cast<ArraySubscriptExpr>(E->IgnoreParenImpCasts());
  if (!ASE)
    return false;
  const auto *B1 = dyn_cast<DeclRefExpr>(ASE->getBase()->IgnoreParenImpCasts());
  const auto *B2 = dyn_cast<DeclRefExpr>(Own->getBase()->IgnoreParenImpCasts());
  std::optional<IndexForm> I1 = A.parseIndex(ASE->getIdx());
  std::optional<IndexForm> I2 = A.parseIndex(Own->getIdx());
  return B1 && B2 && B1->getDecl() == B2->getDecl() && I1 && I2 &&
         I1->B == I2->B && !I1->Xor && !I2->Xor && I1->Off == I2->Off;
}

const Stmt *Fixer::outerOf(const Stmt *S) const {
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

std::string Fixer::freshName(StringRef Want) const {
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

std::string Fixer::combine(const Step &St, const std::string &V,
                           const std::string &Operand) {
  if (St.Compound)
    return V + " " + St.Op + "= " + Operand;
  if (St.Call)
    return V + " = " + St.Op + "(" + V + ", " + Operand + ")";
  return V + " = " + V + " " + St.Op + " " + Operand;
}

const Stmt *Fixer::single(const Stmt *S) {
  const auto *CS = dyn_cast_or_null<CompoundStmt>(S);
  if (!CS)
    return S;
  return CS->size() == 1 ? CS->body_front() : nullptr;
}

bool Fixer::regHoldsElement(const Step &St) const {
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
        OK &= !refersTo(UO->getSubExpr(), Reg) || UO->getOpcode() != UO_AddrOf;
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

bool Fixer::loopShuffleFix(llvm::ArrayRef<Race> Races,
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
    const auto *Cond = dyn_cast<BinaryOperator>(If->getCond()->IgnoreParens());
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

bool Fixer::wholeWarp(const Access *Any, const Guard &G) {
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

bool Fixer::shuffleFix(llvm::ArrayRef<Race> Races,
                       std::vector<FixItHint> &Fixes) {
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
          MaskInit = P + " >= 32 ? 0xffffffffu : (1u << (" + P + " & 31)) - 1u";
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
                 FixItHint::CreateInsertion(Steps.front().Outer->getBeginLoc(),
                                            Prologue));
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

} // namespace clang::tidy::cuda::warpsync
