//===--- IntegerDivisionCheck.cpp - cuda-lint -----------------------------===//
//
// OpenCL best-practices guide for CUDA GPUs, 5.1.1: "Integer division and
// modulo operations are particularly costly ... If n is a power of 2, (i/n)
// is equivalent to (i >> log2(n)) and (i % n) is equivalent to (i & (n-1)).
// The compiler will perform these conversions if n is literal."
//
//===----------------------------------------------------------------------===//

#include "IntegerDivisionCheck.h"
#include "cudalint/analysis/DeviceCode.h"
#include "cudalint/analysis/ThreadIndex.h"
#include "cudalint/analysis/ValueRange.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include <functional>

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

namespace {

const Stmt *parentStmt(ASTContext &Ctx, const Stmt *S) {
  DynTypedNodeList Parents = Ctx.getParents(*S);
  return Parents.empty() ? nullptr : Parents[0].get<Stmt>();
}

/// Whether \p S runs inside a loop of its function (loop initialisers
/// excluded).
bool isInLoop(ASTContext &Ctx, const Stmt *S) {
  DynTypedNode Cur = DynTypedNode::create(*S);
  while (true) {
    DynTypedNodeList Parents = Ctx.getParents(Cur);
    if (Parents.empty())
      return false;
    DynTypedNode P = Parents[0];
    if (P.get<FunctionDecl>() || P.get<LambdaExpr>())
      return false;
    if (const auto *FS = P.get<ForStmt>()) {
      if (FS->getInit() != Cur.get<Stmt>())
        return true;
    } else if (P.get<WhileStmt>() || P.get<DoStmt>() ||
               P.get<CXXForRangeStmt>()) {
      return true;
    }
    Cur = P;
  }
}

/// `1 << k` or `1u << k`, through parentheses and implicit casts: `k`.
const Expr *shiftOfOne(const Expr *E) {
  const auto *BO = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
  if (!BO || BO->getOpcode() != BO_Shl)
    return nullptr;
  const auto *Lit =
      dyn_cast<IntegerLiteral>(BO->getLHS()->IgnoreParenImpCasts());
  return Lit && Lit->getValue() == 1 ? BO->getRHS() : nullptr;
}

class ModificationFinder : public RecursiveASTVisitor<ModificationFinder> {
public:
  ModificationFinder(ASTContext &Ctx, const VarDecl *V) : Ctx(Ctx), V(V) {}
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (E->getDecl() != V)
      return true;
    // Stores, increments, and escapes: a non-const reference or pointer to
    // it (`int &r = k; r = 3;`) may change it where this cannot see.
    Modified |= classifyVarUse(Ctx, E) != VarUse::Read;
    return !Modified;
  }
  ASTContext &Ctx;
  const VarDecl *V;
  bool Modified = false;
};

bool isNeverModified(ASTContext &Ctx, const VarDecl *V) {
  if (V->getType().isConstQualified())
    return true;
  if (!V->hasLocalStorage() || V->getType()->isReferenceType())
    return false;
  const auto *FD = dyn_cast<FunctionDecl>(V->getDeclContext());
  if (!FD || !FD->getBody())
    return false;
  ModificationFinder F(Ctx, V);
  F.TraverseStmt(FD->getBody());
  return !F.Modified;
}

/// A divisor that is a run-time power of two: `(1 << k)`, or a local
/// variable initialised with `1 << k` where neither it nor `k` changes.
const Expr *powerOfTwoShift(ASTContext &Ctx, const Expr *Divisor) {
  if (const Expr *K = shiftOfOne(Divisor))
    return K;
  const auto *DRE = dyn_cast<DeclRefExpr>(Divisor->IgnoreParenImpCasts());
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V || isa<ParmVarDecl>(V) || !V->hasLocalStorage() || !V->getInit() ||
      !isNeverModified(Ctx, V))
    return nullptr;
  const Expr *K = shiftOfOne(V->getInit());
  if (!K)
    return nullptr;
  const Expr *KE = K->IgnoreParenImpCasts();
  if (isa<IntegerLiteral>(KE))
    return K;
  const auto *KRef = dyn_cast<DeclRefExpr>(KE);
  const auto *KVar = KRef ? dyn_cast<VarDecl>(KRef->getDecl()) : nullptr;
  return KVar && isNeverModified(Ctx, KVar) ? K : nullptr;
}

bool needsParens(const Expr *E) {
  E = E->IgnoreImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return !BO->isMultiplicativeOp() && !BO->isAdditiveOp();
  return isa<AbstractConditionalOperator>(E);
}

bool isSimple(const Expr *E) {
  E = E->IgnoreImpCasts();
  return isa<ParenExpr, DeclRefExpr, IntegerLiteral, CallExpr, MemberExpr,
             ArraySubscriptExpr>(E);
}

/// Whether the rewritten operation (`x >> k`, `x & m`, which bind less
/// tightly than `/` and `%`) needs parentheses where it stands. Only contexts
/// that take any expression up to an assignment-expression go without.
bool resultNeedsParens(ASTContext &Ctx, const Expr *E) {
  const Stmt *Cur = E;
  const Stmt *P = parentStmt(Ctx, Cur);
  auto Implicit = [](const Stmt *S) {
    if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(S))
      return CE->getParenOrBraceRange().isInvalid() &&
             !isa<CXXTemporaryObjectExpr>(CE); // A converting constructor.
    return isa_and_nonnull<ImplicitCastExpr, MaterializeTemporaryExpr,
                           CXXBindTemporaryExpr, ExprWithCleanups>(S);
  };
  while (Implicit(P)) {
    Cur = P;
    P = parentStmt(Ctx, Cur);
  }
  if (!P || !isa<Expr>(P))
    return false; // A statement, an initialiser, a condition.
  if (isa<ParenExpr, InitListExpr, ParenListExpr, CXXConstructExpr,
          ConditionalOperator>(P))
    return false; // `c ? x >> k : y`: ?: binds less tightly than `>>`, `&`.
  if (const auto *BO = dyn_cast<BinaryOperator>(P))
    return !(BO->isAssignmentOp() && BO->getRHS() == Cur) &&
           BO->getOpcode() != BO_Comma;
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(P)) {
    // Overloaded operators keep the precedence of the built-in ones.
    if (OC->getNumArgs() == 0 || OC->getArg(0) == Cur)
      return OC->getOperator() != OO_Comma; // The left operand.
    switch (OC->getOperator()) {
    case OO_Subscript: // `v[x >> k]`
    case OO_Call:      // `f(x >> k)`
    case OO_Comma:
      return false;
    default:
      return !OC->isAssignmentOp(); // `v = x >> k`
    }
  }
  if (const auto *Call = dyn_cast<CallExpr>(P))
    return Call->getCallee() == Cur; // An argument needs none.
  if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(P))
    return FC->getLParenLoc().isInvalid(); // `int(x >> k)` has them.
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(P))
    return ASE->getIdx() != Cur;
  return true; // Unary operators, casts, member access, ...
}

/// Records the macros defined in the translation unit and counts their
/// expansions (nested ones included).
class MacroRecorder : public PPCallbacks {
public:
  using Map = llvm::DenseMap<const void *, IntegerDivisionCheck::MacroDef>;
  explicit MacroRecorder(Map &Macros) : Macros(Macros) {}
  void MacroDefined(const Token &Name, const MacroDirective *MD) override {
    const MacroInfo *MI = MD->getMacroInfo();
    IntegerDivisionCheck::MacroDef &D = Macros[MI];
    D.Name = Name.getIdentifierInfo()->getName().str();
    D.Begin = MI->getDefinitionLoc();
    D.End = MI->getDefinitionEndLoc();
  }
  void MacroExpands(const Token &, const MacroDefinition &MD, SourceRange,
                    const MacroArgs *) override {
    if (const MacroInfo *MI = MD.getMacroInfo()) {
      auto It = Macros.find(MI);
      if (It != Macros.end())
        ++It->second.Expansions;
    }
  }

private:
  Map &Macros;
};

/// Whether any part of \p S comes from a macro expansion.
bool spelledThroughMacro(const Stmt *S) {
  if (!S || S->getBeginLoc().isMacroID() || S->getEndLoc().isMacroID())
    return S != nullptr;
  for (const Stmt *C : S->children())
    if (spelledThroughMacro(C))
      return true;
  return false;
}

