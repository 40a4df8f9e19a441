"""ktirrender.py - writes a ktirgen.py spec as KTIR text, in ktflow's own
style or in the real-world (Triton-generated) style of
ktir-field-guide.md. Only the spelling differs between the two; the
computation (and so the reference result) is the spec's.

Rows are dealt to grid points in one of five ways (`mode`):
  block       tile t handles rows [t*TR, t*TR + TR), no loop
  loop        tile t loops i < T over rows (t*T + i)*TR  (constant bounds)
  interleave  tile t loops i < T over rows (i*G + t)*TR
  cyclic      scf.for %r = %tid to %n_rows step G (a plain index argument)
  runtime     M rows from a runtime argument; tile t loops over M/G rows
"""

F16 = {"0x3C00": "1.0", "0x4000": "2.0", "0xBC00": "-1.0",
       "0x3800": "0.5", "0x4500": "5.0", "0xFC00": "0xFC00",
       "0x0000": "0.0"}
NAMED = {"addf": "linalg.add", "subf": "linalg.sub", "mulf": "linalg.mul",
         "maximumf": "linalg.max", "minimumf": "linalg.min"}


class Writer:
    def __init__(self, spec):
        self.s = spec
        self.rw = spec["style"] == "rw"
        self.n = 0
        self.lines = []
        self.indexes = set()
        self.scalars = {}
        self.views = {}       # name -> (kind) for views the body uses
        self.loaded = {}
        tr, tc = spec["tr"], spec["tc"]
        self.T = "tensor<%dx%dxf16>" % (tr, tc)
        self.V = "tensor<%dxf16>" % tr

    def fresh(self, base="v"):
        self.n += 1
        return "%%%s_%d" % (base, self.n)

    def emit(self, text):
        self.lines.append("      " + text if self.looped() else "    " + text)

    def looped(self):
        return self.s["mode"] != "block"

    def idx(self, n):
        self.indexes.add(n)
        return "%%c%d" % n

    def f16(self, hexval):
        name = "%%cst_%s" % hexval[2:].lower()
        value = hexval if self.rw else F16[hexval]
        self.scalars[name] = value
        return name

    def empty(self, ty):
        e = self.fresh("e")
        self.emit("%s = tensor.empty() : %s" % (e, ty))
        return e

    # Loads ------------------------------------------------------------
    def load(self, view):
        if view in self.loaded:
            return self.loaded[view]
        s, tr, tc = self.s, self.s["tr"], self.s["tc"]
        self.views[view] = True
        t, v = self.fresh("t"), self.fresh(view.lower())
        if view in ("X", "X2"):
            anchor, ty, tset = "[%%row, %d]" % s["col0"], "%dx%dxindex" % (
                tr, tc), "#tile"
            res = self.T
        elif view == "RV":
            anchor, ty, tset, res = "[%row]", "%dxindex" % tr, "#rtile", self.V
        else:  # CV
            anchor, ty, tset = "[%d]" % s["col0"], "%dxindex" % tc, "#ctile"
            res = "tensor<%dxf16>" % tc
        self.emit("%s = ktdp.construct_access_tile %%%s%s {access_tile_set = "
                  "%s, access_tile_order = %s} : %s -> !ktdp.access_tile<%s>"
                  % (t, view, anchor, tset, "#id2" if "x" in ty[:-6] else "#id1",
                     self.memref(view), ty))
        self.emit("%s = ktdp.load %s : <%s> -> %s" % (v, t, ty, res))
        self.loaded[view] = v
        return v

    def memref(self, view):
        s = self.s
        rows = "?" if s["mode"] == "runtime" else str(s["rows"])
        if view in ("X", "X2", "Y", "Y2"):
            return "memref<%sx%dxf16>" % (rows, s["cols"])
        if view in ("RV", "S"):
            return "memref<%sxf16>" % rows
        return "memref<%dxf16>" % s["cols"]

    # Ops --------------------------------------------------------------
    def binary(self, fn, a, b):
        r = self.fresh()
        if not self.rw and self.n % 2 == 0:
            e = self.empty(self.T)
            self.emit("%s = %s ins(%s, %s : %s, %s) outs(%s : %s) -> %s" % (
                r, NAMED[fn], a, b, self.T, self.T, e, self.T, self.T))
        else:
            self.emit("%s = arith.%s %s, %s : %s" % (r, fn, a, b, self.T))
        return r

    def unary(self, fn, a):
        r = self.fresh()
        opname = {"negf": "arith.negf", "absf": "math.absf",
                  "exp": "math.exp"}[fn]
        self.emit("%s = %s %s : %s" % (r, opname, a, self.T))
        return r

    def splat_const(self, hexval):
        r = self.fresh("k")
        if self.rw:
            self.emit("%s = tensor.splat %s : %s" % (r, self.f16(hexval),
                                                     self.T))
        else:
            self.emit("%s = arith.constant dense<%s> : %s" % (r, F16[hexval],
                                                             self.T))
        return r

    def reduce(self, red, a):
        """Row reduction of a tile value to a per-row tensor."""
        init_val = "0x0000" if red == "sum" else "0xFC00"
        init, r = self.fresh("init"), self.fresh("red")
        if self.rw:
            self.emit("%s = tensor.splat %s : %s" % (init, self.f16(init_val),
                                                     self.V))
            fn = "addf" if red == "sum" else "maxnumf"
            self.emit("%s = linalg.reduce { arith.%s } ins(%s : %s) outs(%s : "
                      "%s) dimensions = [1]" % (r, fn, a, self.T, init, self.V))
            return r
        if red == "sum32":
            return self.sum_f32(a)
        e = self.empty(self.V)
        self.emit("%s = linalg.fill ins(%s : f16) outs(%s : %s) -> %s" % (
            init, self.f16(init_val), e, self.V, self.V))
        fn = "addf" if red == "sum" else "maximumf"
        self.emit("%s = linalg.reduce ins(%s : %s) outs(%s : %s) dimensions "
                  "= [1]" % (r, a, self.T, init, self.V))
        self.emit("  (%in: f16, %acc: f16) {")
        self.emit("    %%racc = arith.%s %%in, %%acc : f16" % fn)
        self.emit("    linalg.yield %racc : f16")
        self.emit("  }")
        return r

    def sum_f32(self, a):
        """A row sum accumulated in f32 and rounded once (row_reduce.mlir)."""
        V32 = self.V.replace("f16", "f32")
        e, init, r, r16 = (self.fresh("e"), self.fresh("init"),
                           self.fresh("red"), self.fresh("red"))
        self.scalars["%cst_f32_0"] = "0.0"
        self.emit("%s = tensor.empty() : %s" % (e, V32))
        self.emit("%s = linalg.fill ins(%%cst_f32_0 : f32) outs(%s : %s) -> %s"
                  % (init, e, V32, V32))
        self.emit("%s = linalg.generic {indexing_maps = [#id2, #row], "
                  "iterator_types = [\"parallel\", \"reduction\"]} ins(%s : "
                  "%s) outs(%s : %s) {" % (r, a, self.T, init, V32))
        self.emit("^bb0(%in: f16, %acc: f32):")
        self.emit("  %w = arith.extf %in : f16 to f32")
        self.emit("  %sacc = arith.addf %w, %acc : f32")
        self.emit("  linalg.yield %sacc : f32")
        self.emit("} -> " + V32)
        self.emit("%s = arith.truncf %s : %s to %s" % (r16, r, V32, self.V))
        return r16

    def row_back(self, rowval):
        """A per-row tensor spread back over the tile."""
        r = self.fresh("b")
        if self.rw:  # tr == 1: extract the one element, splat it
            x = self.fresh("sc")
            self.emit("%s = tensor.extract %s[%s] : %s" % (x, rowval,
                                                          self.idx(0), self.V))
            self.emit("%s = tensor.splat %s : %s" % (r, x, self.T))
            return r
        e = self.empty(self.T)
        self.emit("%s = linalg.broadcast ins(%s : %s) outs(%s : %s) "
                  "dimensions = [1]" % (r, rowval, self.V, e, self.T))
        return r

    def col_back(self, colval):
        r = self.fresh("b")
        e = self.empty(self.T)
        self.emit("%s = linalg.broadcast ins(%s : tensor<%dxf16>) outs(%s : "
                  "%s) dimensions = [0]" % (r, colval, self.s["tc"], e, self.T))
        return r

    def apply(self, op, cur):
        k, fn = op["kind"], op["fn"]
        if k == "unary":
            return self.unary(fn, cur)
        if k == "binary_x2":
            return self.binary(fn, cur, self.load("X2"))
        if k == "binary_self":
            return self.binary(fn, cur, self.load("X"))
        if k == "const":
            return self.binary(fn, cur, self.splat_const(op["value"]))
        if k == "rowvec":
            return self.binary(fn, cur, self.row_back(self.load("RV")))
        if k == "colvec":
            return self.binary(fn, cur, self.col_back(self.load("CV")))
        if k == "reduce_back":
            return self.binary(fn, cur, self.row_back(self.reduce(op["red"],
                                                                  cur)))
        # softmax: exp(x - max) / sum
        m = self.row_back(self.reduce("max", cur))
        e = self.unary("exp", self.binary("subf", cur, m))
        return self.binary_div(e, self.row_back(self.reduce("sum", e)))

    def binary_div(self, a, b):
        r = self.fresh()
        self.emit("%s = arith.divf %s, %s : %s" % (r, a, b, self.T))
        return r

    def store(self, view, val, tile_ty, anchor, tset, order):
        self.views[view] = True
        t = self.fresh("t")
        self.emit("%s = ktdp.construct_access_tile %%%s%s {access_tile_set = "
                  "%s, access_tile_order = %s} : %s -> !ktdp.access_tile<%s>"
                  % (t, view, anchor, tset, order, self.memref(view), tile_ty))
        self.emit("ktdp.store %s, %s : %s, <%s>" % (
            val, t, self.T if view.startswith("Y") else self.V, tile_ty))




