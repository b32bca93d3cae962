//===--- DoublePromotionReport.cpp - cuda-lint ----------------------------===//
//
// The reports of cuda-double-promotion (DoublePromotionCheck.h): at the end
// of the translation unit, a verdict for each spelled literal from all of
// its occurrences, then the warnings, notes and fixes.
//
//===----------------------------------------------------------------------===//

#include "DoublePromotionCheck.h"
#include "DoublePromotionExprs.h"
#include "cudalint/analysis/DeviceCode.h"
#include "cudalint/analysis/ValueRange.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include <cmath>
#include <functional>

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

using namespace double_promotion;

// What each site's finding would be, and the operand it is reported for.
std::vector<DoublePromotionCheck::Verdict> DoublePromotionCheck::verdicts() {
  std::vector<Verdict> Verdicts;
  for (auto &[Key, Site] : Sites) {
    const Occurrence *First = nullptr;
    bool AllPromote = true, AllNarrowed = true, AllConditional = true;
    bool AnyFromInteger = false, AllFromInteger = true;
    SourceLocation ToInteger;
    const FloatValue &V = Site.Value;
    for (const Occurrence &Occ : Site.Occurrences) {
      if (!Occ.Promotes) {
        AllPromote = false;
        continue;
      }
      if (!First)
        First = &Occ;
      AnyFromInteger |= Occ.FromInteger;
      AllFromInteger &= Occ.FromInteger;
      if (ToInteger.isInvalid())
        ToInteger = Occ.ToInteger;
      AllNarrowed &= Occ.Narrowing == Occurrence::ConditionalBranch ||
                     (Occ.Narrowing == Occurrence::SingleOperation &&
                      V.Representable && !V.Subnormal);
      AllConditional &= Occ.Narrowing == Occurrence::ConditionalBranch;
    }
    if (!First)
      continue;
    // The finding goes where the literal really makes double work: a macro
    // used once where nvcc narrows (`qq = PSAT * expf(x)`) and once in a
    // chain (`PSAT * expf(x) * expf(-x)`) is reported at the chain, with
    // its headline, not at the first use.
    if (!AllNarrowed)
      for (const Occurrence &Occ : Site.Occurrences)
        if (Occ.Promotes && Occ.Narrowing != Occurrence::ConditionalBranch &&
            !(Occ.Narrowing == Occurrence::SingleOperation && V.Representable &&
              !V.Subnormal)) {
          First = &Occ;
          break;
        }

    std::string WhyNot;
    if (StringRef Why = whyNotFixable(V); !Why.empty())
      WhyNot = "the value " + Why.str();
    else if (StrictNumerics && !AllNarrowed)
      WhyNot = V.Representable
                   ? "StrictNumerics is on, and float arithmetic can round "
                     "differently here from double arithmetic"
                   : "the value is not exactly representable in float and "
                     "StrictNumerics is on";
    else if (!AllNarrowed && ToInteger.isValid())
      // Float arithmetic can round an exact integer (35.0) just below it
      // (34.99998), and the conversion then gives another integer.
      WhyNot = "the result is converted to an integer, and a last-bits "
               "difference of float arithmetic can change that integer";
    else if (Site.InMacroBody && !Site.MacroInMainFile)
      WhyNot = "the literal is spelled in a macro defined in another file";
    else if (!AllPromote)
      WhyNot = Site.InMacroBody
                   ? "the macro is also used where the literal does not "
                     "promote float data"
                   : "the literal is also used where it does not promote "
                     "float data (another template instantiation)";
    Verdicts.push_back({&Site, First, AllNarrowed, AllConditional,
                        AnyFromInteger, AllFromInteger, WhyNot,
                        AllNarrowed ? SourceLocation() : ToInteger});
  }

  // A literal whose computation stays double through another literal that
  // is not rewritten (`atan(x) * ONE_OVER_PI + 0.5` with ONE_OVER_PI
  // defined in a header): its own suffix would leave the f64 arithmetic,
  // and it is not the cause. The other one is reported as the cause.
  {
    llvm::DenseMap<SourceLocation, const Verdict *> BySpelling;
    for (const Verdict &Vd : Verdicts)
      BySpelling[Vd.Site->SpellingLoc] = &Vd;
    llvm::DenseSet<const Verdict *> Blocked;
    for (const Verdict &Vd : Verdicts) {
      if (!Vd.WhyNot.empty())
        continue;
      for (SourceLocation Other : Vd.First->OtherLiterals) {
        auto It = BySpelling.find(Other);
        if (It != BySpelling.end() && !It->second->WhyNot.empty() &&
            It->second->First->Operand != Vd.First->Operand) {
          Blocked.insert(&Vd);
          break;
        }
      }
    }
    if (!Blocked.empty())
      Verdicts.erase(
          llvm::remove_if(
              Verdicts, [&](const Verdict &Vd) { return Blocked.count(&Vd); }),
          Verdicts.end());
  }
  return Verdicts;
}