/// The text of \p E as spelled (in a macro body, where it is spelled).
std::string spelledText(const Expr *E, const SourceManager &SM,
                        const LangOptions &LO) {
  SourceRange R = E->getSourceRange();
  if (R.getBegin().isMacroID() || R.getEnd().isMacroID())
    R = SourceRange(SM.getSpellingLoc(R.getBegin()),
                    SM.getSpellingLoc(R.getEnd()));
  return Lexer::getSourceText(CharSourceRange::getTokenRange(R), SM, LO).str();
}

/// How many times \p Name is written as an identifier in the main file
/// (its `#define` included), read from the text: uses in branches the
/// preprocessor skipped count too.
unsigned mentionsInMainFile(StringRef Name, const SourceManager &SM,
                            const LangOptions &LO) {
  FileID Main = SM.getMainFileID();
  llvm::StringRef Buf = SM.getBufferData(Main);
  Lexer L(SM.getLocForStartOfFile(Main), LO, Buf.begin(), Buf.begin(),
          Buf.end());
  unsigned N = 0;
  Token T;
  while (!L.LexFromRawLexer(T))
    N += T.is(tok::raw_identifier) && T.getRawIdentifier() == Name;
  N += T.is(tok::raw_identifier) && T.getRawIdentifier() == Name;
  return N;
}

} // namespace

IntegerDivisionCheck::IntegerDivisionCheck(StringRef Name,
                                           ClangTidyContext *Context)
    : CudaCheck(Name, Context),
      WarnOutsideLoops(Options.get("WarnOutsideLoops", false)),
      WarnNonPowerOfTwoConstants(
          Options.get("WarnNonPowerOfTwoConstants", false)) {}

void IntegerDivisionCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "WarnOutsideLoops", WarnOutsideLoops);
  Options.store(Opts, "WarnNonPowerOfTwoConstants", WarnNonPowerOfTwoConstants);
}

void IntegerDivisionCheck::registerMatchers(MatchFinder *Finder) {
  limitParentMapToUserCode(Finder);
  Finder->addMatcher(binaryOperator(hasAnyOperatorName("/", "%", "/=", "%="),
                                    hasLHS(expr(hasType(isInteger()))),
                                    hasRHS(expr(hasType(isInteger()))),
                                    unless(isExpansionInSystemHeader()))
                         .bind("div"),
                     this);
}

void IntegerDivisionCheck::registerPPCallbacks(const SourceManager &SM,
                                               Preprocessor *PP,
                                               Preprocessor *) {
  this->SM = &SM;
  this->PP = PP;
  LangOpts = &PP->getLangOpts();
  PP->addPPCallbacks(std::make_unique<MacroRecorder>(Macros));
}

namespace {

/// Whether \p S holds anything that ends a basic block: a branch, a loop, a
/// jump, a conditional or short-circuit operator, a label.
bool hasControlFlow(const Stmt *S) {
  if (!S)
    return false;
  if (isa<IfStmt, ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, SwitchStmt,
          ReturnStmt, BreakStmt, ContinueStmt, GotoStmt, IndirectGotoStmt,
          LabelStmt, SwitchCase, AbstractConditionalOperator, LambdaExpr,
          CXXThrowExpr, CXXTryStmt>(S))
    return true;
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    if (BO->isLogicalOp())
      return true;
  for (const Stmt *Child : S->children())
    if (hasControlFlow(Child))
      return true;
  return false;
}

/// What an operand of a division reads: local variables (and parameters),
/// and whether it loads from memory. False when it holds anything else (a
/// call, an assignment, `volatile`).
bool operandInputs(const Expr *E, SmallVectorImpl<const VarDecl *> &Vars,
                   bool &LoadsMemory,
                   SmallVectorImpl<QualType> *Loaded = nullptr) {
  E = E->IgnoreParens();
  auto Load = [&](QualType T) {
    LoadsMemory = true;
    if (Loaded)
      Loaded->push_back(T);
  };
  if (E->getType().isVolatileQualified())
    return false;
  if (isa<IntegerLiteral, CharacterLiteral, CXXBoolLiteralExpr,
          UnaryExprOrTypeTraitExpr>(E))
    return true;
  if (ThreadIndexAnalysis::builtinSymbol(E))
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (isa<EnumConstantDecl>(DRE->getDecl()))
      return true;
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V)
      return false;
    if (!V->hasLocalStorage()) {
      Load(V->getType()); // A global: read from memory.
      return !V->getType().isVolatileQualified();
    }
    Vars.push_back(V);
    return true;
  }
  if (const auto *Cast = dyn_cast<CastExpr>(E))
    return operandInputs(Cast->getSubExpr(), Vars, LoadsMemory, Loaded);
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
      return false;
    if (UO->getOpcode() == UO_Deref)
      Load(UO->getType());
    return operandInputs(UO->getSubExpr(), Vars, LoadsMemory, Loaded);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isAssignmentOp() || BO->getOpcode() == BO_Comma ||
        BO->isLogicalOp())
      return false;
    return operandInputs(BO->getLHS(), Vars, LoadsMemory, Loaded) &&
           operandInputs(BO->getRHS(), Vars, LoadsMemory, Loaded);
  }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    Load(ASE->getType());
    return operandInputs(ASE->getBase(), Vars, LoadsMemory, Loaded) &&
           operandInputs(ASE->getIdx(), Vars, LoadsMemory, Loaded);
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (!isa<FieldDecl>(ME->getMemberDecl()))
      return false;
    if (ME->isArrow())
      Load(ME->getType());
    return operandInputs(ME->getBase(), Vars, LoadsMemory, Loaded);
  }
  return false;
}

/// Whether \p S may write memory: a store through a pointer or to a
/// non-local, a call, an atomic, inline asm.
/// With \p Loaded, only a store that may alias a load of one of these types
/// counts (type-based aliasing: a store of a `float` cannot change an `int`).
bool mayWriteMemory(const Stmt *S, ArrayRef<QualType> Loaded = {}) {
  if (!S)
    return false;
  if (isa<CallExpr, CXXConstructExpr, AsmStmt, CXXNewExpr, CXXDeleteExpr>(S))
    return true;
  auto MayAlias = [&](QualType Stored) {
    if (Loaded.empty())
      return true;
    auto Scalar = [](QualType T) {
      T = T.getCanonicalType().getUnqualifiedType();
      return (T->isIntegerType() && !T->isAnyCharacterType() &&
              !T->isEnumeralType()) ||
             T->isRealFloatingType() || T->isPointerType();
    };
    if (!Scalar(Stored))
      return true;
    for (QualType L : Loaded) {
      if (!Scalar(L))
        return true;
      QualType A = Stored.getCanonicalType().getUnqualifiedType(),
               B = L.getCanonicalType().getUnqualifiedType();
      if (A->isPointerType() && B->isPointerType())
        return true;
      if (A->isIntegerType() && B->isIntegerType()) {
        if (A->isBooleanType() != B->isBooleanType())
          continue;
        return true; // Conservatively: `int` and `long` may share a size.
      }
      if (A == B)
        return true;
    }
    return false;
  };
  auto WritesMemory = [&](const Expr *Target) {
    const auto *DRE = dyn_cast<DeclRefExpr>(Target->IgnoreParenImpCasts());
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    return (!V || !V->hasLocalStorage()) && MayAlias(Target->getType());
  };
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    if (BO->isAssignmentOp() && WritesMemory(BO->getLHS()))
      return true;
  if (const auto *UO = dyn_cast<UnaryOperator>(S))
    if (UO->isIncrementDecrementOp() && WritesMemory(UO->getSubExpr()))
      return true;
  for (const Stmt *Child : S->children())
    if (mayWriteMemory(Child, Loaded))
      return true;
  return false;
}

/// Whether \p S changes (or may change) one of \p Vars: assigns or
/// increments it, or lets it escape.
bool changesVars(ASTContext &Ctx, const Stmt *S,
                 ArrayRef<const VarDecl *> Vars) {
  if (!S)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (llvm::is_contained(Vars, DRE->getDecl()) &&
        !DRE->getDecl()->getType().isConstQualified()) {
      // A member read (`l.width`) reads the variable.
      const Stmt *Cur = DRE;
      while (true) {
        const Stmt *P = parentStmt(Ctx, Cur);
        const auto *ME = dyn_cast_or_null<MemberExpr>(P);
        if (!ME || ME->isArrow())
          break;
        Cur = P;
      }
      const auto *Load =
          dyn_cast_or_null<ImplicitCastExpr>(parentStmt(Ctx, Cur));
      bool Read = Cur != DRE ? Load && Load->getCastKind() == CK_LValueToRValue
                             : classifyVarUse(Ctx, DRE) == VarUse::Read;
      if (!Read)
        return true;
    }
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls())
      if (llvm::is_contained(Vars, D))
        return true;
  for (const Stmt *Child : S->children())
    if (changesVars(Ctx, Child, Vars))
      return true;
  return false;
}

