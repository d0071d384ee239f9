// Potential findings of warp-implicit-synchronous: exchanges whose lanes the
// per-lane arithmetic cannot name (an index a caller outside this unit
// passes, a stride not known here, a pointer each lane may pass its own
// of). They are reported only when the option Tiers lists potential, and
// then carry a `potential:` note.
// WARP-LINT-RUN: default
// WARP-LINT-RUN: potential {CheckOptions: {warp-implicit-synchronous.Tiers: 'proven,conditional,data,potential'}}

// A library's unrolled warp tail that nothing in this unit calls: lanes race
// if callers pass a lane index as 'tid', as such tails are written for.
__device__ void warp_max(volatile float *dists, volatile int *idx,
                         unsigned tid) {
  if (dists[tid] < dists[tid + 16]) {
  // CHECK-MESSAGES-POTENTIAL: :[[@LINE-1]]:20: warning: 'dists[tid + 16]' is read while another lane may write it as 'dists[tid]' in the same step: without __syncwarp() between the write and the read the lanes of a warp race (they do not run in lockstep since Volta) [warp-implicit-synchronous]
  // CHECK-NOTES-POTENTIAL: :[[@LINE+6]]:5: note: written here
  // CHECK-NOTES-POTENTIAL: :[[@LINE+5]]:18: note: another read in the same step races too
  // CHECK-NOTES-POTENTIAL: :[[@LINE+5]]:16: note: another read in the same step races too
  // CHECK-NOTES-POTENTIAL: :[[@LINE-5]]:20: note: potential: which lanes write and read the element is not known here (its index depends on parameters or on values not followed per lane)
  // CHECK-NOTES-POTENTIAL: :[[@LINE-6]]:20: note: consequence: race: the read may see the element before or after the other lane writes it; the lanes of a warp are scheduled independently since Volta, so the value read depends on their timing
  // CHECK-NOTES-POTENTIAL: :[[@LINE-7]]:7: note: suggested code: read what other lanes write into registers before the step ('const auto warp_read = dists[tid + 16]; const auto warp_read1 = idx[tid + 16];'), then '__syncwarp();', the step using those registers, and '__syncwarp();' after it (or exchange the values with __shfl_down_sync)
    dists[tid] = dists[tid + 16];
    idx[tid] = idx[tid + 16];
  }
  __syncwarp();
}

// A row each lane may pass its own of: a race only if every lane passes the
// same one.
__device__ float publish_and_read(float *row, float v) {
  row[0] = v;
  float r = row[0] * 2.0f;
  // CHECK-MESSAGES-POTENTIAL: :[[@LINE-1]]:13: warning: lane 1 writes 'row[0]' while lane 0 reads it in the same step (offset 1): without __syncwarp() between the write and the read the lanes of a warp race (they do not run in lockstep since Volta) [warp-implicit-synchronous]
  // CHECK-NOTES-POTENTIAL: :[[@LINE-3]]:3: note: written here
  // CHECK-NOTES-POTENTIAL: :[[@LINE-3]]:13: note: potential: if every lane passes the same 'row', in warp 0, lane 1 writes 'row[0]' and lane 0 reads it with offset 1
  // CHECK-NOTES-POTENTIAL: :[[@LINE-4]]:13: note: consequence: race: lane 0 may read 'row[0]' before or after lane 1 writes it; the lanes of a warp are scheduled independently since Volta, so the value read depends on their timing
  // CHECK-NOTES-POTENTIAL: :[[@LINE-5]]:3: note: suggested code: read what other lanes write into registers before the step ('const auto warp_read = row[0];'), then '__syncwarp();', the step using those registers, and '__syncwarp();' after it (or exchange the values with __shfl_down_sync)
  __syncwarp();
  return r;
}

// A block-level tree whose stride is not known here. (In fact each step's
// writers are below the stride and its readers above it, whatever its
// value: a potential finding only.)
__global__ void block_tree_unknown_stride(const float *in, float *out) {
  __shared__ float sdata[256];
  const unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
      // CHECK-MESSAGES-POTENTIAL: :[[@LINE-1]]:21: warning: 'sdata[tid + s]' is read while another lane may write it as 'sdata[tid]' in the same step: without __syncwarp() between the write and the read the lanes of a warp race (they do not run in lockstep since Volta) [warp-implicit-synchronous]
      // CHECK-NOTES-POTENTIAL: :[[@LINE-2]]:21: note: potential: which lanes write and read the element is not known here (its index depends on parameters or on values not followed per lane)
      // CHECK-NOTES-POTENTIAL: :[[@LINE-3]]:21: note: consequence: race: the read may see the element before or after the other lane writes it; the lanes of a warp are scheduled independently since Volta, so the value read depends on their timing
      // CHECK-NOTES-POTENTIAL: :[[@LINE-4]]:7: note: suggested code: read what other lanes write into registers before the step ('const auto warp_read = sdata[tid + s];'), then '__syncwarp();', the step using those registers, and '__syncwarp();' after it, each placed where every lane of the warp runs it, outside the branch that splits them (or exchange the values with __shfl_down_sync)
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

// Proven and data findings are reported in both runs.
__global__ void neighbour(const float *in, float *out) {
  __shared__ float s[32];
  const unsigned lane = threadIdx.x % 32;
  s[lane] = in[threadIdx.x];
  out[threadIdx.x] = s[lane ^ 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: lane 1 writes 's[1]' while lane 0 reads it in the same step (offset 1): without __syncwarp() between the write and the read the lanes of a warp race (they do not run in lockstep since Volta) [warp-implicit-synchronous]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: written here
  // CHECK-NOTES: :[[@LINE-3]]:22: note: witness: in warp 0, lane 1 writes 's[1]' and lane 0 reads it with offset 1
  // CHECK-NOTES: :[[@LINE-4]]:22: note: consequence: race: lane 0 may read 's[1]' before or after lane 1 writes it; the lanes of a warp are scheduled independently since Volta, so the value read depends on their timing
  // CHECK-FIXES: {{^}}  __syncwarp();
  // CHECK-FIXES: {{^}}  out[threadIdx.x] = s[lane ^ 1];
}
