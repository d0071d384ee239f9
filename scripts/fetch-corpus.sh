#!/usr/bin/env bash
# Rebuilds the real-project corpus root that scripts/real-projects.sh and
# scripts/benchmark.py read: every project of scripts/real-projects.txt at
# its pinned commit (the table below), plus the shims and generated headers
# the units name under <root>/.generated and <root>/.wrappers (how each is
# made is said in real-projects.txt, above the project's units).
#
#   scripts/fetch-corpus.sh <root> [list]
#   MIRROR=/srv/git/{}.git scripts/fetch-corpus.sh /tmp/real
#
# <root>  where the projects go, as <root>/<name> (names as in the list);
#         made if absent
# [list]  default scripts/real-projects.txt (read for the Kokkos unit tests
#         to generate, ../.generated/kokkos/unit_test/TestCuda_<Name>.cpp).
#         A list whose units are all first-contact projects (the second
#         table; scripts/first-contact-projects.txt) gets only the projects
#         it names (as a unit's project or as $ROOT/<name> in its flags) and
#         only the shared and first-contact shims; any other list gets the
#         whole corpus table, plus the first-contact projects it names.
# env MIRROR: read the projects from local bare git dirs instead of GitHub;
#         `{}` in it is replaced by owner+name (MIRROR=/srv/git/{}.git reads
#         NVIDIA/cccl from /srv/git/NVIDIA+cccl.git) and the tree is taken with
#         `git archive <commit>`. Blobs a partial mirror lacks (images, docs,
#         test data) are left out and named. Without MIRROR each project is
#         `git clone --filter=blob:none`d from GitHub and checked out.
#
# Idempotent: a project already at its pinned commit (stamp file
# <root>/<name>/.fetch-corpus) is kept; one this script made at another
# commit is replaced; anything else in the way is an error. The generated
# files are rewritten on every run (unchanged ones keep their mtime).
# Submodules are not fetched: the list uses the fetched cutlass, CCCL and
# SlabAlloc (SlabHash's submodule, a project of its own here) in their place.
# Needs git, tar, python3 (NCCL's generate.py).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

die() { echo "fetch-corpus.sh: $*" >&2; exit 1; }

