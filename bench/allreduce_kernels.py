#!/usr/bin/env python3
"""Scheduled all-reduces against their topology bound (issue 16, Measure).

bench/allreduce.py times hand-written DataflowIR; this driver times what the
scheduler makes of a KTIR kernel (ktdf-lower-inter-tile,
ktdf-schedule-all-reduce, ktdf-to-dfir). The kernel, written as the field
guide's all-reduces (§1e): a grid of P tiles, tile t loads row t of a Px(S/2)
f16 tensor as its 1x(S/2) partial, all tiles all-reduce it with `addf`, and
tile t stores the sum into row t of the output. The same kernel with
`addf(p, p)` in place of the exchange is its baseline (the load, one pass
through the vector unit and the store of the same bytes), and

    exchange = cycles(kernel) - cycles(baseline)

is compared with the bounds of the algorithms, every figure read from the
device description (`ktflow arch-info --json`: hop latency, link bandwidth,
ring or mesh shape):

    ring: 2(P-1) steps of S/P bytes,
          2(P-1) * (h * hop latency + S / (P * link bandwidth))
    tree: reduce to one tile in ceil(log2 P) steps of S bytes, then the
          broadcast back, 2 ceil(log2 P) * (h * hop latency + S / link bandwidth)

h being the longest route (in hops, along the device's own routing: the
shorter way round a ring, x then y on a mesh) between two tiles that send
to each other: neighbours in the ring the scheduler chose (read from the
compiled DataflowIR's `sent` tokens), any two of its members for the tree. The ratio is the exchange over the bound of the
algorithm the scheduler ran (the ring). The issue's target: within 1.3x
at 64 KiB.

Rows with more tiles than the device has lanes run several tiles per lane
(ktdf-merge-exchange-tiles): each lane adds its tiles' partials, then the
ring goes round the lanes' P' merged tiles (`members`, the ring's `sent`
tokens), and the bounds are those of P' members. The exchange then
includes the lane's own additions (and the baseline runs the lane's tiles
one after the other).

  python3 bench/allreduce_kernels.py [--ktflow build/bin/ktflow] [--check]
  python3 bench/allreduce_kernels.py --emit P ELEMENTS   # print a kernel
"""

import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (device, tiles, bytes per partial): the guide's 256-byte partials on 4
# tiles, and 64 KiB on every core (32 on spyre_like, 16 on mesh_device).
ROWS = [
    ("spyre_like", 4, 256),
    ("spyre_like", 32, 65536),
    ("mesh_device", 4, 256),
    ("mesh_device", 16, 65536),
    ("sample_device", 4, 256),
    ("sample_device", 4, 65536),
    ("mesh_device", 32, 256),
    ("mesh_device", 32, 65536),
    ("sample_device", 16, 256),
]


def kernel(tiles, elements, exchange=True):
    """The KTIR all-reduce of one 1 x `elements` f16 partial per tile."""
    p, n = tiles - 1, elements - 1
    t = "tensor<1x%dxf16>" % elements
    m = "memref<%dx%dxf16>" % (tiles, elements)
    a = "!ktdp.access_tile<1x%dxindex>" % elements
    lines = [
        "#all_rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + %d >= 0, d1 >= 0, -d1 + %d >= 0)>" % (p, n),
        "#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + %d >= 0)>" % n,
        "#all_tiles = affine_set<(i)[g] : (i >= 0, -i + %d >= 0, g == 0)>" % p,
        "#one_group = affine_set<(g) : (g == 0)>",
        "#id2 = affine_map<(d0, d1) -> (d0, d1)>",
        "module {",
        "  func.func @ring_allreduce(%%x: index, %%y: index) attributes {grid = [%d]} {" % tiles,
        "    %id = ktdp.get_compute_tile_id : index",
    ]
    for view, arg in (("X", "x"), ("Y", "y")):
        lines.append("    %%%s = ktdp.construct_memory_view %%%s, sizes: [%d, %d], strides: [%d, 1] "
                     "{coordinate_set = #all_rows, memory_space = #ktdp.memory_space<global>} : %s"
                     % (view, arg, tiles, elements, elements, m))
        lines.append("    %%t%s = ktdp.construct_access_tile %%%s[%%id, 0] {access_tile_set = #row, "
                     "access_tile_order = #id2} : %s -> %s" % (view, view, m, a))
    lines.append("    %%p = ktdp.load %%tX : <1x%dxindex> -> %s" % (elements, t))
    if exchange:
        future = "!ktdp.tile_future<(%s), groups = #one_group>" % t
        lines += [
            "    %%zero = arith.constant dense<0.0> : %s" % t,
            "    %%fut = ktdp.inter_tile_produce producer_tiles_per_group = #all_tiles -> %s {" % future,
            "    ^bb0(%gid: index):",
            "      ktdp.yield_partial %%p : %s" % t,
            "    }",
            "    %%s = ktdp.inter_tile_reduce(%%fut) consumer_tiles_per_group = #all_tiles, "
            "identity(%%zero : %s) : %s -> %s {" % (t, future, t),
            "    ^bb0(%%a: %s, %%b: %s):" % (t, t),
            "      %%r = arith.addf %%a, %%b : %s" % t,
            "      ktdp.yield_reduced %%r : %s" % t,
            "    }",
        ]
    else:
        lines.append("    %%s = arith.addf %%p, %%p : %s" % t)
    lines += ["    ktdp.store %%s, %%tY : %s, <1x%dxindex>" % (t, elements),
              "    return", "  }", "}"]
    return "\n".join(lines) + "\n"


