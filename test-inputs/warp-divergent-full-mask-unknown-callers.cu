// Library entry points: device functions with external linkage that nothing
// in this unit calls (a header-only library's API). Their callers, and so
// their parameters, are unknown; the option UnknownCallerParameters says
// what to assume. By default warp-divergent-full-mask and warp-stale-mask
// take them to differ between lanes: findings of the potential tier, with a
// note that says so, reported only when the option Tiers asks for that tier
// (run `potential`); with `uniform` they stay silent.
// WARP-LINT-RUN: default
// WARP-LINT-RUN: potential {CheckOptions: {Tiers: 'proven,conditional,data,potential'}}
// WARP-LINT-RUN: uniform {CheckOptions: {UnknownCallerParameters: uniform}}
// WARP-LINT-RUN: local {CheckOptions: {warp-divergent-full-mask.UnknownCallerParameters: uniform, warp-stale-mask.UnknownCallerParameters: uniform}}

// An allocator's per-thread request size (mallocMC's Scatter::create): lanes
// asking for nothing leave before the vote that needs the whole warp.
__device__ void *reserve(unsigned bytes, unsigned *bitmask) {
  // CHECK-NOTES-POTENTIAL: :[[@LINE-1]]:18: note: nothing in this translation unit calls 'reserve', so its parameters are assumed to differ between lanes (option UnknownCallerParameters is 'varying')
  if (bytes == 0)
    return nullptr;
  // CHECK-NOTES-POTENTIAL: :[[@LINE-1]]:5: note: lanes may exit here
  // The exit is the lanes' own: no ballot of the lanes that stay names them.
  unsigned lanes = __ballot_sync(0xffffffff, 1);
  // CHECK-MESSAGES-POTENTIAL: :[[@LINE-1]]:20: warning: full warp mask passed to '__ballot_sync' in potentially divergent code [warp-divergent-full-mask]
  // CHECK-NOTE-ORDER-POTENTIAL: :[[@LINE-2]]:20: [[@LINE-5]]:5 [[@LINE-8]]:18 [[@LINE-2]]:20 [[@LINE-2]]:20
  // CHECK-FIXES-POTENTIAL: {{^}}  const unsigned warp_mask = __ballot_sync(0xffffffff, !(bytes == 0));
  // CHECK-FIXES-POTENTIAL: {{^}}  unsigned lanes = __ballot_sync(warp_mask, 1);
  // CHECK-NOTES-POTENTIAL: :[[@LINE-5]]:20: note: potential: the analysis cannot tell which lanes get here; it found no lane, runtime value or per-lane load that splits them
  // CHECK-NOTES-POTENTIAL: :[[@LINE-6]]:20: note: consequence: undefined: the lanes that do not arrive return to callers this unit does not show, which may synchronize: undefined behaviour that runs silently on sm_90 today
  return bitmask + __popc(lanes);
}

// A mask taken before a branch on a parameter.
__device__ float broadcast_if_large(float v, int bytes) {
  // CHECK-NOTES-POTENTIAL: :[[@LINE-1]]:18: note: nothing in this translation unit calls 'broadcast_if_large', so its parameters are assumed to differ between lanes (option UnknownCallerParameters is 'varying')
  unsigned active = __activemask();
  // CHECK-NOTES-POTENTIAL: :[[@LINE-1]]:21: note: mask computed here
  if (bytes > 16)
    v = __shfl_sync(active, v, 0);
  // CHECK-NOTES-POTENTIAL: :[[@LINE-2]]:13: note: lanes may diverge here on a data-dependent condition
  // CHECK-MESSAGES-POTENTIAL: :[[@LINE-2]]:9: warning: mask 'active' was computed before the lanes diverged further; '__shfl_sync' may wait for lanes that no longer reach it [warp-stale-mask]
  // CHECK-NOTES-POTENTIAL: :[[@LINE-3]]:9: note: potential: the analysis cannot tell which lanes get here; it found no lane, runtime value or per-lane load that splits them
  // CHECK-NOTES-POTENTIAL: :[[@LINE-4]]:9: note: consequence: undefined: the lanes that do not arrive return to callers this unit does not show, which may synchronize: undefined behaviour that runs silently on sm_90 today
  return v;
}

