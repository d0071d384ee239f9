// Runtime tests for warp-mask-excludes-caller, warp-shuffle-source-outside-
// mask, warp-implicit-synchronous and warp-activemask-mask.

#include "rt_oracle.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace rt;

namespace {

float valueOr0(const HostIO &H, long K) { return K < H.cfg.n ? H.in_f[K] : 0; }

bool close(float Got, float Want) {
  return std::fabs(Got - Want) <= 1e-4f * std::max(1.0f, std::fabs(Want));
}

std::string verifyWarpIndex(const HostIO &H) {
  for (long I = 0; I < H.cfg.n; ++I)
    if (const int Want = int(I % H.cfg.block) / 32; H.out_i[I] != Want)
      return mismatch("out", I, H.out_i[I], Want);
  return "";
}

std::string verifyHalfPairSum(const HostIO &H) {
  for (long I = 0; I < H.cfg.n; ++I) {
    const float Want =
        (I % 32) < 16 ? valueOr0(H, I) + valueOr0(H, I + 8) : valueOr0(H, I);
    if (!close(H.out_f[I], Want))
      return mismatch("out", I, H.out_f[I], Want);
  }
  return "";
}

std::string verifyWarpSumEverywhere(const HostIO &H) {
  for (long I = 0; I < H.cfg.n; ++I) {
    const long Base = I & ~31L;
    if (const float Want = sumRange(H, Base, Base + 32);
        !close(H.out_f[I], Want))
      return mismatch("out", I, H.out_f[I], Want);
  }
  return "";
}

std::string verifyWarpSumLane0(const HostIO &H) {
  for (long I = 0; I < H.cfg.n; I += 32)
    if (const float Want = sumRange(H, I, I + 32); !close(H.out_f[I], Want))
      return mismatch("out", I, H.out_f[I], Want);
  return "";
}

} // namespace

RT_PATTERN(MaskExcludesCaller, WarpIndexBroadcast, mec_warp_index_broadcast,
           "warp-mask-excludes-caller", nullptr, verifyWarpIndex)
RT_PATTERN(ShuffleSourceOutsideMask, DownPastHalf, ssom_down_past_half,
           "warp-shuffle-source-outside-mask", nullptr, verifyHalfPairSum)
RT_PATTERN(ImplicitSynchronous, VolatileWarpSum, isync_volatile_warp_sum,
           "warp-implicit-synchronous", nullptr, verifyWarpSumEverywhere)
RT_PATTERN(ActivemaskMask, GuideReduction, amm_guide_reduction,
           "warp-activemask-mask", nullptr, verifyWarpSumLane0)
