// rt_oracle.h - small helpers for the value-level oracles.
#pragma once

#include "rt_harness.h"

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

namespace rt {

/// "what[index] = got, expected want" for the first mismatch.
template <typename T, typename U>
std::string mismatch(const char *What, long Index, T Got, U Want) {
  std::ostringstream OS;
  OS << What << "[" << Index << "] = " << Got << ", expected " << Want;
  return OS.str();
}

inline std::string hexMismatch(const char *What, long Index, unsigned Got,
                               unsigned Want) {
  std::ostringstream OS;
  OS << What << "[" << Index << "] = 0x" << std::hex << Got << ", expected 0x"
     << Want;
  return OS.str();
}

/// Element K's int input, or `Pad` for threads past n.
inline int inputOr(const HostIO &H, long K, int Pad) {
  return K < H.cfg.n ? H.in_i[K] : Pad;
}

/// Sum of in_f over [Begin, min(End, n)).
inline float sumRange(const HostIO &H, long Begin, long End) {
  float S = 0;
  for (long K = Begin; K < std::min<long>(End, H.cfg.n); ++K)
    S += H.in_f[K];
  return S;
}

/// Whether `Got` holds the same values as `Want`, in any order.
inline bool sameMultiset(std::vector<int> Got, std::vector<int> Want) {
  std::sort(Got.begin(), Got.end());
  std::sort(Want.begin(), Want.end());
  return Got == Want;
}

} // namespace rt