// With the suffix, the integer is converted to float rather than double,
// and the arithmetic rounds in float.
void DoublePromotionCheck::noteIntegerToFloat(SourceLocation Loc,
                                              StringRef Spelling) {
  diag(Loc,
       "with '%0f' the integer is converted to float, exactly only up to "
       "2^24 in magnitude, and the arithmetic rounds to float: results "
       "can differ from the double computation in the last bits",
       DiagnosticIDs::Note)
      << Spelling;
}

FixItHint DoublePromotionCheck::appendF(SourceLocation Token) const {
  return FixItHint::CreateInsertion(
      Lexer::getLocForEndOfToken(Token, 0, *SM, *LangOpts), "f");
}

void DoublePromotionCheck::reportLiteral(const Verdict &Vd) {
  const LiteralSite &Site = *Vd.Site;
  const FloatValue &V = Site.Value;
  SourceLocation Loc = Vd.First->ExpansionLoc;
  {
    // Where nvcc narrows anyway, the finding is that the source says
    // double where the code is float: the suffix says what it does.
    auto Diag =
        Vd.AllNarrowed
            ? diagNoCodeChange(Loc,
                               "double-precision literal '%0' in a "
                               "%select{float operation that nvcc "
                               "computes in|branch that nvcc converts to}1 "
                               "float; the 'f' suffix makes that "
                               "explicit",
                               "nvcc already computes this in float")
                  << Site.Spelling << Vd.AllConditional
            : diag(Loc, "double-precision literal '%0' promotes "
                        "%select{float arithmetic to double|integer data "
                        "to double, and the result is narrowed to float}1")
                  << Site.Spelling << Vd.AllFromInteger;
    if (Vd.WhyNot.empty())
      Diag << appendF(Site.SpellingLoc);
  }
  // Where nvcc narrows anyway, the float literal computes the same
  // values.
  if (!Vd.AllNarrowed || V.Underflows || V.Subnormal)
    noteNumerics(Loc, Site.Spelling, V);
  // An exact literal still moves the arithmetic around it from double
  // to float.
  if (!Vd.AllNarrowed && Vd.WhyNot.empty() && !Vd.AnyFromInteger &&
      V.Representable && !V.Subnormal && !V.Underflows)
    diag(Loc,
         "'%0' is exact in float, but with '%0f' the operations around it "
         "round to float instead of double: results can change in the "
         "last bits",
         DiagnosticIDs::Note)
        << Site.Spelling;
  if (!Vd.AllNarrowed && Vd.WhyNot.empty() && !Vd.First->OverloadOf.empty())
    diag(Loc,
         "with '%0f' the argument of '%1' becomes float, and the call its "
         "float overload: a different implementation, whose result can "
         "differ in the last bits",
         DiagnosticIDs::Note)
        << Site.Spelling << Vd.First->OverloadOf;
  // With the suffix, the integer is converted to float rather than
  // double, and the arithmetic rounds in float.
  if (Vd.AnyFromInteger)
    noteIntegerToFloat(Loc, Site.Spelling);
  if (Site.InMacroBody)
    diag(Site.SpellingLoc, "literal spelled in macro '%0' here",
         DiagnosticIDs::Note)
        << Site.MacroName;
  if (Vd.AllNarrowed)
    diag(Loc,
         Vd.AllConditional
             ? "nvcc already converts this branch to float; the suffix "
               "makes that explicit"
             : "nvcc already narrows this single operation back to "
               "float; the suffix makes that explicit",
         DiagnosticIDs::Note);
  if (!Vd.WhyNot.empty())
    diag(Loc, "no automatic fix: %0", DiagnosticIDs::Note) << Vd.WhyNot;
  if (Vd.ToInteger.isValid())
    diag(Vd.ToInteger, "the result is converted to an integer here",
         DiagnosticIDs::Note);
}

