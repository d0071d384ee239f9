#!/usr/bin/env bash
# Fails when a C++ source of the project differs from its clang-format
# (LLVM style, .clang-format) rendering. test-inputs/ is left alone: its
# expected diagnostics name columns. Exit 77 (skipped) without clang-format-22.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
format=${CLANG_FORMAT:-clang-format-22}
if ! command -v "$format" >/dev/null; then
  echo "SKIP: $format not found" >&2
  exit 77
fi
mapfile -t files < <(git ls-files '*.cpp' '*.h' | grep -v '^test-inputs/')
"$format" --dry-run -Werror "${files[@]}"
