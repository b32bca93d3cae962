//===--- SharedBankConflictCheck.cpp - cuda-lint --------------------------===//
//
// OpenCL best-practices guide for CUDA GPUs, 3.2.2.1 "Shared Memory and
// Memory Banks" and 3.2.2.3 "Shared Memory in Matrix Multiplication
// (C = AA^T)": a tile read column-wise puts a warp's 32 threads in one bank;
// padding each row by one element (`[TILE_DIM][TILE_DIM + 1]`) spreads them
// over all banks.
//
//===----------------------------------------------------------------------===//

#include "SharedBankConflictCheck.h"
#include "cudalint/DeviceCode.h"
#include "cudalint/ThreadIndex.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/TypeLoc.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"
#include <numeric>

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

namespace {

struct BlockShape {
  int64_t X = 32, Y = 1, Z = 1;
};

//===--- The block shape of a kernel, from its launches ------------------===//

std::optional<BlockShape> evalDim3(ASTContext &Ctx, const Expr *E,
                                   unsigned Depth = 0) {
  if (!E || Depth > 8)
    return std::nullopt;
  E = E->IgnoreImplicit()->IgnoreParenImpCasts();
  if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
    return evalDim3(Ctx, M->getSubExpr(), Depth + 1);
  if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
    return evalDim3(Ctx, B->getSubExpr(), Depth + 1);
  if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(E))
    return evalDim3(Ctx, F->getSubExpr(), Depth + 1);
  if (const auto *C = dyn_cast<CXXConstructExpr>(E)) {
    if (C->getNumArgs() == 1 && C->getArg(0)->getType()->getAsCXXRecordDecl() ==
                                    C->getType()->getAsCXXRecordDecl())
      return evalDim3(Ctx, C->getArg(0), Depth + 1);
    BlockShape S;
    int64_t *Fields[] = {&S.X, &S.Y, &S.Z};
    S.X = 1;
    for (unsigned I = 0; I < C->getNumArgs() && I < 3; ++I) {
      Expr::EvalResult R;
      const Expr *Arg = C->getArg(I);
      if (const auto *D = dyn_cast<CXXDefaultArgExpr>(Arg))
        Arg = D->getExpr();
      if (!Arg->getType()->isIntegralOrEnumerationType() ||
          !Arg->EvaluateAsInt(R, Ctx))
        return std::nullopt;
      *Fields[I] = R.Val.getInt().getExtValue();
    }
    return S;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V || !V->getInit())
      return std::nullopt;
    // Only a variable that nothing changes after its definition.
    const auto *Fn = dyn_cast<FunctionDecl>(V->getDeclContext());
    if (!Fn)
      return std::nullopt;
    ThreadIndexAnalysis Defs(Ctx, Fn);
    if (!Defs.isUnmodified(V))
      return std::nullopt;
    return evalDim3(Ctx, V->getInit(), Depth + 1);
  }
  Expr::EvalResult R;
  if (E->getType()->isIntegralOrEnumerationType() && E->EvaluateAsInt(R, Ctx))
    return BlockShape{R.Val.getInt().getExtValue(), 1, 1};
  return std::nullopt;
}

/// The functions with a body in \p DC and its namespaces.
void collectBodies(const SourceManager &SM, const DeclContext *DC,
                   SmallVectorImpl<const Stmt *> &Out) {
  for (const Decl *D : DC->decls()) {
    if (SM.isInSystemHeader(D->getLocation()))
      continue;
    if (const auto *FD = dyn_cast<FunctionDecl>(D)) {
      if (FD->hasBody() && FD->doesThisDeclarationHaveABody())
        Out.push_back(FD->getBody());
    } else if (const auto *NS = dyn_cast<NamespaceDecl>(D)) {
      collectBodies(SM, NS, Out);
    } else if (const auto *LS = dyn_cast<LinkageSpecDecl>(D)) {
      collectBodies(SM, LS, Out);
    }
  }
}

/// The block shape every launch of \p Kernel in this translation unit uses,
/// or nullopt when there is none or they differ.
std::optional<BlockShape> launchShape(ASTContext &Ctx,
                                      const FunctionDecl *Kernel) {
  SmallVector<const Stmt *, 16> Bodies;
  collectBodies(Ctx.getSourceManager(), Ctx.getTranslationUnitDecl(), Bodies);
  std::optional<BlockShape> Shape;
  for (const Stmt *Body : Bodies) {
    auto Launches = match(
        findAll(cudaKernelCallExpr(callee(functionDecl(equalsNode(Kernel))))
                    .bind("launch")),
        *Body, Ctx);
    for (const auto &Node : Launches) {
      const auto *Launch = Node.getNodeAs<CUDAKernelCallExpr>("launch");
      const CallExpr *Config = Launch->getConfig();
      if (!Config || Config->getNumArgs() < 2)
        return std::nullopt;
      std::optional<BlockShape> S = evalDim3(Ctx, Config->getArg(1));
      if (!S || S->X <= 0 || S->Y <= 0 || S->Z <= 0 ||
          S->X * S->Y * S->Z > 1024)
        return std::nullopt;
      if (Shape && (Shape->X != S->X || Shape->Y != S->Y || Shape->Z != S->Z))
        return std::nullopt;
      Shape = S;
    }
  }
  return Shape;
}