/// A counter of a `for` loop with constant bounds and a handful of
/// iterations (`for (int i = 2; i <= 256; i *= 2)`, or `int i; ...
/// for (i = 2; ...)` with the counter declared before the loop), changed
/// only by its increment, at \p Use inside that loop: the compiler unrolls
/// such a loop fully, so each use of the counter is a constant (checked
/// against `nvcc -ptx`: `x % i` becomes `and.b32` with 1, 3, ..., 255).
bool isUnrolledCounter(ASTContext &Ctx, const VarDecl *V,
                       const DeclRefExpr *Use) {
  constexpr unsigned MaxTrips = 16;
  constexpr unsigned MaxPragmaTrips = 1024;
  if (!V->getType()->isIntegerType() || V->getType().isVolatileQualified() ||
      !V->hasLocalStorage())
    return false;
  const ForStmt *FS = nullptr;
  const Expr *Init = nullptr;
  DynTypedNodeList Parents = Ctx.getParents(*V);
  const auto *DS = Parents.empty() ? nullptr : Parents[0].get<DeclStmt>();
  if (DS && DS->isSingleDecl() && V->getInit()) {
    Parents = Ctx.getParents(*DS);
    FS = Parents.empty() ? nullptr : Parents[0].get<ForStmt>();
    if (FS && FS->getInit() != DS)
      FS = nullptr;
    Init = V->getInit();
  }
  if (!FS) {
    // A C-style counter: the innermost loop around the use whose init
    // assigns it (`for (i = 2; ...)`).
    const Stmt *Cur = Use;
    for (const Stmt *P = parentStmt(Ctx, Cur); P && !FS;
         Cur = P, P = parentStmt(Ctx, P)) {
      const auto *For = dyn_cast<ForStmt>(P);
      if (!For || Cur == For->getInit())
        continue;
      const auto *Assign = dyn_cast_or_null<BinaryOperator>(For->getInit());
      const auto *Target =
          Assign && Assign->getOpcode() == BO_Assign
              ? dyn_cast<DeclRefExpr>(Assign->getLHS()->IgnoreParenImpCasts())
              : nullptr;
      if (Target && Target->getDecl() == V) {
        FS = For;
        Init = Assign->getRHS();
      }
    }
  }
  if (!FS || !Init || Init->isValueDependent() || !FS->getInc() ||
      !FS->getCond())
    return false;
  auto Const = [&](const Expr *E) -> std::optional<int64_t> {
    if (E->isValueDependent())
      return std::nullopt;
    std::optional<llvm::APSInt> C = E->getIntegerConstantExpr(Ctx);
    if (!C || C->getSignificantBits() > 32)
      return std::nullopt;
    return C->getExtValue();
  };
  auto IsV = [&](const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == V;
  };
  std::optional<int64_t> Start = Const(Init);
  const auto *Cond = dyn_cast<BinaryOperator>(FS->getCond()->IgnoreParens());
  if (!Start || !Cond || !IsV(Cond->getLHS()))
    return false;
  std::optional<int64_t> Bound = Const(Cond->getRHS());
  BinaryOperatorKind CondOp = Cond->getOpcode();
  if (!Bound || (CondOp != BO_LT && CondOp != BO_LE))
    return false;
  // The next value of the counter, or none.
  const Expr *Inc = FS->getInc()->IgnoreParens();
  std::function<std::optional<int64_t>(int64_t)> Step;
  if (const auto *UO = dyn_cast<UnaryOperator>(Inc)) {
    if (UO->isIncrementOp() && IsV(UO->getSubExpr()))
      Step = [](int64_t X) -> std::optional<int64_t> { return X + 1; };
  } else if (const auto *BO = dyn_cast<BinaryOperator>(Inc);
             BO && IsV(BO->getLHS())) {
    BinaryOperatorKind Op = BO->getOpcode();
    std::optional<int64_t> C;
    if (Op == BO_Assign) {
      // `i = i * 2`, `i = 2 * i`, `i = i + 4`.
      const auto *R = dyn_cast<BinaryOperator>(BO->getRHS()->IgnoreParens());
      if (R && (R->getOpcode() == BO_Mul || R->getOpcode() == BO_Add)) {
        if (IsV(R->getLHS()))
          C = Const(R->getRHS());
        else if (IsV(R->getRHS()))
          C = Const(R->getLHS());
        Op = R->getOpcode() == BO_Mul ? BO_MulAssign : BO_AddAssign;
      }
    } else {
      C = Const(BO->getRHS());
    }
    if (C && Op == BO_AddAssign && *C > 0)
      Step = [C](int64_t X) -> std::optional<int64_t> { return X + *C; };
    else if (C && Op == BO_MulAssign && *C > 1)
      Step = [C](int64_t X) -> std::optional<int64_t> { return X * *C; };
    else if (C && Op == BO_ShlAssign && *C > 0 && *C < 31)
      Step = [C](int64_t X) -> std::optional<int64_t> { return X << *C; };
  }
  if (!Step || *Start <= 0)
    return false;
  // `#pragma unroll` (or `#pragma unroll N` with N at least the trip
  // count) unrolls the loop fully at any trip count: nvcc emits no div or
  // rem for `x % k` over k = 1..32 under it (checked with nvcc -ptx).
  std::optional<int64_t> PragmaCount;
  bool PragmaFull = false;
  {
    DynTypedNodeList P = Ctx.getParents(*FS);
    if (const auto *AS = P.empty() ? nullptr : P[0].get<AttributedStmt>())
      for (const Attr *A : AS->getAttrs())
        if (const auto *LH = dyn_cast<LoopHintAttr>(A)) {
          if (LH->getOption() == LoopHintAttr::Unroll &&
              LH->getState() != LoopHintAttr::Disable)
            PragmaFull = true;
          else if (LH->getOption() == LoopHintAttr::UnrollCount &&
                   LH->getValue())
            PragmaCount = Const(LH->getValue());
        }
  }
  unsigned Limit = PragmaFull || PragmaCount ? MaxPragmaTrips : MaxTrips;
  unsigned Trips = 0;
  for (int64_t X = *Start; CondOp == BO_LT ? X < *Bound : X <= *Bound;) {
    if (++Trips > Limit)
      return false;
    std::optional<int64_t> Next = Step(X);
    if (!Next || *Next <= X || *Next > (int64_t(1) << 40))
      return false;
    X = *Next;
  }
  // `#pragma unroll N` below the trip count leaves the loop rolled.
  if (!PragmaFull && PragmaCount && *PragmaCount < int64_t(Trips))
    return false;
  // Changed nowhere but in the increment.
  auto Matches = match(
      findAll(declRefExpr(to(varDecl(equalsNode(V)))).bind("ref")), *FS, Ctx);
  for (const BoundNodes &N : Matches) {
    const auto *Ref = N.getNodeAs<DeclRefExpr>("ref");
    if (classifyVarUse(Ctx, Ref) == VarUse::Read)
      continue;
    const Stmt *Cur = Ref;
    while (Cur && Cur != FS->getInc() && Cur != FS->getInit())
      Cur = parentStmt(Ctx, Cur);
    if (!Cur)
      return false;
  }
  return true;
}

/// Whether \p E takes a single known value in each copy of an unrolled loop
/// body: constants and counters of fully unrolled loops, combined, and
/// local variables initialised from those and never changed (backprop's
/// `int power_two = i;` in a loop over i = 1, 2, ..., 16).
bool isUnrolledConstant(ASTContext &Ctx, const Expr *E, unsigned Depth = 0) {
  if (Depth > 8 || E->isValueDependent())
    return false;
  E = E->IgnoreParenImpCasts();
  if (E->isIntegerConstantExpr(Ctx))
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V)
      return false;
    if (isUnrolledCounter(Ctx, V, DRE))
      return true;
    return V->isLocalVarDecl() && !V->isStaticLocal() && V->getInit() &&
           V->getType()->isIntegerType() &&
           !V->getType().isVolatileQualified() && isNeverModified(Ctx, V) &&
           isUnrolledConstant(Ctx, V->getInit(), Depth + 1);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return !BO->isAssignmentOp() && BO->getOpcode() != BO_Comma &&
           isUnrolledConstant(Ctx, BO->getLHS(), Depth + 1) &&
           isUnrolledConstant(Ctx, BO->getRHS(), Depth + 1);
  return false;
}

