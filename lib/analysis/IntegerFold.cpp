//===--- IntegerFold.cpp - cuda-lint --------------------------------------===//
//
// foldIntegerOperator (see IntegerFold.h).
//
//===----------------------------------------------------------------------===//

#include "cudalint/analysis/IntegerFold.h"
#include <algorithm>
#include <limits>

namespace clang::tidy::cuda {

std::optional<int64_t> foldIntegerOperator(BinaryOperatorKind Op, int64_t L,
                                           int64_t R, bool Unsigned,
                                           int64_t MaxShift) {
  uint64_t UL = uint64_t(L), UR = uint64_t(R);
  switch (Op) {
  case BO_Add:
    return int64_t(UL + UR);
  case BO_Sub:
    return int64_t(UL - UR);
  case BO_Mul:
    return int64_t(UL * UR);
  case BO_Div:
  case BO_Rem:
    if (R == 0 ||
        (!Unsigned && R == -1 && L == std::numeric_limits<int64_t>::min()))
      return std::nullopt;
    if (Unsigned)
      return int64_t(Op == BO_Div ? UL / UR : UL % UR);
    return Op == BO_Div ? L / R : L % R;
  case BO_Shl:
  case BO_Shr:
    if (R < 0 || R > std::min<int64_t>(MaxShift, 62))
      return std::nullopt;
    return Op == BO_Shl ? int64_t(UL << R) : L >> R;
  case BO_And:
    return L & R;
  case BO_Or:
    return L | R;
  case BO_Xor:
    return L ^ R;
  case BO_LT:
    return int64_t(L < R);
  case BO_LE:
    return int64_t(L <= R);
  case BO_GT:
    return int64_t(L > R);
  case BO_GE:
    return int64_t(L >= R);
  case BO_EQ:
    return int64_t(L == R);
  case BO_NE:
    return int64_t(L != R);
  default:
    return std::nullopt;
  }
}

} // namespace clang::tidy::cuda
