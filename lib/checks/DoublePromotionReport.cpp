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
#include "llvm/Support/FormatVariadic.h"
#include <cmath>
#include <functional>

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

using namespace double_promotion;

void DoublePromotionCheck::onEndOfTranslationUnit() {
  // What each site's finding would be, and the operand it is reported for.
  struct Verdict {
    LiteralSite *Site;
    const Occurrence *First;
    bool AllNarrowed, AllConditional;
    bool AnyFromInteger, AllFromInteger;
    std::string WhyNot;
    SourceLocation ToInteger;
  };
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

  // With the suffix, the integer is converted to float rather than double,
  // and the arithmetic rounds in float.
  auto NoteIntegerToFloat = [&](SourceLocation Loc, StringRef Spelling) {
    diag(Loc,
         "with '%0f' the integer is converted to float, exactly only up to "
         "2^24 in magnitude, and the arithmetic rounds to float: results "
         "can differ from the double computation in the last bits",
         DiagnosticIDs::Note)
        << Spelling;
  };

  // One finding per promoting operand: the literals of one literal-only
  // operand (`x * K` with `#define K (1.0 / PI)`) are reported together.
  llvm::MapVector<std::pair<SourceLocation, SourceLocation>,
                  SmallVector<const Verdict *, 1>>
      Operands;
  for (const Verdict &Vd : Verdicts)
    Operands[Vd.First->Operand].push_back(&Vd);

  for (auto &[Key, Group] : Operands) {
    if (Group.size() == 1) {
      const Verdict &Vd = *Group.front();
      const LiteralSite &Site = *Vd.Site;
      const FloatValue &V = Site.Value;
      SourceLocation Loc = Vd.First->ExpansionLoc;
      // nvcc computes it in float already: the suffix changes no
      // instruction (checked with nvcc -ptx, cuda-double-promotion-ptx.cu).
      if (Vd.AllNarrowed && !ReportNarrowed)
        continue;
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
          Diag << FixItHint::CreateInsertion(
              Lexer::getLocForEndOfToken(Site.SpellingLoc, 0, *SM, *LangOpts),
              "f");
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
        NoteIntegerToFloat(Loc, Site.Spelling);
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
      continue;
    }
    // Several literals in one operand: a literal-only expression is never a
    // narrowed single operation. Fixed only when every literal can be, so
    // that the operand becomes float as a whole.
    SourceLocation Loc = Group.front()->First->ExpansionLoc;
    bool AllFixable = llvm::all_of(
        Group, [](const Verdict *Vd) { return Vd->WhyNot.empty(); });
    {
      auto Diag = diag(Loc, "double-precision constant '%0' promotes float "
                            "arithmetic to double")
                  << Group.front()->First->OperandText;
      if (AllFixable)
        for (const Verdict *Vd : Group)
          Diag << FixItHint::CreateInsertion(
              Lexer::getLocForEndOfToken(Vd->Site->SpellingLoc, 0, *SM,
                                         *LangOpts),
              "f");
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
        NoteIntegerToFloat(Site.SpellingLoc, Site.Spelling);
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
  Sites.clear();
  ReportedCalls.clear();
  VisitedLiterals.clear();
}

} // namespace clang::tidy::cuda
