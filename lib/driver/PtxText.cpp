//===--- PtxText.cpp - cuda-lint ------------------------------------------===//

#include "cudalint/driver/PtxText.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include <cstring>

using llvm::StringRef;

namespace cudalint {

namespace {

/// The opcode of an instruction line (after a `@%p` guard), or "" for a
/// directive, a label, a brace or a declaration.
StringRef opcodeOf(StringRef Line) {
  Line = Line.split("//").first.trim();
  if (Line.empty() || Line.starts_with(".") || Line.starts_with("{") ||
      Line.starts_with("}") || Line.starts_with(")") || Line.ends_with(":") ||
      Line.ends_with(","))
    return "";
  if (Line.starts_with("@"))
    Line = Line.split(' ').second.ltrim();
  StringRef Op = Line.take_until([](char C) { return C == ' ' || C == '\t'; });
  return Op.ends_with(";") ? Op.drop_back() : Op;
}

/// Calls \p Fn with each instruction line of \p Ptx (without its comment)
/// and its opcode.
template <typename Callback>
void forEachInstruction(StringRef Ptx, Callback Fn) {
  llvm::SmallVector<StringRef> Lines;
  Ptx.split(Lines, '\n');
  for (StringRef L : Lines)
    if (StringRef Op = opcodeOf(L); !Op.empty())
      Fn(L.split("//").first.trim(), Op);
}

bool isIntegerDivision(StringRef Op) {
  if (!Op.starts_with("div.") && !Op.starts_with("rem."))
    return false;
  return llvm::any_of(
      llvm::ArrayRef<StringRef>{".s32", ".u32", ".s64", ".u64", ".s16", ".u16"},
      [&](StringRef T) { return Op.ends_with(T); });
}

/// \p Line with register numbers, branch labels and mangled names left out
/// (`%rd12` is `%rd`, `$L__BB0_3` is `$L`, `_Z4stepPfPKf` is `_Z`): a fix
/// renumbers the registers after it, and adding `const` to a pointer
/// parameter renames the kernel.
std::string withoutNames(StringRef Line) {
  auto Ident = [](char C) { return llvm::isAlnum(C) || C == '_' || C == '$'; };
  std::string Out;
  for (size_t I = 0; I < Line.size();) {
    char C = Line[I];
    bool Start = I == 0 || !Ident(Line[I - 1]);
    if (C == '%') {
      size_t J = I + 1;
      while (J < Line.size() && llvm::isAlpha(Line[J]))
        ++J;
      Out += Line.slice(I, J);
      while (J < Line.size() && llvm::isDigit(Line[J]))
        ++J;
      I = J;
    } else if (Start && (Line.substr(I).starts_with("_Z") ||
                         Line.substr(I).starts_with("$L__"))) {
      Out += C == '_' ? "_Z" : "$L";
      while (I < Line.size() && Ident(Line[I]))
        ++I;
    } else {
      Out += C;
      ++I;
    }
  }
  return Out;
}

} // namespace

PtxCounts countPtx(StringRef Ptx) {
  PtxCounts C;
  forEachInstruction(Ptx, [&](StringRef, StringRef Op) {
    ++C.Instructions;
    C.F64 += Op.contains(".f64");
    C.NonCoherent += Op.starts_with("ld.global.nc");
    C.IntDivisions += isIntegerDivision(Op);
    C.LocalAccesses += Op.starts_with("ld.local") || Op.starts_with("st.local");
  });
  return C;
}

std::string normalisePtx(StringRef Ptx) {
  std::string Out;
  llvm::SmallVector<StringRef> Lines;
  Ptx.split(Lines, '\n');
  for (StringRef L : Lines) {
    L = L.split("//").first.rtrim();
    if (L.trim().empty() || L.starts_with(".version") ||
        L.starts_with(".target"))
      continue;
    Out += L;
    Out += '\n';
  }
  return Out;
}

std::string describeChange(const PtxCounts &Before, const PtxCounts &After) {
  std::string Out;
  auto Add = [&](StringRef What, unsigned B, unsigned A) {
    if (B == A)
      return;
    Out += (Out.empty() ? "" : ", ") + What.str() + " " + std::to_string(B) +
           " -> " + std::to_string(A);
  };
  Add("f64 instructions", Before.F64, After.F64);
  Add("ld.global.nc loads", Before.NonCoherent, After.NonCoherent);
  Add("integer divisions", Before.IntDivisions, After.IntDivisions);
  Add("local-memory accesses", Before.LocalAccesses, After.LocalAccesses);
  Add("instructions", Before.Instructions, After.Instructions);
  return Out;
}

std::map<std::string, unsigned> instructionMultiset(StringRef Ptx,
                                                    bool PlainLoads) {
  std::map<std::string, unsigned> Out;
  forEachInstruction(Ptx, [&](StringRef Line, StringRef Op) {
    std::string Key = withoutNames(Line);
    if (PlainLoads && Op.starts_with("ld.global.nc."))
      Key.erase(Key.find("ld.global.nc.") + strlen("ld.global."), 3);
    ++Out[Key];
  });
  return Out;
}

} // namespace cudalint
