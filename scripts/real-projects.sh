#!/usr/bin/env bash
# Run warp-lint over the real-project corpus (scripts/real-projects.txt).
#
#   scripts/real-projects.sh <root> [tool] [list]
#
# <root>  directory holding the fetched projects (<root>/cuda-samples,
#         <root>/cccl, <root>/ggml, <root>/cutlass, <root>/flash-attention,
#         <root>/raft, ... every project of the list, plus its dependencies
#         and the shims under <root>/.generated and <root>/.wrappers); made
#         by scripts/fetch-corpus.sh <root> (pinned commits).
# [tool]  libWarpLint.so  -> clang-tidy-22 --load=<it> --checks='-*,warp-*'
#         warp-lint        -> <it> --checks='-*,warp-*' <file> -- <flags>
#         parse            -> clang++-22 -fsyntax-only (validates the corpus)
#         default: the newest build*/checks/libWarpLint.so of this repo.
# [list]  default scripts/real-projects.txt
# env CHECKS: the --checks value (default '-*,warp-*'), to run some checks only
# env CONFIG: a --config value (check options, e.g. '{CheckOptions: {...}}')
#
# Prints every finding per file, records crashes and hangs (timeout 300 s,
# env TIMEOUT overrides), and ends with a summary. Exit 0 when every file was
# processed without crash/timeout/compile error, 1 otherwise.
# LOG_DIR=<dir> keeps each file's whole output (notes included, for triage)
# as <dir>/<project>/<path>.log.
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
root=${1:?usage: real-projects.sh <root> [tool] [list]}
root=$(cd "$root" && pwd)
tool=${2:-}
list=${3:-$here/real-projects.txt}
timeout_s=${TIMEOUT:-300}
clang_tidy=${CLANG_TIDY:-clang-tidy-22}
clangxx=${CLANGXX:-clang++-22}
# env CHECKS restricts the run to some checks (default every warp- check)
checks=${CHECKS:-'-*,warp-*'}
config=()
[ -n "${CONFIG:-}" ] && config=("--config=$CONFIG")

if [ -z "$tool" ]; then
  tool=$(ls -t "$repo"/build*/checks/libWarpLint.so 2>/dev/null | head -1)
  [ -n "$tool" ] || { echo "real-projects.sh: no build*/checks/libWarpLint.so; pass a tool" >&2; exit 2; }
fi
case "$tool" in
  parse) mode=parse ;;
  *.so)  mode=plugin ;;
  *)     mode=cli ;;
esac
if [ "$mode" != parse ]; then
  [ -e "$tool" ] || { echo "real-projects.sh: $tool not found" >&2; exit 2; }
  tool=$(cd "$(dirname "$tool")" && pwd)/$(basename "$tool")
fi

# Catch2 v3 wants a CMake-generated catch_user_config.hpp; make one (all
# options off) under <root>/.generated for the cub catch2 tests.
if [ -f "$root/Catch2/src/catch2/catch_user_config.hpp.in" ] &&
   [ ! -f "$root/.generated/catch2/catch_user_config.hpp" ]; then
  mkdir -p "$root/.generated/catch2"
  sed -e 's|^#cmakedefine \(CATCH_CONFIG_[A-Z0-9_]*\).*|/* #undef \1 */|' \
      -e 's|@CATCH_CONFIG_DEFAULT_REPORTER@|console|' \
      -e 's|@CATCH_CONFIG_CONSOLE_WIDTH@|80|' \
      "$root/Catch2/src/catch2/catch_user_config.hpp.in" \
      > "$root/.generated/catch2/catch_user_config.hpp"
fi

cuda=${CUDA_PATH:-/usr/local/cuda}
base_flags() { # $1 = arch
  echo "-x cuda --cuda-path=$cuda --cuda-gpu-arch=$1 --cuda-device-only -nocudalib" \
       "-Wno-unknown-cuda-version -isystem $cuda/include/cccl" \
       "-D_CG_CLUSTER_INTRINSICS_AVAILABLE -Xclang -target-sdk-version=13.0" \
       "-D__CUDACC_VER_MAJOR__=13 -D__CUDACC_VER_MINOR__=0"
}

