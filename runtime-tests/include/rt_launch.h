// rt_launch.h - the one launcher signature shared by every runtime-test kernel.
//
// Each kernels/<check-id>/<pattern>.cu (buggy), kernels/<check-id>/fixed/
// <pattern>.cu (hand-written fix) and the build-time copy that
// `warp-lint --fix` rewrites is compiled with -DRT_NS=buggy or -DRT_NS=fixed,
// so the same launcher name exists once per variant in one binary. Keep this
// header free of macros around kernel bodies: warp-lint never fixes inside a
// macro expansion.
#pragma once
#include <cuda_runtime.h>

#ifndef RT_NS
#define RT_NS buggy // what warp-lint sees when it parses a kernel file alone
#endif

/// Every buffer a pattern may use; each launcher documents the ones it reads.
/// Outputs arrive poisoned (0xDEADBEEF / NaN); `counter` and `lock` arrive
/// zeroed unless the pattern's test initialises them.
struct RtArgs {
  int n = 0;     // work items; threads with index >= n have no element
  int block = 0; // threads per block (a multiple of 32, at most 1024)
  int grid = 0;  // blocks: ceil(n / block)
  const float *in_f = nullptr;
  const int *in_i = nullptr;
  float *out_f = nullptr;
  int *out_i = nullptr;
  unsigned *out_u = nullptr;
  int *counter = nullptr; // 64 ints
  int *lock = nullptr;    // 1 int
};

/// Enqueues the pattern's kernel(s) on `s`; never synchronises (the caller
/// polls with a watchdog so that a hang is reported, not waited for).
typedef void (*RtLauncher)(const RtArgs &, cudaStream_t);
