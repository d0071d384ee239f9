//===--- nvcc_builtins.h - nvcc's builtins that clang lacks -----*- C++ -*-===//
//
// warp-lint defines nvcc's version macros (__CUDACC_VER_MAJOR__ ...) for a
// unit built by nvcc, so that code guarded on them is analysed as the build
// compiles it. Code guarded on a recent nvcc may then call builtins that
// only nvcc has: CUTLASS 3.8's `__nv_atomic_load_n(p, __NV_ATOMIC_RELAXED)`
// (CUDA 12.8's atomics with memory order and scope). Their declarations are
// enough to parse and analyse such code; nothing here is ever compiled to
// machine code. warp-lint force-includes this file where it defines the
// version macros.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_NVCC_BUILTINS_H
#define WARP_LINT_NVCC_BUILTINS_H

#if defined(__CUDA__) && defined(__cplusplus) && !defined(__NV_ATOMIC_RELAXED)

#define __NV_ATOMIC_RELAXED 0
#define __NV_ATOMIC_CONSUME 1
#define __NV_ATOMIC_ACQUIRE 2
#define __NV_ATOMIC_RELEASE 3
#define __NV_ATOMIC_ACQ_REL 4
#define __NV_ATOMIC_SEQ_CST 5

#define __NV_THREAD_SCOPE_THREAD 0
#define __NV_THREAD_SCOPE_BLOCK 1
#define __NV_THREAD_SCOPE_CLUSTER 2
#define __NV_THREAD_SCOPE_DEVICE 3
#define __NV_THREAD_SCOPE_SYSTEM 4

#define WARP_LINT_NV_ATOMIC_RMW(op)                                            \
  template <typename T>                                                        \
  __device__ T __nv_atomic_fetch_##op(T *, T, int,                             \
                                      int = __NV_THREAD_SCOPE_SYSTEM);         \
  template <typename T>                                                        \
  __device__ void __nv_atomic_##op(T *, T, int,                                \
                                   int = __NV_THREAD_SCOPE_SYSTEM);
WARP_LINT_NV_ATOMIC_RMW(add)
WARP_LINT_NV_ATOMIC_RMW(sub)
WARP_LINT_NV_ATOMIC_RMW(min)
WARP_LINT_NV_ATOMIC_RMW(max)
WARP_LINT_NV_ATOMIC_RMW(and)
WARP_LINT_NV_ATOMIC_RMW(or)
WARP_LINT_NV_ATOMIC_RMW(xor)
#undef WARP_LINT_NV_ATOMIC_RMW

template <typename T>
__device__ T __nv_atomic_exchange_n(T *, T, int,
                                    int = __NV_THREAD_SCOPE_SYSTEM);
template <typename T>
__device__ void __nv_atomic_exchange(T *, T *, T *, int,
                                     int = __NV_THREAD_SCOPE_SYSTEM);
template <typename T>
__device__ bool __nv_atomic_compare_exchange_n(T *, T *, T, bool, int, int,
                                               int = __NV_THREAD_SCOPE_SYSTEM);
template <typename T>
__device__ bool __nv_atomic_compare_exchange(T *, T *, T *, bool, int, int,
                                             int = __NV_THREAD_SCOPE_SYSTEM);
template <typename T>
__device__ T __nv_atomic_load_n(T *, int, int = __NV_THREAD_SCOPE_SYSTEM);
template <typename T>
__device__ void __nv_atomic_load(T *, T *, int, int = __NV_THREAD_SCOPE_SYSTEM);
template <typename T>
__device__ void __nv_atomic_store_n(T *, T, int,
                                    int = __NV_THREAD_SCOPE_SYSTEM);
template <typename T>
__device__ void __nv_atomic_store(T *, T *, int,
                                  int = __NV_THREAD_SCOPE_SYSTEM);
__device__ void __nv_atomic_thread_fence(int, int = __NV_THREAD_SCOPE_SYSTEM);

#endif
#endif
