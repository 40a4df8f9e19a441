// RUN: ktflow emit %s --arch %S/Inputs/outstanding_device.mlir -o %t.ktfb
// RUN: ktflow sim %t.ktfb --input x=seq:-1536:1536 --output y=%t.y.npy --trace %t.json | FileCheck %s
// RUN: python3 %S/Inputs/check_npy.py %t.y.npy "i + 1024 if i < 512 else i - 2048" 3072
// RUN: FileCheck %s --check-prefix=TRACE < %t.json
// RUN: sed -e 's/max_outstanding = 4/max_outstanding = 1/' %S/Inputs/outstanding_device.mlir > %t.one.mlir
// RUN: ktflow emit %s --arch %t.one.mlir -o %t.one.ktfb
// RUN: ktflow sim %t.one.ktfb --input x=seq:-1536:1536 --output y=%t.y1.npy | FileCheck %s --check-prefix=ONE
// RUN: python3 %S/Inputs/check_npy.py %t.y1.npy "i + 1024 if i < 512 else i - 2048" 3072
// RUN: ktflow arch-info %S/Inputs/outstanding_device.mlir | FileCheck %s --check-prefix=ARCH

// ARCH: core/FAST {{.*}} load, store, 4 in flight
// ARCH: core/SLOW {{.*}} load, store{{$}}

// A DMA engine that keeps up to 4 transfers in flight (FAST,
// ktdf_arch.max_outstanding = 4) loads six 1 KiB tiles DDR -> L1, signals
// SLOW, and stores tile 5 back to DDR; SLOW (one transfer at a time) waits
// for the signal and stores tiles 0-4. y = [tile 5, tiles 0-4] of x.
//
// Hand-computed (128-byte chunks at 64 B/cycle: 1 KiB = 16 cycles of
// occupancy; DDR <-> L1 through either engine: 100 + 2 = 102 cycles of
// latency; sync latency 1):
//   FAST load t issues at 16t for t < 4 (0-16, 16-32, 32-48, 48-64) and
//     lands 102 cycles after its last byte leaves: 118, 134, 150, 166.
//   load 4 finds 4 in flight at 64 and waits for load 0 to land (118):
//     issues 118-134, lands 236. load 5: at 134 load 1 has landed, 3 in
//     flight: issues 134-150, lands 252.
//   sync_send at 150: the tiles are there only when the last load lands,
//     so the token arrives at 252 + 1 = 253.
//   the store reads tile 5, still in flight: it waits until 252, issues
//     252-268 and lands at 370. FAST halts at 268 and finishes when its
//     store lands: 370; busy 7 x 16 + (370 - 268) = 214, stalled
//     (118 - 64) + (252 - 150) = 156.
//   SLOW receives the token at 253, stores 5 KiB: 80 cycles of occupancy,
//     waits for the last byte: 253 + 80 + 102 = 435, the total.
// CHECK: cycles: 435
// CHECK: core/FAST 214 156 370 {{.*}} 7168
// CHECK: core/SLOW 182 253 435 {{.*}} 5120

// The stalls on the engine's own transfers are named in the trace.
// TRACE: "name":"stall: transfers in flight"

// With one transfer in flight (every existing device's default) each DMA
// waits for its last byte: six loads of 118 cycles end at 708, the token
// arrives at 709, the store takes 708-826, SLOW 709 + 80 + 102 = 891.
// ONE: cycles: 891
// ONE: core/FAST 826 0 826

dfir.kernel @outstanding device "outstanding_device" {
  dfir.tensor input @x : tensor<3072xf16> in "DDR"
  dfir.tensor output @y : tensor<3072xf16> in "DDR"
  dfir.buffer @tiles in "core/L1" size 6144
  dfir.sync @loaded from "core/FAST" to "core/SLOW"

  dfir.unit "core/FAST" {
    %x = dfir.address @x
    %y = dfir.address @y
    %tiles = dfir.address @tiles
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c6 = arith.constant 6 : index
    %tile = arith.constant 1024 : index
    scf.for %t = %c0 to %c6 step %c1 {
      %off = arith.muli %t, %tile : index
      %src = arith.addi %x, %off : index
      %dst = arith.addi %tiles, %off : index
      dfir.dma %tile bytes from "DDR"[%src] to "core/L1"[%dst]
    }
    dfir.sync_send @loaded
    %five = arith.constant 5120 : index
    %last = arith.addi %tiles, %five : index
    dfir.dma %tile bytes from "core/L1"[%last] to "DDR"[%y]
  }
  dfir.unit "core/SLOW" {
    %y = dfir.address @y
    %tiles = dfir.address @tiles
    %tile = arith.constant 1024 : index
    %rest = arith.constant 5120 : index
    %dst = arith.addi %y, %tile : index
    dfir.sync_recv @loaded
    dfir.dma %rest bytes from "core/L1"[%tiles] to "DDR"[%dst]
  }
}
