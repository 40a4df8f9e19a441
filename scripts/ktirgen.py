"""ktirgen.py - seeded random KTIR kernels inside the subset the scheduler
compiles, for differential testing (scripts/fuzz-diff.py).

A kernel is drawn in two steps: `draw_spec(rng)` picks a *spec* (a dict of
plain numbers and op records: shapes, padded strides, coordinate sets
tighter than the sizes, tile shape and origin, how rows are dealt to grid
points and loops, and a chain of element-wise, broadcast and row-reduction
ops), and `render(spec)` writes it as KTIR text, either in ktflow's own
style (linalg named ops, `tensor.empty`, `linalg.broadcast`, `%id:2`,
runtime arguments) or in the real-world (Triton-generated) style of
ktir-field-guide.md (one `get_compute_tile_id : index` under an `[N, 1]`
grid, cyclic row loops over a plain `index` bound, `linalg.reduce { op }`
with a `tensor.splat` init, reduce -> extract -> splat broadcasts, arith on
tensors, a comment on each argument). The shrinker edits specs, never
text, so every shrunk kernel is as well-formed as a drawn one.

Every kernel reads 2-d f16 tensors X (and X2), optionally a per-row vector
RV and a per-column vector CV, and writes the 2-d Y and, optionally, one
row reduction S. `run_args(spec)` gives the `--arg` values it needs.

`draw_spec(rng, family)` draws one of ktirblocks.py's other families
(matrix products, inter-tile all-reduces, distributed views) instead; the
functions below hand such a spec (it has a "family" key) to that module.
"""

import copy

import ktirblocks
import ktirrender

UNARY = ["negf", "absf", "exp"]
BINARY = ["addf", "subf", "mulf", "maximumf", "minimumf"]
CONSTS = ["0x3C00", "0x4000", "0xBC00", "0x3800", "0x4500"]  # 1 2 -1 .5 5


def draw_spec(rng, family="rows"):
    if family != "rows":
        return ktirblocks.draw(rng, family)
    style = rng.choice(["ours", "rw"])
    mode = rng.choice(["block", "loop", "interleave"] if style == "ours"
                      else ["cyclic", "block", "loop"])
    if style == "ours" and rng.random() < 0.2:
        mode = "runtime"
    tr = 1 if style == "rw" or mode == "runtime" else rng.choice([1, 2, 4, 8])
    tc = rng.choice([32, 64, 64, 128, 128, 256, 96])
    grid = rng.choice([1, 2, 4, 8, 16])
    trips = 1 if mode in ("block", "cyclic") else rng.choice([1, 2, 3, 4])
    rows = grid * trips * tr  # rows the tiles cover
    if mode == "cyclic":
        rows = grid * rng.choice([1, 2, 3])
    col0 = rng.choice([0, 0, 0, 1, 32]) if style == "ours" else 0
    cols = col0 + tc + rng.choice([0, 0, 0, 16])  # view width
    spec = {
        "style": style, "mode": mode, "grid": grid, "trips": trips,
        "tr": tr, "tc": tc, "col0": col0,
        "rows": rows + rng.choice([0, 0, 0, 3, -1 if rows > 1 else 0]),
        "cols": cols,
        "pad": rng.choice([0, 0, 0, 8, 64]),
        "row_slack": rng.choice([0, 0, 0, 1, 2]),   # set tighter than sizes
        "col_slack": 0,
        "n_rows": None, "ops": [], "store_red": None,
        "gridrank": rng.choice([1, 2]) if style == "ours" else 2,
    }
    spec["rows"] = max(spec["rows"], 1)
    spec["row_slack"] = min(spec["row_slack"], spec["rows"] - 1)
    if mode == "cyclic":
        spec["n_rows"] = rng.choice([rows, rows, rows - 1 if rows > 1 else 1,
                                     rows + 2])
    if mode == "runtime":  # dynamic sizes: row-major, set = sizes
        spec.update(rows=rows, row_slack=0, pad=0)
    elementwise_only = rng.random() < 0.15
    if elementwise_only:  # columns masked: no op may mix columns
        spec["col_slack"] = rng.choice([1, 5])
    for _ in range(rng.choice([0, 1, 2, 3, 4, 5])):
        spec["ops"].append(draw_op(rng, elementwise_only,
                                   style == "ours"))
    if not elementwise_only and mode != "cyclic" and rng.random() < 0.3:
        spec["store_red"] = rng.choice(["sum", "max"] + (
            ["sum32"] if style == "ours" else []))
    spec["sibling"] = rng.choice(UNARY) if rng.random() < 0.2 else None
    # A transposed layout: element (r, c) of X, X2 and Y at c * rows + r.
    spec["colmajor"] = (style == "ours" and mode != "runtime"
                        and rng.random() < 0.05)
    return spec


