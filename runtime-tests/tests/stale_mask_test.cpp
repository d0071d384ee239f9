// Runtime tests for warp-stale-mask (kernels/warp-stale-mask).

#include "rt_oracle.h"

#include <gtest/gtest.h>

using namespace rt;

namespace {

std::string verifyOddLanesTakeLane1(const HostIO &H) {
  for (long I = 0; I < H.cfg.n; ++I) {
    const float Want = (I & 1) ? H.in_f[(I & ~31L) + 1] : H.in_f[I];
    if (H.out_f[I] != Want)
      return mismatch("out", I, H.out_f[I], Want);
  }
  return "";
}

std::string verifySideLeaders(const HostIO &H) {
  for (long I = 0; I < H.cfg.n; ++I) {
    const bool Side = H.in_i[I] > 0;
    long Leader = I & ~31L;
    while ((inputOr(H, Leader, 0) > 0) != Side)
      ++Leader;
    if (const int Want = inputOr(H, Leader, 0); H.out_i[I] != Want)
      return mismatch("out", I, H.out_i[I], Want);
  }
  return "";
}

} // namespace

RT_PATTERN(StaleMask, ActivemaskBeforeBranch, stale_activemask_before_branch,
           "warp-stale-mask", nullptr, verifyOddLanesTakeLane1)
RT_PATTERN(StaleMask, BallotWrongSide, stale_ballot_wrong_side,
           "warp-stale-mask", nullptr, verifySideLeaders)
