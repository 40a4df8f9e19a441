"""ktirblocks.py - the differential generator's kernel families beyond row
kernels (scripts/ktirgen.py draws those): blocked matrix products, inter-tile
all-reduces and distributed views over global memory, in the forms of
ktir-field-guide.md (§1d, §1e, §1b.7) that the scheduler compiles today.
A spec is a dict with a "family" key; ktirgen.py's draw_spec, render,
shrink_candidates, run_args and outputs hand such specs to this module.

  matmul       C = A.B over a [GN, GM] grid of BMxBN blocks of C, a K loop
               (a constant bound or a plain `index` argument K, in steps of
               a constant or a BLOCK_SIZE_K argument) carrying the
               accumulator in iter_args: an f32 `linalg.fill` accumulator as
               the matmul's outs then `arith.truncf` (ours), or an f16
               `dense<0.0>` one, either the outs or added to a product into
               `tensor.empty()` (Triton's form); padded row strides and an
               optional element-wise epilogue.
  allreduce    G tiles, each reducing an RxC block of X over its rows
               (f32 or f16 sum, f16 max) into a partial, combined by
               `inter_tile_produce` + `inter_tile_reduce` over one group or
               contiguous pairs, optionally inside a loop over row blocks;
               every tile stores what it received to its own row of S, so a
               wrong consumer shows.
  distributed  X and Y as P column shards at ptr + k * shard, stitched by
               `construct_distributed_memory_view` (part sets in global
               coordinates); a [P, GR] grid, tile (px, py) walking its
               row band of shard px (or, `span`, two shards at once), Y = f(X)
               with an optional per-column W, itself distributed.
(§1b.6, distributed views over scratchpads, compile only when the kernel
fills each scratchpad part through the view before reading it; they are not
drawn.)
"""

import copy

from ktirrender import set_box

FAMILIES = ["matmul", "allreduce", "distributed"]


def draw(rng, family):
    return {"matmul": draw_matmul, "allreduce": draw_allreduce,
            "distributed": draw_distributed}[family](rng)


def draw_matmul(rng):
    return {
        "family": "matmul", "style": rng.choice(["ours", "rw"]),
        "gm": rng.choice([1, 2]), "gn": rng.choice([1, 2, 4]),
        "bm": rng.choice([16, 32]), "bn": rng.choice([32, 64]),
        "bk": rng.choice([16, 32, 64]), "trips": rng.choice([1, 2, 3, 4]),
        "acc": rng.choice(["f32", "f16add", "f16outs"]),
        "kbound": rng.choice(["const", "arg", "args"]),
        "pad": rng.choice([0, 0, 8, 16]),
        "epilogue": rng.choice([None, None, "relu", "scale"]),
        "mslack": rng.choice([0, 0, 0, 1, 5]),  # C's set short of M rows
    }


def draw_allreduce(rng):
    grid = rng.choice([2, 4, 4, 8])
    return {
        "family": "allreduce", "style": rng.choice(["ours", "rw"]),
        "grid": grid, "r": rng.choice([1, 4, 8, 16]),
        "c": rng.choice([32, 64, 128]),
        "red": rng.choice(["sum32", "sum16", "max16"]),
        "groups": rng.choice(["all", "pairs"]),
        "loops": rng.choice([1, 1, 2, 3]),
        # Y = X - the reduced row instead of S (the scheduler refuses a
        # reduced row both stored as 1xC and broadcast to RxC).
        "center": rng.random() < 0.4,
    }


def draw_distributed(rng):
    parts = rng.choice([2, 4])
    return {
        "family": "distributed", "style": rng.choice(["ours", "rw"]),
        "parts": parts, "gr": rng.choice([1, 2]),
        "cw": rng.choice([32, 64, 128]), "tr": rng.choice([1, 2, 4]),
        "trips": rng.choice([1, 2, 3]), "gap": rng.choice([0, 0, 64]),
        "span": parts > 2 and rng.random() < 0.25,
        "op": rng.choice(["scale", "exp", "bias"]),
    }


