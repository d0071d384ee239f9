#!/bin/sh
# warp-lint as a stage of any CI (Jenkins, Buildkite, Azure Pipelines, a
# Makefile): configure for the compile database, lint, keep the SARIF.
# Run it from the repository root (installed as
# /usr/share/warp-lint/ci-templates/warp-lint-stage.sh):
#
#   sh /usr/share/warp-lint/ci-templates/warp-lint-stage.sh
#
# Environment (all optional):
#   WARP_LINT_BUILD_DIR      build directory (default: build)
#   WARP_LINT_CMAKE_ARGS     more configure options
#   WARP_LINT_BUILD_TARGETS  targets that generate sources, built first so
#                            that the generated units are linted too
#   WARP_LINT_ARGS           more warp-lint options (--exclude=third_party/,
#                            --fail-on=error, ...; or use .warp-lint.yaml)
#   WARP_LINT_SARIF          the report (default: warp-lint.sarif)
#   CUDA_PATH                the CUDA toolkit (default: /usr/local/cuda)
#
# Exit status, as warp-lint's: 0 no findings, 1 findings, 2 the run did not
# complete (then the SARIF is not a complete report: do not publish it).
# A project without a CMakeLists.txt is linted with an existing
# $WARP_LINT_BUILD_DIR/compile_commands.json.
set -u
build=${WARP_LINT_BUILD_DIR:-build}
sarif=${WARP_LINT_SARIF:-warp-lint.sarif}
cuda=${CUDA_PATH:-/usr/local/cuda}

if [ -f CMakeLists.txt ]; then
  # Only the compile database is needed: configuring compiles nothing.
  # shellcheck disable=SC2086 # the options are meant to split
  if ! cmake -S . -B "$build" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
      -DCMAKE_CUDA_COMPILER="$cuda/bin/nvcc" ${WARP_LINT_CMAKE_ARGS:-}; then
    echo "warp-lint-stage: configuring failed: no compile database" >&2
    exit 2
  fi
fi
for target in ${WARP_LINT_BUILD_TARGETS:-}; do
  if ! cmake --build "$build" --target "$target"; then
    echo "warp-lint-stage: building $target failed" >&2
    exit 2
  fi
done
# shellcheck disable=SC2086
warp-lint -p "$build" --format=sarif --output="$sarif" ${WARP_LINT_ARGS:-}
rc=$?
case $rc in
  0) echo "warp-lint-stage: no findings ($sarif)" ;;
  1) echo "warp-lint-stage: findings reported in $sarif" ;;
  *) echo "warp-lint-stage: the run did not complete; $sarif is not a complete report" >&2 ;;
esac
exit $rc
