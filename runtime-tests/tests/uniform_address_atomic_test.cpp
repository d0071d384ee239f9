// Runtime tests for warp-uniform-address-atomic
// (kernels/warp-uniform-address-atomic). The buggy kernels are correct but
// slow; bench/ measures them.

#include "rt_oracle.h"

#include <gtest/gtest.h>

#include <climits>

using namespace rt;

namespace {

void zeroSum(HostIO &H) { H.out_f[0] = 0.0f; }
void minMax(HostIO &H) { H.counter[0] = INT_MIN; }

std::string verifyGlobalSum(const HostIO &H) {
  if (const float Want = sumRange(H, 0, H.cfg.n); H.out_f[0] != Want)
    return mismatch("sum", 0, H.out_f[0], Want);
  return "";
}

std::string verifyBlockSums(const HostIO &H) {
  const long B = H.cfg.block;
  for (int Blk = 0; Blk < H.grid; ++Blk)
    if (const float Want = sumRange(H, B * Blk, B * Blk + B);
        H.out_f[Blk] != Want)
      return mismatch("block_sums", Blk, H.out_f[Blk], Want);
  return "";
}

std::vector<int> keptIn(const HostIO &H, long Begin, long End) {
  std::vector<int> Kept;
  for (long K = Begin; K < std::min<long>(End, H.cfg.n); ++K)
    if (H.in_i[K] > 0)
      Kept.push_back(H.in_i[K]);
  return Kept;
}

std::string verifyGlobalSlots(const HostIO &H) {
  const std::vector<int> Want = keptIn(H, 0, H.cfg.n);
  if (H.counter[0] != int(Want.size()))
    return mismatch("count", 0, H.counter[0], Want.size());
  if (!sameMultiset({H.out_i.begin(), H.out_i.begin() + Want.size()}, Want))
    return "out[0..count) is not the multiset of kept elements";
  if (H.out_i[Want.size()] != int(kPoison))
    return mismatch("out (never written)", Want.size(), H.out_i[Want.size()],
                    "poison");
  return "";
}

std::string verifyBlockSlots(const HostIO &H) {
  const long B = H.cfg.block;
  for (int Blk = 0; Blk < H.grid; ++Blk) {
    const std::vector<int> Want = keptIn(H, B * Blk, B * Blk + B);
    if (H.out_u[Blk] != Want.size())
      return mismatch("block_count", Blk, H.out_u[Blk], Want.size());
    const auto First = H.out_i.begin() + B * Blk;
    if (!sameMultiset({First, First + Want.size()}, Want))
      return mismatch("block slots", Blk, "wrong multiset", "kept elements");
  }
  return "";
}

std::string verifyGlobalMax(const HostIO &H) {
  const int Want = *std::max_element(H.in_i.begin(), H.in_i.end());
  if (H.counter[0] != Want)
    return mismatch("max", 0, H.counter[0], Want);
  return "";
}

std::string verifyBlockMax(const HostIO &H) {
  const long B = H.cfg.block;
  for (int Blk = 0; Blk < H.grid; ++Blk) {
    const auto First = H.in_i.begin() + B * Blk;
    const auto Last = H.in_i.begin() + std::min<long>(B * Blk + B, H.cfg.n);
    if (const int Want = *std::max_element(First, Last); H.out_i[Blk] != Want)
      return mismatch("block_max", Blk, H.out_i[Blk], Want);
  }
  return "";
}

std::string verifyConvergedSlots(const HostIO &H) {
  const long Threads = long(H.grid) * H.cfg.block;
  if (H.counter[0] != Threads)
    return mismatch("count", 0, H.counter[0], Threads);
  std::vector<int> Want(H.in_i.begin(), H.in_i.begin() + H.cfg.n);
  Want.resize(Threads, -6);
  if (!sameMultiset({H.out_i.begin(), H.out_i.begin() + Threads}, Want))
    return "out[0..count) is not the inputs plus one filler per extra thread";
  if (H.out_i[Threads] != int(kPoison))
    return mismatch("out (never written)", Threads, H.out_i[Threads], "poison");
  return "";
}

} // namespace

RT_PATTERN(UniformAddressAtomic, FloatSumGlobal, uaa_float_sum_global,
           "warp-uniform-address-atomic", zeroSum, verifyGlobalSum)
RT_PATTERN(UniformAddressAtomic, FloatSumShared, uaa_float_sum_shared,
           "warp-uniform-address-atomic", nullptr, verifyBlockSums)
RT_PATTERN(UniformAddressAtomic, IntSlotsGlobal, uaa_int_slots_global,
           "warp-uniform-address-atomic", nullptr, verifyGlobalSlots)
RT_PATTERN(UniformAddressAtomic, IntSlotsShared, uaa_int_slots_shared,
           "warp-uniform-address-atomic", nullptr, verifyBlockSlots)
RT_PATTERN(UniformAddressAtomic, IntMaxGlobal, uaa_int_max_global,
           "warp-uniform-address-atomic", minMax, verifyGlobalMax)
RT_PATTERN(UniformAddressAtomic, IntMaxShared, uaa_int_max_shared,
           "warp-uniform-address-atomic", nullptr, verifyBlockMax)
RT_PATTERN(UniformAddressAtomic, FloatSumConverged, uaa_float_sum_converged,
           "warp-uniform-address-atomic", zeroSum, verifyGlobalSum)
RT_PATTERN(UniformAddressAtomic, FloatSumUnbraced, uaa_float_sum_unbraced,
           "warp-uniform-address-atomic", zeroSum, verifyGlobalSum)
RT_PATTERN(UniformAddressAtomic, IntMaxConverged, uaa_int_max_converged,
           "warp-uniform-address-atomic", minMax, verifyGlobalMax)
RT_PATTERN(UniformAddressAtomic, IntSlotsConverged, uaa_int_slots_converged,
           "warp-uniform-address-atomic", nullptr, verifyConvergedSlots)