def shrink_candidates(spec):
    """Smaller specs, most aggressive first."""
    smaller = {"trips": 1, "gm": 1, "gn": 1, "grid": 2, "loops": 1,
               "parts": 2, "gr": 1, "pad": 0, "gap": 0, "epilogue": None,
               "span": False, "kbound": "const", "acc": "f32",
               "groups": "all", "center": False, "mslack": 0, "r": 1,
               "bm": 16, "bn": 32, "bk": 16, "c": 32, "cw": 32, "tr": 1,
               "style": "ours"}
    out = []
    for key, value in smaller.items():
        if key in spec and spec[key] != value:
            s = copy.deepcopy(spec)
            s[key] = value
            if key == "parts":
                s["span"] = False
            out.append(s)
    return out


def run_args(spec):
    if spec["family"] == "matmul" and spec["kbound"] != "const":
        args = ["K=%d" % (spec["trips"] * spec["bk"])]
        if spec["kbound"] == "args":
            args.append("BLOCK_SIZE_K=%d" % spec["bk"])
        return args
    return []


def outputs(spec):
    names = {"matmul": ["c"], "allreduce": ["s"], "distributed": ["y"]}[
        spec["family"]]
    if spec.get("center"):
        names = ["y"]
    return [n + ("_ptr" if spec["style"] == "rw" else "") for n in names]


def render(spec, name="fuzz_kernel"):
    body = {"matmul": render_matmul, "allreduce": render_allreduce,
            "distributed": render_distributed}[spec["family"]](spec, name)
    return "\n".join(["// Generated by scripts/ktirblocks.py (%s, %s style)."
                      % (spec["family"], spec["style"]),
                      "// spec: %r" % (spec,), ""] + body + [""])


def ptr(view, rw):
    return "%" + view.lower() + ("_ptr" if rw else "")


def signature(name, args, grid, rw):
    """The func.func line(s): one line (ours), or an argument per line with
    a comment (the real-world style)."""
    if not rw:
        return ["  func.func @%s(%s) attributes {grid = %s} {" % (
            name, ", ".join(a for a, _ in args), grid)]
    head = "  func.func @%s(" % name
    lines = []
    for i, (a, c) in enumerate(args):
        sep = ")" if i == len(args) - 1 else ","
        lines.append((head if i == 0 else " " * len(head)) + a + sep +
                     "  // " + c)
    return lines + ["      attributes {grid = %s} {" % grid]


def view(name, base, sizes, strides, cset, ty):
    return ("    %%%s = ktdp.construct_memory_view %s, sizes: [%s], strides: "
            "[%s] {coordinate_set = %s, memory_space = "
            "#ktdp.memory_space<global>} : memref<%sx%s>" % (
                name, base, ", ".join(map(str, sizes)),
                ", ".join(map(str, strides)), cset,
                "x".join(map(str, sizes)), ty))


def tile(name, mem, at, shape, cset, order, ty):
    return ("%%%s = ktdp.construct_access_tile %%%s[%s] {access_tile_set = "
            "%s, access_tile_order = %s} : memref<%s> -> "
            "!ktdp.access_tile<%sxindex>" % (name, mem, ", ".join(at), cset,
                                             order, ty, shape))


def constants(values):
    return ["    %%c%d = arith.constant %d : index" % (v, v)
            for v in sorted(set(values))]