/// Whether \p BO computes a different value in some iteration of a loop
/// that holds it. An operation whose operands no enclosing loop changes (nor
/// the memory they read) is hoisted out of the loops by the compiler (LICM;
/// checked against `nvcc -ptx`), and costs what it costs outside them.
bool variesInLoop(ASTContext &Ctx, const BinaryOperator *BO) {
  if (isa<CompoundAssignOperator>(BO))
    return isInLoop(Ctx, BO);
  SmallVector<const VarDecl *, 4> Vars;
  bool LoadsMemory = false;
  if (!operandInputs(BO->getLHS(), Vars, LoadsMemory) ||
      !operandInputs(BO->getRHS(), Vars, LoadsMemory))
    return isInLoop(Ctx, BO);
  DynTypedNode Cur = DynTypedNode::create(*BO);
  while (true) {
    DynTypedNodeList Parents = Ctx.getParents(Cur);
    if (Parents.empty())
      return false;
    DynTypedNode P = Parents[0];
    if (P.get<FunctionDecl>() || P.get<LambdaExpr>())
      return false;
    const Stmt *Loop = nullptr;
    if (const auto *FS = P.get<ForStmt>()) {
      if (FS->getInit() != Cur.get<Stmt>())
        Loop = FS;
    } else if (P.get<WhileStmt>() || P.get<DoStmt>() ||
               P.get<CXXForRangeStmt>()) {
      Loop = P.get<Stmt>();
    }
    if (Loop && (isa<CXXForRangeStmt>(Loop) || changesVars(Ctx, Loop, Vars) ||
                 (LoadsMemory && mayWriteMemory(Loop))))
      return true;
    Cur = P;
  }
}

/// The statement of the compound statement \p C that holds \p E.
const Stmt *statementIn(ASTContext &Ctx, const Stmt *E,
                        const CompoundStmt *&C) {
  DynTypedNode Cur = DynTypedNode::create(*E);
  const Stmt *Last = E;
  while (true) {
    DynTypedNodeList Parents = Ctx.getParents(Cur);
    if (Parents.empty())
      return nullptr;
    DynTypedNode P = Parents[0];
    if (const auto *CS = P.get<CompoundStmt>()) {
      C = CS;
      return Last;
    }
    if (P.get<FunctionDecl>() || P.get<LambdaExpr>())
      return nullptr;
    if (const auto *S = P.get<Stmt>())
      Last = S;
    Cur = P;
  }
}

/// The statement that holds \p S, through a variable's initialiser to its
/// declaration statement.
const Stmt *enclosingStmt(ASTContext &Ctx, const Stmt *S) {
  DynTypedNodeList Parents = Ctx.getParents(*S);
  if (Parents.empty())
    return nullptr;
  if (const auto *P = Parents[0].get<Stmt>())
    return P;
  if (const auto *V = Parents[0].get<VarDecl>()) {
    Parents = Ctx.getParents(*V);
    return Parents.empty() ? nullptr : Parents[0].get<DeclStmt>();
  }
  return nullptr;
}

/// Whether \p Inner is \p Outer or inside it.
bool isWithin(ASTContext &Ctx, const Stmt *Inner, const Stmt *Outer) {
  for (const Stmt *Cur = Inner; Cur; Cur = enclosingStmt(Ctx, Cur))
    if (Cur == Outer)
      return true;
  return false;
}

/// The part of the statement \p S that is evaluated before \p Op's value is
/// used: for `v = ... Op ...;` with `v` a local variable, the right-hand
/// side (the store to `v` comes after both halves of `h = t % d; t = t / d;`
/// are computed), else the whole statement.
const Stmt *evaluatedBefore(ASTContext &Ctx, const Stmt *S,
                            const BinaryOperator *Op) {
  const auto *Assign = dyn_cast<BinaryOperator>(S);
  if (!Assign || Assign->getOpcode() != BO_Assign)
    return S;
  const auto *DRE =
      dyn_cast<DeclRefExpr>(Assign->getLHS()->IgnoreParenImpCasts());
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V || !V->hasLocalStorage() || V->getType()->isReferenceType() ||
      !isWithin(Ctx, Op, Assign->getRHS()))
    return S;
  return Assign->getRHS();
}

/// \p E without parentheses, implicit casts and the identity operations
/// that the compiler folds away (`x / 1`, `x * 1`, `x + 0`, `x - 0`, as
/// macro arguments leave them: `(idx / (1)) % W`).
const Expr *withoutIdentities(ASTContext &Ctx, const Expr *E) {
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    E = E->IgnoreParenImpCasts();
    const auto *BO = dyn_cast<BinaryOperator>(E);
    if (!BO || BO->isValueDependent())
      return E;
    auto Is = [&](const Expr *X, int64_t V) {
      std::optional<llvm::APSInt> C = X->getIntegerConstantExpr(Ctx);
      return C && *C == V;
    };
    const Expr *L = BO->getLHS(), *R = BO->getRHS();
    switch (BO->getOpcode()) {
    case BO_Div:
      if (!Is(R, 1))
        return E;
      E = L;
      break;
    case BO_Mul:
      if (Is(R, 1))
        E = L;
      else if (Is(L, 1))
        E = R;
      else
        return E;
      break;
    case BO_Add:
      if (Is(R, 0))
        E = L;
      else if (Is(L, 0))
        E = R;
      else
        return E;
      break;
    case BO_Sub:
      if (!Is(R, 0))
        return E;
      E = L;
      break;
    default:
      return E;
    }
  }
  return E;
}

/// Whether \p E reads only variables that never change (and members of
/// them, not through pointers), constants and arithmetic of those: a value
/// that is the same wherever in the function it is computed.
bool isStableValue(ASTContext &Ctx, const Expr *E, unsigned Depth = 0) {
  if (Depth > 8)
    return false;
  E = E->IgnoreParenImpCasts();
  if (E->isValueDependent())
    return false;
  if (E->isIntegerConstantExpr(Ctx))
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    return V && V->hasLocalStorage() && !V->getType().isVolatileQualified() &&
           !V->getType()->isReferenceType() && isNeverModified(Ctx, V);
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return !ME->isArrow() && isa<FieldDecl>(ME->getMemberDecl()) &&
           isStableValue(Ctx, ME->getBase(), Depth + 1);
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return (BO->isAdditiveOp() || BO->isMultiplicativeOp() || BO->isShiftOp() ||
            BO->isBitwiseOp()) &&
           isStableValue(Ctx, BO->getLHS(), Depth + 1) &&
           isStableValue(Ctx, BO->getRHS(), Depth + 1);
  return false;
}

/// The value a local copy holds: for `nx` of `int nx = dom.nx;` that never
/// changes, with a stable initialiser, `dom.nx`; else null.
const Expr *copiedValue(ASTContext &Ctx, const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V || !V->isLocalVarDecl() || V->isStaticLocal() || !V->getInit() ||
      !V->getType()->isIntegerType() || V->getType().isVolatileQualified() ||
      !isNeverModified(Ctx, V) || !isStableValue(Ctx, V->getInit()))
    return nullptr;
  return V->getInit();
}

/// Whether \p X and \p Y compute the same value from the same variables:
/// the same tree once parentheses, implicit casts and identity operations
/// are stripped, and local copies that never change are read as what they
/// copy (`i % nx` with `int nx = dom.nx;` is `i % dom.nx`).
bool sameValue(ASTContext &Ctx, const Expr *X, const Expr *Y,
               unsigned Depth = 0) {
  if (Depth > 16)
    return false;
  X = withoutIdentities(Ctx, X);
  Y = withoutIdentities(Ctx, Y);
  auto Copies = [&] {
    if (const Expr *CX = copiedValue(Ctx, X))
      return sameValue(Ctx, CX, Y, Depth + 1);
    if (const Expr *CY = copiedValue(Ctx, Y))
      return sameValue(Ctx, X, CY, Depth + 1);
    return false;
  };
  const auto *BX = dyn_cast<BinaryOperator>(X);
  const auto *BY = dyn_cast<BinaryOperator>(Y);
  if (BX && BY)
    return BX->getOpcode() == BY->getOpcode() && !BX->isAssignmentOp() &&
           BX->getOpcode() != BO_Comma &&
           Ctx.hasSameType(BX->getType(), BY->getType()) &&
           sameValue(Ctx, BX->getLHS(), BY->getLHS(), Depth + 1) &&
           sameValue(Ctx, BX->getRHS(), BY->getRHS(), Depth + 1);
  if (BX || BY)
    return Copies();
  llvm::FoldingSetNodeID IX, IY;
  X->Profile(IX, Ctx, /*Canonical=*/true);
  Y->Profile(IY, Ctx, /*Canonical=*/true);
  return IX == IY || Copies();
}

