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

The "exchange" cycles exclude the input load and output store: they run
from the last core's input landing to the last all-gather token (measured
as total cycles minus the same program without the exchange).

  python3 bench/allreduce.py [--ktflow build/bin/ktflow] > bench/allreduce.md
  python3 bench/allreduce.py --emit DEVICE P BYTES [--cores 0,1,...]
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
                          ld="core[{i}]/subcore[0]/L1LU",
                          vec="core[{i}]/subcore[0]/SFU_Block/SFU",
                          st="core[{i}]/subcore[0]/L1SU", mem="core[{i}]/L1",
                          ddr="DDR"),
    "spyre_like": dict(din="core[{i}]/DMA_IN", dout="core[{i}]/DMA_OUT",
                       ld="core[{i}]/corelet[0]/LXLU",
                       vec="core[{i}]/corelet[0]/SFP",
                       st="core[{i}]/corelet[0]/LXSU", mem="core[{i}]/LX",
                       ddr="DDR"),
    "mesh_device": dict(din="tile[{i}]/DMA", dout="tile[{i}]/DMA",
                        ld="tile[{i}]/VLD", vec="tile[{i}]/VPU",
                        st="tile[{i}]/VST", mem="tile[{i}]/SPM", ddr="HBM"),
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


def generate(dev, cores, size, exchange=True):
    """The DataflowIR kernel: one partial of `size` bytes per core in `cores`
    (ring order), summed over all of them."""
    P = len(cores)
    U = UNITS[dev]
    chunk = size // P
    assert chunk * P == size and chunk % 2 == 0
    entry = min(128, chunk)
    assert chunk % entry == 0
    entries = chunk // entry
    lanes = entry // 2

    def u(kind, idx):
        return U[kind].format(i=cores[idx])

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
        w('  dfir.fifo @to_vec%d from "%s" to "%s" entry %d' % (i, u("ld", i), u("vec", i), entry))
        w('  dfir.fifo @from_vec%d from "%s" to "%s" entry %d' % (i, u("vec", i), u("st", i), entry))
    for i in range(P):
        n = (i + 1) % P
        if not merged:
            w('  dfir.sync @loaded%d from "%s" to "%s"' % (i, u("din", i), u("dout", i)))
        if exchange:
            w('  dfir.sync @sent%d from "%s" to "%s"' % (i, u("dout", i), u("ld", n)))
            w('  dfir.sync @added%d from "%s" to "%s"' % (i, u("st", i), u("dout", i)))
            w('  dfir.sync @gathered%d from "%s" to "%s"' % (i, u("dout", i), u("dout", n)))

    def const(body, value):
        body.append('    %%c%d = arith.constant %d : index' % (value, value))

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
                     '    %%chunk = arith.constant %d : index' % chunk]
            send.append('    // Reduce-scatter: step k sends chunk (%d - k) mod %d '
                        'into receive slot k of the next core.' % (i, P))
            for k in range(P - 1):
                c = (i - k) % P
                if k:
                    send.append('    dfir.sync_recv @added%d' % i)
                send.append('    %%rs_src%d = arith.addi %%acc, %%o%d : index' % (k, chunk * c))
                send.append('    %%rs_dst%d = arith.addi %%nrecv, %%o%d : index' % (k, chunk * k))
                send.append('    dfir.remote_dma %%chunk bytes from "%s"[%%rs_src%d] to "%s"[%%rs_dst%d]'
                            % (mem, k, nmem, k))
                send.append('    dfir.sync_send @sent%d' % i)
            send.append('    dfir.sync_recv @added%d' % i)
            send.append('    // All-gather: step k forwards the reduced chunk (%d + 1 - k) mod %d.' % (i, P))
            for k in range(P - 1):
                c = (i + 1 - k) % P
                if k:
                    send.append('    dfir.sync_recv @gathered%d' % p)
                send.append('    %%ag_src%d = arith.addi %%acc, %%o%d : index' % (k, chunk * c))
                send.append('    %%ag_dst%d = arith.addi %%nacc, %%o%d : index' % (k, chunk * c))
                send.append('    dfir.remote_dma %%chunk bytes from "%s"[%%ag_src%d] to "%s"[%%ag_dst%d]'
                            % (mem, k, nmem, k))
                send.append('    dfir.sync_send @gathered%d' % i)
            send.append('    dfir.sync_recv @gathered%d' % p)
        send += ['    %y = dfir.address @y',
                 '    %%yrow = arith.constant %d : index' % (size * i),
                 '    %dst = arith.addi %y, %yrow : index',
                 '    %%all = arith.constant %d : index' % size,
                 '    dfir.dma %%all bytes from "%s"[%%acc] to "%s"[%%dst]' % (mem, U["ddr"])]

        def offsets(lines):
            used = sorted({int(m) for l in lines for m in re.findall(r'%o(\d+)\b', l)})
            return ['    %%o%d = arith.constant %d : index' % (v, v) for v in used]

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
        # The load unit streams, entry by entry, the core's own chunk and the
        # one received, interleaved, so the vector unit adds them in order.
        body = ['    %%acc = dfir.address @acc%d' % i,
                '    %%recv = dfir.address @recv%d' % i,
                '    %%e = arith.constant %d : index' % entry]
        for k in range(P - 1):
            c = (p - k) % P
            body.append('    dfir.sync_recv @sent%d' % p)
            for e in range(entries):
                body.append('    %%a%d_%d = arith.addi %%acc, %%o%d : index' % (k, e, chunk * c + entry * e))
                body.append('    %%r%d_%d = arith.addi %%recv, %%o%d : index' % (k, e, chunk * k + entry * e))
                body.append('    dfir.load @to_vec%d from "%s"[%%a%d_%d] size %%e' % (i, mem, k, e))
                body.append('    dfir.load @to_vec%d from "%s"[%%r%d_%d] size %%e' % (i, mem, k, e))
        w('  dfir.unit "%s" {' % u("ld", i))
        out.extend(offsets(body) + body)
        w('  }')
        w('  dfir.unit "%s" {' % u("vec", i))
        w('    %c0 = arith.constant 0 : index')
        w('    %c1 = arith.constant 1 : index')
        w('    %%steps = arith.constant %d : index' % ((P - 1) * entries))
        w('    scf.for %k = %c0 to %steps step %c1 {')
        w('      %%mine = dfir.recv @to_vec%d : vector<%dxf16>' % (i, lanes))
        w('      %%theirs = dfir.recv @to_vec%d : vector<%dxf16>' % (i, lanes))
        w('      %%sum = dfir.map %%mine, %%theirs : vector<%dxf16>, vector<%dxf16> -> vector<%dxf16> {'
          % (lanes, lanes, lanes))
        w('      ^bb0(%a: f16, %b: f16):')
        w('        %s = arith.addf %a, %b : f16')
        w('        dfir.yield %s : f16')
        w('      }')
        w('      dfir.send @from_vec%d, %%sum : vector<%dxf16>' % (i, lanes))
        w('    }')
        w('  }')
        body = ['    %%acc = dfir.address @acc%d' % i,
                '    %%chunk = arith.constant %d : index' % chunk]
        for k in range(P - 1):
            c = (p - k) % P
            body.append('    %%a%d = arith.addi %%acc, %%o%d : index' % (k, chunk * c))
            body.append('    dfir.store @from_vec%d to "%s"[%%a%d] size %%chunk' % (i, mem, k))
            body.append('    dfir.sync_send @added%d' % i)
        w('  dfir.unit "%s" {' % u("st", i))
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
    args = ap.parse_args()
    if args.emit:
        dev, P, size = args.emit[0], int(args.emit[1]), int(args.emit[2])
        cores = ([int(c) for c in args.cores.split(",")] if args.cores
                 else list(range(P)))
        sys.stdout.write(generate(dev, cores, size))
        return
    rows = [("spyre_like", list(range(4)), 256),
            ("spyre_like", list(range(32)), 65536),
            ("sample_device", list(range(4)), 256),
            ("mesh_device", [0, 1, 2, 3], 256),
            ("mesh_device", snake(4, 4), 65536)]
    print("| device | cores | bytes | cycles | exchange | longest hop | bound (ring) | ratio | interconnect |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for dev, cores, size in rows:
            P = len(cores)
            hop, bw, hops = TOPOLOGY[dev]
            longest = max(hops(cores[i], cores[(i + 1) % P]) for i in range(P))
            bound = 2 * (P - 1) * (longest * hop + size / (P * bw))
            total, link = simulate(args.ktflow, dev, generate(dev, cores, size), tmp)
            base, _ = simulate(args.ktflow, dev,
                               generate(dev, cores, size, exchange=False), tmp)
            ex = total - base
            print("| %s | %d | %d | %d | %d | %d | %.0f | %.2fx | %s |"
                  % (dev, P, size, total, ex, longest, bound, ex / bound,
                     link.replace("interconnect: ", "")))


if __name__ == "__main__":
    main()
