#!/usr/bin/env bash
# run-on-gpu.sh BUILD_DIR OUT_DIR - the runtime proof on a GPU machine.
#
# Needs only the built binaries (BUILD_DIR is the top-level build directory or
# its runtime-tests/ subdirectory), a CUDA driver and, for the sanitizer
# steps, compute-sanitizer on PATH or in /usr/local/cuda/bin. The binaries
# link the CUDA runtime, libstdc++ and GoogleTest statically.
#
# Steps (RT_STEPS, default all, in this order):
#   tests      every test: fixed kernels must match the CPU reference on full
#              and partial warps; buggy kernels record what they do here
#   synccheck  compute-sanitizer --tool synccheck over the fixed kernels
#   racecheck  compute-sanitizer --tool racecheck (with deadlock detection)
#              over the fixed kernels
#   memcheck   compute-sanitizer --tool memcheck over the fixed kernels
#   bench      naive vs fixed timings (markdown table)
#   buggy-sanitizers  synccheck and racecheck over the buggy kernels: which
#              bugs the runtime sanitizers see at all (docs/runtime-results.md)
#   tests-debug  every test again with the kernels built with -G
#              (warp-lint-runtime-tests-debug; n <= 1191): debug-build traps
#   field      the reproducers of runtime-tests/field (docs/field-reports.md):
#              each form plain, with -G, under racecheck (mumax3, AMGX) and
#              synccheck (exllamav2)
#   classes    one process per pattern and variant under synccheck and
#              racecheck, for the patterns of the consequence-class table
#              (RT_CLASS_PATTERNS; buggy ones recorded, fixed ones must be
#              clean)
# Writes OUT_DIR/summary.md plus one log per step. Exit status 0 when every
# step that ran passed (fixed tests green, zero sanitizer errors on fixed
# kernels); buggy-kernel findings are recorded, never failures.
set -u

