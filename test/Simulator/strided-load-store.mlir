// RUN: ktflow emit %s --arch %examples/devices/sample_device.mlir -o %t.ktfb
// RUN: ktflow sim %t.ktfb --races --input x=seq:0:1024 --output y=%t.y.npy | FileCheck %s
// RUN: python3 %S/Inputs/check_npy.py %t.y.npy "i - 16 if i % 64 >= 32 else i" 1024
// RUN: ktflow inspect %t.ktfb | FileCheck %s --check-prefix=INSPECT

// dfir.load and dfir.store of rows: x is 16 rows of 64 f16 (128 B). The load
// unit streams columns 16-47 of every row (16 rows of 64 B, 128 B apart)
// into a FIFO of 128-byte entries, so each entry continues over two rows;
// the store unit writes them at columns 32-63 of a copy of x, each entry
// again over two rows. y = x with columns 32-63 of each row replaced by
// its columns 16-47: y[i] = i - 16 where i % 64 >= 32, else i.

// CHECK: cycles:
// INSPECT: load {{.*}} bytes x s{{[0-9]+}} rows stride s{{[0-9]+}}
// INSPECT: store {{.*}} bytes x s{{[0-9]+}} rows stride s{{[0-9]+}}

dfir.kernel @strided device "sample_device" {
  dfir.tensor input @x : tensor<1024xf16> in "DDR"
  dfir.tensor output @y : tensor<1024xf16> in "DDR"
  dfir.buffer @in in "core[0]/L1" size 2048
  dfir.buffer @out in "core[0]/L1" size 2048 offset 2048
  dfir.fifo @to_sfu from "core[0]/subcore[0]/L1LU" to "core[0]/subcore[0]/SFU_Block/SFU" entry 128
  dfir.fifo @from_sfu from "core[0]/subcore[0]/SFU_Block/SFU" to "core[0]/subcore[0]/L1SU" entry 128
  dfir.sync @loaded from "core[0]/MNILU_Block/MNILU" to "core[0]/subcore[0]/L1LU"
  dfir.sync @copied from "core[0]/MNILU_Block/MNILU" to "core[0]/subcore[0]/L1SU"
  dfir.sync @stored from "core[0]/subcore[0]/L1SU" to "core[0]/MNISU_Block/MNISU"

  dfir.unit "core[0]/MNILU_Block/MNILU" {
    %x = dfir.address @x
    %in = dfir.address @in
    %out = dfir.address @out
    %n = arith.constant 2048 : index
    dfir.dma %n bytes from "DDR"[%x] to "core[0]/L1"[%in]
    dfir.sync_send @loaded
    dfir.dma %n bytes from "DDR"[%x] to "core[0]/L1"[%out]
    dfir.sync_send @copied
  }
  dfir.unit "core[0]/subcore[0]/L1LU" {
    %in = dfir.address @in
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c16 = arith.constant 16 : index
    %c128 = arith.constant 128 : index
    %cols = arith.addi %in, %c32 : index
    dfir.sync_recv @loaded
    dfir.load @to_sfu from "core[0]/L1"[%cols] size %c64 rows %c16 stride %c128
  }
  dfir.unit "core[0]/subcore[0]/SFU_Block/SFU" {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    scf.for %i = %c0 to %c8 step %c1 {
      %v = dfir.recv @to_sfu : vector<64xf16>
      dfir.send @from_sfu, %v : vector<64xf16>
    }
  }
  dfir.unit "core[0]/subcore[0]/L1SU" {
    %out = dfir.address @out
    %c64 = arith.constant 64 : index
    %c16 = arith.constant 16 : index
    %c128 = arith.constant 128 : index
    %cols = arith.addi %out, %c64 : index
    dfir.sync_recv @copied
    dfir.store @from_sfu to "core[0]/L1"[%cols] size %c64 rows %c16 stride %c128
    dfir.sync_send @stored
  }
  dfir.unit "core[0]/MNISU_Block/MNISU" {
    %out = dfir.address @out
    %y = dfir.address @y
    %n = arith.constant 2048 : index
    dfir.sync_recv @stored
    dfir.dma %n bytes from "core[0]/L1"[%out] to "DDR"[%y]
  }
}
