// RUN: not ktflow emit %s --kernel too_big --arch %examples/devices/sample_device.mlir -o %t.a.ktfb 2>&1 | FileCheck %s --check-prefix=BIG
// RUN: not ktflow emit %s --kernel too_many --arch %examples/devices/sample_device.mlir -o %t.b.ktfb 2>&1 | FileCheck %s --check-prefix=MANY
// RUN: ktflow emit %s --kernel past_end --arch %examples/devices/sample_device.mlir -o %t.c.ktfb
// RUN: not ktflow sim %t.c.ktfb --input x=zeros 2>&1 | FileCheck %s --check-prefix=PAST

// Scratchpad capacity: buffers that do not fit core[0]/L1 (1 MiB) are
// refused when the bundle is emitted; an address computed at run time that
// runs past the scratchpad stops the simulation.

// BIG: capacity.mlir:[[@LINE+2]]:3: error: scratchpad over capacity: buffer @big needs bytes [0, 2000000) of 'core[0]/L1', which has 1048576 bytes
dfir.kernel @too_big device "sample_device" {
  dfir.buffer @big in "core[0]/L1" size 2000000
}

// MANY: capacity.mlir:[[@LINE+3]]:3: error: scratchpad over capacity: buffer @b needs bytes [600000, 1200000) of 'core[0]/L1', which has 1048576 bytes
dfir.kernel @too_many device "sample_device" {
  dfir.buffer @a in "core[0]/L1" size 600000
  dfir.buffer @b in "core[0]/L1" size 600000
}

// PAST: error: {{.*}}simulation failed: core[0]/MNILU_Block/MNILU (instruction 3, dma, cycle 9, at {{.*}}capacity.mlir:28:5): dma writes bytes [1048576, 1048640) outside core[0]/L1 (1048576 bytes capacity)
dfir.kernel @past_end device "sample_device" {
  dfir.tensor input @x : tensor<2048xf16> in "DDR"
  dfir.unit "core[0]/MNILU_Block/MNILU" {
    %x = dfir.address @x
    %dst = arith.constant 1048000 : index
    %n = arith.constant 4096 : index
    dfir.dma %n bytes from "DDR"[%x] to "core[0]/L1"[%dst]
  }
}
