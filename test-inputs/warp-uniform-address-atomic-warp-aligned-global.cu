// Tests of warp-uniform-address-atomic with WarpAlignedBlockDimX: blockDim.x
// is a multiple of 32, so every warp lies in one row of the block and
// threadIdx.y/z are the same in all its lanes (global option: every warp- check).
// WARP-LINT-CONFIG: {CheckOptions: {WarpAlignedBlockDimX: true}}

// One sum per row of a 2-D block: the whole warp adds to the same row.
__global__ void row_sums_by_thread_y(float *row_sums, const float *in) {
  atomicAdd(&row_sums[threadIdx.y], in[threadIdx.y * blockDim.x + threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every lane performs 'atomicAdd' on the same address, serializing the warp; floating-point atomics are never aggregated by the compiler [warp-uniform-address-atomic]
  // CHECK-FIXES: {{^}}    float warp_value = in[threadIdx.y * blockDim.x + threadIdx.x];
  // CHECK-FIXES: {{^}}      atomicAdd(&row_sums[threadIdx.y], warp_value);
  // CHECK-NOTES: :[[@LINE-4]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-5]]:3: note: consequence: slow: the lanes' atomics serialize: about 32x slower than a warp reduction and one atomic per warp, measured on an H200
}

// Through a local pointer to the row's slot.
__global__ void plane_counts_by_thread_z(int *plane_counts) {
  int *slot = plane_counts + threadIdx.z;
  atomicAdd(slot, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every lane performs 'atomicAdd' on the same address, serializing the warp; ptxas aggregates integer atomics at -O3, but not in -G, clang or HIP builds [warp-uniform-address-atomic]
  // CHECK-FIXES: {{^}}    int warp_value = 1;
  // CHECK-FIXES: {{^}}      atomicAdd(slot, warp_value);
  // CHECK-NOTES: :[[@LINE-4]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-5]]:3: note: consequence: slow: the lanes' atomics serialize where the compiler does not aggregate them (-G builds: about 30x slower than one atomic per warp on an H200)
}

// A row-uniform branch does not diverge a warp: the fix still applies.
__global__ void first_row_only(float *total, const float *in) {
  if (threadIdx.y == 0) {
    atomicAdd(total, in[threadIdx.x]);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: every lane performs 'atomicAdd' on the same address, serializing the warp; floating-point atomics are never aggregated by the compiler [warp-uniform-address-atomic]
    // CHECK-FIXES: {{^}}      float warp_value = in[threadIdx.x];
    // CHECK-FIXES: {{^}}        atomicAdd(total, warp_value);
    // CHECK-NOTES: :[[@LINE-4]]:5: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
    // CHECK-NOTES: :[[@LINE-5]]:5: note: consequence: slow: the lanes' atomics serialize: about 32x slower than a warp reduction and one atomic per warp, measured on an H200
  }
}

// threadIdx.x still differs between lanes: a per-lane address.
__global__ void column_sums_by_thread_x(float *col_sums, const float *in) {
  atomicAdd(&col_sums[threadIdx.x], in[threadIdx.y * blockDim.x + threadIdx.x]);
}

// Column 0 of each row is one lane of one warp: a single lane per warp.
__global__ void first_column_only(float *row_sums, const float *in) {
  if (threadIdx.x == 0)
    atomicAdd(&row_sums[threadIdx.y], in[threadIdx.y * blockDim.x]);
}
