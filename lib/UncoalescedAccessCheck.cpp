//===--- UncoalescedAccessCheck.cpp - cuda-lint ---------------------------===//
//
// OpenCL best-practices guide for CUDA GPUs, 3.2.1 "Coalesced Access to
// Global Memory" and 3.2.1.4 "Strided Accesses": when consecutive threads
// access addresses a stride apart, a warp's request is served by many
// 32-byte sectors and most of the bandwidth is wasted.
//
//===----------------------------------------------------------------------===//

#include "UncoalescedAccessCheck.h"
#include "cudalint/DeviceCode.h"
#include "cudalint/ThreadIndex.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MathExtras.h"
#include <set>
#include <vector>

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

namespace {

enum class AccessKind { Load, Store, LoadStore };

// How the subscript is used: read, written, both; nullopt for anything else
// (its address taken, a member of a struct element, bound to a reference).
std::optional<AccessKind> accessKind(ASTContext &Ctx, const Expr *Access) {
  const Expr *Cur = Access;
  DynTypedNodeList Parents = Ctx.getParents(*Cur);
  while (!Parents.empty() && Parents[0].get<ParenExpr>()) {
    Cur = Parents[0].get<ParenExpr>();
    Parents = Ctx.getParents(*Cur);
  }
  if (Parents.empty())
    return std::nullopt;
  if (const auto *Cast = Parents[0].get<ImplicitCastExpr>())
    if (Cast->getCastKind() == CK_LValueToRValue)
      return AccessKind::Load;
  if (const auto *BO = Parents[0].get<BinaryOperator>())
    if (BO->isAssignmentOp() && BO->getLHS()->IgnoreParens() == Access)
      return BO->getOpcode() == BO_Assign ? AccessKind::Store
                                          : AccessKind::LoadStore;
  if (const auto *UO = Parents[0].get<UnaryOperator>())
    if (UO->isIncrementDecrementOp())
      return AccessKind::LoadStore;
  // Elements of class type (float4, int2): `a[i] = make_float4(...)`
  // and copies out of `a[i]`.
  if (const auto *Op = Parents[0].get<CXXOperatorCallExpr>())
    if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2 &&
        Op->getArg(0)->IgnoreParens() == Cur)
      return AccessKind::Store;
  // The right side of a copy assignment `o[i] = a[j]` reads the element.
  auto IsCopiedFrom = [](const CXXOperatorCallExpr *Op, const Expr *E) {
    return Op->getOperator() == OO_Equal && Op->getNumArgs() == 2 &&
           Op->getArg(1)->IgnoreParens() == E;
  };
  if (const auto *Op = Parents[0].get<CXXOperatorCallExpr>())
    if (IsCopiedFrom(Op, Cur))
      return AccessKind::Load;
  if (const auto *Cast = Parents[0].get<ImplicitCastExpr>())
    if (Cast->getCastKind() == CK_NoOp) {
      DynTypedNodeList Up = Ctx.getParents(*Cast);
      if (!Up.empty()) {
        if (const auto *Construct = Up[0].get<CXXConstructExpr>())
          if (Construct->getConstructor()->isCopyOrMoveConstructor())
            return AccessKind::Load;
        if (const auto *Op = Up[0].get<CXXOperatorCallExpr>())
          if (IsCopiedFrom(Op, Cast))
            return AccessKind::Load;
      }
    }
  if (const auto *Construct = Parents[0].get<CXXConstructExpr>())
    if (Construct->getConstructor()->isCopyOrMoveConstructor())
      return AccessKind::Load;
  return std::nullopt;
}