[ $# -ge 1 ] && [ $# -le 2 ] || die "usage: fetch-corpus.sh <root> [list]"
mkdir -p "$1" || die "cannot make $1"
root=$(cd "$1" && pwd)
list=${2:-$here/real-projects.txt}
[ -f "$list" ] || die "no list $list"

# name (as in the list)  GitHub owner/name  pinned commit
projects=(
  "cuda-samples    NVIDIA/cuda-samples        c94ff366aed18c797b8a85dfaac7817b0228b420"
  "ggml            ggml-org/ggml              d99724f2b141fed9e1a9f402213506c081433465"
  "cccl            NVIDIA/cccl                571f2fc3bc53cd710e306ad43d58995c1fe4219f"
  "cutlass         NVIDIA/cutlass             7107b05535f8977f5ecb9d01ee203205b1fd9bc4"
  "flash-attention Dao-AILab/flash-attention  0251105a2fb19d2957484b7f023cd8c115286ced"
  "raft            rapidsai/raft              2141422b1a5e3121611888cb64a0bf8254bc3a67"
  "rmm             rapidsai/rmm               5d50a37b9612e29d53f8202fba792b1a36f88a79"
  "Catch2          catchorg/Catch2            a6ee7e20cd4011129816df7992c1a9db2ef4b58f"
  "faiss           facebookresearch/faiss     02dbb4e42f49aa2ce57cd78977b0e47a11f7cb91"
  "moderngpu       moderngpu/moderngpu        267cc8d02c03f00f1656f1205c61c946a1e530b0"
  "flashinfer      flashinfer-ai/flashinfer   fb28d7242b3506a2348265962041acc1fb56cca4"
  "tiny-cuda-nn    NVlabs/tiny-cuda-nn        6ee3546bda615f51abe684ce9edefeb414689135"
  "gunrock         gunrock/gunrock            01f125c85498c52ab0a1b8d33c2716d0b0dc3a57"
  "cxxopts         jarro2783/cxxopts          a3a21b31ef2894b5a802f041f40d51059469a259"
  "nccl            NVIDIA/nccl                5067397c2676d5aed50042fc39e5c8ee96eb0027"
  "kokkos          kokkos/kokkos              28848dfa8fc1411873b6a663c4d29ba05712510e"
  "arbor           arbor-sim/arbor            e5c1bcd3432b9da988a546dacfc2179fcb260f4a"
  "apex            NVIDIA/apex                6424da3b4faa6c8f062da4a48c424fff3f02d42d"
  "vilib           uzh-rpg/vilib              7a12fe1db78ca755876469979394076f10fe577c"
  "xmr-stak        fireice-uk/xmr-stak        67cf951b15ccac79763706e392b49ebc95957c51"
  "desul           desul/desul                18af64538f1acaaef5b5718f22bd1b51dfe58a61"
  # third set: ML / LLM kernels
  "llm.c             karpathy/llm.c                       f1e2ace651495b74ae22d45d1723443fd00ecd3a"
  "FasterTransformer NVIDIA/FasterTransformer             df4a7534860137e060e18d2ebf019906120ea204"
  "lightseq          bytedance/lightseq                   a7ab0dabe63ede35016ab151c5adfdf1b86f2eb4"
  "bitsandbytes      bitsandbytes-foundation/bitsandbytes 95f9af309d4d5793847169c39288dcd3fcbdf564"
  "warp-ctc          baidu-research/warp-ctc              94b2fa178347cf02757bdc7329dc2f1b46f5d094"
  "causal-conv1d     Dao-AILab/causal-conv1d              0d2252d161f25f7907bbd05985c08ab98d255874"
  "mamba             state-spaces/mamba                   e9594ce1c732d97440f0332fdc43170a2294dbfa"
  "DeepSpeed         microsoft/DeepSpeed                  38327e07f6cd39b63418f60cedd1651b0be3e7c3"
  # third set: sparse solvers, GPU hash tables and containers, vector search
  "ginkgo            ginkgo-project/ginkgo                591cd136b603d47669e53ec5264ff9ed59231682"
  "AMGX              NVIDIA/AMGX                          3188dce5bdc22e96407d609e398925bed6aa010d"
  "cuvs              rapidsai/cuvs                        ff0c8076bf2f8d354bc21039ebffa14a1c9128a3"
  "rapids-logger     rapidsai/rapids-logger               62ddc85b563d05fd6b88a05cfb75219946493432"
  "warpcore          sleeepyjack/warpcore                 3745e9da0697db4bcbb116ec73c2ab49106cef10"
  "kiss_rng          sleeepyjack/kiss_rng                 9c6859ec6ffaa2a853636dbda4fc891e40737cd2"
  "heavydb           heavyai/heavydb                      da23f70ea060f308bb9536ec8515a4ef1d07a4bd"
  "stdgpu            stotko/stdgpu                        22599cfdcc185c2ed721d78c792e3193cf84cc01"
  "SlabHash          owensgroup/SlabHash                  eec7135a3e5d40ba7fb9a7e88f7bd6d49abc4dee"
  "SlabAlloc         owensgroup/SlabAlloc                 d6550289344cd4474d237e959bfd6bc962981af7"
  # fourth set: GPU sorting (decoupled look-back, warp-level multisplit)
  "GPUSorting        b0nes164/GPUSorting                  09a6081d964b682bbb58838b83ab75aebe7f4e05"
  # fifth set: classic reductions and scans, a miner, a micromagnetics code
  "cudpp             cudpp/cudpp                          9dc7357ee818498a87bc2f68f9d887c298e0e3f6"
  "ethminer          ethereum-mining/ethminer             8eaf50ab3baad9a1747e04dc295793d46740dcae"
  "mumax3            mumax/3                              a0c5126ac5477b02ee321bebfb2ed5e2d76368b0"
)

# The first-contact projects (scripts/first-contact-projects.txt, issue 40):
# measured with no rule written for them; fetched only for a list that names
# them (see [list] above). Same columns.
first_contact=(
  "lmdeploy           InternLM/lmdeploy                     1263d5cd889b7ad500e85b8eb20401327a4516ab"
  "fastllm            ztxz16/fastllm                        d3aea32f809b8b89b152643a202068c35acffbf9"
  "exllamav2          turboderp/exllamav2                   b9c025b4b1ee78c0d34e700f2e474a02dfb13c90"
  "nvdiffrast         NVlabs/nvdiffrast                     253ac4fcea7de5f396371124af597e6cc957bfae"
  "LightGBM           microsoft/LightGBM                    bae0b7ba953341a32b2a9c5c5c437a1b976f576f"
  # LightGBM's submodule external_libs/fast_double_parser, at its commit
  "fast_double_parser lemire/fast_double_parser             252029ddac664370bdda3f0761675785d92a1573"
  "cuSZ               szcompressor/cuSZ                     d3cde38aec71a3ae2a7f80eef7707a27b3bc3d1d"
  "cuSZp              szcompressor/cuSZp                    6ab90a55dfb47da95c4d23b1bea0013e3f8f73ce"
  "GPUMD              brucefan1983/GPUMD                    d98135deee27068f4f30605fbc581d4c613fff99"
  "qsim               quantumlib/qsim                       502b4a3774834ca866c633777b4c7bf8fee1d25e"
  "kaldi              kaldi-asr/kaldi                       f4007661023b98b8081fd875029f0dee62242fd1"
  "darknet            AlexeyAB/darknet                      59596d7880f6504768df41d6daa586f5cb2b932f"
  "ccminer            tpruvot/ccminer                       6ff4e50987e59a70056324a94ed8667cc0bf598d"
  "CUDA-PointPillars  NVIDIA-AI-IOT/CUDA-PointPillars       ce7e2bd694c90207435c8751d61cdb38d48a9f4c"
)

# ---- fetching

# Paths of the blobs of <commit> that the (partial) git dir $1 lacks.
absent_blobs() { # $1 git dir, $2 commit
  local missing
  missing=$(git --git-dir="$1" ls-tree -r "$2" | awk '$2 == "blob" { print $3 }' |
            git --git-dir="$1" cat-file --batch-check='%(objectname) %(objecttype)' |
            awk '$2 == "missing" { print $1 }')
  [ -n "$missing" ] || return 0
  git --git-dir="$1" ls-tree -r -z "$2" | tr '\0' '\n' |
    awk -v want="$missing" 'BEGIN { n = split(want, w, "\n"); for (i = 1; i <= n; i++) m[w[i]] = 1 }
                            { split($0, f, "\t"); split(f[1], meta, " ") }
                            meta[2] == "blob" && (meta[3] in m) { print substr($0, length(f[1]) + 2) }'
}

fetch() { # $1 name, $2 owner/name, $3 commit
  local name=$1 repo=$2 commit=$3 dest=$root/$1 git_dir tmp
  local stamp=$dest/.fetch-corpus want="$2 $3"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    echo "== $name: $repo at ${commit:0:12}, kept"; return
  fi
  if [ -e "$dest" ]; then
    [ -f "$stamp" ] || die "$dest exists and was not made by fetch-corpus.sh; move it away"
    rm -rf "$dest"
  fi
  tmp=$dest.part
  rm -rf "$tmp"; mkdir -p "$tmp"
  if [ -n "${MIRROR:-}" ]; then
    git_dir=${MIRROR//\{\}/${repo/\//+}}
    [ -d "$git_dir" ] || die "$repo: no mirror at $git_dir"
    git --git-dir="$git_dir" cat-file -e "$commit^{commit}" 2>/dev/null ||
      die "$repo: commit $commit not in $git_dir"
    local absent=() excl=() p
    mapfile -t absent < <(absent_blobs "$git_dir" "$commit")
    for p in "${absent[@]}"; do excl+=(":(exclude,literal)$p"); done
    # (git still says "invalid object" for each excluded absent blob: its
    # stderr is shown only when the archive fails)
    git --git-dir="$git_dir" archive "$commit" -- . "${excl[@]}" 2>"$tmp.err" | tar -x -C "$tmp" ||
      { cat "$tmp.err" >&2; rm -f "$tmp.err"; die "$repo: git archive $commit from $git_dir failed"; }
    rm -f "$tmp.err"
    echo "== $name: $repo at ${commit:0:12}, from $git_dir"
    for p in "${absent[@]}"; do echo "   left out (not in the mirror): $p"; done
  else
    git clone -q --filter=blob:none --no-checkout "https://github.com/$repo" "$tmp" ||
      die "$repo: git clone failed"
    git -C "$tmp" -c advice.detachedHead=false checkout -q "$commit" 2>/dev/null ||
      { git -C "$tmp" fetch -q --filter=blob:none origin "$commit" &&
        git -C "$tmp" -c advice.detachedHead=false checkout -q "$commit"; } ||
      die "$repo: cannot check out $commit"
    echo "== $name: $repo at ${commit:0:12}, cloned"
  fi
  echo "$want" > "$tmp/.fetch-corpus"
  mv "$tmp" "$dest"
}

# What the list names: its units' projects, and $ROOT/<name> in its flags.
units=$(awk '$1 !~ /^#/ && NF >= 2 { print $1 }' "$list" | sort -u)
listed=$( { echo "$units"
            # shellcheck disable=SC2016  # the literal token $ROOT
            grep -v '^[[:space:]]*#' "$list" | grep -oE '\$ROOT/[^/[:space:]]+' | cut -d/ -f2 || true
          } | sort -u)
named() { grep -qxF -- "$1" <<<"$listed"; }
fc_names=$(printf '%s\n' "${first_contact[@]}" | awk '$1 !~ /^#/ { print $1 }')
# first_contact_only=1: every unit of the list is a first-contact project
first_contact_only=1
for u in $units; do grep -qxF -- "$u" <<<"$fc_names" || first_contact_only=0; done
selected=()
for p in "${projects[@]}"; do
  read -r name _ <<<"$p"
  if [ "$first_contact_only" = 0 ] || named "$name"; then selected+=("$p"); fi
done
for p in "${first_contact[@]}"; do
  read -r name _ <<<"$p"
  if named "$name"; then selected+=("$p"); fi
done
for p in "${selected[@]}"; do
  # shellcheck disable=SC2086  # the table's columns
  fetch $p
done

# ---- generated files

gen=$root/.generated
# put <file>: write stdin to <file>, leaving it untouched when unchanged
put() {
  mkdir -p "$(dirname "$1")"
  cat > "$1.tmp"
  if cmp -s "$1.tmp" "$1"; then rm -f "$1.tmp"; else mv "$1.tmp" "$1"; fi
}
need() { [ -f "$1" ] || die "missing $1 (upstream moved it? see real-projects.txt)"; }

# configure <template> <out> NAME... @VAR@=VALUE...: what CMake's
# configure_file makes of it: `#cmakedefine NAME rest` -> `#define NAME rest`
# for the NAMEs given, `/* #undef NAME */` for the others; `#cmakedefine01
# NAME` -> `#define NAME 1` for the NAMEs given, `#define NAME 0` for the
# others; @VAR@ -> VALUE.
configure() {
  local in=$1 out=$2 a sed_args=()
  shift 2
  need "$in"
  for a in "$@"; do
    case "$a" in
      @*@=*) sed_args+=(-e "s|${a%%=*}|${a#*=}|g") ;;
      *) if grep -qE "^#cmakedefine01 $a\$" "$in"; then
           sed_args+=(-e "s|^#cmakedefine01 $a\$|#define $a 1|")
         else
           grep -qE "^#cmakedefine $a( |$)" "$in" || die "$in: no #cmakedefine $a"
           sed_args+=(-e "s|^#cmakedefine $a\$|#define $a|" -e "s|^#cmakedefine $a |#define $a |")
         fi ;;
    esac
  done
  sed "${sed_args[@]}" -e 's|^#cmakedefine \([A-Za-z0-9_]*\).*|/* #undef \1 */|' \
      -e 's|^#cmakedefine01 \([A-Za-z0-9_]*\).*|#define \1 0|' "$in" | put "$out"
  ! grep -nE '@[A-Za-z_][A-Za-z0-9_]*@' "$out" >&2 || die "$out: unconfigured @VAR@ left"
}

