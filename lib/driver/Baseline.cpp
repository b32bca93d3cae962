//===--- Baseline.cpp - cuda-lint -----------------------------------------===//
//
// Findings recorded once and left out of later reports (see Baseline.h).
//
//===----------------------------------------------------------------------===//

#include "cudalint/driver/Baseline.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

using llvm::StringRef;

namespace cudalint {

namespace {

/// \p S with every run of whitespace made one space, and trimmed.
std::string collapse(StringRef S) {
  std::string Out;
  bool Space = false;
  for (char C : S.trim()) {
    if (llvm::isSpace(C)) {
      Space = true;
      continue;
    }
    if (Space && !Out.empty())
      Out += ' ';
    Space = false;
    Out += C;
  }
  return Out;
}

bool isCompileError(const Finding &F) {
  return StringRef(F.Diag.DiagnosticName).starts_with("clang-diagnostic-error");
}

} // namespace

std::string baselineFingerprint(llvm::ArrayRef<std::string> Lines,
                                unsigned Line, StringRef Message) {
  std::string Text;
  for (unsigned L = Line > 1 ? Line - 1 : 1; L <= Line + 1; ++L) {
    if (L >= 1 && L <= Lines.size())
      Text += collapse(Lines[L - 1]);
    Text += '\n';
  }
  Text += collapse(Message);
  return llvm::utohexstr(llvm::xxh3_64bits(llvm::arrayRefFromStringRef(Text)),
                         /*LowerCase=*/true, /*Width=*/16);
}

Baseline::Baseline(StringRef F)
    : File(makeAbsolute(F)), Dir(llvm::sys::path::parent_path(File).str()) {}

const std::vector<std::string> &
Baseline::linesOf(const std::string &Path) const {
  auto It = Lines.find(Path);
  if (It != Lines.end())
    return It->second;
  std::vector<std::string> &Out = Lines[Path];
  if (auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true)) {
    llvm::SmallVector<StringRef> Split;
    (*Buf)->getBuffer().split(Split, '\n');
    for (StringRef L : Split)
      Out.push_back(L.rtrim('\r').str());
  }
  return Out;
}

Baseline::Key Baseline::keyOf(const Finding &F) const {
  std::string Abs = makeAbsolute(F.File);
  return {F.Diag.DiagnosticName, relativeTo(Abs, Dir),
          baselineFingerprint(linesOf(Abs), F.Line, F.Diag.Message.Message)};
}

size_t Baseline::size() const {
  size_t N = 0;
  for (const auto &[K, C] : Counts)
    N += C;
  return N;
}

bool Baseline::load(std::string &Error) {
  auto Buf = llvm::MemoryBuffer::getFile(File, /*IsText=*/true);
  if (!Buf) {
    Error = File + ": cannot be read: " + Buf.getError().message() +
            " (--write-baseline creates it)";
    return false;
  }
  llvm::Expected<llvm::json::Value> V = llvm::json::parse((*Buf)->getBuffer());
  if (!V) {
    Error = File + ": invalid JSON: " + llvm::toString(V.takeError());
    return false;
  }
  const llvm::json::Object *O = V->getAsObject();
  const llvm::json::Array *A = O ? O->getArray("findings") : nullptr;
  if (!A) {
    Error = File + ": not a cuda-lint baseline (no \"findings\" array)";
    return false;
  }
  Counts.clear();
  for (const llvm::json::Value &E : *A) {
    const llvm::json::Object *F = E.getAsObject();
    std::optional<StringRef> Check = F ? F->getString("check") : std::nullopt;
    std::optional<StringRef> Path = F ? F->getString("file") : std::nullopt;
    std::optional<StringRef> Print =
        F ? F->getString("fingerprint") : std::nullopt;
    if (!Check || !Path || !Print) {
      Error = File + ": a finding without check, file or fingerprint";
      return false;
    }
    int64_t N = F->getInteger("count").value_or(1);
    Counts[{Check->str(), Path->str(), Print->str()}] +=
        static_cast<unsigned>(std::max<int64_t>(N, 0));
  }
  return true;
}

bool Baseline::write(llvm::ArrayRef<Finding> Findings, std::string &Error) {
  Counts.clear();
  // For the reader: the message and line of the first finding of each key.
  std::map<Key, std::pair<std::string, unsigned>> First;
  for (const Finding &F : Findings) {
    if (isCompileError(F))
      continue;
    Key K = keyOf(F);
    if (Counts[K]++ == 0)
      First[K] = {F.Diag.Message.Message, F.Line};
  }
  llvm::json::Array Out;
  for (const auto &[K, N] : Counts) {
    const auto &[Check, Path, Print] = K;
    Out.push_back(llvm::json::Object{{"check", Check},
                                     {"file", Path},
                                     {"fingerprint", Print},
                                     {"count", static_cast<int64_t>(N)},
                                     {"line", First[K].second},
                                     {"message", First[K].first}});
  }
  llvm::json::Object Doc{
      {"version", 1},
      {"tool", "cuda-lint"},
      {"comment", "Findings recorded by cuda-lint --write-baseline; cuda-lint "
                  "--baseline reports only findings not listed here. The "
                  "line is informational: a finding is matched by check, "
                  "file and the fingerprint of its line, its neighbours and "
                  "its message."},
      {"findings", std::move(Out)}};
  std::error_code EC;
  llvm::raw_fd_ostream OS(File, EC);
  if (EC) {
    Error = File + ": " + EC.message();
    return false;
  }
  OS << llvm::formatv("{0:2}", llvm::json::Value(std::move(Doc))) << "\n";
  return true;
}

unsigned Baseline::filter(std::vector<Finding> &Findings,
                          std::vector<Finding> *Removed) const {
  std::map<Key, unsigned> Left = Counts;
  unsigned N = 0;
  std::vector<Finding> Kept;
  for (Finding &F : Findings) {
    if (!isCompileError(F)) {
      auto It = Left.find(keyOf(F));
      if (It != Left.end() && It->second > 0) {
        --It->second;
        ++N;
        if (Removed)
          Removed->push_back(std::move(F));
        continue;
      }
    }
    Kept.push_back(std::move(F));
  }
  Findings = std::move(Kept);
  return N;
}

} // namespace cudalint
