#!/usr/bin/env python3
"""End-to-end tests of the warp-lint binary (registered with CTest).

usage: run_cli_tests.py <warp-lint> <group>

Groups: exit-codes, determinism, cmake-project, fix, sarif-schema,
shared-header, write-safety, non-regular, compile-errors, crash-recovery,
cross-unit-launches, export-compile-commands (the last two with the plugin from $WARP_LINT_PLUGIN).
Exit status 0 = pass, 1 = fail, 77 = skipped (a prerequisite is missing).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

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


def run(tool, args, cwd, timeout=300, stdout=subprocess.PIPE):
    p = subprocess.run([tool] + args, cwd=cwd, stdout=stdout,
                       stderr=subprocess.PIPE, text=True, timeout=timeout)
    return p.returncode, p.stdout or "", p.stderr


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def expect_error(tool, args, cwd, needle, what, stdout_ok=False, **kw):
    rc, out, err = run(tool, args, cwd, **kw)
    lines = err.strip().splitlines()
    check(rc == 2, f"{what}: exit 2 (got {rc})")
    check(len(lines) == 1, f"{what}: one line on stderr (got {err!r})")
    check(lines and lines[0].startswith("warp-lint: error: ") and needle in lines[0],
          f"{what}: message names the problem ({needle!r} in {err!r})")
    check("LLVM ERROR" not in err, f"{what}: no LLVM ERROR ({err!r})")
    if not stdout_ok:
        check(out == "", f"{what}: nothing on stdout (got {out[:200]!r})")
    return rc, out, err


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
    expect_error(tool, ["-p", "nodb"], tmp, "no such build directory: nodb", "no build dir")
    os.makedirs(f"{tmp}/emptydir", exist_ok=True)
    expect_error(tool, ["-p", "emptydir"], tmp, "no compile_commands.json in emptydir",
                 "no compile DB")
    expect_error(tool, ["-p", "emptydir", "bug.cu"], tmp,
                 "no compile_commands.json in emptydir", "no compile DB, a file named")
    write(f"{tmp}/gooddb/compile_commands.json", json.dumps(
        [{"directory": tmp, "file": f"{tmp}/bug.cu",
          "arguments": ["nvcc", "-c", f"{tmp}/bug.cu"]}]))
    rc, out, err = run(tool, ["-p", "gooddb/compile_commands.json"], tmp)
    check(rc == 1 and "bug.cu:6:" in out,
          f"-p may name compile_commands.json itself ({rc}, {err!r})")
    expect_error(tool, ["--config={Checks: [", "bug.cu"], tmp,
                 "invalid configuration <command-line-config>:1:10:", "bad --config")
    expect_error(tool, ["--config={Bogus: 1}", "bug.cu"], tmp,
                 "unknown key 'Bogus'", "unknown --config key")
    write(f"{tmp}/badcfg/.clang-tidy", "Checks: '-*,warp-*\n")
    write(f"{tmp}/badcfg/a.cu", BUGGY)
    write(f"{tmp}/badcfg/b.cu", BUGGY)
    expect_error(tool, ["badcfg/a.cu", "badcfg/b.cu"], tmp,
                 "badcfg/.clang-tidy:1:", "broken .clang-tidy")
    expect_error(tool, ["--bogus", "bug.cu"], tmp, "--bogus", "unknown option")
    expect_error(tool, ["--checks=warp-nope", "bug.cu"], tmp, "warp-nope", "unknown check")
    expect_error(tool, ["--checks=-*", "bug.cu"], tmp, "enables no known check", "no check enabled")
    rc, out, err = expect_error(tool, ["broken.cu"], tmp, "broken.cu does not compile",
                                "unparsable file", stdout_ok=True)
    check("error: " in out and "[clang-diagnostic-error]" in out,
          f"unparsable file: the compile error is in the report ({out[:300]!r})")
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
    write(f"{tmp}/host.cu", HOST_ERROR)
    write(f"{tmp}/crash.cu", CRASH)
    # A finding, none, and a run that did not complete (notifications).
    for files in (["bug.cu"], ["clean.cu"], ["host.cu", "crash.cu"]):
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



HEADER = """__device__ inline float half_sum(float v) {
  unsigned lane = threadIdx.x % 32;
  if (lane < 16) {
    v += __shfl_xor_sync(0xffffffff, v, 4);
    v += __shfl_xor_sync(0xffffffff, v, 2);
  }
  return v;
}
"""
UNIT_A = '#include "shared.cuh"\n__global__ void a(float *o) { o[threadIdx.x] = half_sum(o[threadIdx.x]); }\n'
UNIT_B = '#include "shared.cuh"\n__global__ void b(float *o) { o[threadIdx.x] = 2 * half_sum(o[threadIdx.x]); }\n'


def nvcc_compiles(path):
    nvcc = shutil.which("nvcc")
    if not nvcc:
        return True
    p = subprocess.run([nvcc, "-arch=sm_90", "-c", "-o", os.devnull, path],
                       capture_output=True, text=True, timeout=300)
    return p.returncode == 0


def shared_header(tool, tmp):
    """Two units including one header with findings: reported once in every
    format, fixed once (--fix, -p build --fix, --export-fixes)."""
    def project(name):
        d = f"{tmp}/{name}"
        write(f"{d}/shared.cuh", HEADER)
        write(f"{d}/a.cu", UNIT_A)
        write(f"{d}/b.cu", UNIT_B)
        write(f"{d}/.clang-tidy", "HeaderFilterRegex: '.*'\n")
        return d
    d = project("report")
    rc, out, err = run(tool, ["a.cu", "b.cu"], d)
    warnings = [l for l in out.splitlines() if ": warning: " in l]
    check(rc == 1 and len(warnings) == 2, f"text: each header finding once ({warnings})")
    rc, out, err = run(tool, ["--format=json", "a.cu", "b.cu"], d)
    check(len(json.loads(out)) == 2, "json: each header finding once")
    rc, out, err = run(tool, ["--format=sarif", "a.cu", "b.cu"], d)
    check(len(json.loads(out)["runs"][0]["results"]) == 2, "sarif: each header finding once")
    rc, out, err = run(tool, ["--export-fixes=fixes.yaml", "a.cu", "b.cu"], d)
    yaml = open(f"{d}/fixes.yaml").read()
    check(yaml.count("DiagnosticName:") == 2, "export-fixes: each header finding once")
    check(yaml.count("__ballot_sync") == 1, "export-fixes: the shared declaration once")
    apply = shutil.which("clang-apply-replacements-22")
    if apply:
        subprocess.run([apply, d], capture_output=True, timeout=300)
        fixed = open(f"{d}/shared.cuh").read()
        check(fixed.count("__ballot_sync") == 1 and nvcc_compiles(f"{d}/a.cu"),
              f"clang-apply-replacements applies the exported fixes once:\n{fixed}")

    d = project("fix")
    rc, out, err = run(tool, ["--fix", "a.cu", "b.cu"], d)
    fixed = open(f"{d}/shared.cuh").read()
    check(fixed.count("__ballot_sync") == 1, f"--fix: the header is fixed once:\n{fixed}")
    check(nvcc_compiles(f"{d}/a.cu") and nvcc_compiles(f"{d}/b.cu"),
          "--fix: both units still compile")

    d = project("db")
    write(f"{d}/build/compile_commands.json", json.dumps(
        [{"directory": d, "file": f"{d}/{u}",
          "command": f"/usr/local/cuda/bin/nvcc -arch=sm_90 -c {d}/{u} -o {u}.o"}
         for u in ("a.cu", "b.cu")]))
    rc, out, err = run(tool, ["-p", "build", "--fix", "-j", "2"], d)
    fixed = open(f"{d}/shared.cuh").read()
    check(fixed.count("__ballot_sync") == 1, f"-p build --fix: the header is fixed once:\n{fixed}")


def write_safety(tool, tmp):
    """--fix and every report keep the file's identity and never leave a
    half-written file; write failures are one line and exit 2."""
    def fixed_ok(path):
        return "warp_mask" in open(path).read()

    write(f"{tmp}/m600.cu", BUGGY)
    os.chmod(f"{tmp}/m600.cu", 0o600)
    write(f"{tmp}/m755.cu", BUGGY)
    os.chmod(f"{tmp}/m755.cu", 0o755)
    run(tool, ["--fix", "m600.cu", "m755.cu"], tmp)
    check(fixed_ok(f"{tmp}/m600.cu") and os.stat(f"{tmp}/m600.cu").st_mode & 0o7777 == 0o600,
          "mode 0600 kept")
    check(fixed_ok(f"{tmp}/m755.cu") and os.stat(f"{tmp}/m755.cu").st_mode & 0o7777 == 0o755,
          "mode 0755 kept")
    if os.geteuid() == 0:
        write(f"{tmp}/owned.cu", BUGGY)
        os.chown(f"{tmp}/owned.cu", 65534, 65534)
        run(tool, ["--fix", "owned.cu"], tmp)
        st = os.stat(f"{tmp}/owned.cu")
        check(fixed_ok(f"{tmp}/owned.cu") and (st.st_uid, st.st_gid) == (65534, 65534),
              "owner and group kept")

    write(f"{tmp}/target.cu", BUGGY)
    os.symlink("target.cu", f"{tmp}/link.cu")
    run(tool, ["--fix", "link.cu"], tmp)
    check(os.path.islink(f"{tmp}/link.cu") and os.readlink(f"{tmp}/link.cu") == "target.cu",
          "a symlink stays a symlink")
    check(fixed_ok(f"{tmp}/target.cu"), "the symlink's target is fixed")

    write(f"{tmp}/hard.cu", BUGGY)
    os.link(f"{tmp}/hard.cu", f"{tmp}/hard2.cu")
    ino = os.stat(f"{tmp}/hard.cu").st_ino
    run(tool, ["--fix", "hard.cu"], tmp)
    check(os.stat(f"{tmp}/hard.cu").st_ino == ino and os.stat(f"{tmp}/hard2.cu").st_ino == ino
          and fixed_ok(f"{tmp}/hard2.cu"),
          "a hard-linked file is rewritten in place: every name sees the fix")

    write(f"{tmp}/ro.cu", BUGGY)
    os.chmod(f"{tmp}/ro.cu", 0o444)
    expect_error(tool, ["--fix", "ro.cu"], tmp, "ro.cu: the file is read-only",
                 "read-only target", stdout_ok=True)
    check(open(f"{tmp}/ro.cu").read() == BUGGY, "a read-only file is not rewritten")

    leftovers = [n for n in os.listdir(tmp) if ".warp-lint-" in n]
    check(not leftovers, f"no temporary files left behind ({leftovers})")

    write(f"{tmp}/clean.cu", CLEAN)
    write(f"{tmp}/bug.cu", BUGGY)
    for fmt, files in (("sarif", ["clean.cu"]), ("json", ["clean.cu"]),
                       ("text", ["bug.cu"])):
        with open("/dev/full", "w") as full:
            expect_error(tool, [f"--format={fmt}"] + files, tmp,
                         "cannot write the report to stdout: No space left",
                         f"{fmt} to /dev/full", stdout=full)
    expect_error(tool, ["--format=sarif", "--output=/dev/full", "clean.cu"], tmp,
                 "cannot write /dev/full: No space left", "--output=/dev/full")
    expect_error(tool, ["--export-fixes=/dev/full", "bug.cu"], tmp,
                 "cannot write /dev/full: No space left", "--export-fixes=/dev/full",
                 stdout_ok=True)
    p = subprocess.run([tool, "--format=json", "clean.cu"], cwd=tmp,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                       timeout=300, preexec_fn=lambda: os.close(1))
    lines = p.stderr.strip().splitlines()
    check(p.returncode == 2 and len(lines) == 1 and "stdout" in lines[0]
          and "LLVM ERROR" not in p.stderr,
          f"closed stdout: one line, exit 2 ({p.returncode}, {p.stderr!r})")

    rc, out, err = run(tool, ["--format=sarif", "--output=report.sarif", "bug.cu"], tmp)
    check(rc == 1 and out == "" and json.load(open(f"{tmp}/report.sarif"))["runs"],
          "--output writes the report into the file")
    os.chmod(f"{tmp}/report.sarif", 0o640)
    run(tool, ["--output=report.sarif", "clean.cu"], tmp)
    check(os.stat(f"{tmp}/report.sarif").st_mode & 0o7777 == 0o640
          and open(f"{tmp}/report.sarif").read() == "",
          "--output replaces the report, keeping its mode")

    # Two --fix runs on one file at once take turns (flock): 20 trials.
    write(f"{tmp}/ref.cu", LIGHT_BUGGY)
    run(tool, ["--fix", "ref.cu"], tmp)
    expected = open(f"{tmp}/ref.cu").read()
    bad = 0
    for trial in range(20):
        write(f"{tmp}/race.cu", LIGHT_BUGGY)
        procs = [subprocess.Popen([tool, "--fix", "--quiet", "race.cu"], cwd=tmp,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                 for _ in range(2)]
        codes = [p.wait(timeout=300) for p in procs]
        got = open(f"{tmp}/race.cu").read()
        if got != expected or any(c not in (0, 1) for c in codes):
            bad += 1
            print(f"trial {trial}: exit {codes}\n{got}")
    check(bad == 0, f"concurrent --fix runs never corrupt the file ({bad} of 20 bad)")


def non_regular(tool, tmp):
    """Inputs that are not regular files are refused at once."""
    write(f"{tmp}/clean.cu", CLEAN)
    os.mkfifo(f"{tmp}/fifo.cu")
    os.mkfifo(f"{tmp}/fifo.yaml")
    os.makedirs(f"{tmp}/fifodb")
    os.mkfifo(f"{tmp}/fifodb/compile_commands.json")
    cases = [(["/dev/zero"], "/dev/zero: it is a character device"),
             (["fifo.cu"], "fifo.cu: it is a FIFO"),
             (["--config-file=/dev/zero", "clean.cu"], "/dev/zero: it is a character device"),
             (["--config-file=fifo.yaml", "clean.cu"], "fifo.yaml: it is a FIFO"),
             (["-p", "fifodb"], "compile_commands.json: it is a FIFO")]
    for args, needle in cases:
        start = time.monotonic()
        try:
            expect_error(tool, args, tmp, needle, " ".join(args), timeout=20)
        except subprocess.TimeoutExpired:
            check(False, f"{' '.join(args)}: refused within the time limit")
            continue
        check(time.monotonic() - start < 20, f"{' '.join(args)}: quick")


HOST_ERROR = """#include <algorithm>
__global__ void k(float *v) {
  float x = v[threadIdx.x];
  if (threadIdx.x < 16) x = __shfl_sync(0xffffffff, x, 0);
  v[threadIdx.x] = x;
}
// nvcc accepts this host call; clang's device pass does not.
int host_only(int a, unsigned b) { return min(a, b); }
"""


def compile_errors(tool, tmp):
    """A unit with a compile error in host code still gets its warp findings,
    and the error is reported, in every format and by both front ends."""
    write(f"{tmp}/host.cu", HOST_ERROR)
    write(f"{tmp}/bug.cu", LIGHT_BUGGY)
    rc, out, err = run(tool, ["host.cu", "bug.cu"], tmp)
    check(rc == 2, f"text: exit 2 with a compile error ({rc})")
    check("host.cu:4:29: warning: full warp mask" in out,
          f"text: the device finding of the failing unit ({out[:400]!r})")
    check("host.cu:8:43: error: no matching function for call to 'min' "
          "[clang-diagnostic-error]" in out, "text: the compile error")
    check("bug.cu:" in out, "text: the other unit's finding")
    lines = err.strip().splitlines()
    check(len(lines) == 1 and "host.cu does not compile" in lines[0],
          f"stderr: one line for the failing unit ({err!r})")
    rc, out, err = run(tool, ["--format=json", "host.cu"], tmp)
    checks = [(f["check"], f["line"], f["level"]) for f in json.loads(out)]
    check(rc == 2 and ("warp-divergent-full-mask", 4, "error") in checks
          and ("clang-diagnostic-error", 8, "error") in checks,
          f"json: the finding and the error ({checks})")
    rc, out, err = run(tool, ["--format=sarif", "--sarif-root", tmp, "host.cu", "bug.cu"], tmp)
    sarif_run = json.loads(out)["runs"][0]
    inv = sarif_run["invocations"][0]
    notes = inv.get("toolExecutionNotifications", [])
    check(rc == 2 and inv["executionSuccessful"] is False, "sarif: executionSuccessful false")
    check(len(notes) == 1 and "min" in notes[0]["message"]["text"]
          and "host.cu" in notes[0]["message"]["text"]
          and notes[0]["locations"][0]["physicalLocation"]["region"]["startLine"] == 8,
          f"sarif: one notification for the failing unit, with why and where ({notes})")
    results = [(r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"])
               for r in sarif_run["results"]]
    check(("warp-divergent-full-mask", "host.cu") in results
          and ("warp-divergent-full-mask", "bug.cu") in results
          and not any(r[0].startswith("clang-") for r in results),
          f"sarif: findings of both units, compile errors not as results ({results})")
    rc, out, err = run(tool, ["--format=sarif", "bug.cu"], tmp)
    check(json.loads(out)["runs"][0]["invocations"] == [{"executionSuccessful": True}],
          "sarif: a clean run is a successful invocation")

    plugin = os.path.abspath(os.environ.get("WARP_LINT_PLUGIN", "") or "none")
    clang_tidy = shutil.which("clang-tidy-22")
    if plugin and os.path.exists(plugin) and clang_tidy:
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
            os.path.dirname(os.path.abspath(__file__)))), "test-inputs"))
        import run_test
        cuda = os.environ.get("WARP_LINT_CUDA_PATH") or "/usr/local/cuda"
        p = subprocess.run([clang_tidy, "--load=" + plugin, "--checks=-*,warp-*",
                            "--export-fixes=plugin.yaml", "host.cu", "--"]
                           + run_test.default_cuda_args(cuda, "sm_90"),
                           cwd=tmp, capture_output=True, text=True, timeout=300)
        check("host.cu:4:29: warning: full warp mask" in p.stdout
              and "host.cu:8:43: error: no matching function for call to 'min' "
                  "[clang-diagnostic-error]" in p.stdout,
              f"plugin: the finding and the error ({p.stdout[:600]!r})")
        yaml = open(f"{tmp}/plugin.yaml").read()
        check("DiagnosticName:  warp-divergent-full-mask" in yaml
              and "DiagnosticName:  clang-diagnostic-error" in yaml,
              "plugin: the finding and the error in the exported YAML")


CRASH = "#pragma clang __debug crash\n__global__ void k() {}\n"
FATAL = "#pragma clang __debug llvm_fatal_error\n__global__ void k() {}\n"


def crash_recovery(tool, tmp):
    """An internal error in one unit (here clang's own crash pragmas, a
    signal and an LLVM fatal error) is that unit's one-line error; the other
    units are still analysed and reported."""
    write(f"{tmp}/a.cu", LIGHT_BUGGY)
    write(f"{tmp}/crash.cu", CRASH)
    write(f"{tmp}/fatal.cu", FATAL)
    write(f"{tmp}/b.cu", LIGHT_BUGGY)
    for jobs in ("1", "3"):
        for fmt in ("text", "sarif"):
            rc, out, err = run(tool, [f"--format={fmt}", "-j", jobs, "a.cu",
                                      "crash.cu", "fatal.cu", "b.cu"], tmp)
            what = f"-j{jobs} {fmt}"
            lines = err.strip().splitlines()
            check(rc == 2, f"{what}: exit 2 ({rc})")
            check(len(lines) == 2 and "crash.cu: internal error: crashed" in lines[0]
                  and "fatal.cu: internal error: #pragma clang __debug llvm_fatal_error"
                  in lines[1], f"{what}: one line per failed unit ({err!r})")
            check("Stack dump" not in err and "LLVM ERROR" not in err
                  and "PLEASE" not in err, f"{what}: no crash report")
            if fmt == "text":
                check("a.cu:" in out and "b.cu:" in out, f"{what}: the other units' findings")
            else:
                r = json.loads(out)["runs"][0]
                check(len(r["results"]) == 2
                      and r["invocations"][0]["executionSuccessful"] is False
                      and len(r["invocations"][0]["toolExecutionNotifications"]) == 2,
                      f"{what}: findings of the other units, one notification per crash")


def export_compile_commands(tool, tmp):
    """The nvcc database of a CMake project, exported in clang's terms, works
    in run-clang-tidy-22 with the plugin: same findings as warp-lint -p."""
    cmake, nvcc = shutil.which("cmake"), shutil.which("nvcc")
    runner = shutil.which("run-clang-tidy-22")
    plugin = os.path.abspath(os.environ.get("WARP_LINT_PLUGIN", "") or "none")
    if not (cmake and nvcc and runner and plugin and os.path.exists(plugin)):
        print("SKIP: needs cmake, nvcc, run-clang-tidy-22 and WARP_LINT_PLUGIN")
        return SKIP
    src = f"{tmp}/src"
    write(f"{src}/CMakeLists.txt", """cmake_minimum_required(VERSION 3.20)