// Follows a pointer back to a pointer parameter of the kernel, adding up the
// offsets on the way (`float *row = in + y * width;`): the parameter and the
// offset expressions, or null when the pointer is anything else.
const ParmVarDecl *globalPointer(const Expr *E, const FunctionDecl *Kernel,
                                 ThreadIndexAnalysis &TIA,
                                 SmallVectorImpl<const Expr *> &Offsets,
                                 unsigned Depth = 0) {
  if (Depth > 8)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_Add) {
      bool LHSPtr = BO->getLHS()->getType()->isPointerType();
      Offsets.push_back(LHSPtr ? BO->getRHS() : BO->getLHS());
      return globalPointer(LHSPtr ? BO->getLHS() : BO->getRHS(), Kernel, TIA,
                           Offsets, Depth + 1);
    }
    return nullptr;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() != UO_AddrOf)
      return nullptr;
    const auto *ASE =
        dyn_cast<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens());
    if (!ASE)
      return nullptr;
    Offsets.push_back(ASE->getIdx());
    return globalPointer(ASE->getBase(), Kernel, TIA, Offsets, Depth + 1);
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  if (!DRE)
    return nullptr;
  const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
  if (!V || !V->getType()->isPointerType())
    return nullptr;
  if (const auto *P = dyn_cast<ParmVarDecl>(V))
    return P->getDeclContext() == Kernel && TIA.isUnmodified(P) ? P : nullptr;
  if (V->getDeclContext() != Kernel || V->hasAttr<CUDASharedAttr>())
    return nullptr;
  const Expr *Def = TIA.singleDefinition(V);
  return Def ? globalPointer(Def, Kernel, TIA, Offsets, Depth + 1) : nullptr;
}

// True when the kernel only reads through \p P: a `const` pointee, or no
// store, call argument or dereference goes through a pointer derived from it.
bool isReadOnly(ASTContext &Ctx, const ParmVarDecl *P,
                const FunctionDecl *Kernel, ThreadIndexAnalysis &TIA) {
  if (P->getType()->getPointeeType().isConstQualified())
    return true;
  auto DerivesFromP = [&](const Expr *E) {
    SmallVector<const Expr *, 2> Offsets;
    return globalPointer(E, Kernel, TIA, Offsets) == P;
  };
  const Stmt &Body = *Kernel->getBody();
  for (const auto &Node :
       match(findAll(arraySubscriptExpr().bind("e")), Body, Ctx)) {
    const auto *ASE = Node.getNodeAs<ArraySubscriptExpr>("e");
    if (DerivesFromP(ASE->getBase()) &&
        accessKind(Ctx, ASE) != AccessKind::Load)
      return false;
  }
  for (const auto &Node :
       match(findAll(unaryOperator(hasOperatorName("*")).bind("e")), Body, Ctx))
    if (DerivesFromP(Node.getNodeAs<UnaryOperator>("e")->getSubExpr()))
      return false;
  for (const auto &Node : match(findAll(callExpr().bind("e")), Body, Ctx))
    for (const Expr *Arg : Node.getNodeAs<CallExpr>("e")->arguments())
      if (Arg->getType()->isPointerType() && DerivesFromP(Arg))
        return false;
  // A local pointer made from P that is then changed: its uses could not be
  // followed above.
  for (const auto &Node :
       match(findAll(varDecl(hasInitializer(
                                 hasDescendant(declRefExpr(to(equalsNode(P))))))
                         .bind("v")),
             Body, Ctx)) {
    const auto *V = Node.getNodeAs<VarDecl>("v");
    if (V->getType()->isPointerType() && !TIA.singleDefinition(V))
      return false;
  }
  return true;
}

// A run-time width worth reporting: made of the kernel's parameters and the
// launch shape only (not of loop counters or block indices, which can be 0
// or 1).
bool isRunTimeWidth(const IndexPoly &P) {
  for (const auto &Entry : P.terms()) {
    if (Entry.second < 0)
      return false;
    for (const IndexSymbol &S : Entry.first) {
      if (S.Kind == IndexSymbol::BlockDim || S.Kind == IndexSymbol::GridDim)
        continue;
      if (S.Kind == IndexSymbol::Variable && isa<ParmVarDecl>(S.getDecl()))
        continue;
      return false;
    }
  }
  return !P.isZero();
}

