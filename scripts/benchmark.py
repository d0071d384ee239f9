#!/usr/bin/env python3
"""Benchmark warp-lint against clang++-22 -fsyntax-only (the budget in
docs/performance.md).

    scripts/benchmark.py --root /tmp/real            # corpus + large kernels
    scripts/benchmark.py --root /tmp/real --quick    # 1 run each, smoke test
    scripts/benchmark.py --no-corpus                 # large kernels only

For every translation unit of scripts/real-projects.txt it times (median of
--runs after --warmup, the tools interleaved run by run so that load from other
users of a shared machine hits them alike) the same device pass three ways,
by CPU time (user + system, the default: what a lint stage costs, and what
other jobs on a shared machine disturb least) or by wall time (--metric wall):
  parse   clang++-22 -fsyntax-only <flags> file
  tidy    clang-tidy-22 --load=<libWarpLint.so> --checks='-*,warp-*' file -- <flags>
  cli     warp-lint file -- <flags>                      (when the binary exists)
  before  the same with --before <warp-lint> (an earlier build), to show a
          change costs nothing: cli/before total and worst unit
and the peak RSS of the same runs with GNU /usr/bin/time -v. (hyperfine
runs each command's batch back to back, which on shared cores biases ratios.) Then it
generates one large device function of N statements (scripts/gen_large_kernel.py)
for N in --sizes and times the same three commands, reporting the lint time per
statement and the lint/parse ratio, to show the analysis is linear.

The report is markdown on stdout (paste it into docs/performance.md); progress
goes to stderr. Raw samples are kept under --work (default a temp dir).
"""
import argparse
import datetime
import glob
import json
import os
import re
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
CUDA = os.environ.get("CUDA_PATH", "/usr/local/cuda")


FAILURES = []


def base_flags(arch):
    return ["-x", "cuda", f"--cuda-path={CUDA}", f"--cuda-gpu-arch={arch}",
            "--cuda-device-only", "-nocudalib", "-Wno-unknown-cuda-version",
            "-isystem", f"{CUDA}/include/cccl", "-D_CG_CLUSTER_INTRINSICS_AVAILABLE",
            "-Xclang", "-target-sdk-version=13.0",
            # nvcc's version macros, as warp-lint defines them without a database
            "-D__CUDACC_VER_MAJOR__=13", "-D__CUDACC_VER_MINOR__=0"]


def read_corpus(path, root):
    """Yield (project, relpath, flags) for each line of the list file."""
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split()
        project, rel = parts[0], parts[1]
        extra = [p.replace("$ROOT", root) for p in parts[2:]]
        arch = "sm_90"
        for p in extra:
            if p.startswith("--cuda-gpu-arch="):
                arch = p.split("=", 1)[1]
        extra = [p for p in extra if not p.startswith("--cuda-gpu-arch=")]
        yield project, rel, base_flags(arch) + extra


def newest(pattern):
    c = [p for p in glob.glob(os.path.join(REPO, pattern)) if os.path.exists(p)]
    return max(c, key=os.path.getmtime) if c else None


def commands(tools, src, flags):
    """Shell commands (run in the TU's project dir) keyed by tool name."""
    f = " ".join(shlex.quote(x) for x in flags)
    s = shlex.quote(src)
    cmds = {"parse": f"{tools['clang++']} -fsyntax-only {f} {s}"}
    if tools.get("plugin"):
        cmds["tidy"] = (f"{tools['clang-tidy']} --load={shlex.quote(tools['plugin'])} "
                        f"--checks='-*,warp-*' --header-filter='.*' --quiet {s} -- {f}")
    if tools.get("cli"):
        # same check list as the plugin run: a project's .clang-tidy may
        # start with -* (cccl, raft do) and must not turn the lint off
        cmds["cli"] = f"{shlex.quote(tools['cli'])} --checks='-*,warp-*' {s} -- {f}"
    if tools.get("before"):
        cmds["before"] = f"{shlex.quote(tools['before'])} --checks='-*,warp-*' {s} -- {f}"
    return cmds


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def measure(cmds, cwd, runs, warmup, json_path, memory=True, metric="cpu"):
    """Median time (s, CPU or wall) and peak RSS (MB) of each command.

    The commands are interleaved run by run (parse, tidy, cli, parse, ...) so
    that load from other users of a shared machine hits all of them alike;
    each run goes through GNU /usr/bin/time -v, which gives the peak RSS of
    the same runs that are timed. Raw samples are written to json_path.
    """
    samples = {n: [] for n in cmds}
    other = {n: [] for n in cmds}  # the metric not reported, kept in the JSON
    rss = {n: 0.0 for n in cmds}
    bad = {}
    for i in range(warmup + runs):
        for n, c in cmds.items():
            argv = (["/usr/bin/time", "-v"] if memory else []) + ["bash", "-c", c]
            t0, c0 = time.perf_counter(), children_cpu()
            p = subprocess.run(argv, cwd=cwd, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True, errors="replace")
            wall, cpu = time.perf_counter() - t0, children_cpu() - c0
            if i < warmup:
                continue
            samples[n].append(cpu if metric == "cpu" else wall)
            other[n].append(wall if metric == "cpu" else cpu)
            if p.returncode not in ((0,) if n == "parse" else (0, 1)) or \
                    re.search(r"cannot load|no checks enabled|Stack dump", p.stderr) or \
                    any("error: " in l and not re.search(r"\[warp-[a-z-]+\]$", l)
                        for l in p.stderr.splitlines()):
                why = next((l.strip()[:160] for l in p.stderr.splitlines()
                            if re.search(r"error: |cannot load|Segmentation|Stack dump", l)), "")
                bad[n] = (p.returncode, why)
            m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", p.stderr)
            if m:
                rss[n] = max(rss[n], int(m.group(1)) / 1024)
    json.dump({"runs": runs, "warmup": warmup, "commands": cmds, "metric": metric,
               "samples": samples, "other_metric_samples": other,
               "peak_rss_mb": rss, "failed_rc": bad}, open(json_path, "w"), indent=1)
    med = {n: statistics.median(v) for n, v in samples.items() if v}
    for n, (rc, why) in bad.items():  # a crashed or failing run is no timing
        FAILURES.append(f"`{n}` exited {rc} on {os.path.relpath(json_path[:-5], os.path.dirname(json_path))}"
                        f"{': ' + why if why else ''}")
        med.pop(n, None)
    return med, ({n: v for n, v in rss.items() if v} if memory else {})