//===--- Bank conflict degree ---------------------------------------------===//

int64_t floorDiv(int64_t A, int64_t B) {
  return A >= 0 ? A / B : -((-A + B - 1) / B);
}
int64_t positiveMod(int64_t A, int64_t B) { return ((A % B) + B) % B; }

/// The address an access reads, in elements of the array: its thread part
/// as constant coefficients of threadIdx.{x,y,z}. Modulo terms `(e % M) * c`
/// are replaced by `e * c` when that moves the byte address by a multiple of
/// the bank period (`Banks * 4` bytes), which leaves every bank unchanged.
std::optional<std::array<int64_t, 3>>
threadCoefficients(ThreadIndexAnalysis &TIA, IndexPoly L, int64_t ElemSize,
                   int64_t Banks) {
  for (int Round = 0; Round < 4 && L.mentions(IndexSymbol::Modulo); ++Round) {
    IndexPoly Next;
    for (const auto &[M, C] : L.terms()) {
      IndexPoly Term = IndexPoly::constant(C);
      for (const IndexSymbol &S : M)
        Term = Term * IndexPoly::symbol(S);
      if (M.size() == 1 && M[0].Kind == IndexSymbol::Modulo) {
        auto Operand = TIA.moduloOperand(M[0]);
        if (!Operand ||
            positiveMod(Operand->second * C * ElemSize, Banks * 4) != 0)
          return std::nullopt;
        Term = Operand->first * C;
      }
      Next = Next + Term;
    }
    L = Next;
  }
  std::array<int64_t, 3> Coef = {0, 0, 0};
  IndexPoly ThreadPart = L.threadPart();
  for (const auto &[M, C] : ThreadPart.terms()) {
    if (M.size() != 1 || M[0].Kind != IndexSymbol::ThreadIdx)
      return std::nullopt;
    Coef[M[0].Dim] = C;
  }
  return Coef;
}

/// The degree of the bank conflict: the most distinct 4-byte words that one
/// bank serves in one pass. 4-byte and narrower accesses are served for the
/// whole warp at once; 8-byte accesses in two passes of 16 threads, 16-byte
/// accesses in four passes of 8 threads. Threads reading the same word do
/// not conflict. For elements narrower than a word the result is the least
/// over where the array starts within a word.
int64_t conflictDegree(const std::array<int64_t, 3> &Coef, int64_t ElemSize,
                       int64_t AccessSize, int64_t MemberOffset,
                       const BlockShape &Shape, int64_t Banks) {
  int64_t Threads = Shape.X * Shape.Y * Shape.Z;
  int64_t PassLanes = AccessSize >= 8 ? 32 / (AccessSize / 4) : 32;
  bool WordAligned = ElemSize % 4 == 0 && MemberOffset % 4 == 0;
  int64_t Best = INT64_MAX;
  for (int64_t Shift = 0; Shift < (WordAligned ? 1 : 4); ++Shift) {
    int64_t Worst = 1;
    for (int64_t First = 0; First < Threads; First += PassLanes) {
      llvm::DenseMap<int64_t, llvm::DenseSet<int64_t>> WordsOfBank;
      for (int64_t T = First; T < First + PassLanes && T < Threads; ++T) {
        int64_t X = T % Shape.X, Y = (T / Shape.X) % Shape.Y,
                Z = T / (Shape.X * Shape.Y);
        int64_t Elem = Coef[0] * X + Coef[1] * Y + Coef[2] * Z;
        int64_t Byte = Elem * ElemSize + MemberOffset + Shift;
        for (int64_t W = floorDiv(Byte, 4);
             W <= floorDiv(Byte + AccessSize - 1, 4); ++W)
          WordsOfBank[positiveMod(W, Banks)].insert(W);
      }
      for (const auto &Entry : WordsOfBank)
        Worst = std::max<int64_t>(Worst, Entry.second.size());
    }
    Best = std::min(Best, Worst);
  }
  return Best;
}

//===--- Uses of a __shared__ array ---------------------------------------===//

struct ArrayUse {
  bool IsAccess = false; ///< A subscript for every dimension.
  SmallVector<const Expr *, 3> Subscripts;
  const Expr *Access = nullptr;
  int64_t AccessSize = 0;
  int64_t MemberOffset = 0;
};

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
    }
    Use.IsAccess = true;
    return Use;
  }

  ASTContext &Ctx;
  const VarDecl *V;
  unsigned Rank;
  SmallVector<const Stmt *, 16> Stack;
};

