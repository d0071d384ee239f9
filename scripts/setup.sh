#!/usr/bin/env bash
# Sets up warp-lint on a fresh Debian 12 machine: installs the toolchain
# (LLVM/Clang 22 from Debian, CMake, Ninja, GoogleTest, pre-commit), then
# configures and builds the tool into build/. Safe to run again: packages
# already installed are not fetched, and the build is incremental.
#
#   scripts/setup.sh && build/tool/warp-lint examples/reduction.cu
#   scripts/setup.sh && ctest --test-dir build --output-on-failure
#
# Environment: BUILD_DIR (default build), BUILD_TYPE (default Release),
# CUDA_PATH (default /usr/local/cuda), WARP_LINT_SKIP_APT=1 to skip apt-get.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${BUILD_DIR:-build}
build_type=${BUILD_TYPE:-Release}
cuda=${CUDA_PATH:-/usr/local/cuda}

packages=(
  clang-22 clang-tidy-22 libclang-22-dev libclang-cpp22-dev llvm-22-dev
  llvm-22-tools clang-tools-22 clang-format-22 libfmt-dev libgtest-dev
  cmake ninja-build pre-commit python3 git distcc
  # The HTML report's test opens it in a headless browser.
  chromium
)
# SARIF validation in the tests: Microsoft's SARIF multitool (from npm) ships
# the official 2.1.0 schema. Installed into the build dir; the test reports
# skipped where npm is unavailable.
npm_packages=(@microsoft/sarif-multitool-linux)

log() { printf 'setup: %s\n' "$*" >&2; }

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
    missing+=("$p")
  fi
done
if [[ ${#missing[@]} -gt 0 && ${WARP_LINT_SKIP_APT:-0} != 1 ]]; then
  sudo=()
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || { log "need root (or sudo) to install: ${missing[*]}"; exit 1; }
    sudo=(sudo)
  fi
  log "installing ${missing[*]}"
  # LLVM 22 comes from bookworm-security: refresh the lists first.
  "${sudo[@]}" apt-get update -q
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null
else
  log "toolchain packages already installed"
fi
sarif_tools="$repo/$build_dir/sarif-tools"
if command -v npm >/dev/null && [[ ! -x $sarif_tools/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool ]]; then
  log "installing ${npm_packages[*]} (npm)"
  if npm install --no-save --no-audit --no-fund --prefix "$sarif_tools" \
       "${npm_packages[@]}" </dev/null >&2; then
    # npm does not run the package's own setup script here: mark it runnable.
    chmod u+x "$sarif_tools/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool" || true
  else
    log "warning: could not install the SARIF validator; its test will be skipped"
  fi
fi

# CUDA is expected to be installed (docs/getting-started.md); nvcc compiles
# every test input.
if ! command -v nvcc >/dev/null && [[ -x $cuda/bin/nvcc ]]; then
  export PATH="$cuda/bin:$PATH"
fi
if ! command -v nvcc >/dev/null; then
  log "warning: nvcc not found (looked on PATH and in $cuda/bin); warp-lint"
  log "         needs the CUDA headers and the tests need nvcc: set CUDA_PATH"
fi

cd "$repo"
log "configuring $build_dir ($build_type)"
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE="$build_type" \
  -DWARP_LINT_TEST_CUDA_PATH="$cuda" >/dev/null
log "building $build_dir"
ninja -C "$build_dir" ${JOBS:+-j "$JOBS"}
log "done: plugin $build_dir/checks/libWarpLint.so, CLI $build_dir/tool/warp-lint"