if [ $# -lt 2 ]; then
  echo "usage: $0 BUILD_DIR OUT_DIR" >&2
  exit 2
fi
BUILD=$1
OUT=$2
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

for dir in "$BUILD/runtime-tests" "$BUILD"; do
  if [ -x "$dir/warp-lint-runtime-tests" ]; then
    TESTS=$dir/warp-lint-runtime-tests
    TESTS_DEBUG=$dir/warp-lint-runtime-tests-debug
    BENCH=$dir/bench/warp-lint-runtime-bench
    FIELD=$dir/field
    break
  fi
done
if [ -z "${TESTS:-}" ]; then
  echo "$0: no warp-lint-runtime-tests under $BUILD (build the runtime-tests target)" >&2
  exit 2
fi

SANITIZER=$(command -v compute-sanitizer || true)
if [ -z "$SANITIZER" ] && [ -x /usr/local/cuda/bin/compute-sanitizer ]; then
  SANITIZER=/usr/local/cuda/bin/compute-sanitizer
fi

STEPS=${RT_STEPS:-"tests tests-debug synccheck racecheck memcheck bench buggy-sanitizers field classes"}
# Sanitizer runs are 10-100x slower: smaller sizes (partial warps and partial
# last blocks are still covered by n = 7, 39, 1184, 1191) and a longer
# watchdog.
SAN_ENV=(env RT_MAX_N="${RT_SAN_MAX_N:-1191}" RT_WATCHDOG_S="${RT_SAN_WATCHDOG_S:-120}")
DEADLOCK_MS=${RT_DEADLOCK_MS:-10000}
STEP_TIMEOUT=${RT_STEP_TIMEOUT:-900}

SUMMARY=$OUT/summary.md
status=0
note() { echo "$*" | tee -a "$SUMMARY"; }

{
  echo "# warp-lint runtime tests: $(date -u +%Y-%m-%dT%H:%MZ)"
  echo
  echo "- host: $(uname -n), $(uname -r)"
  echo "- test binary: $TESTS"
  if command -v nvidia-smi >/dev/null 2>&1; then
    echo "- GPU: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | head -1)"
  fi
  echo "- compute-sanitizer: ${SANITIZER:-not found}${SANITIZER:+ ($("$SANITIZER" --version 2>/dev/null | grep -i version | head -1))}"
  echo "- steps: $STEPS"
  echo
} >"$SUMMARY"
cat "$SUMMARY"

# gtest_counts LOG -> "passed P, failed F, skipped S"
gtest_counts() {
  local p f s
  p=$(grep -c '^\[       OK \]' "$1")
  f=$(grep -c '^\[  FAILED  \] [A-Za-z].*(' "$1")
  s=$(grep -c '^\[  SKIPPED \] [A-Za-z].*(' "$1")
  echo "passed $p, failed $f, skipped $s"
}

# sanitizer_summary LOG -> the tool's summary lines, on one line
sanitizer_summary() {
  local s
  s=$(grep -h -o 'RACECHECK SUMMARY: .*\|ERROR SUMMARY: .*' "$1" | sort -u | tr '\n' ';')
  echo "${s:-no summary line}"
}

# run_tests BINARY NAME: every test of one test binary
run_tests() {
  local bin=$1 name=$2 log=$OUT/$2.log rc
  if [ ! -x "$bin" ]; then
    note "## $name: NOT RUN ($bin missing)"
    note ""
    status=1
    return
  fi
  timeout "$STEP_TIMEOUT" "$bin" --gtest_output="xml:$OUT/$name.xml" >"$log" 2>&1
  rc=$?
  note "## $name (exit $rc): $(gtest_counts "$log")"
  [ "$rc" = 124 ] && note "- the run hit its ${STEP_TIMEOUT}s limit or the watchdog ended it (a fixed kernel hung): see tests.log"
  grep '^\[ DEVICE' "$log" | sed 's/^/- /' | tee -a "$SUMMARY"
  if ! grep -q '^\[ DEVICE' "$log"; then
    note "- no usable GPU: $(grep -m1 -o 'no CUDA device: .*' "$log" || echo 'see tests.log')"
    status=1
  fi
  grep '^\[  FAILED  \] [A-Za-z].*(' "$log" | sed 's/^/- /' | tee -a "$SUMMARY"
  grep '^\[ HANG' "$log" | sed 's/^/- /' | tee -a "$SUMMARY"
  note ""
  note "### what the buggy kernels did on this GPU ($name)"
  note ""
  grep '^\[ BUGGY' "$log" | sed 's/^\[ BUGGY    \] /- /' | tee -a "$SUMMARY"
  note ""
  [ "$rc" = 0 ] || status=1
}

# sanitize TOOL FILTER LOGNAME [extra args...]: fixed kernels, zero errors
sanitize_fixed() {
  local tool=$1 log=$OUT/$2.log rc errors
  shift 2
  if [ -z "$SANITIZER" ]; then
    note "## $tool over fixed kernels: NOT RUN (compute-sanitizer not found)"
    note ""
    status=1
    return
  fi
  timeout "$STEP_TIMEOUT" "${SAN_ENV[@]}" "$SANITIZER" --tool "$tool" \
    --error-exitcode 86 --print-limit 50 "$@" \
    "$TESTS" --gtest_filter='*Fixed' >"$log" 2>&1
  rc=$?
  errors=$(sanitizer_summary "$log")
  note "## $tool over fixed kernels (exit $rc): $errors tests $(gtest_counts "$log")"
  note ""
  [ "$rc" = 0 ] || status=1
}

racecheck_args() {
  if [ -n "$SANITIZER" ] && "$SANITIZER" --help 2>&1 | grep -q -- '--racecheck-deadlock-timeout'; then
    echo "--racecheck-deadlock-timeout $DEADLOCK_MS"
  fi
}

run_bench() {
  local log=$OUT/bench.md rc
  if [ ! -x "$BENCH" ]; then
    note "## bench: NOT RUN ($BENCH missing)"
    status=1
    return
  fi
  # shellcheck disable=SC2086 # RT_BENCH_ARGS is a list of options
  timeout "$STEP_TIMEOUT" "$BENCH" ${RT_BENCH_ARGS:-} >"$log" 2>&1
  rc=$?
  note "## bench (exit $rc)"
  note ""
  grep -v '^# warp-lint runtime benchmark' "$log" | tee -a "$SUMMARY"
  note ""
  [ "$rc" = 0 ] || status=1
}

# The buggy kernels run in child processes; compute-sanitizer follows them
# and writes one log per process.
run_buggy_sanitizers() {
  local tool logs extra
  if [ -z "$SANITIZER" ]; then
    note "## sanitizers over buggy kernels: NOT RUN (compute-sanitizer not found)"
    return
  fi
  note "## sanitizers over buggy kernels (recorded, not a failure)"
  note ""
  for tool in synccheck racecheck; do
    mkdir -p "$OUT/buggy-$tool"
    extra=""
    [ "$tool" = racecheck ] && extra=$(racecheck_args)
    # shellcheck disable=SC2086
    timeout "$STEP_TIMEOUT" "${SAN_ENV[@]}" RT_WATCHDOG_S="${RT_SAN_BUGGY_WATCHDOG_S:-30}" \
      "$SANITIZER" --tool "$tool" --target-processes all $extra \
      --log-file "$OUT/buggy-$tool/%p.log" \
      "$TESTS" --gtest_filter='*Buggy' >"$OUT/buggy-$tool.log" 2>&1
    note "### $tool (exit $?)"
    note ""
    grep '^\[ BUGGY' "$OUT/buggy-$tool.log" | sed 's/^\[ BUGGY    \] /- /' | tee -a "$SUMMARY"
    # Which child logs hold errors: the child's command line names the pattern.
    for logs in "$OUT/buggy-$tool"/*.log; do
      [ -e "$logs" ] || continue
      grep -q 'SUMMARY: [1-9]' "$logs" || continue
      note "- $(basename "$logs"): $(grep -m1 -o -- '--rt-child=[a-z_]*' "$logs" || echo '?') $(sanitizer_summary "$logs")"
    done
    note ""
  done
}

# The patterns of the consequence-class table (docs/runtime-results.md).
CLASS_PATTERNS=${RT_CLASS_PATTERNS:-"dfm_read_absent_half dfm_exited_lane_min
  ssom_down_past_half mec_even_lane_pack mec_warp_index_broadcast
  stale_ballot_wrong_side isync_pair_argmin_shared isync_divergent_publish
  isync_volatile_warp_sum dfm_lower_half_sum dfm_halves_different_shuffles
  dfm_ballot_in_branch uaa_float_sum_global spin_stats
  dfm_syncwarp_lower_half dfm_helper_in_branch"}
# Patterns whose fixed variant the classes step also runs under the tools.
CLASS_FIXED=${RT_CLASS_FIXED:-"dfm_read_absent_half dfm_exited_lane_min
  mec_even_lane_pack isync_pair_argmin_shared isync_divergent_publish
  isync_volatile_warp_sum dfm_lower_half_sum dfm_halves_different_shuffles
  dfm_syncwarp_lower_half"}
# Each sanitized process: small sizes, and a hang ends it quickly.
CLASS_ENV=(env RT_MAX_N="${RT_CLASS_MAX_N:-128}" RT_WATCHDOG_S="${RT_CLASS_WATCHDOG_S:-8}")
CLASS_TIMEOUT=${RT_CLASS_TIMEOUT:-40}

# in_list WORD LIST: whether WORD is one of the words of LIST
in_list() {
  local x
  for x in $2; do
    [ "$x" = "$1" ] && return 0
  done
  return 1
}

# outcome_of LOG -> the RT-CASE outcomes, counted
outcome_of() {
  local s
  s=$(grep -o 'outcome=[a-z-]*' "$1" | sort | uniq -c | awk '{printf "%s %s, ", $2, $1}')
  echo "${s:-no RT-CASE line}"
}

run_classes() {
  local id variant tool log rc extra flag
  if [ -z "$SANITIZER" ]; then
    note "## classes: NOT RUN (compute-sanitizer not found)"
    status=1
    return
  fi
  mkdir -p "$OUT/classes"
  note "## classes: synccheck and racecheck, one pattern per process (buggy recorded; fixed must be clean)"
  note ""
  for id in $CLASS_PATTERNS; do
    for variant in buggy fixed; do
      if [ "$variant" = fixed ]; then
        in_list "$id" "$CLASS_FIXED" || continue
        flag=--rt-child-fixed=$id
      else
        flag=--rt-child=$id
      fi
      for tool in synccheck racecheck; do
        log=$OUT/classes/$id.$variant.$tool.log
        extra=""
        [ "$tool" = racecheck ] && extra=$(racecheck_args)
        # shellcheck disable=SC2086
        timeout -k 5 "$CLASS_TIMEOUT" "${CLASS_ENV[@]}" "$SANITIZER" --tool "$tool" \
          --print-limit 20 $extra "$TESTS" "$flag" >"$log" 2>&1
        rc=$?
        note "- $id $variant $tool (exit $rc): $(outcome_of "$log") $(sanitizer_summary "$log")"
        # A fixed kernel must match its reference (exit 0) and be clean.
        if [ "$variant" = fixed ] && { [ "$rc" != 0 ] || grep -q 'SUMMARY: [1-9]' "$log"; }; then
          status=1
        fi
      done
    done
  done
  note ""
}

# run_field NAME ARGS...: one field reproducer, release and -G
run_field() {
  local name=$1 bin kind log rc
  shift
  for kind in "" -debug; do
    bin=$FIELD/field-$name$kind
    log=$OUT/field/$name$kind.log
    if [ ! -x "$bin" ]; then
      note "- field-$name$kind: NOT RUN ($bin missing)"
      continue
    fi
    timeout -k 5 120 "$bin" "$@" >"$log" 2>&1
    rc=$?
    note "- field-$name$kind (exit $rc):"
    grep '^FORM\|^CUDA ERROR\|^RESULT' "$log" | sed 's/^/  - /' | tee -a "$SUMMARY"
    [ "$rc" = 0 ] || status=1
  done
}

# field_sanitize NAME TOOL FORM ARGS...: one form of a reproducer under a tool
field_sanitize() {
  local name=$1 tool=$2 form=$3 log extra rc
  shift 3
  log=$OUT/field/$name.$form.$tool.log
  extra=""
  [ "$tool" = racecheck ] && extra=$(racecheck_args)
  # shellcheck disable=SC2086
  timeout -k 5 300 "$SANITIZER" --tool "$tool" --print-limit 100 $extra \
    "$FIELD/field-$name" --form="$form" "$@" >"$log" 2>&1
  rc=$?
  note "- field-$name --form=$form under $tool (exit $rc): $(sanitizer_summary "$log") $(grep -c 'Race reported\|Error: \|Warning: ' "$log") reports"
}

run_field_step() {
  mkdir -p "$OUT/field"
  note "## field reproducers (docs/field-reports.md)"
  note ""
  run_field mumax3-reduce
  run_field exllamav2-cache-q
  run_field amgx-csr-vector
  if [ -n "$SANITIZER" ]; then
    for form in original steps fixed; do
      field_sanitize mumax3-reduce racecheck $form --n=65536
    done
    for form in original syncwarp fixed; do
      field_sanitize amgx-csr-vector racecheck $form
    done
    for form in original fixed; do
      field_sanitize exllamav2-cache-q synccheck $form
    done
  fi
  note ""
}

for step in $STEPS; do
  case $step in
  tests) run_tests "$TESTS" tests ;;
  tests-debug) run_tests "$TESTS_DEBUG" tests-debug ;;
  field) run_field_step ;;
  classes) run_classes ;;
  synccheck) sanitize_fixed synccheck synccheck ;;
  racecheck)
    # shellcheck disable=SC2046
    sanitize_fixed racecheck racecheck $(racecheck_args)
    ;;
  memcheck) sanitize_fixed memcheck memcheck ;;
  bench) run_bench ;;
  buggy-sanitizers) run_buggy_sanitizers ;;
  *) note "unknown step $step"; status=2 ;;
  esac
done

note "overall: $([ $status = 0 ] && echo PASS || echo FAIL)"
exit $status