def render_matmul(s, name):
    rw = s["style"] == "rw"
    bm, bn, bk, gm, gn = s["bm"], s["bn"], s["bk"], s["gm"], s["gn"]
    M, N, K = gm * bm, gn * bn, s["trips"] * bk
    pad = s["pad"]
    a, b, c = ptr("A", rw), ptr("B", rw), ptr("C", rw)
    bstrides = [N + pad, 1]
    args = [("%s: index" % a, "A: %dx%d f16, row stride %d (input)" %
             (M, K, K + pad)),
            ("%s: index" % b, "B: %dx%d f16, strides %s (input)" %
             (K, N, bstrides)),
            ("%s: index" % c, "C: %dx%d f16, row stride %d, rows past %d "
             "not written (output)" % (M, N, N + pad,
                                       M - 1 - s.get("mslack", 0)))]
    if s["kbound"] != "const":
        args.append(("%K: index", "reduction length (%d)" % K))
    if s["kbound"] == "args":
        args.append(("%BLOCK_SIZE_K: index", "%d" % bk))
    out = ["#a_set = " + set_box(2, [M - 1, K - 1]),
           "#b_set = " + set_box(2, [K - 1, N - 1]),
           "#c_set = " + set_box(2, [M - 1 - s.get("mslack", 0), N - 1]),
           "#a_blk = " + set_box(2, [bm - 1, bk - 1]),
           "#b_blk = " + set_box(2, [bk - 1, bn - 1]),
           "#c_blk = " + set_box(2, [bm - 1, bn - 1]),
           "#id2 = affine_map<(d0, d1) -> (d0, d1)>", "module {"]
    out += signature(name, args, "[%d, %d]" % (gn, gm), rw)
    if rw:
        out.append("    %pn, %pm = ktdp.get_compute_tile_id : index, index")
        pn, pm = "%pn", "%pm"
    else:
        out.append("    %id:2 = ktdp.get_compute_tile_id : index, index")
        pn, pm = "%id#0", "%id#1"
    out += constants([0, bm, bn, bk, K])
    out.append("    %%n0 = arith.muli %s, %%c%d : index" % (pn, bn))
    out.append("    %%m0 = arith.muli %s, %%c%d : index" % (pm, bm))
    out.append(view("A", a, [M, K], [K + pad, 1], "#a_set", "f16"))
    out.append(view("B", b, [K, N], bstrides, "#b_set", "f16"))
    out.append(view("C", c, [M, N], [N + pad, 1], "#c_set", "f16"))
    acc_ty = "tensor<%dx%dx%s>" % (bm, bn, "f32" if s["acc"] == "f32"
                                   else "f16")
    if s["acc"] == "f32":
        out.append("    %zero = arith.constant 0.0 : f32")
        out.append("    %%empty = tensor.empty() : %s" % acc_ty)
        out.append("    %%acc0 = linalg.fill ins(%%zero : f32) outs(%%empty "
                   ": %s) -> %s" % (acc_ty, acc_ty))
    else:
        out.append("    %%acc0 = arith.constant dense<0.0> : %s" % acc_ty)
    ub = "%%c%d" % K if s["kbound"] == "const" else "%K"
    step = "%BLOCK_SIZE_K" if s["kbound"] == "args" else "%%c%d" % bk
    out.append("    %%acc = scf.for %%k = %%c0 to %s step %s iter_args("
               "%%run = %%acc0) -> (%s) {" % (ub, step, acc_ty))
    at, bt = "tensor<%dx%dxf16>" % (bm, bk), "tensor<%dx%dxf16>" % (bk, bn)
    ind = "      "
    out.append(ind + tile("ta", "A", ["%m0", "%k"], "%dx%d" % (bm, bk),
                          "#a_blk", "#id2", "%dx%dxf16" % (M, K)))
    out.append(ind + tile("tb", "B", ["%k", "%n0"], "%dx%d" % (bk, bn),
                          "#b_blk", "#id2", "%dx%dxf16" % (K, N)))
    out.append(ind + "%%av = ktdp.load %%ta : <%dx%dxindex> -> %s" % (
        bm, bk, at))
    out.append(ind + "%%bv = ktdp.load %%tb : <%dx%dxindex> -> %s" % (
        bk, bn, bt))
    mm = "linalg.matmul ins(%%av, %%bv : %s, %s) outs(%%%s : %s) -> %s"
    if s["acc"] == "f16add":
        out.append(ind + "%%pe = tensor.empty() : %s" % acc_ty)
        out.append(ind + "%prod = " + mm % (at, bt, "pe", acc_ty, acc_ty))
        out.append(ind + "%%next = arith.addf %%run, %%prod : %s" % acc_ty)
    else:
        out.append(ind + "%next = " + mm % (at, bt, "run", acc_ty, acc_ty))
    out += [ind + "scf.yield %%next : %s" % acc_ty, "    }"]
    ct = "tensor<%dx%dxf16>" % (bm, bn)
    res = "%acc"
    if s["acc"] == "f32":
        out.append("    %%ch = arith.truncf %%acc : %s to %s" % (acc_ty, ct))
        res = "%ch"
    if s["epilogue"]:
        value = "0.0" if s["epilogue"] == "relu" else "0.5"
        fn = "maximumf" if s["epilogue"] == "relu" else "mulf"
        out.append("    %%ep = arith.constant dense<%s> : %s" % (value, ct))
        out.append("    %%out = arith.%s %s, %%ep : %s" % (fn, res, ct))
        res = "%out"
    out.append("    " + tile("tc", "C", ["%m0", "%n0"], "%dx%d" % (bm, bn),
                             "#c_blk", "#id2", "%dx%dxf16" % (M, N)))
    out.append("    ktdp.store %s, %%tc : %s, <%dx%dxindex>" % (res, ct, bm,
                                                               bn))
    return out + ["    return", "  }", "}"]


