// RUN: ktflow emit %s --arch %examples/devices/sample_device.mlir -o %t.ktfb
// RUN: ktflow sim %t.ktfb --input x=seq:1:100 --output y=%t.y.npy
// RUN: python3 %S/Inputs/check_npy.py %t.y.npy "1 + i % 99 if i < 1024 else 0" 2048

// An i1 `true` is 1 in a scalar register, as a comparison's result is, so
// `xori %cmp, %true` negates a comparison and `cmpi eq %cmp, %true` holds
// when it does. Both units copy 2048 bytes (the first 1024 elements) only if
// both identities hold; with `true` sign-extended to -1 the negation of a
// true comparison is -2 (nonzero: taken as true) and the equality fails, so
// the byte count would come out 4096 and y would hold all of x.

dfir.kernel @i1_logic device "sample_device" {
  dfir.tensor input @x : tensor<2048xf16> in "DDR"
  dfir.tensor output @y : tensor<2048xf16> in "DDR"
  dfir.buffer @in in "core[0]/L1" size 4096
  dfir.sync @loaded from "core[0]/MNILU_Block/MNILU" to "core[0]/MNISU_Block/MNISU"

  dfir.unit "core[0]/MNILU_Block/MNILU" {
    %x = dfir.address @x
    %in = dfir.address @in
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %true = arith.constant true
    %half = arith.constant 2048 : index
    %all = arith.constant 4096 : index
    %lt = arith.cmpi slt, %c2, %c3 : index
    %ge = arith.xori %lt, %true : i1
    %n = arith.select %ge, %all, %half : index
    dfir.dma %n bytes from "DDR"[%x] to "core[0]/L1"[%in]
    dfir.sync_send @loaded
  }
  dfir.unit "core[0]/MNISU_Block/MNISU" {
    %in = dfir.address @in
    %y = dfir.address @y
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %true = arith.constant true
    %half = arith.constant 2048 : index
    %all = arith.constant 4096 : index
    %lt = arith.cmpi slt, %c2, %c3 : index
    %same = arith.cmpi eq, %lt, %true : i1
    %n = arith.select %same, %half, %all : index
    dfir.sync_recv @loaded
    dfir.dma %n bytes from "core[0]/L1"[%in] to "DDR"[%y]
  }
}
