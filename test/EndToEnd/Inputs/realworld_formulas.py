"""Independent check of the reference interpreter on the session-39 survey
kernels (realworld-idioms-survey.test): writes inputs as .npy, runs
`ktflow interp` on each kernel and compares every output element with the
kernel's formula computed here in Python, rounding as the header of each
kernel says (per op to the op's type; f32 reductions sequential).

usage: realworld_formulas.py KTFLOW INPUT_DIR WORK_DIR
Prints one line per output: NAME: N elements, M differ.
"""
import math
import os
import random
import struct
import subprocess
import sys

KTFLOW, SRC, WORK = sys.argv[1:4]
FORMATS = {"f16": ("<f2", "e"), "f32": ("<f4", "f"), "i8": ("|i1", "b"),
           "i32": ("<i4", "i")}


def f16(x):
    return struct.unpack("e", struct.pack("e", x))[0]


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def wrap32(v):
    v &= 0xFFFFFFFF
    return v - 2**32 if v >= 2**31 else v


def write_npy(path, values, shape, dtype):
    descr, fmt = FORMATS[dtype]
    dims = ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "")
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr, dims)
    header += " " * ((64 - (11 + len(header)) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode())
        f.write(struct.pack("<%d%s" % (len(values), fmt), *values))


def read_npy(path):
    data = open(path, "rb").read()
    size = struct.unpack("<H", data[8:10])[0]
    header = eval(data[10:10 + size].decode())
    fmt = {d: f for d, f in FORMATS.values()}[header["descr"]]
    count = math.prod(header["shape"])
    return struct.unpack("<%d%s" % (count, fmt),
                         data[10 + size:10 + size + count * struct.calcsize(fmt)])


def interp(kernel, inputs, outputs, args=()):
    cmd = [KTFLOW, "interp", os.path.join(SRC, kernel + ".mlir")]
    for name, (values, shape, dtype) in inputs.items():
        path = os.path.join(WORK, "%s_%s.npy" % (kernel, name))
        write_npy(path, values, shape, dtype)
        cmd += ["--input", "%s=%s" % (name, path)]
    cmd += ["--arg=" + a for a in args]
    paths = {o: os.path.join(WORK, "%s_%s_out.npy" % (kernel, o)) for o in outputs}
    cmd += ["--output=%s=%s" % item for item in paths.items()]
    subprocess.run(cmd, check=True, capture_output=True)
    return {o: read_npy(p) for o, p in paths.items()}


TOTALS = {"outputs": 0, "differ": 0}


def report(name, got, want):
    differ = sum(1 for g, w in zip(got, want) if g != w)
    differ += abs(len(got) - len(want))
    TOTALS["outputs"] += 1
    TOTALS["differ"] += differ
    print("%s: %d elements, %d differ" % (name, len(want), differ))


random.seed(7)


def uniform(n, lo=-3.0, hi=3.0, rnd=f16):
    return [rnd(random.uniform(lo, hi)) for _ in range(n)]


# GELU, tanh form, f32 math on f16 data.
x = uniform(64 * 128)
out = interp("gelu_tanh_f16", {"x_ptr": (x, [64, 128], "f16")}, ["y_ptr"], ["n_rows=64"])
def gelu_tanh(v):
    x3 = f32(f32(v * v) * v)
    u = f32(f32(0.797884583) * f32(v + f32(f32(0.044715) * x3)))
    return f16(f32(f32(0.5 * v) * f32(1 + f32(math.tanh(u)))))
report("gelu_tanh_f16 y", out["y_ptr"], [gelu_tanh(v) for v in x])

# GELU, tanh form, f16 throughout, 50 of 64 rows (the rest keep their 7).
x = uniform(64 * 128)
out = interp("gelu_tanh_pure_f16", {"x_ptr": (x, [64, 128], "f16"),
                                    "y_ptr": ([7.0] * 8192, [64, 128], "f16")},
             ["y_ptr"], ["n_rows=50"])
def gelu_tanh_f16(v):
    x3 = f16(f16(v * v) * v)
    u = f16(f16(0.7979) * f16(v + f16(f16(0.044715) * x3)))
    return f16(f16(0.5 * v) * f16(1 + f16(math.tanh(u))))
report("gelu_tanh_pure_f16 y", out["y_ptr"],
       [gelu_tanh_f16(v) for v in x[:50 * 128]] + [7.0] * (14 * 128))

# GELU, erf form, f32.
x = uniform(64 * 128, rnd=f32)
out = interp("gelu_erf_f32", {"x_ptr": (x, [64, 128], "f32")}, ["y_ptr"])
report("gelu_erf_f32 y", out["y_ptr"],
       [f32(f32(v * 0.5) * f32(f32(math.erf(f32(v * f32(0.707106769)))) + 1)) for v in x])

# SiLU, f16 throughout.
x = uniform(4096)
out = interp("silu_f16", {"x_ptr": (x, [4096], "f16")}, ["y_ptr"])
report("silu_f16 y", out["y_ptr"], [f16(v / f16(1 + f16(math.exp(-v)))) for v in x])

# Sigmoid, f32.
x = uniform(64 * 128, rnd=f32)
out = interp("sigmoid_f32", {"x_ptr": (x, [64, 128], "f32")}, ["y_ptr"])
report("sigmoid_f32 y", out["y_ptr"], [f32(1 / f32(1 + f32(math.exp(-v)))) for v in x])

# int8 dequantisation by a per-column f16 scale.
q = [random.randint(-128, 127) for _ in range(64 * 128)]
s = uniform(128, 0.01, 0.1)
out = interp("dequantize_i8", {"q_ptr": (q, [64, 128], "i8"), "s_ptr": (s, [128], "f16")}, ["y_ptr"])
report("dequantize_i8 y", out["y_ptr"],
       [f16(f32(q[i * 128 + j] * s[j])) for i in range(64) for j in range(128)])

# Log-sum-exp and log-softmax.
x = uniform(64 * 128, -8.0, 8.0)
out = interp("logsumexp_f32", {"x_ptr": (x, [64, 128], "f16")}, ["l_ptr", "p_ptr"], ["n_rows=64"])
lse, logp = [], []
for r in range(64):
    row = x[r * 128:(r + 1) * 128]
    m, total = max(row), 0.0
    for v in row:
        total = f32(total + f32(math.exp(f32(v - m))))
    l = f32(f32(math.log(total)) + m)
    lse.append(l)
    logp += [f16(f32(v - l)) for v in row]
report("logsumexp_f32 l", out["l_ptr"], lse)
report("logsumexp_f32 p", out["p_ptr"], logp)

# One-hot of the row maximum, with ties.
x = [f16(random.choice([-1, 0.5, 1, 2, 2, 3.5])) for _ in range(64 * 128)]
out = interp("argmax_onehot", {"x_ptr": (x, [64, 128], "f16")}, ["y_ptr"], ["n_rows=64"])
want = []
for r in range(64):
    row = x[r * 128:(r + 1) * 128]
    want += [1.0 if v == max(row) else 0.0 for v in row]
report("argmax_onehot y", out["y_ptr"], want)

def rmsnorm_rows(h, w):
    """f16(f32(v * rsqrt(sum of squares / 256 + 1e-6)) * w[j]) for each row
    of 256 f16 values of h, in f32, the sum sequential."""
    y = []
    for r in range(len(h) // 256):
        row = h[r * 256:(r + 1) * 256]
        ss = 0.0
        for v in row:
            ss = f32(ss + f32(v * v))
        rs = f32(1 / math.sqrt(f32(f32(ss * f32(1 / 256)) + f32(1e-6))))
        y += [f16(f32(f32(v * rs) * w[j])) for j, v in enumerate(row)]
    return y


# Residual add fused into an RMSNorm.
x, res, w = uniform(64 * 256), uniform(64 * 256), uniform(256, 0.5, 1.5)
out = interp("residual_rmsnorm", {"x_ptr": (x, [64, 256], "f16"), "r_ptr": (res, [64, 256], "f16"),
                                  "w_ptr": (w, [256], "f16")}, ["h_ptr", "y_ptr"], ["eps=1e-6"])
h = [f16(a + b) for a, b in zip(x, res)]
report("residual_rmsnorm h", out["h_ptr"], h)
report("residual_rmsnorm y", out["y_ptr"], rmsnorm_rows(h, w))

# An RMSNorm squaring by math.powf(x, 2.0): the square as a product.
x, w = uniform(64 * 256), uniform(256)
out = interp("rmsnorm_powf2", {"x_ptr": (x, [64, 256], "f16"), "w_ptr": (w, [256], "f16")},
             ["y_ptr"], ["eps=1e-6"])
report("rmsnorm_powf2 y", out["y_ptr"], rmsnorm_rows(x, w))

# Two grid ids.
x, b = uniform(64 * 256), uniform(256)
out = interp("grid2d_affine", {"x_ptr": (x, [64, 256], "f16"), "b_ptr": (b, [1, 256], "f16")},
             ["y_ptr"], ["a=0.5"])
report("grid2d_affine y", out["y_ptr"],
       [f16(f16(x[i * 256 + j] * 0.5) + b[j]) for i in range(64) for j in range(256)])

# A 3-D tensor, each row shifted by its maximum.
x = uniform(4 * 32 * 64)
out = interp("batch3d_scale", {"x_ptr": (x, [4, 32, 64], "f16")}, ["y_ptr"])
want = []
for r in range(128):
    row = x[r * 64:(r + 1) * 64]
    want += [f16(v - max(row)) for v in row]
report("batch3d_scale y", out["y_ptr"], want)

# A column-major read.
x = uniform(64 * 128)
out = interp("transpose_read", {"x_ptr": (x, [64 * 128], "f16")}, ["y_ptr"])
report("transpose_read y", out["y_ptr"], [f16(2 * x[i + 64 * j]) for i in range(64) for j in range(128)])

# Masks on both dimensions.
x = uniform(50 * 100)
out = interp("ragged_2d", {"x_ptr": (x, [50, 100], "f16")}, ["y_ptr"])
report("ragged_2d y", out["y_ptr"], [f16(f16(v * v) - 1) for v in x])

# Nested loops both carrying a tensor.
x = uniform(64 * 512)
out = interp("nested_carry", {"x_ptr": (x, [64, 512], "f16")}, ["s_ptr"], ["n_rows=64"])
want = []
for t in range(16):
    total = [0.0] * 128
    for r in range(t, 64, 16):
        acc = [0.0] * 128
        for blk in range(4):
            acc = [f16(acc[j] + x[r * 512 + 128 * blk + j]) for j in range(128)]
        total = [f16(total[j] + acc[j]) for j in range(128)]
    want += total
report("nested_carry s", out["s_ptr"], want)

# A Triton-style column reduce.
x = uniform(64 * 256)
out = interp("colsum_rows", {"x_ptr": (x, [64, 256], "f16")}, ["cs_ptr", "cm_ptr"])
sums, maxima = [], []
for j in range(256):
    total = 0.0
    for i in range(64):
        total = f32(total + x[i * 256 + j])
    sums.append(f16(total))
    maxima.append(max(x[i * 256 + j] for i in range(64)))
report("colsum_rows cs", out["cs_ptr"], sums)
report("colsum_rows cm", out["cm_ptr"], maxima)

# A row minimum of magnitudes (+inf init) and a log, f16 throughout.
x = [f16(random.choice([-1, 1]) * random.uniform(0.1, 3.0)) for _ in range(64 * 128)]
out = interp("minlog_f16", {"x_ptr": (x, [64, 128], "f16")}, ["m_ptr", "y_ptr"])
minima, logs = [], []
for r in range(64):
    row = [abs(v) for v in x[r * 128:(r + 1) * 128]]
    minima.append(min(row))
    logs += [f16(math.log(f16(v + min(row)))) for v in row]
report("minlog_f16 m", out["m_ptr"], minima)
report("minlog_f16 y", out["y_ptr"], logs)

# A column reduce of a 3-D tile, f32 sums of f16 data.
x = uniform(4 * 16 * 64)
out = interp("batch3d_colsum", {"x_ptr": (x, [4, 16, 64], "f16")}, ["y_ptr"])
want = []
for b in range(4):
    for j in range(64):
        total = 0.0
        for i in range(16):
            total = f32(total + x[b * 1024 + i * 64 + j])
        want.append(total)
report("batch3d_colsum y", out["y_ptr"], want)
out = interp("batch3d_colsum_pairs", {"x_ptr": (x, [4, 16, 64], "f16")}, ["y_ptr"])
report("batch3d_colsum_pairs y", out["y_ptr"], want)

# math.powf by -1.0 and 0.0: 1 / x and 1.
def reciprocal(v):
    return 1 / v if v != 0 else math.copysign(math.inf, v)


x = uniform(64 * 128)
out = interp("reciprocal_powf", {"x_ptr": (x, [64, 128], "f16")}, ["r_ptr", "q_ptr"])
report("reciprocal_powf r", out["r_ptr"], [f16(f16(reciprocal(v)) + 1) for v in x])
report("reciprocal_powf q", out["q_ptr"], [f32(reciprocal(f32(v * 3))) for v in x])

# A row's maximum compared, picking a row scale and a row (tl.where).
x = uniform(64 * 128)
x = [-v if (i // 128) % 3 == 1 else v for i, v in enumerate(x)]
out = interp("row_guard_scale", {"x_ptr": (x, [64, 128], "f16")}, ["s_ptr", "n_ptr"])
want_s, want_n = [], []
for r in range(64):
    row = x[r * 128:(r + 1) * 128]
    m = max(row)
    scale = f16(1 / m) if m > 0 else 1.0
    want_s += [f16(v * scale) for v in row]
    want_n += [v if m > 0 else -v for v in row]
report("row_guard_scale s", out["s_ptr"], want_s)
report("row_guard_scale n", out["n_ptr"], want_n)

# Rows picked by their parity: scf.if with results, and its value-only form.
x = uniform(64 * 128)
want = [f16(v * 2) if (i // 128) % 2 == 0 else f16(v + 1) for i, v in enumerate(x)]
for kernel in ("if_results", "if_select_tensors"):
    out = interp(kernel, {"x_ptr": (x, [64, 128], "f16")}, ["y_ptr"])
    report(kernel + " y", out["y_ptr"], want)

# The same pick carried by a loop: stays a select (the loop is unrolled).
x = uniform(64 * 128, rnd=f32)
out = interp("carried_where_rows", {"x_ptr": (x, [64, 128], "f32")}, ["y_ptr"])
acc = [0.0] * 128
for i in range(64):
    acc = [f32(a + v) if i % 2 == 0 else f32(a - v) for a, v in zip(acc, x[i * 128:(i + 1) * 128])]
report("carried_where_rows y", out["y_ptr"], acc)

# i32 add, multiply, mask with wrap-around.
a = [random.randint(-2**31, 2**31 - 1) for _ in range(2048)]
b = [random.randint(-2**31, 2**31 - 1) for _ in range(2048)]
out = interp("int_addmul_i32", {"a_ptr": (a, [2048], "i32"), "b_ptr": (b, [2048], "i32")}, ["y_ptr"])
report("int_addmul_i32 y", out["y_ptr"], [wrap32(p + q) * p & 0xFFFF for p, q in zip(a, b)])

print("%(outputs)d outputs, %(differ)d elements differ in total" % TOTALS)