def fmt(x, d=2):
    return "–" if x is None or x != x else f"{x:.{d}f}"


def ratio(a, b):
    return a / b if a is not None and b else None


def main():
    ap = argparse.ArgumentParser(description="warp-lint vs clang++-22 -fsyntax-only")
    ap.add_argument("--root", help="fetched projects (see scripts/real-projects.sh)")
    ap.add_argument("--list", default=os.path.join(HERE, "real-projects.txt"))
    ap.add_argument("--plugin", default=newest("build*/checks/libWarpLint.so"))
    ap.add_argument("--warp-lint", dest="cli", default=newest("build*/tool/warp-lint"))
    ap.add_argument("--before", help="an earlier warp-lint binary, timed beside --warp-lint")
    ap.add_argument("--clang", default="clang++-22")
    ap.add_argument("--clang-tidy", default="clang-tidy-22")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--metric", choices=["cpu", "wall"], default="cpu",
                    help="CPU time (user + system) or wall time")
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("--sizes", default="2500,5000,10000,20000")
    ap.add_argument("--filter", default="", help="only TUs whose path contains this")
    ap.add_argument("--no-corpus", action="store_true")
    ap.add_argument("--no-large", action="store_true")
    ap.add_argument("--no-memory", action="store_true")
    ap.add_argument("--quick", action="store_true", help="--runs 1 --warmup 0")
    ap.add_argument("--commit", help="warp-lint commit the tools were built from "
                    "(default: this checkout's HEAD, marked dirty if it has local changes)")
    ap.add_argument("--work", help="keep generated files and raw samples here")
    a = ap.parse_args()
    if a.quick:
        a.runs, a.warmup = 1, 0
    if not a.no_memory and not os.path.exists("/usr/bin/time"):
        sys.exit("benchmark.py: /usr/bin/time not found (apt-get install time)")
    if not a.no_corpus and not a.root:
        sys.exit("benchmark.py: --root <fetched projects> is required (or --no-corpus)")
    tools = {"clang++": a.clang, "clang-tidy": a.clang_tidy,
             "plugin": os.path.abspath(a.plugin) if a.plugin else None,
             "cli": os.path.abspath(a.cli) if a.cli and os.access(a.cli, os.X_OK) else None,
             "before": os.path.abspath(a.before) if a.before else None}
    work = a.work or tempfile.mkdtemp(prefix="warp-lint-bench-")
    os.makedirs(work, exist_ok=True)
    cols = ["parse"] + (["tidy"] if tools["plugin"] else []) + (["cli"] if tools["cli"] else []) + \
        (["before"] if tools["before"] else [])

    def log(*x):
        print(*x, file=sys.stderr, flush=True)

    commit = subprocess.run(["git", "-C", REPO, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", REPO, "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()
    ver = subprocess.run([a.clang, "--version"], capture_output=True, text=True).stdout.split("\n")[0]
    out = []
    label = a.commit or f"{commit}{' (dirty tree)' if dirty else ''}"
    out.append(f"### Benchmark {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, "
               f"warp-lint {label}")
    out.append("")
    out.append(f"- {ver}; host {os.uname().nodename}, {os.cpu_count()} cores (shared); "
               f"median {'CPU time (user + system)' if a.metric == 'cpu' else 'wall time'} of {a.runs} interleaved run(s) after {a.warmup} warm-up; peak RSS from GNU time -v")
    def shown(path):  # relative to the checkout: the report goes into docs/
        return os.path.relpath(path, REPO) if path else None
    out.append(f"- plugin: `{shown(tools['plugin']) or 'none'}`; warp-lint: `{shown(tools['cli']) or 'not built'}`"
               + (f"; before: `{os.path.basename(tools['before'])}`" if tools["before"] else ""))
    out.append("")

    if not a.no_corpus:
        rows, tot = [], {c: 0.0 for c in cols}
        ratios = {c: [] for c in cols if c != "parse"}
        corpus = [t for t in read_corpus(a.list, os.path.abspath(a.root)) if a.filter in t[1]]
        for i, (project, rel, flags) in enumerate(corpus):
            cwd = os.path.join(a.root, project)
            log(f"[{i + 1}/{len(corpus)}] {project}/{rel}")
            cmds = commands(tools, rel, flags)
            t, mem = measure(cmds, cwd, a.runs, a.warmup,
                             os.path.join(work, f"{project}-{re.sub(r'[^A-Za-z0-9]+', '_', rel)}.json"),
                             not a.no_memory, a.metric)
            rows.append((project, rel, t, mem))
            if all(c in t for c in cols):
                for c in cols:
                    tot[c] += t[c]
                for c in ratios:
                    ratios[c].append((t[c] / t["parse"], f"{project}/{rel}"))
        head = "| TU | parse s | " + " | ".join(
            f"{c} s | {c}/parse" for c in cols[1:]) + " | " + " | ".join(f"{c} MB" for c in cols) + " |"
        out.append(f"#### Real code: {len(rows)} translation units")
        out.append("")
        out.append(head)
        out.append("|" + "---|" * (head.count("|") - 1))
        for project, rel, t, mem in rows:
            cells = [f"{project}/{rel}", fmt(t.get("parse"))]
            for c in cols[1:]:
                cells += [fmt(t.get(c)), fmt(ratio(t.get(c), t.get("parse")), 3)]
            cells += [fmt(mem.get(c), 0) for c in cols]
            out.append("| " + " | ".join(cells) + " |")
        cells = ["**total**", fmt(tot["parse"])]
        for c in cols[1:]:
            cells += [fmt(tot[c]), "**" + fmt(ratio(tot[c], tot["parse"]), 3) + "**"]
        cells += [""] * len(cols)
        out.append("| " + " | ".join(cells) + " |")
        out.append("")
        for c, named in ratios.items():
            if named:
                rs = [r for r, _ in named]
                worst = max(named)[1]
                out.append(f"- {c}/parse: total {fmt(ratio(tot[c], tot['parse']), 3)}×, "
                           f"geometric mean {fmt(statistics.geometric_mean(rs), 3)}×, "
                           f"median {fmt(statistics.median(rs), 3)}×, worst {fmt(max(rs), 3)}× "
                           f"({worst}; targets: total ≤ 1.05×, worst ≤ 1.3×)")
        if "cli" in tot and "before" in tot:
            named = [(t["cli"] / t["before"], f"{p}/{r}") for p, r, t, _ in rows
                     if t.get("cli") and t.get("before")]
            if named:
                out.append(f"- cli/before: total {fmt(ratio(tot['cli'], tot['before']), 3)}×, "
                           f"median {fmt(statistics.median(r for r, _ in named), 3)}×, "
                           f"worst {fmt(max(named)[0], 3)}× ({max(named)[1]})")
        out.append("")

    if not a.no_large:
        sizes = [int(x) for x in a.sizes.split(",") if x]
        out.append("#### Generated large kernels (`scripts/gen_large_kernel.py N`)")
        out.append("")
        head = "| N stmts | parse s | " + " | ".join(
            f"{c} s | {c}/parse | {c} µs/stmt over parse" for c in cols[1:]) + " | " + \
            " | ".join(f"{c} MB" for c in cols) + " |"
        out.append(head)
        out.append("|" + "---|" * (head.count("|") - 1))
        flags = base_flags("sm_90") + ["-std=c++17"]
        for n in sizes:
            src = os.path.join(work, f"large_{n}.cu")
            subprocess.run([sys.executable, os.path.join(HERE, "gen_large_kernel.py"), str(n),
                            "-o", src], check=True)
            log(f"[large] N={n}")
            cmds = commands(tools, src, flags)
            t, mem = measure(cmds, work, a.runs, a.warmup, os.path.join(work, f"large_{n}.json"),
                             not a.no_memory, a.metric)
            cells = [str(n), fmt(t.get("parse"), 3)]
            for c in cols[1:]:
                extra = (t[c] - t["parse"]) / n * 1e6 if c in t and "parse" in t else None
                cells += [fmt(t.get(c), 3), fmt(ratio(t.get(c), t.get("parse")), 3), fmt(extra, 1)]
            cells += [fmt(mem.get(c), 0) for c in cols]
            out.append("| " + " | ".join(cells) + " |")
        out.append("")
    if FAILURES:
        out.append("Failed runs (left out of the timings and totals):")
        out.append("")
        out += [f"- {f}" for f in FAILURES]
        out.append("")
    log(f"raw samples: {work}")
    print("\n".join(out))


if __name__ == "__main__":
    main()
