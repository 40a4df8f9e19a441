// RUN: ktflow emit %s --arch %examples/devices/sample_device.mlir -o %t.ktfb
// RUN: ktflow inspect %t.ktfb | FileCheck %s --check-prefix=INSPECT
// RUN: ktflow sim %t.ktfb --arg n=256 --input x=seq:0:1024 --output y=%t.y.npy | FileCheck %s
// RUN: python3 %S/Inputs/check_npy.py %t.y.npy "i" 256
// RUN: ktflow sim %t.ktfb --arg n=1024 --input x=seq:0:1024 --output y=%t.y2.npy | FileCheck %s --check-prefix=LARGE
// RUN: python3 %S/Inputs/check_npy.py %t.y2.npy "i" 1024
// RUN: not ktflow sim %t.ktfb --arg n=100 --input x=zeros 2>&1 | FileCheck %s --check-prefix=GRAN
// RUN: not ktflow sim %t.ktfb --arg n=2048 --input x=zeros 2>&1 | FileCheck %s --check-prefix=UPPER
// RUN: not ktflow sim %t.ktfb --arg n=0 --input x=zeros 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not ktflow sim %t.ktfb --input x=zeros 2>&1 | FileCheck %s --check-prefix=UNBOUND
// RUN: not ktflow sim %t.ktfb --arg m=64 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// A DMA round trip whose size is a runtime argument: n f16 elements, n a
// multiple of 64 up to 1024. The tensor shapes, the DMA sizes and the
// addresses stay symbolic in the bundle (relocation sites) until launch.
// DMA: ceil(2n/64) + 102 each way, so n = 256: 2 (8 + 102) + 1 = 221 and
// n = 1024: 2 (32 + 102) + 1 = 269 cycles.

// INSPECT: kernel: dyn_copy
// INSPECT: tensors:
// INSPECT-NEXT: @x : in (@n)xf16 in DDR
// INSPECT-NEXT: @y : out (@n)xf16 in DDR
// INSPECT: runtime args:
// INSPECT-NEXT: @n granularity 64 upperbound 1024
// INSPECT: relocations:
// INSPECT-DAG: core[0]/MNILU_Block/MNILU +{{[0-9]+}}: address of @x
// INSPECT-DAG: core[0]/MNILU_Block/MNILU +{{[0-9]+}}: value of @n
// INSPECT-DAG: core[0]/MNISU_Block/MNISU +{{[0-9]+}}: address of @y
// INSPECT: programs:
// INSPECT: core[0]/MNILU_Block/MNILU ({{[0-9]+}} bytes)
// INSPECT-NEXT: 0 set_imm s0, <address of @x>
// INSPECT-NEXT: 1 set_imm s1, 0
// INSPECT-NEXT: 2 set_imm s2, <value of @n>
// INSPECT: dma s{{[0-9]+}} bytes from DDR[s{{[0-9]+}}] to core[0]/L1[s{{[0-9]+}}]
// INSPECT: sync_send @done

// CHECK: cycles: 221
// LARGE: cycles: 269
// GRAN: ktflow: error: runtime argument 'n' = 100 is not a multiple of its granularity 64
// UPPER: ktflow: error: runtime argument 'n' = 2048 exceeds its upperbound 1024
// ZERO: ktflow: error: runtime argument 'n' = 0 must be positive
// UNBOUND: ktflow: error: tensor 'x' needs runtime argument 'n', which is not bound
// UNKNOWN: ktflow: error: the kernel has no runtime argument 'm'

dfir.kernel @dyn_copy device "sample_device" {
  dfir.runtime_arg @n granularity 64 upperbound 1024
  dfir.tensor input @x : tensor<?xf16> in "DDR" dims [@n]
  dfir.tensor output @y : tensor<?xf16> in "DDR" dims [@n]
  dfir.buffer @buf in "core[0]/L1" size 2048
  dfir.sync @done from "core[0]/MNILU_Block/MNILU" to "core[0]/MNISU_Block/MNISU"

  dfir.unit "core[0]/MNILU_Block/MNILU" {
    %x = dfir.address @x
    %buf = dfir.address @buf
    %n = dfir.runtime_value @n
    %c2 = arith.constant 2 : index
    %bytes = arith.muli %n, %c2 : index
    dfir.dma %bytes bytes from "DDR"[%x] to "core[0]/L1"[%buf]
    dfir.sync_send @done
  }
  dfir.unit "core[0]/MNISU_Block/MNISU" {
    %y = dfir.address @y
    %buf = dfir.address @buf
    %n = dfir.runtime_value @n
    %c2 = arith.constant 2 : index
    %bytes = arith.muli %n, %c2 : index
    dfir.sync_recv @done
    dfir.dma %bytes bytes from "core[0]/L1"[%buf] to "DDR"[%y]
  }
}
