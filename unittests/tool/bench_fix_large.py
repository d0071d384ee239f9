#!/usr/bin/env python3
"""Benchmark (not a test): `warp-lint --fix` against a lint of the same
6 MB file, for the two shapes a large file takes:

  table   a 6 MB constant table and ten kernels with a fixable finding
  kernels 6 MB of small kernels, each with a fixable finding (~37,000)

    bench_fix_large.py <warp-lint> [--runs N] [--shape table|kernels|both]

Each run copies the file afresh; the best of N runs is reported, wall and
CPU (user + system) seconds, and the ratio --fix / lint. docs/performance.md
records the numbers.
"""
import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

KERNEL = """__global__ void kernel%d(int *out) {
  int v = threadIdx.x;
  if (threadIdx.x %% 32 < 16) v += __shfl_down_sync(0xffffffff, v, 8, 16);
  out[threadIdx.x] = v%s;
}
"""
SIZE = 6_000_000


def table_file():
    lines, size, i = ["__device__ const int table[] = {"], 0, 0
    while size < SIZE:
        line = "  " + ", ".join(str((i * 7919 + k) % 100000)
                                for k in range(16)) + ","
        lines.append(line)
        size += len(line) + 1
        i += 1
    lines.append("  0};")
    return "\n".join(lines) + "\n" + "".join(
        KERNEL % (j, " + table[%d]" % j) for j in range(10))


def kernels_file():
    out, size, j = [], 0, 0
    while size < SIZE:
        k = KERNEL % (j, "")
        out.append(k)
        size += len(k)
        j += 1
    return "".join(out)


def timed(cmd, cwd):
    """Wall and CPU seconds of one run of cmd (a child process)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if p.returncode not in (0, 1):
        sys.exit("%s failed (%d): %s" % (" ".join(cmd), p.returncode,
                                         p.stderr[-500:]))
    return wall, cpu


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("warp_lint")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--shape", default="both",
                    choices=["table", "kernels", "both"])
    o = ap.parse_args()
    tool = os.path.abspath(o.warp_lint)
    shapes = ["table", "kernels"] if o.shape == "both" else [o.shape]
    with tempfile.TemporaryDirectory(prefix="warp-lint-bench-") as tmp:
        for shape in shapes:
            text = table_file() if shape == "table" else kernels_file()
            best = {}
            for _ in range(o.runs):
                # Alternate, so that a change of load hits both alike.
                for mode in ("lint", "fix"):
                    with open(os.path.join(tmp, "big.cu"), "w") as f:
                        f.write(text)
                    cmd = [tool, "--quiet", "-j", "1", "big.cu"]
                    if mode == "fix":
                        cmd.insert(1, "--fix")
                    wall, cpu = timed(cmd, tmp)
                    w, c = best.get(mode, (wall, cpu))
                    best[mode] = (min(w, wall), min(c, cpu))
            (lw, lc), (fw, fc) = best["lint"], best["fix"]
            print("%-8s %.1f MB: lint %.2f s wall %.2f s cpu; --fix %.2f s "
                  "wall %.2f s cpu; --fix/lint %.2fx wall %.2fx cpu" % (
                      shape, len(text) / 1e6, lw, lc, fw, fc, fw / lw,
                      fc / lc))
    return 0


if __name__ == "__main__":
    sys.exit(main())
