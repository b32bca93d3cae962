//===--- SharedMemoryAccesses.cpp - cuda-lint -----------------------------===//
//
// The accesses of a __shared__ array for cuda-shared-bank-conflict (see
// SharedMemoryBanks.h): every use of the array (collectArrayUses) and how
// the compiled code issues each access, as a vector access, a reused load
// or its own (issuedAccesses).
//
//===----------------------------------------------------------------------===//

#include "SharedMemoryBanksImpl.h"
#include "cudalint/analysis/DeviceCode.h"
#include "cudalint/analysis/SharedMemoryBanks.h"
#include "cudalint/analysis/ValueRange.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <algorithm>

using namespace clang::ast_matchers;

namespace clang::tidy::cuda::banks {

//===--- Uses of a __shared__ array ---------------------------------------===//

namespace {

class UseCollector {
public:
  UseCollector(ASTContext &Ctx, const VarDecl *V, unsigned Rank)
      : Ctx(Ctx), V(V), Rank(Rank) {}
  SmallVector<ArrayUse, 4> Uses;

  void visit(const Stmt *S) {
    if (!S)
      return;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (DRE->getDecl() == V)
        Uses.push_back(classify(DRE));
    Stack.push_back(S);
    for (const Stmt *Child : S->children())
      visit(Child);
    Stack.pop_back();
  }

private:
  const Stmt *parent(int &K) {
    while (K >= 0 && isa<ParenExpr>(Stack[K]))
      --K;
    return K >= 0 ? Stack[K] : nullptr;
  }

  ArrayUse classify(const DeclRefExpr *DRE) {
    ArrayUse Use;
    Use.Ref = DRE;
    int K = static_cast<int>(Stack.size()) - 1;
    const Expr *Cur = DRE;
    for (unsigned D = 0; D < Rank; ++D) {
      const auto *Decay = dyn_cast_or_null<ImplicitCastExpr>(parent(K));
      if (!Decay || Decay->getCastKind() != CK_ArrayToPointerDecay)
        return Use;
      --K;
      const auto *ASE = dyn_cast_or_null<ArraySubscriptExpr>(parent(K));
      if (!ASE || ASE->getBase()->IgnoreParens() != Decay)
        return Use;
      --K;
      Use.Subscripts.push_back(ASE->getIdx());
      Cur = ASE;
    }
    Use.Access = Cur;
    Use.AccessSize = Ctx.getTypeSizeInChars(Cur->getType()).getQuantity();
    const Stmt *P = parent(K);
    if (const auto *UO = dyn_cast_or_null<UnaryOperator>(P))
      if (UO->getOpcode() == UO_AddrOf)
        return Use; // Its address taken: not an access we may pad under.
    if (const auto *ME = dyn_cast_or_null<MemberExpr>(P)) {
      const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
      if (!Field || Field->isBitField())
        return Use;
      Use.MemberOffset =
          Ctx.toCharUnitsFromBits(Ctx.getFieldOffset(Field)).getQuantity();
      Use.AccessSize = Ctx.getTypeSizeInChars(Field->getType()).getQuantity();
      --K;
    }
    Use.IsAccess = true;
    // What is done with the element.
    const Stmt *Consumer = parent(K);
    const Stmt *Operand = K + 1 < static_cast<int>(Stack.size())
                              ? Stack[K + 1]
                              : static_cast<const Stmt *>(DRE);
    if (const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(Consumer)) {
      if (Cast->getCastKind() == CK_LValueToRValue)
        Use.Kind = ArrayUse::Load;
    } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Consumer)) {
      if (BO->isAssignmentOp() && BO->getLHS() == Operand)
        Use.Kind =
            BO->getOpcode() == BO_Assign ? ArrayUse::Store : ArrayUse::Update;
    } else if (const auto *UO = dyn_cast_or_null<UnaryOperator>(Consumer)) {
      if (UO->isIncrementDecrementOp())
        Use.Kind = ArrayUse::Update;
    }
    // Where it is: the innermost block, and whether anything between the
    // block's statement and the access decides whether it runs.
    Use.Straight = true;
    for (int I = static_cast<int>(Stack.size()) - 1; I >= 0; --I) {
      const Stmt *S = Stack[I];
      if (isa<LambdaExpr>(S)) {
        Use.Straight = Use.Straight && Use.Block;
        break;
      }
      if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
        const Stmt *Child = I + 1 < static_cast<int>(Stack.size())
                                ? Stack[I + 1]
                                : static_cast<const Stmt *>(DRE);
        unsigned Index = 0;
        for (const Stmt *B : CS->body()) {
          if (B == Child)
            break;
          ++Index;
        }
        if (!Use.Block) {
          Use.Block = CS;
          Use.StmtIndex = Index;
        }
        Use.Blocks.push_back({CS, Index});
        continue;
      }
      if (Use.Block)
        continue;
      if (isa<IfStmt, ForStmt, WhileStmt, DoStmt, SwitchStmt, CXXForRangeStmt,
              AbstractConditionalOperator, LambdaExpr, StmtExpr, SwitchCase,
              LabelStmt>(S))
        Use.Straight = false;
      if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isLogicalOp())
        Use.Straight = false;
    }
    if (!Use.Block)
      Use.Straight = false;
    return Use;
  }

  ASTContext &Ctx;
  const VarDecl *V;
  unsigned Rank;
  SmallVector<const Stmt *, 16> Stack;
};
} // namespace