# Shared shims (ours), see the "Second corpus set" comment of the list.
put "$gen/host_minmax.h" <<'EOF'
// warp-lint corpus shim (scripts/fetch-corpus.sh): host min/max for host
// launchers that call bare min/max. nvcc's crt headers declare host
// overloads; clang's device pass has only the __device__ ones.
#pragma once
template <class A, class B>
static inline __host__ auto min(A a, B b) -> decltype(true ? a : b) {
  return b < a ? b : a;
}
template <class A, class B>
static inline __host__ auto max(A a, B b) -> decltype(true ? a : b) {
  return a < b ? b : a;
}
EOF
put "$gen/managed_as_device.h" <<'EOF'
// warp-lint corpus shim (scripts/fetch-corpus.sh): clang honours
// __managed__ only for HIP; for the device pass it is a __device__ variable.
#pragma once
#undef __managed__
#define __managed__ __device__
EOF
put "$gen/cuda12_runtime_compat.h" <<'EOF'
// warp-lint corpus shim (scripts/fetch-corpus.sh): the CUDA 12 signatures of
// two runtime calls that CUDA 13 changed, forwarding to the CUDA 13 ones, for
// code written against CUDA 12 (Kokkos).
#pragma once
#include <cuda_runtime_api.h>
#if CUDART_VERSION >= 13000
static inline __host__ cudaError_t cudaGraphAddDependencies(
    cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to,
    size_t numDependencies) {
  return cudaGraphAddDependencies(graph, from, to, nullptr, numDependencies);
}
static inline __host__ cudaError_t cudaMemPrefetchAsync(const void *devPtr,
                                                        size_t count,
                                                        int dstDevice,
                                                        cudaStream_t stream = 0) {
  cudaMemLocation location = {};
  location.type = dstDevice == cudaCpuDeviceId ? cudaMemLocationTypeHost
                                               : cudaMemLocationTypeDevice;
  location.id = dstDevice == cudaCpuDeviceId ? 0 : dstDevice;
  return cudaMemPrefetchAsync(devPtr, count, location, 0, stream);
}
#endif
EOF

