//===--- MovedLanes.cpp - one warp's lanes as another's moved -------------===//

#include "MovedLanes.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/MathExtras.h"

namespace clang::warp {

std::optional<int64_t> movedBetween(const LaneValues &From,
                                    const LaneValues &To, IntFormat F) {
  std::optional<int64_t> D;
  for (unsigned L = 0; L < 32; ++L) {
    if (bool(From[L]) != bool(To[L]))
      return std::nullopt;
    if (!From[L])
      continue;
    if (!D)
      D = int64_t(uint64_t(*To[L]) - uint64_t(*From[L]));
    if (F.Bool || F.wrap(int64_t(uint64_t(*From[L]) + uint64_t(*D))) != *To[L])
      return std::nullopt;
  }
  return D.value_or(0);
}

/// The value every lane of \p V that is known holds, if they agree (and
/// one is).
static std::optional<int64_t> sameInKnownLanes(const LaneValues &V) {
  std::optional<int64_t> Same;
  for (const std::optional<int64_t> &Lane : V)
    if (Lane) {
      if (Same && *Same != *Lane)
        return std::nullopt;
      Same = Lane;
    }
  return Same;
}

/// What `x & c`, `x | c` or `x ^ c` moves by where `x` (lanes \p X in the
/// first warp) moves by \p D and `c` is \p C everywhere, in an N-bit type.
/// Adding D leaves the bits under its lowest set bit alone, so a constant
/// confined to them is applied to the same bits in every warp; a mask that
/// keeps every bit from there up keeps D whole; a low mask wider than that
/// moves by D's low part where no lane carries out of it (or every lane
/// does).
static std::optional<int64_t> movedByBits(BinaryOperatorKind Op, int64_t D,
                                          int64_t C, const LaneValues &X,
                                          unsigned N) {
  uint64_t Mask = N >= 64 ? ~uint64_t(0) : (uint64_t(1) << N) - 1;
  uint64_t Dn = uint64_t(D) & Mask, Cn = uint64_t(C) & Mask;
  unsigned Low = Dn ? unsigned(llvm::countr_zero(Dn)) : N;
  uint64_t Under = Low >= 64 ? ~uint64_t(0) : (uint64_t(1) << Low) - 1;
  if (!(Cn & ~Under))
    return Op == BO_And ? 0 : D;
  if (Op != BO_And)
    return std::nullopt;
  if (!(~Cn & Mask & ~Under))
    return D;
  if (Cn == Mask || !llvm::isPowerOf2_64(Cn + 1))
    return std::nullopt;
  // (x + D) & m is (x & m) + (D & m), less m + 1 where that carries out.
  uint64_t Part = Dn & Cn;
  bool NoneCarry = true, AllCarry = true;
  for (const std::optional<int64_t> &Lane : X)
    if (Lane) {
      bool Carries = (uint64_t(*Lane) & Cn) + Part > Cn;
      NoneCarry &= !Carries;
      AllCarry &= Carries;
    }
  if (NoneCarry)
    return int64_t(Part);
  if (AllCarry)
    return int64_t(Part - (Cn + 1));
  return std::nullopt;
}

std::optional<int64_t> movedByOperator(BinaryOperatorKind Op,
                                       std::optional<int64_t> DL,
                                       std::optional<int64_t> DR,
                                       const LaneValues &L, const LaneValues &R,
                                       IntFormat Result, bool Integral,
                                       unsigned LeftBits) {
  if (!DL || !DR)
    return std::nullopt;
  // Operands the same in both warps give the same result.
  if (*DL == 0 && *DR == 0)
    return 0;
  if (!Integral || Result.Bool)
    return std::nullopt;
  // Sums, differences and products wrap like the type: they keep a move
  // modulo its width.
  uint64_t UL = uint64_t(*DL), UR = uint64_t(*DR);
  switch (Op) {
  case BO_Add:
    return Result.wrap(int64_t(UL + UR));
  case BO_Sub:
    return Result.wrap(int64_t(UL - UR));
  default:
    break;
  }
  // The other operators move only with one operand the same everywhere.
  std::optional<int64_t> C;
  int64_t D = 0;
  const LaneValues *Moving = nullptr;
  if (*DR == 0 && (C = sameInKnownLanes(R))) {
    D = *DL;
    Moving = &L;
  } else if (*DL == 0 && Op != BO_Shl && (C = sameInKnownLanes(L))) {
    D = *DR;
    Moving = &R;
  } else {
    return std::nullopt;
  }
  switch (Op) {
  case BO_Mul:
    return Result.wrap(int64_t(uint64_t(D) * uint64_t(*C)));
  case BO_Shl:
    // An undefined shift leaves every lane unknown in both warps.
    if (*C < 0 || *C >= int64_t(LeftBits ? LeftBits : 64) || *C >= 64)
      return 0;
    return Result.wrap(int64_t(uint64_t(D) << *C));
  case BO_And:
  case BO_Or:
  case BO_Xor:
    return movedByBits(Op, D, *C, *Moving, Result.Bits ? Result.Bits : 64);
  default:
    return std::nullopt;
  }
}

std::optional<int64_t> movedByConversion(std::optional<int64_t> D,
                                         const LaneValues &V, IntFormat From,
                                         IntFormat To, bool Integral) {
  if (!D || *D == 0)
    return D;
  if (!Integral || From.Bool || To.Bool)
    return std::nullopt;
  unsigned FromBits = From.Bits ? From.Bits : 64,
           ToBits = To.Bits ? To.Bits : 64;
  // Narrowing keeps a move modulo the narrower width; widening keeps it
  // where no lane wrapped in the narrower type.
  if (ToBits > FromBits)
    for (const std::optional<int64_t> &Lane : V) {
      int64_t Sum = 0;
      if (Lane && (llvm::AddOverflow(*Lane, *D, Sum) || From.wrap(Sum) != Sum))
        return std::nullopt;
    }
  return To.wrap(*D);
}

LaneValues moved(LaneValues First, int64_t D, IntFormat F) {
  for (std::optional<int64_t> &Lane : First)
    if (Lane)
      Lane = F.wrap(int64_t(uint64_t(*Lane) + uint64_t(D)));
  return First;
}

} // namespace clang::warp