SmallVector<ArrayUse, 4> collectArrayUses(ASTContext &Ctx, const VarDecl *V,
                                          unsigned Rank, const Stmt *Body) {
  UseCollector Collector(Ctx, V, Rank);
  Collector.visit(Body);
  return std::move(Collector.Uses);
}

//===--- What the compiled code issues -----------------------------------===//

namespace {

/// True when a call may touch shared memory or order it: anything but a
/// builtin or a function of the CUDA or system headers that is not a
/// barrier, fence or atomic.
bool mayTouchSharedMemory(const CallExpr *Call, const SourceManager &SM) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee)
    return true;
  StringRef Name = Callee->getName();
  for (StringRef Word :
       {"sync", "fence", "barrier", "atomic", "shfl", "match", "vote", "bar"})
    if (Name.contains_insensitive(Word))
      return true;
  return !Callee->getBuiltinID() && !SM.isInSystemHeader(Callee->getLocation());
}

/// Whether the statements \p First..\p Last of \p Block keep the value and
/// the address of a shared element: no call that may touch shared memory,
/// no change of the variables in \p Vars, no use of \p Array other than the
/// accesses in \p Allowed and, with \p AllowLoads, loads; and, unless
/// \p AllowBranches, no statement between the first and the last that may
/// branch or jump.
class SpanCheck {
public:
  SpanCheck(ASTContext &Ctx, const VarDecl *Array, ArrayRef<ArrayUse> Uses,
            const llvm::SmallPtrSetImpl<const VarDecl *> &Vars,
            const llvm::SmallPtrSetImpl<const Expr *> &Allowed, bool AllowLoads,
            bool AllowBranches)
      : Ctx(Ctx), Array(Array), Uses(Uses), Vars(Vars), Allowed(Allowed),
        AllowLoads(AllowLoads), AllowBranches(AllowBranches) {}