def render_allreduce(s, name):
    rw = s["style"] == "rw"
    G, R, C, L = s["grid"], s["r"], s["c"], s["loops"]
    rows = G * R * L
    f32 = s["red"] == "sum32"
    et = "f32" if f32 else "f16"
    vt = "tensor<%dx%s>" % (C, et)
    x, sp, y = ptr("X", rw), ptr("S", rw), ptr("Y", rw)
    args = [("%s: index" % x, "X: %dx%d f16 (input)" % (rows, C))]
    if s["center"]:
        args.append(("%s: index" % y, "Y: X minus the reduced row of its "
                     "group (output)"))
    else:
        args.append(("%s: index" % sp, "S: %dx%d f16, what each tile "
                     "received (output)" % (G * L, C)))
    ngroups = 1 if s["groups"] == "all" else G // 2
    per = G // ngroups
    out = ["#x_set = " + set_box(2, [rows - 1, C - 1]),
           "#s_set = " + set_box(2, [G * L - 1, C - 1]),
           "#blk = " + set_box(2, [R - 1, C - 1]),
           "#srow = " + set_box(2, [0, C - 1], "eq" if rw else False),
           "#members = affine_set<(i)[g] : (i - %d*g >= 0, -i + %d*g + %d "
           ">= 0)>" % (per, per, per - 1),
           "#groups = " + set_box(1, [ngroups - 1]),
           "#id2 = affine_map<(d0, d1) -> (d0, d1)>", "module {"]
    out += signature(name, args, "[%d]" % G if not rw else "[%d, 1]" % G,
                     rw)
    out.append("    %tid = ktdp.get_compute_tile_id : index")
    out += constants([0, 1, R, G, L])
    out.append(view("X", x, [rows, C], [C, 1], "#x_set", "f16"))
    if s["center"]:
        out.append(view("Y", y, [rows, C], [C, 1], "#x_set", "f16"))
    else:
        out.append(view("S", sp, [G * L, C], [C, 1], "#s_set", "f16"))
    if s["red"] == "max16":
        out.append("    %%ident = arith.constant dense<0xFC00> : %s" % vt)
    else:
        out.append("    %%ident = arith.constant dense<0.0> : %s" % vt)
    ind = "      "
    out.append("    scf.for %%i = %%c0 to %%c%d step %%c1 {" % L)
    out.append(ind + "%%blk0 = arith.muli %%i, %%c%d : index" % G)
    out.append(ind + "%blk = arith.addi %blk0, %tid : index")
    out.append(ind + "%%row = arith.muli %%blk, %%c%d : index" % R)
    out.append(ind + tile("tx", "X", ["%row", "0"], "%dx%d" % (R, C), "#blk",
                          "#id2", "%dx%dxf16" % (rows, C)))
    out.append(ind + "%%xv = ktdp.load %%tx : <%dx%dxindex> -> "
               "tensor<%dx%dxf16>" % (R, C, R, C))
    src = "%xv"
    if f32:
        out.append(ind + "%%xf = arith.extf %%xv : tensor<%dx%dxf16> to "
                   "tensor<%dx%dxf32>" % (R, C, R, C))
        src = "%xf"
    fn = "maximumf" if s["red"] == "max16" else "addf"
    if rw:
        out.append(ind + "%%part = linalg.reduce { arith.%s } ins(%s : "
                   "tensor<%dx%dx%s>) outs(%%ident : %s) dimensions = [0]" % (
                       fn, src, R, C, et, vt))
    else:
        out += [ind + "%%part = linalg.reduce ins(%s : tensor<%dx%dx%s>) "
                "outs(%%ident : %s) dimensions = [0]" % (src, R, C, et, vt),
                ind + "  (%%in: %s, %%acc: %s) {" % (et, et),
                ind + "    %%r = arith.%s %%in, %%acc : %s" % (fn, et),
                ind + "    linalg.yield %r : " + et, ind + "  }"]
    fut = "!ktdp.tile_future<(%s), groups = #groups>" % vt
    out += [ind + "%%f = ktdp.inter_tile_produce producer_tiles_per_group = "
            "#members -> %s {" % fut,
            ind + "^bb0(%gid: index):",
            ind + "  ktdp.yield_partial %%part : %s" % vt, ind + "}",
            ind + "%%total = ktdp.inter_tile_reduce(%%f) "
            "consumer_tiles_per_group = #members, identity(%%ident : %s) : "
            "%s -> %s {" % (vt, fut, vt),
            ind + "^bb0(%%lhs: %s, %%rhs: %s):" % (vt, vt),
            ind + "  %%t = arith.%s %%lhs, %%rhs : %s" % (fn, vt),
            ind + "  ktdp.yield_reduced %%t : %s" % vt, ind + "}"]
    if s["center"]:
        out += center(s, ind, src, vt, rows)
    else:
        out += store_total(s, ind, vt, f32)
    out += ["    }", "    return", "  }", "}"]
    return out


