// RUN: ktflow emit %s --arch %examples/devices/sample_device.mlir -o %t.ktfb
// RUN: ktflow sim %t.ktfb --input x=seq:-1024:1024 --output y=%t.y.npy | FileCheck %s
// RUN: python3 %S/Inputs/check_npy.py %t.y.npy "-1024 + i" 2048

// The copy of copy.mlir in 4 tiles of 1024 bytes through ONE input and ONE
// output buffer: the DMA load of tile t+1 waits until the L1 load unit has
// streamed tile t out (@free), and the store unit waits until the DMA store
// has drained the output buffer (@drained). copy-double-buffered.mlir is
// the same with two buffers each and must take fewer cycles.
//
// Hand-computed (DMA of a tile: 1024/64 + 102 = 118; sync latency 1):
//   MNILU dma ends at 118, 246, 374, 502 (tile t+1 starts when @free of
//     tile t arrives: 128, 256, 384)
//   MNISU dma of tile t starts when @stored arrives, ends at 258, 390, 522,
//     654: the store unit of tile t+1 waits for @drained of tile t (259,
//     391, 523), writes 8 entries in 8 cycles, + 4 latency, + 1 sync.
//   258 = 140 + 118; 390 = 272 + 118; 522 = 404 + 118; 654 = 536 + 118.

// CHECK: cycles: 654
// CHECK: core[0]/MNISU_Block/MNISU {{.*}} 654 {{.*}} 4096

dfir.kernel @copy_tiled device "sample_device" {
  dfir.tensor input @x : tensor<2048xf16> in "DDR"
  dfir.tensor output @y : tensor<2048xf16> in "DDR"
  dfir.buffer @in in "core[0]/L1" size 1024
  dfir.buffer @out in "core[0]/L1" size 1024
  dfir.fifo @to_sfu from "core[0]/subcore[0]/L1LU" to "core[0]/subcore[0]/SFU_Block/SFU" entry 128
  dfir.fifo @from_sfu from "core[0]/subcore[0]/SFU_Block/SFU" to "core[0]/subcore[0]/L1SU" entry 128
  dfir.sync @loaded from "core[0]/MNILU_Block/MNILU" to "core[0]/subcore[0]/L1LU"
  dfir.sync @free from "core[0]/subcore[0]/L1LU" to "core[0]/MNILU_Block/MNILU"
  dfir.sync @stored from "core[0]/subcore[0]/L1SU" to "core[0]/MNISU_Block/MNISU"
  dfir.sync @drained from "core[0]/MNISU_Block/MNISU" to "core[0]/subcore[0]/L1SU"

  dfir.unit "core[0]/MNILU_Block/MNILU" {
    %x = dfir.address @x
    %in = dfir.address @in
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %tile = arith.constant 1024 : index
    dfir.dma %tile bytes from "DDR"[%x] to "core[0]/L1"[%in]
    dfir.sync_send @loaded
    scf.for %t = %c1 to %c4 step %c1 {
      %off = arith.muli %t, %tile : index
      %src = arith.addi %x, %off : index
      dfir.sync_recv @free
      dfir.dma %tile bytes from "DDR"[%src] to "core[0]/L1"[%in]
      dfir.sync_send @loaded
    }
  }
  dfir.unit "core[0]/subcore[0]/L1LU" {
    %in = dfir.address @in
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %tile = arith.constant 1024 : index
    scf.for %t = %c0 to %c3 step %c1 {
      dfir.sync_recv @loaded
      dfir.load @to_sfu from "core[0]/L1"[%in] size %tile
      dfir.sync_send @free
    }
    dfir.sync_recv @loaded
    dfir.load @to_sfu from "core[0]/L1"[%in] size %tile
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
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %tile = arith.constant 1024 : index
    dfir.store @from_sfu to "core[0]/L1"[%out] size %tile
    dfir.sync_send @stored
    scf.for %t = %c1 to %c4 step %c1 {
      dfir.sync_recv @drained
      dfir.store @from_sfu to "core[0]/L1"[%out] size %tile
      dfir.sync_send @stored
    }
  }
  dfir.unit "core[0]/MNISU_Block/MNISU" {
    %out = dfir.address @out
    %y = dfir.address @y
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %tile = arith.constant 1024 : index
    scf.for %t = %c0 to %c3 step %c1 {
      %off = arith.muli %t, %tile : index
      %dst = arith.addi %y, %off : index
      dfir.sync_recv @stored
      dfir.dma %tile bytes from "core[0]/L1"[%out] to "DDR"[%dst]
      dfir.sync_send @drained
    }
    %last = arith.muli %c3, %tile : index
    %dst = arith.addi %y, %last : index
    dfir.sync_recv @stored
    dfir.dma %tile bytes from "core[0]/L1"[%out] to "DDR"[%dst]
  }
}
