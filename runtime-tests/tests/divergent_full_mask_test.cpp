// Runtime tests for warp-divergent-full-mask
// (kernels/warp-divergent-full-mask).

#include "rt_oracle.h"

#include <gtest/gtest.h>

using namespace rt;

namespace {

std::string verifyWarpSums(const HostIO &H) {
  for (int W = 0; W < H.warps(); ++W)
    if (const float Want = sumRange(H, 32L * W, 32L * W + 32);
        H.out_f[W] != Want)
      return mismatch("warp_sums", W, H.out_f[W], Want);
  if (!isPoisonF(H.out_f[H.warps()]))
    return mismatch("warp_sums (never written)", H.warps(), H.out_f[H.warps()],
                    "poison");
  return "";
}

std::string verifyHalfWarpVote(const HostIO &H) {
  const int AllWarps = H.grid * H.cfg.block / 32;
  for (int W = 0; W < AllWarps; ++W) {
    unsigned Positive = 0;
    int Negative = 0;
    for (int L = 0; L < 16; ++L) {
      const int X = inputOr(H, 32L * W + L, 0);
      Positive |= unsigned(X > 0) << L;
      Negative |= X < 0;
    }
    if (H.out_u[2 * W] != Positive)
      return hexMismatch("ballot(x > 0)", W, H.out_u[2 * W], Positive);
    if (H.out_u[2 * W + 1] != 0xffffu)
      return hexMismatch("participation ballot", W, H.out_u[2 * W + 1],
                         0xffffu);
    if ((H.out_i[W] != 0) != (Negative != 0))
      return mismatch("any(x < 0)", W, H.out_i[W], Negative);
  }
  return "";
}

std::string verifyWarpDeltas(const HostIO &H) {
  for (long I = 0; I < H.cfg.n; ++I)
    if (const int Want = H.in_i[I] - H.in_i[I & ~31L]; H.out_i[I] != Want)
      return mismatch("delta", I, H.out_i[I], Want);
  for (int W = 0; W < H.warps(); ++W) {
    unsigned Want = 0;
    for (int L = 0; L < 32 && 32L * W + L < H.cfg.n; ++L)
      Want |= unsigned(H.in_i[32L * W + L] > 0) << L;
    if (H.out_u[W] != Want)
      return hexMismatch("ballot(x > 0)", W, H.out_u[W], Want);
  }
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

} // namespace

RT_PATTERN(DivergentFullMask, EarlyReturnReduce, dfm_early_return_reduce,
           "warp-divergent-full-mask", nullptr, verifyWarpSums)
RT_PATTERN(DivergentFullMask, BallotInBranch, dfm_ballot_in_branch,
           "warp-divergent-full-mask", nullptr, verifyHalfWarpVote)
RT_PATTERN(DivergentFullMask, SyncwarpAfterReturn, dfm_syncwarp_after_return,
           "warp-divergent-full-mask", nullptr, verifyWarpDeltas)
RT_PATTERN(DivergentFullMask, HelperInBranch, dfm_helper_in_branch,
           "warp-divergent-full-mask", nullptr, verifyBlockSums)
