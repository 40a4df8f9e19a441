#!/usr/bin/env python3
"""mutation-campaign.py - the mutation campaign of scripts/fuzz.sh (issue 17).

Every mutant is one small corruption of a file the project ships, run
through one ktflow command:

  kernel text   examples/kernels (and realworld/) with token deletes,
                duplicates and swaps, numbers set to 0, -1, 2^31, 2^62, off
                by one or scaled, shape dims changed or made `?`, list edits,
                truncation, line edits, dropped attributes, element-type
                changes and junk; run through `check`, `interp` (the
                tree-walking interpreter and the compiled tier, which must
                print the same lines) or `run --check` on a shipped device
  value         a kernel the scheduler compiles with one numeric literal or
                one --arg value changed, outputs pre-filled with 7, through
                `run --check` on the device it compiles for
  device text   examples/devices mutated as above, through `arch-info` or
                `run --check` of a kernel that compiles on the original
  dfir text     the DataflowIR files of test/Simulator mutated as above,
                through `emit` and, when that writes a bundle, `sim`
  bundle        a bundle compiled from an example kernel with bytes flipped,
                huge LEB128 or f64 values written, bytes inserted or
                deleted, the payload truncated, or a header field changed;
                the payload size and xxh3 checksum are recomputed (unless
                the header field is the one mutated) so the mutant reaches
                the decoder, the linker and the simulator; through `inspect`
                or `sim`

Each run is classified:
  ok      exit 0 (and PASS for --check)
  error   a clean error: non-zero exit with an `error:` line
  CRASH   a signal, `LLVM ERROR`, a stack dump, an internal error (exit
          70), or a non-zero exit without an `error:` line
  HANG    over --timeout seconds (default 20); runs get --max-seconds 10,
          so a hang is a run the tool's own budget did not stop
  WRONG   `run --check` FAIL (simulator and interpreter disagree on the
          same mutant), or the two interpreter engines print different
          outputs

Mutant i of seed S draws everything from random.Random(S * 1000003 + i), so
`--seed S --first i --count 1` reproduces it. Every CRASH, HANG and WRONG
mutant is written to --out with the command line that ran it. Prints a
table per command and exits 1 if any mutant crashed, hung or was wrong.

Usage: scripts/mutation-campaign.py [--count N] [--seed S] [--first I]
           [--ktflow build/bin/ktflow] [--out DIR] [--timeout SEC]
           [--kinds kernel,value,device,dfir,bundle] [-v]
"""

import argparse
import glob
import os
import random
import re
import shlex
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import textmutators  # noqa: E402
import bundlemutators  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEVICES = ["sample_device", "mesh_device", "spyre_like"]
KINDS = {"kernel": 40, "value": 15, "device": 15, "dfir": 15, "bundle": 15}
BUDGET = ["--max-seconds", "10"]

# Runtime arguments and inputs the kernels need (as in their lit tests).
KERNEL_ARGS = {
    "add_runtime_arg": ["--arg", "M_arg=96"],
    "dynamic_mask": ["--arg", "N_arg=100"],
    "while_loop": ["--arg", "M_arg=256"],
    "softmax_rows": ["--arg", "n_rows=64"],
    "layernorm_rows": ["--arg", "n_rows=67", "--arg", "N=512", "--arg",
                       "eps=1e-5"],
    "rmsnorm_blocks": ["--arg", "n_rows=30", "--arg", "eps=1e-5"],
    "rmsnorm_2x2": ["--arg", "eps=1e-5"],
    "matmul_tiled": ["--arg", "K=256", "--arg", "BLOCK_SIZE_M=32", "--arg",
                     "BLOCK_SIZE_N=64", "--arg", "BLOCK_SIZE_K=64"],
    "sdpa_causal": ["--arg", "scale=0.17677669"],
    "vector_add_dyn": ["--arg", "n_elements=1000"],
    "row_stats": ["--arg", "n_rows=64"],
    "row_block_sum": ["--arg", "n_rows=40"],
    "indexed_add": ["--arg", "start=32", "--input", "idx_ptr=range:0:64"],
    "row_center_dyn": ["--arg", "n_rows=64", "--arg", "N=256"],
    "paged_kv_gather": ["--input", "pt_ptr=range:0:32"],
    "gather2d_literal": ["--input", "@4096=range:0:64", "--input",
                         "@8192=range:0:64"],
}