def hops_function(link):
    """Hops between two cores along the device's routes."""
    cores = link["endpoints"]
    if link["topology"] == "mesh":
        def mesh(a, b):  # dims fastest first, as MachineInterconnect::path
            total, stride = 0, 1
            for extent in link["dims"]:
                total += abs(a // stride % extent - b // stride % extent)
                stride *= extent
            return total
        return mesh
    if link["topology"] == "ring":
        if link["bidirectional"]:
            return lambda a, b: min((b - a) % cores, (a - b) % cores)
        return lambda a, b: (b - a) % cores
    return lambda a, b: 1  # crossbar


def ring_steps(ktflow, arch, tiles, elements, tmp):
    """The (core, next core) pairs of the ring the scheduler chose: the
    `sent` tokens of the compiled DataflowIR go from a core's send unit to
    the next core's load unit."""
    path = os.path.join(tmp, "ring.mlir")
    with open(path, "w") as f:
        f.write(kernel(tiles, elements))
    dfir = subprocess.run([ktflow, "compile", path, "--arch", arch, "--emit=dataflow",
                           "-o", "-"], check=True, capture_output=True, text=True).stdout
    return {(int(a), int(b)) for a, b in re.findall(
        r'dfir\.sync @p\d+_sent_c\d+_l0 from "\w+\[(\d+)\][^"]*" to "\w+\[(\d+)\]', dfir)}


def run(ktflow, device, text, tmp, check):
    path = os.path.join(tmp, "k.mlir")
    with open(path, "w") as f:
        f.write(text)
    cmd = [ktflow, "run", path, "--arch",
           os.path.join(ROOT, "examples/devices", device + ".mlir"), "--json"]
    if check:
        cmd.append("--check")
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip().splitlines()[-1])
    return json.loads(out.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ktflow", default=os.path.join(ROOT, "build", "bin", "ktflow"))
    ap.add_argument("--check", action="store_true",
                    help="verify every all-reduce against the interpreter")
    ap.add_argument("--emit", nargs=2, type=int, metavar=("P", "ELEMENTS"))
    args = ap.parse_args()
    if args.emit:
        sys.stdout.write(kernel(*args.emit))
        return
    print("| device | tiles | members | bytes | cycles | baseline | exchange | ring hops | "
          "ring bound | tree bound | exchange / ring bound | interconnect | check |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for device, tiles, size in ROWS:
            arch = os.path.join(ROOT, "examples/devices", device + ".mlir")
            info = json.loads(subprocess.run(
                [args.ktflow, "arch-info", arch, "--json"], check=True,
                capture_output=True, text=True).stdout)
            link = info["interconnects"][0]
            hops = hops_function(link)
            elements = size // 2
            steps = ring_steps(args.ktflow, arch, tiles, elements, tmp)
            members = len(steps)
            ring = max(hops(a, b) for a, b in steps)
            cores = sorted({a for a, _ in steps})
            spread = max(hops(a, b) for a in cores for b in cores)
            lat, bw = link["hop_latency"], link["link_bandwidth"]
            ring_bound = 2 * (members - 1) * (ring * lat + size / (members * bw))
            tree_bound = 2 * math.ceil(math.log2(members)) * (spread * lat + size / bw)
            try:
                full = run(args.ktflow, device, kernel(tiles, elements), tmp, args.check)
                base = run(args.ktflow, device, kernel(tiles, elements, False), tmp, False)
            except RuntimeError as e:
                print("| %s | %d | %d | %d | failed: %s |" % (device, tiles, members, size, e))
                continue
            exchange = full["cycles"] - base["cycles"]
            links = full.get("interconnect") or []
            busiest = max(links, key=lambda l: l["utilization"], default=None)
            use = ("%d B over %d links, busiest %d -> %d at %.1f%%"
                   % (sum(l["bytes"] for l in links), len(links), busiest["from_core"],
                      busiest["to_core"], 100 * busiest["utilization"]) if busiest else "")
            verdict = ""
            if args.check:
                verdict = "PASS" if full["check"]["pass"] else "FAIL"
            print("| %s | %d | %d | %d | %d | %d | %d | %d | %.0f | %.0f | %.2fx | %s | %s |"
                  % (device, tiles, members, size, full["cycles"], base["cycles"], exchange,
                     ring, ring_bound, tree_bound, exchange / ring_bound, use, verdict))


if __name__ == "__main__":
    main()
