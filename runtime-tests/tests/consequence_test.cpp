// Runtime tests that give every consequence class of docs/runtime-results.md
// a buggy kernel that shows it: wrong values read from absent lanes, a hang
// at __syncwarp(), shapes that are undefined but silent on sm_90 today, a
// mask that leaves calling lanes out (a trap in -G builds), and intra-warp
// races through shared memory.

#include "rt_oracle.h"

#include <climits>
#include <cmath>
#include <cstdlib>
#include <gtest/gtest.h>

using namespace rt;

namespace {

float valueF(const HostIO &H, long K) { return K < H.cfg.n ? H.in_f[K] : 0; }
int valueI(const HostIO &H, long K) { return K < H.cfg.n ? H.in_i[K] : 0; }

/// Lanes 0..15: v(i) + v(i + 16); lanes 16..31: v(i).
std::string verifyPlusUpperHalf(const HostIO &H) {
  for (long I = 0; I < H.cfg.n; ++I) {
    const float Want =
        I % 32 < 16 ? valueF(H, I) + valueF(H, I + 16) : valueF(H, I);
    if (H.out_f[I] != Want)
      return mismatch("out", I, H.out_f[I], Want);
  }
  return "";
}

std::string verifyWarpMinKey(const HostIO &H) {
  for (int W = 0; W < H.warps(); ++W) {
    int Want = INT_MAX;
    for (long K = 32L * W; K < std::min<long>(32L * W + 32, H.cfg.n); ++K)
      Want = std::min(Want, std::abs(H.in_i[K]) + 1);
    if (H.out_i[W] != Want)
      return mismatch("warp_min", W, H.out_i[W], Want);
  }
  if (H.out_i[H.warps()] != int(kPoison))
    return mismatch("warp_min (never written)", H.warps(), H.out_i[H.warps()],
                    "poison");
  return "";
}

/// Lanes 0..15: v(i ^ 1); lanes 16..31: v(i ^ 2).
std::string verifyHalvesXor(const HostIO &H) {
  for (long I = 0; I < H.cfg.n; ++I) {
    const float Want = I % 32 < 16 ? valueF(H, I ^ 1) : valueF(H, I ^ 2);
    if (H.out_f[I] != Want)
      return mismatch("out", I, H.out_f[I], Want);
  }
  return "";
}

/// Lanes 0..15: the sum of v over lanes 0..15 of the warp; lanes 16..31
/// write nothing.
std::string verifyLowerHalfSum(const HostIO &H) {
  for (long I = 0; I < H.cfg.n; ++I) {
    const long Base = I & ~31L;
    if (I % 32 >= 16) {
      if (!isPoisonF(H.out_f[I]))
        return mismatch("out (lane >= 16, never written)", I, H.out_f[I],
                        "poison");
      continue;
    }
    if (const float Want = sumRange(H, Base, Base + 16); H.out_f[I] != Want)
      return mismatch("out", I, H.out_f[I], Want);
  }
  return "";
}

unsigned nibble(const HostIO &H, long K) {
  return K < H.cfg.n ? unsigned(H.in_i[K] + 5) & 0xfu : 0u;
}

std::string verifyEvenLanePack(const HostIO &H) {
  for (long I = 0; I < H.cfg.n; I += 2)
    if (const unsigned Want = nibble(H, I) | nibble(H, I + 1) << 4;
        H.out_u[I / 2] != Want)
      return hexMismatch("packed", I / 2, H.out_u[I / 2], Want);
  const long Written = (H.cfg.n + 1) / 2;
  if (H.out_u[Written] != kPoison)
    return hexMismatch("packed (never written)", Written, H.out_u[Written],
                       kPoison);
  return "";
}

std::string verifyPairArgmin(const HostIO &H) {
  for (int W = 0; W < H.warps(); ++W) {
    float WantKey = 1e9f;
    int WantAt = -1;
    for (long K = 32L * W; K < std::min<long>(32L * W + 32, H.cfg.n); ++K)
      if (const float Key = float(H.in_i[K] * 32 + K % 32); Key < WantKey) {
        WantKey = Key;
        WantAt = int(K);
      }
    if (H.out_f[W] != WantKey)
      return mismatch("min_key", W, H.out_f[W], WantKey);
    if (H.out_i[W] != WantAt)
      return mismatch("min_at", W, H.out_i[W], WantAt);
  }
  return "";
}

std::string verifyNeighbourLevel(const HostIO &H) {
  for (long I = 0; I < H.cfg.n; ++I)
    if (const int Want = 3 * valueI(H, I ^ 1) + 1; H.out_i[I] != Want)
      return mismatch("out", I, H.out_i[I], Want);
  return "";
}

} // namespace

// wrong-values: lanes read lanes that are not at the shuffle.
RT_PATTERN(DivergentFullMask, ReadAbsentHalf, dfm_read_absent_half,
           "warp-divergent-full-mask", nullptr, verifyPlusUpperHalf)
RT_PATTERN(DivergentFullMask, ExitedLaneMin, dfm_exited_lane_min,
           "warp-divergent-full-mask", nullptr, verifyWarpMinKey)
// hang: the absent lanes wait at __syncthreads().
RT_PATTERN(DivergentFullMask, SyncwarpLowerHalf, dfm_syncwarp_lower_half,
           "warp-divergent-full-mask", nullptr, verifyPlusUpperHalf)
// undefined, silent on sm_90: absent lanes at another collective, or
// running on to the end with no lane reading them.
RT_PATTERN(DivergentFullMask, HalvesDifferentShuffles,
           dfm_halves_different_shuffles, "warp-divergent-full-mask", nullptr,
           verifyHalvesXor)
RT_PATTERN(DivergentFullMask, LowerHalfSum, dfm_lower_half_sum,
           "warp-divergent-full-mask", nullptr, verifyLowerHalfSum)
// trap: calling lanes outside the mask.
RT_PATTERN(MaskExcludesCaller, EvenLanePack, mec_even_lane_pack,
           "warp-mask-excludes-caller", nullptr, verifyEvenLanePack)
// race: intra-warp exchange through shared memory without __syncwarp().
RT_PATTERN(ImplicitSynchronous, PairArgminShared, isync_pair_argmin_shared,
           "warp-implicit-synchronous", nullptr, verifyPairArgmin)
RT_PATTERN(ImplicitSynchronous, DivergentPublish, isync_divergent_publish,
           "warp-implicit-synchronous", nullptr, verifyNeighbourLevel)