def store_total(s, ind, vt, f32):
    """Each tile stores what it received to its row of S."""
    G, C, L = s["grid"], s["c"], s["loops"]
    out = []
    res = "%total"
    if f32:
        out.append(ind + "%%th = arith.truncf %%total : %s to tensor<%dxf16>"
                   % (vt, C))
        res = "%th"
    out.append(ind + "%%t2 = tensor.expand_shape %s [[0, 1]] output_shape "
               "[1, %d] : tensor<%dxf16> into tensor<1x%dxf16>" % (res, C, C,
                                                                  C))
    out.append(ind + tile("ts", "S", ["%blk", "0"], "1x%d" % C, "#srow",
                          "#id2", "%dx%dxf16" % (G * L, C)))
    out.append(ind + "ktdp.store %%t2, %%ts : tensor<1x%dxf16>, "
               "<1x%dxindex>" % (C, C))
    return out


def center(s, ind, src, vt, rows):
    """Y = X - the reduced row, broadcast over the tile's rows."""
    R, C, f32 = s["r"], s["c"], s["red"] == "sum32"
    et = "f32" if f32 else "f16"
    out = []
    bt = "tensor<%dx%dx%s>" % (R, C, et)
    out += [ind + "%%be = tensor.empty() : %s" % bt,
            ind + "%%tb = linalg.broadcast ins(%%total : %s) outs(%%be : "
            "%s) dimensions = [0]" % (vt, bt),
            ind + "%%d = arith.subf %s, %%tb : %s" % (src, bt)]
    res = "%d"
    if f32:
        out.append(ind + "%%dh = arith.truncf %%d : %s to "
                   "tensor<%dx%dxf16>" % (bt, R, C))
        res = "%dh"
    out.append(ind + tile("ty", "Y", ["%row", "0"], "%dx%d" % (R, C),
                          "#blk", "#id2", "%dx%dxf16" % (rows, C)))
    out.append(ind + "ktdp.store %s, %%ty : tensor<%dx%dxf16>, "
               "<%dx%dxindex>" % (res, R, C, R, C))
    return out