echo "# warp-lint real-project run: $(date -u +%Y-%m-%dT%H:%MZ), mode=$mode, tool=$tool"
echo "# warp-lint commit ${WARP_LINT_COMMIT:-$(git -C "$repo" rev-parse --short HEAD 2>/dev/null)}"
n=0; ok=0; nfind=0; crashes=(); hangs=(); errors=(); missing=()
tmp=$(mktemp); trap 'rm -f "$tmp"' EXIT
while read -r project path rest; do
  case "$project" in ''|'#'*) continue ;; esac
  n=$((n + 1))
  dir=$root/$project
  extra=${rest//\$ROOT/$root}
  arch=sm_90
  for f in $extra; do case "$f" in --cuda-gpu-arch=*) arch=${f#--cuda-gpu-arch=} ;; esac; done
  flags=()
  for f in $(base_flags "$arch") $extra; do
    case "$f" in --cuda-gpu-arch=*) [ "$f" = "--cuda-gpu-arch=$arch" ] || continue ;; esac
    flags+=("$f")
  done
  # de-duplicate the arch flag (base + extra may both name it)
  seen=0; fl=()
  for f in "${flags[@]}"; do
    if [[ $f == --cuda-gpu-arch=* ]]; then [ $seen = 1 ] && continue; seen=1; fi
    fl+=("$f")
  done
  if [ ! -f "$dir/$path" ]; then
    echo "== $project/$path: MISSING"; missing+=("$project/$path"); continue
  fi
  start=$(date +%s.%N)
  case $mode in
    parse)  (cd "$dir" && timeout "$timeout_s" "$clangxx" -fsyntax-only "${fl[@]}" "$path") >"$tmp" 2>&1 ;;
    plugin) (cd "$dir" && timeout "$timeout_s" "$clang_tidy" --load="$tool" --checks="$checks" \
               "${config[@]}" --header-filter='.*' --quiet "$path" -- "${fl[@]}") >"$tmp" 2>&1 ;;
    # --checks as for the plugin: cccl's and raft's .clang-tidy start with -*
    cli)    (cd "$dir" && timeout "$timeout_s" "$tool" --checks="$checks" "${config[@]}" "$path" -- "${fl[@]}") >"$tmp" 2>&1 ;;
  esac
  rc=$?
  secs=$(echo "$(date +%s.%N) - $start" | bc)
  findings=$(grep -E '(warning|error): .*\[warp-[a-z-]+\]$' "$tmp" | sed "s|^$root/||;t;s|^\([^/]\)|$project/\1|" | sort -u)
  k=0; [ -n "$findings" ] && k=$(printf '%s\n' "$findings" | wc -l)
  nfind=$((nfind + k))
  status=ok
  if [ $rc = 124 ] || [ $rc = 137 ]; then status="TIMEOUT(${timeout_s}s)"; hangs+=("$project/$path")
  elif [ $rc -ge 128 ] || grep -qE 'Stack dump|PLEASE submit a bug report|Segmentation fault' "$tmp"; then
    status="CRASH(rc=$rc)"; crashes+=("$project/$path")
  elif grep -qE 'cannot load|no checks enabled|^Error: ' "$tmp" ||
       grep -E 'error: ' "$tmp" | grep -qvE '\[warp-[a-z-]+\]$' ||
       { [ $rc != 0 ] && [ $k = 0 ]; }; then
    # a compile error, a plugin that did not load, or a non-zero exit with
    # no finding to explain it (warp-lint exits 1 only when it found something)
    status="ERROR(rc=$rc)"; errors+=("$project/$path")
  else ok=$((ok + 1)); fi
  if [ -n "${LOG_DIR:-}" ]; then
    mkdir -p "$LOG_DIR/$project/$(dirname "$path")"
    cp "$tmp" "$LOG_DIR/$project/$path.log"
  fi
  printf '== %s/%s: %s, %d finding(s), %.1fs\n' "$project" "$path" "$status" "$k" "$secs"
  [ -n "$findings" ] && printf '%s\n' "$findings" | sed 's/^/   /'
  case "$status" in
    CRASH*) # where: the declaration being matched and the first frame of ours
      grep -A1 -E "Processing '" "$tmp" | head -2 | cut -c1-240 | sed 's/^[[:space:]]*/   ! /'
      grep -m1 -E 'warp::|WarpLint' "$tmp" | cut -c1-240 | sed 's/^[[:space:]]*/   ! /' ;;
    ok) ;;
    *) grep -E 'error: |Error: |cannot load' "$tmp" | head -5 | sed 's/^/   ! /' ;;
  esac
done < "$list"

echo
echo "## summary"
echo "files: $n, clean runs: $ok, findings: $nfind"
echo "crashes: ${#crashes[@]} ${crashes[*]:-}"
echo "timeouts: ${#hangs[@]} ${hangs[*]:-}"
echo "compile errors: ${#errors[@]} ${errors[*]:-}"
echo "missing files: ${#missing[@]} ${missing[*]:-}"
[ ${#crashes[@]} = 0 ] && [ ${#hangs[@]} = 0 ] && [ ${#errors[@]} = 0 ] && [ ${#missing[@]} = 0 ]
