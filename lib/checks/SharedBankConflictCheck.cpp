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
#include "SharedBankPadding.h"
#include "cudalint/analysis/DeviceCode.h"
#include "cudalint/analysis/LaneGuards.h"
#include "cudalint/analysis/SharedMemoryBanks.h"
#include "cudalint/analysis/ThreadIndex.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"
#include <memory>

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

using namespace banks;

namespace {

/// Calls \p F for each __shared__ variable declared in \p S.
void forEachSharedArray(const Stmt *S,
                        llvm::function_ref<void(const VarDecl *)> F) {
  if (!S)
    return;
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D);
          V && V->hasAttr<CUDASharedAttr>())
        F(V);
  for (const Stmt *Child : S->children())
    forEachSharedArray(Child, F);
}

} // namespace

SharedBankConflictCheck::SharedBankConflictCheck(StringRef Name,
                                                 ClangTidyContext *Context)
    : CudaCheck(Name, Context),
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
  // Namespace-scope __shared__ arrays: once per function that uses them.
  Finder->addMatcher(
      declRefExpr(to(varDecl(hasAttr(attr::CUDAShared),
                             hasDeclContext(decl(anyOf(translationUnitDecl(),
                                                       namespaceDecl()))))
                         .bind("var")),
                  hasAncestor(functionDecl(matchers::isCudaDeviceFunction(),
                                           hasBody(stmt()))
                                  .bind("fn")))
          .bind("ref"),
      this);
}

void SharedBankConflictCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Var = Result.Nodes.getNodeAs<VarDecl>("var");
  const auto *Fn = Result.Nodes.getNodeAs<FunctionDecl>("fn");
  ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = *Result.SourceManager;
  const auto *Ref = Result.Nodes.getNodeAs<Stmt>("ref");
  bool AtNamespaceScope = Var->getLexicalDeclContext()->isFileContext();
  // A block-scope `extern __shared__` lives in the namespace too; the
  // declaration matcher handles it.
  if (Ref && !AtNamespaceScope)
    return;
  if (Fn->isDependentContext() || Banks <= 0 ||
      (!AtNamespaceScope && Var->getLexicalDeclContext() != Fn))
    return;
  if (AtNamespaceScope &&
      (enclosingFunction(Ctx, *Ref) != Fn || !Visited.insert({Var, Fn}).second))
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

  ThreadIndexAnalysis TIA(Ctx, Fn);
  BlockBounds Bounds = blockBounds(Ctx, Fn, TIA, Launches);
  BlockDims Shape = Bounds.assumed();
  bool UpTo = !Bounds.Exact;
  RangeAnalysis Ranges(Ctx, Fn, TIA, Bounds);

  SmallVector<ArrayUse, 4> Uses =
      collectArrayUses(Ctx, Var, Dims.size(), Fn->getBody());

  SourceLocation Key = Var->getLocation();
  auto [It, Inserted] = Declarations.insert({Key, Declaration()});
  Declaration &Decl = It->second;
  Decl.NameLoc = Key;
  auto NoFix = [&](StringRef Why) {
    if (Decl.Fixable)
      Decl.WhyNot = Why.str();
    Decl.Fixable = false;
  };
  if (AtNamespaceScope)
    NoFix("it is declared at namespace scope, where code elsewhere may "
          "depend on its layout");
  else if (Dims[0] < 0 || Var->hasExternalStorage())
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
  // The degree of each access as the compiled code issues it, with the
  // last dimension widened by Pad: 0 for an access that issues nothing of
  // its own (merged into a vector access, or a reused load), or whose
  // pattern is unknown.
  // Which lanes reach each access, decided once per lane.
  int64_t Threads = Shape.X * Shape.Y * Shape.Z;
  std::vector<std::unique_ptr<LaneGuards>> Guards(Uses.size());
  std::vector<std::vector<int8_t>> Reaches(Uses.size());
  std::optional<BlockShape> ExactShape;
  if (Bounds.Exact)
    ExactShape = BlockShape{Bounds.Exact->X, Bounds.Exact->Y, Bounds.Exact->Z};
  auto mayRun = [&](unsigned I, int64_t X, int64_t Y, int64_t Z) {
    if (!Guards[I]) {
      Guards[I] = std::make_unique<LaneGuards>(
          Ctx, TIA, ExactShape, Uses[I].Access, /*ParamValue=*/nullptr,
          /*Grid=*/std::nullopt, /*NoteUndecided=*/true);
      Reaches[I].assign(Threads, -1);
    }
    int8_t &R = Reaches[I][X + Shape.X * (Y + Shape.Y * Z)];
    if (R < 0)
      R = Guards[I]->mayRun(X, Y, Z);
    return R != 0;
  };
  auto degrees = [&](int64_t Pad) {
    SmallVector<std::optional<IndexPoly>, 4> Addresses;
    for (const ArrayUse &Use : Uses)
      Addresses.push_back(Use.IsAccess ? linearAddress(Use, Pad)
                                       : std::nullopt);
    SmallVector<IssuedAccess, 4> Issued =
        issuedAccesses(Ctx, Var, Uses, Addresses, ElemSize);
    SmallVector<int64_t, 4> Degrees(Uses.size(), 0);
    for (unsigned I = 0; I < Uses.size(); ++I) {
      const ArrayUse &Use = Uses[I];
      if (!Use.IsAccess || !Addresses[I] ||
          Issued[I].Kind == IssuedAccess::InVector ||
          Issued[I].Kind == IssuedAccess::Reused)
        continue;
      int64_t Size = Issued[I].Kind == IssuedAccess::Vector
                         ? Issued[I].Width * ElemSize
                         : Use.AccessSize;
      if (!llvm::is_contained({1, 2, 4, 8, 16}, Size))
        continue; // A member of an odd size: not modelled.
      auto Coef = threadCoefficients(TIA, *Addresses[I], ElemSize, Banks);
      if (!Coef)
        continue;
      Degrees[I] = conflictDegree(
          *Coef, ElemSize, Size, Use.MemberOffset, Shape, Banks,
          [&](int64_t X, int64_t Y, int64_t Z) { return mayRun(I, X, Y, Z); });
    }
    return Degrees;
  };
  SmallVector<int64_t, 4> Degrees = degrees(0);

  // The padded-tile idiom `[T][T + 1]` is the programmer's answer already:
  // not reported (with a 16-wide block it keeps a 2-way conflict that no
  // padding removes).
  bool PaddedTile =
      Dims.size() >= 2 && Dims[Dims.size() - 1] == Dims[Dims.size() - 2] + 1;

  // Reasons against the fix that only count when no other one does.
  std::string LastSubscriptWhy, RangeWhy;
  for (unsigned UseIndex = 0; UseIndex < Uses.size(); ++UseIndex) {
    const ArrayUse &Use = Uses[UseIndex];
    if (!Use.IsAccess) {
      NoFix("its address is taken or it is used other than by subscripts");
      continue;
    }
    // Padding keeps every element where it is only for last subscripts in
    // [0, C): a larger one reaches into the next row, which padding moves.
    if (Dims.size() >= 2 && RangeWhy.empty()) {
      const Expr *Last = Use.Subscripts.back();
      std::optional<Range> R = Ranges.range(Last);
      if (!R || R->Lo < 0 || R->Hi >= Dims.back()) {
        StringRef Text = Lexer::getSourceText(
            CharSourceRange::getTokenRange(Last->getSourceRange()), SM,
            getLangOpts());
        std::string Quoted = Text.empty() || Text.contains('\n')
                                 ? std::string()
                                 : (" '" + Text + "'").str();
        RangeWhy = "its last subscript" + Quoted +
                   " is not provably within [0, " +
                   std::to_string(Dims.back()) +
                   "), and padding would change which element an index "
                   "outside that range addresses";
      }
    }
    int64_t Degree = Degrees[UseIndex];
    if (Degree < MinConflictDegree || PaddedTile)
      continue;
    // A multi-dimensional array is reported where threadIdx.x moves a
    // subscript. Where it moves only the last one (`t[ty][tx * 32]`),
    // padding the rows does not help.
    if (Dims.size() >= 2) {
      std::optional<unsigned> Lane = TIA.laneSubscript(Use.Subscripts);
      if (!Lane)
        continue;
      if (*Lane + 1 == Use.Subscripts.size())
        LastSubscriptWhy = "threadIdx.x moves only its last subscript: "
                           "padding the rows does not spread one row over "
                           "the banks";
    }
    SourceLocation Loc = Use.Access->getBeginLoc();
    Conflict &C = Conflicts[Loc];
    C.DeclKey = Key;
    // Lanes kept out by a condition on the thread index and a value known
    // only at run time (`if (tid <= k)` in a loop over k): the degree is
    // the most that the lanes that may run give.
    bool UseUpTo = UpTo || (Guards[UseIndex] && Guards[UseIndex]->undecided());
    if (Degree > C.Degree || (Degree == C.Degree && !UseUpTo))
      C.UpTo = UseUpTo;
    C.Degree = std::max(C.Degree, Degree);
    C.Name = Var->getName().str();
    C.Range = Use.Access->getSourceRange();
    C.InLoop |= isInsideLoop(Ctx, Use.Access, nullptr);
  }

  if (Decl.LastSubscriptWhy.empty())
    Decl.LastSubscriptWhy = LastSubscriptWhy;
  if (Decl.RangeWhy.empty())
    Decl.RangeWhy = RangeWhy;
  if (Inserted && Decl.Fixable) {
    Decl.Var = Var;
    Decl.SM = &SM;
    // The padding is bounded by a bank period, and by the 48 KiB of static
    // shared memory a kernel may have (the function's own arrays; with
    // dynamic shared memory as well, whose size is not known here, only
    // the one-element pad).
    Decl.MaxPad = std::max<int64_t>(1, Banks * 4 / ElemSize);
    int64_t Static = 0;
    bool Dynamic = false;
    forEachSharedArray(Fn->getBody(), [&](const VarDecl *V) {
      if (V->hasExternalStorage() || !Ctx.getAsConstantArrayType(V->getType()))
        Dynamic = true;
      else
        Static += Ctx.getTypeSizeInChars(V->getType()).getQuantity();
    });
    int64_t Rows = 1;
    for (unsigned I = 0; I + 1 < Dims.size(); ++I)
      Rows *= Dims[I];
    while (Decl.MaxPad > 1 &&
           (Dynamic || Static + Rows * Decl.MaxPad * ElemSize > 48 * 1024))
      --Decl.MaxPad;
    if (Static + Rows * ElemSize > 48 * 1024)
      NoFix("padding it would take the kernel past 48 KiB of static shared "
            "memory");
  }
  if (!Decl.Fixable || Dims.size() < 2)
    return;
  // The worst degree of the accesses for each padding, over
  // every instantiation of the function: padding must make the worst
  // access of the array better (it may turn a conflict-free row access of
  // a narrow tile into a 2-way one).
  bool Reported =
      llvm::any_of(Degrees, [&](int64_t D) { return D >= MinConflictDegree; });
  if (!Reported && Decl.Worst.empty())
    return;
  Decl.Worst.resize(Decl.MaxPad + 1, 0);
  for (int64_t Pad = 0; Pad <= Decl.MaxPad; ++Pad) {
    SmallVector<int64_t, 4> D = Pad == 0 ? Degrees : degrees(Pad);
    for (int64_t X : D)
      Decl.Worst[Pad] = std::max(Decl.Worst[Pad], X);
  }
}

