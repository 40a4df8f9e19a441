// RUN: ktflow emit %s --arch %S/Inputs/gap_device.mlir -o %t.ktfb
// RUN: ktflow sim %t.ktfb --input x=seq:0:128 | FileCheck %s

// A resource reserved for a transfer that another resource holds back is
// free until that transfer starts: a later request that needs it earlier
// fills the gap (docs/simulator.md, "Contention").
//
// Hand-computed (128-byte chunks; A, B and C all start at 0 and are served
// in that order): A's chunk takes DDR and its datapaths 0-4 and L1 (64
// B/cycle, 2 cycles) 0-2; it lands at 4 + 12 = 16. B's waits for DDR:
// 4-8, L1 4-6, lands at 20, the total. C asks for L1 at 0 and finds it
// free 2-4: its chunk moves 2-4 (not 6-8, behind B's reservation) and
// lands at 4 + 2 = 6.
// CHECK: cycles: 20
// CHECK: core/A 16 0 16
// CHECK: core/B 16 4 20
// CHECK: core/C 4 2 6

dfir.kernel @gap device "gap_device" {
  dfir.tensor input @x : tensor<128xf16> in "DDR"
  dfir.buffer @a in "core/L1" size 1024
  dfir.buffer @c in "core/L2" size 128

  dfir.unit "core/A" {
    %x = dfir.address @x
    %a = dfir.address @a
    %n = arith.constant 128 : index
    dfir.dma %n bytes from "DDR"[%x] to "core/L1"[%a]
  }
  dfir.unit "core/B" {
    %x = dfir.address @x
    %a = dfir.address @a
    %n = arith.constant 128 : index
    %src = arith.addi %x, %n : index
    %dst = arith.addi %a, %n : index
    dfir.dma %n bytes from "DDR"[%src] to "core/L1"[%dst]
  }
  dfir.unit "core/C" {
    %a = dfir.address @a
    %c = dfir.address @c
    %n = arith.constant 128 : index
    %src = arith.constant 512 : index
    %from = arith.addi %a, %src : index
    dfir.dma %n bytes from "core/L1"[%from] to "core/L2"[%c]
  }
}
