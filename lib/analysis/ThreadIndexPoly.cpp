//===--- ThreadIndexPoly.cpp - cuda-lint ----------------------------------===//
//
// IndexSymbol and IndexPoly (see ThreadIndex.h): the symbols of an index
// and the polynomials over them that ThreadIndexAnalysis computes.
//
//===----------------------------------------------------------------------===//

#include "cudalint/analysis/ThreadIndex.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

namespace clang::tidy::cuda {

//===----------------------------------------------------------------------===//
// IndexSymbol and IndexPoly
//===----------------------------------------------------------------------===//

std::string IndexSymbol::str() const {
  static const char *const Dims[] = {"x", "y", "z"};
  switch (Kind) {
  case ThreadIdx:
    return std::string("threadIdx.") + Dims[Dim];
  case BlockIdx:
    return std::string("blockIdx.") + Dims[Dim];
  case BlockDim:
    return std::string("blockDim.") + Dims[Dim];
  case GridDim:
    return std::string("gridDim.") + Dims[Dim];
  case Variable:
    return getDecl()->getNameAsString();
  case Opaque:
    return "<uniform>";
  case Modulo:
    return "<modulo>";
  }
  return "?";
}

IndexPoly IndexPoly::constant(int64_t C) {
  IndexPoly P;
  if (C != 0)
    P.Terms[Monomial()] = C;
  return P;
}

IndexPoly IndexPoly::symbol(IndexSymbol S) {
  IndexPoly P;
  Monomial M;
  M.push_back(S);
  P.Terms[M] = 1;
  return P;
}

IndexPoly IndexPoly::operator+(const IndexPoly &O) const {
  IndexPoly R = *this;
  for (const auto &[M, C] : O.Terms) {
    int64_t &Slot = R.Terms[M];
    Slot += C;
    if (Slot == 0)
      R.Terms.erase(M);
  }
  return R;
}

IndexPoly IndexPoly::operator*(int64_t C) const {
  IndexPoly R;
  if (C == 0)
    return R;
  for (const auto &[M, K] : Terms)
    R.Terms[M] = K * C;
  return R;
}

IndexPoly IndexPoly::operator-(const IndexPoly &O) const {
  return *this + O * -1;
}

IndexPoly IndexPoly::operator*(const IndexPoly &O) const {
  IndexPoly R;
  for (const auto &[M1, C1] : Terms)
    for (const auto &[M2, C2] : O.Terms) {
      Monomial M = M1;
      M.append(M2.begin(), M2.end());
      llvm::sort(M);
      IndexPoly T;
      T.Terms[M] = C1 * C2;
      R = R + T;
    }
  return R;
}

std::optional<int64_t> IndexPoly::getConstant() const {
  if (Terms.empty())
    return 0;
  if (Terms.size() == 1 && Terms.begin()->first.empty())
    return Terms.begin()->second;
  return std::nullopt;
}

int64_t IndexPoly::constantTerm() const {
  auto It = Terms.find(Monomial());
  return It == Terms.end() ? 0 : It->second;
}

bool IndexPoly::isThreadDependent() const {
  for (const auto &Entry : Terms)
    for (const IndexSymbol &S : Entry.first)
      if (S.isThreadDependent())
        return true;
  return false;
}

bool IndexPoly::mentions(IndexSymbol::SymbolKind Kind) const {
  for (const auto &Entry : Terms)
    for (const IndexSymbol &S : Entry.first)
      if (S.Kind == Kind)
        return true;
  return false;
}

std::optional<IndexPoly> IndexPoly::coefficientOf(IndexSymbol S) const {
  // A Modulo symbol may hide S; the caller cannot know how it moves.
  if (S.isThreadDependent() && mentions(IndexSymbol::Modulo))
    return std::nullopt;
  IndexPoly Coef;
  for (const auto &[M, C] : Terms) {
    unsigned Count = llvm::count(M, S);
    if (Count == 0)
      continue;
    if (Count > 1)
      return std::nullopt;
    Monomial Rest;
    for (const IndexSymbol &T : M)
      if (T != S)
        Rest.push_back(T);
    IndexPoly Term;
    Term.Terms[Rest] = C;
    Coef = Coef + Term;
  }
  return Coef;
}

IndexPoly IndexPoly::uniformPart() const {
  IndexPoly R;
  for (const auto &[M, C] : Terms)
    if (llvm::none_of(
            M, [](const IndexSymbol &S) { return S.isThreadDependent(); }))
      R.Terms[M] = C;
  return R;
}

IndexPoly IndexPoly::threadPart() const { return *this - uniformPart(); }

std::string IndexPoly::str() const {
  if (Terms.empty())
    return "0";
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  bool First = true;
  // Symbols first, the constant last: `threadIdx.x * 3 + 1`.
  auto Emit = [&](const Monomial &M, int64_t C) {
    if (!First)
      OS << (C < 0 ? " - " : " + ");
    else if (C < 0)
      OS << "-";
    First = false;
    int64_t A = C < 0 ? -C : C;
    if (M.empty()) {
      OS << A;
      return;
    }
    if (A != 1)
      OS << A << " * ";
    for (unsigned I = 0; I < M.size(); ++I)
      OS << (I ? " * " : "") << M[I].str();
  };
  for (const auto &[M, C] : Terms)
    if (!M.empty())
      Emit(M, C);
  auto It = Terms.find(Monomial());
  if (It != Terms.end())
    Emit(It->first, It->second);
  return Out;
}

} // namespace clang::tidy::cuda
