// RUN: ktflow emit %s --arch %examples/devices/sample_device.mlir -o %t.ktfb
// RUN: ktflow inspect %t.ktfb | FileCheck %s --check-prefix=INSPECT
// RUN: not ktflow sim %t.ktfb --arg n=1000000000000 --input x=zeros 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not ktflow sim %t.ktfb --arg n=1000 --input x=zeros --max-instructions=2007 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: ktflow sim %t.ktfb --arg n=1000 --input x=zeros --max-instructions=100000 | FileCheck %s --check-prefix=FITS
// RUN: not ktflow sim %t.ktfb --arg n=100000 --input x=zeros --max-seconds=1e-9 2>&1 | FileCheck %s --check-prefix=CLOCK
// RUN: not ktflow sim %t.ktfb --arg n=1 --input x=zeros --max-seconds=nan 2>&1 | FileCheck %s --check-prefix=FLAG

// A loop of n DMAs, n a runtime argument: its trip count is a constant
// once the runtime has patched the relocation, so a launch whose loop
// alone exceeds the instruction budget is refused before it runs (before,
// n = 10^12 ran for minutes, up to the 2^32-instruction limit).
// The program: 6 set_imm (the addresses of x and buf, n, 0, 1, 128), then
// loop_begin, n x (dma + loop_end), halt: 2n + 8 = 2008 for n = 1000. The
// budget counts instruction steps, and a DMA waiting for a free request
// slot steps again: the simulation itself takes more.
// INSPECT: core[0]/MNILU_Block/MNILU
// INSPECT: 6 loop_begin
// INSPECT-NEXT: 7 dma
// INSPECT-NEXT: 8 loop_end
// INSPECT-NEXT: 9 halt

// HUGE: ktflow: error: {{.*}}.ktfb: simulation failed: the programs would exceed the work budget of 268435456 instructions: they execute at least 2000000000008 if they run to completion, 2000000000008 of them in the program of core[0]/MNILU_Block/MNILU (its loop at instruction {{[0-9]+}} runs 1000000000000 times, at {{.*}}work-budget.mlir:41:5); raise it with --max-instructions
// SMALL: ktflow: error: {{.*}}.ktfb: simulation failed: the programs would exceed the work budget of 2007 instructions: they execute at least 2008 if they run to completion, 2008 of them in the program of core[0]/MNILU_Block/MNILU (its loop at instruction 6 runs 1000 times, at {{.*}}work-budget.mlir:41:5)
// FITS: cycles:
// CLOCK: ktflow: error: {{.*}}.ktfb: simulation failed: core[0]/MNILU_Block/MNILU (instruction {{[0-9]+}}, {{.*}}): the simulation exceeded the wall-clock budget of 1e-09 seconds; raise it with --max-seconds
// FLAG: ktflow: error: --max-seconds must be a number of seconds, 0 for none

dfir.kernel @dma_loop device "sample_device" {
  dfir.runtime_arg @n granularity 1 upperbound 1000000000000
  dfir.tensor input @x : tensor<64xf16> in "DDR"
  dfir.buffer @buf in "core[0]/L1" size 128

  dfir.unit "core[0]/MNILU_Block/MNILU" {
    %x = dfir.address @x
    %buf = dfir.address @buf
    %n = dfir.runtime_value @n
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %bytes = arith.constant 128 : index
    scf.for %i = %c0 to %n step %c1 {
      dfir.dma %bytes bytes from "DDR"[%x] to "core[0]/L1"[%buf]
    }
  }
}