// The 32-byte sectors that one warp request touches when lane i (0 to 31)
// accesses the ElemSize bytes at byte i * StrideBytes, lane 0 at the start of
// a sector.
int64_t sectorsTouched(int64_t StrideBytes, int64_t ElemSize,
                       int64_t Offset = 0) {
  llvm::DenseSet<int64_t> Sectors;
  for (int64_t Lane = 0; Lane < 32; ++Lane) {
    int64_t Start = Offset + Lane * StrideBytes;
    for (int64_t S = Start / 32; S <= (Start + ElemSize - 1) / 32; ++S)
      Sectors.insert(S);
  }
  return Sectors.size();
}

} // namespace

UncoalescedAccessCheck::UncoalescedAccessCheck(StringRef Name,
                                               ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      MinStride(Options.get("MinStride", int64_t(2))),
      MostlyReadPercent(Options.get("MostlyReadPercent", int64_t(75))),
      ReportWholeRecords(Options.get("ReportWholeRecords", false)) {}

void UncoalescedAccessCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "MinStride", MinStride);
  Options.store(Opts, "MostlyReadPercent", MostlyReadPercent);
  Options.store(Opts, "ReportWholeRecords", ReportWholeRecords);
}

void UncoalescedAccessCheck::registerMatchers(MatchFinder *Finder) {
  limitParentMapToUserCode(Finder);
  Finder->addMatcher(
      arraySubscriptExpr(
          hasAncestor(functionDecl(matchers::isCudaKernel(), hasBody(stmt()))
                          .bind("kernel")))
          .bind("access"),
      this);
  // `*(p + i)`, and a member of an element: `p[i].x`, `(p + i)->x`.
  Finder->addMatcher(
      unaryOperator(
          hasOperatorName("*"),
          hasAncestor(functionDecl(matchers::isCudaKernel(), hasBody(stmt()))
                          .bind("kernel")))
          .bind("deref"),
      this);
  Finder->addMatcher(
      memberExpr(
          hasAncestor(functionDecl(matchers::isCudaKernel(), hasBody(stmt()))
                          .bind("kernel")))
          .bind("member"),
      this);
}

namespace {

// One access to global memory through a pointer parameter of the kernel.
struct AccessInfo {
  AccessKind Kind;
  const ParmVarDecl *Param = nullptr;
  int64_t ElemSize = 0, AccessSize = 0;
  IndexForm Index;
};

// What \p Access (with the pointer \p BasePtr it goes through, its subscript
// \p Idx, and for a member of an element the member \p Member at byte
// \p Offset of the element) reads or writes, or nullopt when it is not an
// access this check analyses.
std::optional<AccessInfo>
describeAccess(ASTContext &Ctx, const FunctionDecl *Kernel, const Expr *Access,
               const Expr *BasePtr, const Expr *Idx, const FieldDecl *Member,
               ThreadIndexAnalysis &TIA) {
  if (Kernel->isDependentContext() ||
      enclosingFunction(Ctx, *Access) != Kernel ||
      !BasePtr->getType()->isPointerType())
    return std::nullopt;
  std::optional<AccessKind> Kind = accessKind(Ctx, Access);
  if (!Kind)
    return std::nullopt;
  // The element the index counts, and the bytes the access reads.
  QualType ElemType = BasePtr->getType()->getPointeeType();
  QualType AccessType = Access->getType();
  if (ElemType->isIncompleteType() || ElemType->isDependentType() ||
      ElemType->isArrayType() || AccessType->isIncompleteType() ||
      AccessType->isDependentType() || AccessType->isArrayType())
    return std::nullopt;
  AccessInfo Info;
  Info.Kind = *Kind;
  Info.ElemSize = Ctx.getTypeSizeInChars(ElemType).getQuantity();
  Info.AccessSize = Ctx.getTypeSizeInChars(AccessType).getQuantity();
  // A struct the compiler may load whole with one vector instruction when
  // several members are read (float4, int2): not reported by member.
  if (Member && Info.ElemSize <= 16 && llvm::isPowerOf2_64(Info.ElemSize) &&
      Ctx.getTypeAlignInChars(ElemType).getQuantity() == Info.ElemSize)
    return std::nullopt;
  if (Info.ElemSize <= 0 || Info.ElemSize > 32 || Info.AccessSize <= 0 ||
      Info.AccessSize > Info.ElemSize)
    return std::nullopt;

  SmallVector<const Expr *, 2> Offsets;
  Info.Param = globalPointer(BasePtr, Kernel, TIA, Offsets);
  if (!Info.Param)
    return std::nullopt;
  IndexForm &Index = Info.Index;
  Index.Poly = IndexPoly();
  Index.MayDependOnThread = false;
  if (Idx)
    Index = TIA.analyze(Idx);
  for (const Expr *Off : Offsets) {
    IndexForm F = TIA.analyze(Off);
    if (!F.Poly || !Index.Poly)
      return std::nullopt;
    Index.Poly = *Index.Poly + *F.Poly;
    Index.Definitions.append(F.Definitions.begin(), F.Definitions.end());
  }
  return Info;
}

// The pointer and subscript of `p[i]` and `*(p + i)`; false for anything
// else.
bool elementAccess(const Expr *E, const Expr *&BasePtr, const Expr *&Idx) {
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    BasePtr = ASE->getBase();
    Idx = ASE->getIdx();
    return true;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_Deref) {
    BasePtr = UO->getSubExpr();
    Idx = nullptr;
    return true;
  }
  return false;
}

} // namespace

