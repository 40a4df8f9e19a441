#!/usr/bin/env python3
# The input of nan_row_extrema.mlir (nan-max-min.test) and the independent
# check of its outputs: numpy's fmax/fmin skip NaN as arith.maxnumf and
# minnumf do, so the expected row max and min are fmax/fmin reductions
# from -inf/+inf and the relu fmax(x, 0).
# Usage: nan_rows.py write X.npy
#        nan_rows.py check X.npy MAX.npy MIN.npy SEL.npy RELU.npy
import sys

import numpy as np


def write(path):
    rng = np.random.default_rng(7)
    x = rng.standard_normal((16, 256)).astype(np.float16)
    x[0, :] = np.nan                          # all NaN
    x[1, 37] = np.nan                         # one NaN
    x[2, 5], x[2, 200] = np.inf, -np.inf      # both infinities
    x[3, :] = -0.0                            # signed zeros
    x[3, 9] = 0.0
    x[4, :] = -np.inf                         # all -inf
    x[5, 0] = x[5, 255] = np.nan              # NaN at both ends
    x[6, 128:] = np.nan                       # NaN in one half
    x[7, :128] = np.nan                       # NaN in the other half
    x[8, 3], x[8, 4] = np.nan, np.inf         # NaN beside +inf
    x[9, :] = np.nan                          # one number among NaN
    x[9, 77] = -2.5
    x[10, :] = np.inf                         # all +inf
    np.save(path, x)


def same(name, got, want):
    # NaN where NaN is expected, the same value (and sign of zero) elsewhere.
    ok = np.array_equal(got, want, equal_nan=True) and np.array_equal(
        np.signbit(got), np.signbit(want))
    print("%s: %s" % (name, "ok" if ok else "differs\n got %s\nwant %s" %
                      (got, want)))
    return ok


def check(x, mx, mn, sel, relu):
    x = np.load(x)
    mx, mn, sel, relu = (np.load(p) for p in (mx, mn, sel, relu))
    zero = np.float16(0)
    # fmax/fmin leave the sign of a zero result open; maxnumf and minnumf
    # order -0 below +0.
    pos_zero = ((x == 0) & ~np.signbit(x)).any(axis=1)
    neg_zero = ((x == 0) & np.signbit(x)).any(axis=1)
    want_max = np.fmax.reduce(x, axis=1, initial=-np.inf)
    want_max[want_max == 0] = np.where(pos_zero, zero, -zero)[want_max == 0]
    want_min = np.fmin.reduce(x, axis=1, initial=np.inf)
    want_min[want_min == 0] = np.where(neg_zero, -zero, zero)[want_min == 0]
    want_relu = np.fmax(x, zero) + zero
    ok = same("max", mx, want_max)
    ok &= same("min", mn, want_min)
    # The select form keeps the accumulator on a tie (-0 before +0 stays
    # -0): only the value counts, -0 + 0 is +0.
    ok &= same("sel", sel + zero, want_max + zero)
    ok &= same("relu", relu, want_relu)
    return ok


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(sys.argv[2])
    else:
        sys.exit(0 if check(*sys.argv[2:7]) else 1)