void DoublePromotionCheck::reportOperand(ArrayRef<const Verdict *> Group) {
  // Several literals in one operand: a literal-only expression is never a
  // narrowed single operation. Fixed only when every literal can be, so
  // that the operand becomes float as a whole.
  SourceLocation Loc = Group.front()->First->ExpansionLoc;
  bool AllFixable =
      llvm::all_of(Group, [](const Verdict *Vd) { return Vd->WhyNot.empty(); });
  {
    auto Diag = diag(Loc, "double-precision constant '%0' promotes float "
                          "arithmetic to double")
                << Group.front()->First->OperandText;
    if (AllFixable)
      for (const Verdict *Vd : Group)
        Diag << appendF(Vd->Site->SpellingLoc);
  }
  for (const Verdict *Vd : Group) {
    const LiteralSite &Site = *Vd->Site;
    if (Site.InMacroBody)
      diag(Site.SpellingLoc, "literal '%0' spelled in macro '%1' here",
           DiagnosticIDs::Note)
          << Site.Spelling << Site.MacroName;
    else
      diag(Site.SpellingLoc, "literal '%0' here", DiagnosticIDs::Note)
          << Site.Spelling;
    noteNumerics(Site.SpellingLoc, Site.Spelling, Site.Value);
    if (Vd->AnyFromInteger)
      noteIntegerToFloat(Site.SpellingLoc, Site.Spelling);
    if (!Vd->WhyNot.empty())
      diag(Site.SpellingLoc, "no automatic fix for '%0': %1",
           DiagnosticIDs::Note)
          << Site.Spelling << Vd->WhyNot;
  }
  for (const Verdict *Vd : Group)
    if (Vd->ToInteger.isValid()) {
      diag(Vd->ToInteger, "the result is converted to an integer here",
           DiagnosticIDs::Note);
      break;
    }
  if (!AllFixable)
    for (const Verdict *Vd : Group)
      if (Vd->WhyNot.empty())
        diag(Vd->Site->SpellingLoc,
             "'%0' is not rewritten either: the constant would stay double",
             DiagnosticIDs::Note)
            << Vd->Site->Spelling;
}