def set_box(dims, bounds, symbolic=False):
    """affine_set text for 0 <= d_i <= bound_i (None: < s0)."""
    names = ["d%d" % i for i in range(dims)]
    cons = []
    for d, b in zip(names, bounds):
        if b is None:
            cons += ["%s >= 0" % d, "-%s + s0 - 1 >= 0" % d]
        elif b == 0 and symbolic == "eq":
            cons.append("%s == 0" % d)
        else:
            cons += ["%s >= 0" % d, "-%s + %d >= 0" % (d, b)]
    sym = "[s0]" if None in bounds else ""
    return "affine_set<(%s)%s : (%s)>" % (", ".join(names), sym,
                                          ", ".join(cons))


def row_index(w):
    """Emits the loop header (if any) and the row index; returns the
    closing lines of the loop."""
    s, g, t, tr = w.s, w.s["grid"], w.s["trips"], w.s["tr"]
    mode, tid = s["mode"], "%tid"
    if mode == "block":
        w.lines.append("    %%row = arith.muli %s, %s : index" % (tid,
                                                                 w.idx(tr)))
        return []
    if mode == "cyclic":
        w.lines.append("    scf.for %%r = %s to %%n_rows step %s : index {" % (
            tid, w.idx(g)))
        w.emit("%row = arith.addi %r, " + w.idx(0) + " : index")
        return ["      scf.yield", "    }"]
    if mode == "runtime":
        w.lines.append("    %%per = arith.divui %%M, %s : index" % w.idx(g))
        w.lines.append("    %base = arith.muli %tid, %per : index")
        w.lines.append("    scf.for %%i = %s to %%per step %s {" % (
            w.idx(0), w.idx(1)))
        w.emit("%row = arith.addi %base, %i : index")
        return ["    }"]
    rw_tail = " : index" if w.rw else ""
    w.lines.append("    scf.for %%i = %s to %s step %s%s {" % (
        w.idx(0), w.idx(t), w.idx(1), rw_tail))
    if mode == "loop":
        w.emit("%%blk0 = arith.muli %s, %s : index" % (tid, w.idx(t)))
        w.emit("%blk = arith.addi %blk0, %i : index")
    else:  # interleave
        w.emit("%%blk0 = arith.muli %%i, %s : index" % w.idx(g))
        w.emit("%blk = arith.addi %blk0, %tid : index")
    w.emit("%%row = arith.muli %%blk, %s : index" % w.idx(tr))
    return (["      scf.yield"] if w.rw else []) + ["    }"]