  bool keeps(const CompoundStmt *Block, unsigned First, unsigned Last) {
    unsigned I = 0;
    for (const Stmt *S : Block->body()) {
      if (I >= First && I <= Last &&
          !clean(S, AllowBranches || I == First || I == Last))
        return false;
      ++I;
    }
    return true;
  }

private:
  bool clean(const Stmt *S, bool Branches) {
    if (!S)
      return true;
    if (!Branches &&
        isa<IfStmt, ForStmt, WhileStmt, DoStmt, SwitchStmt, CXXForRangeStmt>(S))
      return false;
    if (isa<ReturnStmt, BreakStmt, ContinueStmt, GotoStmt, IndirectGotoStmt,
            LabelStmt, SwitchCase, CoroutineBodyStmt, CXXThrowExpr, GCCAsmStmt,
            MSAsmStmt, LambdaExpr>(S))
      return false;
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (mayTouchSharedMemory(Call, Ctx.getSourceManager()))
        return false;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
      if (DRE->getDecl() == Array) {
        const ArrayUse *Use = nullptr;
        for (const ArrayUse &U : Uses)
          if (U.Ref == DRE)
            Use = &U;
        if (!Use || !Use->IsAccess)
          return false;
        if (!Allowed.count(Use->Access) &&
            !(AllowLoads && Use->Kind == ArrayUse::Load))
          return false;
      }
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      if (V && Vars.count(V) && classifyVarUse(Ctx, DRE) != VarUse::Read)
        return false;
    }
    for (const Stmt *Child : S->children())
      if (!clean(Child, Branches))
        return false;
    return true;
  }

  ASTContext &Ctx;
  const VarDecl *Array;
  ArrayRef<ArrayUse> Uses;
  const llvm::SmallPtrSetImpl<const VarDecl *> &Vars;
  const llvm::SmallPtrSetImpl<const Expr *> &Allowed;
  bool AllowLoads, AllowBranches;
};

void collectVars(const Stmt *S, llvm::SmallPtrSetImpl<const VarDecl *> &Out) {
  if (!S)
    return;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
      Out.insert(V);
  for (const Stmt *Child : S->children())
    collectVars(Child, Out);
}

/// The alignment nvcc gives \p Array in shared memory, in bytes.
int64_t sharedAlignment(ASTContext &Ctx, const VarDecl *Array, QualType Elem) {
  int64_t Align = Ctx.getTypeAlignInChars(Elem).getQuantity();
  Align = std::max<int64_t>(Align, Array->getMaxAlignment() / 8);
  if (Array->hasExternalStorage())
    Align = std::max<int64_t>(Align, 16);
  return Align;
}

} // namespace

