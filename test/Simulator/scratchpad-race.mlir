// RUN: ktflow emit %s --arch %examples/devices/sample_device.mlir -o %t.ktfb
// RUN: not ktflow sim %t.ktfb --races --input x=seq:1:1000 2>&1 | FileCheck %s
// RUN: ktflow sim %t.ktfb --input x=seq:1:1000 | FileCheck %s --check-prefix=UNCHECKED

// copy.mlir without its @loaded token: the load unit streams the buffer
// the DMA engine fills without waiting for it, and what it reads depends on
// how far the DMA has got (without --races the run succeeds, with wrong
// data); with --races the read of bytes the DMA wrote, which no token or
// FIFO entry orders before it, is an error naming both units and the ops
// of this file they run.

// CHECK: error: {{.*}}simulation failed: core[0]/subcore[0]/L1LU (instruction {{[0-9]+}}, load, cycle {{[0-9]+}}, at {{.*}}scratchpad-race.mlir:34:5): read-write race: reads bytes [0, 64) of core[0]/L1 that core[0]/MNILU_Block/MNILU (instruction {{[0-9]+}}, at {{.*}}scratchpad-race.mlir:29:5) wrote at cycle 0; no sync token or FIFO entry orders the write before the read, so what is read depends on timing

// UNCHECKED: cycles:

dfir.kernel @racy_copy device "sample_device" {
  dfir.tensor input @x : tensor<2048xf16> in "DDR"
  dfir.tensor output @y : tensor<2048xf16> in "DDR"
  dfir.buffer @in in "core[0]/L1" size 4096
  dfir.buffer @out in "core[0]/L1" size 4096
  dfir.fifo @to_sfu from "core[0]/subcore[0]/L1LU" to "core[0]/subcore[0]/SFU_Block/SFU" entry 128
  dfir.fifo @from_sfu from "core[0]/subcore[0]/SFU_Block/SFU" to "core[0]/subcore[0]/L1SU" entry 128
  dfir.sync @stored from "core[0]/subcore[0]/L1SU" to "core[0]/MNISU_Block/MNISU"

  dfir.unit "core[0]/MNILU_Block/MNILU" {
    %x = dfir.address @x
    %in = dfir.address @in
    %n = arith.constant 4096 : index
    dfir.dma %n bytes from "DDR"[%x] to "core[0]/L1"[%in]
  }
  dfir.unit "core[0]/subcore[0]/L1LU" {
    %in = dfir.address @in
    %n = arith.constant 4096 : index
    dfir.load @to_sfu from "core[0]/L1"[%in] size %n
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
    %n = arith.constant 4096 : index
    dfir.store @from_sfu to "core[0]/L1"[%out] size %n
    dfir.sync_send @stored
  }
  dfir.unit "core[0]/MNISU_Block/MNISU" {
    %out = dfir.address @out
    %y = dfir.address @y
    %n = arith.constant 4096 : index
    dfir.sync_recv @stored
    dfir.dma %n bytes from "core[0]/L1"[%out] to "DDR"[%y]
  }
}
