#!/usr/bin/env python3
"""End-to-end tests of the warp-lint binary (registered with CTest).

usage: run_cli_tests.py <warp-lint> <group>

Groups: exit-codes, determinism, cmake-project, fix, sarif-schema.
Exit status 0 = pass, 1 = fail, 77 = skipped (a prerequisite is missing).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
FAILURES = []

BUGGY = r"""#include <cooperative_groups.h>
#include <cub/cub.cuh>
namespace cg = cooperative_groups;
__global__ void kernel(int *out) {
  int v = threadIdx.x;
  if (threadIdx.x % 32 < 16) v += __shfl_down_sync(0xffffffff, v, 8);
  out[threadIdx.x] = v;
}
void launch(int *out) { kernel<<<1, 32>>>(out); }
"""

CLEAN = r"""__global__ void kernel(int *out) {
  int v = threadIdx.x;
  v += __shfl_down_sync(0xffffffff, v, 8);
  out[threadIdx.x] = v;
}
void launch(int *out) { kernel<<<1, 32>>>(out); }
"""

# Without the heavy CUB include: the determinism group runs many times.
LIGHT_BUGGY = BUGGY.split("namespace cg = cooperative_groups;\n")[1]

SUPPRESSED = BUGGY.replace(
    "v += __shfl_down_sync(0xffffffff, v, 8);",
    "v += __shfl_down_sync(0xffffffff, v, 8); // NOLINT(warp-divergent-full-mask)")


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL:", what)


def run(tool, args, cwd):
    p = subprocess.run([tool] + args, cwd=cwd, capture_output=True, text=True,
                       timeout=300)
    return p.returncode, p.stdout, p.stderr


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def expect_error(tool, args, cwd, needle, what):
    rc, out, err = run(tool, args, cwd)
    lines = err.strip().splitlines()
    check(rc == 2, f"{what}: exit 2 (got {rc})")
    check(len(lines) == 1, f"{what}: one line on stderr (got {err!r})")
    check(lines and lines[0].startswith("warp-lint: error: ") and needle in lines[0],
          f"{what}: message names the problem ({needle!r} in {err!r})")
    check(out == "", f"{what}: nothing on stdout (got {out[:200]!r})")


def exit_codes(tool, tmp):
    write(f"{tmp}/bug.cu", BUGGY)
    write(f"{tmp}/clean.cu", CLEAN)
    write(f"{tmp}/nolint.cu", SUPPRESSED)
    write(f"{tmp}/broken.cu", "__global__ void k( {\n")
    write(f"{tmp}/db/compile_commands.json", '[{"directory": "/", "file": ')

    rc, out, err = run(tool, ["clean.cu"], tmp)
    check(rc == 0 and out == "", f"clean file: exit 0, no output ({rc}, {out!r}, {err!r})")
    rc, out, err = run(tool, ["bug.cu"], tmp)
    check(rc == 1, f"buggy file: exit 1 (got {rc}, {err!r})")
    check("bug.cu:6:" in out and "[warp-divergent-full-mask]" in out,
          f"buggy file: clang-style finding ({out!r})")
    check("cudaConfigureCall" not in out + err, "<<<>>> launches parse")
    rc, out, err = run(tool, ["--quiet", "nolint.cu"], tmp)
    check(rc == 0 and out == "", f"NOLINT suppresses (got {rc}, {out!r})")
    rc, out, err = run(tool, ["--checks=-*,warp-divergent-full-mask", "bug.cu"], tmp)
    check(rc == 1, "explicit check list")
    rc, out, err = run(tool, ["--list-checks"], tmp)
    check(rc == 0 and "warp-divergent-full-mask" in out, "--list-checks")
    rc, out, err = run(tool, ["--dump-config"], tmp)
    check(rc == 0 and "warp-*" in out, "--dump-config shows the default checks")
    rc, out, err = run(tool, ["--version"], tmp)
    check(rc == 0 and "warp-lint" in out, "--version")
    rc, out, err = run(tool, ["--help"], tmp)
    check(rc == 0 and "--cuda-gpu-arch" in out and "--x86-asm-syntax" not in out,
          "--help lists warp-lint's options, not LLVM's")
    write(f"{tmp}/cfg/.clang-tidy", "Checks: '-*'\n")
    write(f"{tmp}/cfg/bug.cu", BUGGY)
    rc, out, err = run(tool, ["--checks=warp-*", "cfg/bug.cu"], tmp)
    check(rc == 1, ".clang-tidy is read and --checks is appended to it")
    rc, out, err = run(tool, ["--config={Checks: '-*,warp-divergent-full-mask'}", "bug.cu"], tmp)
    check(rc == 1, "--config")

    expect_error(tool, ["missing.cu"], tmp, "no such file: missing.cu", "missing file")
    expect_error(tool, ["-p", "db"], tmp, "malformed compile database", "malformed compile DB")
    expect_error(tool, ["-p", "nodb"], tmp, "compile_commands.json", "no compile DB")
    expect_error(tool, ["--bogus", "bug.cu"], tmp, "--bogus", "unknown option")
    expect_error(tool, ["--checks=warp-nope", "bug.cu"], tmp, "warp-nope", "unknown check")
    expect_error(tool, ["--checks=-*", "bug.cu"], tmp, "enables no known check", "no check enabled")
    expect_error(tool, ["broken.cu"], tmp, "cannot parse", "unparsable file")
    expect_error(tool, ["--format=xml", "bug.cu"], tmp, "--format", "bad format")
    expect_error(tool, ["-j", "two", "bug.cu"], tmp, "-j", "bad -j")
    expect_error(tool, [], tmp, "no input files", "no input")
    expect_error(tool, ["--config-file=nope.yaml", "bug.cu"], tmp, "nope.yaml", "missing config file")


def determinism(tool, tmp):
    files = []
    for i in range(6):
        name = f"f{i}.cu"
        write(f"{tmp}/{name}", LIGHT_BUGGY if i % 2 == 0 else CLEAN)
        files.append(name)
    outputs = {}
    for fmt in ["text", "json", "sarif"]:
        for jobs in ["1", "4"]:
            rc, out, err = run(tool, [f"--format={fmt}", "-j", jobs] + files, tmp)
            check(rc == 1, f"-j{jobs} {fmt}: exit 1 (got {rc}, {err!r})")
            outputs[(fmt, jobs)] = out
        check(outputs[(fmt, "1")] == outputs[(fmt, "4")],
              f"{fmt}: same output for -j1 and -j4")
    # Input order, not completion order.
    text = outputs[("text", "1")]
    positions = [text.find(f"f{i}.cu:") for i in (0, 2, 4)]
    check(all(p >= 0 for p in positions) and positions == sorted(positions),
          "findings follow input order")


def cmake_project(tool, tmp):
    cmake, nvcc = shutil.which("cmake"), shutil.which("nvcc")
    if not cmake or not nvcc:
        print("SKIP: cmake-project needs cmake and nvcc on PATH")
        return SKIP
    src = f"{tmp}/src"
    write(f"{src}/CMakeLists.txt", """cmake_minimum_required(VERSION 3.20)