namespace {

/// The pointer, subscript and field of a member of an element: `p[i].x`,
/// `(p + i)->x`, `(*p).x`; false for anything else.
bool memberAccess(const MemberExpr *ME, const Expr *&BasePtr, const Expr *&Idx,
                  const FieldDecl *&Member) {
  Member = dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (!Member || Member->isBitField())
    return false;
  const Expr *Base = ME->getBase()->IgnoreParens();
  Idx = nullptr;
  if (ME->isArrow()) {
    BasePtr = Base;
    return true;
  }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(Base)) {
    BasePtr = ASE->getBase();
    Idx = ASE->getIdx();
    return true;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(Base);
      UO && UO->getOpcode() == UO_Deref) {
    BasePtr = UO->getSubExpr();
    return true;
  }
  return false;
}

/// The values [Lo, Hi) that \p V takes in a `for` loop around \p E with
/// constant bounds and a unit step (`for (k = 0; k < 4; ++k)`) that
/// changes \p V only in its increment; nullopt otherwise.
std::optional<std::pair<int64_t, int64_t>>
constantCounterRange(ASTContext &Ctx, const Expr *E, const ValueDecl *V) {
  const auto *VD = dyn_cast_or_null<VarDecl>(V);
  if (!VD || !VD->hasLocalStorage() || !VD->getType()->isIntegerType())
    return std::nullopt;
  auto IsV = [&](const Expr *X) {
    const auto *DRE =
        dyn_cast_or_null<DeclRefExpr>(X ? X->IgnoreParenImpCasts() : nullptr);
    return DRE && DRE->getDecl() == VD;
  };
  auto Const = [&](const Expr *X) -> std::optional<int64_t> {
    if (!X || X->isValueDependent())
      return std::nullopt;
    std::optional<llvm::APSInt> C = X->getIntegerConstantExpr(Ctx);
    if (!C || C->getSignificantBits() > 32)
      return std::nullopt;
    return C->getExtValue();
  };
  DynTypedNode Node = DynTypedNode::create(*E);
  for (unsigned Depth = 0; Depth < 64; ++Depth) {
    DynTypedNodeList Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return std::nullopt;
    Node = Parents[0];
    const auto *For = Node.get<ForStmt>();
    if (!For)
      continue;
    // The start: `int k = 0` or `k = 0`.
    std::optional<int64_t> Lo;
    if (const auto *DS = dyn_cast_or_null<DeclStmt>(For->getInit());
        DS && DS->isSingleDecl() && DS->getSingleDecl() == VD)
      Lo = Const(VD->getInit());
    else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(For->getInit());
             BO && BO->getOpcode() == BO_Assign && IsV(BO->getLHS()))
      Lo = Const(BO->getRHS());
    else
      continue;
    const auto *Cond = dyn_cast_or_null<BinaryOperator>(
        For->getCond() ? For->getCond()->IgnoreParenImpCasts() : nullptr);
    if (!Lo || !Cond || !IsV(Cond->getLHS()) ||
        (Cond->getOpcode() != BO_LT && Cond->getOpcode() != BO_LE))
      return std::nullopt;
    std::optional<int64_t> Hi = Const(Cond->getRHS());
    if (!Hi)
      return std::nullopt;
    if (Cond->getOpcode() == BO_LE)
      ++*Hi;
    const Expr *Inc = For->getInc() ? For->getInc()->IgnoreParens() : nullptr;
    const auto *UO = dyn_cast_or_null<UnaryOperator>(Inc);
    const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(Inc);
    bool UnitStep = (UO && UO->isIncrementOp() && IsV(UO->getSubExpr())) ||
                    (CA && CA->getOpcode() == BO_AddAssign &&
                     IsV(CA->getLHS()) && Const(CA->getRHS()) == 1);
    if (!UnitStep || *Hi <= *Lo || *Hi - *Lo > 64)
      return std::nullopt;
    // Changed nowhere in the body.
    auto Writes = match(
        findAll(stmt(anyOf(
            binaryOperator(isAssignmentOperator(),
                           hasLHS(ignoringParenImpCasts(
                               declRefExpr(to(varDecl(equalsNode(VD))))))),
            unaryOperator(hasAnyOperatorName("++", "--", "&"),
                          hasUnaryOperand(ignoringParenImpCasts(
                              declRefExpr(to(varDecl(equalsNode(VD)))))))))),
        *For->getBody(), Ctx);
    if (!Writes.empty())
      return std::nullopt;
    return std::make_pair(*Lo, *Hi);
  }
  return std::nullopt;
}

} // namespace

