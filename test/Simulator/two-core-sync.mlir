// RUN: ktflow emit %s --arch %examples/devices/sample_device.mlir -o %t.ktfb
// RUN: ktflow sim %t.ktfb --input x=seq:-512:512 --output y=%t.y.npy --output tmp=%t.tmp.npy | FileCheck %s
// RUN: python3 %S/Inputs/check_npy.py %t.tmp.npy "2 * (-512 + i)" 1024
// RUN: python3 %S/Inputs/check_npy.py %t.y.npy "2 * (-512 + i) + 1" 1024

// Two cores hand over through device memory: core 0 computes tmp = 2 x and
// signals core 1 (@handoff, from core 0's DMA store unit to core 1's DMA
// load unit); core 1 then computes y = tmp + 1.
//
// Hand-computed per core (2048 bytes = 16 entries; SFU: 1 cycle per
// 64-lane op, 1 cycle per 128-byte send, so 2 cycles per entry):
//   load DMA 2048/64 + 102 = 134; sync +1
//   entry 0 reaches the SFU 6 cycles after the load starts; the SFU ends
//     entry k 2k + 2 cycles after entry 0 arrived; entry 15 reaches L1SU
//     at +33, is written by +34 and lands at +38; sync +1
//   store DMA 134
// core 0: 134 + 1 = 135; 135 + 6 + 33 + 1 + 4 + 1 = 180; 180 + 134 = 314
// handoff: sync latency 1 + one ring hop (core 0 -> core 1) of 1 cycle
//   -> 316; core 1: 316 + 134 + 1 = 451; 451 + 45 = 496; + 134 = 630.

// CHECK: cycles: 630
// CHECK: core[0]/MNISU_Block/MNISU {{.*}} 314 {{.*}} 2048
// CHECK: core[1]/MNILU_Block/MNILU 134 316 450
// CHECK: core[1]/MNISU_Block/MNISU {{.*}} 630 {{.*}} 2048

dfir.kernel @two_core device "sample_device" {
  dfir.tensor input @x : tensor<1024xf16> in "DDR"
  dfir.tensor output @tmp : tensor<1024xf16> in "DDR"
  dfir.tensor output @y : tensor<1024xf16> in "DDR"
  dfir.buffer @in0 in "core[0]/L1" size 2048
  dfir.buffer @out0 in "core[0]/L1" size 2048
  dfir.buffer @in1 in "core[1]/L1" size 2048
  dfir.buffer @out1 in "core[1]/L1" size 2048
  dfir.fifo @to_sfu0 from "core[0]/subcore[0]/L1LU" to "core[0]/subcore[0]/SFU_Block/SFU" entry 128
  dfir.fifo @from_sfu0 from "core[0]/subcore[0]/SFU_Block/SFU" to "core[0]/subcore[0]/L1SU" entry 128
  dfir.fifo @to_sfu1 from "core[1]/subcore[0]/L1LU" to "core[1]/subcore[0]/SFU_Block/SFU" entry 128
  dfir.fifo @from_sfu1 from "core[1]/subcore[0]/SFU_Block/SFU" to "core[1]/subcore[0]/L1SU" entry 128
  dfir.sync @loaded0 from "core[0]/MNILU_Block/MNILU" to "core[0]/subcore[0]/L1LU"
  dfir.sync @stored0 from "core[0]/subcore[0]/L1SU" to "core[0]/MNISU_Block/MNISU"
  dfir.sync @handoff from "core[0]/MNISU_Block/MNISU" to "core[1]/MNILU_Block/MNILU"
  dfir.sync @loaded1 from "core[1]/MNILU_Block/MNILU" to "core[1]/subcore[0]/L1LU"
  dfir.sync @stored1 from "core[1]/subcore[0]/L1SU" to "core[1]/MNISU_Block/MNISU"

  // Core 0: tmp = 2 x.
  dfir.unit "core[0]/MNILU_Block/MNILU" {
    %x = dfir.address @x
    %in = dfir.address @in0
    %n = arith.constant 2048 : index
    dfir.dma %n bytes from "DDR"[%x] to "core[0]/L1"[%in]
    dfir.sync_send @loaded0
  }
  dfir.unit "core[0]/subcore[0]/L1LU" {
    %in = dfir.address @in0
    %n = arith.constant 2048 : index
    dfir.sync_recv @loaded0
    dfir.load @to_sfu0 from "core[0]/L1"[%in] size %n
  }
  dfir.unit "core[0]/subcore[0]/SFU_Block/SFU" {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    scf.for %i = %c0 to %c16 step %c1 {
      %v = dfir.recv @to_sfu0 : vector<64xf16>
      %d = dfir.map %v : vector<64xf16> -> vector<64xf16> {
      ^bb0(%p: f16):
        %two = arith.constant 2.0 : f16
        %t = arith.mulf %p, %two : f16
        dfir.yield %t : f16
      }
      dfir.send @from_sfu0, %d : vector<64xf16>
    }
  }
  dfir.unit "core[0]/subcore[0]/L1SU" {
    %out = dfir.address @out0
    %n = arith.constant 2048 : index
    dfir.store @from_sfu0 to "core[0]/L1"[%out] size %n
    dfir.sync_send @stored0
  }
  dfir.unit "core[0]/MNISU_Block/MNISU" {
    %out = dfir.address @out0
    %tmp = dfir.address @tmp
    %n = arith.constant 2048 : index
    dfir.sync_recv @stored0
    dfir.dma %n bytes from "core[0]/L1"[%out] to "DDR"[%tmp]
    dfir.sync_send @handoff
  }

  // Core 1: y = tmp + 1, once core 0 has written tmp.
  dfir.unit "core[1]/MNILU_Block/MNILU" {
    %tmp = dfir.address @tmp
    %in = dfir.address @in1
    %n = arith.constant 2048 : index
    dfir.sync_recv @handoff
    dfir.dma %n bytes from "DDR"[%tmp] to "core[1]/L1"[%in]
    dfir.sync_send @loaded1
  }
  dfir.unit "core[1]/subcore[0]/L1LU" {
    %in = dfir.address @in1
    %n = arith.constant 2048 : index
    dfir.sync_recv @loaded1
    dfir.load @to_sfu1 from "core[1]/L1"[%in] size %n
  }
  dfir.unit "core[1]/subcore[0]/SFU_Block/SFU" {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    scf.for %i = %c0 to %c16 step %c1 {
      %v = dfir.recv @to_sfu1 : vector<64xf16>
      %d = dfir.map %v : vector<64xf16> -> vector<64xf16> {
      ^bb0(%p: f16):
        %one = arith.constant 1.0 : f16
        %t = arith.addf %p, %one : f16
        dfir.yield %t : f16
      }
      dfir.send @from_sfu1, %d : vector<64xf16>
    }
  }
  dfir.unit "core[1]/subcore[0]/L1SU" {
    %out = dfir.address @out1
    %n = arith.constant 2048 : index
    dfir.store @from_sfu1 to "core[1]/L1"[%out] size %n
    dfir.sync_send @stored1
  }
  dfir.unit "core[1]/MNISU_Block/MNISU" {
    %out = dfir.address @out1
    %y = dfir.address @y
    %n = arith.constant 2048 : index
    dfir.sync_recv @stored1
    dfir.dma %n bytes from "core[1]/L1"[%out] to "DDR"[%y]
  }
}
