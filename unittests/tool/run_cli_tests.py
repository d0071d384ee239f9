#!/usr/bin/env python3
"""End-to-end tests of the warp-lint binary (registered with CTest).

usage: run_cli_tests.py <warp-lint> <group>

Groups: the keys of GROUPS at the end (some need the plugin from
$WARP_LINT_PLUGIN, cmake and nvcc, or the SARIF validator).
Exit status 0 = pass, 1 = fail, 77 = skipped (a prerequisite is missing).
"""
import difflib
import json
import os
import re
import shutil
import signal
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
  if (threadIdx.x % 32 < 16) v += __shfl_down_sync(0xffffffff, v, 8, 16);
  __syncthreads(); out[threadIdx.x] = v;
}
void launch(int *out) { kernel<<<1, 32>>>(out); }
"""

CLEAN = r"""__global__ void kernel(int *out) {
  int v = threadIdx.x;
  v += __shfl_down_sync(0xffffffff, v, 8, 16);
  __syncthreads(); out[threadIdx.x] = v;
}
void launch(int *out) { kernel<<<1, 32>>>(out); }
"""

# Without the heavy CUB include: the determinism group runs many times.
LIGHT_BUGGY = BUGGY.split("namespace cg = cooperative_groups;\n")[1]

SUPPRESSED = BUGGY.replace(
    "v += __shfl_down_sync(0xffffffff, v, 8, 16);",
    "v += __shfl_down_sync(0xffffffff, v, 8, 16); // NOLINT(warp-divergent-full-mask)")


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
    # Without a build, a file is taken to be built by nvcc: its version
    # macros pick the branch the real build compiles; `-U` after -- wins.
    write(f"{tmp}/versioned.cu", "#if __CUDACC_VER_MAJOR__ >= 9\n" + LIGHT_BUGGY + "#endif\n")
    write(f"{tmp}/nv_atomic.cu", "#if __CUDACC_VER_MAJOR__ >= 12\n"
          "__global__ void k(int *p, float *sum) {\n"
          "  p[1] = __nv_atomic_load_n(p, __NV_ATOMIC_RELAXED);\n"
          "  __nv_atomic_fetch_add(sum, 1.0f, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);\n"
          "}\n#endif\n")
    rc, out, err = run(tool, ["nv_atomic.cu"], tmp)
    check(rc == 1 and "error" not in out + err and
          "every lane performs '__nv_atomic_fetch_add'" in out,
          f"nvcc's __nv_atomic builtins are declared for clang, and are atomics ({rc}, {out!r}, {err!r})")
    if cuda_major():
        rc, out, err = run(tool, ["versioned.cu"], tmp)
        check(rc == 1 and "[warp-divergent-full-mask]" in out,
              f"no database: nvcc's version macros defined ({rc}, {out!r}, {err!r})")
        rc, out, err = run(tool, ["versioned.cu", "--", "-U__CUDACC_VER_MAJOR__"], tmp)
        check(rc == 0 and out == "", f"-U after -- wins over the version macros ({rc}, {out!r})")
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

    expect_error(tool, ["missing.cu"], tmp, "skipped missing.cu: no such file", "missing file")
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
            rc, out, err = run(tool, [f"--format={fmt}", "--stable-order", "-j", jobs] + files,
                               tmp)
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
  if (threadIdx.x % 32 < 16) v += __shfl_down_sync(0xffffffff, v, 8, 16);
  __syncthreads(); out[threadIdx.x] = v + HALF_WARP;
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
            # SARIF2005 asks for the tool's informationUri, which a build
            # without -DWARP_LINT_HOME_URL leaves out on purpose (no link to
            # an address that may not exist).
            errors = [r for r in results if r.get("level", "warning") in ("error", "warning")
                      and r.get("ruleId") != "SARIF2005"]
            check(not errors, f"{files[0]}: no validation errors ({errors[:3]})")
        # GitHub code scanning's own rules (GH1001..GH2012): fullDescription,
        # help, relative URIs, ...
        gh = f"{log}.github.sarif"
        p = subprocess.run([validator, "validate", log, "--rule-kind", "Gh",
                            "--output", gh, "--log", "ForceOverwrite"],
                           capture_output=True, text=True, timeout=300)
        check(p.returncode == 0 and os.path.exists(gh),
              f"{files[0]}: GitHub rule set ran ({p.stdout[-2000:]}{p.stderr[-1000:]})")
        if os.path.exists(gh):
            with open(gh) as f:
                gh_results = json.load(f)["runs"][0].get("results", [])
            ran = [r for r in gh_results if r.get("ruleId", "").startswith("GH")]
            errors = [r for r in gh_results
                      if r.get("level", "warning") in ("error", "warning")]
            check(not errors, f"{files[0]}: 0 GitHub rule errors ({errors[:3]})")
            print(f"{files[0]}: GitHub rule set: {len(errors)} errors, "
                  f"{len(ran)} GH results")
    # The rule set really runs: a rule without fullDescription is GH2012.
    doc = json.load(open(f"{tmp}/out-bug.cu.sarif"))
    for rule in doc["runs"][0]["tool"]["driver"]["rules"]:
        rule.pop("fullDescription", None)
    write(f"{tmp}/stripped.sarif", json.dumps(doc))
    subprocess.run([validator, "validate", f"{tmp}/stripped.sarif", "--rule-kind", "Gh",
                    "--output", f"{tmp}/stripped.out.sarif", "--log", "ForceOverwrite"],
                   capture_output=True, text=True, timeout=300)
    with open(f"{tmp}/stripped.out.sarif") as f:
        ids = [r.get("ruleId") for r in json.load(f)["runs"][0].get("results", [])]
    check("GH2012" in ids, f"the GitHub rule set catches a missing fullDescription ({ids})")



HEADER = """__device__ inline float half_sum(float v) {
  unsigned lane = threadIdx.x % 32;
  if (lane < 16) {
    v += __shfl_xor_sync(0xffffffff, v, 4);
    v += __shfl_xor_sync(0xffffffff, v, 2);
  }
  __syncthreads(); return v;
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
    """Two units including one header with a finding (two collectives under
    one branch: one finding per cause): reported once in every
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
    check(rc == 1 and len(warnings) == 1, f"text: each header finding once ({warnings})")
    rc, out, err = run(tool, ["--format=json", "a.cu", "b.cu"], d)
    check(len(json.loads(out)) == 1, "json: each header finding once")
    rc, out, err = run(tool, ["--format=sarif", "a.cu", "b.cu"], d)
    check(len(json.loads(out)["runs"][0]["results"]) == 1, "sarif: each header finding once")
    rc, out, err = run(tool, ["--export-fixes=fixes.yaml", "a.cu", "b.cu"], d)
    yaml = open(f"{d}/fixes.yaml").read()
    check(yaml.count("DiagnosticName:") == 1, "export-fixes: each header finding once")
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
    rc, out, err = run(tool, ["--fix", "ro.cu"], tmp)
    errors = error_lines(err)
    check(rc == 2 and len(errors) == 1 and "ro.cu: the file is read-only" in errors[0] and
          "no file written" in err and "LLVM ERROR" not in err,
          f"read-only target: exit 2, one error line, nothing written ({rc}, {err!r})")
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
    check(rc == 1 and json.load(open(f"{tmp}/report.sarif"))["runs"] and
          "bug.cu:6:" in out and "{" not in out,
          "--output writes the report into the file (stdout: the findings as text)")
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
  __syncthreads(); v[threadIdx.x] = x;
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
    lines = error_lines(err)  # the progress and summary lines aside
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
            lines = error_lines(err)  # the progress and summary lines aside
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
  if (threadIdx.x % 32 < HALF_WARP) v += __shfl_down_sync(0xffffffff, v, 8, 16);
  __syncthreads(); out[threadIdx.x] = v;
}
#if __CUDACC_VER_MAJOR__ >= 12
__global__ void only_new_toolkits(int *out) {
  int v = threadIdx.x;
  if (threadIdx.x % 32 < 8) v = __shfl_sync(0xffffffff, v, 0);
  __syncthreads(); out[threadIdx.x] = v;
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
  if (threadIdx.y == 0)
    p[threadIdx.x] = warp_total(p[threadIdx.x]);
  __syncthreads(); }
__global__ void rows_half_wide(float *p) {
  if (threadIdx.y == 0)
    p[threadIdx.x] = warp_total(p[threadIdx.x]);
  __syncthreads(); }
template <typename T> __global__ void rows_template(T *p) {
  if (threadIdx.y == 0)
    p[threadIdx.x] = warp_total(p[threadIdx.x]);
  __syncthreads(); }
template __global__ void rows_template<float>(float *);
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
          "  rows_half_wide<<<n, dim3(16, 4)>>>(p);\n"
          "  rows_template<<<n, dim3(64, 2)>>>(p);\n}\n")
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
    check(rc == 1 and lines_of(out) == [8, 12, 16],
          f"without a build dir nothing is known ({lines_of(out)})")


# A line with non-ASCII text before the finding: é is 2 bytes and 1 UTF-16
# unit, the clef (U+1D11E) 4 bytes and 2 units.
UNICODE = BUGGY.replace(
    "  if (threadIdx.x % 32 < 16) v +=",
    "  /* é𝄞 */ if (threadIdx.x % 32 < 16) v +=")

TWICE = r"""__global__ void twice(int *out) {
  int v = threadIdx.x;
  if (threadIdx.x % 32 < 16)
    v += __shfl_down_sync(0xffffffff, v, 8, 16);
  if (threadIdx.x % 32 < 16)
    v += __shfl_down_sync(0xffffffff, v, 8, 16);
  __syncthreads(); out[threadIdx.x] = v;
}
void other(int *p) { *p = 1; }
"""


def sarif_results(tool, args, cwd):
    rc, out, err = run(tool, ["--format=sarif", "--sarif-root", cwd] + args, cwd)
    check(rc in (0, 1), f"sarif run {args}: exit 0/1 (got {rc}, {err!r})")
    try:
        return json.loads(out)
    except ValueError:
        check(False, f"sarif run {args}: JSON ({out[:200]!r})")
        return {"runs": [{"results": [], "tool": {"driver": {"rules": []}}}]}


def prints_of(doc):
    return [r.get("partialFingerprints", {}).get("warpLintHash/v1")
            for r in doc["runs"][0]["results"]]


def sarif_github(tool, tmp):
    write(f"{tmp}/bug.cu", BUGGY)
    write(f"{tmp}/uni.cu", UNICODE)
    write(f"{tmp}/twice.cu", TWICE)
    rc, text, err = run(tool, ["uni.cu"], tmp)
    m = re.search(r"uni\.cu:6:(\d+): warning", text)
    check(m is not None, f"text finding on the non-ASCII line ({text[:300]!r})")
    doc = sarif_results(tool, ["uni.cu"], tmp)
    sarif_run = doc["runs"][0]
    check(sarif_run.get("columnKind") == "utf16CodeUnits", "columnKind utf16CodeUnits")
    res = sarif_run["results"][0]
    col = res["locations"][0]["physicalLocation"]["region"]["startColumn"]
    if m:
        # 'é' 2 bytes -> 1 unit, the clef 4 bytes -> 2 units: 3 fewer.
        check(col == int(m.group(1)) - 3,
              f"SARIF column in UTF-16 units ({col} vs byte column {m.group(1)})")

    # codeFlows: the notes in order, then the finding.
    doc = sarif_results(tool, ["bug.cu"], tmp)
    res = doc["runs"][0]["results"][0]
    related = res.get("relatedLocations", [])
    flows = res.get("codeFlows", [])
    check(related and len(flows) == 1 and len(flows[0]["threadFlows"]) == 1,
          f"one codeFlow with one threadFlow ({flows})")
    if flows and related:
        steps = [s["location"] for s in flows[0]["threadFlows"][0]["locations"]]
        check([s["physicalLocation"] for s in steps[:-1]]
              == [r["physicalLocation"] for r in related],
              "thread flow: the related locations in order")
        check(steps[-1]["physicalLocation"] == res["locations"][0]["physicalLocation"],
              "thread flow ends at the finding")

    # Rules: descriptions, help, helpUri under the default and a given base.
    rules = doc["runs"][0]["tool"]["driver"]["rules"]
    for r in rules:
        check(r.get("fullDescription", {}).get("text") and r.get("help", {}).get("text")
              and r.get("help", {}).get("markdown"),
              f"rule {r['id']}: fullDescription and help text/markdown")
        # No base known (no --doc-base-url, none built in): no helpUri, so
        # that no link points at an address that may not exist.
        check("helpUri" not in r,
              f"rule {r['id']}: no default helpUri ({r.get('helpUri')})")
    doc = sarif_results(tool, ["--doc-base-url=https://docs.example.org/warp", "bug.cu"], tmp)
    uris = [r["helpUri"] for r in doc["runs"][0]["tool"]["driver"]["rules"]]
    check("https://docs.example.org/warp/warp-divergent-full-mask.md" in uris
          and all(u.startswith("https://docs.example.org/warp/") for u in uris),
          f"--doc-base-url sets every helpUri ({uris})")
    check(all("https://docs.example.org/warp/" in r["help"]["markdown"]
              for r in doc["runs"][0]["tool"]["driver"]["rules"]),
          "help markdown links the given base")

    # Fingerprints: stable under edits elsewhere, re-indentation; numbered
    # for identical lines.
    before = prints_of(sarif_results(tool, ["bug.cu", "twice.cu"], tmp))
    check(all(before) and len(set(before)) == len(before),
          f"every finding has a distinct fingerprint ({before})")
    twice = [p for p in before[1:]]
    check(len(twice) == 2 and twice[0].split(":")[0] == twice[1].split(":")[0]
          and {p.split(":")[1] for p in twice} == {"1", "2"},
          f"identical lines: same hash, occurrences 1 and 2 ({twice})")
    edited = BUGGY.replace("void launch(int *out) { kernel<<<1, 32>>>(out); }",
                           "// launch it\nvoid launch(int *out) {\n  kernel<<<2, 32>>>(out);\n}")
    edited = "// a comment added at the top\n\n" + edited.replace(
        "  int v = threadIdx.x;", "  int v = threadIdx.x * 1;")
    edited = edited.replace("  if (threadIdx.x % 32 < 16) v +=", "    if (threadIdx.x % 32 < 16)  v +=")
    write(f"{tmp}/bug.cu", edited)
    twice_edited = "#define UNUSED 1\n" + TWICE.replace("void other(int *p) { *p = 1; }",
                                                       "void other(int *p) { *p = 2; }")
    write(f"{tmp}/twice.cu", twice_edited)
    doc = sarif_results(tool, ["bug.cu", "twice.cu"], tmp)
    after = prints_of(doc)
    lines = [r["locations"][0]["physicalLocation"]["region"]["startLine"]
             for r in doc["runs"][0]["results"]]
    check(lines[:1] == [8], f"the finding moved down two lines ({lines})")
    check(after == before, f"fingerprints unchanged by unrelated edits ({before} -> {after})")
    # The finding's own line changed: a new fingerprint.
    write(f"{tmp}/bug.cu", BUGGY.replace("v, 8, 16);", "v, 4, 16);"))
    changed = prints_of(sarif_results(tool, ["bug.cu"], tmp))
    check(changed and changed[0] != before[0], "a changed finding line: new fingerprint")


def shard(tool, tmp):
    names = []
    for i in range(7):
        name = f"u{i}.cu"
        write(f"{tmp}/{name}", LIGHT_BUGGY.replace("kernel", f"kernel{i}")
              if i % 3 else CLEAN.replace("kernel", f"kernel{i}"))
        names.append(name)
    entries = [{"directory": tmp, "file": f"{tmp}/{n}",
                "arguments": ["nvcc", "-c", f"{tmp}/{n}"]} for n in reversed(names)]
    write(f"{tmp}/build/compile_commands.json", json.dumps(entries))

    def findings(out):
        return sorted(l for l in out.splitlines() if ": warning:" in l)

    rc, whole, err = run(tool, ["-p", "build"], tmp)
    check(rc == 1 and len(findings(whole)) == 4, f"whole run: 4 findings ({rc}, {err!r})")
    union, counts = [], []
    for n in (2, 3):
        got = []
        for i in range(1, n + 1):
            rc, out, err = run(tool, ["-p", "build", f"--shard={i}/{n}", "--format=json"], tmp)
            check(rc in (0, 1), f"shard {i}/{n}: exit 0/1 (got {rc}, {err!r})")
            files = sorted({f["file"] for f in json.loads(out)}) if out.strip() else []
            got.append(files)
            rc2, out2, _ = run(tool, ["-p", "build", f"--shard={i}/{n}"], tmp)
            union += findings(out2)
        flat = sorted(f for g in got for f in g)
        check(len(flat) == len(set(flat)), f"{n} shards: no unit in two shards ({got})")
        check(sorted(union) == findings(whole),
              f"{n} shards: the union of the findings is the whole run")
        union = []
        # Same split every time (in input order: by default units print as
        # they finish, which the scheduler decides).
        rc, again, _ = run(tool, ["-p", "build", f"--shard=1/{n}", "--stable-order"], tmp)
        rc, again2, _ = run(tool, ["-p", "build", f"--shard=1/{n}", "--stable-order"], tmp)
        check(again == again2, f"{n} shards: deterministic")
    # Every unit once across the shards (the units, not just the findings).
    for n in (3,):
        seen = []
        for i in range(1, n + 1):
            rc, out, err = run(tool, ["-p", "build", f"--shard={i}/{n}", "--format=sarif",
                                      "--sarif-root", tmp], tmp)
            seen.append(len(json.loads(out)["runs"][0]["results"]))
        check(sum(seen) == 4, f"3 shards: findings split {seen}")
    rc, out, err = run(tool, ["-p", "build", "--shard=9/9"], tmp)
    check(rc == 0 and out == "", f"an empty shard: exit 0 ({rc}, {err!r})")
    for bad in ("0/2", "3/2", "x", "1/0", "1/"):
        expect_error(tool, ["-p", "build", f"--shard={bad}"], tmp, "--shard", f"--shard={bad}")


def git(args, cwd):
    p = subprocess.run(["git"] + args, cwd=cwd, capture_output=True, text=True)
    check(p.returncode == 0, f"git {args}: {p.stderr}")
    return p.stdout


def init_repo(d):
    os.makedirs(d, exist_ok=True)
    git(["init", "-q"], d)
    git(["config", "user.email", "t@example.org"], d)
    git(["config", "user.name", "t"], d)


TWO_KERNELS = r"""__global__ void first(int *out) {
  int v = threadIdx.x;
  if (threadIdx.x % 32 < 16) v += __shfl_down_sync(0xffffffff, v, 8, 16);
  __syncthreads(); out[threadIdx.x] = v;
}
__global__ void second(int *out) {
  int v = threadIdx.x;
  if (threadIdx.x % 32 < 16)
    v += __shfl_down_sync(0xffffffff, v, 4);
  __syncthreads(); out[threadIdx.x] = v;
}
void launch(int *out) { first<<<1, 32>>>(out); second<<<1, 32>>>(out); }
"""


def finding_lines(out, name):
    return sorted(int(m) for m in re.findall(rf"{re.escape(name)}:(\d+):\d+: warning", out))


def diff_base(tool, tmp):
    if not shutil.which("git"):
        print("SKIP: diff-base needs git")
        return SKIP
    d = f"{tmp}/repo"
    init_repo(d)
    write(f"{d}/k.cu", TWO_KERNELS)
    write(f"{d}/other.cu", LIGHT_BUGGY)
    git(["add", "."], d)
    git(["commit", "-q", "-m", "base"], d)
    rc, out, err = run(tool, ["k.cu", "other.cu"], d)
    check(finding_lines(out, "k.cu") == [3, 9], f"both findings without a base ({out!r})")
    rc, out, err = run(tool, ["--diff-base=HEAD", "k.cu", "other.cu"], d)
    check(rc == 0 and out == "", f"nothing changed: nothing reported ({rc}, {out!r})")
    # Change the finding line of 'first': only it is reported.
    write(f"{d}/k.cu", TWO_KERNELS.replace("v, 8, 16);", "v, 2, 16);"))
    rc, out, err = run(tool, ["--diff-base=HEAD", "k.cu", "other.cu"], d)
    check(rc == 1 and finding_lines(out, "k.cu") == [3] and "other.cu" not in out,
          f"a changed line keeps its finding, unchanged ones go ({rc}, {out!r})")
    check("not changed since HEAD" in err, f"how many were dropped is said ({err!r})")
    # A note on a changed line counts: the branch of 'second' (line 8, where
    # the lanes diverge) changes, its collective (line 9) does not.
    write(f"{d}/k.cu", TWO_KERNELS.replace("  if (threadIdx.x % 32 < 16)\n",
                                           "  if (threadIdx.x % 32 < 8)\n"))
    rc, out, err = run(tool, ["--diff-base=HEAD", "k.cu"], d)
    check(rc == 1 and finding_lines(out, "k.cu") == [9],
          f"a finding whose note is on a changed line is kept ({rc}, {out!r})")
    # Committed on a branch: diff against the base commit.
    git(["checkout", "-q", "-b", "feature"], d)
    git(["commit", "-q", "-am", "change"], d)
    rc, out, err = run(tool, ["--diff-base=master" if "master" in git(["branch"], d)
                              else "--diff-base=main", "k.cu"], d)
    check(rc == 1 and finding_lines(out, "k.cu") == [9],
          f"against a branch: the committed change ({rc}, {out!r}, {err!r})")
    # Lines inserted above move the finding but do not change it.
    with open(f"{d}/k.cu") as f:
        committed = f.read()
    write(f"{d}/k.cu", "// one\n// two\n" + committed)
    git(["commit", "-q", "-am", "move"], d)
    rc, out, err = run(tool, ["--diff-base=HEAD~1", "--format=sarif", "k.cu"], d)
    check(rc == 0 and json.loads(out)["runs"][0]["results"] == [],
          f"moved, unchanged findings are not reported ({rc}, {err!r})")
    # From a subdirectory, with -p.
    write(f"{d}/sub/s.cu", LIGHT_BUGGY)
    write(f"{d}/build/compile_commands.json", json.dumps(
        [{"directory": f"{d}/sub", "file": "s.cu", "arguments": ["nvcc", "-c", "s.cu"]}]))
    git(["add", "sub/s.cu"], d)
    rc, out, err = run(tool, ["--diff-base=HEAD", "-p", "../build"], f"{d}/sub")
    check(rc == 1 and finding_lines(out, "s.cu") == [3],
          f"a file added since the base is all changed ({rc}, {out!r}, {err!r})")
    expect_error(tool, ["--diff-base=no-such-rev", "k.cu"], d, "--diff-base no-such-rev",
                 "unknown revision")
    os.makedirs(f"{tmp}/norepo", exist_ok=True)
    write(f"{tmp}/norepo/k.cu", LIGHT_BUGGY)
    expect_error(tool, ["--diff-base=HEAD", "k.cu"], f"{tmp}/norepo", "--diff-base",
                 "not a work tree")


def baseline(tool, tmp):
    write(f"{tmp}/k.cu", TWO_KERNELS)
    rc, out, err = run(tool, ["--format=sarif", "--output=base.sarif", "k.cu"], tmp)
    check(rc == 1, f"baseline written ({rc}, {err!r})")
    rc, out, err = run(tool, ["--baseline=base.sarif", "k.cu"], tmp)
    check(rc == 0 and out == "", f"every finding in the baseline: none reported ({rc}, {out!r})")
    check("recorded in the baseline" in err, f"says how many were suppressed ({err!r})")
    # Lines inserted above both kernels, and a new finding added after them.
    moved = ("#include <cstdint>\n// moved\n\n" + TWO_KERNELS).replace(
        "void launch", """__global__ void third(int *out) {
  int v = threadIdx.x;
  if (threadIdx.x % 32 < 8) v += __shfl_down_sync(0xffffffff, v, 1);
  __syncthreads(); out[threadIdx.x] = v;
}
void launch""")
    write(f"{tmp}/k.cu", moved)
    rc, out, err = run(tool, ["--baseline=base.sarif", "k.cu"], tmp)
    check(rc == 1 and finding_lines(out, "k.cu") == [17],
          f"only the new finding; the moved ones stay suppressed ({rc}, {out!r})")
    rc, out, err = run(tool, ["--baseline=base.sarif", "--format=sarif", "k.cu"], tmp)
    res = json.loads(out)["runs"][0]["results"]
    check(len(res) == 1 and res[0]["locations"][0]["physicalLocation"]["region"]["startLine"] == 17,
          "SARIF with a baseline: only the new finding")
    # A copy of a baselined line in the same function is a second occurrence:
    # new.
    write(f"{tmp}/k.cu", TWO_KERNELS.replace(
        "    v += __shfl_down_sync(0xffffffff, v, 4);\n",
        "    v += __shfl_down_sync(0xffffffff, v, 4);\n  if (threadIdx.x % 32 < 16)\n"
        "    v += __shfl_down_sync(0xffffffff, v, 4);\n"))
    rc, out, err = run(tool, ["--baseline=base.sarif", "k.cu"], tmp)
    check(rc == 1 and finding_lines(out, "k.cu") == [11],
          f"a second identical finding is new ({rc}, {out!r})")
    write(f"{tmp}/bad.sarif", "{not json")
    expect_error(tool, ["--baseline=bad.sarif", "k.cu"], tmp, "bad.sarif", "malformed baseline")
    expect_error(tool, ["--baseline=none.sarif", "k.cu"], tmp, "none.sarif", "missing baseline")
    write(f"{tmp}/foreign.sarif", json.dumps({"version": "2.1.0", "runs": [{"results": [
        {"ruleId": "x", "message": {"text": "m"}}]}]}))
    expect_error(tool, ["--baseline=foreign.sarif", "k.cu"], tmp, "fingerprints",
                 "baseline without warp-lint fingerprints")


def package(tool, tmp):
    """cpack builds the .deb; unpacked into a temporary root, its warp-lint,
    its plugin in clang-tidy-22 and a lint of the example work from there."""
    build = os.environ.get("WARP_LINT_BUILD_DIR", "")
    cpack = shutil.which("cpack")
    clang_tidy = os.environ.get("WARP_LINT_CLANG_TIDY") or shutil.which("clang-tidy-22")
    if not (build and cpack and shutil.which("dpkg-deb") and clang_tidy):
        print("SKIP: package needs WARP_LINT_BUILD_DIR, cpack, dpkg-deb and clang-tidy-22")
        return SKIP
    p = subprocess.run([cpack, "-G", "DEB", "--config", f"{build}/CPackConfig.cmake",
                        "-B", f"{tmp}/pkg"], capture_output=True, text=True, timeout=600)
    check(p.returncode == 0, f"cpack -G DEB ({p.stdout[-2000:]}{p.stderr[-2000:]})")
    version = subprocess.run([tool, "--version"], capture_output=True,
                             text=True).stdout.split()[1]
    debs = [f for f in os.listdir(f"{tmp}/pkg") if f.endswith(".deb")]
    arch = subprocess.run(["dpkg", "--print-architecture"], capture_output=True,
                          text=True).stdout.strip()
    check(debs == [f"warp-lint_{version}_{arch}.deb"], f"one warp-lint_<version>_<arch>.deb ({debs})")
    if not debs:
        return
    deb = f"{tmp}/pkg/{debs[0]}"
    fields = {f: subprocess.run(["dpkg-deb", "-f", deb, f], capture_output=True,
                                text=True).stdout.strip()
              for f in ("Package", "Version", "Depends", "Recommends")}
    print("package fields:", fields)
    depends = [d.split()[0] for d in fields["Depends"].split(",")]
    check("libclang-cpp22" in depends and "libllvm22" in depends,
          f"Depends: the LLVM 22 runtime libraries ({fields['Depends']})")
    check(all(not d.endswith("-dev") or d == "libclang-common-22-dev" for d in depends),
          f"Depends: no build-only -dev package ({fields['Depends']})")
    check("clang-tidy-22" in fields["Recommends"], "Recommends: clang-tidy-22 for the plugin")
    # Every shared library the binary links comes from a package it depends on.
    ldd = subprocess.run(["ldd", tool], capture_output=True, text=True).stdout
    for lib in ("libclang-cpp.so", "libLLVM.so"):
        m = re.search(rf"{lib}\S* => (\S+)", ldd)
        if m:
            real = os.path.realpath(m.group(1))
            owner = subprocess.run(["dpkg", "-S", real], capture_output=True, text=True)
            pkg = owner.stdout.split(":")[0] if owner.returncode == 0 else None
            print(f"{lib}: {real} from {pkg}")
            check(pkg is None or pkg.split(":")[0] in depends or pkg.endswith("-dev"),
                  f"{lib} comes from a dependency ({pkg})")
    root = f"{tmp}/root"
    p = subprocess.run(["dpkg", "-x", deb, root], capture_output=True, text=True)
    check(p.returncode == 0, f"dpkg -x ({p.stderr})")
    installed = f"{root}/usr/bin/warp-lint"
    rc, out, err = run(installed, ["--version"], tmp)
    check(rc == 0 and f"warp-lint {version}" in out and "LLVM 22" in out and "CUDA" in out,
          f"installed warp-lint --version: tool, LLVM and CUDA versions ({rc}, {out!r}, {err!r})")
    ldd = subprocess.run(["ldd", installed], capture_output=True, text=True).stdout
    check("not found" not in ldd and build not in ldd,
          f"the installed binary needs nothing from the build tree ({ldd})")
    plugins = [os.path.join(d, f) for d, _, fs in os.walk(f"{root}/usr/lib")
               for f in fs if f == "libWarpLint.so"]
    check(len(plugins) == 1 and os.path.exists(os.path.join(
        os.path.dirname(plugins[0]) if plugins else "", "libWarpLintChecks.so")),
          f"plugin and checks library installed side by side ({plugins})")
    example = f"{root}/usr/share/doc/warp-lint/examples/reduction.cu"
    check(os.path.exists(example), "the example is installed with the docs")
    check(os.path.exists(f"{root}/usr/share/doc/warp-lint/docs/cli.md")
          and os.path.exists(f"{root}/usr/share/warp-lint/ci-templates/sarif-to-codequality.py"),
          "docs and CI templates installed")
    # Debian's package documents: the copyright in its machine-readable
    # form, the changelog and the man page made from --help.
    doc = f"{root}/usr/share/doc/warp-lint"
    copyright_ = open(f"{doc}/copyright").read() if os.path.exists(f"{doc}/copyright") else ""
    check(copyright_.startswith("Format: https://www.debian.org/doc/packaging-manuals/"
                                "copyright-format/1.0/") and
          "License: Apache-2.0 WITH LLVM-exception" in copyright_ and
          "LLVM Exceptions" in copyright_, "the copyright file, in Debian's format")
    import gzip
    changelog = f"{doc}/changelog.Debian.gz"
    check(os.path.exists(changelog) and
          gzip.open(changelog, "rt").read().startswith(f"warp-lint ({version})"),
          "the changelog, for this version")
    man = f"{root}/usr/share/man/man1/warp-lint.1.gz"
    page = gzip.open(man, "rt").read() if os.path.exists(man) else ""
    help_text = subprocess.run([tool, "--help"], capture_output=True, text=True).stdout
    options = re.findall(r"^  (--[a-z-]+)", help_text, re.M)
    missing = [o for o in options if o.replace("-", "\\-") not in page]
    check(page.startswith(".TH WARP\\-LINT 1") and options and not missing and
          ".SH EXIT STATUS" in page,
          f"the man page has every option of --help and the exit status ({missing})")
    mandoc = shutil.which("man")
    if mandoc and page:
        p = subprocess.run([mandoc, "-l", man], capture_output=True, text=True,
                           env=dict(os.environ, MANWIDTH="80", MAN_KEEP_FORMATTING="0"))
        check(p.returncode == 0 and "--fail-on" in p.stdout.replace("\u2010", "-"),
              f"man -l renders it ({p.stderr[-300:]})")
    license = f"{root}/usr/share/doc/warp-lint/LICENSE"
    check(os.path.exists(license) and
          "LLVM Exceptions" in open(license).read(), "the license installed")
    shutil.copy(example, f"{tmp}/reduction.cu")
    rc, out, err = run(installed, ["reduction.cu"], tmp)
    check(rc == 1 and out.count("[warp-") >= 4,
          f"installed warp-lint lints the example ({rc}, {out[:300]!r}, {err!r})")
    # nvcc's builtins that clang lacks are declared by the installed header.
    write(f"{tmp}/nv_atomic.cu", "#if __CUDACC_VER_MAJOR__ >= 13\n"
          "__global__ void k(int *p) { p[1] = __nv_atomic_load_n(p, __NV_ATOMIC_RELAXED); }\n"
          "#endif\n")
    rc, out, err = run(installed, ["nv_atomic.cu"], tmp)
    check(os.path.exists(f"{root}/usr/share/warp-lint/include/nvcc_builtins.h") and
          (rc == 0 or not cuda_major() or cuda_major() < 13),
          f"installed warp-lint parses nvcc's __nv_atomic builtins ({rc}, {out!r}, {err!r})")
    cuda = os.environ.get("WARP_LINT_CUDA_PATH") or "/usr/local/cuda"
    flags = ["-x", "cuda", f"--cuda-path={cuda}", "--cuda-gpu-arch=sm_90",
             "--cuda-device-only", "-nocudalib", "-Wno-unknown-cuda-version",
             "-isystem", f"{cuda}/include/cccl", "-D_CG_CLUSTER_INTRINSICS_AVAILABLE",
             "-std=c++17"]
    if plugins:
        p = subprocess.run([clang_tidy, f"--load={plugins[0]}", "--checks=-*,warp-*",
                            "reduction.cu", "--"] + flags, cwd=tmp, capture_output=True,
                           text=True, timeout=300)
        check("[warp-divergent-full-mask]" in p.stdout,
              f"the installed plugin runs in clang-tidy-22 ({p.returncode}, "
              f"{p.stdout[:300]!r}, {p.stderr[-500:]!r})")
    # cmake --install into a prefix: the same layout.
    p = subprocess.run(["cmake", "--install", build, "--prefix", f"{tmp}/prefix"],
                       capture_output=True, text=True, timeout=300)
    check(p.returncode == 0 and os.path.exists(f"{tmp}/prefix/bin/warp-lint"),
          f"cmake --install ({p.stderr[-500:]})")
    rc, out, err = run(f"{tmp}/prefix/bin/warp-lint", ["reduction.cu"], tmp)
    check(rc == 1, f"warp-lint from the install prefix lints ({rc}, {err!r})")


def cache_line(err):
    m = re.search(r"warp-lint: cache: (\d+) hits?, (\d+) miss(?:es)?, (\d+) stored, "
                  r"(\d+) evicted; (\d+) KiB of (\d+) KiB in .*; (\d+) of the hits without "
                  r"preprocessing", err)
    return tuple(int(x) for x in m.groups()) if m else None


def cache(tool, tmp):
    d = f"{tmp}/proj"
    write(f"{d}/inc/lanes.cuh", "#define HALF (32 / 2)\n")
    write(f"{d}/inc/other.cuh", "#define OTHER 1\n")
    write(f"{d}/a.cu", '#include "lanes.cuh"\n' + LIGHT_BUGGY.replace("< 16", "< HALF"))
    write(f"{d}/b.cu", '#include "other.cuh"\n' + TWO_KERNELS)
    write(f"{d}/c.cu", '#include "lanes.cuh"\n' + CLEAN)
    entries = [{"directory": d, "file": f"{d}/{n}",
                "arguments": ["nvcc", "-Iinc", "-c", f"{d}/{n}"]} for n in ("a.cu", "b.cu", "c.cu")]
    write(f"{d}/build/compile_commands.json", json.dumps(entries))
    args = ["-p", "build", "--cache-stats", "--stable-order"]
    t0 = time.time()
    rc, cold, err = run(tool, args, d)
    cold_s = time.time() - t0
    check(rc == 1 and cache_line(err) and cache_line(err)[:3] == (0, 3, 3),
          f"cold run: 3 misses, 3 stored ({err!r})")
    check(os.path.isdir(f"{d}/build/.warp-lint/cache"), "the cache is under the build dir")
    t0 = time.time()
    rc, warm, err = run(tool, args, d)
    warm_s = time.time() - t0
    check(rc == 1 and warm == cold, "hit: same output as the cold run")
    check(cache_line(err) and cache_line(err)[:2] == (3, 0), f"hit: 3 hits ({err!r})")
    check(cache_line(err)[6] == 3, f"hit: the manifests give the keys ({err!r})")
    print(f"cache: cold {cold_s:.2f} s, warm {warm_s:.2f} s ({100 * warm_s / cold_s:.0f}%)")
    for fmt in ("sarif", "json"):
        rc1, o1, _ = run(tool, ["-p", "build", "--no-cache", f"--format={fmt}"], d)
        rc2, o2, _ = run(tool, ["-p", "build", f"--format={fmt}"], d)
        check(o1 == o2, f"{fmt}: a cached run reports what an uncached one does")
    # A header change: exactly the units including it miss.
    write(f"{d}/inc/lanes.cuh", "// NOLINTBEGIN(warp-divergent-full-mask)\n#define HALF (32 / 2)\n")
    rc, out, err = run(tool, args, d)
    check(cache_line(err) and cache_line(err)[:2] == (1, 2),
          f"header change: the 2 units including it miss, the other hits ({err!r})")
    # Whitespace in the unit moves the finding: a miss, and the new line.
    write(f"{d}/b.cu", "\n\n" + open(f"{d}/b.cu").read())
    rc, out, err = run(tool, args, d)
    check(cache_line(err) and cache_line(err)[:2] == (2, 1) and "b.cu:6:" in out,
          f"an edited unit misses and reports the new lines ({err!r}, {out[:200]!r})")
    # Configuration and flags are part of the key.
    rc, out, err = run(tool, args + ["--checks=-*,warp-divergent-full-mask"], d)
    check(cache_line(err) and cache_line(err)[0] == 0, f"other checks: misses ({err!r})")
    rc, out, err = run(tool, args + ["--", "-DEXTRA=1"], d)
    check(cache_line(err) and cache_line(err)[0] == 0, f"other flags: misses ({err!r})")
    # --cache-dir and the cap.
    rc, out, err = run(tool, args + ["--cache-dir", f"{tmp}/c2"], d)
    check(cache_line(err) and cache_line(err)[2] == 3 and os.path.isdir(f"{tmp}/c2"),
          f"--cache-dir ({err!r})")
    sizes = [os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(f"{tmp}/c2") for f in fs]
    cap = max(sizes) + 10
    rc, out, err = run(tool, args + ["--cache-dir", f"{tmp}/c2", f"--cache-size={cap}"], d)
    left = [os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(f"{tmp}/c2")
            for f in fs if f.endswith(".json")]
    check(sum(left) <= cap and cache_line(err) and cache_line(err)[3] >= 1,
          f"cap respected: {sum(left)} <= {cap} bytes, oldest evicted ({err!r})")
    rc, out, err = run(tool, args + ["--no-cache"], d)
    check("cache: off" in err, f"--no-cache ({err!r})")
    # Without -p there is no cache unless asked for.
    rc, out, err = run(tool, ["--cache-stats", "a.cu", "--", "-Iinc"], d)
    check("cache: off" in err, f"no -p, no cache ({err!r})")
    # A damaged entry is a miss, never an error.
    for r, _, fs in os.walk(f"{d}/build/.warp-lint/cache"):
        for f in fs:
            with open(os.path.join(r, f), "w") as fh:
                fh.write("{")
    rc, out, err = run(tool, args, d)
    check(rc == 1 and cache_line(err) and cache_line(err)[0] == 0,
          f"damaged entries are misses ({rc}, {err!r})")
    # A new header that shadows an included one (next to the unit, looked
    # at first for a quoted name) changes no file the units read: the
    # manifest's probes still make the two units including it miss.
    rc, out, err = run(tool, args, d)
    check(cache_line(err) and cache_line(err)[:2] == (3, 0) and cache_line(err)[6] == 3,
          f"shadow: warm before ({err!r})")
    write(f"{d}/lanes.cuh", "#define HALF 32\n")
    rc, out, err = run(tool, args, d)
    check(cache_line(err) and cache_line(err)[:2] == (1, 2) and "a.cu" not in out,
          f"shadow: a header earlier in the search misses ({err!r}, {out[:300]!r})")
    os.remove(f"{d}/lanes.cuh")
    rc, out, err = run(tool, args, d)
    check(cache_line(err) and cache_line(err)[:2] == (3, 0) and cache_line(err)[6] == 1
          and "a.cu" in out, f"shadow gone: the old keys again, found by preprocessing ({err!r})")
    # So does a header that __has_include now finds.
    write(f"{d}/inc/other.cuh", '#if __has_include("opt.cuh")\n#include "opt.cuh"\n#endif\n'
          "#define OTHER 1\n")
    run(tool, args, d)
    write(f"{d}/inc/opt.cuh", "#define OPT 1\n")
    rc, out, err = run(tool, args, d)
    check(cache_line(err) and cache_line(err)[:2] == (2, 1) and cache_line(err)[6] == 2,
          f"__has_include finds a new header: that unit misses ({err!r})")
    expect_error(tool, ["-p", "build", "--cache-size=lots"], d, "--cache-size", "bad --cache-size")


def sarif_findings(doc):
    """(rule, uri, line, fingerprint) of each result."""
    out = []
    for r in doc["runs"][0]["results"]:
        loc = r["locations"][0]["physicalLocation"]
        out.append((r["ruleId"], loc["artifactLocation"]["uri"],
                    loc["region"]["startLine"],
                    r.get("partialFingerprints", {}).get("warpLintHash/v1")))
    return sorted(out)


def launcher(tool, tmp):
    cmake, nvcc, ninja = shutil.which("cmake"), shutil.which("nvcc"), shutil.which("ninja")
    if not cmake or not nvcc or not ninja:
        print("SKIP: launcher needs cmake, ninja and nvcc on PATH")
        return SKIP
    src = f"{tmp}/src"
    write(f"{src}/CMakeLists.txt", """cmake_minimum_required(VERSION 3.20)
project(x LANGUAGES CXX CUDA)
add_library(kernels STATIC kernels.cu other.cu two.cu clean.cu)
target_include_directories(kernels PRIVATE inc)
target_compile_definitions(kernels PRIVATE LANES=32)
target_compile_options(kernels PRIVATE
  $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr -Xcompiler=-Wall>)
""")
    write(f"{src}/inc/lanes.cuh", "#define HALF_WARP (LANES / 2)\n" + HEADER)
    write(f"{src}/kernels.cu", '#include "lanes.cuh"\n' + LIGHT_BUGGY.replace("< 16", "< HALF_WARP")
          + "__global__ void a(float *o) { o[threadIdx.x] = half_sum(o[threadIdx.x]); }\n")
    write(f"{src}/other.cu", '#include "lanes.cuh"\n' + CLEAN.replace("kernel", "clean")
          + "__global__ void b(float *o) { o[threadIdx.x] = half_sum(o[threadIdx.x]); }\n")
    write(f"{src}/two.cu", TWO_KERNELS)
    write(f"{src}/clean.cu", CLEAN.replace("kernel", "spotless"))
    build = f"{tmp}/build"
    p = subprocess.run([cmake, "-S", src, "-B", build, "-G", "Ninja",
                        "-DCMAKE_CUDA_COMPILER=nvcc", "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON",
                        "-DCMAKE_CUDA_ARCHITECTURES=90",
                        # The build dir is outside any git work tree here:
                        # name the root, as -p build's run (cwd tmp) has it.
                        f"-DCMAKE_CUDA_COMPILER_LAUNCHER={tool};--sarif-root={tmp};--launcher"],
                       capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        print("SKIP: cannot configure a CUDA project here:", p.stderr[-2000:])
        return SKIP
    p = subprocess.run([ninja, "-C", build, "-j2"], capture_output=True, text=True, timeout=900)
    check(p.returncode == 0, f"the build with the launcher succeeds ({p.stdout[-2000:]})")
    check("findings in" in p.stdout + p.stderr, "the build log names the units with findings")
    reports = sorted(os.path.relpath(os.path.join(r, f), build)
                     for r, _, fs in os.walk(build) for f in fs if f.endswith(".warp-lint.sarif"))
    objects = sorted(os.path.relpath(os.path.join(r, f), build)
                     for r, _, fs in os.walk(build) for f in fs if f.endswith(".cu.o"))
    check(len(objects) == 4 and reports == [o + ".warp-lint.sarif" for o in objects],
          f"one SARIF next to each object ({reports}, {objects})")
    rc, merged, err = run(tool, ["--merge", build], tmp)
    check(rc == 1, f"--merge: exit 1, findings ({rc}, {err!r})")
    rc2, direct, err2 = run(tool, ["-p", build, "--format=sarif", "--no-cache"], tmp)
    check(rc2 == 1, f"-p build: exit 1 ({rc2}, {err2!r})")
    try:
        m, d = sarif_findings(json.loads(merged)), sarif_findings(json.loads(direct))
    except ValueError:
        m, d = None, []
    check(m == d and len(d) >= 4,
          f"the launcher's merged findings are those of -p build:\n{m}\n{d}")
    if m is not None:
        header = [f for f in m if f[1].endswith("lanes.cuh")]
        check(len(header) == len({f for f in header}),
              f"a header finding two units report is merged once ({header})")
        rules = json.loads(merged)["runs"][0]["tool"]["driver"]["rules"]
        ids = [r["id"] for r in rules]
        check(all(json.loads(merged)["runs"][0]["results"][i]["ruleIndex"] < len(ids)
                  and ids[json.loads(merged)["runs"][0]["results"][i]["ruleIndex"]]
                  == json.loads(merged)["runs"][0]["results"][i]["ruleId"]
                  for i in range(len(m))), "merged ruleIndex points at the rule")
    # --launcher-fail-on-findings fails the compile of a unit with findings.
    p = subprocess.run([cmake, "-S", src, "-B", f"{tmp}/build-strict", "-G", "Ninja",
                        "-DCMAKE_CUDA_COMPILER=nvcc", "-DCMAKE_CUDA_ARCHITECTURES=90",
                        f"-DCMAKE_CUDA_COMPILER_LAUNCHER={tool};--launcher-fail-on-findings;--launcher"],
                       capture_output=True, text=True, timeout=600)
    p = subprocess.run([ninja, "-C", f"{tmp}/build-strict", "-k", "0"], capture_output=True,
                       text=True, timeout=900)
    check(p.returncode != 0 and "FAILED" in p.stdout,
          f"--launcher-fail-on-findings fails the build ({p.returncode})")
    check(os.path.exists(f"{tmp}/build-strict/CMakeFiles/kernels.dir/clean.cu.o"),
          "a clean unit still compiles")
    # The compiler's own status comes back.
    write(f"{tmp}/bad.cu", "int x = ;\n")
    p = subprocess.run([tool, "--launcher", nvcc, "-c", "bad.cu", "-o", "bad.o"], cwd=tmp,
                       capture_output=True, text=True, timeout=300)
    check(p.returncode != 0 and not os.path.exists(f"{tmp}/bad.o"),
          f"a failing compile fails through the launcher ({p.returncode})")
    # A compiler wrapper after the launcher (ccache, distcc, ...) runs the
    # compile; the lint reads the command it wraps.
    write(f"{tmp}/bin/ccache", '#!/bin/sh\necho wrapped >> "$(dirname "$0")/calls"\nexec "$@"\n')
    os.chmod(f"{tmp}/bin/ccache", 0o755)
    write(f"{tmp}/w/k.cu", LIGHT_BUGGY)
    p = subprocess.run([tool, "--launcher", f"{tmp}/bin/ccache", nvcc, "-arch=sm_90", "-c",
                        "k.cu", "-o", "k.o"], cwd=f"{tmp}/w", capture_output=True, text=True,
                       timeout=300)
    res = json.load(open(f"{tmp}/w/k.o.warp-lint.sarif"))["runs"][0]["results"] \
        if os.path.exists(f"{tmp}/w/k.o.warp-lint.sarif") else []
    check(p.returncode == 0 and os.path.exists(f"{tmp}/w/k.o") and len(res) == 1
          and os.path.exists(f"{tmp}/bin/calls"),
          f"through a wrapper: linted, then compiled by the wrapper ({p.returncode}, {p.stderr!r})")
    expect_error(tool, ["--launcher"], tmp, "--launcher needs the compile command",
                 "--launcher without a command")
    expect_error(tool, ["--merge", f"{tmp}/src"], tmp, "no *.warp-lint.sarif", "--merge on nothing")


def cuda_major():
    cuda = os.environ.get("WARP_LINT_CUDA_PATH") or "/usr/local/cuda"
    try:
        m = re.search(r"#define\s+CUDA_VERSION\s+(\d+)", open(f"{cuda}/include/cuda.h").read())
    except OSError:
        return None
    return int(m.group(1)) // 1000 if m else None


EXPLAINED = r"""__device__ int counter;
__global__ void k(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.f;
  if (i < n)
    v += __shfl_down_sync(0xffffffff, v, 1);
  if (in[i] > 0.f)
    v = 0.f;
  if (n > 4)
    atomicAdd(&counter, 1);
  if (threadIdx.y == 0)
    out[i] = __shfl_sync(0xffffffff, v, 0);
}
__device__ float helper(float v, int tid) {
  if (tid < 16) return __shfl_xor_sync(0xffffffff, v, 1);
  return v;
}
__global__ void k2(float *out) {
  out[threadIdx.x] = helper(out[0], threadIdx.x);
  [&] { if (threadIdx.x == 0) atomicAdd(out, 1.f); }();
}
void launch(float *o) { k2<<<2, dim3(16, 2)>>>(o); }
"""


def explain(tool, tmp):
    """--explain: the reasons behind a lane-varying, a data-varying and a
    uniform condition, in text and JSON; bad targets are usage errors."""
    write(os.path.join(tmp, "k.cu"), EXPLAINED)

    def text_at(target, *extra):
        rc, out, err = run(tool, ["--explain", target, *extra], tmp)
        check(rc == 0, f"--explain {target}: exit 0 (got {rc}, {err!r})")
        return out

    def has(out, needle, what):
        check(needle in out, f"{what}: {needle!r} in {out!r}")

    # A collective under a lane-varying branch: the branch, its operands and
    # where each comes from.
    out = text_at("k.cu:6")
    lines = out.splitlines()
    check(lines and lines[0].endswith("k.cu:6:10: '__shfl_down_sync' in 'k'"),
          f"lane: the subject line first ({lines[:1]!r})")
    for needle in ["k.cu:6:27: the mask '0xffffffff' is uniform: the constant "
                   "4294967295 (0xffffffff)",
                   "k.cu:5:7: lanes diverge here",
                   "k.cu:5:7: 'i < n' is lane-varying",
                   "'i' is lane-varying (a thread index: distinct in every lane)",
                   "k.cu:3:7: declared as i = blockIdx.x * blockDim.x + threadIdx.x",
                   "k.cu:3:37: it varies from here: 'threadIdx.x'",
                   "k.cu:5:11: 'n' is a kernel parameter: the same in every "
                   "thread of a launch",
                   "launches: none of 'k' in this unit",
                   "option WarpAlignedBlockDimX is false; true would give the "
                   "same answer"]:
        has(out, needle, "lane")
    # Operands are indented under the condition they explain.
    cond = next((l for l in lines if "'i < n' is" in l), "")
    operand = next((l for l in lines if "'n' is a kernel" in l), "")
    check(len(operand) - len(operand.lstrip()) > len(cond) - len(cond.lstrip()),
          f"lane: operands nest under their condition ({cond!r}, {operand!r})")

    out = text_at("k.cu:7")
    has(out, "branch in 'k'", "data")
    has(out, "the condition 'in[i] > 0.f' is data-varying", "data")
    has(out, "every lane that enters 'k' reaches this", "data")

    out = text_at("k.cu:9")
    has(out, "the condition 'n > 4' is uniform", "uniform")
    check("varying" not in out, f"uniform: nothing varies ({out!r})")

    # The atomic's address; a column picks the atomic inside a lambda.
    out = text_at("k.cu:10")
    has(out, "atomic 'atomicAdd' in 'k'", "atomic")
    has(out, "the address '&counter' is uniform: the lanes that run this use "
             "one address", "atomic")
    out = text_at("k.cu:20:33")
    has(out, "atomic 'atomicAdd' in 'k2(float *)::(lambda)::operator()'",
        "lambda")
    has(out, "'threadIdx.x == 0' is lane-varying; true in at most one lane",
        "lambda")

    # Launch-shape variance: the option would change the answer, and the
    # option given changes it.
    out = text_at("k.cu:12")
    has(out, "'threadIdx.y == 0' is varying only when blockDim.x is not a "
             "multiple of 32", "launch shape")
    has(out, "option WarpAlignedBlockDimX is false; true would change the "
             "answer", "launch shape")
    out = text_at("k.cu:12", "--config={CheckOptions: "
                  "{WarpAlignedBlockDimX: true}}")
    has(out, "every lane that enters 'k' reaches this", "option set")
    has(out, "option WarpAlignedBlockDimX is true; false would change the "
             "answer", "option set")

    # A helper's parameter, and the launch of its caller.
    out = text_at("k.cu:15")
    has(out, "lanes split before it when a caller's argument for 'tid' "
             "differs between lanes", "parameter")
    out = text_at("k.cu:19")
    has(out, "call to 'helper' in 'k2'", "call")
    has(out, "the argument 'threadIdx.x' is lane-varying", "call")
    has(out, "launched with a block of (16, 2, 1)", "call")

    # JSON: the same facts, with places and depths.
    rc, out, err = run(tool, ["--explain", "k.cu:6", "--format=json"], tmp)
    check(rc == 0, f"json: exit 0 (got {rc}, {err!r})")
    try:
        doc = json.loads(out)
    except ValueError:
        doc = {}
        check(False, f"json: parses ({out[:200]!r})")
    ex = doc.get("explanations", [{}])[0] if doc.get("explanations") else {}
    check(ex.get("subject") == "'__shfl_down_sync'" and ex.get("line") == 6,
          f"json: subject and line ({ex!r})")
    facts = ex.get("facts", [])
    check(any(f.get("message") == "'i < n' is lane-varying" and
              f.get("line") == 5 and f.get("depth") == 1 for f in facts),
          f"json: the condition fact with its place and depth ({facts!r})")
    check(doc.get("compileErrors") == 0, f"json: no compile error ({doc!r})")

    expect_error(tool, ["--explain", "k.cu"], tmp, "FILE:LINE[:COL]",
                 "no line")
    expect_error(tool, ["--explain", "k.cu:0"], tmp, "FILE:LINE[:COL]",
                 "line 0")
    expect_error(tool, ["--explain", "missing.cu:3"], tmp,
                 "no such file: missing.cu", "missing file")
    expect_error(tool, ["--explain", "k.cu:1"], tmp, "starts at k.cu:1",
                 "nothing there")
    expect_error(tool, ["--explain", "k.cu:6", "--format=sarif"], tmp,
                 "text or --format=json", "sarif")
    return 0


def free_port():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def launcher_distcc(tool, tmp):
    """The launcher in a distcc build with two local servers: C++ units are
    compiled on the servers, CUDA units (which distcc keeps local) on the
    driver, every unit is linted where the launcher runs, and the findings
    are those of -p build."""
    cmake, nvcc, ninja = shutil.which("cmake"), shutil.which("nvcc"), shutil.which("ninja")
    distcc, distccd = shutil.which("distcc"), shutil.which("distccd")
    if not all((cmake, nvcc, ninja, distcc, distccd)):
        print("SKIP: launcher-distcc needs cmake, ninja, nvcc, distcc and distccd")
        return SKIP
    src = f"{tmp}/src"
    write(f"{src}/CMakeLists.txt", """cmake_minimum_required(VERSION 3.20)
project(x LANGUAGES CXX CUDA)
add_library(kernels STATIC kernels.cu clean.cu host_a.cpp host_b.cpp)
""")
    write(f"{src}/kernels.cu", LIGHT_BUGGY)
    write(f"{src}/clean.cu", CLEAN.replace("kernel", "spotless"))
    write(f"{src}/host_a.cpp", "int host_a(int x) { return x + 1; }\n")
    write(f"{src}/host_b.cpp", "int host_b(int x) { return 2 * x; }\n")
    # Two servers on this machine; distccd drops root to an unprivileged
    # user, so their directory must be writable by anyone.
    servers = f"{tmp}/servers"
    os.makedirs(servers)
    os.chmod(tmp, 0o755)
    os.chmod(servers, 0o777)
    ports = [free_port(), free_port()]
    daemons = []
    for port in ports:
        daemons.append(subprocess.Popen(
            [distccd, "--no-detach", "--daemon", "--allow", "127.0.0.1", "--listen",
             "127.0.0.1", "--port", str(port), "--jobs", "2", "--log-level", "info",
             "--log-file", f"{servers}/{port}.log"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    try:
        time.sleep(1)
        os.makedirs(f"{tmp}/distcc-state")
        env = dict(os.environ,
                   DISTCC_HOSTS=" ".join(f"127.0.0.1:{p}/2" for p in ports),
                   DISTCC_DIR=f"{tmp}/distcc-state", DISTCC_FALLBACK="0")
        launcher = f"{tool};--sarif-root={tmp};--launcher;{distcc}"
        build = f"{tmp}/build"
        p = subprocess.run([cmake, "-S", src, "-B", build, "-G", "Ninja",
                            "-DCMAKE_CUDA_COMPILER=nvcc", "-DCMAKE_CUDA_ARCHITECTURES=90",
                            "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON",
                            f"-DCMAKE_CUDA_COMPILER_LAUNCHER={launcher}",
                            f"-DCMAKE_CXX_COMPILER_LAUNCHER={launcher}"],
                           capture_output=True, text=True, timeout=600, env=env)
        if p.returncode != 0:
            print("SKIP: cannot configure a CUDA project here:", p.stderr[-2000:])
            return SKIP
        p = subprocess.run([ninja, "-C", build, "-j4"], capture_output=True, text=True,
                           timeout=900, env=env)
        check(p.returncode == 0, f"the distcc build with the launcher succeeds ({p.stdout[-2000:]})")
        served = ""
        for port in ports:
            if os.path.exists(f"{servers}/{port}.log"):
                served += open(f"{servers}/{port}.log", errors="replace").read()
        remote = re.findall(r"COMPILE_OK .*[ /](host_[ab])\.cpp", served)
        check(sorted(set(remote)) == ["host_a", "host_b"],
              f"both C++ units were compiled by the servers ({remote}; {served[-1500:]})")
        reports = sorted(f for r, _, fs in os.walk(build) for f in fs
                         if f.endswith(".warp-lint.sarif"))
        check(reports == ["clean.cu.o.warp-lint.sarif", "host_a.cpp.o.warp-lint.sarif",
                          "host_b.cpp.o.warp-lint.sarif", "kernels.cu.o.warp-lint.sarif"],
              f"every unit was linted by the launcher ({reports})")
        rc, merged, err = run(tool, ["--merge", build], tmp)
        rc2, direct, err2 = run(tool, ["-p", build, "--format=sarif", "--no-cache"], tmp)
        try:
            m, d = sarif_findings(json.loads(merged)), sarif_findings(json.loads(direct))
        except ValueError:
            m, d = None, []
        check(rc == 1 and m == d and len(d) >= 1,
              f"the distcc build's findings are those of -p build ({rc}, {rc2}):\n{m}\n{d}")
    finally:
        for daemon in daemons:
            daemon.terminate()
        for daemon in daemons:
            daemon.wait(timeout=30)
    return 0


def sarif_paths(tool, tmp):
    """The call-chain findings of test-inputs carry their path in SARIF: one
    codeFlow whose steps are the text output's notes, in the same order, and
    then the finding; relatedLocations hold the same notes."""
    name = "warp-divergent-full-mask-call-chains.cu"
    src = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))), "test-inputs", name)
    shutil.copy(src, os.path.join(tmp, name))
    rc, text, err = run(tool, ["--format=text", name], tmp)
    check(rc == 1, f"text run finds the call chains (exit {rc}, {err!r})")
    # The notes of each warning, in print order, as (line, column).
    paths, current = {}, None
    for line in text.splitlines():
        m = re.match(r"(?:.*/)?" + re.escape(name) + r":(\d+):(\d+): (warning|note): ", line)
        if not m:
            continue
        place = (int(m.group(1)), int(m.group(2)))
        if m.group(3) == "warning":
            current = paths.setdefault(place, [])
        elif current is not None:
            current.append(place)
    check(len(paths) >= 8, f"the chains' warnings in text ({len(paths)})")

    def place(loc):
        region = loc["physicalLocation"]["region"]
        return (region["startLine"], region["startColumn"])

    results = sarif_results(tool, [name], tmp)["runs"][0]["results"]
    check(len(results) == len(paths),
          f"as many SARIF results as text warnings ({len(results)} vs {len(paths)})")
    for res in results:
        at = place(res["locations"][0])
        flows = res.get("codeFlows", [])
        check(len(flows) == 1 and len(flows[0].get("threadFlows", [])) == 1,
              f"{at}: one codeFlow with one threadFlow")
        if len(flows) != 1 or len(flows[0].get("threadFlows", [])) != 1:
            continue
        steps = [s["location"] for s in flows[0]["threadFlows"][0]["locations"]]
        related = [place(r) for r in res.get("relatedLocations", [])]
        want = paths.get(at, [])
        check(len(want) >= 3, f"{at}: a path of at least three notes ({want})")
        check([place(s) for s in steps[:-1]] == want,
              f"{at}: thread flow = the text notes in order "
              f"({[place(s) for s in steps[:-1]]} vs {want})")
        check(related == want, f"{at}: relatedLocations = the notes in order")
        check(place(steps[-1]) == at, f"{at}: thread flow ends at the finding")
        check(all(s.get("message", {}).get("text") for s in steps),
              f"{at}: every step says what happens there")
    return 0


def error_lines(err):
    return [l for l in err.splitlines() if l.startswith("warp-lint: error: ")]


def keep_going(tool, tmp):
    """A missing or unreadable unit is one line and a SARIF notification; the
    other units are analysed and reported; the status says incomplete (2).
    A source under the build directory not generated yet is a note only."""
    write(f"{tmp}/a.cu", LIGHT_BUGGY)
    write(f"{tmp}/b.cu", LIGHT_BUGGY.replace("kernel", "other"))
    os.makedirs(f"{tmp}/dir.cu")
    rc, out, err = run(tool, ["a.cu", "missing.cu", "dir.cu", "b.cu"], tmp)
    errors = error_lines(err)
    check(rc == 2 and len(errors) == 2, f"two skipped units: exit 2, one line each ({rc}, {err!r})")
    check(any("missing.cu: no such file" in e for e in errors) and
          any("dir.cu: it is a directory" in e for e in errors),
          f"each line names the unit and why ({errors})")
    check("a.cu:3:" in out and "b.cu:3:" in out, f"the other units are reported ({out[:400]!r})")
    rc, out, err = run(tool, ["--format=sarif", "a.cu", "missing.cu"], tmp)
    run_ = json.loads(out)["runs"][0]
    inv = run_["invocations"][0]
    check(len(run_["results"]) == 1 and inv["executionSuccessful"] is False and
          any("missing.cu" in n["message"]["text"] and n["level"] == "error"
              for n in inv.get("toolExecutionNotifications", [])),
          f"SARIF: the finding, not successful, the unit as a notification ({inv})")
    # A compile database: a stale entry (a deleted source) and one under the
    # build directory that the build has not generated yet.
    entries = [{"directory": tmp, "file": f"{tmp}/{n}",
                "arguments": ["nvcc", "-c", f"{tmp}/{n}"]}
               for n in ("a.cu", "gone.cu", "build/gen/made.cu")]
    write(f"{tmp}/build/compile_commands.json", json.dumps(entries))
    rc, out, err = run(tool, ["-p", "build", "--format=sarif", "--output=r.sarif"], tmp)
    errors = error_lines(err)
    check(rc == 2 and len(errors) == 1 and "gone.cu: no such file" in errors[0] and
          "stale" in errors[0], f"stale entry: exit 2, one line ({rc}, {err!r})")
    check("made.cu: not generated yet" in err and "note:" in err,
          f"a source not generated yet is a note ({err!r})")
    doc = json.load(open(f"{tmp}/r.sarif"))["runs"][0]
    levels = {n["message"]["text"].split(":")[0]: n["level"]
              for n in doc["invocations"][0].get("toolExecutionNotifications", [])}
    check(len(doc["results"]) == 1 and
          any("gone.cu" in k and v == "error" for k, v in levels.items()) and
          any("made.cu" in k and v == "note" for k, v in levels.items()),
          f"SARIF: the finding, an error for the stale entry, a note for the "
          f"generated source ({levels})")
    entries.pop(1)
    write(f"{tmp}/build/compile_commands.json", json.dumps(entries))
    rc, out, err = run(tool, ["-p", "build", "--format=sarif", "--output=r.sarif"], tmp)
    doc = json.load(open(f"{tmp}/r.sarif"))["runs"][0]
    check(rc == 1 and doc["invocations"][0]["executionSuccessful"] is True,
          f"only a source not generated yet: the run is complete ({rc}, {err!r})")
    # A truncated database says so, not "Missing key".
    write(f"{tmp}/cut/compile_commands.json",
          json.dumps(entries, indent=1)[:-30])
    expect_error(tool, ["-p", "cut"], tmp, "not valid JSON", "truncated database")
    rc, out, err = run(tool, ["-p", "cut"], tmp)
    check("truncated" in err and "Missing key" not in err,
          f"a truncated database is named so ({err!r})")
    # A binary file: the first error is clang's first, with a place.
    with open(f"{tmp}/blob.cu", "wb") as f:
        f.write(bytes(range(256)) * 64)
    rc, out, err = run(tool, ["blob.cu"], tmp)
    first = err.split("the first: ", 1)[-1]
    check(rc == 2 and "does not compile" in err and
          "too many errors" not in first and first.startswith(f"{tmp}/blob.cu:1:"),
          f"a binary file: its first error is the first clang emitted ({err!r})")


def stream_lines(tool, args, cwd):
    """Runs warp-lint with stdout and stderr into one pipe, as a CI log
    holds them; returns (status, [(seconds, line)])."""
    start = time.monotonic()
    p = subprocess.Popen([tool] + args, cwd=cwd, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, bufsize=1)
    lines = [(time.monotonic() - start, l.rstrip("\n")) for l in p.stdout]
    return p.wait(timeout=900), lines


def live_output(tool, tmp):
    """A 24-unit run into a log (not a terminal) shows progress and findings
    while it runs and ends with the summary; -j defaults to the cores;
    --stable-order prints in input order whatever -j."""
    names = []
    for i in range(24):
        name = f"k{i:02d}.cu"
        write(f"{tmp}/{name}", (LIGHT_BUGGY if i % 3 == 0 else CLEAN)
              .replace("kernel", f"kernel{i}"))
        names.append(name)
    rc, lines = stream_lines(tool, ["-j", "2"] + names, tmp)
    text = [l for _, l in lines]
    progress = [i for i, l in enumerate(text) if re.match(r"warp-lint: \[\d+/24\] ", l)]
    findings = [i for i, l in enumerate(text) if ": warning: " in l]
    summary = [i for i, l in enumerate(text) if l.startswith("warp-lint: 24 units in ")]
    print("\n".join(text[-8:]))
    check(rc == 1 and len(findings) == 8, f"8 findings, exit 1 ({rc}, {len(findings)})")
    check(len(progress) >= 3, f"progress lines in a log ({len(progress)})")
    check(findings and progress and findings[0] < progress[-1],
          "a finding is printed before the last unit is done")
    check(summary and summary[0] > max(findings + progress) and
          any(l.startswith("warp-lint:   by check: warp-divergent-full-mask 8") for l in text) and
          any(l.startswith("warp-lint:   by tier: ") for l in text),
          f"the summary ends the log ({text[-6:]})")
    # The default -j: the cores this process may use.
    rc, out, err = run(tool, names[:3], tmp)
    cores = len(os.sched_getaffinity(0))
    check(f"(-j {min(cores, 3)}" in err, f"-j defaults to the cores ({cores}): {err!r}")
    rc1, out1, _ = run(tool, ["-j", "1"] + names[:9], tmp)
    rc4, out4, _ = run(tool, ["-j", "4", "--stable-order"] + names[:9], tmp)
    check(out1 == out4 and out1, "--stable-order: -j4 prints what -j1 prints")
    rc, out, err = run(tool, ["--progress=none"] + names[:3], tmp)
    check("[1/3]" not in err and "[2/3]" not in err, "--progress=none")
    rc, out, err = run(tool, ["--quiet"] + names[:3], tmp)
    check(err == "", f"--quiet: nothing on stderr ({err!r})")
    expect_error(tool, ["--progress=bar", "k00.cu"], tmp, "--progress", "bad --progress")
    # A report into a file: the findings still show in the log.
    rc, out, err = run(tool, ["--format=sarif", "--output=r.sarif"] + names[:3], tmp)
    check(rc == 1 and "k00.cu:3:" in out and ": warning: " in out,
          f"--output: the findings are echoed as text ({out[:300]!r})")


def filters(tool, tmp):
    """--exclude, --header-filter, --warnings-as-errors, --fail-on, --tiers."""
    write(f"{tmp}/third_party/lib/shared.cuh", HEADER)
    write(f"{tmp}/third_party/lib/v.cu", LIGHT_BUGGY)
    write(f"{tmp}/src/a.cu", '#include "../third_party/lib/shared.cuh"\n' +
          UNIT_A.split("\n", 1)[1] + LIGHT_BUGGY)
    write(f"{tmp}/.git/HEAD", "ref: refs/heads/main\n")  # The project root.
    write(f"{tmp}/.clang-tidy", "HeaderFilterRegex: '.*'\n")
    rc, out, err = run(tool, ["src/a.cu", "third_party/lib/v.cu"], tmp)
    check(rc == 1 and "shared.cuh:" in out and "v.cu:" in out, "no filter: all findings")
    rc, out, err = run(tool, ["--exclude=third_party/", "src/a.cu", "third_party/lib/v.cu"], tmp)
    check(rc == 1 and "shared.cuh:" not in out and "v.cu:" not in out and "a.cu:" in out,
          f"--exclude: units and findings under third_party/ left out ({out[:300]!r})")
    check("1 excluded" in err and "in excluded files not reported" in err,
          f"--exclude: the summary counts it ({err!r})")
    rc, out, err = run(tool, ["--exclude=third_party/", "third_party/lib/v.cu"], tmp)
    check(rc == 0 and out == "", f"every unit excluded: nothing to do ({rc}, {err!r})")
    expect_error(tool, ["--exclude=", "src/a.cu"], tmp, "--exclude", "empty --exclude")
    rc, out, err = run(tool, ["--header-filter=nothing-matches", "src/a.cu"], tmp)
    check(rc == 1 and "shared.cuh:" not in out and "src/a.cu:" in out,
          f"--header-filter hides header findings ({out[:300]!r})")
    rc, out, err = run(tool, ["--warnings-as-errors=warp-divergent-full-mask",
                              "--format=json", "third_party/lib/v.cu"], tmp)
    check(rc == 1 and json.loads(out)[0]["level"] == "error",
          "--warnings-as-errors: level error")
    rc, out, err = run(tool, ["--warnings-as-errors=warp-*", "third_party/lib/v.cu"], tmp)
    check("error: " in out and "-warnings-as-errors]" in out,
          f"--warnings-as-errors in text, as clang-tidy prints it ({out[:300]!r})")
    rc, out, err = run(tool, ["--fail-on=never", "third_party/lib/v.cu"], tmp)
    check(rc == 0 and ": warning: " in out, f"--fail-on=never: reported, status 0 ({rc})")
    rc, out, err = run(tool, ["--fail-on=proven", "third_party/lib/v.cu"], tmp)
    check(rc == 1, f"--fail-on=proven: a proven finding fails ({rc})")
    expect_error(tool, ["--fail-on=bad", "src/a.cu"], tmp, "--fail-on", "bad --fail-on")
    rc, out, err = run(tool, ["--tiers=potential,proven", "--dump-config"], tmp)
    check(rc == 0 and "warp-divergent-full-mask.Tiers" in out and "proven,potential" in out,
          f"--tiers sets every check's Tiers ({out[-600:]!r})")
    expect_error(tool, ["--tiers=proven,sure", "src/a.cu"], tmp, "'sure'", "bad --tiers")
    # JSON and SARIF carry the tier (the checks' notes, or proven without).
    rc, out, err = run(tool, ["--format=json", "third_party/lib/v.cu"], tmp)
    check(all(f.get("tier") in ("proven", "conditional", "data", "potential")
              for f in json.loads(out)), "JSON: every finding has a tier")
    rc, out, err = run(tool, ["--format=sarif", "third_party/lib/v.cu"], tmp)
    check(all(r.get("properties", {}).get("tier") for r in
              json.loads(out)["runs"][0]["results"]), "SARIF: properties.tier")


def project_file(tool, tmp):
    """.warp-lint.yaml holds the tool's own options; the command line wins."""
    d = f"{tmp}/proj"
    write(f"{d}/src/a.cu", LIGHT_BUGGY)
    write(f"{d}/vendor/v.cu", LIGHT_BUGGY.replace("kernel", "vendored"))
    entries = [{"directory": d, "file": f"{d}/{n}", "arguments": ["nvcc", "-c", f"{d}/{n}"]}
               for n in ("src/a.cu", "vendor/v.cu")]
    write(f"{d}/out/compile_commands.json", json.dumps(entries))
    write(f"{d}/.warp-lint.yaml", "build-dir: out\nexclude: [vendor/]\njobs: 1\n"
          "fail-on: never\n")
    os.makedirs(f"{d}/src/deeper", exist_ok=True)
    rc, out, err = run(tool, [], f"{d}/src/deeper")
    check(rc == 0 and "a.cu:3:" in out and "v.cu" not in out,
          f"found above the current directory; -p, exclude, fail-on from it ({rc}, {out[:300]!r}, {err!r})")
    check("(-j 1" in err and "1 excluded" in err, f"jobs and exclude applied ({err!r})")
    rc, out, err = run(tool, ["--fail-on=any"], d)
    check(rc == 1, "the command line wins")
    rc, out, err = run(tool, ["--exclude=src/"], d)
    check(rc == 0 and out == "" and "every unit is excluded" in err,
          f"--exclude adds to the file's list ({rc}, {err!r})")
    rc, out, err = run(tool, ["--no-project-file", "src/a.cu"], d)
    check(rc == 1, "--no-project-file")
    write(f"{tmp}/other.yaml", "fail-on: never\n")
    rc, out, err = run(tool, [f"--project-file={tmp}/other.yaml", "src/a.cu"], d)
    check(rc == 0 and "(-j" not in err, f"--project-file names another ({rc}, {err!r})")
    write(f"{d}/.warp-lint.yaml", "build-dir: out\nbuild_dir: x\n")
    expect_error(tool, [], d, ".warp-lint.yaml:2:1: unknown key 'build_dir'",
                 "unknown key in the project file")
    write(f"{d}/.warp-lint.yaml", "jobs: [1\n")
    expect_error(tool, [], d, "invalid project file", "broken project file")


def fix_report(tool, tmp):
    """--fix says what it fixed and what is left, writes all files or none,
    --dry-run prints a diff that applies; an interrupt before the writes
    says that nothing changed."""
    write(f"{tmp}/a.cu", LIGHT_BUGGY)
    write(f"{tmp}/r.cu", EXAMPLE_LIKE)
    rc, out, err = run(tool, ["--fix", "-j", "1", "a.cu", "r.cu"], tmp)
    check(rc == 1 and "warp-lint: fixed a.cu:3:" in err and
          "warp-lint: left r.cu:" in err and ": no automatic fix" in err,
          f"each finding: fixed or left, and why ({err!r})")
    check("warp-lint: applied 1 of 1 suggested fix (1 file written); 1 finding left" in err,
          f"the totals line ({err!r})")
    # All or none: one read-only file keeps every file as it was.
    write(f"{tmp}/b.cu", LIGHT_BUGGY)
    write(f"{tmp}/ro.cu", LIGHT_BUGGY)
    os.chmod(f"{tmp}/ro.cu", 0o444)
    rc, out, err = run(tool, ["--fix", "b.cu", "ro.cu"], tmp)
    check(rc == 2 and open(f"{tmp}/b.cu").read() == LIGHT_BUGGY and
          open(f"{tmp}/ro.cu").read() == LIGHT_BUGGY,
          f"a read-only file: no file written ({rc}, {err!r})")
    errors = error_lines(err)
    check(len(errors) == 1 and "ro.cu: the file is read-only" in errors[0]
          and "applied 0 of 2 suggested fixes: no file written" in err,
          f"one error line, and the totals say nothing was written ({err!r})")
    os.chmod(f"{tmp}/ro.cu", 0o644)
    # --dry-run: a diff on stdout, nothing written; it applies to the same
    # result --fix gives.
    write(f"{tmp}/d.cu", LIGHT_BUGGY)
    before = os.stat(f"{tmp}/d.cu").st_mtime_ns
    rc, out, err = run(tool, ["--fix", "--dry-run", "d.cu"], tmp)
    check(rc == 1 and out.startswith("--- a/d.cu\n+++ b/d.cu\n@@ ") and
          os.stat(f"{tmp}/d.cu").st_mtime_ns == before and "would fix d.cu:3:" in err
          and "nothing written" in err, f"--dry-run ({rc}, {out!r}, {err!r})")
    write(f"{tmp}/d.diff", out)
    patch = shutil.which("patch")
    if patch:
        p = subprocess.run([patch, "-p1", "-i", "d.diff"], cwd=tmp, capture_output=True, text=True)
        dry = open(f"{tmp}/d.cu").read()
        write(f"{tmp}/d.cu", LIGHT_BUGGY)
        run(tool, ["--fix", "d.cu"], tmp)
        check(p.returncode == 0 and dry == open(f"{tmp}/d.cu").read(),
              f"the dry-run diff applies and gives what --fix writes ({p.stderr})")
    expect_error(tool, ["--dry-run", "d.cu"], tmp, "--dry-run goes with --fix", "--dry-run alone")
    # Ctrl-C while the units are analysed: nothing written, and it says so.
    for i in range(12):
        write(f"{tmp}/i{i}.cu", LIGHT_BUGGY)
    p = subprocess.Popen([tool, "--fix", "-j", "1", "--progress=lines"] +
                         [f"i{i}.cu" for i in range(12)],
                         cwd=tmp, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         text=True)
    # Once a unit is done (a progress line), the others are being analysed.
    first = p.stderr.readline()
    p.send_signal(signal.SIGINT)
    err = first + p.communicate(timeout=300)[1]
    check(all(open(f"{tmp}/i{i}.cu").read() == LIGHT_BUGGY for i in range(12)) and
          "interrupted: no file was changed" in err,
          f"interrupted before the writes: no file changed, and it says so ({err!r})")


def html_report(tool, tmp):
    """--format=html opens in headless Chromium: the lane pictures are laid
    out, the console shows nothing, and a screenshot holds the strip's
    colours."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    sample = os.environ.get("WARP_LINT_HTML_SAMPLE", "")
    if not chromium or not os.path.exists(sample):
        print("SKIP: html-report needs chromium (apt-get install chromium) and "
              "warp-lint-html-sample")
        return SKIP
    example = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))), "examples", "reduction.cu")
    shutil.copy(example, f"{tmp}/reduction.cu")
    rc, out, err = run(tool, ["--format=html", "--output=real.html", "reduction.cu"], tmp)
    check(rc == 1 and os.path.exists(f"{tmp}/real.html"), f"--format=html ({rc}, {err!r})")
    rc, out, err = run(tool, ["--format=json", "reduction.cu"], tmp)
    real_lanes = sum(1 for f in json.loads(out) if "lanes" in f)
    p = subprocess.run([sample, f"{tmp}/reduction.cu", f"{tmp}/sample.html"],
                       capture_output=True, text=True)
    check(p.returncode == 0, f"the sample report ({p.stderr})")

    def chrome(args, n):
        flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync",
                 f"--user-data-dir={tmp}/profile-{n}", "--enable-logging=stderr", "--v=0"]
        return subprocess.run([chromium] + flags + args, capture_output=True, text=True,
                              timeout=180)

    for n, (page, lanes) in enumerate((("sample.html", 2), ("real.html", real_lanes))):
        p = chrome(["--dump-dom", f"file://{tmp}/{page}"], n)
        m = re.search(r'<html[^>]*data-lane-strips="(\d+)"', p.stdout)
        check(m and int(m.group(1)) == lanes,
              f"{page}: {lanes} lane picture(s) laid out ({m and m.group(0)})")
        console = [l for l in p.stderr.splitlines() if "CONSOLE" in l]
        check(not console, f"{page}: nothing on the console ({console})")
        check(p.stdout.count('class="finding"') >= 2, f"{page}: the findings are there")
    p = chrome(["--screenshot=" + f"{tmp}/shot.png", "--window-size=1100,1400",
                f"file://{tmp}/sample.html"], 9)
    pixels = png_colours(f"{tmp}/shot.png") if os.path.exists(f"{tmp}/shot.png") else {}
    # The first picture: 32 named lanes (blue), 16 that arrive (green), 16
    # that never do (red); each cell 12x14 pixels.
    blue, green, red = (pixels.get(c, 0) for c in
                        ((0x09, 0x69, 0xda), (0x1a, 0x7f, 0x37), (0xcf, 0x22, 0x2e)))
    print(f"screenshot: blue {blue}, green {green}, red {red} pixels")
    check(blue >= 32 * 100 and green >= 16 * 100 and red >= 16 * 100,
          f"the screenshot shows a lane strip (blue {blue}, green {green}, red {red})")


def png_colours(path):
    """Counts the pixels of each colour in an 8-bit RGB(A) PNG."""
    import struct
    import zlib
    data = open(path, "rb").read()
    pos, idat, width, height, kind = 8, b"", 0, 0, 2
    while pos < len(data):
        size, = struct.unpack(">I", data[pos:pos + 4])
        tag, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + size]
        pos += 12 + size
        if tag == b"IHDR":
            width, height, _, kind = struct.unpack(">IIBB", body[:10])
        elif tag == b"IDAT":
            idat += body
    raw = zlib.decompress(idat)
    bpp = 4 if kind == 6 else 3
    stride = width * bpp
    counts, prev, i = {}, bytearray(stride), 0
    for _ in range(height):
        kind_, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if kind_ == 1:
                line[x] = (line[x] + a) & 255
            elif kind_ == 2:
                line[x] = (line[x] + b) & 255
            elif kind_ == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind_ == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        for x in range(0, stride, bpp):
            key = tuple(line[x:x + 3])
            counts[key] = counts.get(key, 0) + 1
        prev = line
    return counts


def merge_stale(tool, tmp):
    """The launcher prints the diagnostics into the build log; --merge joins
    only the units the build's compile database still has."""
    cc = f"{tmp}/fakecc"
    write(cc, "#!/bin/sh\nwhile [ $# -gt 0 ]; do [ \"$1\" = -o ] && : > \"$2\"; shift; done\n")
    os.chmod(cc, 0o755)
    write(f"{tmp}/a.cu", LIGHT_BUGGY)
    write(f"{tmp}/b.cu", LIGHT_BUGGY.replace("kernel", "other"))
    os.makedirs(f"{tmp}/build", exist_ok=True)
    for n in ("a", "b"):
        rc, out, err = run(tool, [f"--sarif-root={tmp}", "--launcher", cc, "-x", "cuda",
                                  "-c", f"{tmp}/{n}.cu", "-o", f"{tmp}/build/{n}.o"], f"{tmp}/build")
        check(rc == 0 and os.path.exists(f"{tmp}/build/{n}.o.warp-lint.sarif"),
              f"launcher {n}: compiled, SARIF written ({rc}, {err!r})")
        check(f"{n}.cu:3:" in err and "warning:" in err and "[warp-" in err and out == "",
              f"launcher {n}: the diagnostics are in the build log ({err!r})")
    entries = [{"directory": f"{tmp}/build", "file": f"{tmp}/{n}.cu", "output": f"{n}.o",
                "arguments": [cc, "-c", f"{tmp}/{n}.cu", "-o", f"{n}.o"]} for n in ("a", "b")]
    write(f"{tmp}/build/compile_commands.json", json.dumps(entries))
    rc, out, err = run(tool, ["--merge", "build"], tmp)
    check(rc == 1 and len(json.loads(out)["runs"][0]["results"]) == 2,
          f"both units merged ({rc}, {err!r})")
    # b.cu leaves the build: its SARIF stays on disk but is not merged.
    write(f"{tmp}/build/compile_commands.json", json.dumps(entries[:1]))
    rc, out, err = run(tool, ["--merge", "build"], tmp)
    results = json.loads(out)["runs"][0]["results"]
    uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results]
    check(rc == 1 and uris == ["a.cu"] and "left out 1 SARIF file" in err,
          f"a unit no longer in the build is left out ({uris}, {err!r})")
    # Without outputs in the database, the unit a file names decides.
    for e in entries:
        del e["output"]
    write(f"{tmp}/build/compile_commands.json", json.dumps(entries[1:]))
    rc, out, err = run(tool, ["--merge", "build"], tmp)
    uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            for r in json.loads(out)["runs"][0]["results"]]
    check(uris == ["b.cu"], f"matched by unit ({uris}, {err!r})")
    os.remove(f"{tmp}/build/compile_commands.json")
    rc, out, err = run(tool, ["--merge", "build"], tmp)
    check(rc == 1 and len(json.loads(out)["runs"][0]["results"]) == 2 and
          "no compile database" in err, f"no database: all merged, with a note ({err!r})")
    # --launcher-fail-on-findings: the finding is in the log, not only a name.
    rc, out, err = run(tool, ["--launcher-fail-on-findings", "--launcher", cc, "-x", "cuda",
                              "-c", f"{tmp}/a.cu", "-o", f"{tmp}/build/a.o"], f"{tmp}/build")
    check(rc == 1 and "a.cu:3:" in err and "[warp-divergent-full-mask]" in err,
          f"fail on findings: the diagnostic is in the log ({rc}, {err!r})")


