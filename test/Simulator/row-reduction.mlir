// RUN: ktflow emit %s --arch %examples/devices/sample_device.mlir -o %t.ktfb
// RUN: ktflow sim %t.ktfb --input x=seq:-3:4 --output y=%t.y.npy | FileCheck %s
// RUN: python3 %S/Inputs/check_npy.py %t.y.npy "sum(-3 + (i * 256 + j) % 7 for j in range(256))" 16

// Row sums of a 16x256 f16 matrix (x[r][c] = -3 + (256 r + c) mod 7, so
// every partial sum is exact in f16): the SFU adds each row's 4 vectors of
// 64 lanes element-wise, reduces the 64 lanes to one value and sends it as
// a 2-byte FIFO entry; the store unit packs the 16 sums.
//
// Hand-computed (SFU: 64 f16 lanes, 1 cycle per add and per 64-lane
// reduction; a 2-byte send takes 2/128 = 1/64 cycle):
//   load DMA   8192/64 + 102 = 230, sync +1 -> 231
//   entry k reaches the SFU at 231 + k + 1 + 4 + 1 = 237 + k
//   row r: 3 adds + 1 reduce + 1/64 send end at 242 + 4r + (r+1)/64
//     (the SFU falls 1/64 cycle behind per row); row 15 ends at 302.25
//   the last sum reaches L1SU at 303.25, is written by 303.265625 and
//     lands at 307.265625; sync +1 -> 308.265625
//   store DMA  32 bytes: 32/64 + 2 + 100 -> 410.765625, i.e. 411 cycles

// CHECK: cycles: 411
// CHECK: core[0]/subcore[0]/SFU_Block/SFU 64 {{.*}} 303 {{.*}} 8224 {{.*}}

dfir.kernel @row_sum device "sample_device" {
  dfir.tensor input @x : tensor<16x256xf16> in "DDR"
  dfir.tensor output @y : tensor<16xf16> in "DDR"
  dfir.buffer @in in "core[0]/L1" size 8192
  dfir.buffer @out in "core[0]/L1" size 32
  dfir.fifo @to_sfu from "core[0]/subcore[0]/L1LU" to "core[0]/subcore[0]/SFU_Block/SFU" entry 128
  dfir.fifo @from_sfu from "core[0]/subcore[0]/SFU_Block/SFU" to "core[0]/subcore[0]/L1SU" entry 128
  dfir.sync @loaded from "core[0]/MNILU_Block/MNILU" to "core[0]/subcore[0]/L1LU"
  dfir.sync @stored from "core[0]/subcore[0]/L1SU" to "core[0]/MNISU_Block/MNISU"

  dfir.unit "core[0]/MNILU_Block/MNILU" {
    %x = dfir.address @x
    %in = dfir.address @in
    %n = arith.constant 8192 : index
    dfir.dma %n bytes from "DDR"[%x] to "core[0]/L1"[%in]
    dfir.sync_send @loaded
  }
  dfir.unit "core[0]/subcore[0]/L1LU" {
    %in = dfir.address @in
    %n = arith.constant 8192 : index
    dfir.sync_recv @loaded
    dfir.load @to_sfu from "core[0]/L1"[%in] size %n
  }
  dfir.unit "core[0]/subcore[0]/SFU_Block/SFU" {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    scf.for %r = %c0 to %c16 step %c1 {
      %first = dfir.recv @to_sfu : vector<64xf16>
      %acc = scf.for %j = %c1 to %c4 step %c1 iter_args(%a = %first) -> (vector<64xf16>) {
        %v = dfir.recv @to_sfu : vector<64xf16>
        %s = dfir.map %a, %v : vector<64xf16>, vector<64xf16> -> vector<64xf16> {
        ^bb0(%p: f16, %q: f16):
          %t = arith.addf %p, %q : f16
          dfir.yield %t : f16
        }
        scf.yield %s : vector<64xf16>
      }
      %sum = dfir.reduce add %acc : vector<64xf16> -> vector<1xf16>
      dfir.send @from_sfu, %sum : vector<1xf16>
    }
  }
  dfir.unit "core[0]/subcore[0]/L1SU" {
    %out = dfir.address @out
    %n = arith.constant 32 : index
    dfir.store @from_sfu to "core[0]/L1"[%out] size %n
    dfir.sync_send @stored
  }
  dfir.unit "core[0]/MNISU_Block/MNISU" {
    %out = dfir.address @out
    %y = dfir.address @y
    %n = arith.constant 32 : index
    dfir.sync_recv @stored
    dfir.dma %n bytes from "core[0]/L1"[%out] to "DDR"[%y]
  }
}