project(x LANGUAGES CXX CUDA)
add_library(kernels STATIC kernels.cu other.cu)
target_include_directories(kernels PRIVATE inc)
target_compile_definitions(kernels PRIVATE LANES=32)
target_compile_options(kernels PRIVATE
  $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr --extended-lambda -Xcompiler=-Wall,-fPIC -lineinfo>)
set_target_properties(kernels PROPERTIES CUDA_ARCHITECTURES "80;90")
""")
    write(f"{src}/inc/lanes.cuh", "#define HALF_WARP (LANES / 2)\n")
    write(f"{src}/kernels.cu", """#include "lanes.cuh"
__global__ void reduce(int *out) {
  int v = threadIdx.x;
  if (threadIdx.x % 32 < HALF_WARP) v += __shfl_down_sync(0xffffffff, v, 8);
  out[threadIdx.x] = v;
}
#if __CUDACC_VER_MAJOR__ >= 12
__global__ void only_new_toolkits(int *out) {
  int v = threadIdx.x;
  if (threadIdx.x % 32 < 8) v = __shfl_sync(0xffffffff, v, 0);
  out[threadIdx.x] = v;
}
#endif
""")
    write(f"{src}/other.cu", '#include "lanes.cuh"\n' + LIGHT_BUGGY)
    build = f"{tmp}/build"
    p = subprocess.run([cmake, "-S", src, "-B", build, "-G", "Ninja" if shutil.which("ninja") else "Unix Makefiles",
                        "-DCMAKE_CUDA_COMPILER=nvcc", "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"],
                       capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        print("SKIP: cannot configure a CUDA project here:", p.stderr[-2000:])
        return SKIP
    rc, out, err = run(tool, ["-p", build, "--export-compile-commands", f"{tmp}/clang"], tmp)
    check(rc == 0 and out == "" and err == "", f"export: exit 0, silent ({rc}, {err!r})")
    db = json.load(open(f"{tmp}/clang/compile_commands.json"))
    check(len(db) == 2 and all(e["arguments"][0] == "clang++" for e in db),
          f"export: two clang entries ({db})")
    check(all("--cuda-gpu-arch=sm_90" in e["arguments"]
              and "-D__CUDACC_VER_MAJOR__=" + str(cuda_major()) in e["arguments"]
              for e in db) if cuda_major() else True,
          "export: the architecture and nvcc's version macros")
    expect_error(tool, ["-p", build, "--export-compile-commands", build], tmp,
                 "would overwrite the database it reads", "export over its own input")
    expect_error(tool, ["--export-compile-commands", f"{tmp}/x", "a.cu"], tmp,
                 "needs -p", "export without -p")

    diag = re.compile(r"^(/\S+?):(\d+):(\d+): (warning|error): .*\[([\w,.-]+)\]$")

    def findings(text):
        return sorted({m.groups()[:3] + (m.group(5),) for m in map(diag.match, text.splitlines()) if m})
    rc, out, err = run(tool, ["-p", build], tmp)
    want = findings(out)
    check(rc == 1 and len(want) == 3, f"warp-lint -p: three findings ({want}, {err!r})")
    p = subprocess.run([runner, "-clang-tidy-binary", shutil.which("clang-tidy-22") or "clang-tidy-22",
                        "-load", plugin, "-checks=-*,warp-*", "-quiet", "-p", f"{tmp}/clang"],
                       cwd=tmp, capture_output=True, text=True, timeout=600)
    got = findings(p.stdout)
    check(got == want, f"run-clang-tidy-22 with the plugin: the same findings ({got} vs {want})\n{p.stdout[-2000:]}{p.stderr[-2000:]}")
    check("unknown argument" not in p.stdout + p.stderr
          and "clang-diagnostic-error" not in p.stdout,
          f"run-clang-tidy-22: no unknown argument, no compile error ({p.stdout[-1500:]})")
    p = subprocess.run([shutil.which("clang-tidy-22") or "clang-tidy-22", "--load=" + plugin,
                        "--checks=-*,warp-*", "-p", build, f"{src}/kernels.cu"],
                       cwd=tmp, capture_output=True, text=True, timeout=600)
    check("unknown argument" in p.stdout + p.stderr or p.returncode != 0,
          "the nvcc database itself still trips clang-tidy (what the export is for)")


LAUNCHED_HEADER = r"""__device__ inline float warp_total(float v) {
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_xor_sync(0xffffffff, v, o);
  return v;
}
__global__ void rows_aligned(float *p) {
  if (threadIdx.y > 0) return;
  p[threadIdx.x] = warp_total(p[threadIdx.x]);
}
__global__ void rows_half_wide(float *p) {
  if (threadIdx.y > 0) return;
  p[threadIdx.x] = warp_total(p[threadIdx.x]);
}
"""


def cross_unit_launches(tool, tmp):
    """A kernel defined in a header and launched only in another unit gets
    that unit's launches; a later run over one file keeps them."""
    d = f"{tmp}/proj"
    write(f"{d}/kernels.cuh", LAUNCHED_HEADER)
    write(f"{d}/defines.cu", '#include "kernels.cuh"\n')
    write(f"{d}/launches.cu", '#include "kernels.cuh"\n'
          "void go(float *p, int n) {\n"
          "  rows_aligned<<<n, dim3(32, 4)>>>(p);\n"
          "  rows_half_wide<<<n, dim3(16, 4)>>>(p);\n}\n")
    write(f"{d}/.clang-tidy", "HeaderFilterRegex: '.*'\n")
    write(f"{d}/build/compile_commands.json", json.dumps(
        [{"directory": d, "file": f"{d}/{u}",
          "command": f"/usr/local/cuda/bin/nvcc -arch=sm_90 -c {d}/{u} -o {u}.o"}
         for u in ("defines.cu", "launches.cu")]))
    def lines_of(out):
        return sorted(int(m.group(1)) for m in
                      re.finditer(r"kernels\.cuh:(\d+):\d+: warning:", out))
    # The unit that only defines the kernels comes first and sees no launch.
    rc, out, err = run(tool, ["-p", "build", "defines.cu", "launches.cu"], d)
    check(rc == 1 and lines_of(out) == [12],
          f"only the half-wide launch is reported ({lines_of(out)}):\n{out}{err}")
    kept = json.load(open(f"{d}/build/.warp-lint/launches.json"))
    check(any(u.endswith("launches.cu") for u in kept["units"]),
          f"the launches are kept in the build dir: {kept}")
    rc, out, err = run(tool, ["-p", "build", "defines.cu"], d)
    check(rc == 1 and lines_of(out) == [12],
          f"a later run over one unit uses the kept launches ({lines_of(out)}):\n{out}")
    rc, out, err = run(tool, ["defines.cu", "--", "-I."], d)
    check(rc == 1 and lines_of(out) == [8, 12],
          f"without a build dir nothing is known ({lines_of(out)})")


def cuda_major():
    cuda = os.environ.get("WARP_LINT_CUDA_PATH") or "/usr/local/cuda"
    try:
        m = re.search(r"#define\s+CUDA_VERSION\s+(\d+)", open(f"{cuda}/include/cuda.h").read())
    except OSError:
        return None
    return int(m.group(1)) // 1000 if m else None


GROUPS = {"exit-codes": exit_codes, "determinism": determinism,
          "cmake-project": cmake_project, "fix": fix, "sarif-schema": sarif_schema,
          "shared-header": shared_header, "write-safety": write_safety,
          "non-regular": non_regular, "compile-errors": compile_errors,
          "crash-recovery": crash_recovery,
          "export-compile-commands": export_compile_commands,
          "cross-unit-launches": cross_unit_launches}


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