# ---- first-contact shims (scripts/first-contact-projects.txt says which
# unit uses which); written when the list names a first-contact project.
if [ "$first_contact_only" = 1 ] || grep -qxF -f <(echo "$fc_names") <<<"$units"; then
fc=$gen/first-contact
put "$fc/cache_hint_stores.h" <<'EOF'
// warp-lint first-contact shim (scripts/fetch-corpus.sh, force-included):
// nvcc's sm_32_intrinsics.h has the cache-hint stores for every type; clang's
// CUDA headers only for the builtin scalar and vector types. Stand-ins.
#pragma once
template <class T> __device__ inline void __stcs(T *p, T v) { *p = v; }
template <class T> __device__ inline void __stcg(T *p, T v) { *p = v; }
template <class T> __device__ inline void __stwb(T *p, T v) { *p = v; }
EOF
put "$fc/cub_max_min.h" <<'EOF'
// warp-lint first-contact shim (scripts/fetch-corpus.sh, force-included):
// cub::Max and cub::Min, removed in CCCL 3 (CUDA 13), which kaldi uses.
#pragma once
namespace cub {
struct Max {
  template <class T> __host__ __device__ T operator()(const T &a, const T &b) const { return a < b ? b : a; }
};
struct Min {
  template <class T> __host__ __device__ T operator()(const T &a, const T &b) const { return b < a ? b : a; }
};
}
EOF
put "$fc/aten-stub/ATen/cuda/CUDAContext.h" <<'EOF'
// warp-lint first-contact shim (scripts/fetch-corpus.sh): exllamav2's
// kernels include <ATen/cuda/CUDAContext.h> but use nothing of torch; only
// the standard and cuBLAS headers it brings in.
#pragma once
#include <cublas_v2.h>
#include <algorithm>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>
EOF
fi
# nvdiffrast: cudaraster's impl/Util.inl with its `%lanemask_*` asm operands
# written `%%lanemask_*`, and RasterImpl_kernel.cu as a wrapper that finds it
# first (-I order)
if named nvdiffrast; then
  f=$root/nvdiffrast/csrc/common/cudaraster/impl/Util.inl
  need "$f"
  sed 's/ %lanemask_\([a-z]*\);/ %%lanemask_\1;/' "$f" | put "$gen/nvdiffrast-overlay/Util.inl"
  [ "$(grep -c '%%lanemask_' "$gen/nvdiffrast-overlay/Util.inl")" = 4 ] ||
    die "$f: not four \` %lanemask_*;\` asm operands to rewrite any more"
  need "$root/nvdiffrast/csrc/common/cudaraster/impl/RasterImpl_kernel.cu"
  put "$root/.wrappers/nvdiffrast/raster_impl_kernel.cu" <<'EOF'
// warp-lint first-contact wrapper (scripts/fetch-corpus.sh), not part of
// nvdiffrast: csrc/common/cudaraster/impl/RasterImpl_kernel.cu, the same
// includes and kernels, except that "Util.inl" resolves (by -I order) to the
// copy under $ROOT/.generated/nvdiffrast-overlay whose `%lanemask_*` asm
// operands are written `%%lanemask_*` (nvcc accepts a single %, clang does
// not). Every other file is the project's own.
#include "../CudaRaster.hpp"
#include "PrivateDefs.hpp"
#include "Constants.hpp"
#include "Util.inl"

namespace CR
{
#include "TriangleSetup.inl"
#include "BinRaster.inl"
#include "CoarseRaster.inl"
#include "FineRaster.inl"
}

__global__ void __launch_bounds__(CR_SETUP_WARPS * 32, CR_SETUP_OPT_BLOCKS)  triangleSetupKernel (const CR::CRParams p)  { CR::triangleSetupImpl(p); }
__global__ void __launch_bounds__(CR_BIN_WARPS * 32, 1)                      binRasterKernel     (const CR::CRParams p)  { CR::binRasterImpl(p); }
__global__ void __launch_bounds__(CR_COARSE_WARPS * 32, 1)                   coarseRasterKernel  (const CR::CRParams p)  { CR::coarseRasterImpl(p); }
__global__ void __launch_bounds__(CR_FINE_MAX_WARPS * 32, 1)                 fineRasterKernel    (const CR::CRParams p)  { CR::fineRasterImpl(p); }
EOF
fi
if [ "$first_contact_only" = 1 ]; then
  echo "== first-contact generated files under $root/.generated and $root/.wrappers written"
  exit 0
fi

# Catch2 v3's catch_user_config.hpp, every option off (real-projects.sh
# makes the same when it is missing; here so benchmark.py finds it too).
need "$root/Catch2/src/catch2/catch_user_config.hpp.in"
sed -e 's|^#cmakedefine \(CATCH_CONFIG_[A-Z0-9_]*\).*|/* #undef \1 */|' \
    -e 's|@CATCH_CONFIG_DEFAULT_REPORTER@|console|' \
    -e 's|@CATCH_CONFIG_CONSOLE_WIDTH@|80|' \
    "$root/Catch2/src/catch2/catch_user_config.hpp.in" | put "$gen/catch2/catch_user_config.hpp"

# tiny-cuda-nn: common_device.h with its `%laneid` asm operand written `%%laneid`.
f=$root/tiny-cuda-nn/include/tiny-cuda-nn/common_device.h
need "$f"
sed 's/ %laneid;/ %%laneid;/' "$f" | put "$gen/tcnn-overlay/tiny-cuda-nn/common_device.h"
grep -q '%%laneid;' "$gen/tcnn-overlay/tiny-cuda-nn/common_device.h" ||
  die "$f: no \` %laneid;\` asm operand to rewrite any more"

# gunrock: nlohmann/json.hpp = tiny-cuda-nn's copy (a relative link).
need "$root/tiny-cuda-nn/dependencies/json/json.hpp"
mkdir -p "$gen/nlohmann-overlay/nlohmann"
ln -sfn ../../../tiny-cuda-nn/dependencies/json/json.hpp "$gen/nlohmann-overlay/nlohmann/json.hpp"