bool sameOperands(ASTContext &Ctx, const BinaryOperator *A,
                  const BinaryOperator *B) {
  auto Same = [&](const Expr *X, const Expr *Y) {
    return Ctx.hasSameType(X->getType(), Y->getType()) && sameValue(Ctx, X, Y);
  };
  return Same(A->getLHS(), B->getLHS()) && Same(A->getRHS(), B->getRHS());
}

/// Whether the division \p Div is `(x - x % d) / d` of the modulo \p Rem
/// `x % d`, or `(x - k) / d` with `k` a local variable that holds that
/// modulo and never changes: the compiler reads it as `x / d` and computes
/// both from one division (checked against `nvcc -ptx`: one `div.s32`, and
/// `mul.lo` + `sub` for the modulo).
bool subtractsRemainder(ASTContext &Ctx, const BinaryOperator *Div,
                        const BinaryOperator *Rem) {
  if (Div->getOpcode() != BO_Div || Rem->getOpcode() != BO_Rem ||
      !Ctx.hasSameType(Div->getRHS()->getType(), Rem->getRHS()->getType()) ||
      !sameValue(Ctx, Div->getRHS(), Rem->getRHS()))
    return false;
  const auto *Sub =
      dyn_cast<BinaryOperator>(withoutIdentities(Ctx, Div->getLHS()));
  if (!Sub || Sub->getOpcode() != BO_Sub ||
      !sameValue(Ctx, Sub->getLHS(), Rem->getLHS()))
    return false;
  const Expr *K = withoutIdentities(Ctx, Sub->getRHS());
  if (K == Rem)
    return true;
  const auto *Ref = dyn_cast<DeclRefExpr>(K);
  const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  return V && V->hasLocalStorage() && V->getInit() &&
         V->getType()->isIntegerType() && !V->getType().isVolatileQualified() &&
         withoutIdentities(Ctx, V->getInit()) == Rem && isNeverModified(Ctx, V);
}

/// The other half of a division and modulo pair that the compiler computes
/// with one division: `q = a / b; ...; r = a % b;` in one basic block (no
/// branch, loop or jump from the first to the second), with operands whose
/// values cannot change between them. Checked against `nvcc -ptx`: such a
/// pair gives one `div`, while a `%` under a branch after the `/` keeps its
/// own `rem`.
const BinaryOperator *divRemPartner(ASTContext &Ctx, const BinaryOperator *BO,
                                    const FunctionDecl *FD) {
  if (isa<CompoundAssignOperator>(BO))
    return nullptr;
  const CompoundStmt *C = nullptr;
  const Stmt *Own = statementIn(Ctx, BO, C);
  if (!Own || !C)
    return nullptr;
  BinaryOperatorKind Other = BO->getOpcode() == BO_Div ? BO_Rem : BO_Div;
  auto Matches =
      match(findAll(binaryOperator(hasOperatorName(Other == BO_Div ? "/" : "%"))
                        .bind("op")),
            *C, Ctx);
  for (const BoundNodes &N : Matches) {
    const auto *Cand = N.getNodeAs<BinaryOperator>("op");
    if (Cand == BO)
      continue;
    const BinaryOperator *Rem = Other == BO_Rem ? Cand : BO;
    const BinaryOperator *Div = Other == BO_Rem ? BO : Cand;
    if (!sameOperands(Ctx, BO, Cand) && !subtractsRemainder(Ctx, Div, Rem))
      continue;
    // What the pair reads: the modulo's operands (the division's are the
    // same values, or the same less a never-changed copy of the modulo).
    SmallVector<const VarDecl *, 4> Vars;
    bool LoadsMemory = false;
    if (!operandInputs(Rem->getLHS(), Vars, LoadsMemory) ||
        !operandInputs(Rem->getRHS(), Vars, LoadsMemory))
      return nullptr;
    const CompoundStmt *CC = nullptr;
    const Stmt *CandStmt = statementIn(Ctx, Cand, CC);
    if (CC != C || !CandStmt)
      continue;
    // Every statement from the first of the two to the second: one basic
    // block, and no change to what the operands read.
    auto Begin = llvm::find(C->body(), Own),
         End = llvm::find(C->body(), CandStmt);
    if (Begin == C->body_end() || End == C->body_end())
      continue;
    if (End < Begin)
      std::swap(Begin, End);
    const BinaryOperator *Later = *End == CandStmt ? Cand : BO;
    bool OneBlock = true;
    for (auto I = Begin; I <= End && OneBlock; ++I)
      OneBlock =
          !hasControlFlow(*I) &&
          !changesVars(Ctx, I == End ? evaluatedBefore(Ctx, *I, Later) : *I,
                       Vars) &&
          !(LoadsMemory && mayWriteMemory(*I));
    if (OneBlock)
      return Cand;
  }
  return nullptr;
}

/// Whether every evaluation of the statement \p Own (of a compound
/// statement) evaluates \p E: no conditional operator, short-circuit
/// operand, branch or loop body lies between them.
bool alwaysEvaluated(ASTContext &Ctx, const Expr *E, const Stmt *Own) {
  const Stmt *Cur = E;
  while (Cur != Own) {
    const Stmt *P = enclosingStmt(Ctx, Cur);
    if (!P)
      return false;
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(P)) {
      if (CO->getCond() != Cur)
        return false;
    } else if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (BO->isLogicalOp() && BO->getRHS() == Cur)
        return false;
    } else if (const auto *If = dyn_cast<IfStmt>(P)) {
      if (If->getCond() != Cur)
        return false;
    } else if (isa<LambdaExpr, StmtExpr>(P) ||
               (!isa<Expr>(P) && !isa<DeclStmt>(P))) {
      return false;
    }
    Cur = P;
  }
  return true;
}

/// Whether the value of \p E is only tested against zero: a condition, an
/// operand of `!`, `&&`, `||`, or of `==`/`!=` with a literal zero.
bool onlyTestedAgainstZero(ASTContext &Ctx, const Expr *E) {
  const Stmt *Cur = E;
  while (true) {
    DynTypedNodeList Parents = Ctx.getParents(*Cur);
    const Stmt *P = Parents.empty() ? nullptr : Parents[0].get<Stmt>();
    if (!P)
      return false;
    if (isa<ParenExpr>(P) ||
        (isa<ImplicitCastExpr>(P) &&
         cast<ImplicitCastExpr>(P)->getCastKind() != CK_LValueToRValue)) {
      Cur = P;
      continue;
    }
    if (const auto *If = dyn_cast<IfStmt>(P))
      return If->getCond() == Cur;
    if (const auto *W = dyn_cast<WhileStmt>(P))
      return W->getCond() == Cur;
    if (const auto *D = dyn_cast<DoStmt>(P))
      return D->getCond() == Cur;
    if (const auto *F = dyn_cast<ForStmt>(P))
      return F->getCond() == Cur;
    if (const auto *CO = dyn_cast<ConditionalOperator>(P))
      return CO->getCond() == Cur;
    if (const auto *UO = dyn_cast<UnaryOperator>(P))
      return UO->getOpcode() == UO_LNot;
    if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (BO->isLogicalOp())
        return true;
      if (BO->getOpcode() != BO_EQ && BO->getOpcode() != BO_NE)
        return false;
      const Expr *Other = BO->getLHS() == Cur ? BO->getRHS() : BO->getLHS();
      std::optional<llvm::APSInt> Z = Other->isValueDependent()
                                          ? std::nullopt
                                          : Other->getIntegerConstantExpr(Ctx);
      return Z && Z->isZero();
    }
    return false;
  }
}

/// Whether \p S holds a label that a jump can reach from outside.
bool hasLabel(const Stmt *S) {
  if (!S)
    return false;
  if (isa<LabelStmt>(S))
    return true;
  for (const Stmt *Child : S->children())
    if (hasLabel(Child))
      return true;
  return false;
}