void DoublePromotionCheck::reportFunction(const FunctionDecl &F,
                                          ArrayRef<const Verdict *> Literals,
                                          ArrayRef<const CallReport *> Calls) {
  // The literals and calls in the order of the file.
  struct Member {
    SourceLocation Loc;
    const Verdict *Literal = nullptr;
    const CallReport *Call = nullptr;
    bool fixed() const {
      return Literal ? Literal->WhyNot.empty() : !Call->Fixes.empty();
    }
  };
  llvm::SmallVector<Member, 16> Group;
  for (const Verdict *Vd : Literals)
    Group.push_back({Vd->First->ExpansionLoc, Vd, nullptr});
  for (const CallReport *C : Calls)
    Group.push_back({C->Loc, nullptr, C});
  llvm::sort(Group, [&](const Member &A, const Member &B) {
    return SM->isBeforeInTranslationUnit(A.Loc, B.Loc);
  });
  // Reported where the impact model ranks one of them highest (the hottest;
  // the first of those), so that the rank is the group's.
  const Member *Top = &Group.front();
  unsigned TopRank = 0;
  for (const Member &M : Group)
    if (unsigned R = rankAt(M.Loc); R > TopRank) {
      TopRank = R;
      Top = &M;
    }
  unsigned Fixed = 0, Inexact = 0, FromInteger = 0, Exact = 0, FixedCalls = 0;
  double WorstError = 0;
  llvm::SmallVector<StringRef, 4> Overloads;
  for (const Member &M : Group) {
    if (!M.fixed())
      continue;
    ++Fixed;
    if (M.Call) {
      ++FixedCalls;
      continue;
    }
    const Verdict *Vd = M.Literal;
    const FloatValue &V = Vd->Site->Value;
    if (!V.Representable || V.Subnormal || V.Underflows) {
      ++Inexact;
      WorstError = std::max(WorstError, V.RelativeError);
    } else if (!Vd->AnyFromInteger) {
      ++Exact;
    }
    FromInteger += Vd->AnyFromInteger;
    if (!Vd->First->OverloadOf.empty() &&
        !llvm::is_contained(Overloads, Vd->First->OverloadOf))
      Overloads.push_back(Vd->First->OverloadOf);
  }
  SourceLocation Loc = Top->Loc;
  unsigned Size = Group.size();
  {
    auto Diag =
        Calls.empty()
            ? diag(Loc, "%0 double-precision literals in '%1' promote float "
                        "arithmetic to double")
                  << Size << F.getName()
            : diag(Loc, "%0 double-precision literals and calls of double "
                        "math functions in '%1' compute float data in double "
                        "precision")
                  << Size << F.getName();
    // Two calls of one computation (`0.055 * pow(T, 2) + 0.015 * pow(T, 3)`)
    // both suffix its literals: each edit once, or `0.055ff` would not
    // compile.
    std::vector<FixItHint> Fixes;
    auto Add = [&](const FixItHint &Fix) {
      if (llvm::none_of(Fixes, [&](const FixItHint &F) {
            return F.RemoveRange.getAsRange() == Fix.RemoveRange.getAsRange() &&
                   F.CodeToInsert == Fix.CodeToInsert;
          }))
        Fixes.push_back(Fix);
    };
    for (const Member &M : Group) {
      if (!M.fixed())
        continue;
      if (M.Literal)
        Add(appendF(M.Literal->Site->SpellingLoc));
      else
        for (const FixItHint &Fix : M.Call->Fixes)
          Add(Fix);
    }
    for (const FixItHint &Fix : Fixes)
      Diag << Fix;
  }
  diag(Loc,
       "one finding for the function: each alone is a small share of its "
       "double arithmetic; %select{the fix changes all %1 together|no "
       "automatic fix for any of them (below)|the fix changes %0 of the %1 "
       "together}2",
       DiagnosticIDs::Note)
      << Fixed << Size
      << (Fixed == Size ? 0
          : Fixed == 0  ? 1
                        : 2);
  for (const Member &M : Group) {
    if (M.Call) {
      if (M.Call->Fixes.empty())
        diag(M.Loc, "call to '%0' here: no automatic fix, %1",
             DiagnosticIDs::Note)
            << M.Call->Callee << M.Call->WhyNot;
      else
        diag(M.Loc, "call to '%0' here: '%1'", DiagnosticIDs::Note)
            << M.Call->Callee << M.Call->Replacement;
      continue;
    }
    const LiteralSite &Site = *M.Literal->Site;
    if (!M.Literal->WhyNot.empty())
      diag(M.Loc, "literal '%0' here: no automatic fix, %1",
           DiagnosticIDs::Note)
          << Site.Spelling << M.Literal->WhyNot;
    else if (Site.InMacroBody)
      diag(Site.SpellingLoc, "literal '%0' spelled in macro '%1' here",
           DiagnosticIDs::Note)
          << Site.Spelling << Site.MacroName;
    else if (&M != Top)
      diag(M.Loc, "literal '%0' here", DiagnosticIDs::Note) << Site.Spelling;
  }
  if (Inexact)
    diag(Loc,
         "%0 of the literals %plural{1:is|:are}0 not exact in float: with 'f' "
         "they differ by "
         "a relative %1 at most (or flush to zero where subnormal), which can "
         "change the last bits of results",
         DiagnosticIDs::Note)
        << Inexact << llvm::formatv("{0:e1}", WorstError).str();
  if (Exact)
    diag(Loc,
         "%0 of the literals %plural{1:is|:are}0 exact in float, but with 'f' "
         "the operations "
         "around them round to float instead of double: results can change "
         "in the last bits",
         DiagnosticIDs::Note)
        << Exact;
  if (FromInteger)
    diag(Loc,
         "%0 of the literals %plural{1:makes|:make}0 integer data double: with "
         "'f' the integer "
         "is converted to float, exactly only up to 2^24 in magnitude",
         DiagnosticIDs::Note)
        << FromInteger;
  if (!Overloads.empty())
    diag(Loc,
         "with the suffixes, calls of %0 get float arguments and become "
         "their float overloads: a different implementation, whose results "
         "can differ in the last bits",
         DiagnosticIDs::Note)
        << ("'" + llvm::join(Overloads, "', '") + "'");
  if (FixedCalls)
    diag(Loc,
         "the float forms that replace %0 of the calls ('powf' and its kin, "
         "a product for a square) round differently: their results can "
         "differ in the last bits",
         DiagnosticIDs::Note)
        << FixedCalls;
}