# NCCL: nccl.h from src/nccl.h.in as src/Makefile makes it, the kernel TUs
# from src/device/generate.py as src/device/Makefile runs it.
nccl=$root/nccl
need "$nccl/makefiles/version.mk"
mk() { sed -n "s/^$1 *:= *\([^ ]*\) *\$/\1/p" "$nccl/makefiles/version.mk"; }
major=$(mk NCCL_MAJOR) minor=$(mk NCCL_MINOR) patch=$(mk NCCL_PATCH) suffix=$(mk NCCL_SUFFIX)
[ -n "$major" ] && [ -n "$minor" ] && [ -n "$patch" ] || die "$nccl/makefiles/version.mk: no NCCL_MAJOR/MINOR/PATCH"
need "$nccl/src/nccl.h.in"
sed -e "s/\${nccl:Major}/$major/g" -e "s/\${nccl:Minor}/$minor/g" \
    -e "s/\${nccl:Patch}/$patch/g" -e "s/\${nccl:Suffix}/$suffix/g" \
    -e "s/\${nccl:Version}/$(printf '%d%02d%02d' "$major" "$minor" "$patch")/g" \
    "$nccl/src/nccl.h.in" | put "$gen/nccl/include/nccl.h"
need "$nccl/src/device/generate.py"
mkdir -p "$gen/nccl"
python3 "$nccl/src/device/generate.py" "$gen/nccl/gensrc" \
  "AllReduce Sum f32 * *|AllGather * *|Broadcast * *|ReduceScatter Sum f32 * *|Reduce Sum f32 * *|SendRecv" ||
  die "$nccl/src/device/generate.py failed"

# Kokkos: what its CMake writes for the CUDA + Serial backends on sm_90.
kokkos=$root/kokkos
kv() { sed -n "s/^set(Kokkos_VERSION_$1 \([0-9]*\))\$/\1/p" "$kokkos/CMakeLists.txt"; }
need "$kokkos/CMakeLists.txt"
kmajor=$(kv MAJOR) kminor=$(kv MINOR) kpatch=$(kv PATCH)
[ -n "$kmajor" ] && [ -n "$kminor" ] && [ -n "$kpatch" ] || die "$kokkos/CMakeLists.txt: no Kokkos_VERSION_*"
configure "$kokkos/cmake/KokkosCore_config.h.in" "$gen/kokkos/KokkosCore_config.h" \
  KOKKOS_VERSION "@KOKKOS_VERSION@=$((kmajor * 10000 + kminor * 100 + kpatch))" \
  "@KOKKOS_VERSION_MAJOR@=$kmajor" "@KOKKOS_VERSION_MINOR@=$kminor" "@KOKKOS_VERSION_PATCH@=$kpatch" \
  KOKKOS_ENABLE_SERIAL KOKKOS_ENABLE_CUDA KOKKOS_ENABLE_CXX17 KOKKOS_ENABLE_CUDA_LAMBDA \
  KOKKOS_ENABLE_CUDA_CONSTEXPR KOKKOS_ENABLE_IMPL_MDSPAN KOKKOS_ENABLE_DEPRECATED_CODE_4 \
  KOKKOS_ARCH_HOPPER KOKKOS_ARCH_HOPPER90
# kokkos_config_header (cmake/kokkos_functions.cmake): one #include per
# backend, in KOKKOS_ENABLED_DEVICES order (SERIAL before CUDA)
headerset() { # $1 out, $2 guard, $3 prefix, $4... backends
  local out=$1 guard=$2 prefix=$3 inc="" b
  shift 3
  for b in "$@"; do inc+="#include <${prefix}_$b.hpp>"$'\n'; done
  need "$kokkos/cmake/KokkosCore_Config_HeaderSet.in"
  GUARD=${guard}_HPP_ INC=$inc awk '$0 == "@INCLUDE_NEXT_FILE@" { printf "%s", ENVIRON["INC"]; print ""; next }
       { gsub(/@HEADER_GUARD_TAG@/, ENVIRON["GUARD"]); print }' \
    "$kokkos/cmake/KokkosCore_Config_HeaderSet.in" | put "$gen/kokkos/$out"
  for b in "$@"; do need "$kokkos/core/src/${prefix}_$b.hpp"; done
}
headerset KokkosCore_Config_FwdBackend.hpp KOKKOS_FWD fwd/Kokkos_Fwd SERIAL CUDA
headerset KokkosCore_Config_SetupBackend.hpp KOKKOS_SETUP setup/Kokkos_Setup Cuda
headerset KokkosCore_Config_DeclareBackend.hpp KOKKOS_DECLARE decl/Kokkos_Declare SERIAL CUDA
configure "$kokkos/tpls/desul/Config.hpp.cmake.in" "$gen/kokkos/desul/atomics/Config.hpp" \
  DESUL_ATOMICS_ENABLE_CUDA