/// An earlier operation with the same operator and operands as \p BO whose
/// value the compiler reuses for \p BO (GVN; checked against `nvcc -ptx`,
/// which emits one `rem` for `flag[IDX(x, y)]` and a later `dirs[IDX(x, y)]`
/// past an `if (...) continue;`): it is evaluated whenever \p BO is (it
/// comes first in the same compound statement, or in the same expression),
/// and nothing between them changes the operands or may store to the memory
/// they read (type-based: a `float` store does not change an `int` load).
const BinaryOperator *earlierRepeat(ASTContext &Ctx, const BinaryOperator *BO,
                                    const FunctionDecl *FD) {
  if (isa<CompoundAssignOperator>(BO) || !FD || !FD->getBody())
    return nullptr;
  SmallVector<const VarDecl *, 4> Vars;
  SmallVector<QualType, 4> Loaded;
  bool LoadsMemory = false;
  if (!operandInputs(BO->getLHS(), Vars, LoadsMemory, &Loaded) ||
      !operandInputs(BO->getRHS(), Vars, LoadsMemory, &Loaded))
    return nullptr;
  const SourceManager &SM = Ctx.getSourceManager();
  auto Matches = match(
      findAll(
          binaryOperator(hasOperatorName(BO->getOpcodeStr().str())).bind("op")),
      *FD->getBody(), Ctx);
  for (const BoundNodes &N : Matches) {
    const auto *Cand = N.getNodeAs<BinaryOperator>("op");
    if (Cand == BO || !sameOperands(Ctx, BO, Cand) ||
        !SM.isBeforeInTranslationUnit(Cand->getOperatorLoc(),
                                      BO->getOperatorLoc()))
      continue;
    const CompoundStmt *C = nullptr;
    const Stmt *First = statementIn(Ctx, Cand, C);
    if (!First || !C || !alwaysEvaluated(Ctx, Cand, First))
      continue;
    // The statement of `C` that holds `BO`.
    const Stmt *Second = BO;
    while (Second && enclosingStmt(Ctx, Second) != C)
      Second = enclosingStmt(Ctx, Second);
    if (!Second)
      continue;
    auto Begin = llvm::find(C->body(), First),
         End = llvm::find(C->body(), Second);
    if (Begin == C->body_end() || End == C->body_end() || End < Begin)
      continue;
    if (Begin == End) {
      // One statement: the smallest expression holding both, without
      // branches, changes or stores between them.
      const Stmt *Common = Cand;
      while (Common && !isWithin(Ctx, BO, Common))
        Common = enclosingStmt(Ctx, Common);
      // `if (a[i % m] > 0) b[i % m] = 1;`: the condition is evaluated before
      // either branch (d3q19's find_wall; one rem.s32 in the PTX).
      if (const auto *If = dyn_cast_or_null<IfStmt>(Common);
          If && isWithin(Ctx, Cand, If->getCond()) &&
          alwaysEvaluated(Ctx, cast<Expr>(Cand), If->getCond()) &&
          !If->getConditionVariable()) {
        const Stmt *Branch =
            isWithin(Ctx, BO, If->getThen()) ? If->getThen() : If->getElse();
        if (Branch && isWithin(Ctx, BO, Branch) && !hasLabel(Branch) &&
            !changesVars(Ctx, If->getCond(), Vars) &&
            !changesVars(Ctx, Branch, Vars) &&
            !(LoadsMemory && (mayWriteMemory(If->getCond(), Loaded) ||
                              mayWriteMemory(Branch, Loaded))))
          return Cand;
      }
      if (!Common || !alwaysEvaluated(Ctx, cast<Expr>(Cand), Common) ||
          hasControlFlow(Common) ||
          changesVars(Ctx, evaluatedBefore(Ctx, Common, BO), Vars) ||
          (LoadsMemory && mayWriteMemory(Common, Loaded)))
        continue;
      return Cand;
    }
    bool Unchanged = true;
    for (auto I = Begin; I <= End && Unchanged; ++I)
      Unchanged =
          !(I != Begin && (isa<SwitchCase>(*I) || hasLabel(*I))) &&
          !changesVars(Ctx, I == End ? evaluatedBefore(Ctx, *I, BO) : *I,
                       Vars) &&
          !(LoadsMemory && mayWriteMemory(*I, Loaded));
    if (Unchanged)
      return Cand;
  }
  return nullptr;
}

/// Whether \p E is a signed product by a constant that \p Divisor divides
/// (`j * 128` divided by 4): signed overflow is undefined, so the compiler
/// folds `(j * 128) / 4` into `j * 32` and `(j * 128) % 4` into 0 (checked
/// against `nvcc -ptx`: one `shl.b32` by 5, no rounding fix-up).
bool isSignedMultipleOf(ASTContext &Ctx, const Expr *E,
                        const llvm::APSInt &Divisor) {
  const auto *Mul = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
  if (!Mul || Mul->getOpcode() != BO_Mul ||
      !Mul->getType()->isSignedIntegerType() || Mul->isValueDependent())
    return false;
  // Only a widening or no conversion between the product and the division
  // keeps the product's `nsw`.
  if (Ctx.getTypeSize(E->getType()) < Ctx.getTypeSize(Mul->getType()) ||
      !E->getType()->isSignedIntegerType())
    return false;
  for (const Expr *Side : {Mul->getLHS(), Mul->getRHS()}) {
    std::optional<llvm::APSInt> C = Side->getIntegerConstantExpr(Ctx);
    if (!C || C->isNegative() || Divisor.isNegative() || Divisor.isZero())
      continue;
    if (C->getZExtValue() % Divisor.getZExtValue() == 0)
      return true;
  }
  return false;
}

/// Whether \p S is in a branch of an `if constexpr` whose condition depends
/// on a template parameter: each instantiation keeps the branch or discards
/// it, and the instantiations are analysed on their own.
bool inDependentConstexprBranch(ASTContext &Ctx, const Stmt *S) {
  for (const Stmt *Cur = S, *P = enclosingStmt(Ctx, S); P;
       Cur = P, P = enclosingStmt(Ctx, P)) {
    if (isa<LambdaExpr>(P))
      return false;
    if (const auto *If = dyn_cast<IfStmt>(P))
      if (If->isConstexpr() && Cur != If->getCond() && If->getCond() &&
          If->getCond()->isValueDependent())
        return true;
  }
  return false;
}

} // namespace

void IntegerDivisionCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *BO = Result.Nodes.getNodeAs<BinaryOperator>("div");
  if (!BO)
    return;
  ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = *Result.SourceManager;
  const LangOptions &LO = Ctx.getLangOpts();
  // An operation spelled in a macro body: every expansion is recorded with
  // its exact rewrite, or why there is none, so that the body is rewritten
  // only when every expansion gets the same rewrite.
  SourceLocation OpLoc = BO->getOperatorLoc();
  MacroInstance *Instance = nullptr;
  if (OpLoc.isMacroID() && !SM.isMacroArgExpansion(OpLoc))
    Instance = &MacroOps[SM.getSpellingLoc(OpLoc)].emplace_back();
  if (BO->isTypeDependent() || BO->isValueDependent() ||
      BO->getRHS()->isValueDependent()) {
    if (Instance)
      Instance->WhyNot = "it is used in a template";
    return;
  }
  const FunctionDecl *FD = enclosingFunction(Ctx, *BO);
  const Expr *LHS = BO->getLHS();
  const Expr *RHS = BO->getRHS();
  BinaryOperatorKind Op = BO->getOpcode();
  bool IsRem = Op == BO_Rem || Op == BO_RemAssign;
  bool IsCompound = isa<CompoundAssignOperator>(BO);
  QualType LT = LHS->getType();
  bool DividendNonNegative = LT->isUnsignedIntegerOrEnumerationType() ||
                             isProvablyNonNegative(LHS, Ctx);
  std::optional<llvm::APSInt> Const = RHS->getIntegerConstantExpr(Ctx);
  const Expr *ShiftAmount = Const ? nullptr : powerOfTwoShift(Ctx, RHS);
  auto Text = [&](const Expr *E) { return spelledText(E, SM, LO); };

  // The exact rewrite, `x >> k` and `x & (n - 1)`, or why there is none.
  bool CanRewrite =
      ShiftAmount || (Const && !Const->isNegative() && !Const->isZero() &&
                      !Const->isOne() && Const->isPowerOf2());
  StringRef WhyNot;
  std::string Replacement;
  if (CanRewrite) {
    if (!DividendNonNegative)
      WhyNot = "the dividend may be negative, where a shift rounds "
               "differently";
    else if (FD && (FD->isTemplateInstantiation() || FD->isDependentContext()))
      WhyNot = "the operation is in a template";
    else if (!IsRem && !IsCompound) {
      QualType Promoted =
          Ctx.isPromotableIntegerType(LT) ? Ctx.getPromotedIntegerType(LT) : LT;
      if (!Ctx.hasSameType(Promoted, BO->getType()))
        WhyNot = "a shift would change the type of the result";
    }
  }
  // The rewrite, with the operands' text given by \p TextOf.
  auto Build = [&](llvm::function_ref<std::string(const Expr *)> TextOf) {
    std::string Shift, Mask, Out;
    std::string DText = TextOf(RHS);
    if (Const) {
      Shift = std::to_string(Const->logBase2());
      Mask = isa<IntegerLiteral>(RHS->IgnoreParenImpCasts()) &&
                     Ctx.hasSameType(Ctx.isPromotableIntegerType(LT)
                                         ? Ctx.getPromotedIntegerType(LT)
                                         : LT,
                                     BO->getType())
                 ? std::to_string(Const->getExtValue() - 1)
                 : "(" + DText + " - 1)";
    } else {
      Shift = TextOf(ShiftAmount);
      if (needsParens(ShiftAmount))
        Shift = "(" + Shift + ")";
      Mask = "(" + (isSimple(RHS) ? DText : "(" + DText + ")") + " - 1)";
    }
    if (IsCompound)
      return IsRem ? "&= " + Mask : ">>= " + Shift;
    std::string X = TextOf(LHS);
    if (needsParens(LHS))
      X = "(" + X + ")";
    Out = X + (IsRem ? " & " + Mask : " >> " + Shift);
    if (resultNeedsParens(Ctx, BO))
      Out = "(" + Out + ")";
    return Out;
  };
  if (CanRewrite && WhyNot.empty())
    Replacement = Build(Text);
  if (Instance) {
    Instance->WhyNot = !CanRewrite ? "its divisor is not a power of two"
                       : !DividendNonNegative ? "its dividend may be negative"
                                              : WhyNot;
    Instance->Replacement = Replacement;
    Instance->Begin = IsCompound ? OpLoc : BO->getBeginLoc();
    Instance->End = BO->getEndLoc();
    // The texts the rewrite copies: the dividend, and the divisor or the
    // shift amount unless the rewrite uses the constant's value.
    auto Spelled = [&](const Expr *E) {
      Instance->SpelledAt.push_back(SM.getSpellingLoc(E->getBeginLoc()));
      Instance->SpelledAt.push_back(SM.getSpellingLoc(E->getEndLoc()));
    };
    if (!IsCompound)
      Spelled(LHS);
    if (ShiftAmount)
      Spelled(ShiftAmount);
    if (Replacement.find(Text(RHS)) != std::string::npos &&
        !(Const && isa<IntegerLiteral>(RHS->IgnoreParenImpCasts())))
      Spelled(RHS);
  }

  // What is reported.
  if (!isDeviceFunction(FD))
    return;
  // Only code that some instantiation compiles: not a branch of a template
  // definition that each instantiation keeps or discards (the kept ones are
  // reported from the instantiation), nor a function called only there.
  if (FD->isDependentContext()) {
    if (inDependentConstexprBranch(Ctx, BO))
      return;
    // A function template named here: its instantiations are reported, at
    // the same places. One named only in template definitions (in a
    // discarded `if constexpr` branch) has none, and no code calls it.
    if (const FunctionTemplateDecl *FTD = FD->getDescribedFunctionTemplate();
        FTD && !FTD->specializations().empty())
      return;
  }
  bool InLoop = variesInLoop(Ctx, BO);
  if (!InLoop && !WarnOutsideLoops)
    return;
  // The counter of a fully unrolled loop (`x % i` for i = 2, 4, ..., 256):
  // a constant in each copy of the body.
  if (!IsCompound && isUnrolledConstant(Ctx, RHS) &&
      (!Const || isUnrolledConstant(Ctx, LHS)))
    return;
  // Every operand a constant (`WARPS_PER_BLOCK / 2`, a `constexpr`, an
  // enumerator): the compiler folds it.
  if (!IsCompound && LHS->isIntegerConstantExpr(Ctx) &&
      RHS->isIntegerConstantExpr(Ctx))
    return;
  if (Const) {
    if (Const->isNegative() || Const->isZero() || Const->isOne())
      return;
    if (!IsCompound && isSignedMultipleOf(Ctx, LHS, *Const))
      return;
    bool PowerOfTwo = Const->isPowerOf2();
    if (PowerOfTwo &&
        (LT->isUnsignedIntegerOrEnumerationType() || !DividendNonNegative))
      return; // Already a shift, or not exactly one.
    // `x % 4 == 0`, `x % 2 ? a : b`: whether the remainder is zero does
    // not depend on the sign, and nvcc emits a bare `and.b32`.
    if (PowerOfTwo && IsRem && !IsCompound && onlyTestedAgainstZero(Ctx, BO))
      return;
    // The compiler sees the dividend is never negative too (a loop guard
    // `v > 0`, a counter that counts up from 0): it emits the shift.
    if (PowerOfTwo && isNonNegativeToCompiler(LHS, BO, Ctx))
      return;
    if (!PowerOfTwo && !(WarnNonPowerOfTwoConstants && InLoop))
      return;
    if (!PowerOfTwo) {
      SourceLocation Loc = SM.getFileLoc(OpLoc);
      if (Reported.insert(Loc).second)
        diag(Loc, "integer %select{division|modulo}0 by the constant %1 "
                  "inside a loop compiles to a multiply-high sequence")
            << IsRem << std::to_string(Const->getExtValue());
      return;
    }
  } else {
    // Unsigned division by a visible `1 << k` already compiles to a shift
    // and a mask (LLVM knows `1 << k` is a power of two); signed division
    // does not, as the dividend might be negative.
    QualType Computation =
        IsCompound
            ? cast<CompoundAssignOperator>(BO)->getComputationResultType()
            : BO->getType();
    if (ShiftAmount && Computation->isUnsignedIntegerOrEnumerationType())
      return;
  }

  SourceLocation Loc = SM.getFileLoc(OpLoc);
  if (!Reported.insert(Loc).second)
    return; // Another instantiation.
  // The same operation again, with the same values: computed once, at the
  // first, which is reported. (With a shift or mask fix each copy gets its
  // own rewrite, as the rewritten first no longer computes the second.)
  if (!Const && !ShiftAmount && earlierRepeat(Ctx, BO, FD))
    return;
  // `q = a / b; r = a % b;` with a run-time divisor: one division. Reported
  // once, at the first of the two, with a note on the other.
  // (With a shift or mask fix each half gets its own rewrite.)
  const BinaryOperator *Partner =
      Const || ShiftAmount ? nullptr : divRemPartner(Ctx, BO, FD);
  if (Partner && SM.isBeforeInTranslationUnit(
                     SM.getFileLoc(Partner->getOperatorLoc()), Loc))
    return;
  Finding F;
  if (Partner)
    F.Partner = SM.getFileLoc(Partner->getOperatorLoc());
  F.Loc = Loc;
  F.IsRem = IsRem;
  F.Const = Const.has_value();
  F.InLoop = InLoop;
  F.Divisor = Text(RHS);
  if (ShiftAmount)
    F.ShiftAmount = Text(ShiftAmount);

  if (CanRewrite && WhyNot.empty()) {
    // Spelled in a macro body: decided once every expansion is known.
    if (Instance) {
      F.Spelling = SM.getSpellingLoc(OpLoc);
      Deferred.push_back(std::move(F));
      return;
    }
    if (OpLoc.isMacroID()) {
      WhyNot = "the operation is written in a macro argument";
    } else if (Const && spelledThroughMacro(RHS) &&
               (!IsRem || isa<IntegerLiteral>(RHS->IgnoreParenImpCasts()))) {
      WhyNot = "the divisor is spelled through a macro; a shift would bake "
               "in its current value";
    } else {
      // The operator is written here; an operand may come through a macro
      // (`NDIM / 4`, `ty * NDIM / 4`): rewritten where it is written, each
      // operand as it is written.
      bool Mapped = true;
      auto FileText = [&](const Expr *E) {
        CharSourceRange R = Lexer::makeFileCharRange(
            CharSourceRange::getTokenRange(E->getSourceRange()), SM, LO);
        Mapped &= R.isValid();
        return R.isValid() ? Lexer::getSourceText(R, SM, LO).str()
                           : std::string();
      };
      Replacement = Build(FileText);
      CharSourceRange Whole = Lexer::makeFileCharRange(
          CharSourceRange::getTokenRange(IsCompound ? OpLoc : BO->getBeginLoc(),
                                         BO->getEndLoc()),
          SM, LO);
      if (Mapped && Whole.isValid()) {
        report(F, FixItHint::CreateReplacement(Whole, Replacement), "");
        return;
      }
      WhyNot = "an operand is spelled partly in a macro";
    }
  }
  report(F, std::nullopt, WhyNot);
}