def draw_op(rng, elementwise_only, ours):
    kinds = ["unary", "binary_x2", "binary_self", "const", "rowvec", "colvec"]
    if not elementwise_only:
        kinds += ["reduce_back", "reduce_back", "softmax"]
    kind = rng.choice(kinds)
    op = {"kind": kind, "fn": rng.choice(BINARY)}
    if kind == "unary":
        op["fn"] = rng.choice(UNARY)
    elif kind == "const":
        op["value"] = rng.choice(CONSTS)
    elif kind == "reduce_back":
        op["red"] = rng.choice(["sum", "max", "sum32"] if ours else
                               ["sum", "max"])
    return op


def render(spec, name="fuzz_kernel"):
    if "family" in spec:
        return ktirblocks.render(spec, name)
    return ktirrender.render(spec, name)


def shrink_candidates(spec):
    """Smaller specs, most aggressive first."""
    if "family" in spec:
        return ktirblocks.shrink_candidates(spec)
    out = []

    def variant(**kw):
        s = copy.deepcopy(spec)
        s.update(kw)
        if s != spec:
            out.append(s)
    for i in range(len(spec["ops"])):
        variant(ops=spec["ops"][:i] + spec["ops"][i + 1:])
    variant(store_red=None)
    variant(sibling=None)
    if spec["mode"] != "runtime":
        variant(grid=1, rows=max(1, spec["rows"] // spec["grid"]),
                row_slack=min(spec["row_slack"],
                              max(0, spec["rows"] // spec["grid"] - 1)),
                n_rows=None if spec["n_rows"] is None
                else max(1, spec["n_rows"] // spec["grid"]))
    if spec["trips"] > 1:
        variant(trips=1, rows=max(1, spec["rows"] // spec["trips"]),
                row_slack=min(spec["row_slack"],
                              max(0, spec["rows"] // spec["trips"] - 1)))
    variant(pad=0)
    variant(colmajor=False)
    variant(row_slack=0)
    variant(col_slack=0)
    variant(col0=0, cols=spec["cols"] - spec["col0"])
    variant(cols=spec["col0"] + spec["tc"])
    if spec["tc"] > 32 and spec["tc"] % 2 == 0:
        variant(tc=spec["tc"] // 2, cols=spec["cols"] - spec["tc"] // 2)
    if spec["tr"] > 1:
        variant(tr=spec["tr"] // 2, rows=max(1, spec["rows"] // 2))
    return out


def run_args(spec):
    if "family" in spec:
        return ktirblocks.run_args(spec)
    if spec["mode"] == "cyclic":
        return ["n_rows=%d" % spec["n_rows"]]
    if spec["mode"] == "runtime":
        return ["M_arg=%d" % spec["rows"]]
    return []


def outputs(spec):
    if "family" in spec:
        return ktirblocks.outputs(spec)
    names = ["y"] + (["y2"] if spec.get("sibling") else []) + (
        ["s"] if spec["store_red"] else [])
    return [n + "_ptr" for n in names] if spec["style"] == "rw" else names

