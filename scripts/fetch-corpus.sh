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
#         to generate, ../.generated/kokkos/unit_test/TestCuda_<Name>.cpp)
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
# Submodules are not fetched: the list uses the fetched cutlass and CCCL in
# their place. Needs git, tar, python3 (NCCL's generate.py).
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

for p in "${projects[@]}"; do
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
# for the NAMEs given, `/* #undef NAME */` for the others; @VAR@ -> VALUE.
configure() {
  local in=$1 out=$2 a sed_args=()
  shift 2
  need "$in"
  for a in "$@"; do
    case "$a" in
      @*@=*) sed_args+=(-e "s|${a%%=*}|${a#*=}|g") ;;
      *) grep -qE "^#cmakedefine $a( |$)" "$in" || die "$in: no #cmakedefine $a"
         sed_args+=(-e "s|^#cmakedefine $a\$|#define $a|" -e "s|^#cmakedefine $a |#define $a |") ;;
    esac
  done
  sed "${sed_args[@]}" -e 's|^#cmakedefine \([A-Za-z0-9_]*\).*|/* #undef \1 */|' "$in" | put "$out"
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

echo "== generated files under $root/.generated and $root/.wrappers written"