bool lowerPrecedenceThanAdd(const Expr *E) {
  E = E->IgnoreImpCasts();
  if (const auto *C = dyn_cast<ConstantExpr>(E))
    E = C->getSubExpr()->IgnoreImpCasts();
  if (isa<ConditionalOperator>(E))
    return true;
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return !BO->isMultiplicativeOp() && !BO->isAdditiveOp();
  return false;
}

} // namespace

SharedBankConflictCheck::SharedBankConflictCheck(StringRef Name,
                                                 ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      MinConflictDegree(Options.get("MinConflictDegree", int64_t(2))),
      Banks(Options.get("Banks", int64_t(32))) {}

void SharedBankConflictCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "MinConflictDegree", MinConflictDegree);
  Options.store(Opts, "Banks", Banks);
}

void SharedBankConflictCheck::registerMatchers(MatchFinder *Finder) {
  limitParentMapToUserCode(Finder);
  Finder->addMatcher(
      varDecl(hasAttr(attr::CUDAShared),
              hasAncestor(functionDecl(matchers::isCudaDeviceFunction(),
                                       hasBody(stmt()))
                              .bind("fn")))
          .bind("var"),
      this);
}

void SharedBankConflictCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Var = Result.Nodes.getNodeAs<VarDecl>("var");
  const auto *Fn = Result.Nodes.getNodeAs<FunctionDecl>("fn");
  ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = *Result.SourceManager;
  if (Fn->isDependentContext() || Var->getLexicalDeclContext() != Fn ||
      Banks <= 0)
    return;

  // The dimensions (-1 where unknown) and the element type.
  SmallVector<int64_t, 3> Dims;
  QualType Elem = Var->getType();
  while (const ArrayType *AT = Ctx.getAsArrayType(Elem)) {
    if (const auto *CAT = dyn_cast<ConstantArrayType>(AT))
      Dims.push_back(CAT->getSize().getSExtValue());
    else if (isa<IncompleteArrayType>(AT))
      Dims.push_back(-1);
    else
      return;
    Elem = AT->getElementType();
  }
  if (Dims.empty() || Elem->isIncompleteType() || Elem->isDependentType())
    return;
  for (unsigned I = 1; I < Dims.size(); ++I)
    if (Dims[I] < 0)
      return;
  int64_t ElemSize = Ctx.getTypeSizeInChars(Elem).getQuantity();
  if (!llvm::is_contained({1, 2, 4, 8, 16}, ElemSize))
    return;

  BlockShape Shape;
  if (isKernel(Fn))
    if (auto S = launchShape(Ctx, Fn))
      Shape = *S;

  UseCollector Collector(Ctx, Var, Dims.size());
  Collector.visit(Fn->getBody());
  ThreadIndexAnalysis TIA(Ctx, Fn);

  SourceLocation Key = Var->getLocation();
  auto [It, Inserted] = Declarations.insert({Key, Declaration()});
  Declaration &Decl = It->second;
  Decl.NameLoc = Key;
  auto NoFix = [&](StringRef Why) {
    if (Decl.Fixable)
      Decl.WhyNot = Why.str();
    Decl.Fixable = false;
  };
  if (Dims[0] < 0 || Var->hasExternalStorage())
    NoFix("it is a dynamically sized extern __shared__ array");
  else if (Dims.size() < 2)
    NoFix("it is one-dimensional: change its indexing to spread the "
          "threads over the banks");

  // The linear address of an access, in elements, with the last dimension
  // widened by Pad.
  auto linearAddress = [&](const ArrayUse &Use,
                           int64_t Pad) -> std::optional<IndexPoly> {
    IndexPoly L;
    for (unsigned I = 0; I < Use.Subscripts.size(); ++I) {
      IndexForm F = TIA.analyze(Use.Subscripts[I]);
      if (!F.Poly)
        return std::nullopt;
      int64_t Stride = 1;
      for (unsigned J = I + 1; J < Dims.size(); ++J)
        Stride *= Dims[J] + (J + 1 == Dims.size() ? Pad : 0);
      L = L + *F.Poly * Stride;
    }
    return L;
  };
  auto degree = [&](const ArrayUse &Use, int64_t Pad) -> int64_t {
    if (!llvm::is_contained({1, 2, 4, 8, 16}, Use.AccessSize))
      return 0; // A member of an odd size: not modelled.
    std::optional<IndexPoly> L = linearAddress(Use, Pad);
    if (!L)
      return 0; // Unknown.
    auto Coef = threadCoefficients(TIA, *L, ElemSize, Banks);
    if (!Coef)
      return 0;
    return conflictDegree(*Coef, ElemSize, Use.AccessSize, Use.MemberOffset,
                          Shape, Banks);
  };

  // The padded-tile idiom `[T][T + 1]` is the programmer's answer already:
  // not reported (with a 16-wide block it keeps a 2-way conflict that no
  // padding removes).
  bool PaddedTile =
      Dims.size() >= 2 && Dims[Dims.size() - 1] == Dims[Dims.size() - 2] + 1;

  for (const ArrayUse &Use : Collector.Uses) {
    if (!Use.IsAccess) {
      NoFix("its address is taken or it is used other than by subscripts");
      continue;
    }
    int64_t Degree = degree(Use, 0);
    // Padding must make the worst access of the array better (it may turn
    // a conflict-free row access of a narrow tile into a 2-way one).
    if (Dims.size() >= 2) {
      Decl.MaxDegree = std::max(Decl.MaxDegree, Degree);
      Decl.MaxPadded = std::max(Decl.MaxPadded, degree(Use, 1));
    }
    if (Degree < MinConflictDegree || PaddedTile)
      continue;
    // A multi-dimensional array is reported where threadIdx.x moves a row
    // (or plane) subscript: the column-wise access that padding fixes. A
    // row-wise access (`tile[threadIdx.y][threadIdx.x]`) is not reported.
    if (Dims.size() >= 2) {
      std::optional<unsigned> Lane = TIA.laneSubscript(Use.Subscripts);
      if (!Lane || *Lane + 1 == Use.Subscripts.size())
        continue;
    }
    SourceLocation Loc = Use.Access->getBeginLoc();
    Conflict &C = Conflicts[Loc];
    C.DeclKey = Key;
    C.Degree = std::max(C.Degree, Degree);
    C.Name = Var->getName().str();
    C.Range = Use.Access->getSourceRange();
  }

  if (!Decl.Fixable || !Inserted)
    return;
  // The fix: widen the last dimension, keeping its spelling.
  TypeLoc TL = Var->getTypeSourceInfo()->getTypeLoc();
  ArrayTypeLoc Last;
  while (auto ATL = TL.getAs<ArrayTypeLoc>()) {
    Last = ATL;
    TL = ATL.getElementLoc();
  }
  const Expr *Size = Last ? Last.getSizeExpr() : nullptr;
  if (!Size || Last.getRBracketLoc().isMacroID() ||
      Last.getLBracketLoc().isMacroID()) {
    NoFix("its declaration is written in a macro");
    return;
  }
  CharSourceRange SizeRange = CharSourceRange::getCharRange(
      Lexer::getLocForEndOfToken(Last.getLBracketLoc(), 0, SM, getLangOpts()),
      Last.getRBracketLoc());
  StringRef Spelled = Lexer::getSourceText(SizeRange, SM, getLangOpts()).trim();
  if (!Spelled.empty() && llvm::all_of(Spelled, llvm::isDigit) &&
      Spelled.size() < 10) {
    int64_t N = 0;
    Spelled.getAsInteger(10, N);
    Decl.Fix = FixItHint::CreateReplacement(SizeRange, std::to_string(N + 1));
    return;
  }
  if (lowerPrecedenceThanAdd(Size))
    Decl.Fix = FixItHint::CreateReplacement(SizeRange,
                                            ("(" + Spelled + ") + 1").str());
  else
    Decl.Fix = FixItHint::CreateInsertion(Last.getRBracketLoc(), " + 1");
}

