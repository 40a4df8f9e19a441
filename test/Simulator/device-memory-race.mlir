// RUN: ktflow emit %s --arch %examples/devices/sample_device.mlir -o %t.ktfb
// RUN: not ktflow sim %t.ktfb --races --arg late=1 --input x=seq:1:1000 2>&1 | FileCheck %s --check-prefix=EARLY
// RUN: not ktflow sim %t.ktfb --races --arg late=3 --input x=seq:1:1000 2>&1 | FileCheck %s --check-prefix=LATE
// RUN: ktflow sim %t.ktfb --arg late=1 --input x=seq:1:1000 | FileCheck %s --check-prefix=UNCHECKED

// two-core-sync.mlir without its @handoff token: core 0 copies x to y
// through its L1, and core 1's load DMA reads y (an exchange through
// device memory) after `late - 1` copies of x of its own, with no token
// ordering it after core 0's store. Either order is a race on DDR: read
// first (late = 1, cycle 0), core 0's store changes bytes an unordered
// unit read; read last (late = 3, after core 0's store at cycle 135),
// the read sees bytes an unordered unit wrote. Without --races the run
// succeeds, with whatever core 1 happened to read.

// EARLY: error: {{.*}}simulation failed: core[0]/MNISU_Block/MNISU (instruction {{[0-9]+}}, dma, cycle {{[0-9]+}}, at {{.*}}device-memory-race.mlir:39:5): write-read race: writes bytes [{{[0-9]+}}, {{[0-9]+}}) of DDR that core[1]/MNILU_Block/MNILU (instruction {{[0-9]+}}, at {{.*}}device-memory-race.mlir:51:5) read at cycle 0; no sync token or FIFO entry orders the two, so what the reader sees depends on timing
// LATE: error: {{.*}}simulation failed: core[1]/MNILU_Block/MNILU (instruction {{[0-9]+}}, dma, cycle {{[0-9]+}}, at {{.*}}device-memory-race.mlir:51:5): read-write race: reads bytes [{{[0-9]+}}, {{[0-9]+}}) of DDR that core[0]/MNISU_Block/MNISU (instruction {{[0-9]+}}, at {{.*}}device-memory-race.mlir:39:5) wrote at cycle {{[0-9]+}}; no sync token or FIFO entry orders the write before the read, so what is read depends on timing
// UNCHECKED: cycles:

dfir.kernel @racy_exchange device "sample_device" {
  dfir.runtime_arg @late granularity 1 upperbound 4
  dfir.tensor input @x : tensor<1024xf16> in "DDR"
  dfir.tensor output @y : tensor<1024xf16> in "DDR"
  dfir.buffer @buf0 in "core[0]/L1" size 2048
  dfir.buffer @buf1 in "core[1]/L1" size 2048
  dfir.sync @loaded0 from "core[0]/MNILU_Block/MNILU" to "core[0]/MNISU_Block/MNISU"

  dfir.unit "core[0]/MNILU_Block/MNILU" {
    %x = dfir.address @x
    %buf = dfir.address @buf0
    %n = arith.constant 2048 : index
    dfir.dma %n bytes from "DDR"[%x] to "core[0]/L1"[%buf]
    dfir.sync_send @loaded0
  }
  dfir.unit "core[0]/MNISU_Block/MNISU" {
    %y = dfir.address @y
    %buf = dfir.address @buf0
    %n = arith.constant 2048 : index
    dfir.sync_recv @loaded0
    dfir.dma %n bytes from "core[0]/L1"[%buf] to "DDR"[%y]
  }
  dfir.unit "core[1]/MNILU_Block/MNILU" {
    %x = dfir.address @x
    %y = dfir.address @y
    %buf = dfir.address @buf1
    %n = arith.constant 2048 : index
    %c1 = arith.constant 1 : index
    %late = dfir.runtime_value @late
    scf.for %i = %c1 to %late step %c1 {
      dfir.dma %n bytes from "DDR"[%x] to "core[1]/L1"[%buf]
    }
    dfir.dma %n bytes from "DDR"[%y] to "core[1]/L1"[%buf]
  }
}
