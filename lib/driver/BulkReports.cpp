//===--- BulkReports.cpp - cuda-lint --------------------------------------===//
//
// The reports of bulk runs (Bulk.h): SARIF (one log, or several merged) and
// JSON, from the findings and the failed translation units.
//
//===----------------------------------------------------------------------===//

#include "BulkSupport.h"
#include "cudalint/driver/Bulk.h"
#include "cudalint/driver/ImpactNote.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <map>
#include <set>

namespace cudalint {

namespace {

/// The 1-based column of \p Offset in UTF-16 code units, as SARIF's
/// `columnKind: utf16CodeUnits` wants it (clang counts bytes). A UTF-8 byte
/// order mark is not part of the first line.
/// UTF-16 code units in the UTF-8 bytes [From, To) of \p Text.
unsigned utf16Units(StringRef Text, size_t From, size_t To) {
  unsigned Units = 0;
  for (size_t I = From; I < To && I < Text.size(); ++I) {
    unsigned char C = Text[I];
    if ((C & 0xC0) == 0x80)
      continue; // A continuation byte: counted with its lead byte.
    Units += (C & 0xF8) == 0xF0 ? 2 : 1; // Outside the BMP: a surrogate pair.
  }
  return Units;
}

/// Where the text proper starts: after a UTF-8 byte order mark.
size_t textStart(StringRef Text) {
  return Text.starts_with("\xEF\xBB\xBF") ? 3 : 0;
}

unsigned utf16Column(StringRef Text, unsigned Offset) {
  Offset = std::min<size_t>(Offset, Text.size());
  size_t Start = Offset ? Text.rfind('\n', Offset - 1) : StringRef::npos;
  Start = Start == StringRef::npos ? 0 : Start + 1;
  if (Start == 0)
    Start = std::min<size_t>(textStart(Text), Offset);
  return utf16Units(Text, Start, Offset) + 1;
}

/// The name of \p L in JSON reports; a remark is named \p Remark.
std::string levelName(clang::tooling::Diagnostic::Level L,
                      StringRef Remark = "remark") {
  switch (L) {
  case clang::tooling::Diagnostic::Error:
    return "error";
  case clang::tooling::Diagnostic::Remark:
    return Remark.str();
  default:
    return "warning";
  }
}

/// The name of \p L in SARIF, which has no remark level: a note.
std::string sarifLevel(clang::tooling::Diagnostic::Level L) {
  return levelName(L, "note");
}

/// The first paragraph of docs/checks/<check>.md, joined into one line.
std::string checkDescription(StringRef Check, StringRef DocsDir) {
  if (!DocsDir.empty()) {
    llvm::SmallString<256> Doc(DocsDir);
    path::append(Doc, Check + ".md");
    bool Ok;
    std::string Text = readFile(Doc, Ok);
    if (Ok) {
      llvm::SmallVector<StringRef> Lines;
      StringRef(Text).split(Lines, '\n');
      std::string Para;
      for (StringRef L : Lines) {
        L = L.trim();
        if (L.starts_with("#"))
          continue;
        if (L.empty()) {
          if (!Para.empty())
            break;
          continue;
        }
        if (!Para.empty())
          Para += " ";
        Para += L.str();
      }
      if (!Para.empty())
        return Para;
    }
  }
  if (Check.starts_with("clang-diagnostic-"))
    return "Compiler diagnostic " + Check.drop_front(17).str();
  return "clang-tidy check " + Check.str();
}

/// The SARIF artifact location of \p File: relative to %SRCROOT% (\p Root)
/// where it lies below it, a file:// URI otherwise.
llvm::json::Object sarifArtifact(StringRef File, StringRef Root) {
  std::string Rel = relativeTo(File, Root);
  llvm::json::Object Artifact;
  if (Rel != File) {
    Artifact["uri"] = Rel;
    Artifact["uriBaseId"] = "%SRCROOT%";
  } else {
    Artifact["uri"] = "file://" + File.str();
  }
  return Artifact;
}

llvm::json::Object sarifLocation(StringRef File, unsigned Line, unsigned Col,
                                 StringRef Root) {
  return llvm::json::Object{
      {"physicalLocation",
       llvm::json::Object{
           {"artifactLocation", sarifArtifact(File, Root)},
           {"region",
            llvm::json::Object{{"startLine", Line}, {"startColumn", Col}}}}}};
}

/// A SARIF 2.1.0 log of the one run \p Run, printed with an indent of two.
std::string printSarifLog(llvm::json::Object Run) {
  llvm::json::Object Log{
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs", llvm::json::Array{std::move(Run)}}};
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << llvm::formatv("{0:2}", llvm::json::Value(std::move(Log))) << "\n";
  return S;
}

} // namespace

std::string checkDocsUrl(StringRef Check) {
  if (Check.starts_with("cuda-"))
    return (llvm::Twine(CUDA_LINT_DOCS_URL) + Check + ".md").str();
  if (Check.starts_with("clang-diagnostic-"))
    return "https://clang.llvm.org/docs/DiagnosticsReference.html";
  auto [Module, Name] = Check.split('-');
  return ("https://clang.llvm.org/extra/clang-tidy/checks/" + Module + "/" +
          Name + ".html")
      .str();
}

std::string toSarif(llvm::ArrayRef<Finding> Findings,
                    llvm::ArrayRef<Failure> Failures, StringRef Root,
                    StringRef DocsDir, llvm::ArrayRef<Failure> WithErrors) {
  std::map<std::string, unsigned> RuleIndex;
  llvm::json::Array Rules, Results;
  for (const Finding &F : Findings) {
    const std::string &Check = F.Diag.DiagnosticName;
    auto [It, New] = RuleIndex.emplace(Check, Rules.size());
    if (New) {
      std::string Desc = checkDescription(Check, DocsDir);
      Rules.push_back(llvm::json::Object{
          {"id", Check},
          {"name", Check},
          {"shortDescription", llvm::json::Object{{"text", Desc}}},
          {"fullDescription", llvm::json::Object{{"text", Desc}}},
          {"helpUri", checkDocsUrl(Check)},
          {"help",
           llvm::json::Object{{"text", Desc + " See " + checkDocsUrl(Check)}}},
          {"defaultConfiguration",
           llvm::json::Object{{"level", sarifLevel(F.Diag.DiagLevel)}}}});
    }
    llvm::json::Object R{
        {"ruleId", Check},
        {"ruleIndex", It->second},
        {"level", sarifLevel(F.Diag.DiagLevel)},
        {"message", llvm::json::Object{{"text", F.Diag.Message.Message}}}};
    if (!F.File.empty()) {
      bool Ok;
      std::string Text = readFile(F.File, Ok);
      R["locations"] = llvm::json::Array{sarifLocation(
          F.File, F.Line, utf16Column(Text, F.Diag.Message.FileOffset), Root)};
    }
    // The impact estimate: SARIF's rank (0-100) and a property.
    if (std::optional<ImpactNote> I = findingImpact(F.Diag)) {
      R["rank"] = I->Rank;
      R["properties"] = llvm::json::Object{{"impact", I->toJson()}};
    }
    llvm::json::Array Related;
    for (const clang::tooling::DiagnosticMessage &N : F.Diag.Notes) {
      if (N.FilePath.empty() || isImpactNote(N))
        continue;
      // Positions of notes come from the same file contents.
      bool Ok;
      std::string Text = readFile(N.FilePath, Ok);
      unsigned L = offsetToPosition(Text, N.FileOffset).first;
      llvm::json::Object Loc =
          sarifLocation(N.FilePath, L, utf16Column(Text, N.FileOffset), Root);
      Loc["message"] = llvm::json::Object{{"text", N.Message}};
      Related.push_back(std::move(Loc));
    }
    if (!Related.empty())
      R["relatedLocations"] = std::move(Related);
    llvm::json::Array Changes;
    for (const auto &[File, Reps] : F.Diag.Message.Fix) {
      bool Ok;
      std::string Text = readFile(File, Ok);
      llvm::json::Array Replacements;
      for (const clang::tooling::Replacement &Rep : Reps) {
        unsigned SL = offsetToPosition(Text, Rep.getOffset()).first;
        unsigned EL =
            offsetToPosition(Text, Rep.getOffset() + Rep.getLength()).first;
        unsigned SC = utf16Column(Text, Rep.getOffset());
        unsigned EC = utf16Column(Text, Rep.getOffset() + Rep.getLength());
        Replacements.push_back(llvm::json::Object{
            {"deletedRegion",
             llvm::json::Object{
                 {"startLine", SL},
                 {"startColumn", SC},
                 {"endLine", EL},
                 {"endColumn", EC},
                 {"charOffset",
                  utf16Units(Text, textStart(Text), Rep.getOffset())},
                 {"charLength",
                  utf16Units(Text, Rep.getOffset(),
                             Rep.getOffset() + Rep.getLength())}}},
            {"insertedContent",
             llvm::json::Object{{"text", Rep.getReplacementText()}}}});
      }
      if (Replacements.empty())
        continue;
      Changes.push_back(
          llvm::json::Object{{"artifactLocation", sarifArtifact(File, Root)},
                             {"replacements", std::move(Replacements)}});
    }
    if (!Changes.empty())
      R["fixes"] = llvm::json::Array{llvm::json::Object{
          {"description",
           llvm::json::Object{{"text", "Apply the fix of " + Check}}},
          {"artifactChanges", std::move(Changes)}}};
    Results.push_back(std::move(R));
  }

  llvm::json::Array Notifications;
  for (const Failure &F : Failures)
    Notifications.push_back(llvm::json::Object{
        {"level", "error"},
        {"message", llvm::json::Object{{"text", F.File + ": " + F.Reason}}}});
  for (const Failure &F : WithErrors)
    Notifications.push_back(llvm::json::Object{
        {"level", "warning"},
        {"message",
         llvm::json::Object{
             {"text", F.File + ": analysed with errors: " + F.Reason}}}});

  llvm::SmallString<256> RootUri("file://");
  RootUri += Root;
  if (!RootUri.ends_with("/"))
    RootUri += "/";
  llvm::json::Object Run{
      {"tool",
       llvm::json::Object{
           {"driver", llvm::json::Object{{"name", "cuda-lint"},
                                         {"informationUri", CUDA_LINT_INFO_URL},
                                         {"version", CUDA_LINT_VERSION},
                                         {"rules", std::move(Rules)}}}}},
      {"originalUriBaseIds",
       llvm::json::Object{
           {"%SRCROOT%", llvm::json::Object{{"uri", std::string(RootUri)}}}}},
      {"columnKind", "utf16CodeUnits"},
      {"results", std::move(Results)},
      {"invocations",
       llvm::json::Array{llvm::json::Object{
           {"executionSuccessful", Failures.empty()},
           {"toolExecutionNotifications", std::move(Notifications)}}}}};
  return printSarifLog(std::move(Run));
}

std::optional<std::string> mergeSarif(llvm::ArrayRef<std::string> Logs,
                                      std::string &Error) {
  llvm::json::Array Rules, Results, Notifications;
  std::map<std::string, unsigned> RuleIndex;
  std::set<std::string> SeenResults;
  std::optional<llvm::json::Object> Base;
  bool Successful = true;
  for (const std::string &File : Logs) {
    auto Buf = llvm::MemoryBuffer::getFile(File);
    if (!Buf) {
      Error = File + ": " + Buf.getError().message();
      return std::nullopt;
    }
    llvm::Expected<llvm::json::Value> V =
        llvm::json::parse((*Buf)->getBuffer());
    if (!V) {
      Error = File + ": not JSON: " + llvm::toString(V.takeError());
      return std::nullopt;
    }
    llvm::json::Object *Log = V->getAsObject();
    llvm::json::Array *Runs = Log ? Log->getArray("runs") : nullptr;
    if (!Runs) {
      Error = File + ": not a SARIF log (no runs)";
      return std::nullopt;
    }
    for (llvm::json::Value &RunV : *Runs) {
      llvm::json::Object *Run = RunV.getAsObject();
      if (!Run)
        continue;
      if (!Base)
        Base = *Run;
      std::vector<std::string> LocalIds;
      if (auto *Tool = Run->getObject("tool"))
        if (auto *Driver = Tool->getObject("driver"))
          if (auto *Rs = Driver->getArray("rules"))
            for (llvm::json::Value &R : *Rs) {
              auto *RO = R.getAsObject();
              std::string Id = RO && RO->getString("id")
                                   ? RO->getString("id")->str()
                                   : std::string();
              LocalIds.push_back(Id);
              if (RuleIndex.emplace(Id, Rules.size()).second)
                Rules.push_back(R);
            }
      if (auto *Rs = Run->getArray("results"))
        for (llvm::json::Value &R : *Rs) {
          auto *RO = R.getAsObject();
          if (!RO)
            continue;
          if (auto Id = RO->getString("ruleId");
              Id && RuleIndex.count(Id->str()))
            (*RO)["ruleIndex"] = RuleIndex[Id->str()];
          std::string Key;
          llvm::raw_string_ostream KS(Key);
          KS << R;
          if (SeenResults.insert(Key).second)
            Results.push_back(R);
        }
      if (auto *Inv = Run->getArray("invocations"))
        for (llvm::json::Value &I : *Inv)
          if (auto *IO = I.getAsObject()) {
            if (auto S = IO->getBoolean("executionSuccessful"); S && !*S)
              Successful = false;
            if (auto *Ns = IO->getArray("toolExecutionNotifications"))
              for (llvm::json::Value &N : *Ns)
                Notifications.push_back(N);
          }
    }
  }
  if (!Base) {
    Error = "no SARIF run to merge";
    return std::nullopt;
  }
  llvm::json::Object Run = std::move(*Base);
  if (auto *Tool = Run.getObject("tool"))
    if (auto *Driver = Tool->getObject("driver"))
      (*Driver)["rules"] = std::move(Rules);
  Run["results"] = std::move(Results);
  Run["invocations"] = llvm::json::Array{llvm::json::Object{
      {"executionSuccessful", Successful},
      {"toolExecutionNotifications", std::move(Notifications)}}};
  return printSarifLog(std::move(Run));
}

std::string toJson(llvm::ArrayRef<Finding> Findings,
                   llvm::ArrayRef<Failure> Failures,
                   llvm::ArrayRef<Failure> WithErrors,
                   llvm::ArrayRef<Failure> Sanitizer) {
  llvm::json::Array Fs;
  std::map<std::string, unsigned> PerCheck;
  for (const Finding &F : Findings) {
    ++PerCheck[F.Diag.DiagnosticName];
    llvm::json::Array Fixes;
    for (const auto &[File, Reps] : F.Diag.Message.Fix) {
      bool Ok;
      std::string Text = readFile(File, Ok);
      for (const clang::tooling::Replacement &R : Reps) {
        auto [L, C] = offsetToPosition(Text, R.getOffset());
        Fixes.push_back(
            llvm::json::Object{{"file", File},
                               {"offset", R.getOffset()},
                               {"length", R.getLength()},
                               {"line", L},
                               {"column", C},
                               {"replacement", R.getReplacementText()}});
      }
    }
    llvm::json::Array Notes;
    for (const clang::tooling::DiagnosticMessage &N : F.Diag.Notes) {
      if (isImpactNote(N))
        continue; // Its own field.
      bool Ok;
      std::string Text = readFile(N.FilePath, Ok);
      auto [L, C] = offsetToPosition(Text, N.FileOffset);
      Notes.push_back(llvm::json::Object{{"file", N.FilePath},
                                         {"line", L},
                                         {"column", C},
                                         {"message", N.Message}});
    }
    Fs.push_back(llvm::json::Object{{"check", F.Diag.DiagnosticName},
                                    {"level", levelName(F.Diag.DiagLevel)},
                                    {"message", F.Diag.Message.Message},
                                    {"file", F.File},
                                    {"line", F.Line},
                                    {"column", F.Column},
                                    {"offset", F.Diag.Message.FileOffset},
                                    {"fixes", std::move(Fixes)},
                                    {"notes", std::move(Notes)}});
    if (std::optional<ImpactNote> I = findingImpact(F.Diag))
      (*Fs.back().getAsObject())["impact"] = I->toJson();
  }
  llvm::json::Array Fails;
  for (const Failure &F : Failures)
    Fails.push_back(llvm::json::Object{{"file", F.File}, {"reason", F.Reason}});
  llvm::json::Array Errs, Sans;
  for (const Failure &F : WithErrors)
    Errs.push_back(llvm::json::Object{{"file", F.File}, {"error", F.Reason}});
  for (const Failure &F : Sanitizer)
    Sans.push_back(llvm::json::Object{{"file", F.File}, {"report", F.Reason}});
  llvm::json::Object Counts;
  for (const auto &[C, N] : PerCheck)
    Counts[C] = N;
  llvm::json::Object Doc{{"version", 1},
                         {"tool", "cuda-lint"},
                         {"findings", std::move(Fs)},
                         {"failures", std::move(Fails)},
                         {"analysedWithErrors", std::move(Errs)},
                         {"sanitizerReports", std::move(Sans)},
                         {"findingsPerCheck", std::move(Counts)}};
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << llvm::formatv("{0:2}", llvm::json::Value(std::move(Doc))) << "\n";
  return S;
}

} // namespace cudalint
