#!/usr/bin/env python3
# Checks the compiled slice kernels (slices.test) against their formulas
# computed here: runs `ktflow run` on each device with `seq:` inputs and
# compares every element of the simulated output. The inputs are integers
# (seq:LO:HI: element e holds LO + e mod (HI - LO)) small enough that every
# result is exact in f16, so the formulas need no rounding.
# Usage: check_slices.py KTFLOW INPUT_DIR DEVICE_DIR WORK_DIR
# Prints one line per kernel and device: KERNEL DEVICE: N elements, M differ.
import math
import os
import struct
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "Simulator", "Inputs"))
from check_npy import read_npy  # noqa: E402

KTFLOW, SRC, DEVICES, WORK = sys.argv[1:5]


def seq(lo, hi):
    return lambda e: lo + e % (hi - lo)


X, COS, SIN, SMALL = seq(-50, 61), seq(-3, 4), seq(-5, 6), seq(-6, 7)
# Rows of 128 alternately all negative and mostly positive.
HALVES = seq(-200, 56)
SPECS = {"x": "seq:-50:61", "cos": "seq:-3:4", "sin": "seq:-5:6",
         "small": "seq:-6:7", "halves": "seq:-200:56"}


def first_rows():
    # Y[2t + i, j] = 2 X[4t + i, j], 16 tiles, 2 of each 4 rows.
    return [2 * X((4 * (r // 2) + r % 2) * 128 + j)
            for r in range(32) for j in range(128)]


def rope(rows):
    # Y[p, j] = x1 c - x2 s, Y[p, j + 64] = x2 c + x1 s.
    out = []
    for p in range(rows):
        x1 = [X(p * 128 + j) for j in range(64)]
        x2 = [X(p * 128 + 64 + j) for j in range(64)]
        c = [COS(p * 64 + j) for j in range(64)]
        s = [SIN(p * 64 + j) for j in range(64)]
        out += [x1[j] * c[j] - x2[j] * s[j] for j in range(64)]
        out += [x2[j] * c[j] + x1[j] * s[j] for j in range(64)]
    return out


def head_split():
    # K[r, j] = Q[r, 128 + j] / 8 (Q is 100x256).
    return [X(r * 256 + 128 + j) / 8 for r in range(100) for j in range(128)]


def head_loop():
    # K[64 h + r, j] = Q[r, 128 h + j] / 8 (Q is 64x256).
    return [X(r * 256 + 128 * h + j) / 8
            for h in range(2) for r in range(64) for j in range(128)]


def row_ends():
    # Y[r, j] = (X[r, j] - X[r, 0]) * X[r, 127], one element each read
    # with tensor.extract.
    return [(SMALL(r * 128 + j) - SMALL(r * 128)) * SMALL(r * 128 + 127)
            for r in range(64) for j in range(128)]


def f16(x):
    return struct.unpack("e", struct.pack("e", x))[0]


def reduce_slice():
    # Y[r, j] = X[r, j] - sum(X[r, 0:64]) (sums of at most 64 small
    # integers: exact in f16).
    return [SMALL(r * 128 + j) - sum(SMALL(r * 128 + k) for k in range(64))
            for r in range(64) for j in range(128)]


def extract_computed():
    # Y[r, j] = X[r, j] * exp(X[r, 1]), exp rounded to f16, the product too.
    return [f16(SMALL(r * 128 + j) * f16(math.exp(SMALL(r * 128 + 1))))
            for r in range(64) for j in range(128)]


def select_slices():
    # Y[r, j] = X[r, j] if max(X[r, :]) > 0 else X[r, 64 + j] (64x64);
    # both sides are taken.
    out = []
    for r in range(64):
        row = [HALVES(r * 128 + j) for j in range(128)]
        out += row[:64] if max(row) > 0 else row[64:]
    return out


KERNELS = [
    ("first_rows_slice", {"x_ptr": "x"}, "y_ptr", first_rows()),
    ("rope_slices", {"x_ptr": "x", "cos_ptr": "cos", "sin_ptr": "sin"},
     "y_ptr", rope(64)),
    ("rope_concat_loop", {"x_ptr": "x", "cos_ptr": "cos", "sin_ptr": "sin"},
     "y_ptr", rope(128)),
    ("head_split_slice", {"q_ptr": "x"}, "k_ptr", head_split()),
    ("head_loop_slice", {"q_ptr": "x"}, "k_ptr", head_loop()),
    ("row_ends_scale", {"x_ptr": "small"}, "y_ptr", row_ends()),
    ("combo_reduce_slice", {"x_ptr": "small"}, "y_ptr", reduce_slice()),
    ("combo_extract_computed", {"x_ptr": "small"}, "y_ptr",
     extract_computed()),
    ("combo_select_slices", {"x_ptr": "halves"}, "y_ptr", select_slices()),
]

for device in ("spyre_like", "mesh_device", "sample_device"):
    for kernel, inputs, output, want in KERNELS:
        path = os.path.join(WORK, "%s_%s.npy" % (kernel, device))
        cmd = [KTFLOW, "run", os.path.join(SRC, kernel + ".mlir"), "--arch",
               os.path.join(DEVICES, device + ".mlir"),
               "--output=%s=%s" % (output, path)]
        cmd += ["--input=%s=%s" % (n, SPECS[s]) for n, s in inputs.items()]
        subprocess.run(cmd, check=True, capture_output=True)
        _, got = read_npy(path)
        differ = sum(1 for g, w in zip(got, want) if g != w)
        differ += abs(len(got) - len(want))
        print("%s %s: %d elements, %d differ" % (kernel, device, len(want),
                                                  differ))
