#!/usr/bin/env python3
"""Schedules against the roofline (issue 14): every kernel on every device.

For each shipped example kernel (examples/kernels) and each production-size
kernel (bench/kernels, with the --arg values of the field guide's shapes),
on each shipped device: `ktflow run --json` gives the simulated cycles and
the roofline's compute, memory and binding bounds (docs/roofline.md); the
ratio is cycles over the binding bound. The estimate column is the cost
model's whole-kernel estimate when `ktflow run --json` reports one
(`estimate.cycles`), with its error against the simulated cycles. Compile ms
is the CPU time (user + system) of `ktflow compile ... -o /dev/null`: wall
time on a shared machine measured the load more than the compiler. A kernel that does
not compile shows the first error's short reason. With --check every run
is also verified against the reference interpreter (slow at production
sizes: the interpreter runs the whole kernel). With --tune, `ktflow run
--tune --json` adds the tuned cycles, the schedule chosen and the wall time
of the search (docs/scheduler.md, "Tuning"); every other column stays the
default schedule's.

  python3 bench/schedule.py [--ktflow build/bin/ktflow] [--check] [--tune]
      [--devices D,...] [--production-only] [KERNEL ...] > bench/results.md
"""

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DEVICES = ["spyre_like", "mesh_device", "sample_device"]

# name: (file relative to the repository, [--arg values, or
# "--input=NAME=SPEC" for an input])
PRODUCTION = {
    "softmax_4096x1024": ("bench/kernels/softmax_4096x1024.mlir",
                          ["n_rows=4096"]),
    "layernorm_1151x8192": ("bench/kernels/layernorm_1151x8192.mlir",
                            ["n_rows=1151", "N=8192", "eps=1e-5"]),
    "rmsnorm_256x4096": ("bench/kernels/rmsnorm_256x4096.mlir",
                         ["n_rows=256", "eps=1e-5"]),
    # The [2, 2] variant: a per-row all-reduce inside the 128-trip row loop.
    "rmsnorm_256x4096_2x2": ("bench/kernels/rmsnorm_256x4096_2x2.mlir",
                             ["eps=1e-5"]),
    "rope_163840x128": ("bench/kernels/rope_163840x128.mlir", []),
    "vector_add_4096": ("bench/kernels/vector_add_4096.mlir", []),
    "vector_add_1048576": ("bench/kernels/vector_add_1048576.mlir",
                           ["n_elements=1048576"]),
    # Issue 15's matrix products.
    "matmul_64x2048x8192": ("bench/kernels/matmul_64x2048x8192.mlir",
                            ["K=2048"]),
    "matmul_1024x1024x1024": ("bench/kernels/matmul_1024x1024x1024.mlir",
                              ["K=1024"]),
    "attention_1024x1024x128": ("bench/kernels/attention_1024x1024x128.mlir",
                                ["scale=0.088388347"]),
    "swiglu_ffn_64x1024x4096": ("bench/kernels/swiglu_ffn_64x1024x4096.mlir",
                                ["d_ff=4096"]),
    # Issue 16's paged attention, at the field guide's size: its block
    # table must name pages of the 64-page caches.
    "paged_attention_4x8x8x128": (
        "examples/kernels/realworld/paged_attention.mlir",
        ["scale=0.088388347", "--input=bt_ptr=range:0:64"]),
    # The same kernel in the guide's spelling: 4-d caches gathered
    # 1x16x1x128 per page, K^T as linalg.transpose(collapse_shape(gather)).
    "paged_attention_4x8_guide": (
        "bench/kernels/paged_attention_4x8.mlir",
        ["scale=0.088388347", "--input=bt_ptr=range:0:64"]),
}
SHIPPED = {
    name: ("examples/kernels/%s.mlir" % name, args)
    for name, args in [
        ("add", []), ("add_loop", []), ("add_runtime_arg", ["M_arg=1024"]),
        ("elementwise", []), ("broadcast_add", []), ("broadcast_scalar", []),
        ("broadcast_row", []), ("row_reduce", []), ("col_reduce", []),
        ("softmax", []), ("layernorm", []), ("rmsnorm", []),
        ("gelu_spyreop", []), ("rope", []), ("dynamic_mask", ["N_arg=1000"]),
        ("bias_loop", [])]
}


def first_error(text):
    """The first `error:` message, shortened to a table cell."""
    for line in text.splitlines():
        m = re.search(r"error: (.*)", line)
        if m:
            reason = m.group(1).replace("|", "/")
            return reason if len(reason) <= 90 else reason[:87] + "..."
    return text.strip().splitlines()[-1][:90] if text.strip() else "no output"


