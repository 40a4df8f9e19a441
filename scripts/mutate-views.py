#!/usr/bin/env python3
"""mutate-views.py - one-number mutants of the example kernels, run and checked.

Every silent wrong answer the scheduler ever gave came from a kernel whose
memory views and access tiles disagree with each other in one number: a
coordinate_set bound tighter than the view's sizes, an access-tile origin
moved, a stride or a tile multiplier changed. This script writes, for each
kernel of examples/kernels that the scheduler compiles, every mutant that
changes one integer literal of an affine_set, of a memory view's sizes or
strides, of an access tile's anchor or of an index constant (to v - 1,
v + 1, 2v and v / 2), runs each with `ktflow run --check` on each device
with the kernel's outputs pre-filled with 7, and classifies the outcome:

  pass      the simulator matches the reference interpreter (and the
            elements the kernel does not write still hold 7)
  refused   a located error (`FILE:LINE:COL: error:`), from the compiler or
            the reference interpreter
  WRONG     the check failed: a silent wrong answer
  CRASH     a signal, an LLVM fatal error, a timeout or an unlocated error

Usage: scripts/mutate-views.py [--ktflow build/bin/ktflow] [--devices a,b]
           [--kernels add,row_reduce] [-O0] [--pairs] [--jobs N]
           [--keep DIR] [-v]
Prints one line per WRONG/CRASH mutant and a summary; exits 1 if any.
"""

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The kernels the scheduler compiles, with the runtime arguments they need.
KERNELS = {
    "add": [], "add_loop": [], "add_runtime_arg": ["M_arg=96"],
    "bias_loop": [], "broadcast_add": [], "broadcast_row": [],
    "broadcast_scalar": [], "col_reduce": [], "dynamic_mask": ["N_arg=100"],
    "elementwise": [], "gelu_spyreop": [], "layernorm": [], "rmsnorm": [],
    "rope": [], "row_reduce": [], "softmax": [], "inter_tile_broadcast": [],
}
DEVICES = ["sample_device", "mesh_device", "spyre_like"]

NUMBER = re.compile(r"(?<![\w%#.x])(\d+)(?![\w.x])")


def mutable_spans(line):
    """(start, end) of the integer literals of `line` worth mutating."""
    spans = []
    if re.match(r"\s*#\w+ = affine_set<", line):
        body = line.index(":")  # skip the dimension list
        # Not the right-hand side of a constraint (`expr >= 0`).
        spans += [m.span(1) for m in NUMBER.finditer(line, body)
                  if not line[:m.start(1)].endswith(("= ", "=="))]
    elif "ktdp.construct_memory_view" in line:
        for key in ("sizes: [", "strides: ["):
            at = line.find(key)
            if at >= 0:
                end = line.index("]", at)
                spans += [m.span(1) for m in NUMBER.finditer(line, at, end)]
    elif "ktdp.construct_access_tile" in line:
        at = line.index("[")
        end = line.index("]", at)
        spans += [m.span(1) for m in NUMBER.finditer(line, at, end)]
    elif re.search(r"arith\.constant \d+ : index", line):
        m = re.search(r"arith\.constant (\d+) : index", line)
        spans.append(m.span(1))
    return spans