EXAMPLE_LIKE = r"""__global__ void early(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = in[i];
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  out[i] = v;
}
"""


def readme_example(tool, tmp):
    """The README's example output is what warp-lint prints on the example
    today (command (A), run in a fresh checkout at /tmp/fresh)."""
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    readme = open(os.path.join(repo, "README.md")).read()
    m = re.search(r"```\n(/tmp/fresh/examples/reduction\.cu:.*?)```", readme, re.S)
    check(m is not None, "the README shows the example's output")
    if not m:
        return
    os.makedirs(f"{tmp}/examples")
    shutil.copy(os.path.join(repo, "examples", "reduction.cu"), f"{tmp}/examples/")
    rc, out, err = run(tool, ["examples/reduction.cu"], tmp)
    shown = m.group(1).replace("/tmp/fresh/", tmp + "/")
    check(rc == 1 and out + err == shown,
          "README's output of command (A) is today's (update README.md):\n" +
          "".join(difflib.unified_diff(shown.splitlines(True), (out + err).splitlines(True),
                                       "README.md", "warp-lint")))


GROUPS = {"exit-codes": exit_codes, "determinism": determinism,
          "cmake-project": cmake_project, "fix": fix, "sarif-schema": sarif_schema,
          "shared-header": shared_header, "write-safety": write_safety,
          "non-regular": non_regular, "compile-errors": compile_errors,
          "crash-recovery": crash_recovery,
          "export-compile-commands": export_compile_commands,
          "cross-unit-launches": cross_unit_launches,
          "sarif-github": sarif_github, "shard": shard, "diff-base": diff_base,
          "baseline": baseline, "package": package,
          "cache": cache, "launcher": launcher, "explain": explain,
          "sarif-paths": sarif_paths, "launcher-distcc": launcher_distcc,
          "keep-going": keep_going, "live-output": live_output,
          "filters": filters, "project-file": project_file,
          "fix-report": fix_report, "html-report": html_report,
          "merge-stale": merge_stale, "readme-example": readme_example}


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