def run_timed(argv):
    """Runs argv; returns its result and the CPU milliseconds it used."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = subprocess.run(argv, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime -
                                                before.ru_stime)
    return result, cpu * 1000


def argv_of(args):
    """The ktflow options of a kernel's args ("--input=NAME=SPEC" or a
    runtime argument's NAME=VALUE)."""
    argv = []
    for arg in args:
        if arg.startswith("--input="):
            argv += ["--input", arg[len("--input="):]]
        else:
            argv += ["--arg", arg]
    return argv


def measure(ktflow, path, args, device, check, tune):
    arch = os.path.join(ROOT, "examples", "devices", device + ".mlir")
    kernel = os.path.join(ROOT, path)
    argv = argv_of(args)
    compiled, compile_ms = run_timed([ktflow, "compile", kernel, "--arch",
                                      arch, "-o", os.devnull])
    if compiled.returncode != 0:
        return {"error": first_error(compiled.stderr + compiled.stdout)}
    run = subprocess.run([ktflow, "run", kernel, "--arch", arch, "--json"] +
                         argv + (["--check"] if check else []),
                         capture_output=True, text=True)
    try:
        report = json.loads(run.stdout)
    except ValueError:
        return {"error": first_error(run.stderr + run.stdout)}
    report["compile_ms"] = compile_ms
    if tune:
        start = time.monotonic()
        tuned = subprocess.run([ktflow, "run", kernel, "--arch", arch,
                                "--json", "--tune"] + argv,
                               capture_output=True, text=True)
        try:
            report["tune"] = json.loads(tuned.stdout)["tune"]
        except (ValueError, KeyError):
            report["tune"] = {"error": first_error(tuned.stderr +
                                                   tuned.stdout)}
        report["tune"]["wall_ms"] = (time.monotonic() - start) * 1000
    return report


def tune_cells(report):
    """The tuned cycles (and schedule) and the search's milliseconds."""
    tune = report.get("tune")
    if tune is None:
        return ""
    if "error" in tune:
        return " %s | |" % tune["error"]
    return " %d (%s, %+.1f%%) | %d |" % (
        tune["cycles"], tune["schedule"], -100.0 * tune["gain"] /
        (1 + tune["gain"]), round(tune["ms"]))


def row(name, device, report, tune):
    if "error" in report:
        return "| %s | %s | | | | | | | | | not compiled: %s |%s" % (
            name, device, report["error"], " | |" if tune else "")
    roof = report["roofline"]
    cycles = report["cycles"]
    estimate = report.get("estimate", {}).get("cycles")
    if estimate is None:
        est, err = "", ""
    else:
        est = "%d" % estimate
        err = "%+.1f%%" % (100.0 * (estimate - cycles) / cycles)
    check = ""
    if "check" in report:
        check = "PASS" if report["check"]["pass"] else "FAIL"
    return "| %s | %s | %d | %d (%s) | %d | %d (%s) | %.2fx | %s | %s | %d | %s |" % (
        name, device, cycles, roof["compute"]["cycles"],
        roof["compute"].get("bottleneck", ""), roof["memory"]["cycles"],
        roof["cycles"], roof["binding"], report["ratio"], est, err,
        round(report["compile_ms"]), check) + tune_cells(report)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ktflow",
                        default=os.path.join(ROOT, "build", "bin", "ktflow"))
    parser.add_argument("--check", action="store_true",
                        help="verify every run against the interpreter")
    parser.add_argument("--tune", action="store_true",
                        help="also run `ktflow run --tune` (columns tuned, "
                        "tune ms)")
    parser.add_argument("--devices", default=",".join(DEVICES))
    parser.add_argument("--production-only", action="store_true")
    parser.add_argument("kernels", nargs="*")
    options = parser.parse_args()
    kernels = dict(PRODUCTION)
    if not options.production_only:
        kernels.update(SHIPPED)
    names = options.kernels or list(kernels)
    for name in names:
        if name not in kernels:
            sys.exit("unknown kernel '%s' (known: %s)" %
                     (name, ", ".join(kernels)))
    print("| kernel | device | cycles | compute (unit) | memory "
          "| bound (binding) | ratio | estimate | est. error | compile ms "
          "| check |" + (" tuned (schedule, cycles) | tune ms |"
                         if options.tune else ""))
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|" +
          ("---:|---:|" if options.tune else ""))
    for name in names:
        path, args = kernels[name]
        for device in options.devices.split(","):
            print(row(name, device,
                      measure(options.ktflow, path, args, device,
                              options.check, options.tune), options.tune),
                  flush=True)


if __name__ == "__main__":
    main()
