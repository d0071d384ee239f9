// Tests of warp-shuffle-width: a shuffle width that is not a power of two in
// 1..32, and a constant delta or laneMask at or above the width (template
// constants at their instantiated values).
//
// Part 1: true positives. Part 2: code that must stay silent, each with the
// reason it is correct. Directives: see run_test.py (clang-tidy lit style).
// Both the input and the file after --fix must compile with nvcc -arch=sm_90.

//===----------------------------------------------------------------------===//
// Part 1: true positives
//===----------------------------------------------------------------------===//

__global__ void width_not_power_of_two(float *out, const float *in) {
  float v = in[threadIdx.x];
  v += __shfl_down_sync(0xffffffff, v, 1, 12);
  // CHECK-MESSAGES: :[[@LINE-1]]:43: warning: width 12 of '__shfl_down_sync' is not a power of two in 1..32: the result is undefined [warp-shuffle-width]
  // CHECK-NOTES: :[[@LINE-2]]:43: note: witness: the width is the constant 12
  // CHECK-NOTES: :[[@LINE-3]]:43: note: consequence: undefined: the Programming Guide leaves the result undefined
  out[threadIdx.x] = v;
}

__global__ void width_above_warp(float *out, const float *in) {
  float v = in[threadIdx.x];
  v = __shfl_sync(0xffffffff, v, 0, 64);
  // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: width 64 of '__shfl_sync' is not a power of two in 1..32: the result is undefined [warp-shuffle-width]
  // CHECK-NOTES: :[[@LINE-2]]:37: note: witness: the width is the constant 64
  // CHECK-NOTES: :[[@LINE-3]]:37: note: consequence: undefined: the Programming Guide leaves the result undefined
  out[threadIdx.x] = v;
}

__global__ void delta_at_width(float *out, const float *in) {
  float v = in[threadIdx.x];
  v += __shfl_down_sync(0xffffffff, v, 16, 16);
  // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: delta 16 of '__shfl_down_sync' is at or above width 16: every lane gets its own value back [warp-shuffle-width]
  // CHECK-NOTES: :[[@LINE-2]]:40: note: witness: the offset and the width are constants
  // CHECK-NOTES: :[[@LINE-3]]:40: note: consequence: wrong-values: every lane gets its own value back
  out[threadIdx.x] = v;
}

__global__ void delta_past_warp(float *out, const float *in) {
  float v = in[threadIdx.x];
  v += __shfl_up_sync(0xffffffff, v, 32);
  // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: delta 32 of '__shfl_up_sync' is at or above width 32: every lane gets its own value back [warp-shuffle-width]
  // CHECK-NOTES: :[[@LINE-2]]:38: note: witness: the offset and the width are constants
  // CHECK-NOTES: :[[@LINE-3]]:38: note: consequence: wrong-values: every lane gets its own value back
  out[threadIdx.x] = v;
}

__global__ void lane_mask_past_width(float *out, const float *in) {
  float v = in[threadIdx.x];
  v += __shfl_xor_sync(0xffffffff, v, 8, 8);
  // CHECK-MESSAGES: :[[@LINE-1]]:39: warning: laneMask 8 of '__shfl_xor_sync' is at or above width 8: lanes read across their segment of 8 or their own value [warp-shuffle-width]
  // CHECK-NOTES: :[[@LINE-2]]:39: note: witness: the offset and the width are constants
  // CHECK-NOTES: :[[@LINE-3]]:39: note: consequence: wrong-values: lanes read outside their segment or their own value
  out[threadIdx.x] = v;
}

// A template whose width is not a power of two in one instantiation.
template <int Width> __device__ float segment_sum(float v) {
  for (int offset = Width / 2; offset > 0; offset /= 2)
    v += __shfl_xor_sync(0xffffffff, v, offset, Width);
    // CHECK-MESSAGES: :[[@LINE-1]]:49: warning: width 24 of '__shfl_xor_sync' is not a power of two in 1..32: the result is undefined [warp-shuffle-width]
    // CHECK-NOTES: :[[@LINE+7]]:22: note: in the instantiation of 'segment_sum<24>' here
    // CHECK-NOTES: :[[@LINE-3]]:49: note: witness: the width is the constant 24
    // CHECK-NOTES: :[[@LINE-4]]:49: note: consequence: undefined: the Programming Guide leaves the result undefined
  return v;
}

__global__ void template_width(float *out, const float *in) {
  out[threadIdx.x] = segment_sum<24>(in[threadIdx.x]);
}

// A template offset equal to the width.
template <int Delta, int Width> __device__ float shifted(float v) {
  return __shfl_down_sync(0xffffffff, v, Delta, Width);
  // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: delta 8 of '__shfl_down_sync' is at or above width 8: every lane gets its own value back [warp-shuffle-width]
  // CHECK-NOTES: :[[@LINE+6]]:22: note: in the instantiation of 'shifted<8, 8>' here
  // CHECK-NOTES: :[[@LINE-3]]:42: note: witness: the offset and the width are constants
  // CHECK-NOTES: :[[@LINE-4]]:42: note: consequence: wrong-values: every lane gets its own value back
}

__global__ void template_delta(float *out, const float *in) {
  out[threadIdx.x] = shifted<8, 8>(in[threadIdx.x]);
}

//===----------------------------------------------------------------------===//
// Part 2: silent
//===----------------------------------------------------------------------===//

__global__ void widths_ok(float *out, const float *in) {
  float v = in[threadIdx.x];
  v += __shfl_down_sync(0xffffffff, v, 4, 8);
  v += __shfl_xor_sync(0xffffffff, v, 1, 2);
  v += __shfl_up_sync(0xffffffff, v, 1);
  out[threadIdx.x] = v;
}

// srcLane is taken modulo width: not an offset.
__global__ void src_lane_modulo(float *out, const float *in) {
  float v = in[threadIdx.x];
  v = __shfl_sync(0xffffffff, v, 20, 16);
  out[threadIdx.x] = v;
}

// Instantiated with a valid width only.
template <int Width> __device__ float segment_max(float v) {
  for (int offset = Width / 2; offset > 0; offset /= 2)
    v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, offset, Width));
  return v;
}

__global__ void template_width_ok(float *out, const float *in) {
  out[threadIdx.x] = segment_max<16>(in[threadIdx.x]);
}

// A width from a kernel argument: not known.
__global__ void runtime_width(float *out, const float *in, int width) {
  float v = in[threadIdx.x];
  v += __shfl_down_sync(0xffffffff, v, 1, width);
  out[threadIdx.x] = v;
}

// A loop variable read through a lambda capture: its first value (32 here,
// where the loop never runs) is not its value in every iteration.
template <int First> __device__ float max_from(float v) {
  for (int delta = First; delta < 32; delta <<= 1) {
    auto step = [&](float x) {
      return fmaxf(x, __shfl_xor_sync(0xffffffffu, x, delta));
    };
    v = step(v);
  }
  return v;
}

__global__ void captured_loop_variable(float *out, const float *in) {
  out[threadIdx.x] = max_from<32>(in[threadIdx.x]) + max_from<4>(in[threadIdx.x]);
}
