// RUN: ktflow emit %s --arch %examples/devices/sample_device.mlir -o %t.ktfb
// RUN: ktflow sim %t.ktfb --input x=seq:-64:64 --output y=%t.y.npy | FileCheck %s
// RUN: python3 %S/Inputs/check_npy.py %t.y.npy "(i % 128) - 64" 512

// The tile copy of a broadcast (an inter_tile_consume whose one producer
// is tile 0, as ktdf-to-dfir lowers a ktdf.tile_copy, TileCopyLowering.cpp):
// core 0 loads a 128-element f16 row (256 bytes) into its L1 and its
// MNISU remote-DMAs it into the L1 of cores 1, 2 and 3 of sample_device's
// bidirectional ring of 4 (64 B/cycle per link and direction, 1 cycle per
// hop), signalling each core's MNISU (`copied`), which stores its copy to
// row k of y. Every row of y is x.
//
// Hand-computed:
//   input DMA: 256 B at 64 B/cycle = 4, + 100 + 2 latency = 106; @loaded
//     +1 sync -> 107.
//   remote DMAs issue back to back, 4 cycles each: 107-111 (core 1),
//     111-115 (core 2), 115-119 (core 3); the unit does not wait for the
//     landing, a sync it sends does: each lands 2 (datapath) + 1 per hop
//     after its issue ends, and its token arrives 1 (sync) + 1 per hop
//     after the landing:
//       core 1 (1 hop):  111 + 2 + 1 = 114, token 114 + 1 + 1 = 116
//       core 2 (2 hops): 115 + 2 + 2 = 119, token 119 + 1 + 2 = 122
//       core 3 (1 hop, the shorter way round): 119 + 2 + 1 = 122,
//         token 122 + 1 + 1 = 124
//   output DMAs, 106 each: core 0 from 119 -> 225; core 1 116 -> 222;
//     core 2 122 -> 228; core 3 124 -> 230.
// Interconnect: link 0 -> 1 carries the copies to cores 1 and 2 (512
// bytes), 1 -> 2 and 0 -> 3 one each: 1024 bytes over 3 links, the
// busiest at 512 / (64 x 230) = 3.5%.

// CHECK: cycles: 230
// CHECK: core[0]/MNILU_Block/MNILU {{ *}}106 {{ *}}0 {{ *}}106
// CHECK: core[0]/MNISU_Block/MNISU {{ *}}118 {{ *}}107 {{ *}}225
// CHECK: core[1]/MNISU_Block/MNISU {{ *}}106 {{ *}}116 {{ *}}222
// CHECK: core[2]/MNISU_Block/MNISU {{ *}}106 {{ *}}122 {{ *}}228
// CHECK: core[3]/MNISU_Block/MNISU {{ *}}106 {{ *}}124 {{ *}}230
// CHECK: interconnect: 1024 bytes over 3 links (64 B/cycle each way), 2.3% of their bandwidth; busiest core 0 -> core 1: 512 bytes, 3.5%

dfir.kernel @tile_copy_broadcast device "sample_device" {
  dfir.tensor input @x : tensor<128xf16> in "DDR"
  dfir.tensor output @y : tensor<4x128xf16> in "DDR"
  dfir.buffer @e0 in "core[0]/L1" size 256
  dfir.buffer @r1 in "core[1]/L1" size 256
  dfir.buffer @r2 in "core[2]/L1" size 256
  dfir.buffer @r3 in "core[3]/L1" size 256
  dfir.sync @loaded from "core[0]/MNILU_Block/MNILU" to "core[0]/MNISU_Block/MNISU"
  dfir.sync @copied1 from "core[0]/MNISU_Block/MNISU" to "core[1]/MNISU_Block/MNISU"
  dfir.sync @copied2 from "core[0]/MNISU_Block/MNISU" to "core[2]/MNISU_Block/MNISU"
  dfir.sync @copied3 from "core[0]/MNISU_Block/MNISU" to "core[3]/MNISU_Block/MNISU"

  // Core 0 loads the row and broadcasts it.
  dfir.unit "core[0]/MNILU_Block/MNILU" {
    %x = dfir.address @x
    %e = dfir.address @e0
    %n = arith.constant 256 : index
    dfir.dma %n bytes from "DDR"[%x] to "core[0]/L1"[%e]
    dfir.sync_send @loaded
  }
  dfir.unit "core[0]/MNISU_Block/MNISU" {
    %n = arith.constant 256 : index
    %e = dfir.address @e0
    %r1 = dfir.address @r1
    %r2 = dfir.address @r2
    %r3 = dfir.address @r3
    dfir.sync_recv @loaded
    dfir.remote_dma %n bytes from "core[0]/L1"[%e] to "core[1]/L1"[%r1]
    dfir.sync_send @copied1
    dfir.remote_dma %n bytes from "core[0]/L1"[%e] to "core[2]/L1"[%r2]
    dfir.sync_send @copied2
    dfir.remote_dma %n bytes from "core[0]/L1"[%e] to "core[3]/L1"[%r3]
    dfir.sync_send @copied3
    %y = dfir.address @y
    dfir.dma %n bytes from "core[0]/L1"[%e] to "DDR"[%y]
  }
  dfir.unit "core[1]/MNISU_Block/MNISU" {
    %n = arith.constant 256 : index
    %r = dfir.address @r1
    dfir.sync_recv @copied1
    %y = dfir.address @y
    %row = arith.constant 256 : index
    %dst = arith.addi %y, %row : index
    dfir.dma %n bytes from "core[1]/L1"[%r] to "DDR"[%dst]
  }
  dfir.unit "core[2]/MNISU_Block/MNISU" {
    %n = arith.constant 256 : index
    %r = dfir.address @r2
    dfir.sync_recv @copied2
    %y = dfir.address @y
    %row = arith.constant 512 : index
    %dst = arith.addi %y, %row : index
    dfir.dma %n bytes from "core[2]/L1"[%r] to "DDR"[%dst]
  }
  dfir.unit "core[3]/MNISU_Block/MNISU" {
    %n = arith.constant 256 : index
    %r = dfir.address @r3
    dfir.sync_recv @copied3
    %y = dfir.address @y
    %row = arith.constant 768 : index
    %dst = arith.addi %y, %row : index
    dfir.dma %n bytes from "core[3]/L1"[%r] to "DDR"[%dst]
  }
}
