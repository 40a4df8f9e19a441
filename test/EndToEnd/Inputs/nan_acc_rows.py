#!/usr/bin/env python3
# The input of nan_acc_left.mlir (nan-acc-left.test) and the independent
# check of its outputs, in plain Python (no numpy): .npy files are written
# and read by hand, f16 through struct's 'e' format.
#
# Each output is the fold  acc = cmp(acc, x) ? acc : x  over a row in
# column order, from -inf (max) or +inf (min). A NaN element makes acc NaN
# and the next element replaces the NaN, so the expected value is, by the
# closed form, the extremum of the elements after the row's last NaN (NaN if
# the last element is NaN, the init if nothing follows it); the check also
# replays the fold, which settles the sign of zero on ties (ogt/olt take
# the element, oge/ole keep the accumulator), and requires the two to agree
# in value.
# Usage: nan_acc_rows.py write X.npy
#        nan_acc_rows.py check X.npy SMAX.npy SMIN.npy LMAX.npy LMIN.npy
import ast
import math
import random
import struct
import sys

ROWS, COLS = 16, 256
NAN, INF = float("nan"), float("inf")


def save(path, shape, values):
    header = "{'descr': '<f2', 'fortran_order': False, 'shape': (%s), }" % (
        "".join("%d, " % d for d in shape))
    header += " " * (-(len(header) + 11) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode("latin1"))
        f.write(struct.pack("<%de" % len(values), *values))


def load(path):
    with open(path, "rb") as f:
        data = f.read()
    assert data[:6] == b"\x93NUMPY", path
    length = struct.unpack("<H", data[8:10])[0]
    header = ast.literal_eval(data[10:10 + length].decode("latin1"))
    assert header["descr"] == "<f2" and not header["fortran_order"], header
    count = 1
    for d in header["shape"]:
        count *= d
    return list(struct.unpack_from("<%de" % count, data, 10 + length))


def f16(x):
    return struct.unpack("<e", struct.pack("<e", x))[0]


def rows():
    rng = random.Random(11)
    x = [[f16(rng.gauss(0, 1)) for _ in range(COLS)] for _ in range(ROWS)]
    x[1][0] = NAN                              # NaN first
    x[2][40], x[2][41] = 9.0, -9.0             # extremes before a NaN
    x[2][100] = NAN                            # NaN in the middle
    x[3][255] = NAN                            # NaN last: NaN
    x[4] = [NAN] * COLS                        # all NaN: NaN
    x[5][10], x[5][11] = 8.0, -8.0
    x[5][63] = NAN                             # NaN ending the first tile
    x[6][30], x[6][31] = INF, -INF
    x[6][64] = NAN                             # NaN starting the second tile
    for c in (20, 130, 200):                   # three NaNs, extremes before
        x[7][c] = NAN                          # the last
    x[7][150], x[7][151] = 7.5, -7.5
    x[8][3], x[8][4] = 6.0, -6.0
    x[8][254] = NAN                            # only the last element after
    x[9] = [-INF] * COLS                       # -inf but one NaN
    x[9][5] = NAN
    x[10] = [NAN] * COLS                       # one number after the NaNs
    x[10][255] = -2.5
    for c in range(128):                       # NaN in the first half
        x[11][c] = NAN
    x[11][0] = 5.0
    x[12] = [-0.0] * COLS                      # zeros: ties
    x[12][9], x[12][17] = 0.0, NAN
    x[13][200] = INF                           # +inf after the NaN
    x[13][199] = NAN
    for c in rng.sample(range(COLS), 5):       # NaNs at random places
        x[14][c] = NAN
    return x                                   # row 0 and 15: no NaN


def write(path):
    save(path, (ROWS, COLS), [v for row in rows() for v in row])


def fold(row, init, keeps):
    acc = init
    for x in row:
        acc = acc if keeps(acc, x) else x
    return acc


def closed_form(row, init, pick):
    last = max([c for c, x in enumerate(row) if math.isnan(x)], default=-1)
    if last == len(row) - 1:
        return NAN
    return pick([init] + row[last + 1:])


def same(a, b):
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b and math.copysign(1, a) == math.copysign(1, b)


def check(paths):
    x = rows()
    given = [v for row in x for v in row]
    if load(paths[0]) != given and not all(
            same(a, b) for a, b in zip(load(paths[0]), given)):
        print("input differs")
        return False
    ok = True
    outputs = [("smax", -INF, lambda a, v: a > v, max),
               ("smin", INF, lambda a, v: a < v, min),
               ("lmax", -INF, lambda a, v: a >= v, max),
               ("lmin", INF, lambda a, v: a <= v, min)]
    for (name, init, keeps, pick), path in zip(outputs, paths[1:]):
        got = load(path)
        want = [fold(row, init, keeps) for row in x]
        formula = [closed_form(row, init, pick) for row in x]
        assert all(same(w + 0.0, f + 0.0) for w, f in zip(want, formula))
        bad = [r for r in range(ROWS) if not same(got[r], want[r])]
        print("%s: %s" % (name, "ok" if not bad else "differs in rows %s: "
                          "got %s want %s" % (bad, [got[r] for r in bad],
                                              [want[r] for r in bad])))
        ok &= not bad
    return ok


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(sys.argv[2])
    else:
        sys.exit(0 if check(sys.argv[2:7]) else 1)