void DoublePromotionCheck::onEndOfTranslationUnit() {
  std::vector<Verdict> Verdicts = verdicts();
  // One finding per promoting operand: the literals of one literal-only
  // operand (`x * K` with `#define K (1.0 / PI)`) are reported together.
  llvm::MapVector<std::pair<SourceLocation, SourceLocation>,
                  SmallVector<const Verdict *, 1>>
      Operands;
  for (const Verdict &Vd : Verdicts)
    Operands[Vd.First->Operand].push_back(&Vd);
  // One finding per function that holds many literals and calls: a
  // single-thread kernel written in float with hundreds of double literals
  // and `pow(x, 2)`s is one fix, and one of them alone is a negligible share
  // of its double arithmetic (the fourth and fifth sealed audits read eleven
  // such findings in one function).
  llvm::MapVector<const FunctionDecl *, SmallVector<const Verdict *, 4>>
      LiteralsOf;
  for (auto &[Key, Group] : Operands)
    if (Group.size() == 1 && !Group.front()->AllNarrowed &&
        Group.front()->First->Function)
      LiteralsOf[Group.front()->First->Function].push_back(Group.front());
  llvm::MapVector<const FunctionDecl *, SmallVector<const CallReport *, 4>>
      CallsOf;
  for (const CallReport &C : CallReports)
    if (!C.NoCodeChange && C.Function)
      CallsOf[C.Function].push_back(&C);
  // Which functions get one finding, decided before any is reported.
  llvm::SmallVector<const FunctionDecl *, 4> GroupedOrder;
  llvm::DenseSet<const FunctionDecl *> Grouped;
  auto Count = [&](const FunctionDecl *F) {
    auto L = LiteralsOf.find(F);
    auto C = CallsOf.find(F);
    return (L == LiteralsOf.end() ? 0 : L->second.size()) +
           (C == CallsOf.end() ? 0 : C->second.size());
  };
  if (FunctionGroupMin > 0) {
    for (auto &[F, Group] : LiteralsOf)
      if (Count(F) >= FunctionGroupMin && Grouped.insert(F).second)
        GroupedOrder.push_back(F);
    for (auto &[F, Group] : CallsOf)
      if (Count(F) >= FunctionGroupMin && Grouped.insert(F).second)
        GroupedOrder.push_back(F);
  }
  // The calls first, as the matcher meets them (clangd offers the fixes of
  // a file's diagnostics in the order they come).
  for (const CallReport &C : CallReports)
    if (C.NoCodeChange || !C.Function || !Grouped.contains(C.Function))
      C.Emit();
  for (const FunctionDecl *F : GroupedOrder) {
    ArrayRef<const Verdict *> Lits;
    if (auto L = LiteralsOf.find(F); L != LiteralsOf.end())
      Lits = L->second;
    // A call without a fix whose argument a literal of the group makes
    // float (`exp(0.08 * v)`): that literal's fix picks the float overload,
    // said in the group's note on overloads.
    SmallVector<const CallReport *, 4> Calls;
    if (auto C = CallsOf.find(F); C != CallsOf.end())
      for (const CallReport *Call : C->second)
        if (!Call->Fixes.empty() || !llvm::any_of(Lits, [&](const Verdict *Vd) {
              SourceLocation At = Vd->First->ExpansionLoc;
              return Vd->WhyNot.empty() &&
                     Vd->First->OverloadOf == Call->Callee &&
                     !SM->isBeforeInTranslationUnit(At,
                                                    Call->Range.getBegin()) &&
                     !SM->isBeforeInTranslationUnit(Call->Range.getEnd(), At);
            }))
          Calls.push_back(Call);
    reportFunction(*F, Lits, Calls);
  }
  for (auto &[Key, Group] : Operands) {
    const Verdict *Vd = Group.front();
    if (Group.size() > 1)
      reportOperand(Group);
    else if (!Vd->AllNarrowed && Vd->First->Function &&
             Grouped.contains(Vd->First->Function))
      continue;
    else if (!Vd->AllNarrowed || ReportNarrowed)
      reportLiteral(*Vd);
  }
  Sites.clear();
  ReportedCalls.clear();
  CallReports.clear();
  VisitedLiterals.clear();
}

} // namespace clang::tidy::cuda