void IntegerDivisionCheck::report(const Finding &F,
                                  std::optional<FixItHint> Fix,
                                  StringRef WhyNot) {
  {
    auto Diag =
        F.Const
            ? diag(F.Loc, "signed integer %select{division|modulo}0 by %1 "
                          "%select{|inside a loop }2costs extra instructions "
                          "to round toward zero; the dividend is never "
                          "negative, so a %select{shift|mask}0 is exact")
                  << F.IsRem << F.Divisor << F.InLoop
            : diag(F.Loc, "integer %select{division|modulo}0 by '%1', which "
                          "is not a compile-time constant, %select{|inside a "
                          "loop }2compiles to a slow instruction sequence")
                  << F.IsRem << F.Divisor << F.InLoop;
    if (Fix)
      Diag << *Fix;
  }
  if (F.Partner.isValid())
    diag(F.Partner,
         "'%select{%%|/}0' of the same operands here: the compiler computes "
         "both results with one division",
         DiagnosticIDs::Note)
        << F.IsRem;
  if (F.ShiftAmount)
    diag(F.Loc,
         "'%0' is a power of two, 1 << %1: a shift and a mask compute "
         "the same result when the dividend is never negative",
         DiagnosticIDs::Note)
        << F.Divisor << *F.ShiftAmount;
  else if (!F.Const)
    diag(F.Loc,
         "the compiler replaces division and modulo by a power of two "
         "with a shift and a mask only when the divisor is a literal; "
         "pass log2(n) and use '>>' and '&', or make the divisor a "
         "template parameter or 'constexpr'",
         DiagnosticIDs::Note);
  if (!WhyNot.empty())
    diag(F.Loc, "no automatic fix: %0", DiagnosticIDs::Note) << WhyNot;
}

std::optional<FixItHint> IntegerDivisionCheck::macroFix(SourceLocation Spelling,
                                                        std::string &WhyNot) {
  const MacroDef *Def = nullptr;
  for (const auto &[MI, D] : Macros)
    if (D.Begin.isValid() && D.End.isValid() &&
        SM->isWrittenInSameFile(D.Begin, Spelling) &&
        !SM->isBeforeInTranslationUnit(Spelling, D.Begin) &&
        !SM->isBeforeInTranslationUnit(D.End, Spelling)) {
      Def = &D;
      break;
    }
  // A macro of a header in a precompiled include prefix: defined before
  // the callbacks listened, so it is looked up among the preprocessor's
  // macros (all of them loaded, which this rare case can afford).
  MacroDef FromPch;
  if (!Def && userHeadersPrecompiled() && PP) {
    for (const auto &[II, State] : PP->macros()) {
      const MacroInfo *MI = PP->getMacroInfo(II);
      if (!MI || !MI->getDefinitionLoc().isValid() ||
          !SM->isWrittenInSameFile(MI->getDefinitionLoc(), Spelling) ||
          SM->isBeforeInTranslationUnit(Spelling, MI->getDefinitionLoc()) ||
          SM->isBeforeInTranslationUnit(MI->getDefinitionEndLoc(), Spelling))
        continue;
      FromPch.Name = II->getName().str();
      FromPch.Begin = MI->getDefinitionLoc();
      FromPch.End = MI->getDefinitionEndLoc();
      Def = &FromPch;
      break;
    }
  }
  if (!Def) {
    WhyNot = "the operation is spelled in a macro";
    return std::nullopt;
  }
  const std::string &Name = Def->Name;
  if (!SM->isInMainFile(Def->Begin)) {
    WhyNot = "the operation is spelled in macro '" + Name +
             "', defined in another file, which other translation units may "
             "expand differently";
    return std::nullopt;
  }
  const llvm::SmallVector<MacroInstance, 4> &Is = MacroOps[Spelling];
  for (const MacroInstance &I : Is) {
    if (!I.WhyNot.empty()) {
      WhyNot =
          "the operation is spelled in macro '" + Name +
          "', and one of its expansions cannot be rewritten: " + I.WhyNot.str();
      return std::nullopt;
    }
    for (SourceLocation L : I.SpelledAt)
      if (L.isInvalid() || SM->isBeforeInTranslationUnit(L, Def->Begin) ||
          SM->isBeforeInTranslationUnit(Def->End, L)) {
        WhyNot = "the operation is spelled in macro '" + Name +
                 "', and an operand comes from a macro argument or another "
                 "macro, so the rewrite would differ between expansions";
        return std::nullopt;
      }
    if (I.Replacement != Is.front().Replacement) {
      WhyNot = "the operation is spelled in macro '" + Name +
               "', whose expansions need different rewrites";
      return std::nullopt;
    }
  }
  if (Is.size() != Def->Expansions) {
    WhyNot = "the operation is spelled in macro '" + Name +
             "', and not every expansion of it is an integer operation that "
             "was analysed";
    return std::nullopt;
  }
  if (mentionsInMainFile(Name, *SM, *LangOpts) != Def->Expansions + 1) {
    WhyNot = "the operation is spelled in macro '" + Name +
             "', which is also named where the device-side analysis does "
             "not see its expansion (a skipped '#if' branch, another macro's "
             "body, '#ifdef' or '#undef')";
    return std::nullopt;
  }
  // The replaced tokens as written in the body (a nested macro, `W` in
  // `(i) / W`, is replaced by its name).
  auto InBody = [&](SourceLocation L) {
    SourceLocation S = SM->getSpellingLoc(L);
    return SM->isWrittenInSameFile(S, Def->Begin) &&
           !SM->isBeforeInTranslationUnit(S, Def->Begin) &&
           !SM->isBeforeInTranslationUnit(Def->End, S);
  };
  auto BodyLoc = [&](SourceLocation L, bool End) {
    while (L.isMacroID() && !InBody(L)) {
      CharSourceRange R = SM->getImmediateExpansionRange(L);
      L = End ? R.getEnd() : R.getBegin();
    }
    return InBody(L) ? SM->getSpellingLoc(L) : SourceLocation();
  };
  SourceLocation B = BodyLoc(Is.front().Begin, false),
                 E = BodyLoc(Is.front().End, true);
  for (const MacroInstance &I : Is)
    if (B.isInvalid() || E.isInvalid() || BodyLoc(I.Begin, false) != B ||
        BodyLoc(I.End, true) != E) {
      WhyNot = "the operation is spelled in macro '" + Name +
               "', but not as one piece of its body";
      return std::nullopt;
    }
  return FixItHint::CreateReplacement(CharSourceRange::getTokenRange(B, E),
                                      Is.front().Replacement);
}

void IntegerDivisionCheck::onEndOfTranslationUnit() {
  // One fix per macro body, on the finding at its first expansion: the
  // others say where it is (clang-tidy drops identical fixes of two
  // findings as overlapping).
  llvm::DenseMap<SourceLocation, SourceLocation> FixedAt;
  for (const Finding &F : Deferred) {
    auto It = FixedAt.find(F.Spelling);
    if (It != FixedAt.end()) {
      report(F, std::nullopt, "");
      diag(It->second,
           "the fix rewrites the macro's definition, with the finding here",
           DiagnosticIDs::Note);
      continue;
    }
    std::string WhyNot;
    std::optional<FixItHint> Fix = macroFix(F.Spelling, WhyNot);
    report(F, Fix, WhyNot);
    if (Fix) {
      FixedAt[F.Spelling] = F.Loc;
      diag(F.Spelling,
           "rewritten in the macro's definition: each of its expansions is "
           "the same exact rewrite",
           DiagnosticIDs::Note);
    }
  }
  Deferred.clear();
  MacroOps.clear();
  Macros.clear();
  Reported.clear();
}

} // namespace clang::tidy::cuda
