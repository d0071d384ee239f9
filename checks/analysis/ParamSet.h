//===--- ParamSet.h - a set of a function's parameters ----------*- C++ -*-===//
//
// Which parameters of the function being analysed a value, a condition or an
// address depends on. Parameters past the 64th are not tracked: values that
// depend on them count as depending on none, as for a kernel parameter.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_ANALYSIS_PARAMSET_H
#define WARP_LINT_ANALYSIS_PARAMSET_H

#include <cstdint>

namespace clang::warp {

class ParamSet {
public:
  /// The slot of the object a method is called on (`this`): values read
  /// through it depend on which object each lane calls the method on.
  static constexpr unsigned ObjectIndex = 63;

  constexpr ParamSet() = default;

  /// The set holding parameter \p Index only (empty past the 64th).
  static constexpr ParamSet of(unsigned Index) {
    return Index < 64 ? ParamSet(uint64_t(1) << Index) : ParamSet();
  }

  constexpr bool contains(unsigned Index) const {
    return Index < 64 && ((Bits >> Index) & 1);
  }
  constexpr bool empty() const { return Bits == 0; }
  /// Bit I set for parameter I (for printing).
  constexpr uint64_t bits() const { return Bits; }
  constexpr explicit operator bool() const { return !empty(); }

  constexpr ParamSet operator|(ParamSet O) const { return Bits | O.Bits; }
  constexpr ParamSet operator&(ParamSet O) const { return Bits & O.Bits; }
  ParamSet &operator|=(ParamSet O) {
    Bits |= O.Bits;
    return *this;
  }
  constexpr bool operator==(ParamSet O) const { return Bits == O.Bits; }
  constexpr bool operator!=(ParamSet O) const { return Bits != O.Bits; }

private:
  constexpr ParamSet(uint64_t Bits) : Bits(Bits) {}
  uint64_t Bits = 0;
};

} // namespace clang::warp

#endif
