#!/usr/bin/env python3
"""fuzz-kernels.py - differential testing of the scheduler with random
kernels: every kernel scripts/ktirgen.py draws is compiled and simulated
for each shipped device with `ktflow run --check`, which compares the
simulated outputs with the reference interpreter's (pre-filled with 7, so
elements the kernel does not write must keep it).

Each run is classified:
  pass     the check passed
  refused  non-zero exit with an `error:` line: the kernel left the subset
           the scheduler supports (counted, not a failure; the rate says
           how well the generator stays inside it)
  FAIL     the check failed: a wrong answer
  CRASH    a signal, `LLVM ERROR`, a stack dump, an internal error (exit
           70) or a non-zero exit without an `error:` line
  HANG     over the timeout
  INVALID  `ktflow check` rejects the kernel: a bug of the generator

--families picks what is drawn: `rows` (scripts/ktirgen.py's row kernels,
the default), `matmul`, `allreduce`, `distributed` (scripts/ktirblocks.py)
or `all`; case i draws family number i mod F of the list, so the row
kernels of seed S are the same whatever else is drawn beside them.

Case i uses seed S + i, so `--seed S+i --cases 1` reproduces it. A failing
case prints its seed, writes its kernel, and (unless --no-shrink) shrinks
its spec (dropping ops, the grid, loop trips, padding, slack, halving the
tile) while the same device still gives the same class, and writes the
smallest kernel found. Exits 1 if any case failed.

Usage: scripts/fuzz-kernels.py [--cases N] [--seed S] [--jobs J]
           [--families rows,matmul,allreduce,distributed | all]
           [--ktflow build/bin/ktflow] [--devices a,b] [--out DIR]
           [--timeout SEC] [--no-shrink] [-v]
"""

import argparse
import concurrent.futures
import os
import random
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ktirgen  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEVICES = ["spyre_like", "sample_device", "mesh_device"]
FAILURES = ("FAIL", "CRASH", "HANG", "INVALID")


def classify(proc):
    text = proc.stdout + proc.stderr
    if proc.returncode == 0 and text.rstrip().endswith("PASS"):
        return "pass", ""
    if proc.returncode < 0 or proc.returncode >= 128 or \
            proc.returncode == 70 or "LLVM ERROR" in text or \
            "Stack dump" in text:
        return "CRASH", (text.strip().splitlines() or [""])[-1]
    fail = [l for l in text.splitlines() if l.rstrip().endswith(" FAIL")]
    if fail or (proc.returncode != 0 and text.rstrip().endswith("FAIL")):
        return "FAIL", (fail or ["FAIL"])[0].strip()
    error = re.search(r"^.*error: .*$", text, re.M)
    if proc.returncode != 0 and error:
        return "refused", error.group(0)
    return "CRASH", (text.strip().splitlines() or [""])[0]


def run_case(opts, spec, path, device):
    with open(path, "w") as f:
        f.write(ktirgen.render(spec))
    cmd = [opts.ktflow, "run", path, "--check", "--arch",
           os.path.join(ROOT, "examples/devices", device + ".mlir")]
    cmd += ["--arg=" + a for a in ktirgen.run_args(spec)]
    cmd += ["--input=%s=value:7" % o for o in ktirgen.outputs(spec)]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True,
                              timeout=opts.timeout)
    except subprocess.TimeoutExpired:
        return "HANG", "over %g s" % opts.timeout
    return classify(proc)


def shrink(opts, spec, device, kind, path):
    """Greedy: take the first smaller spec that fails the same way."""
    steps = 0
    progress = True
    while progress and steps < 60:
        progress = False
        for cand in ktirgen.shrink_candidates(spec):
            steps += 1
            if run_case(opts, cand, path, device)[0] == kind:
                spec, progress = cand, True
                break
    with open(path, "w") as f:
        f.write(ktirgen.render(spec))
    return spec


def one_case(opts, seed):
    family = opts.families[(seed - opts.seed) % len(opts.families)]
    spec = ktirgen.draw_spec(random.Random(seed), family)
    results = []
    path = os.path.join(opts.out, "case-%d.mlir" % seed)
    with open(path, "w") as f:
        f.write(ktirgen.render(spec))
    proc = subprocess.run([opts.ktflow, "check", path], capture_output=True,
                          text=True)
    if proc.returncode != 0:  # the generator left KTIR itself
        return seed, spec, [("ktflow check", "INVALID", (
            proc.stderr.strip().splitlines() or [""])[0], path)]
    os.remove(path)
    for device in opts.devices:
        path = os.path.join(opts.out, "case-%d-%s.mlir" % (seed, device))
        kind, detail = run_case(opts, spec, path, device)
        if kind not in FAILURES:
            os.remove(path)
        elif not opts.no_shrink:
            small = os.path.join(opts.out, "case-%d-%s.min.mlir" % (seed,
                                                                    device))
            shrink(opts, spec, device, kind, small)
            detail += " (shrunk: %s)" % small
        results.append((device, kind, detail, path))
    return seed, spec, results


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--cases", type=int, default=20)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--ktflow", default=os.path.join(ROOT, "build/bin/ktflow"))
    p.add_argument("--devices", default=",".join(DEVICES))
    p.add_argument("--families", default="rows")
    p.add_argument("--out", help="directory for failing kernels")
    p.add_argument("--timeout", type=float, default=60)
    p.add_argument("--no-shrink", action="store_true")
    p.add_argument("-v", dest="verbose", action="store_true")
    opts = p.parse_args()
    opts.devices = opts.devices.split(",")
    opts.families = (["rows"] + ktirgen.ktirblocks.FAMILIES
                     if opts.families == "all" else opts.families.split(","))
    opts.out = opts.out or tempfile.mkdtemp(prefix="ktflow-fuzz-")
    os.makedirs(opts.out, exist_ok=True)

    counts = {d: {} for d in opts.devices + ["ktflow check"]}
    failed = 0
    seeds = range(opts.seed, opts.seed + opts.cases)
    with concurrent.futures.ThreadPoolExecutor(opts.jobs) as pool:
        for seed, spec, results in pool.map(lambda s: one_case(opts, s),
                                            seeds):
            for device, kind, detail, path in results:
                counts[device][kind] = counts[device].get(kind, 0) + 1
                if kind in FAILURES:
                    failed += 1
                    print("%s: seed %d (%s style, %s) on %s: %s; kernel %s" % (
                        kind, seed, spec["style"],
                        spec.get("family") or spec["mode"], device,
                        detail, path), flush=True)
                elif opts.verbose:
                    print("%s: seed %d on %s: %s" % (kind, seed, device,
                                                     detail), flush=True)
    invalid = counts["ktflow check"].get("INVALID", 0)
    print("invalid kernels (a generator bug): %d" % invalid)
    for device in opts.devices:
        c = counts[device]
        print("%-14s %d runs: %s" % (device, sum(c.values()), ", ".join(
            "%d %s" % (c.get(k, 0), k)
            for k in ("pass", "refused", "FAIL", "CRASH", "HANG"))))
    print("failures: %d" % failed)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