def mutants(text):
    """(description, mutated text) for every one-number mutation."""
    lines = text.split("\n")
    for n, line in enumerate(lines):
        if line.lstrip().startswith("//"):
            continue
        for start, end in mutable_spans(line):
            v = int(line[start:end])
            for w in sorted({v - 1, v + 1, 2 * v, v // 2} - {v}):
                if w < 0 and "affine_set" not in line:
                    continue
                mutated = line[:start] + str(w) + line[end:]
                yield ("line %d col %d: %d -> %d" % (n + 1, start + 1, v, w),
                       "\n".join(lines[:n] + [mutated] + lines[n + 1:]))


def pair_mutants(text):
    """Two-number mutants: an access-tile anchor literal moved by one,
    together with an affine_set or memory-view literal changed by one (e.g.
    a tile moved one column right and its view's set widened to match)."""
    lines = text.split("\n")
    anchors, others = [], []
    for n, line in enumerate(lines):
        if line.lstrip().startswith("//"):
            continue
        for span in mutable_spans(line):
            if "ktdp.construct_access_tile" in line:
                anchors.append((n, span))
            elif "affine_set<" in line or "construct_memory_view" in line:
                others.append((n, span))
    for n1, (s1, e1) in anchors:
        v1 = int(lines[n1][s1:e1])
        for w1 in (v1 - 1, v1 + 1):
            if w1 < 0:
                continue
            for n2, (s2, e2) in others:
                v2 = int(lines[n2][s2:e2])
                for w2 in (v2 - 1, v2 + 1):
                    if w2 < 0 and "affine_set" not in lines[n2]:
                        continue
                    edited = list(lines)
                    edited[n1] = lines[n1][:s1] + str(w1) + lines[n1][e1:]
                    edited[n2] = lines[n2][:s2] + str(w2) + lines[n2][e2:]
                    yield ("line %d col %d: %d -> %d and line %d col %d: "
                           "%d -> %d" % (n1 + 1, s1 + 1, v1, w1, n2 + 1,
                                         s2 + 1, v2, w2),
                           "\n".join(edited))


def outputs_of(ktflow, path, args):
    """Names of the tensors the kernel writes, from the interpreter."""
    cmd = [ktflow, "interp", path] + ["--arg=" + a for a in args]
    out = subprocess.run(cmd, capture_output=True, text=True).stdout
    return [l.split(":")[0] for l in out.splitlines() if ": shape=" in l]


def classify(proc):
    text = proc.stdout + proc.stderr
    if proc.returncode == 0 and text.rstrip().endswith("PASS"):
        return "pass", ""
    if proc.returncode < 0 or proc.returncode >= 128 or \
            "LLVM ERROR" in text or "Stack dump" in text:
        return "CRASH", text.strip().splitlines()[-1] if text.strip() else ""
    fail = [l for l in text.splitlines() if " FAIL" in l]
    if fail:
        return "WRONG", fail[0].strip()
    located = re.search(r"^\S+:\d+:\d+: error: .*$", text, re.M)
    if located:
        return "refused", located.group(0)
    return "CRASH", (text.strip().splitlines() or [""])[0]


def run_one(job):
    ktflow, path, device, args, outputs, o0 = job
    cmd = [ktflow, "run", path, "--arch",
           os.path.join(ROOT, "examples/devices", device + ".mlir"), "--check"]
    cmd += ["--arg=" + a for a in args]
    cmd += ["--input=%s=value:7" % o for o in outputs]
    if o0:
        cmd.append("--O0")
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return "CRASH", "timeout"
    return classify(proc)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--ktflow", default=os.path.join(ROOT, "build/bin/ktflow"))
    p.add_argument("--devices", default=",".join(DEVICES))
    p.add_argument("--kernels", default=",".join(KERNELS))
    p.add_argument("-O0", dest="o0", action="store_true")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--keep", help="directory for the mutants' files")
    p.add_argument("--pairs", action="store_true",
                   help="two-number mutants (an anchor and a set or view "
                        "literal) instead of one-number ones")
    p.add_argument("-v", dest="verbose", action="store_true",
                   help="print every outcome, not only WRONG and CRASH")
    opts = p.parse_args()

    work = opts.keep or tempfile.mkdtemp(prefix="ktflow-mutants-")
    os.makedirs(work, exist_ok=True)
    jobs, names = [], []
    for kernel in opts.kernels.split(","):
        src = os.path.join(ROOT, "examples/kernels", kernel + ".mlir")
        args = KERNELS[kernel]
        outputs = outputs_of(opts.ktflow, src, args)
        with open(src) as f:
            text = f.read()
        generate = pair_mutants if opts.pairs else mutants
        for i, (what, mutated) in enumerate(generate(text)):
            path = os.path.join(work, "%s.%03d.mlir" % (kernel, i))
            with open(path, "w") as f:
                f.write("%s// mutant of %s.mlir, %s\n" % (mutated, kernel, what))
            for device in opts.devices.split(","):
                jobs.append((opts.ktflow, path, device, args, outputs, opts.o0))
                names.append("%s %s (%s) on %s" % (kernel, what,
                                                   os.path.basename(path),
                                                   device))
    counts = {}
    bad = 0
    with concurrent.futures.ThreadPoolExecutor(opts.jobs) as pool:
        for name, (kind, detail) in zip(names, pool.map(run_one, jobs)):
            counts[kind] = counts.get(kind, 0) + 1
            if kind in ("WRONG", "CRASH"):
                bad += 1
            if kind in ("WRONG", "CRASH") or opts.verbose:
                print("%s: %s: %s" % (kind, name, detail), flush=True)
    print("%d runs: %s" % (len(jobs), ", ".join(
        "%d %s" % (n, k) for k, n in sorted(counts.items()))))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
