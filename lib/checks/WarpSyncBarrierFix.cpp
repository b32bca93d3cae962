//===--- WarpSyncBarrierFix.cpp - cuda-lint ------------------------------===//
//
// cuda-warp-synchronous: the barrier fixes. Each racy step is split so that
// its read and write are ordered by __syncwarp() (within a warp) or
// __syncthreads() (across warps), placed only where the threads that must
// arrive do: lifted out of thread-dependent branches, distributed over a
// branch's statements, at the end of a loop body, or __syncwarp(mask) where
// the lanes that arrive are known exactly.
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

std::optional<std::string> Fixer::text(SourceRange R) const {
  if (R.getBegin().isMacroID() || R.getEnd().isMacroID())
    return std::nullopt;
  return Lexer::getSourceText(CharSourceRange::getTokenRange(R), SM, LO).str();
}

std::string Fixer::indentOf(SourceLocation Loc) const {
  StringRef Buf = SM.getBufferData(SM.getFileID(Loc));
  unsigned Off = SM.getFileOffset(Loc);
  size_t NL = Buf.rfind('\n', Off);
  size_t Start = NL == StringRef::npos ? 0 : NL + 1;
  size_t End = Start;
  while (End < Buf.size() && (Buf[End] == ' ' || Buf[End] == '\t'))
    ++End;
  return Buf.substr(Start, End - Start).str();
}

std::optional<CharSourceRange> Fixer::withSemi(const Stmt *S) const {
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

std::optional<std::string> Fixer::textWithSemi(const Stmt *S) const {
  std::optional<CharSourceRange> R = withSemi(S);
  if (!R)
    return std::nullopt;
  return Lexer::getSourceText(*R, SM, LO).str();
}

bool Fixer::atLineStart(SourceLocation Loc) const {
  StringRef Buf = SM.getBufferData(SM.getFileID(Loc));
  unsigned Off = SM.getFileOffset(Loc);
  while (Off > 0 && (Buf[Off - 1] == ' ' || Buf[Off - 1] == '\t'))
    --Off;
  return Off == 0 || Buf[Off - 1] == '\n';
}

bool Fixer::restOfLineBlank(SourceLocation Loc) const {
  StringRef Buf = SM.getBufferData(SM.getFileID(Loc));
  for (unsigned Off = SM.getFileOffset(Loc); Off < Buf.size(); ++Off) {
    if (Buf[Off] == '\n' || Buf[Off] == '\r')
      return true;
    if (Buf[Off] != ' ' && Buf[Off] != '\t')
      return false;
  }
  return true;
}

bool Fixer::accessedByAll(const Expr *E, const Guard &G) const {
  const auto *ASE = dyn_cast<ArraySubscriptExpr>(E->IgnoreParens());
  const auto *Ref =
      ASE ? dyn_cast<DeclRefExpr>(ASE->getBase()->IgnoreParenImpCasts())
          : nullptr;
  std::optional<IndexForm> I = ASE ? A.parseIndex(ASE->getIdx()) : std::nullopt;
  if (!Ref || !I || I->Xor)
    return false;
  const ValueDecl *Arr = A.canonicalArray(Ref->getDecl());
  for (const auto &Region : A.Regions)
    for (const Access &X : Region)
      if (X.Array == Arr && X.Idx.B == I->B && !X.Idx.Xor &&
          X.Idx.Off == I->Off && X.G.TidLo <= G.TidLo && X.G.TidHi >= G.TidHi &&
          X.G.LaneLo <= G.LaneLo && X.G.LaneHi >= G.LaneHi)
        return true;
  return false;
}

const Stmt *Fixer::loopWithBody(const Stmt *S, const Slot &Sl) {
  if (Sl.Kind != SlotKind::Other || !Sl.Parent)
    return nullptr;
  if (const auto *For = dyn_cast<ForStmt>(Sl.Parent))
    return For->getBody() == S ? For : nullptr;
  if (const auto *While = dyn_cast<WhileStmt>(Sl.Parent))
    return While->getBody() == S ? While : nullptr;
  return nullptr;
}

std::optional<std::string> Fixer::liftableCond(const IfStmt *If) const {
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

const IfStmt *Fixer::distributable(const Stmt *S, bool Warp) const {
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

std::optional<uint32_t> Fixer::laneMask(const Guard &G) const {
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

bool Fixer::endBodyBarrier(const Stmt *L, const std::string &Barrier, bool Warp,
                           std::vector<FixItHint> &Fixes, std::string &Why) {
  const Stmt *Body = isa<ForStmt>(L)     ? cast<ForStmt>(L)->getBody()
                     : isa<WhileStmt>(L) ? cast<WhileStmt>(L)->getBody()
                                         : cast<DoStmt>(L)->getBody();
  const auto *CS = dyn_cast<CompoundStmt>(Body);
  auto It = A.Slots.find(Body);
  bool Continues = false;
  forEachDescendant(Body,
                    [&](const Stmt *X) { Continues |= isa<ContinueStmt>(X); });
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
      CS->getRBracLoc(), "  " + Barrier + ";\n" + indentOf(CS->getRBracLoc())));
  return true;
}

bool Fixer::writesArray(const Stmt *S, const ValueDecl *Arr) const {
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
    if (E && (E != (Target ? Target->IgnoreParenImpCasts() : nullptr) ||
              Analysis::sharedScalar(E)))
      if (const auto *D = dyn_cast<DeclRefExpr>(E))
        Writes |= A.canonicalArray(D->getDecl()) == Arr;
  });
  return Writes;
}