void SharedBankConflictCheck::onEndOfTranslationUnit() {
  // The padding of each declaration: the least that gives the best worst
  // access, when that is better than none (one element, the guide's
  // remedy, wherever it does as well as any).
  for (const auto &Entry : Conflicts)
    ++Declarations[Entry.second.DeclKey].Findings;
  for (auto &Entry : Declarations) {
    Declaration &Decl = Entry.second;
    if (!Decl.Fixable || Decl.Worst.empty() || !Decl.Var)
      continue;
    int64_t Best = 0;
    for (int64_t Pad = 1; Pad < static_cast<int64_t>(Decl.Worst.size()); ++Pad)
      if (Decl.Worst[Pad] < Decl.Worst[Best])
        Best = Pad;
    bool Helps = Best != 0 && Decl.Worst[Best] < Decl.Worst[0];
    // Where no padding changes anything, the lanes that collide are in one
    // row; where some padding changes the conflict but none reduces it,
    // they are in rows of threadIdx.y or threadIdx.z that share a warp.
    bool RowOnly =
        Decl.Worst.size() > 2 &&
        llvm::all_of(Decl.Worst, [&](int64_t W) { return W == Decl.Worst[0]; });
    if (!Helps && RowOnly && !Decl.LastSubscriptWhy.empty()) {
      Decl.Fixable = false;
      Decl.WhyNot = Decl.LastSubscriptWhy;
      continue;
    }
    if (!Decl.RangeWhy.empty()) {
      Decl.Fixable = false;
      Decl.WhyNot = Decl.RangeWhy;
      continue;
    }
    if (!Helps) {
      Decl.Fixable = false;
      Decl.WhyNot = Decl.MaxPad == 1
                        ? std::string("padding its last dimension by one "
                                      "element would not reduce the conflict")
                        : "padding its last dimension by up to " +
                              std::to_string(Decl.MaxPad) +
                              " elements would not reduce the conflict";
      continue;
    }
    // Every finding carries the fix, so that --fix on any one of them pads
    // the array: with several, as insertions only, which cuda-lint applies
    // once.
    PaddingFix Padding = padLastDimension(Decl.Var, *Decl.SM, getLangOpts(),
                                          Best, Decl.Findings > 1);
    if (Padding.Fixes.empty()) {
      Decl.Fixable = false;
      Decl.WhyNot = Padding.WhyNot;
      continue;
    }
    Decl.Pad = Best;
    Decl.Fix = Padding.Fixes;
  }

  llvm::DenseSet<SourceLocation> Noted;
  for (const auto &Entry : Conflicts) {
    const Conflict &C = Entry.second;
    Declaration &Decl = Declarations[C.DeclKey];
    bool HasFix = Decl.Fixable && !Decl.Fix.empty();
    if (!HasFix && Decl.WhyNot.empty())
      Decl.WhyNot = "padding its last dimension would not reduce the conflict";
    {
      StringRef Msg = "%select{|up to }2%0-way shared memory bank conflict: "
                      "threads of a warp access different addresses of '%1' "
                      "in the same bank";
      // A 2-way conflict outside loops costs one more shared-memory cycle,
      // once per thread: worth little wherever it runs (the second sealed
      // audit's one-time staging stores and 6x6 transposes).
      auto D = (C.Degree <= 2 && !C.InLoop
                    ? diagCapped(Entry.first, Msg, 30,
                                 "a 2-way conflict outside loops costs one "
                                 "more shared-memory cycle for the access, "
                                 "once per thread")
                    : diag(Entry.first, Msg))
               << static_cast<int>(C.Degree) << C.Name << C.UpTo << C.Range;
      if (HasFix)
        for (const FixItHint &F : Decl.Fix)
          D << F;
    }
    if (!Noted.insert(C.DeclKey).second)
      continue;
    if (HasFix && Decl.Pad == 1)
      diag(Decl.NameLoc,
           "padding the last dimension of '%0' by one element spreads "
           "the threads over the banks",
           DiagnosticIDs::Note)
          << C.Name;
    else if (HasFix)
      diag(Decl.NameLoc,
           "padding the last dimension of '%0' by %1 elements spreads "
           "the threads over the banks",
           DiagnosticIDs::Note)
          << C.Name << static_cast<int>(Decl.Pad);
    else
      diag(Decl.NameLoc, "no automatic fix for '%0': %1", DiagnosticIDs::Note)
          << C.Name << Decl.WhyNot;
  }
  Conflicts.clear();
  Declarations.clear();
  Visited.clear();
  Launches = LaunchSites();
}

} // namespace clang::tidy::cuda
