// warp-uniform-address-atomic: each rewrite declares its own names
// (warp_lane, warp_value, warp_ballot, ...), fresh in the function.
__global__ void sums_and_slots(float *total, int *count, int *out, const float *in) {
  const float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  atomicAdd(total, v); // SITE(warp-uniform-address-atomic)
  atomicAdd(total + 1, 2.0f * v); // SITE(warp-uniform-address-atomic)
  int slot = atomicAdd(count, 1); // SITE(warp-uniform-address-atomic)
  int other = atomicAdd(count + 1, 1); // SITE(warp-uniform-address-atomic)
  out[slot] = other;
}
