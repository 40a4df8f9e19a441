// RUN: ktflow emit %s --arch %examples/devices/sample_device.mlir -o %t.ktfb
// RUN: ktflow sim %t.ktfb --input x=seq:-3:4 --output y=%t.y.npy
// RUN: python3 %S/Inputs/check_npy.py %t.y.npy "10 if -3 + i % 7 >= 2 else abs(-3 + i % 7)" 256

// The comparison micro-ops of a map body: x >= 2 (cmpi sge on the value
// converted to i32) selects 10, else x < 0 (cmpf olt) selects -x, so the
// result is |x| below 2; the product with (x uno NaN ? 1 : 0) keeps it only
// while the unordered predicate holds on a NaN operand, as it must. The
// emitter writes each predicate in the machine's own encoding
// (CmpFPredicate, CmpIPredicate) and the simulator evaluates that encoding.

dfir.kernel @compare device "sample_device" {
  dfir.tensor input @x : tensor<256xf16> in "DDR"
  dfir.tensor output @y : tensor<256xf16> in "DDR"
  dfir.buffer @in in "core[0]/L1" size 512
  dfir.buffer @out in "core[0]/L1" size 512
  dfir.fifo @to_sfu from "core[0]/subcore[0]/L1LU" to "core[0]/subcore[0]/SFU_Block/SFU" entry 128
  dfir.fifo @from_sfu from "core[0]/subcore[0]/SFU_Block/SFU" to "core[0]/subcore[0]/L1SU" entry 128
  dfir.sync @loaded from "core[0]/MNILU_Block/MNILU" to "core[0]/subcore[0]/L1LU"
  dfir.sync @stored from "core[0]/subcore[0]/L1SU" to "core[0]/MNISU_Block/MNISU"

  dfir.unit "core[0]/MNILU_Block/MNILU" {
    %x = dfir.address @x
    %in = dfir.address @in
    %n = arith.constant 512 : index
    dfir.dma %n bytes from "DDR"[%x] to "core[0]/L1"[%in]
    dfir.sync_send @loaded
  }
  dfir.unit "core[0]/subcore[0]/L1LU" {
    %in = dfir.address @in
    %n = arith.constant 512 : index
    dfir.sync_recv @loaded
    dfir.load @to_sfu from "core[0]/L1"[%in] size %n
  }
  dfir.unit "core[0]/subcore[0]/SFU_Block/SFU" {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    scf.for %r = %c0 to %c4 step %c1 {
      %v = dfir.recv @to_sfu : vector<64xf16>
      %y = dfir.map %v : vector<64xf16> -> vector<64xf16> {
      ^bb0(%p: f16):
        %zero = arith.constant 0.0 : f16
        %one = arith.constant 1.0 : f16
        %ten = arith.constant 10.0 : f16
        %two = arith.constant 2 : i32
        %neg = arith.cmpf olt, %p, %zero : f16
        %m = arith.negf %p : f16
        %abs = arith.select %neg, %m, %p : f16
        %i = arith.fptosi %p : f16 to i32
        %big = arith.cmpi sge, %i, %two : i32
        %r0 = arith.select %big, %ten, %abs : f16
        %nan = arith.divf %zero, %zero : f16
        %u = arith.cmpf uno, %p, %nan : f16
        %k = arith.select %u, %one, %zero : f16
        %out = arith.mulf %r0, %k : f16
        dfir.yield %out : f16
      }
      dfir.send @from_sfu, %y : vector<64xf16>
    }
  }
  dfir.unit "core[0]/subcore[0]/L1SU" {
    %out = dfir.address @out
    %n = arith.constant 512 : index
    dfir.store @from_sfu to "core[0]/L1"[%out] size %n
    dfir.sync_send @stored
  }
  dfir.unit "core[0]/MNISU_Block/MNISU" {
    %out = dfir.address @out
    %y = dfir.address @y
    %n = arith.constant 512 : index
    dfir.sync_recv @stored
    dfir.dma %n bytes from "core[0]/L1"[%out] to "DDR"[%y]
  }
}