def render(spec, name="fuzz_kernel"):
    w = Writer(spec)
    s, tr, tc = spec, spec["tr"], spec["tc"]
    closing = row_index(w)
    cur = w.load("X")
    for op in s["ops"]:
        cur = w.apply(op, cur)
    w.store("Y", cur, "%dx%dxindex" % (tr, tc), "[%%row, %d]" % s["col0"],
            "#tile", "#id2")
    if s["store_red"]:
        w.store("S", w.reduce(s["store_red"], cur), "%dxindex" % tr,
                "[%row]", "#rtile", "#id1")
    if s.get("sibling"):  # an independent compute group: Y2 = f(X2)
        w.store("Y2", w.apply({"kind": "unary", "fn": s["sibling"]},
                              w.load("X2")), "%dx%dxindex" % (tr, tc),
                "[%%row, %d]" % s["col0"], "#tile", "#id2")
    body = w.lines + closing

    dyn = s["mode"] == "runtime"
    last_row = None if dyn else s["rows"] - 1 - s["row_slack"]
    last_col = s["cols"] - 1 - s["col_slack"]
    aliases = [
        "#mat = " + set_box(2, [last_row, last_col]),
        "#vec = " + set_box(1, [last_row]),
        "#cvec = " + set_box(1, [last_col]),
        "#tile = " + set_box(2, [tr - 1, tc - 1], "eq" if w.rw else False),
        "#rtile = " + set_box(1, [tr - 1], "eq" if w.rw else False),
        "#ctile = " + set_box(1, [tc - 1]),
        "#id1 = affine_map<(d0) -> (d0)>",
        "#id2 = affine_map<(d0, d1) -> (d0, d1)>",
        "#row = affine_map<(d0, d1) -> (d0)>",
    ]
    rows = "%M" if dyn else str(s["rows"])
    strides = "[%d, 1]" % (s["cols"] + s["pad"])
    if s.get("colmajor"):  # element (r, c) at c * (rows + pad) + r
        strides = "[1, %d]" % (s["rows"] + s["pad"])
    view_decl = {
        "X": ("[%s, %d]" % (rows, s["cols"]), strides, "#mat"),
        "X2": ("[%s, %d]" % (rows, s["cols"]), strides, "#mat"),
        "Y": ("[%s, %d]" % (rows, s["cols"]), strides, "#mat"),
        "Y2": ("[%s, %d]" % (rows, s["cols"]), strides, "#mat"),
        "RV": ("[%s]" % rows, "[1]", "#vec"),
        "S": ("[%s]" % rows, "[1]", "#vec"),
        "CV": ("[%d]" % s["cols"], "[1]", "#cvec"),
    }
    what = {"X": "input", "X2": "input", "RV": "input, one per row",
            "CV": "input, one per column", "Y": "output", "Y2": "output",
            "S": "output"}
    order = [v for v in ("X", "X2", "RV", "CV", "Y", "Y2", "S")
             if v in w.views]
    rt = ("!ktdp.runtime_arg<index, granularity=%d, upperbound=1024>"
          % s["grid"])
    args = []
    if dyn:
        args.append(("%M_arg: " + rt, "row count M"))
    for v in order:
        sizes = view_decl[v][0].replace("%M", "M")
        args.append(("%%%s: index" % arg_name(v, w.rw),
                     "%s: %s f16, strides %s (%s)" % (
                         v, sizes, view_decl[v][1], what[v])))
    if s["mode"] == "cyclic":
        args.append(("%n_rows: index", "rows to process"))
    grid = ("[%d, 1]" % s["grid"]) if s["gridrank"] == 2 else (
        "[%d]" % s["grid"])
    out = ["// Generated by scripts/ktirgen.py (%s style, %s rows)." % (
        s["style"], s["mode"]), "// spec: %r" % (spec,), ""]
    out += aliases
    out.append("module {")
    if w.rw:
        out.append("  func.func @%s(" % name + args[0][0] + ",  // " +
                   args[0][1])
        pad = " " * (len("  func.func @%s(" % name))
        for i, (a, c) in enumerate(args[1:]):
            sep = ")" if i == len(args) - 2 else ","
            out.append(pad + a + sep + "  // " + c)
        out.append("      attributes {grid = %s} {" % grid)
    else:
        out.append("  func.func @%s(%s) attributes {grid = %s} {" % (
            name, ", ".join(a for a, _ in args), grid))
    two_ids = s["gridrank"] == 2 and not w.rw
    if two_ids:
        w.indexes.add(0)
    for n in sorted(w.indexes):
        out.append("    %%c%d = arith.constant %d : index" % (n, n))
    if two_ids:
        out.append("    %ids:2 = ktdp.get_compute_tile_id : index, index")
        out.append("    %tid = arith.addi %ids#0, %c0 : index")
    else:
        out.append("    %tid = ktdp.get_compute_tile_id : index")
    for nm, val in sorted(w.scalars.items()):
        out.append("    %s = arith.constant %s : %s" % (
            nm, val, "f32" if "f32" in nm else "f16"))
    if dyn:
        out.append("    %M = ktdp.runtime_arg_extract value from %M_arg : " +
                   rt + " -> index")
    for v in order:
        sizes, strides, cset = view_decl[v]
        out.append("    %%%s = ktdp.construct_memory_view %%%s, sizes: %s, "
                   "strides: %s {coordinate_set = %s, memory_space = "
                   "#ktdp.memory_space<global>} : %s" % (
                       v, arg_name(v, w.rw), sizes, strides, cset,
                       w.memref(v)))
    out += body
    out += ["    return", "  }", "}", ""]
    return "\n".join(out)


def arg_name(view, rw):
    return view.lower() + ("_ptr" if rw else "")