project(x LANGUAGES CXX CUDA)
add_library(kernels STATIC kernels.cu other.cu)
set_target_properties(kernels PROPERTIES CUDA_SEPARABLE_COMPILATION ON)
target_include_directories(kernels PRIVATE inc)
target_compile_definitions(kernels PRIVATE LANES=32)
target_compile_options(kernels PRIVATE
  $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr -Xcompiler=-Wall,-fPIC -lineinfo>)
""")
    # The header is only found through the include path: an untranslated
    # options file would make the unit unparsable (exit 2).
    write(f"{src}/inc/lanes.cuh", "#define HALF_WARP (LANES / 2)\n")
    write(f"{src}/kernels.cu", """#include "lanes.cuh"
__global__ void reduce(int *out) {
  int v = threadIdx.x;
  if (threadIdx.x % 32 < 16) v += __shfl_down_sync(0xffffffff, v, 8);
  out[threadIdx.x] = v + HALF_WARP;
}
void launch(int *out) { reduce<<<1, 32>>>(out); }
""")
    write(f"{src}/other.cu", '#include "lanes.cuh"\n' + CLEAN)
    for generator, name in [("Ninja", "ninja"), ("Unix Makefiles", "make")]:
        if generator == "Ninja" and not shutil.which("ninja"):
            continue
        build = f"{tmp}/build-{name}"
        p = subprocess.run([cmake, "-S", src, "-B", build, "-G", generator,
                            "-DCMAKE_CUDA_COMPILER=nvcc",
                            "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON",
                            "-DCMAKE_CUDA_ARCHITECTURES=90",
                            # Makefiles then pass includes via --options-file.
                            "-DCMAKE_CUDA_USE_RESPONSE_FILE_FOR_INCLUDES=ON"],
                           capture_output=True, text=True, timeout=300)
        if p.returncode != 0:
            print("SKIP: cannot configure a CUDA project here:", p.stderr[-2000:])
            return SKIP
        with open(f"{build}/compile_commands.json") as f:
            db = f.read()
        check("nvcc" in db, f"{generator}: database holds nvcc commands")
        rc, out, err = run(tool, ["-p", build], tmp)
        check(rc == 1, f"{generator}: -p build finds the bug (exit {rc}, {err!r})")
        check("kernels.cu:4:" in out and "warp-divergent-full-mask" in out,
              f"{generator}: finding reported ({out!r})")
        check("unknown argument" not in out + err, f"{generator}: no unknown argument")
        rc, out, err = run(tool, ["-p", build, f"{src}/other.cu"], tmp)
        check(rc == 0, f"{generator}: a named clean file is looked up (exit {rc}, {err!r})")
        if generator == "Unix Makefiles":
            check("--options-file" in db, "Makefiles database uses --options-file")


def fix(tool, tmp):
    write(f"{tmp}/clean.cu", CLEAN)
    write(f"{tmp}/bug.cu", BUGGY)
    write(f"{tmp}/broken.cu", BUGGY + "\nint x = ;\n")
    before = os.stat(f"{tmp}/clean.cu").st_mtime_ns
    rc, out, err = run(tool, ["--fix", "clean.cu"], tmp)
    check(rc == 0 and os.stat(f"{tmp}/clean.cu").st_mtime_ns == before,
          "--fix leaves a file without findings untouched")
    broken = open(f"{tmp}/broken.cu").read()
    rc, out, err = run(tool, ["--fix", "bug.cu", "broken.cu"], tmp)
    check(rc == 2 and open(f"{tmp}/broken.cu").read() == broken
          and open(f"{tmp}/bug.cu").read() == BUGGY,
          "--fix writes nothing when a unit has errors")
    rc, out, err = run(tool, ["--fix", "--export-fixes=fixes.yaml", "bug.cu"], tmp)
    check(rc == 1, "--fix reports the findings it saw")
    check(os.path.exists(f"{tmp}/fixes.yaml"), "--export-fixes writes YAML")
    once = open(f"{tmp}/bug.cu").read()
    run(tool, ["--fix", "bug.cu"], tmp)
    check(open(f"{tmp}/bug.cu").read() == once, "--fix is idempotent")
    rc, out, err = run(tool, ["--fix", "--format=json", "bug.cu"], tmp)
    try:
        json.loads(out)
        ok = True
    except ValueError:
        ok = False
    check(ok, f"--fix --format=json keeps stdout valid JSON ({out[:200]!r})")


def sarif_schema(tool, tmp):
    validator = (os.environ.get("SARIF_MULTITOOL")
                 or shutil.which("sarif-multitool-linux")
                 or shutil.which("sarif-multitool"))
    tools_dir = os.environ.get("SARIF_TOOLS_DIR", "")
    cand = os.path.join(tools_dir, "node_modules", ".bin", "sarif-multitool-linux")
    if not validator and tools_dir and os.path.exists(cand):
        validator = cand
    if not validator:
        print("SKIP: sarif-multitool not found (npm install --prefix "
              "<build>/sarif-tools @microsoft/sarif-multitool-linux, or set "
              "SARIF_MULTITOOL)")
        return SKIP
    write(f"{tmp}/bug.cu", BUGGY)
    write(f"{tmp}/clean.cu", CLEAN)
    for files in (["bug.cu"], ["clean.cu"]):
        rc, out, err = run(tool, ["--format=sarif", "--sarif-root", tmp] + files, tmp)
        log = f"{tmp}/out-{files[0]}.sarif"
        with open(log, "w") as f:
            f.write(out)
        doc = json.loads(out)
        check(doc["version"] == "2.1.0", "SARIF version")
        p = subprocess.run([validator, "validate", log, "--output",
                            f"{log}.validation.sarif"],
                           capture_output=True, text=True, timeout=300)
        check(p.returncode == 0, f"{files[0]}: schema-valid SARIF ({p.stdout[-3000:]}{p.stderr[-2000:]})")
        if p.returncode == 0 and os.path.exists(f"{log}.validation.sarif"):
            with open(f"{log}.validation.sarif") as f:
                results = json.load(f)["runs"][0].get("results", [])
            errors = [r for r in results if r.get("level", "warning") in ("error", "warning")]
            check(not errors, f"{files[0]}: no validation errors ({errors[:3]})")


GROUPS = {"exit-codes": exit_codes, "determinism": determinism,
          "cmake-project": cmake_project, "fix": fix, "sarif-schema": sarif_schema}


def main():
    tool, group = os.path.abspath(sys.argv[1]), sys.argv[2]
    with tempfile.TemporaryDirectory(prefix=f"warp-lint-{group}-") as tmp:
        tmp = os.path.realpath(tmp)
        status = GROUPS[group](tool, tmp)
    if status == SKIP:
        return SKIP
    print(f"{group}: {len(FAILURES)} failure(s)")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