SmallVector<IssuedAccess, 4>
issuedAccesses(ASTContext &Ctx, const VarDecl *Array, ArrayRef<ArrayUse> Uses,
               ArrayRef<std::optional<IndexPoly>> Addresses, int64_t ElemSize) {
  SmallVector<IssuedAccess, 4> Issued(Uses.size());
  // A pointer into the array may alias anything: keep every access.
  if (llvm::any_of(Uses, [](const ArrayUse &U) { return !U.IsAccess; }))
    return Issued;
  QualType Elem = Array->getType();
  while (const ArrayType *AT = Ctx.getAsArrayType(Elem))
    Elem = AT->getElementType();
  int64_t Align = sharedAlignment(Ctx, Array, Elem);
  auto Candidate = [&](unsigned I, ArrayUse::AccessKind Kind) {
    const ArrayUse &U = Uses[I];
    return U.IsAccess && U.Straight && U.Kind == Kind && Addresses[I] &&
           U.MemberOffset == 0 && U.AccessSize == ElemSize;
  };
  auto Split = [&](unsigned I) {
    IndexPoly P = *Addresses[I];
    int64_t C = 0;
    for (const auto &[M, K] : P.terms())
      if (M.empty())
        C = K;
    return std::make_pair(P - IndexPoly::constant(C), C);
  };
  auto Before = [&](unsigned A, unsigned B) {
    return Uses[A].StmtIndex < Uses[B].StmtIndex ||
           (Uses[A].StmtIndex == Uses[B].StmtIndex && A < B);
  };
  auto SubscriptVars = [&](ArrayRef<unsigned> Members) {
    llvm::SmallPtrSet<const VarDecl *, 8> Vars;
    for (unsigned M : Members)
      for (const Expr *Sub : Uses[M].Subscripts)
        collectVars(Sub, Vars);
    return Vars;
  };

  // Loads of an element that an earlier load in straight-line code read,
  // or an earlier store wrote: the earlier access runs whenever its
  // statement in some block B does, and the load is in that statement
  // (after it) or in a later statement of B, nested anywhere.
  for (unsigned I = 0; I < Uses.size(); ++I) {
    const ArrayUse &Load = Uses[I];
    if (!Load.IsAccess || Load.Kind != ArrayUse::Load || !Addresses[I] ||
        Load.MemberOffset != 0 || Load.AccessSize != ElemSize)
      continue;
    for (unsigned J = 0; J < I; ++J) {
      if (!(Candidate(J, ArrayUse::Load) || Candidate(J, ArrayUse::Store)) ||
          Issued[J].Kind == IssuedAccess::Reused ||
          *Addresses[J] != *Addresses[I])
        continue;
      auto Where = llvm::find_if(
          Load.Blocks, [&](const auto &B) { return B.first == Uses[J].Block; });
      // A store is seen by loads of later statements only (`s[i] = s[i] +
      // 1` loads first).
      if (Where == Load.Blocks.end() || Where->second < Uses[J].StmtIndex ||
          (Uses[J].Kind == ArrayUse::Store &&
           Where->second == Uses[J].StmtIndex))
        continue;
      auto Vars = SubscriptVars({I, J});
      llvm::SmallPtrSet<const Expr *, 4> Allowed;
      Allowed.insert(Uses[J].Access);
      Allowed.insert(Load.Access);
      SpanCheck Span(Ctx, Array, Uses, Vars, Allowed, /*AllowLoads=*/true,
                     /*AllowBranches=*/true);
      if (Span.keeps(Uses[J].Block, Uses[J].StmtIndex, Where->second)) {
        Issued[I].Kind = IssuedAccess::Reused;
        break;
      }
    }
  }

  // Adjacent elements of one thread merged into a vector access.
  for (unsigned Width : {4u, 2u}) {
    if (!llvm::is_contained({8, 16}, Width * ElemSize) ||
        Align < static_cast<int64_t>(Width) * ElemSize)
      continue;
    for (unsigned Head = 0; Head < Uses.size(); ++Head) {
      for (ArrayUse::AccessKind Kind : {ArrayUse::Load, ArrayUse::Store}) {
        if (!Candidate(Head, Kind) || Issued[Head].Kind != IssuedAccess::Own)
          continue;
        auto [P, C0] = Split(Head);
        if (positiveMod(C0, Width) != 0 ||
            llvm::any_of(P.terms(), [&](const auto &T) {
              return positiveMod(T.second, Width) != 0;
            }))
          continue;
        SmallVector<unsigned, 4> Members = {Head};
        for (unsigned K = 1; K < Width; ++K) {
          for (unsigned J = 0; J < Uses.size(); ++J) {
            if (J == Head || !Candidate(J, Kind) ||
                Issued[J].Kind != IssuedAccess::Own ||
                Uses[J].Block != Uses[Head].Block)
              continue;
            auto [PJ, CJ] = Split(J);
            if (PJ == P && CJ == C0 + K) {
              Members.push_back(J);
              break;
            }
          }
        }
        if (Members.size() != Width)
          continue;
        unsigned First = Uses[Head].StmtIndex, Last = First;
        llvm::SmallPtrSet<const Expr *, 4> Allowed;
        for (unsigned M : Members) {
          First = std::min(First, Uses[M].StmtIndex);
          Last = std::max(Last, Uses[M].StmtIndex);
          Allowed.insert(Uses[M].Access);
        }
        auto Vars = SubscriptVars(Members);
        SpanCheck Span(Ctx, Array, Uses, Vars, Allowed,
                       /*AllowLoads=*/Kind == ArrayUse::Load,
                       /*AllowBranches=*/false);
        if (!Span.keeps(Uses[Head].Block, First, Last))
          continue;
        Issued[Head] = {IssuedAccess::Vector, Width};
        for (unsigned M : Members)
          if (M != Head)
            Issued[M].Kind = IssuedAccess::InVector;
      }
    }
  }
  return Issued;
}

} // namespace clang::tidy::cuda::banks