def classify(proc, check=False):
    """(class, detail) of a finished run."""
    text = proc.stdout + proc.stderr
    lines = text.strip().splitlines() or [""]
    if proc.returncode < 0 or proc.returncode >= 128 or \
            proc.returncode == 70 or "LLVM ERROR" in text or \
            "Stack dump" in text or "internal error" in text:
        hit = [l for l in lines if "internal error" in l or "LLVM ERROR" in l
               or "Assertion" in l or "runtime error" in l]
        return "CRASH", (hit or lines[-1:])[0].strip()[:200]
    if check:
        fails = [l for l in lines if l.rstrip().endswith(" FAIL")]
        if fails or (proc.returncode != 0 and lines[-1].strip() == "FAIL"):
            return "WRONG", (fails or ["FAIL"])[0].strip()[:200]
    if proc.returncode == 0:
        return "ok", ""
    err = re.search(r"^.*error: .*$", text, re.M)
    if err:
        return "error", err.group(0)[:200]
    return "CRASH", "exit %d without an error: line: %s" % (
        proc.returncode, lines[-1][:200])


class Campaign:
    def __init__(self, opts):
        self.opts = opts
        self.work = tempfile.mkdtemp(prefix="ktflow-campaign-")
        self.table = {}
        self.bad = 0
        self.kernels = sorted(
            glob.glob(os.path.join(ROOT, "examples/kernels/*.mlir")) +
            glob.glob(os.path.join(ROOT, "examples/kernels/realworld/*.mlir")))
        self.devices = [os.path.join(ROOT, "examples/devices", d + ".mlir")
                        for d in DEVICES]
        self.dfir = self.dfir_corpus()
        self.baseline()

    # -- running ----------------------------------------------------------

    def run(self, command, argv, check=False):
        """Runs `ktflow argv`, records its class under `command`."""
        full = [self.opts.ktflow] + argv
        try:
            proc = subprocess.run(full, capture_output=True,
                                  timeout=self.opts.timeout)
            proc.stdout = proc.stdout.decode("utf-8", "replace")
            proc.stderr = proc.stderr.decode("utf-8", "replace")
            kind, detail = classify(proc, check)
        except subprocess.TimeoutExpired:
            proc, kind, detail = None, "HANG", "over %g s" % self.opts.timeout
        self.note(command, kind, detail, full)
        return kind, proc

    def note(self, command, kind, detail, full):
        row = self.table.setdefault(command, {})
        row[kind] = row.get(kind, 0) + 1
        if kind in ("CRASH", "HANG", "WRONG"):
            self.bad += 1
            self.keep(command, kind, detail, full)
        elif self.opts.verbose:
            print("%s: %s: %s" % (kind, command, detail), flush=True)

    def keep(self, command, kind, detail, full):
        """Copies the mutated files of a bad run to --out."""
        tag = "m%d-%s" % (self.index, command.split()[0])
        kept = []
        for arg in full[1:]:
            for part in re.split(r"[=,]", arg):
                if part.startswith(self.work) and os.path.exists(part):
                    dest = os.path.join(self.opts.out, tag + "-" +
                                        os.path.basename(part))
                    with open(part, "rb") as src, open(dest, "wb") as dst:
                        dst.write(src.read())
                    kept.append((part, dest))
        line = " ".join(shlex.quote(a) for a in full)
        for src, dest in kept:
            line = line.replace(src, dest)
        with open(os.path.join(self.opts.out, tag + ".cmd"), "w") as f:
            f.write(line + "\n")
        print("%s: mutant %d (%s): %s\n    %s" % (kind, self.index, command,
                                               detail, line), flush=True)

    def write(self, name, data):
        path = os.path.join(self.work, name)
        with open(path, "wb") as f:
            f.write(data if isinstance(data, bytes) else data.encode())
        return path

    # -- corpora ----------------------------------------------------------

    def dfir_corpus(self):
        """(file, emit options, sim options) of each test/Simulator file."""
        corpus = []
        for path in sorted(glob.glob(os.path.join(ROOT,
                                                  "test/Simulator/*.mlir"))):
            with open(path) as f:
                text = f.read()
            emit = re.search(r"RUN: ktflow emit %s (.*?) -o", text)
            sim = re.search(r"RUN: ktflow sim %t\.ktfb (.*?)(\||$)", text,
                            re.M)
            if not emit:
                continue
            subst = {"%examples": os.path.join(ROOT, "examples"),
                     "%S": os.path.dirname(path)}
            eopts = emit.group(1)
            for k, v in subst.items():
                eopts = eopts.replace(k, v)
            inputs = re.findall(r"--(?:input|arg) [^ ]+", sim.group(1)
                                if sim else "")
            sopts = []
            for item in inputs:
                flag, spec = item.split(" ", 1)
                if "%t" in spec:
                    spec = spec.split("=")[0] + "=random"
                sopts += [flag, spec]
            corpus.append((path, shlex.split(eopts), sopts))
        return corpus

    def kernel_args(self, path):
        return KERNEL_ARGS.get(os.path.splitext(os.path.basename(path))[0],
                               [])

    def baseline(self):
        """Which (kernel, device) pairs pass `run --check` unmutated, the
        kernels' outputs, and one bundle per passing pair."""
        self.compiling = []
        self.bundles = []
        started = time.time()
        for kernel in self.kernels:
            args = self.kernel_args(kernel)
            out = subprocess.run([self.opts.ktflow, "interp", kernel] + args,
                                 capture_output=True, text=True).stdout
            outputs = [l.split(":")[0] for l in out.splitlines()
                       if ": shape=" in l]
            for device in self.devices:
                proc = subprocess.run(
                    [self.opts.ktflow, "run", kernel, "--arch", device,
                     "--check"] + args, capture_output=True, text=True)
                if proc.returncode != 0:
                    continue
                self.compiling.append((kernel, device, args, outputs))
                bundle = os.path.join(
                    self.work, "base-%d.ktfb" % len(self.bundles))
                proc = subprocess.run(
                    [self.opts.ktflow, "compile", kernel, "--arch", device,
                     "-o", bundle], capture_output=True, text=True)
                if proc.returncode == 0:
                    sim = []
                    for i, a in enumerate(args):
                        if a in ("--arg", "--input"):
                            sim += [a, args[i + 1]]
                    self.bundles.append((bundle, kernel, sim))
        print("baseline: %d kernels, %d (kernel, device) pairs compile and "
              "pass, %d DataflowIR files, %d bundles (%.0f s)" % (
                  len(self.kernels), len(self.compiling), len(self.dfir),
                  len(self.bundles), time.time() - started), flush=True)

    def sim_inputs(self, bundle_text_path, extra):
        """--input NAME=random for every input tensor of a bundle."""
        proc = subprocess.run([self.opts.ktflow, "inspect", bundle_text_path],
                              capture_output=True, text=True)
        names = re.findall(r'^\s+@\S+ : (?:in|inout) .* named "([^"]+)"',
                           proc.stdout, re.M)
        given = {a.split("=")[0] for a in extra if "=" in a}
        flags = list(extra)
        for n in names:
            if n not in given:
                flags += ["--input", n + "=random"]
        return flags

    # -- mutant kinds -----------------------------------------------------

    def kernel_mutant(self, rng):
        src = rng.choice(self.kernels)
        with open(src, "rb") as f:
            text = f.read().decode()
        mutant, what = textmutators.mutate(rng, text)
        ext = os.path.splitext(src)[1]
        path = self.write("k%d%s" % (self.index, ext), mutant)
        args = self.kernel_args(src)
        pick = rng.random()
        if pick < 0.3:
            self.run("check", ["check", path])
        elif pick < 0.6:
            # A budget makes `auto` choose the interpreter: the compiled
            # tier runs without one (a hang there is over --timeout).
            seed = ["--seed", "3"] + args
            kind, a = self.run("interp --engine=interp",
                               ["interp", path, "--engine=interp"] + seed +
                               BUDGET)
            kind2, b = self.run("interp --engine=auto",
                                ["interp", path, "--engine=auto"] + seed)
            if kind == kind2 == "ok" and a.stdout != b.stdout:
                self.note("interp engines agree", "WRONG",
                          "engines print different outputs",
                          [self.opts.ktflow, "interp", path] + seed)
        else:
            device = rng.choice(self.devices)
            self.run("run --check (kernel text)",
                     ["run", path, "--arch", device, "--check"] + BUDGET +
                     args, check=True)

    def value_mutant(self, rng):
        kernel, device, args, outputs = rng.choice(self.compiling)
        with open(kernel) as f:
            text = f.read()
        args = list(args)
        arg_values = [i for i, a in enumerate(args)
                      if i > 0 and args[i - 1] == "--arg"]
        if arg_values and rng.random() < 0.25:
            i = rng.choice(arg_values)
            name, value = args[i].split("=", 1)
            args[i] = name + "=" + textmutators.mutate_number(rng, value)
            what = "--arg " + args[i]
        else:
            text, what = textmutators.mutate_value(rng, text)
        path = self.write("v%d.mlir" % self.index, text)
        fill = ["--input=%s=value:7" % o for o in outputs]
        self.run("run --check (value)",
                 ["run", path, "--arch", device, "--check"] + BUDGET + args +
                 fill, check=True)

    def device_mutant(self, rng):
        src = rng.choice(self.devices)
        with open(src) as f:
            text = f.read()
        mutant, what = textmutators.mutate(rng, text)
        path = self.write("d%d.mlir" % self.index, mutant)
        if rng.random() < 0.5:
            self.run("arch-info", ["arch-info", path])
        else:
            pairs = [c for c in self.compiling if c[1] == src]
            kernel, _, args, _ = rng.choice(pairs)
            self.run("run --check (device)",
                     ["run", kernel, "--arch", path, "--check"] + BUDGET +
                     args, check=True)

    def dfir_mutant(self, rng):
        src, eopts, sopts = rng.choice(self.dfir)
        with open(src) as f:
            text = f.read()
        mutant, what = textmutators.mutate(rng, text)
        path = self.write("f%d.mlir" % self.index, mutant)
        bundle = os.path.join(self.work, "f%d.ktfb" % self.index)
        kind, _ = self.run("emit", ["emit", path] + eopts + ["-o", bundle])
        if kind == "ok":
            self.run("sim (dfir)", ["sim", bundle] + BUDGET +
                     self.sim_inputs(bundle, sopts))

    def bundle_mutant(self, rng):
        src, kernel, extra = rng.choice(self.bundles)
        with open(src, "rb") as f:
            data = f.read()
        mutant, what = bundlemutators.mutate(rng, data)
        path = self.write("b%d.ktfb" % self.index, mutant)
        if rng.random() < 0.4:
            self.run("inspect", ["inspect", path])
        else:
            self.run("sim (bundle)", ["sim", path] + BUDGET +
                     self.sim_inputs(src, extra))

    def mutant(self, index):
        self.index = index
        rng = random.Random(self.opts.seed * 1000003 + index)
        kinds = [k for k in KINDS if k in self.opts.kinds]
        kind = rng.choices(kinds, [KINDS[k] for k in kinds])[0]
        getattr(self, kind + "_mutant")(rng)
        for name in os.listdir(self.work):
            if not name.startswith("base-"):
                os.remove(os.path.join(self.work, name))

    def report(self, mutants, seconds):
        print("\n%d mutants in %.0f s (seed %d)" % (mutants, seconds,
                                                    self.opts.seed))
        cols = ["ok", "error", "CRASH", "HANG", "WRONG"]
        print("%-28s %7s %7s %7s %7s %7s %7s" % (("command", "runs") +
                                                  tuple(cols)))
        total = {c: 0 for c in cols}
        for command in sorted(self.table):
            row = self.table[command]
            for c in cols:
                total[c] += row.get(c, 0)
            print("%-28s %7d %7d %7d %7d %7d %7d" % (
                (command, sum(row.values())) + tuple(row.get(c, 0)
                                                     for c in cols)))
        print("%-28s %7d %7d %7d %7d %7d %7d" % (
            ("total", sum(total.values())) + tuple(total[c] for c in cols)))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--count", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--first", type=int, default=0)
    p.add_argument("--ktflow", default=os.path.join(ROOT, "build/bin/ktflow"))
    p.add_argument("--out", help="directory for bad mutants")
    p.add_argument("--timeout", type=float, default=20)
    p.add_argument("--kinds", default=",".join(KINDS))
    p.add_argument("--progress", type=int, default=500,
                   help="print the table every N mutants (0: only at the end)")
    p.add_argument("-v", dest="verbose", action="store_true")
    opts = p.parse_args()
    opts.kinds = opts.kinds.split(",")
    opts.ktflow = os.path.abspath(opts.ktflow)
    opts.out = opts.out or tempfile.mkdtemp(prefix="ktflow-mutants-")
    os.makedirs(opts.out, exist_ok=True)
    print("bad mutants go to %s" % opts.out, flush=True)
    campaign = Campaign(opts)
    started = time.time()
    done = 0
    try:
        for i in range(opts.first, opts.first + opts.count):
            campaign.mutant(i)
            done += 1
            if opts.progress and done % opts.progress == 0:
                campaign.report(done, time.time() - started)
                sys.stdout.flush()
    except KeyboardInterrupt:
        print("interrupted")
    campaign.report(done, time.time() - started)
    return 1 if campaign.bad else 0


if __name__ == "__main__":
    sys.exit(main())
