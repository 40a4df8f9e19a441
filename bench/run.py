#!/usr/bin/env python3
"""Times whole `ktflow interp` processes on the benchmark kernels (issue 18).

For each kernel of bench/kernels: writes its inputs once as .npy files
(f16: a fixed pseudo-random pattern in [-2, 2); index tensors: valid
indices; no numpy needed), then runs
`ktflow interp KERNEL --input NAME=FILE.npy ... --engine=E` five times per
engine and reports the median wall time of the whole process, next to the
published ktir-cpu figure of issue 18, with the user CPU time of that
run (the machine may be shared: user time is the steadier figure) and the
1-minute load average when the row was done. The jit
engine first runs once with an empty object cache (its cold compile time
is reported), then the timed runs load the cached object; the load and
tile-run times of the median run come from its note, and the least wall
time of the jit's runs is reported beside the median. Not part of CI: the
large shapes take seconds per run.

  python3 bench/run.py [--ktflow build/bin/ktflow] [--runs 5] [KERNEL ...]
"""

import argparse
import os
import re
import resource
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# name: (file, {input: shape of f16 | (integer descr, shape, value of element
# k)}, [--arg values], ktir-cpu seconds from issue 18)
KERNELS = {
    "softmax 4096x1024": ("softmax_4096x1024.mlir",
                          {"input_ptr": (4096, 1024)}, ["n_rows=4096"], 3.09),
    "layernorm 1151x8192": ("layernorm_1151x8192.mlir",
                            {"X_ptr": (1151, 8192), "W_ptr": (8192,),
                             "B_ptr": (8192,)},
                            ["n_rows=1151", "N=8192", "eps=1e-5"], 4.92),
    "RoPE 163840x128": ("rope_163840x128.mlir",
                        {"x_ptr": (163840, 128), "cos_ptr": (4096, 64),
                         "sin_ptr": (4096, 64)}, [], 1.16),
    "RMSNorm 256x4096 [4,1]": ("rmsnorm_256x4096.mlir",
                               {"x_ptr": (256, 4096), "w_ptr": (4096,)},
                               ["n_rows=256", "eps=1e-5"], 0.36),
    "RMSNorm 256x4096 [2,2]": ("rmsnorm_256x4096_2x2.mlir",
                               {"x_ptr": (1048576,), "w_ptr": (4096,)},
                               ["eps=1e-5"], 0.59),
    "matmul 64x2048 . 2048x8192": ("matmul_64x2048x8192.mlir",
                                   {"a_ptr": (64, 2048), "b_ptr": (2048, 8192)},
                                   ["K=2048"], 6.57),
    "paged attention 4x8": ("paged_attention_4x8.mlir",
                            {"q_ptr": (4, 64, 128), "k_ptr": (64, 16, 8, 128),
                             "v_ptr": (64, 16, 8, 128),
                             # A permutation of the 64 pages, 8 per sequence.
                             "bt_ptr": ("<i4", (4, 8),
                                        lambda k: (k * 37 + 11) % 64)},
                            ["scale=0.088388347"], 6.56),
    "indexed gather-add 2048x1024": (
        "indexed_add_2048x1024.mlir",
        {"table_ptr": (16384, 2048),
         # Distinct rows of the table, scattered.
         "idx_ptr": ("<i8", (2048,), lambda k: (k * 7919) % 16384),
         "y_ptr": (2048, 1024)},
        ["start=512"], 0.36),
    "vector add 4096": ("vector_add_4096.mlir",
                        {"x_ptr": (4096,), "y_ptr": (4096,)}, [], 0.003),
}


def npy_header(descr, shape):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (
        descr, "(%d,)" % shape[0] if len(shape) == 1 else str(tuple(shape)))
    header += " " * (63 - (len(header) + 10) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + \
        header.encode()


def write_npy(path, spec):
    """A shape: f16 values (k * 0.37 mod 4) - 2, repeating every 4096.
    (descr, shape, f): integers f(k) of the little-endian type descr."""
    if isinstance(spec[0], str):
        descr, shape, value = spec
        count = 1
        for extent in shape:
            count *= extent
        with open(path, "wb") as f:
            f.write(npy_header(descr, shape))
            f.write(struct.pack("<%d%s" % (count, {"<i4": "i", "<i8": "q"}[descr]),
                                *[value(k) for k in range(count)]))
        return
    shape = spec
    count = 1
    for extent in shape:
        count *= extent
    pattern = struct.pack("<4096e", *[((k * 0.37) % 4.0) - 2.0
                                       for k in range(4096)])
    with open(path, "wb") as f:
        f.write(npy_header("<f2", shape))
        full, rest = divmod(count, 4096)
        for _ in range(full):
            f.write(pattern)
        f.write(pattern[:2 * rest])


def time_runs(cmd, runs, env):
    """(wall seconds, user CPU seconds, stderr) of the median run, and the
    least wall seconds of all."""
    results = []
    for _ in range(runs):
        user = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
        start = time.perf_counter()
        proc = subprocess.run(cmd, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True, env=env)
        wall = time.perf_counter() - start
        user = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - user
        if proc.returncode != 0:
            sys.exit("failed: %s\n%s" % (" ".join(cmd), proc.stderr))
        results.append((wall, user, proc.stderr))
    results.sort(key=lambda r: r[0])
    return results[runs // 2] + (results[0][0],)


def jit_note(name, note):
    match = re.search(r"compiled in (\d+) ms( from the cache)?, ran in (\d+) ms",
                      note)
    if not match:
        sys.exit("%s: the jit did not run: %s" % (name, note.strip()))
    return int(match.group(1)), bool(match.group(2)), int(match.group(3))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ktflow", default=os.path.join(
        HERE, "..", "build", "bin", "ktflow"))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--no-interp", action="store_true",
                        help="time only the jit (the interp column empty)")
    parser.add_argument("kernels", nargs="*", default=list(KERNELS))
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ktflow-bench-") as tmp:
        print("| kernel | ktir-cpu | interp (user) | jit (user) | jit min "
              "| jit compile cold / cached | jit run | ktir-cpu / jit "
              "| load |")
        print("|---|---|---|---|---|---|---|---|---|")
        for name in options.kernels:
            file, inputs, args, reference = KERNELS[name]
            cmd = [options.ktflow, "interp", os.path.join(HERE, "kernels", file)]
            for arg in args:
                cmd += ["--arg", arg]
            for input_name, shape in inputs.items():
                path = os.path.join(tmp, input_name + ".npy")
                write_npy(path, shape)
                cmd += ["--input", "%s=%s" % (input_name, path)]
            env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, name))
            interp, interp_user = float("nan"), float("nan")
            if not options.no_interp:
                interp, interp_user, _, _ = time_runs(
                    cmd + ["--engine=interp"], options.runs, env)
            _, _, note, _ = time_runs(cmd + ["--engine=jit"], 1, env)
            cold, cached, _ = jit_note(name, note)
            if cached:
                sys.exit("%s: the first run found a cached object" % name)
            jit, jit_user, note, jit_min = time_runs(cmd + ["--engine=jit"],
                                                     options.runs, env)
            load, _, run = jit_note(name, note)
            print("| %s | %.3f s | %.3f s (%.2f) | %.3f s (%.2f) | %.3f s "
                  "| %d / %d ms | %d ms | %.1fx | %.1f |" % (
                      name, reference, interp, interp_user, jit, jit_user,
                      jit_min, cold, load, run, reference / jit,
                      os.getloadavg()[0]),
                  flush=True)


if __name__ == "__main__":
    main()
