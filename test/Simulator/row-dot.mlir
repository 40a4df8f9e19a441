// RUN: ktflow emit %s --arch %examples/devices/sample_device.mlir -o %t.ktfb
// RUN: ktflow sim %t.ktfb --input x=seq:-3:4 --output y=%t.y.npy | FileCheck %s
// RUN: python3 %S/Inputs/check_npy.py %t.y.npy "sum((-3 + (i * 256 + j) % 7) ** 2 for j in range(256))" 16

// Row sums of squares of a 16x256 f16 matrix (x[r][c] = -3 + (256 r + c)
// mod 7; every sum is an integer below 2048, exact in f16) as dot
// products: the SFU multiplies each of a row's 4 vectors of 64 lanes by
// itself into an f32 accumulator (`dfir.matmul` of two rank-1 vectors),
// rounds the sum to f16 and sends it as a 2-byte FIFO entry.
//
// Hand-computed (SFU: no matrix shape, so its multiply-accumulate rate is
// its 32 f32 lanes: a 64-element dot takes 64/32 = 2 cycles; the f16
// rounding of one element 1 cycle; a 2-byte send 2/128 = 1/64 cycle):
//   load DMA   8192/64 + 102 = 230, sync +1 -> 231
//   entry k reaches the SFU at 237 + k, faster than the dots use them
//   row r: 4 dots + 1 map + 1/64 send end at 246 + 9r + (r+1)/64; row 15
//     ends at 381.25
//   the last sum reaches L1SU at 382.25, is written by 382.265625 and
//     lands at 386.265625; sync +1 -> 387.265625
//   store DMA  32 bytes: 32/64 + 2 + 100 -> 489.765625, i.e. 490 cycles
// (8 dot cycles per row where a map of the squares, a reduce and a fold
// would take 3 + 2 + 1 at the SFU's f32 rates.)

// CHECK: cycles: 490
// CHECK: core[0]/subcore[0]/SFU_Block/SFU 144 {{.*}} 382 {{.*}} 8224 {{.*}}

dfir.kernel @row_sum_squares device "sample_device" {
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
      %zero = dfir.splat 0.0 : vector<1xf32>
      %acc = scf.for %j = %c0 to %c4 step %c1 iter_args(%a = %zero) -> (vector<1xf32>) {
        %v = dfir.recv @to_sfu : vector<64xf16>
        %s = dfir.matmul %v, %v, %a : vector<64xf16>, vector<64xf16> -> vector<1xf32>
        scf.yield %s : vector<1xf32>
      }
      %sum = dfir.map %acc : vector<1xf32> -> vector<1xf16> {
      ^bb0(%p: f32):
        %t = arith.truncf %p : f32 to f16
        dfir.yield %t : f16
      }
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
