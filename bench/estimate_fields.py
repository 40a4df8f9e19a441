#!/usr/bin/env python3
"""Prints what the analytic estimate says of every kernel, for a diff.

A change to the cost model's speed (bench/README.md, "Speed of the cost
model") must leave its estimates bit-identical. This prints, one line per
run, the estimate fields of `ktflow run --json` (every key under
"estimate", and any other key naming an estimate) for the shipped examples,
the realworld kernels (their scalar arguments from
examples/kernels/realworld/README.md) and the production bench kernels
(bench/schedule.py) on the three devices, then the `ktflow compile --tune
--tune-simulate=0 --json` report of a few kernels without its times. Run it
with the binary before and after the change and diff the two outputs:

    bench/estimate_fields.py --ktflow OLD/ktflow > before.txt
    bench/estimate_fields.py --ktflow NEW/ktflow > after.txt
    diff before.txt after.txt

With --errors it prints instead, per run, the estimate's error against the
simulated cycles and marks the runs outside issue 14's band (5 % or 200
cycles, whichever is larger), then lists those runs:

    bench/estimate_fields.py --errors
"""

import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import schedule  # noqa: E402  (PRODUCTION, SHIPPED, DEVICES)

REALWORLD = os.path.join("examples", "kernels", "realworld")

# Kernels that need arguments or inputs neither table gives (those of
# their tests).
EXTRA = {
    os.path.join("examples", "kernels", "while_loop.mlir"): ["M_arg=256"],
    os.path.join(REALWORLD, "gather2d_literal.mlir"): [
        "--input=@4096=range:0:64", "--input=@8192=range:0:64"],
}

# --tune reports compared (kernel path relative to the repository, args).
TUNED = [
    (os.path.join(REALWORLD, "row_stats.mlir"), ["n_rows=64"]),
    (os.path.join(REALWORLD, "layernorm_rows.mlir"),
     ["n_rows=67", "N=512", "eps=1e-5"]),
    (os.path.join(REALWORLD, "rmsnorm_2x2.mlir"), ["eps=1e-5"]),
    (os.path.join(REALWORLD, "splitk_pv.mlir"), []),
    schedule.PRODUCTION["softmax_4096x1024"],
    schedule.PRODUCTION["layernorm_1151x8192"],
    schedule.PRODUCTION["rope_163840x128"],
]


def realworld_args():
    """NAME.mlir -> [NAME=VALUE...] from the realworld README's table."""
    args = {}
    with open(os.path.join(ROOT, REALWORLD, "README.md")) as f:
        for line in f:
            m = re.match(r"\| `([\w.]+)` \| `([^`]*)`", line)
            if m:
                args[m.group(1)] = m.group(2).split()
    return args


def kernels():
    """(path relative to the repository, args) of every kernel run."""
    shipped = {path: args for path, args in schedule.SHIPPED.values()}
    found = []
    for path in sorted(glob.glob(os.path.join(ROOT, "examples", "kernels",
                                              "*.mlir"))):
        rel = os.path.relpath(path, ROOT)
        found.append((rel, shipped.get(rel, EXTRA.get(rel, []))))
    rw = realworld_args()
    for path in sorted(glob.glob(os.path.join(ROOT, REALWORLD, "*.mlir")) +
                       glob.glob(os.path.join(ROOT, REALWORLD, "*.ktir"))):
        rel = os.path.relpath(path, ROOT)
        found.append((rel, rw.get(os.path.basename(path), EXTRA.get(rel, []))))
    for name in sorted(schedule.PRODUCTION):
        found.append(schedule.PRODUCTION[name])
    return found


def estimate_fields(value, path=""):
    """Every key under "estimate", and every other key naming one."""
    if isinstance(value, dict):
        out = {}
        for key, item in sorted(value.items()):
            here = path + "/" + key
            if "estimate" in key:
                out[here] = item
            else:
                out.update(estimate_fields(item, here))
        return out
    if isinstance(value, list):
        out = {}
        for i, item in enumerate(value):
            out.update(estimate_fields(item, "%s[%d]" % (path, i)))
        return out
    return {}


def without_times(value):
    """`value` without the keys that hold times (they differ run to run)."""
    if isinstance(value, dict):
        return {k: without_times(v) for k, v in value.items()
                if not k.endswith("_ms") and k != "ms"}
    if isinstance(value, list):
        return [without_times(v) for v in value]
    return value


def first_error(text):
    m = re.search(r"error: (.*)", text)
    return m.group(1) if m else text.strip().splitlines()[-1:]


def outside_band(estimate, cycles):
    """Whether `estimate` misses `cycles` by more than issue 14 allows."""
    return abs(estimate - cycles) > max(0.05 * cycles, 200)


def print_errors(ktflow):
    """One line per run: cycles, estimate, error; then the misses."""
    misses = []
    for device in schedule.DEVICES:
        arch = os.path.join(ROOT, "examples", "devices", device + ".mlir")
        for path, args in kernels():
            run = subprocess.run([ktflow, "run", os.path.join(ROOT, path),
                                  "--arch", arch, "--json"] +
                                 schedule.argv_of(args),
                                 capture_output=True, text=True)
            try:
                report = json.loads(run.stdout)
                cycles = report["cycles"]
                estimate = report["estimate"]["cycles"]
            except (ValueError, KeyError):
                print("%-55s %-13s error: %s" %
                      (path, device, first_error(run.stderr)))
                continue
            error = 100.0 * (estimate - cycles) / cycles if cycles else 0.0
            line = "%-55s %-13s %10d %10d %+8.2f %%" % (
                path, device, cycles, estimate, error)
            if outside_band(estimate, cycles):
                line += "  OUTSIDE"
                misses.append(line)
            print(line)
            sys.stdout.flush()
    print("%d runs outside the band" % len(misses))
    for line in misses:
        print(line)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ktflow",
                        default=os.path.join(ROOT, "build", "bin", "ktflow"))
    parser.add_argument("--errors", action="store_true",
                        help="print each run's estimate error against the "
                        "simulated cycles instead of the estimate fields")
    options = parser.parse_args()
    if options.errors:
        print_errors(options.ktflow)
        return 0
    for device in schedule.DEVICES:
        arch = os.path.join(ROOT, "examples", "devices", device + ".mlir")
        for path, args in kernels():
            run = subprocess.run([options.ktflow, "run",
                                  os.path.join(ROOT, path), "--arch", arch,
                                  "--json"] + schedule.argv_of(args),
                                 capture_output=True, text=True)
            try:
                fields = estimate_fields(json.loads(run.stdout))
            except ValueError:
                fields = {"error": first_error(run.stderr)}
            print("run %s %s: %s" % (path, device,
                                     json.dumps(fields, sort_keys=True)))
            sys.stdout.flush()
    with tempfile.TemporaryDirectory() as scratch:
        for device in schedule.DEVICES:
            arch = os.path.join(ROOT, "examples", "devices", device + ".mlir")
            for path, args in TUNED:
                tuned = subprocess.run(
                    [options.ktflow, "compile", os.path.join(ROOT, path),
                     "--arch", arch, "--tune", "--tune-simulate=0", "--json",
                     "-o", os.path.join(scratch, "tuned.ktfb")] +
                    schedule.argv_of(args), capture_output=True, text=True)
                try:
                    report = without_times(json.loads(tuned.stdout))
                    report.pop("output", None)
                except ValueError:
                    report = {"error": first_error(tuned.stderr)}
                print("tune %s %s: %s" % (path, device,
                                          json.dumps(report, sort_keys=True)))
                sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