# the unit tests the list names, as core/unit_test/CMakeLists.txt writes them
for t in $(grep -oE '\.\./\.generated/kokkos/unit_test/TestCuda_[A-Za-z0-9_]+\.cpp' "$list" | sort -u); do
  n=${t##*/TestCuda_}; n=${n%.cpp}
  need "$kokkos/core/unit_test/Test$n.hpp"
  printf '#include <TestCuda_Category.hpp>\n#include <Test%s.hpp>\n' "$n" |
    put "$gen/kokkos/unit_test/TestCuda_$n.cpp"
done

# arbor: cmake/export.hpp.in as export_visibility() configures it for a
# static libarbor (cmake/CompilerOptions.cmake).
configure "$root/arbor/cmake/export.hpp.in" "$gen/arbor/include/arbor/export.hpp" \
  @target_short_NAME@=ARBOR @target_type@=STATIC_LIBRARY @target_name@=arbor @target@=arbor

# desul: its own Config.hpp, CUDA on, and our wrapper TU.
configure "$root/desul/atomics/Config.hpp.cmake.in" "$gen/desul/desul/atomics/Config.hpp" \
  DESUL_ATOMICS_ENABLE_CUDA
put "$root/.wrappers/desul/atomic_ops.cu" <<'EOF'
// warp-lint corpus wrapper (scripts/fetch-corpus.sh), not part of desul:
// instantiates desul's CUDA atomics in a kernel, each lane on its own
// element: fetch_add/max/mul/min, compare_exchange, exchange, and a 24-byte
// struct that has no native atomic and so takes the lock-based path.
#include <desul/atomics.hpp>

struct Triple {
  double x, y, z;
};
__host__ __device__ inline Triple operator+(Triple a, Triple b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
static_assert(sizeof(Triple) == 24, "24 bytes: the lock-based path");

__global__ void atomic_ops(int *i, unsigned long long *u, float *f, double *d,
                           Triple *t, Triple add) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  const desul::MemoryOrderRelaxed relaxed;
  const desul::MemoryScopeDevice device;
  desul::atomic_fetch_add(&i[k], 1, relaxed, device);
  desul::atomic_fetch_max(&u[k], 42ull, relaxed, device);
  desul::atomic_fetch_mul(&d[k], 2.0, relaxed, device);
  desul::atomic_fetch_min(&f[k], 0.5f, relaxed, device);
  desul::atomic_compare_exchange(&i[k], 1, 2, desul::MemoryOrderAcquire(), device);
  desul::atomic_exchange(&d[k], 1.0, desul::MemoryOrderRelease(), device);
  desul::atomic_fetch_add(&t[k], add, desul::MemoryOrderSeqCst(), device);
}
EOF

# ---- third set

# Torch stand-ins (ours): the few c10/ATen/torch names the units use, so no
# PyTorch is needed. causal-conv1d and mamba get the same three headers.
for p in causal-conv1d mamba; do
  put "$gen/$p/c10/cuda/CUDAException.h" <<'EOF'
// warp-lint corpus shim (scripts/fetch-corpus.sh): the two torch launch-check
// macros, as plain statements
#pragma once
#define C10_CUDA_CHECK(expr) ((void)(expr))
#define C10_CUDA_KERNEL_LAUNCH_CHECK() ((void)0)
EOF
  put "$gen/$p/c10/util/BFloat16.h" <<'EOF'
// warp-lint corpus shim (scripts/fetch-corpus.sh): at::BFloat16 /
// c10::BFloat16 as CUDA's __nv_bfloat16 (no torch headers)
#pragma once
#include <cuda_bf16.h>
namespace c10 { using BFloat16 = __nv_bfloat16; }
namespace at { using c10::BFloat16; }
EOF
  put "$gen/$p/c10/util/Half.h" <<'EOF'
// warp-lint corpus shim (scripts/fetch-corpus.sh): at::Half / c10::Half as
// CUDA's __half (no torch headers); <algorithm> stands for what torch's real
// header pulls in (std::max/min)
#pragma once
#include <algorithm>
#include <cuda_fp16.h>
namespace c10 { using Half = __half; }
namespace at { using c10::Half; }
EOF
done
put "$gen/mamba/c10/util/complex.h" <<'EOF'
// warp-lint corpus shim (scripts/fetch-corpus.sh): the subset of
// c10::complex<T> that mamba's selective_scan uses (public real_/imag_,
// + - * with complex and scalar, std::conj)
#pragma once
#include <complex>
namespace c10 {
template <typename T> struct alignas(sizeof(T) * 2) complex {
  T real_ = T(0), imag_ = T(0);
  constexpr complex() = default;
  constexpr __host__ __device__ complex(T re, T im = T(0)) : real_(re), imag_(im) {}
  constexpr __host__ __device__ T real() const { return real_; }
  constexpr __host__ __device__ T imag() const { return imag_; }
  __host__ __device__ complex &operator+=(const complex &o) { real_ += o.real_; imag_ += o.imag_; return *this; }
  __host__ __device__ complex &operator-=(const complex &o) { real_ -= o.real_; imag_ -= o.imag_; return *this; }
  __host__ __device__ complex &operator*=(const complex &o) {
    T r = real_ * o.real_ - imag_ * o.imag_; imag_ = real_ * o.imag_ + imag_ * o.real_; real_ = r; return *this; }
};
template <typename T> __host__ __device__ complex<T> operator+(complex<T> a, const complex<T> &b) { return a += b; }
template <typename T> __host__ __device__ complex<T> operator-(complex<T> a, const complex<T> &b) { return a -= b; }
template <typename T> __host__ __device__ complex<T> operator*(complex<T> a, const complex<T> &b) { return a *= b; }
template <typename T> __host__ __device__ complex<T> operator-(const complex<T> &a) { return complex<T>(-a.real_, -a.imag_); }
template <typename T> __host__ __device__ complex<T> operator*(complex<T> a, T s) { return complex<T>(a.real_ * s, a.imag_ * s); }
template <typename T> __host__ __device__ complex<T> operator*(T s, complex<T> a) { return complex<T>(a.real_ * s, a.imag_ * s); }
template <typename T> __host__ __device__ complex<T> operator+(complex<T> a, T s) { return complex<T>(a.real_ + s, a.imag_); }
template <typename T> __host__ __device__ complex<T> operator+(T s, complex<T> a) { return complex<T>(a.real_ + s, a.imag_); }
template <typename T> __host__ __device__ complex<T> operator-(complex<T> a, T s) { return complex<T>(a.real_ - s, a.imag_); }
template <typename T> __host__ __device__ complex<T> operator-(T s, complex<T> a) { return complex<T>(s - a.real_, -a.imag_); }
} // namespace c10
namespace std {
template <typename T> __host__ __device__ c10::complex<T> conj(const c10::complex<T> &z) { return c10::complex<T>(z.real_, -z.imag_); }
} // namespace std
EOF
put "$gen/mamba/ATen/cuda/Atomic.cuh" <<'EOF'
// warp-lint corpus shim (scripts/fetch-corpus.sh): gpuAtomicAdd for float
// and c10::complex<float> (as torch defines it)
#pragma once
#include <c10/util/complex.h>
__device__ inline void gpuAtomicAdd(float *p, float v) { atomicAdd(p, v); }
__device__ inline void gpuAtomicAdd(c10::complex<float> *p, c10::complex<float> v) {
  atomicAdd(&reinterpret_cast<float *>(p)[0], v.real_);
  atomicAdd(&reinterpret_cast<float *>(p)[1], v.imag_);
}
EOF
put "$gen/DeepSpeed/ATen/cuda/CUDAContext.h" <<'EOF'
// warp-lint corpus shim (scripts/fetch-corpus.sh): the two torch stream
// getters DeepSpeed's csrc/includes/context.h calls, plus the std headers the
// real one pulls in
#pragma once
#include <algorithm>
#include <stdexcept>
#include <string>
#include <cuda_runtime_api.h>
namespace at { namespace cuda {
inline cudaStream_t getCurrentCUDAStream() { return nullptr; }
inline cudaStream_t getStreamFromPool() { return nullptr; }
} }
EOF
put "$gen/DeepSpeed/torch/version.h" <<'EOF'
// warp-lint corpus shim (scripts/fetch-corpus.sh): torch version macros (a
// torch 2.5 install)
#pragma once
#define TORCH_VERSION_MAJOR 2
#define TORCH_VERSION_MINOR 5
#define TORCH_VERSION_PATCH 0
EOF

# llm.c: what nvcc's crt headers give host code and clang's do not, plus the
# int-device cudaMemAdvise CUDA 13 dropped (force-included); <omp.h> below.
put "$gen/llm.c/stcs_shim.h" <<'EOF'
// warp-lint corpus shim (scripts/fetch-corpus.sh) for llm.c under clang
// (force-included). nvcc's crt headers make these visible to host code;
// clang's do not.
#pragma once
#include <math.h>   // host isfinite()
#include <time.h>   // host clock()
#include <type_traits>
// host min()/max() that nvcc's crt/math_functions.hpp declares (mixed types too)
template <class A, class B> inline __host__ typename std::common_type<A, B>::type
max(A a, B b) { return a > b ? a : b; }
template <class A, class B> inline __host__ typename std::common_type<A, B>::type
min(A a, B b) { return a < b ? a : b; }
// CUDA 13 dropped the int-device form of cudaMemAdvise that llm.c calls
inline __host__ cudaError_t cudaMemAdvise(const void *, size_t, cudaMemoryAdvise, int) { return cudaSuccess; }
// clang's CUDA headers lack the float/generic overloads of the cache-hint
// store intrinsics that nvcc provides (sm_32_intrinsics.h); stand-ins.
template <class T> __device__ inline void __stcs(T *p, T v) { *p = v; }
template <class T> __device__ inline void __stcg(T *p, T v) { *p = v; }
EOF

# <omp.h> (no libomp-dev needed): the OpenMP runtime calls cuvs makes;
# llm.c's unit only uses #pragma omp (ignored without -fopenmp).
put "$gen/omp/omp.h" <<'EOF'
// warp-lint corpus shim (scripts/fetch-corpus.sh): declarations of the
// OpenMP runtime calls the units make (no libomp-dev needed).
#pragma once
#ifdef __cplusplus
extern "C" {
#endif
int omp_get_max_threads(void);
int omp_get_num_threads(void);
int omp_get_thread_num(void);
int omp_get_num_procs(void);
int omp_get_nested(void);
int omp_in_parallel(void);
void omp_set_nested(int);
void omp_set_num_threads(int);
#ifdef __cplusplus
}
#endif
EOF

# AMGX: include/sm_utils.inl calls nvcc's __ldca, which clang lacks.
put "$gen/AMGX/amgx_clang_ldca.h" <<'EOF'
// warp-lint corpus shim (scripts/fetch-corpus.sh): clang's CUDA headers lack
// nvcc's __ldca (cache-all load); AMGX's sm_utils.inl calls it. A plain load
// stands in (force-included).
#pragma once
#if defined(__CUDA__) && defined(__clang__)
template <class T>
static __device__ __forceinline__ T __ldca(const T* p) { return *p; }
#endif
EOF

# cuvs: cutlass's subbyte_reference.h calls nvcc >= 12.8's builtin
# __nv_atomic_load_n under the base flags' __CUDACC_VER_* (claiming 12.4
# instead fails in cutlass's cuda_host_adapter.hpp).
put "$gen/cuvs/nv_atomic_load.h" <<'EOF'
// warp-lint corpus shim (scripts/fetch-corpus.sh, force-included): nvcc >=
// 12.8 has the builtin __nv_atomic_load_n / __NV_ATOMIC_RELAXED, which
// cutlass's subbyte_reference.h uses when __CUDACC_VER_* say 12.8+; clang
// has neither. A relaxed __atomic_load_n stands in.
#pragma once
#if defined(__clang__) && defined(__CUDA__) && !defined(__NV_ATOMIC_RELAXED)
#define __NV_ATOMIC_RELAXED __ATOMIC_RELAXED
template <class T>
static __device__ inline T __nv_atomic_load_n(T* p, int) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
#endif
EOF

# cuvs: raft's and rmm's logger_macros.hpp, rapids-logger's
# cmake/logger_macros.hpp.in as its create_logger_macros() writes them.
configure "$root/rapids-logger/cmake/logger_macros.hpp.in" "$gen/rapids/raft/core/logger_macros.hpp" \
  @_RAPIDS_LOGGER_MACRO_PREFIX@=RAFT "@_RAPIDS_LOGGER_DEFAULT_LOGGER@=raft::default_logger()"
configure "$root/rapids-logger/cmake/logger_macros.hpp.in" "$gen/rapids/rmm/logger_macros.hpp" \
  @_RAPIDS_LOGGER_MACRO_PREFIX@=RMM "@_RAPIDS_LOGGER_DEFAULT_LOGGER@=rmm::default_logger()"

# ginkgo: include/ginkgo/config.hpp.in as its CMake writes it for a CUDA
# build: half and bfloat16 on, no MPI/METIS/PAPI/TAU/VTune/ROCTX/hwloc,
# mixed precision off, verbose level 1.
ginkgo=$root/ginkgo
need "$ginkgo/CMakeLists.txt"
gver=$(sed -n '/^project(/,/)/s/^ *VERSION \([0-9]*\.[0-9]*\.[0-9]*\)$/\1/p' "$ginkgo/CMakeLists.txt")
gtag=$(sed -n 's/^set(Ginkgo_VERSION_TAG "\([^"]*\)")$/\1/p' "$ginkgo/CMakeLists.txt")
[ -n "$gver" ] && [ -n "$gtag" ] || die "$ginkgo/CMakeLists.txt: no project VERSION / Ginkgo_VERSION_TAG"
gdeprecated=(); [ "$gtag" = master ] && gdeprecated=(GINKGO_VERSION_TAG_DEPRECATED)
configure "$ginkgo/include/ginkgo/config.hpp.in" "$gen/ginkgo/include/ginkgo/config.hpp" \
  "@Ginkgo_VERSION_MAJOR@=${gver%%.*}" "@Ginkgo_VERSION_MINOR@=$(echo "$gver" | cut -d. -f2)" \
  "@Ginkgo_VERSION_PATCH@=${gver##*.}" "@Ginkgo_VERSION_TAG@=$gtag" "${gdeprecated[@]}" \
  @GINKGO_VERBOSE_LEVEL@=1 @GINKGO_DPCPP_MAJOR_VERSION@=0 @GINKGO_DPCPP_MINOR_VERSION@=0 \
  @GINKGO_HAVE_PAPI_SDE@=0 @GINKGO_HAVE_TAU@=0 @GINKGO_HAVE_VTUNE@=0 @GINKGO_HAVE_METIS@=0 \
  @METIS_HEADER@=metis.h @GINKGO_HAVE_ROCTX@=0 @GINKGO_HAVE_HWLOC@=0 \
  GKO_HAVE_CXXABI_H GKO_SIZE_T_IS_UINT64_T GINKGO_ENABLE_HALF GINKGO_ENABLE_BFLOAT16

# stdgpu: src/stdgpu/config.h.in for the CUDA backend, contract checks off,
# 32-bit index (its CMake defaults).
stdgpu=$root/stdgpu
need "$stdgpu/CMakeLists.txt"
sver=$(sed -n 's/^project(stdgpu VERSION \([0-9]*\.[0-9]*\.[0-9]*\).*/\1/p' "$stdgpu/CMakeLists.txt")
[ -n "$sver" ] || die "$stdgpu/CMakeLists.txt: no project(stdgpu VERSION ...)"
configure "$stdgpu/src/stdgpu/config.h.in" "$gen/stdgpu/stdgpu/config.h" \
  "@stdgpu_VERSION_MAJOR@=${sver%%.*}" "@stdgpu_VERSION_MINOR@=$(echo "$sver" | cut -d. -f2)" \
  "@stdgpu_VERSION_PATCH@=${sver##*.}" "@stdgpu_VERSION@=$sver" \
  @STDGPU_BACKEND@=STDGPU_BACKEND_CUDA @STDGPU_BACKEND_DIRECTORY@=cuda \
  @STDGPU_BACKEND_NAMESPACE@=cuda @STDGPU_BACKEND_MACRO_NAMESPACE@=CUDA \
  STDGPU_USE_32_BIT_INDEX

# warpcore: the hpc_helpers headers (<helpers/...>) its CMake downloads from
# a GitLab host = heavydb's copy in ThirdParty/warpcore (a relative link, so
# heavydb's older warpcore/ next to it stays out of the include path).
need "$root/heavydb/ThirdParty/warpcore/include/helpers/cuda_helpers.cuh"
mkdir -p "$gen/warpcore-helpers"
ln -sfn ../../heavydb/ThirdParty/warpcore/include/helpers "$gen/warpcore-helpers/helpers"

# SlabHash: our TU of its device code: src/slab_hash.cuh's include sequence
# without the two host *_implementation.cuh files, kernels instantiated.
put "$root/.wrappers/SlabHash/slabhash_device.cu" <<'EOF'
// warp-lint corpus wrapper (scripts/fetch-corpus.sh), not part of SlabHash:
// its device code (src/slab_hash.cuh without the two host-side
// *_implementation.cuh files; cmap_implementation.cuh:113 puts a default
// argument on an out-of-line member of a partial specialization, which nvcc
// accepts and clang rejects). Kernels instantiated for uint32_t.
#include <cassert>
#include <iostream>
#include <random>
#include <typeinfo>
#include "slab_hash_global.cuh"
#include "slab_hash_helper_methods.cuh"
#include "concurrent_map/cmap_class.cuh"
#include "concurrent_set/cset_class.cuh"
#include "slab_iterator.cuh"
#include "concurrent_map/warp/delete.cuh"
#include "concurrent_map/warp/insert.cuh"
#include "concurrent_map/warp/search.cuh"
#include "concurrent_map/warp/count.cuh"
#include "concurrent_set/cset_warp_operations.cuh"
#include "concurrent_map/device/build.cuh"
#include "concurrent_map/device/concurrent_kernel.cuh"
#include "concurrent_map/device/delete_kernel.cuh"
#include "concurrent_map/device/misc_kernels.cuh"
#include "concurrent_map/device/search_kernel.cuh"
#include "concurrent_map/device/count_kernel.cuh"
#include "concurrent_set/cset_helper_kernels.cuh"

using K = uint32_t;
using Map = GpuSlabHashContext<K, K, SlabHashTypeT::ConcurrentMap>;
using Set = GpuSlabHashContext<K, K, SlabHashTypeT::ConcurrentSet>;
template __global__ void build_table_kernel<K, K>(K*, K*, uint32_t, Map);
template __global__ void build_table_with_unique_keys_kernel<K, K>(K*, K*, uint32_t, Map);
template __global__ void search_table<K, K>(K*, K*, uint32_t, Map);
template __global__ void search_table_bulk<K, K>(K*, K*, uint32_t, Map);
template __global__ void delete_table_keys<K, K>(K*, uint32_t, Map);
template __global__ void count_key<K, K>(K*, uint32_t*, uint32_t, Map);
template __global__ void batched_operations<K, K>(uint32_t*, uint32_t*, uint32_t, Map);
template __global__ void bucket_count_kernel<K, K>(Map, uint32_t*, uint32_t*, uint32_t);
template __global__ void cset::build_table_kernel<K>(K*, uint32_t, Set);
template __global__ void cset::search_table<K>(K*, K*, uint32_t, Set);
EOF

put "$root/.wrappers/GPUSorting/split_sort_pairs.cu" <<'EOF'
// warp-lint corpus wrapper (scripts/fetch-corpus.sh), not part of
// GPUSorting: the segmented sort's device code, instantiated as its own
// test driver does (SplitSortTests<uint32_t>::TestAllRandomSegmentLengths<32>).
// The driver itself is left out: it redeclares its class's template
// parameter, which MSVC accepts and clang rejects.
#include "SplitSort/SplitSort.cuh"
template __host__ void SplitSortPairs<32, uint32_t>(uint32_t *, uint32_t *,
                                                    uint32_t *, const uint32_t,
                                                    const uint32_t, void *);
EOF

# cudpp: the configured header its CMake build writes (a shared library).
configure "$root/cudpp/include/cudpp_config.h.in" "$gen/cudpp/cudpp_config.h"

echo "== generated files under $root/.generated and $root/.wrappers written"