def render_distributed(s, name):
    rw = s["style"] == "rw"
    P, GR, cw, tr, T = s["parts"], s["gr"], s["cw"], s["tr"], s["trips"]
    rows, cols = GR * T * tr, P * cw
    shard = rows * cw + s["gap"]
    width = 2 * cw if s["span"] else cw
    gx = cols // width
    x, y, w = ptr("X", rw), ptr("Y", rw), ptr("W", rw)
    args = [("%s: index" % x, "X: %d shards of %dx%d f16, %d apart (input)"
             % (P, rows, cw, shard))]
    if s["op"] == "bias":
        args.append(("%s: index" % w, "W: %d shards of %d f16, %d apart "
                     "(input)" % (P, cw, cw + s["gap"])))
    args.append(("%s: index" % y, "Y: like X (output)"))
    out = ["#part%d = " % k + "affine_set<(d0, d1) : (d0 >= 0, -d0 + %d >= 0,"
           " d1 - %d >= 0, -d1 + %d >= 0)>" % (rows - 1, k * cw,
                                               k * cw + cw - 1)
           for k in range(P)]
    out += ["#wpart%d = affine_set<(d0) : (d0 - %d >= 0, -d0 + %d >= 0)>" % (
        k, k * cw, k * cw + cw - 1) for k in range(P)]
    out += ["#blk = " + set_box(2, [tr - 1, width - 1]),
            "#wblk = " + set_box(1, [width - 1]),
            "#id1 = affine_map<(d0) -> (d0)>",
            "#id2 = affine_map<(d0, d1) -> (d0, d1)>", "module {"]
    out += signature(name, args, "[%d, %d]" % (gx, GR), rw)
    if rw:
        out.append("    %px, %py = ktdp.get_compute_tile_id : index, index")
        px, py = "%px", "%py"
    else:
        out.append("    %id:2 = ktdp.get_compute_tile_id : index, index")
        px, py = "%id#0", "%id#1"
    out += constants([0, 1, T * tr, tr, width])
    out.append("    %%col0 = arith.muli %s, %%c%d : index" % (px, width))
    out.append("    %%band = arith.muli %s, %%c%d : index" % (py, T * tr))
    names = [("X", x, [rows, cw], [cw, 1], "#part", shard),
             ("Y", y, [rows, cw], [cw, 1], "#part", shard)]
    if s["op"] == "bias":
        names.append(("W", w, [cw], [1], "#wpart", cw + s["gap"]))
    for v, base, sizes, strides, cset, step in names:
        parts = []
        for k in range(P):
            pb = base
            if k:
                pb = "%%%s%d_ptr" % (v.lower(), k)
                out.append("    %%c%d_%s = arith.constant %d : index" % (
                    k * step, v.lower(), k * step))
                out.append("    %s = arith.addi %s, %%c%d_%s : index" % (
                    pb, base, k * step, v.lower()))
            out.append(view("%s%d" % (v, k), pb, sizes, strides,
                            "%s%d" % (cset, k), "f16"))
            parts.append("%%%s%d" % (v, k))
        ty = "memref<%sxf16>" % "x".join(map(str, sizes))
        full = [rows, cols] if len(sizes) == 2 else [cols]
        out.append("    %%%s = ktdp.construct_distributed_memory_view(%s : "
                   "%s) : memref<%sxf16>" % (v, ", ".join(parts), ", ".join(
                       [ty] * P), "x".join(map(str, full))))
    tt = "tensor<%dx%dxf16>" % (tr, width)
    if s["op"] == "bias":
        out.append("    " + tile("tw", "W", ["%col0"], "%d" % width, "#wblk",
                                 "#id1", "%dxf16" % cols))
        out.append("    %%wv = ktdp.load %%tw : <%dxindex> -> tensor<%dxf16>"
                   % (width, width))
        out.append("    %%we = tensor.empty() : %s" % tt)
        out.append("    %%wb = linalg.broadcast ins(%%wv : tensor<%dxf16>) "
                   "outs(%%we : %s) dimensions = [0]" % (width, tt))
    ind = "      "
    out.append("    scf.for %%i = %%c0 to %%c%d step %%c%d {" % (T * tr, tr))
    out.append(ind + "%row = arith.addi %band, %i : index")
    mem = "%dx%dxf16" % (rows, cols)
    out.append(ind + tile("tx", "X", ["%row", "%col0"], "%dx%d" % (tr, width),
                          "#blk", "#id2", mem))
    out.append(ind + "%%xv = ktdp.load %%tx : <%dx%dxindex> -> %s" % (
        tr, width, tt))
    if s["op"] == "scale":
        out.append(ind + "%%two = arith.constant dense<2.0> : %s" % tt)
        out.append(ind + "%%yv = arith.mulf %%xv, %%two : %s" % tt)
    elif s["op"] == "exp":
        out.append(ind + "%%yv = math.exp %%xv : %s" % tt)
    else:
        out.append(ind + "%%yv = arith.addf %%xv, %%wb : %s" % tt)
    out.append(ind + tile("ty", "Y", ["%row", "%col0"], "%dx%d" % (tr, width),
                          "#blk", "#id2", mem))
    out.append(ind + "ktdp.store %%yv, %%ty : %s, <%dx%dxindex>" % (tt, tr,
                                                                  width))
    out += ["    }", "    return", "  }", "}"]
    return out
