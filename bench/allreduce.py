#!/usr/bin/env python3
"""Ring all-reduce over the core interconnect against its topology bound.

Writes the DataflowIR of a ring all-reduce (reduce-scatter, then
all-gather) of one f16 partial of S bytes per core over P cores, emits it
for a shipped device, simulates it and compares the cycles of the exchange
with the algorithm's bound (issue 16, Measure):

    ring:  2 (P - 1) (hops * hop latency + S / (P * link bandwidth))

with hops the longest route between two cores next to each other on the
ring (1 on a ring of neighbours; the closing route of a row of a mesh or of
4 cores of spyre_like's 32-core ring is 3).

Each core i loads its partial (row i of x) from device memory into its
scratchpad. Reduce-scatter step k (k < P - 1): core i's DMA unit sends chunk
(i - k) mod P (S / P bytes) with a remote_dma into receive slot k of the next
core of the ring, whose load unit streams that chunk and its own into its
vector unit, which adds them; the store unit writes the sum back. After it,
core i holds the reduced chunk (i + 1) mod P. All-gather step k forwards
chunk (i + 1 - k) mod P to the same place of the next core. Each core then
stores the whole sum (row i of y). The fold order of chunk c is the ring's,
starting at core c + 1 (not the ascending tile order of the interpreter).

Pipelined (--split M, --lanes L): each chunk moves as M pieces, each with
its own token, so a piece crosses the ring while the previous one is added
(on L lanes of load, vector and store units in turn: one LX port carries
both operands of an add, so one lane adds at half the link's rate).

The "exchange" cycles exclude the input load and output store: they run
from the last core's input landing to the last all-gather token (measured
as total cycles minus the same program without the exchange).

  python3 bench/allreduce.py [--ktflow build/bin/ktflow] > bench/allreduce.md
  python3 bench/allreduce.py --emit DEVICE P BYTES [--cores 0,1,...]
      [--split M] [--lanes L]
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

UNITS = {
    "sample_device": dict(din="core[{i}]/MNILU_Block/MNILU",
                          dout="core[{i}]/MNISU_Block/MNISU",
                          ld="core[{i}]/subcore[{l}]/L1LU",
                          vec="core[{i}]/subcore[{l}]/SFU_Block/SFU",
                          st="core[{i}]/subcore[{l}]/L1SU", mem="core[{i}]/L1",
                          ddr="DDR", lanes=2),
    "spyre_like": dict(din="core[{i}]/DMA_IN", dout="core[{i}]/DMA_OUT",
                       ld="core[{i}]/corelet[{l}]/LXLU",
                       vec="core[{i}]/corelet[{l}]/SFP",
                       st="core[{i}]/corelet[{l}]/LXSU", mem="core[{i}]/LX",
                       ddr="DDR", lanes=2),
    "mesh_device": dict(din="tile[{i}]/DMA", dout="tile[{i}]/DMA",
                        ld="tile[{i}]/VLD", vec="tile[{i}]/VPU",
                        st="tile[{i}]/VST", mem="tile[{i}]/SPM", ddr="HBM",
                        lanes=1),
}
# (hop latency, link bandwidth in bytes/cycle, hops between two cores),
# from examples/devices.
def ring_hops(n):
    return lambda a, b: min((b - a) % n, (a - b) % n)


def mesh_hops(cols):
    return lambda a, b: abs(a % cols - b % cols) + abs(a // cols - b // cols)


TOPOLOGY = {
    "sample_device": (1, 64, ring_hops(4)),
    "spyre_like": (1, 128, ring_hops(32)),
    "mesh_device": (2, 64, mesh_hops(4)),
}


def snake(cols, rows):
    """A ring through a cols x rows mesh, row by row, every other reversed:
    each step is one hop except the closing one."""
    order = []
    for r in range(rows):
        row = [r * cols + c for c in range(cols)]
        order += row if r % 2 == 0 else row[::-1]
    return order


def generate(dev, cores, size, exchange=True, split=1, lanes=1):
    """The DataflowIR kernel: one partial of `size` bytes per core in `cores`
    (ring order), summed over all of them. With `split` > 1 each chunk
    moves as `split` pieces, each announced by its own token, so the next
    piece crosses the ring while the previous one is added (and forwarded
    while the next arrives); with `lanes` > 1 the pieces are added by that
    many load/vector/store lanes of a core in turn (spyre_like's corelets,
    sample_device's sub-cores)."""
    P = len(cores)
    U = UNITS[dev]
    assert 1 <= lanes <= U["lanes"]
    chunk = size // P
    assert chunk * P == size and chunk % 2 == 0
    piece = chunk // split
    assert piece * split == chunk
    entry = min(128, piece)
    assert piece % entry == 0
    entries = piece // entry
    elems = entry // 2

    def u(kind, idx, l=0):
        return U[kind].format(i=cores[idx], l=l)

    def tag(name, i, l):
        return "%s%d" % (name, i) if lanes == 1 else "%s%d_%d" % (name, i, l)

    def sfx(k, j):
        return "%d" % k if split == 1 else "%d_%d" % (k, j)

    merged = U["din"] == U["dout"]
    out = []
    w = out.append
    w('dfir.kernel @ring_allreduce device "%s" {' % dev)
    w('  dfir.tensor input @x : tensor<%dx%dxf16> in "%s"' % (P, size // 2, U["ddr"]))
    w('  dfir.tensor output @y : tensor<%dx%dxf16> in "%s"' % (P, size // 2, U["ddr"]))
    for i in range(P):
        w('  dfir.buffer @acc%d in "%s" size %d' % (i, u("mem", i), size))
        w('  dfir.buffer @recv%d in "%s" size %d' % (i, u("mem", i), chunk * (P - 1)))
    for i in range(P):
        for l in range(lanes):
            w('  dfir.fifo @%s from "%s" to "%s" entry %d'
              % (tag("to_vec", i, l), u("ld", i, l), u("vec", i, l), entry))
            w('  dfir.fifo @%s from "%s" to "%s" entry %d'
              % (tag("from_vec", i, l), u("vec", i, l), u("st", i, l), entry))
    for i in range(P):
        n = (i + 1) % P
        if not merged:
            w('  dfir.sync @loaded%d from "%s" to "%s"' % (i, u("din", i), u("dout", i)))
        if exchange:
            for l in range(lanes):
                w('  dfir.sync @%s from "%s" to "%s"' % (tag("sent", i, l), u("dout", i), u("ld", n, l)))
                w('  dfir.sync @%s from "%s" to "%s"' % (tag("added", i, l), u("st", i, l), u("dout", i)))
            w('  dfir.sync @gathered%d from "%s" to "%s"' % (i, u("dout", i), u("dout", n)))

    def offsets(lines):
        used = sorted({int(m) for l in lines for m in re.findall(r'%o(\d+)\b', l)})
        return ['    %%o%d = arith.constant %d : index' % (v, v) for v in used]

    for i in range(P):
        n, p = (i + 1) % P, (i - 1) % P
        mem, nmem = u("mem", i), u("mem", n)
        w('')
        w('  // Ring position %d (core %d): sends to core %d, receives from core %d.'
          % (i, cores[i], cores[n], cores[p]))
        load = ['    %x = dfir.address @x', '    %%acc = dfir.address @acc%d' % i,
                '    %%row = arith.constant %d : index' % (size * i),
                '    %src = arith.addi %x, %row : index',
                '    %%n = arith.constant %d : index' % size,
                '    dfir.dma %%n bytes from "%s"[%%src] to "%s"[%%acc]' % (U["ddr"], mem)]
        send = []
        if not merged:
            load.append('    dfir.sync_send @loaded%d' % i)
            send.append('    %%acc = dfir.address @acc%d' % i)
            send.append('    dfir.sync_recv @loaded%d' % i)
        if exchange:
            send += ['    %%nacc = dfir.address @acc%d' % n,
                     '    %%nrecv = dfir.address @recv%d' % n,
                     '    %%chunk = arith.constant %d : index' % piece]
            send.append('    // Reduce-scatter: step k sends chunk (%d - k) mod %d '
                        'into receive slot k of the next core.' % (i, P))
            for k in range(P - 1):
                c = (i - k) % P
                for j in range(split):
                    if k:
                        send.append('    dfir.sync_recv @%s' % tag("added", i, j % lanes))
                    send.append('    %%rs_src%s = arith.addi %%acc, %%o%d : index'
                                % (sfx(k, j), chunk * c + piece * j))
                    send.append('    %%rs_dst%s = arith.addi %%nrecv, %%o%d : index'
                                % (sfx(k, j), chunk * k + piece * j))
                    send.append('    dfir.remote_dma %%chunk bytes from "%s"[%%rs_src%s] to "%s"[%%rs_dst%s]'
                                % (mem, sfx(k, j), nmem, sfx(k, j)))
                    send.append('    dfir.sync_send @%s' % tag("sent", i, j % lanes))
            for j in range(split):
                send.append('    dfir.sync_recv @%s' % tag("added", i, j % lanes))
            send.append('    // All-gather: step k forwards the reduced chunk (%d + 1 - k) mod %d.' % (i, P))
            for k in range(P - 1):
                c = (i + 1 - k) % P
                for j in range(split):
                    if k:
                        send.append('    dfir.sync_recv @gathered%d' % p)
                    send.append('    %%ag_src%s = arith.addi %%acc, %%o%d : index'
                                % (sfx(k, j), chunk * c + piece * j))
                    send.append('    %%ag_dst%s = arith.addi %%nacc, %%o%d : index'
                                % (sfx(k, j), chunk * c + piece * j))
                    send.append('    dfir.remote_dma %%chunk bytes from "%s"[%%ag_src%s] to "%s"[%%ag_dst%s]'
                                % (mem, sfx(k, j), nmem, sfx(k, j)))
                    send.append('    dfir.sync_send @gathered%d' % i)
            for j in range(split):
                send.append('    dfir.sync_recv @gathered%d' % p)
        send += ['    %y = dfir.address @y',
                 '    %%yrow = arith.constant %d : index' % (size * i),
                 '    %dst = arith.addi %y, %yrow : index',
                 '    %%all = arith.constant %d : index' % size,
                 '    dfir.dma %%all bytes from "%s"[%%acc] to "%s"[%%dst]' % (mem, U["ddr"])]
        if merged:
            w('  dfir.unit "%s" {' % u("din", i))
            body = load + send
            out.extend(offsets(body) + body)
            w('  }')
        else:
            w('  dfir.unit "%s" {' % u("din", i))
            out.extend(load)
            w('  }')
            w('  dfir.unit "%s" {' % u("dout", i))
            out.extend(offsets(send) + send)
            w('  }')
        if not exchange:
            continue
        for l in range(lanes):
            mine = [j for j in range(split) if j % lanes == l]
            # The load unit streams, entry by entry, the core's own piece and
            # the one received, interleaved, so the vector unit adds them in
            # order.
            body = ['    %%acc = dfir.address @acc%d' % i,
                    '    %%recv = dfir.address @recv%d' % i,
                    '    %%e = arith.constant %d : index' % entry]
            for k in range(P - 1):
                c = (p - k) % P
                for j in mine:
                    body.append('    dfir.sync_recv @%s' % tag("sent", p, l))
                    for e in range(entries):
                        at = '%s_%d' % (sfx(k, j), e)
                        body.append('    %%a%s = arith.addi %%acc, %%o%d : index'
                                    % (at, chunk * c + piece * j + entry * e))
                        body.append('    %%r%s = arith.addi %%recv, %%o%d : index'
                                    % (at, chunk * k + piece * j + entry * e))
                        body.append('    dfir.load @%s from "%s"[%%a%s] size %%e' % (tag("to_vec", i, l), mem, at))
                        body.append('    dfir.load @%s from "%s"[%%r%s] size %%e' % (tag("to_vec", i, l), mem, at))
            w('  dfir.unit "%s" {' % u("ld", i, l))
            out.extend(offsets(body) + body)
            w('  }')
            w('  dfir.unit "%s" {' % u("vec", i, l))
            w('    %c0 = arith.constant 0 : index')
            w('    %c1 = arith.constant 1 : index')
            w('    %%steps = arith.constant %d : index' % ((P - 1) * len(mine) * entries))
            w('    scf.for %k = %c0 to %steps step %c1 {')
            w('      %%mine = dfir.recv @%s : vector<%dxf16>' % (tag("to_vec", i, l), elems))
            w('      %%theirs = dfir.recv @%s : vector<%dxf16>' % (tag("to_vec", i, l), elems))
            w('      %%sum = dfir.map %%mine, %%theirs : vector<%dxf16>, vector<%dxf16> -> vector<%dxf16> {'
              % (elems, elems, elems))
            w('      ^bb0(%a: f16, %b: f16):')
            w('        %s = arith.addf %a, %b : f16')
            w('        dfir.yield %s : f16')
            w('      }')
            w('      dfir.send @%s, %%sum : vector<%dxf16>' % (tag("from_vec", i, l), elems))
            w('    }')
            w('  }')
            body = ['    %%acc = dfir.address @acc%d' % i,
                    '    %%chunk = arith.constant %d : index' % piece]
            for k in range(P - 1):
                c = (p - k) % P
                for j in mine:
                    body.append('    %%a%s = arith.addi %%acc, %%o%d : index' % (sfx(k, j), chunk * c + piece * j))
                    body.append('    dfir.store @%s to "%s"[%%a%s] size %%chunk' % (tag("from_vec", i, l), mem, sfx(k, j)))
                    body.append('    dfir.sync_send @%s' % tag("added", i, l))
            w('  dfir.unit "%s" {' % u("st", i, l))
            out.extend(offsets(body) + body)
            w('  }')
    w('}')
    return "\n".join(out) + "\n"


def simulate(ktflow, dev, text, tmp):
    src = os.path.join(tmp, "k.mlir")
    bundle = os.path.join(tmp, "k.ktfb")
    y = os.path.join(tmp, "y.npy")
    with open(src, "w") as f:
        f.write(text)
    arch = os.path.join(ROOT, "examples", "devices", dev + ".mlir")
    subprocess.run([ktflow, "emit", src, "--arch", arch, "-o", bundle],
                   check=True, capture_output=True, text=True)
    r = subprocess.run([ktflow, "sim", bundle, "--input", "x=range:-2:2",
                        "--output", "y=" + y], check=True,
                       capture_output=True, text=True)
    cycles = int(re.search(r"^cycles: (\d+)", r.stdout, re.M).group(1))
    link = re.search(r"^interconnect: .*", r.stdout, re.M)
    return cycles, (link.group(0) if link else "")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ktflow", default=os.path.join(ROOT, "build", "bin", "ktflow"))
    ap.add_argument("--emit", nargs=3, metavar=("DEVICE", "P", "BYTES"))
    ap.add_argument("--cores", help="ring order of the cores (default 0..P-1)")
    ap.add_argument("--split", type=int, default=1,
                    help="pieces per chunk, each with its own token")
    ap.add_argument("--lanes", type=int, default=1,
                    help="load/vector/store lanes of a core adding pieces")
    args = ap.parse_args()
    if args.emit:
        dev, P, size = args.emit[0], int(args.emit[1]), int(args.emit[2])
        cores = ([int(c) for c in args.cores.split(",")] if args.cores
                 else list(range(P)))
        sys.stdout.write(generate(dev, cores, size, split=args.split,
                                  lanes=args.lanes))
        return
    # (device, ring of cores, bytes, pieces per chunk, lanes)
    rows = [("spyre_like", list(range(4)), 256, 1, 1),
            ("spyre_like", list(range(32)), 65536, 1, 1),
            ("spyre_like", list(range(32)), 65536, 8, 2),
            ("sample_device", list(range(4)), 256, 1, 1),
            ("mesh_device", [0, 1, 2, 3], 256, 1, 1),
            ("mesh_device", snake(4, 4), 65536, 1, 1),
            ("mesh_device", snake(4, 4), 65536, 8, 1)]
    print("| device | cores | bytes | pieces x lanes | cycles | exchange | longest hop | bound (ring) | ratio | interconnect |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for dev, cores, size, split, lanes in rows:
            P = len(cores)
            hop, bw, hops = TOPOLOGY[dev]
            longest = max(hops(cores[i], cores[(i + 1) % P]) for i in range(P))
            bound = 2 * (P - 1) * (longest * hop + size / (P * bw))
            total, link = simulate(args.ktflow, dev,
                                   generate(dev, cores, size, split=split,
                                            lanes=lanes), tmp)
            base, _ = simulate(args.ktflow, dev,
                               generate(dev, cores, size, exchange=False), tmp)
            ex = total - base
            print("| %s | %d | %d | %d x %d | %d | %d | %d | %.0f | %.2fx | %s |"
                  % (dev, P, size, split, lanes, total, ex, longest, bound,
                     ex / bound, link.replace("interconnect: ", "")))


if __name__ == "__main__":
    main()
