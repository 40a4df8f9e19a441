#!/usr/bin/env python3
# Checks every element of a .npy file against a Python expression of its
# flat index `i` (exact comparison; a NaN matches a NaN), independently of
# ktflow's own reader, or writes a .npy file from such an expression.
# Usage: check_npy.py FILE.npy EXPR [COUNT]
#        check_npy.py --write FILE.npy DESCR SHAPE EXPR   (DESCR e.g. <f2;
#        SHAPE a count, or sizes joined by x: 128x64)
import ast
import math
import struct
import sys

FORMATS = {"<f2": "e", "<f4": "f", "<f8": "d", "<i4": "i", "<i8": "q",
           "|i1": "b", "<i2": "h"}


def read_npy(path):
    data = open(path, "rb").read()
    assert data[:6] == b"\x93NUMPY", "not a .npy file"
    major = data[6]
    if major == 1:
        hlen = struct.unpack("<H", data[8:10])[0]
        start = 10
    else:
        hlen = struct.unpack("<I", data[8:12])[0]
        start = 12
    header = ast.literal_eval(data[start:start + hlen].decode("latin1"))
    fmt = FORMATS[header["descr"]]
    count = math.prod(header["shape"])
    body = data[start + hlen:]
    size = struct.calcsize(fmt)
    return header["shape"], [struct.unpack_from("<" + fmt, body, k * size)[0]
                             for k in range(count)]


def f16(v):
    """Rounds v to the nearest float16 (ties to even), as hardware does."""
    return struct.unpack("<e", struct.pack("<e", v))[0]


def write_npy(path, descr, shape, expr):
    sizes = [int(size) for size in shape.split("x")]
    dims = ", ".join(map(str, sizes)) + ("," if len(sizes) == 1 else "")
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr, dims)
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    body = b"".join(struct.pack("<" + FORMATS[descr],
                                eval(expr, {"i": i, "math": math}))
                    for i in range(math.prod(sizes)))
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode("latin1") + body)


def main():
    if sys.argv[1] == "--write":
        write_npy(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5])
        return
    shape, values = read_npy(sys.argv[1])
    expr = compile(sys.argv[2], "expr", "eval")
    if len(sys.argv) > 3 and len(values) != int(sys.argv[3]):
        sys.exit(f"expected {sys.argv[3]} elements, found {len(values)}")
    bad = 0
    for i, got in enumerate(values):
        want = eval(expr, {"i": i, "f16": f16, "math": math})
        if got != want and not (math.isnan(got) and math.isnan(want)):
            if bad < 5:
                print(f"element {i}: got {got}, expected {want}")
            bad += 1
    if bad:
        sys.exit(f"{bad} of {len(values)} elements differ")
    print(f"ok: {len(values)} elements, shape {tuple(shape)}")


if __name__ == "__main__":
    main()