const llvm::DenseMap<const Expr *, UncoalescedAccessCheck::RecordRead> &
UncoalescedAccessCheck::recordLoads(ASTContext &Ctx, const FunctionDecl *Kernel,
                                    ThreadIndexAnalysis &TIA) {
  auto [It, Inserted] = WholeRecords.try_emplace(Kernel);
  llvm::DenseMap<const Expr *, RecordRead> &Result = It->second;
  if (!Inserted)
    return Result;
  // The reads (`p[i]`, `*(p + i)`, `p[i].x`, `(p + i)->x`) whose lane
  // stride S (in elements) is a constant, grouped by pointer parameter,
  // element size, S and the non-constant part of the index: one record of
  // S elements per thread. The bytes of the record that each group's reads
  // cover.
  struct Group {
    const ParmVarDecl *Param;
    int64_t ElemSize, Stride;
    IndexPoly Rest;
    std::set<int64_t> Residues;
    std::vector<bool> Covered;          ///< Per byte of the record.
    SmallVector<const Expr *, 4> Loads; ///< The pure loads of the group.
  };
  std::vector<Group> Groups;
  const Stmt &Body = *Kernel->getBody();
  auto Visit = [&](const Expr *E, const Expr *BasePtr, const Expr *Idx,
                   const FieldDecl *Member) {
    std::optional<AccessInfo> Info =
        describeAccess(Ctx, Kernel, E, BasePtr, Idx, Member, TIA);
    // Reads only: `a[i] += v` reads too, plain stores do not.
    if (!Info || Info->Kind == AccessKind::Store || !Info->Index.Poly)
      return;
    LaneStride Stride = TIA.laneStride(Info->Index);
    if (!Stride.isConstant())
      return;
    int64_t S = Stride.Value < 0 ? -Stride.Value : Stride.Value;
    if (S < 1 || S * Info->ElemSize > 4096)
      return;
    const IndexPoly &Poly = *Info->Index.Poly;
    int64_t C = 0;
    auto ConstTerm = Poly.terms().find(IndexPoly::Monomial());
    if (ConstTerm != Poly.terms().end())
      C = ConstTerm->second;
    IndexPoly Rest = Poly - IndexPoly::constant(C);
    // A counter of a constant-trip loop around the read stands for the
    // offsets it takes (`rec[4 * i + k]`, k = 0..3: all four residues).
    int64_t KCoeff = 0;
    std::pair<int64_t, int64_t> KRange{0, 1};
    for (const auto &[M, Coeff] : Rest.terms()) {
      if (M.size() != 1)
        continue;
      // A counter declared before its loop is an opaque uniform value.
      const ValueDecl *Counter = M[0].getDecl();
      if (const auto *Ref = dyn_cast_or_null<DeclRefExpr>(
              M[0].Kind == IndexSymbol::Opaque ? M[0].getExpr() : nullptr))
        Counter = Ref->getDecl();
      if (std::optional<std::pair<int64_t, int64_t>> R =
              constantCounterRange(Ctx, E, Counter)) {
        KCoeff = Coeff;
        KRange = *R;
        Rest = Rest - IndexPoly::symbol(M[0]) * Coeff;
        break;
      }
    }
    auto G = llvm::find_if(Groups, [&](const Group &G) {
      return G.Param == Info->Param && G.ElemSize == Info->ElemSize &&
             G.Stride == S && G.Rest == Rest;
    });
    if (G == Groups.end()) {
      Groups.push_back({Info->Param, Info->ElemSize, S, Rest, {}, {}, {}});
      G = std::prev(Groups.end());
      G->Covered.assign(S * Info->ElemSize, false);
    }
    int64_t Offset =
        Member
            ? Ctx.toCharUnitsFromBits(Ctx.getFieldOffset(Member)).getQuantity()
            : 0;
    int64_t RecordBytes = S * Info->ElemSize;
    for (int64_t K = KRange.first; K < KRange.second; ++K) {
      int64_t Residue = (((C + KCoeff * K) % S) + S) % S;
      if (!Member)
        G->Residues.insert(Residue);
      for (int64_t B = 0; B < Info->AccessSize; ++B)
        G->Covered[(Residue * Info->ElemSize + Offset + B) % RecordBytes] =
            true;
    }
    if (Info->Kind == AccessKind::Load)
      G->Loads.push_back(E);
  };
  for (const auto &Node :
       match(findAll(arraySubscriptExpr().bind("e")), Body, Ctx)) {
    const auto *E = Node.getNodeAs<Expr>("e");
    const Expr *BasePtr = nullptr, *Idx = nullptr;
    if (elementAccess(E, BasePtr, Idx))
      Visit(E, BasePtr, Idx, nullptr);
  }
  for (const auto &Node : match(
           findAll(unaryOperator(hasOperatorName("*")).bind("e")), Body, Ctx)) {
    const auto *E = Node.getNodeAs<Expr>("e");
    const Expr *BasePtr = nullptr, *Idx = nullptr;
    if (elementAccess(E, BasePtr, Idx))
      Visit(E, BasePtr, Idx, nullptr);
  }
  for (const auto &Node : match(findAll(memberExpr().bind("e")), Body, Ctx)) {
    const auto *ME = Node.getNodeAs<MemberExpr>("e");
    const Expr *BasePtr = nullptr, *Idx = nullptr;
    const FieldDecl *Member = nullptr;
    if (memberAccess(ME, BasePtr, Idx, Member))
      Visit(ME, BasePtr, Idx, Member);
  }
  for (const Group &G : Groups) {
    int64_t Bytes = llvm::count(G.Covered, true);
    int64_t RecordBytes = static_cast<int64_t>(G.Covered.size());
    // Mostly read: at least MostlyReadPercent of each record's bytes.
    if (Bytes * 100 < MostlyReadPercent * RecordBytes)
      continue;
    bool WholeElements = static_cast<int64_t>(G.Residues.size()) == G.Stride;
    for (const Expr *E : G.Loads)
      Result[E] = RecordRead{G.Stride, Bytes, RecordBytes,
                             WholeElements && Bytes == RecordBytes};
  }
  return Result;
}

void UncoalescedAccessCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Kernel = Result.Nodes.getNodeAs<FunctionDecl>("kernel");
  ASTContext &Ctx = *Result.Context;
  // The access, the pointer it goes through and its subscript (none for
  // `*p`); for a member of an element, the member's place in the element.
  const Expr *Access = nullptr, *BasePtr = nullptr, *Idx = nullptr;
  const FieldDecl *Member = nullptr;
  if (const auto *ASE = Result.Nodes.getNodeAs<ArraySubscriptExpr>("access")) {
    Access = ASE;
    elementAccess(ASE, BasePtr, Idx);
  } else if (const auto *UO = Result.Nodes.getNodeAs<UnaryOperator>("deref")) {
    Access = UO;
    elementAccess(UO, BasePtr, Idx);
  } else if (const auto *ME = Result.Nodes.getNodeAs<MemberExpr>("member")) {
    if (!memberAccess(ME, BasePtr, Idx, Member))
      return;
    Access = ME;
  }
  if (!Access || Kernel->isDependentContext())
    return;
  // Every launch the translation unit has of the kernel is one thread wide
  // (`<<<rows, 1>>>`): each warp holds one thread of a block, and there is
  // no neighbour to coalesce with.
  if (!Launches)
    Launches = std::make_unique<KernelLaunches>(Ctx);
  if (std::optional<int64_t> X = Launches->onlyX(Kernel); X && *X == 1)
    return;
  std::unique_ptr<ThreadIndexAnalysis> &Slot = Analyses[Kernel];
  if (!Slot)
    Slot = std::make_unique<ThreadIndexAnalysis>(Ctx, Kernel);
  ThreadIndexAnalysis &TIA = *Slot;
  std::optional<AccessInfo> Info =
      describeAccess(Ctx, Kernel, Access, BasePtr, Idx, Member, TIA);
  if (!Info)
    return;
  AccessKind Kind = Info->Kind;
  const ParmVarDecl *Param = Info->Param;
  const IndexForm &Index = Info->Index;
  int64_t ElemSize = Info->ElemSize, AccessSize = Info->AccessSize;
  int64_t Offset =
      Member ? Ctx.toCharUnitsFromBits(Ctx.getFieldOffset(Member)).getQuantity()
             : 0;
  LaneStride Stride = TIA.laneStride(Index);
  std::string StrideText;
  int64_t Sectors;
  if (Stride.isConstant()) {
    int64_t S = Stride.Value < 0 ? -Stride.Value : Stride.Value;
    // Elements: at least MinStride apart. Members: their bytes at least
    // MinStride times their size apart.
    if (S == 0 || S * ElemSize < std::max<int64_t>(MinStride, 2) * AccessSize)
      return;
    StrideText =
        Member ? std::to_string(S * ElemSize) + " bytes" : std::to_string(S);
    Sectors = sectorsTouched(S * ElemSize, AccessSize, Offset);
  } else if (Stride.isSymbolic() && isRunTimeWidth(Stride.Symbols)) {
    StrideText = "'" + Stride.Symbols.str() + "'";
    if (Member)
      StrideText += " elements of " + std::to_string(ElemSize) + " bytes";
    // At worst every lane has sectors of its own: one for an access whose
    // power-of-two size and alignment keep it inside a sector, two for one
    // that may straddle a sector boundary.
    bool Inside = llvm::isPowerOf2_64(AccessSize) && AccessSize <= 32 &&
                  Offset % AccessSize == 0 && ElemSize % AccessSize == 0;
    Sectors = 32 * (Inside ? 1 : 2);
  } else {
    return;
  }
  // Consecutive threads reading consecutive elements (for a member: the
  // members laid out as an array of their own).
  int64_t Coalesced = sectorsTouched(AccessSize, AccessSize);
  // Elements of 32 bytes fill whole sectors whatever the stride.
  if (Sectors <= Coalesced)
    return;
  // A field the same thread already loaded: the same bytes through the
  // same pointer and index, read again (the compiler keeps the value in a
  // register, or L1 serves it). The first read carries the finding.
  if (Kind == AccessKind::Load && Index.Poly) {
    auto &Seen = LoadsSeen[Kernel];
    auto Same = llvm::find_if(Seen, [&](const SeenLoad &L) {
      return L.Param == Param && L.Index == *Index.Poly && L.Offset == Offset &&
             L.Size == AccessSize && L.ElemSize == ElemSize &&
             L.Access != Access;
    });
    if (Same != Seen.end())
      return;
    Seen.push_back({Param, *Index.Poly, Offset, AccessSize, ElemSize, Access});
  }
  // Each thread reads most of its record of S elements (the bytes its reads
  // cover, through the same pointer with the same non-constant part of the
  // index): the sectors the first read fetches serve the others from L1,
  // so DRAM traffic is close to that of the coalesced layout.
  std::optional<RecordRead> Record;
  if (Stride.isConstant() && Kind == AccessKind::Load) {
    const auto &Records = recordLoads(Ctx, Kernel, TIA);
    auto It = Records.find(Access);
    if (It != Records.end()) {
      if (!ReportWholeRecords)
        return;
      Record = It->second;
    }
  }

  SourceLocation Loc = Access->getBeginLoc();
  if (!Reported.insert(Loc).second)
    return;
  static const char *const KindNames[] = {"load from", "store to",
                                          "load from and store to"};
  diag(Loc, "uncoalesced %0 global memory: consecutive threads access "
            "%select{elements|member '%6'}5 %1 apart, so a warp "
            "request touches %select{|up to }2%3 32-byte sectors instead of %4")
      << KindNames[static_cast<int>(Kind)] << StrideText << !Stride.isConstant()
      << Sectors << Coalesced << (Member != nullptr)
      << (Member ? Member->getName() : StringRef()) << Access->getSourceRange();
  for (const IndexDefinition &D : Index.Definitions) {
    if (isa<ParmVarDecl>(D.Var))
      continue;
    // Only the definitions that carry threadIdx.x.
    LaneStride Own = TIA.laneStride(D.Value);
    if (Own.isConstant() && Own.Value == 0)
      continue;
    diag(D.Loc, "index '%0' is computed here", DiagnosticIDs::Note)
        << D.Var->getName();
  }
  if (Record && Record->Whole)
    diag(Loc,
         "each thread reads all %0 elements of its record, so the sectors "
         "fetched are used in full: the cost is in L1 requests, not DRAM "
         "traffic",
         DiagnosticIDs::Note)
        << static_cast<int>(Record->Stride);
  else if (Record)
    diag(Loc,
         "each thread reads %0 of the %1 bytes of its record, so most of "
         "each sector fetched is used: the cost is in L1 requests, not DRAM "
         "traffic",
         DiagnosticIDs::Note)
        << static_cast<int>(Record->Bytes)
        << static_cast<int>(Record->RecordBytes);
  if (Kind == AccessKind::Load && isReadOnly(Ctx, Param, Kernel, TIA))
    diag(Loc,
         "'%0' is only read: load it with consecutive threads reading "
         "consecutive elements into a __shared__ tile, then read the tile",
         DiagnosticIDs::Note)
        << Param->getName();
}

void UncoalescedAccessCheck::onEndOfTranslationUnit() {
  WholeRecords.clear();
  LoadsSeen.clear();
  Analyses.clear();
  Reported.clear();
  Launches.reset();
}

} // namespace clang::tidy::cuda
