//===--- IntegerOps.cpp - C++ integer arithmetic on lane values -----------===//

#include "IntegerOps.h"
#include "clang/AST/Expr.h"

namespace clang::warp {

int64_t IntFormat::wrap(int64_t V) const {
  if (Bool)
    return V != 0;
  if (!Bits)
    return V;
  uint64_t Mask = (uint64_t(1) << Bits) - 1;
  uint64_t U = uint64_t(V) & Mask;
  if (Signed && (U >> (Bits - 1)))
    U |= ~Mask;
  return int64_t(U);
}

std::optional<int64_t> applyBinary(BinaryOperatorKind Op, int64_t A, int64_t B,
                                   unsigned LeftBits) {
  switch (Op) {
  case BO_Add:
    return int64_t(uint64_t(A) + uint64_t(B));
  case BO_Sub:
    return int64_t(uint64_t(A) - uint64_t(B));
  case BO_Mul:
    return int64_t(uint64_t(A) * uint64_t(B));
  case BO_Div:
  case BO_Rem:
    // INT64_MIN / -1 overflows in the host's arithmetic too.
    if (B == 0 || (B == -1 && A == INT64_MIN))
      return std::nullopt;
    return Op == BO_Div ? A / B : A % B;
  case BO_Shl:
  case BO_Shr:
    if (B < 0 || B >= int64_t(LeftBits ? LeftBits : 64) || B >= 64)
      return std::nullopt;
    return Op == BO_Shl ? int64_t(uint64_t(A) << B) : A >> B;
  case BO_And:
    return A & B;
  case BO_Or:
    return A | B;
  case BO_Xor:
    return A ^ B;
  case BO_LT:
    return A < B;
  case BO_GT:
    return A > B;
  case BO_LE:
    return A <= B;
  case BO_GE:
    return A >= B;
  case BO_EQ:
    return A == B;
  case BO_NE:
    return A != B;
  case BO_LAnd:
    return A && B;
  case BO_LOr:
    return A || B;
  default:
    return std::nullopt;
  }
}

std::optional<int64_t> applyUnary(UnaryOperatorKind Op, int64_t V) {
  switch (Op) {
  case UO_Minus:
    return int64_t(0 - uint64_t(V));
  case UO_Not:
    return ~V;
  case UO_LNot:
    return int64_t(!V);
  case UO_Plus:
    return V;
  default:
    return std::nullopt;
  }
}

BinaryOperatorKind underlyingOperator(BinaryOperatorKind Op) {
  return BinaryOperator::isCompoundAssignmentOp(Op)
             ? BinaryOperator::getOpForCompoundAssignment(Op)
             : Op;
}

bool holdsForEqualOperands(BinaryOperatorKind Op) {
  return applyBinary(Op, 0, 0).value_or(0) != 0;
}

bool isReductionOperator(BinaryOperatorKind Op) {
  switch (Op) {
  case BO_Add:
  case BO_Mul:
  case BO_And:
  case BO_Or:
  case BO_Xor:
    return true;
  default:
    return false;
  }
}

std::optional<std::pair<int64_t, int64_t>>
additiveScales(BinaryOperatorKind Op) {
  switch (Op) {
  case BO_Add:
    return std::pair<int64_t, int64_t>(1, 1);
  case BO_Sub:
    return std::pair<int64_t, int64_t>(1, -1);
  default:
    return std::nullopt;
  }
}

} // namespace clang::warp