const Stmt *Fixer::liftOutOfLoops(const Stmt *Late, const Stmt *Early,
                                  const ValueDecl *Arr, bool Warp) const {
  const Stmt *Best = Late;
  const Stmt *X = Late;
  unsigned EarlyAt = SM.getFileOffset(SM.getExpansionLoc(Early->getBeginLoc()));
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
    if (A.unrolledLoop(P))
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

const Stmt *Fixer::hoistTarget(const Stmt *S, llvm::ArrayRef<Race> Races,
                               bool Warp) const {
  // Up from S to the first statement of a compound statement that every
  // thread (or lane) reaches.
  const Stmt *Y = S;
  while (true) {
    auto It = A.Slots.find(Y);
    if (It == A.Slots.end() || !It->second.Parent)
      return nullptr;
    if (Y != S && It->second.Kind == SlotKind::Compound &&
        uniform(It->second.G, Warp))
      break;
    Y = It->second.Parent;
  }
  SourceLocation B = Y->getBeginLoc();
  if (B.isMacroID() || Y->getEndLoc().isMacroID() || !atLineStart(B))
    return nullptr;
  const Stmt *P = A.Slots.find(Y)->second.Parent;
  unsigned YB = SM.getFileOffset(B);
  // Whether X is inside Y; whether it is in a statement of Y's compound
  // statement before Y (so in the same function, on the way to Y).
  auto inside = [&](const Stmt *X) {
    for (; X; X = A.Slots.count(X) ? A.Slots.find(X)->second.Parent : nullptr)
      if (X == Y)
        return true;
    return false;
  };
  auto before = [&](const Stmt *X) {
    while (X) {
      auto It = A.Slots.find(X);
      if (It == A.Slots.end())
        return false;
      if (It->second.Parent == P)
        return X != Y && !X->getEndLoc().isMacroID() &&
               SM.getFileID(X->getEndLoc()) == SM.getFileID(B) &&
               SM.getFileOffset(X->getEndLoc()) < YB;
      X = It->second.Parent;
    }
    return false;
  };
  // A barrier before Y separates a pair only when one side is in Y and
  // the other before it.
  for (const Race &R : Races) {
    bool InW = inside(R.W->Stmt), InR = inside(R.R->Stmt);
    if (InW && InR)
      return nullptr;
    if ((InW && !before(R.R->Stmt)) || (InR && !before(R.W->Stmt)))
      return nullptr;
  }
  return Y;
}

unsigned Fixer::stmtOrder(const Stmt *S) const {
  return SM.getFileOffset(SM.getExpansionLoc(S->getBeginLoc()));
}

bool Fixer::planBarriers(llvm::ArrayRef<Race> Races, bool Warp, bool AtEntry,
                         llvm::MapVector<const Stmt *, Plan> &Plans) {
  // A pair that meets across the back edge of a loop walked per offset is
  // separated by the barrier at the end of its body (backEdgeLoops).
  SmallVector<Race, 8> InBody;
  for (const Race &R : Races)
    if (!A.crossIterationLoop(*R.W, *R.R))
      InBody.push_back(R);
  Races = InBody;
  for (const Race &R : Races) {
    Plan &P = Plans[R.R->Stmt];
    if (llvm::none_of(P.Reads, [&](const Access *X) { return X->E == R.R->E; }))
      P.Reads.push_back(R.R);
  }
  for (auto &[S, P] : Plans) {
    const auto *BO = dyn_cast<BinaryOperator>(S);
    bool WritesArray = false;
    const ValueDecl *Arr = P.Reads[0]->Array;
    forEachDescendant(S, [&](const Stmt *X) {
      if (const auto *B = dyn_cast<BinaryOperator>(X); B && B->isAssignmentOp())
        if (const auto *ASE =
                dyn_cast<ArraySubscriptExpr>(B->getLHS()->IgnoreParens()))
          if (const auto *D =
                  dyn_cast<DeclRefExpr>(ASE->getBase()->IgnoreParenImpCasts()))
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
  return true;
}

llvm::SetVector<const Stmt *> Fixer::backEdgeLoops(llvm::ArrayRef<Race> Races) {
  llvm::SetVector<const Stmt *> BackEdges;
  for (const Race &R : Races) {
    // A loop walked once per offset: the pair meets across its back edge
    // when the write is in an earlier iteration.
    if (const Stmt *L = A.crossIterationLoop(*R.W, *R.R)) {
      BackEdges.insert(L);
      continue;
    }
    unsigned WO = stmtOrder(R.W->Stmt);
    for (const Stmt *X = R.R->Stmt; X;) {
      auto It = A.Slots.find(X);
      if (It == A.Slots.end())
        break;
      const Stmt *P = It->second.Parent;
      if (P && isa<ForStmt, WhileStmt, DoStmt>(P) && stmtOrder(P) <= WO &&
          WO <= SM.getFileOffset(SM.getExpansionLoc(P->getEndLoc()))) {
        if (!A.unrolledLoop(P))
          BackEdges.insert(P);
        break;
      }
      X = P;
    }
  }
  return BackEdges;
}

bool Fixer::planLines(const Stmt *S, const Plan &P, const std::string &Cond,
                      bool Braces, SmallVectorImpl<std::string> &Lines,
                      const Guard &Outer, PlanText &T) {
  std::string &Cur = T.Cur;
  const std::string &Peer = T.Peer;
  unsigned &Counter = T.Counter;
  unsigned NumSplits = T.NumSplits;
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
            (Cond.empty() ? *RT : Cond + " ? " + *RT + " : " + *OwnText) + ";");
  }
  Lines.append(Decls.begin(), Decls.end());
  Lines.push_back(Cur + ";");
  Lines.push_back(If + Body + ";");
  Lines.push_back(Cur + ";");
  return true;
}

Fixer::Placed Fixer::placePlan(const Stmt *S, const Plan &P,
                               llvm::ArrayRef<Race> Races, bool Warp,
                               const Stmt *EdgeLoop,
                               llvm::MapVector<const Stmt *, Plan> &Plans,
                               PlanText &T, Placement &Pl,
                               llvm::SmallPtrSetImpl<const Stmt *> &Distributed,
                               llvm::SmallPtrSetImpl<const Stmt *> &Hoisted,
                               std::vector<FixItHint> &Fixes,
                               std::string &Why) {
  auto SlotIt = A.Slots.find(S);
  if (SlotIt == A.Slots.end())
    return Placed::Failed;
  const Slot &Sl = SlotIt->second;
  const Stmt *&Target = Pl.Target;
  std::string &Indent = Pl.Indent;
  std::string &Cond = Pl.Cond;
  bool &Braces = Pl.Braces;
  const Stmt *&Loop = Pl.Loop;
  Target = S;
  Indent = indentOf(S->getBeginLoc());
  std::string &Cur = T.Cur;
  const std::string &Barrier = T.Barrier;
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
      return Placed::Failed;
    Cond = *C;
    Target = If;
    Indent = indentOf(If->getBeginLoc());
  } else if (const Stmt *Y = !P.Split && !P.Reads.empty() && !EdgeLoop
                                 ? hoistTarget(S, Races, Warp)
                                 : nullptr) {
    // A read under a thread-dependent branch or loop: the barrier goes
    // before the outermost statement around it that every thread (or
    // lane) reaches and that holds no other side of a race.
    if (Hoisted.insert(Y).second)
      Fixes.push_back(FixItHint::CreateInsertion(
          Y->getBeginLoc(), Barrier + ";\n" + indentOf(Y->getBeginLoc())));
    return Placed::Done;
  } else if (Sl.Kind == SlotKind::IfThen && LiftIf &&
             !(Dist = distributable(S, Warp))) {
    Why = "the barrier would be inside a thread-dependent branch";
    return Placed::Failed;
  } else if (const IfStmt *If = Dist ? Dist : distributable(S, Warp)) {
    // `if (C) { S1; S2; }`: `if (C) S1; barrier; if (C) S2;`.
    if (!Distributed.insert(If).second)
      return Placed::Done;
    std::optional<std::string> C = liftableCond(If);
    std::optional<CharSourceRange> Range = withSemi(If);
    if (!C || !Range)
      return Placed::Failed;
    SmallVector<std::string, 8> Lines;
    for (const Stmt *Child : cast<CompoundStmt>(If->getThen())->body()) {
      auto PIt = Plans.find(Child);
      if (PIt != Plans.end() &&
          (PIt->second.Split || PIt->second.BarrierBefore)) {
        if (!planLines(Child, PIt->second, *C, false, Lines, A.Slots[If].G, T))
          return Placed::Failed;
        continue;
      }
      std::optional<std::string> T = textWithSemi(Child);
      if (!T)
        return Placed::Failed;
      Lines.push_back("if (" + *C + ") " + *T);
    }
    std::string In = indentOf(If->getBeginLoc());
    Fixes.push_back(
        FixItHint::CreateReplacement(*Range, llvm::join(Lines, "\n" + In)));
    return Placed::Done;
  } else if (Warp && laneMask(Sl.G) &&
             (Sl.Kind == SlotKind::Compound || (Loop = loopWithBody(S, Sl)))) {
    // Only some lanes of the warp arrive, exactly known: in place, with
    // __syncwarp(mask) naming them.
    Cur = maskedSyncwarp(Sl.G);
  } else {
    Why = "the barrier would be inside a thread-dependent branch or loop";
    return Placed::Failed;
  }
  return Placed::InPlace;
}

bool Fixer::writePlan(const Stmt *S, const Plan &P, const Placement &Pl,
                      PlanText &T, std::vector<FixItHint> &Fixes,
                      std::string &Why) {
  const Stmt *Target = Pl.Target;
  const std::string &Indent = Pl.Indent;
  const std::string &Cond = Pl.Cond;
  bool Braces = Pl.Braces;
  const Stmt *Loop = Pl.Loop;
  const std::string &Cur = T.Cur;
  std::optional<CharSourceRange> Range = withSemi(Target);
  if (!Range) {
    // A statement that ends in a macro (`out[i] = READ(s, i);`) can
    // still get a barrier on the line before it.
    if (!P.Split && !Braces && !Loop && Cond.empty() &&
        !Target->getBeginLoc().isMacroID() &&
        atLineStart(Target->getBeginLoc())) {
      Fixes.push_back(FixItHint::CreateInsertion(Target->getBeginLoc(),
                                                 Cur + ";\n" + Indent));
      return true;
    }
    Why = "the statement is written in a macro";
    return false;
  }
  SmallVector<std::string, 6> Lines;
  if (!planLines(S, P, Cond, Braces, Lines, A.Slots[Target].G, T))
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
    return true;
  }
  if (!Cond.empty() && !P.Split) {
    // A pure read under a thread-dependent branch: the barrier goes
    // before the branch, the branch stays as it is.
    Fixes.push_back(FixItHint::CreateInsertion(Target->getBeginLoc(),
                                               Cur + ";\n" + Indent));
    return true;
  }
  // A statement that shares its line with what comes before it
  // (`if (c) { S; }`) starts on a line of its own, one level deeper.
  bool LineStart = atLineStart(Target->getBeginLoc());
  if (!P.Split && !Braces) {
    Fixes.push_back(FixItHint::CreateInsertion(
        S->getBeginLoc(),
        LineStart ? Cur + ";\n" + Indent
                  : "\n" + Indent + "  " + Cur + ";\n" + Indent + "  "));
    return true;
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
  return true;
}

bool Fixer::barrierFix(llvm::ArrayRef<Race> Races, bool Warp, bool AtEntry,
                       std::vector<FixItHint> &Fixes, std::string &Why,
                       const Stmt *EdgeLoop) {
  std::string Barrier = Warp ? "__syncwarp()" : "__syncthreads()";
  if (EdgeLoop)
    return endBodyBarrier(EdgeLoop, Barrier, Warp, Fixes, Why) &&
           !Fixes.empty();
  llvm::MapVector<const Stmt *, Plan> Plans;
  if (!planBarriers(Races, Warp, AtEntry, Plans))
    return false;
  PlanText T;
  T.Barrier = Barrier;
  T.Peer = freshName("peer");
  // The barrier of the plan being written: Barrier, or __syncwarp(mask)
  // where only some lanes of the warp, exactly known, arrive.
  T.Cur = Barrier;
  T.NumSplits =
      llvm::count_if(Plans, [](const auto &KV) { return KV.second.Split; });

  // A loop walked once (not per offset) around both statements of a race:
  // the next iteration's statements race with this one's across the back
  // edge, so its body also ends with a barrier.
  for (const Stmt *L : backEdgeLoops(Races))
    if (!endBodyBarrier(L, Barrier, Warp, Fixes, Why))
      return false;

  llvm::SmallPtrSet<const Stmt *, 4> Distributed, Hoisted;
  for (auto &[S, P] : Plans) {
    if (!P.Split && !P.BarrierBefore)
      continue;
    Placement Pl;
    switch (placePlan(S, P, Races, Warp, EdgeLoop, Plans, T, Pl, Distributed,
                      Hoisted, Fixes, Why)) {
    case Placed::Failed:
      return false;
    case Placed::Done:
      continue;
    case Placed::InPlace:
      break;
    }
    if (!writePlan(S, P, Pl, T, Fixes, Why))
      return false;
  }
  return !Fixes.empty();
}

} // namespace clang::tidy::cuda::warpsync
