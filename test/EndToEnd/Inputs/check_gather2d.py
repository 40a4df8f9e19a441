#!/usr/bin/env python3
# Checks gather2d_literal's output against the gather computed here from
# the index tensors the run used: OUT[k] = SRC[ROWS[k], COLS[k]] with SRC
# given as `seq:0:2048` (flat element e holds e mod 2048, exact in f16),
# and every index inside [0, 64).
# Usage: check_gather2d.py OUT.npy ROWS.npy COLS.npy
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "Simulator", "Inputs"))
from check_npy import read_npy  # noqa: E402

_, out = read_npy(sys.argv[1])
_, rows = read_npy(sys.argv[2])
_, cols = read_npy(sys.argv[3])
if len(out) != 1024 or len(rows) != 1024 or len(cols) != 1024:
    sys.exit("expected 1024 elements in each file")
outside = [v for v in rows + cols if not 0 <= v < 64]
if outside:
    sys.exit(f"{len(outside)} indices outside [0, 64), first {outside[0]}")
bad = [k for k in range(1024) if out[k] != (rows[k] * 64 + cols[k]) % 2048]
if bad:
    sys.exit(f"{len(bad)} of 1024 elements differ, first at {bad[0]}")
print("ok: 1024 elements gathered")