void SharedBankConflictCheck::onEndOfTranslationUnit() {
  llvm::DenseSet<SourceLocation> Fixed;
  for (const auto &Entry : Conflicts) {
    const Conflict &C = Entry.second;
    Declaration &Decl = Declarations[C.DeclKey];
    if (Decl.Fixable && Decl.MaxPadded >= Decl.MaxDegree) {
      Decl.Fixable = false;
      Decl.WhyNot = "padding its last dimension by one element would not "
                    "reduce the conflict";
    }
    bool First = Fixed.insert(C.DeclKey).second;
    {
      auto D = diag(Entry.first,
                    "%0-way shared memory bank conflict: threads of a warp "
                    "access different addresses of '%1' in the same bank")
               << static_cast<int>(C.Degree) << C.Name << C.Range;
      if (First && Decl.Fixable && !Decl.Fix.isNull())
        D << Decl.Fix;
    }
    if (!First)
      continue;
    if (Decl.Fixable && !Decl.Fix.isNull())
      diag(Decl.NameLoc,
           "padding the last dimension of '%0' by one element spreads "
           "the threads over the banks",
           DiagnosticIDs::Note)
          << C.Name;
    else
      diag(Decl.NameLoc, "no automatic fix for '%0': %1", DiagnosticIDs::Note)
          << C.Name << Decl.WhyNot;
  }
  Conflicts.clear();
  Declarations.clear();
}

} // namespace clang::tidy::cuda
