//===--- IntegerOps.h - C++ integer arithmetic on lane values ---*- C++ -*-===//
//
// The one place that knows what an integer operator computes: the lane
// evaluator, the loop-counter walk, the butterfly-loop matcher, the
// implied-test rule and the linear forms of element addresses all ask it,
// so a new operator (or a fix to one) has one room. Values are int64_t wrapped
// to the width and signedness of their C++ type, as the device computes them.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_ANALYSIS_INTEGEROPS_H
#define WARP_LINT_ANALYSIS_INTEGEROPS_H

#include "clang/AST/OperationKinds.h"
#include <array>
#include <cstdint>
#include <optional>
#include <utility>

namespace clang::warp {

/// One value per lane of a warp; nullopt where it is not known.
using LaneValues = std::array<std::optional<int64_t>, 32>;

/// How the values of one integer type wrap.
struct IntFormat {
  uint8_t Bits = 0; ///< 0: not wrapped (not an integer, or 64 bits)
  bool Signed = false;
  bool Bool = false; ///< bool: every nonzero value is 1

  /// \p V as a value of this type (wrapped, sign-extended).
  int64_t wrap(int64_t V) const;
};

/// \p A op \p B as C++ computes it on operands whose (promoted) left type
/// is \p LeftBits wide (shifts past it are undefined). Nullopt where C++
/// leaves the result undefined (a zero divisor, an oversized or negative
/// shift), and for operators without an integer value (assignments, comma,
/// pointer arithmetic is the caller's).
std::optional<int64_t> applyBinary(BinaryOperatorKind Op, int64_t A, int64_t B,
                                   unsigned LeftBits = 64);

/// op \p V for the arithmetic unary operators (-, ~, !, +); nullopt for the
/// others (increments, address-of, dereference).
std::optional<int64_t> applyUnary(UnaryOperatorKind Op, int64_t V);

/// The operator a compound assignment applies (`+=` is `+`), or the
/// operator itself.
BinaryOperatorKind underlyingOperator(BinaryOperatorKind Op);

/// The scales of the left and right operand in `a op b` where \p Op adds
/// or subtracts them (1 and 1, 1 and -1): the linear forms of addresses
/// split sums into terms this way. Nothing for other operators (a product
/// is linear only by a constant, which the caller finds).
std::optional<std::pair<int64_t, int64_t>>
additiveScales(BinaryOperatorKind Op);

/// Whether \p Op combines values in any order and grouping (+, *, &, |, ^):
/// the operators a warp reduction folds lanes' values with.
bool isReductionOperator(BinaryOperatorKind Op);

/// Whether comparison \p Op holds between two equal operands (`a <= a`):
/// a test that is false there separates every lane from its equals.
bool holdsForEqualOperands(BinaryOperatorKind Op);

} // namespace clang::warp

#endif