// A template nothing instantiates: its pattern is the entry point.
template <typename T> __device__ T neighbour_unless_empty(T v, int n) {
  // CHECK-NOTES-POTENTIAL: :[[@LINE-1]]:36: note: nothing in this translation unit calls 'neighbour_unless_empty', so its parameters are assumed to differ between lanes (option UnknownCallerParameters is 'varying')
  if (n == 0)
    return v;
  // CHECK-NOTES-POTENTIAL: :[[@LINE-1]]:5: note: lanes may exit here
  // CHECK-NOTES-POTENTIAL: :[[@LINE-2]]:5: note: keep these lanes in the warp with a neutral value instead of leaving: with a narrower mask, values '__shfl_xor_sync' reads from exited lanes are undefined
  return __shfl_xor_sync(0xffffffff, v, 1);
  // CHECK-MESSAGES-POTENTIAL: :[[@LINE-1]]:10: warning: full warp mask passed to '__shfl_xor_sync' in potentially divergent code [warp-divergent-full-mask]
  // CHECK-NOTES-POTENTIAL: :[[@LINE-2]]:10: note: potential: the analysis cannot tell which lanes get here; it found no lane, runtime value or per-lane load that splits them
  // CHECK-NOTES-POTENTIAL: :[[@LINE-3]]:10: note: consequence: undefined: the lanes that do not arrive return to callers this unit does not show, which may synchronize: undefined behaviour that runs silently on sm_90 today
}

//===----------------------------------------------------------------------===//
// Traps: silent in every run
//===----------------------------------------------------------------------===//

// Internal linkage: every caller is in this unit, and they pass a constant.
static __device__ float halve_unless_zero(float v, int n) {
  if (n == 0)
    return v;
  return __shfl_xor_sync(0xffffffff, v, 1) * 0.5f;
}

// External, but called here with a uniform argument: the callers are known.
__device__ float sum_unless_zero(float v, int n) {
  if (n == 0)
    return v;
  return __shfl_xor_sync(0xffffffff, v, 1);
}

__global__ void known_callers(float *out, int n) {
  out[threadIdx.x] = halve_unless_zero(out[threadIdx.x], 4) +
                     sum_unless_zero(out[threadIdx.x], n);
}

// Divergent by the lane index whatever the parameters: reported as before,
// with no note about them.
__device__ float low_half_neighbour(float v, int n) {
  if (threadIdx.x % 32 < 16)
    v = __shfl_xor_sync(0xffffffff, v, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: full warp mask passed to '__shfl_xor_sync' in divergent code [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE-3]]:24: note: lanes diverge here
  // CHECK-NOTES: :[[@LINE-3]]:9: note: run '__shfl_xor_sync' where the lanes are together, with a neutral value in the lanes that skip the branch: with the mask of the lanes that take it, values read from the other lanes are undefined
  // CHECK-NOTES: :[[@LINE-4]]:9: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 do not reach it
  // CHECK-NOTES: :[[@LINE-5]]:9: note: lanes: mask 0xffffffff arrive 0x0000ffff
  // CHECK-NOTES: :[[@LINE-6]]:9: note: consequence: undefined: lanes 16..31 return to callers this unit does not show, which may synchronize: undefined behaviour that runs silently on sm_90 today
  // No fix: lane n ^ i is not known to take the branch.
  return v;
}

// No parameter decides anything here.
__device__ float whole_warp_sum(float v) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_xor_sync(0xffffffff, v, offset);
  return v;
}

// Pointers, references and objects stay as uniform as their arguments: a
// fragment's size, a descriptor's count are the warp's, not a lane's.
struct Fragment {
  int n;
  float v[8];
  __device__ int size() const { return n; }
};
__device__ void rotate_fragment(Fragment &frag) {
  for (int i = 0; i < frag.size(); ++i)
    frag.v[i] = __shfl_sync(0xffffffff, frag.v[i], (threadIdx.x + 1) % 32);
}
__device__ void rotate_all(float *values, const int *count) {
  for (int i = 0; i < *count; ++i)
    values[i] = __shfl_sync(0xffffffff, values[i], (threadIdx.x + 1) % 32);
}
