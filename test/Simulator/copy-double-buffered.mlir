// RUN: ktflow emit %s --arch %examples/devices/sample_device.mlir -o %t.ktfb
// RUN: ktflow sim %t.ktfb --input x=seq:-1024:1024 --output y=%t.y.npy | FileCheck %s
// RUN: python3 %S/Inputs/check_npy.py %t.y.npy "-1024 + i" 2048

// copy-tiled.mlir with two input and two output buffers: the DMA load of
// tile t+1 no longer waits for tile t to be streamed out (only tiles 2 and
// 3 wait, for buffers freed long before), and the store unit writes tile
// t+1 while the DMA store drains tile t.
//
// Hand-computed. sample_device's DMA engines keep 4 transfers in flight:
// a tile's DMA occupies its engine 1024/64 = 16 cycles and lands 102 later;
// a sync sent after it arrives 1 cycle after the landing.
//   MNILU issues tiles 0 and 1 at 0-16 and 16-32 (landing 118, 134;
//     @loaded at 119, 135). L1LU streams tile t in 8 cycles from @loaded
//     and frees its half: @free at 128, 144. Tiles 2 and 3 issue at
//     128-144 and 144-160, land at 246 and 262 (@loaded 247, 263). MNILU
//     halts at 160 and finishes at 262: busy 4 x 16 + 102 = 166, stalled
//     128 - 32 = 96 waiting for @free.
//   Tile t reaches L1SU 8 entries from @loaded + 8: 127, 143, 255, 271.
//     Tiles 0 and 1 are written by 135, 151, land 4 cycles later; @stored
//     at 140, 156. MNISU stores them 140-156 and 156-172 (landing 258,
//     274; @drained 259, 275). Tile 2 waits in the FIFO for @drained of
//     tile 0: written 259-267, @stored 272; tile 3 after @drained of tile
//     1: 275-283, @stored 288.
//   MNISU stores tile 3 at 288-304; it lands at 304 + 102 = 406.
// 406 cycles against copy-tiled's 654 (612 with one transfer in flight).

// CHECK: cycles: 406
// CHECK: core[0]/MNILU_Block/MNILU 166 96 262
// CHECK: core[0]/MNISU_Block/MNISU {{.*}} 406 {{.*}} 4096

dfir.kernel @copy_double_buffered device "sample_device" {
  dfir.tensor input @x : tensor<2048xf16> in "DDR"
  dfir.tensor output @y : tensor<2048xf16> in "DDR"
  dfir.buffer @in in "core[0]/L1" size 2048
  dfir.buffer @out in "core[0]/L1" size 2048
  dfir.fifo @to_sfu from "core[0]/subcore[0]/L1LU" to "core[0]/subcore[0]/SFU_Block/SFU" entry 128
  dfir.fifo @from_sfu from "core[0]/subcore[0]/SFU_Block/SFU" to "core[0]/subcore[0]/L1SU" entry 128
  dfir.sync @loaded from "core[0]/MNILU_Block/MNILU" to "core[0]/subcore[0]/L1LU"
  dfir.sync @free from "core[0]/subcore[0]/L1LU" to "core[0]/MNILU_Block/MNILU"
  dfir.sync @stored from "core[0]/subcore[0]/L1SU" to "core[0]/MNISU_Block/MNISU"
  dfir.sync @drained from "core[0]/MNISU_Block/MNISU" to "core[0]/subcore[0]/L1SU"

  // Tile t lives in buffer half t % 2; tiles 2 and 3 first wait for the
  // token that frees their half.
  dfir.unit "core[0]/MNILU_Block/MNILU" {
    %x = dfir.address @x
    %in = dfir.address @in
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %tile = arith.constant 1024 : index
    scf.for %t = %c0 to %c4 step %c1 {
      %off = arith.muli %t, %tile : index
      %src = arith.addi %x, %off : index
      %half = arith.remui %t, %c2 : index
      %hoff = arith.muli %half, %tile : index
      %dst = arith.addi %in, %hoff : index
      %reuse = arith.cmpi uge, %t, %c2 : index
      // A token wait only for tiles 2 and 3: loop 0 or 1 times.
      %n = arith.select %reuse, %c1, %c0 : index
      scf.for %w = %c0 to %n step %c1 {
        dfir.sync_recv @free
      }
      dfir.dma %tile bytes from "DDR"[%src] to "core[0]/L1"[%dst]
      dfir.sync_send @loaded
    }
  }
  dfir.unit "core[0]/subcore[0]/L1LU" {
    %in = dfir.address @in
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %tile = arith.constant 1024 : index
    scf.for %t = %c0 to %c4 step %c1 {
      %half = arith.remui %t, %c2 : index
      %hoff = arith.muli %half, %tile : index
      %src = arith.addi %in, %hoff : index
      dfir.sync_recv @loaded
      dfir.load @to_sfu from "core[0]/L1"[%src] size %tile
      %early = arith.cmpi ult, %t, %c2 : index
      %n = arith.select %early, %c1, %c0 : index
      scf.for %w = %c0 to %n step %c1 {
        dfir.sync_send @free
      }
    }
  }
  dfir.unit "core[0]/subcore[0]/SFU_Block/SFU" {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    scf.for %i = %c0 to %c32 step %c1 {
      %v = dfir.recv @to_sfu : vector<64xf16>
      dfir.send @from_sfu, %v : vector<64xf16>
    }
  }
  dfir.unit "core[0]/subcore[0]/L1SU" {
    %out = dfir.address @out
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %tile = arith.constant 1024 : index
    scf.for %t = %c0 to %c4 step %c1 {
      %half = arith.remui %t, %c2 : index
      %hoff = arith.muli %half, %tile : index
      %dst = arith.addi %out, %hoff : index
      %reuse = arith.cmpi uge, %t, %c2 : index
      %n = arith.select %reuse, %c1, %c0 : index
      scf.for %w = %c0 to %n step %c1 {
        dfir.sync_recv @drained
      }
      dfir.store @from_sfu to "core[0]/L1"[%dst] size %tile
      dfir.sync_send @stored
    }
  }
  dfir.unit "core[0]/MNISU_Block/MNISU" {
    %out = dfir.address @out
    %y = dfir.address @y
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %tile = arith.constant 1024 : index
    scf.for %t = %c0 to %c4 step %c1 {
      %off = arith.muli %t, %tile : index
      %dst = arith.addi %y, %off : index
      %half = arith.remui %t, %c2 : index
      %hoff = arith.muli %half, %tile : index
      %src = arith.addi %out, %hoff : index
      dfir.sync_recv @stored
      dfir.dma %tile bytes from "core[0]/L1"[%src] to "DDR"[%dst]
      %early = arith.cmpi ult, %t, %c2 : index
      %n = arith.select %early, %c1, %c0 : index
      scf.for %w = %c0 to %n step %c1 {
        dfir.sync_send @drained
      }
    }
  }
}
