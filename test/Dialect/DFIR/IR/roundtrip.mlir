// RUN: ktflow-opt %s | ktflow-opt | FileCheck %s
// RUN: ktflow-opt %s --mlir-print-op-generic | ktflow-opt | FileCheck %s

// Every dfir op, printed and parsed back.

// CHECK-LABEL: dfir.kernel @all device "sample_device" {
dfir.kernel @all device "sample_device" {
  // CHECK: dfir.tensor input @x : tensor<?x64xf16> in "DDR" dims [@n]
  dfir.tensor input @x : tensor<?x64xf16> in "DDR" dims [@n]
  // CHECK: dfir.tensor output @y : tensor<128xf32> in "DDR"
  dfir.tensor output @y : tensor<128xf32> in "DDR"
  // CHECK: dfir.tensor inout @z : tensor<4xi32> in "DDR"
  dfir.tensor inout @z : tensor<4xi32> in "DDR"
  // CHECK: dfir.runtime_arg @n granularity 64 upperbound 4096
  dfir.runtime_arg @n granularity 64 upperbound 4096
  // A plain i32 scalar of the kernel: any value of its type.
  // CHECK: dfir.runtime_arg @k lowerbound -2147483648 granularity 1 upperbound 2147483647
  dfir.runtime_arg @k lowerbound -2147483648 granularity 1 upperbound 2147483647
  // Where the kernel has a symbol: an argument (and its name), an address.
  // CHECK: dfir.tensor input @arg1 : tensor<?xf16> in "DDR" dims [@arg0] argument 1 named "x"
  dfir.tensor input @arg1 : tensor<?xf16> in "DDR" dims [@arg0] argument 1 named "x"
  // Two halves of k rows of 64 at one pointer: 128 k elements.
  // CHECK: dfir.tensor input @arg3 : tensor<?xf16> in "DDR" dims [@k] scaled [128] argument 3{{$}}
  dfir.tensor input @arg3 : tensor<?xf16> in "DDR" dims [@k] scaled [128] argument 3
  // CHECK: dfir.tensor output @arg2 : tensor<8xf16> in "DDR" argument 2{{$}}
  dfir.tensor output @arg2 : tensor<8xf16> in "DDR" argument 2
  // CHECK: dfir.tensor inout @lit0 : tensor<8xf16> in "DDR" at 0{{$}}
  dfir.tensor inout @lit0 : tensor<8xf16> in "DDR" at 0
  // CHECK: dfir.runtime_arg @arg0 granularity 1 upperbound 8 argument 0 named "M-1.a$"
  dfir.runtime_arg @arg0 granularity 1 upperbound 8 argument 0 named "M-1.a$"
  // CHECK: dfir.runtime_arg @arg4 lowerbound 0 granularity 1 upperbound 9 argument 4 named "k"
  dfir.runtime_arg @arg4 lowerbound 0 granularity 1 upperbound 9 argument 4 named "k"
  // CHECK: dfir.runtime_arg @arg5 float f16 granularity 1 upperbound 0 argument 5 named "eps"
  dfir.runtime_arg @arg5 float f16 granularity 1 upperbound 0 argument 5 named "eps"
  // CHECK: dfir.buffer @a in "core[0]/L1" size 8192
  dfir.buffer @a in "core[0]/L1" size 8192
  // CHECK: dfir.buffer @b in "core[0]/L1" size 128 offset 65536
  dfir.buffer @b in "core[0]/L1" size 128 offset 65536
  // CHECK: dfir.fifo @q from "lu" to "vec" entry 128
  dfir.fifo @q from "lu" to "vec" entry 128
  // CHECK: dfir.fifo @r from "vec" to "su" entry 128 depth 4
  dfir.fifo @r from "vec" to "su" entry 128 depth 4
  // CHECK: dfir.sync @s from "dma" to "lu"
  dfir.sync @s from "dma" to "lu"

  // CHECK: dfir.unit "dma" {
  dfir.unit "dma" {
    // CHECK: %[[X:.*]] = dfir.address @x
    %x = dfir.address @x
    // CHECK: %[[A:.*]] = dfir.address @a
    %a = dfir.address @a
    // CHECK: %[[N:.*]] = dfir.runtime_value @n
    %n = dfir.runtime_value @n
    %c128 = arith.constant 128 : index
    %bytes = arith.muli %n, %c128 : index
    // CHECK: dfir.dma %{{.*}} bytes from "DDR"[%[[X]]] to "core[0]/L1"[%[[A]]]
    dfir.dma %bytes bytes from "DDR"[%x] to "core[0]/L1"[%a]
    // CHECK: dfir.dma %{{.*}} bytes from "DDR"[%[[X]]] to "core[0]/L1"[%[[A]]] rows %[[N]] strides %{{.*}}, %{{.*}}
    dfir.dma %c128 bytes from "DDR"[%x] to "core[0]/L1"[%a] rows %n strides %bytes, %c128
    // Planes of rows: a transposed block, a column of 2-byte rows per key.
    // CHECK: dfir.dma %[[TWO:.*]] bytes from "DDR"[%[[X]]] to "core[0]/L1"[%[[A]]] rows %[[N]] strides %[[TWO]], %c128 planes %[[N]] strides %c128, %[[TWO]]{{$}}
    %c2 = arith.constant 2 : index
    dfir.dma %c2 bytes from "DDR"[%x] to "core[0]/L1"[%a] rows %n strides %c2, %c128 planes %n strides %c128, %c2
    // CHECK: dfir.remote_dma %{{.*}} bytes from "core[0]/L1"[%[[A]]] to "core[1]/L1"[%[[A]]]{{$}}
    dfir.remote_dma %bytes bytes from "core[0]/L1"[%a] to "core[1]/L1"[%a]
    // CHECK: dfir.remote_dma %{{.*}} bytes from "core[0]/L1"[%[[A]]] to "core[3]/L1"[%[[A]]] rows %[[N]] strides %{{.*}}, %{{.*}}
    dfir.remote_dma %c128 bytes from "core[0]/L1"[%a] to "core[3]/L1"[%a] rows %n strides %bytes, %c128
    // CHECK: dfir.fill %{{.*}} bytes to "core[0]/L1"[%[[A]]]{{$}}
    dfir.fill %bytes bytes to "core[0]/L1"[%a]
    // CHECK: dfir.fill %{{.*}} bytes to "core[0]/L1"[%[[A]]] rows %[[N]] stride %{{.*}}{{$}}
    dfir.fill %c128 bytes to "core[0]/L1"[%a] rows %n stride %bytes
    // CHECK: %{{.*}} = dfir.read_index "DDR"[%[[X]]] : i32 below %[[N]]{{$}}
    %i = dfir.read_index "DDR"[%x] : i32 below %n
    // CHECK: dfir.read_index "core[0]/L1"[%{{.*}}] : i64 below %{{.*}}{{$}}
    %j = dfir.read_index "core[0]/L1"[%i] : i64 below %c128
    // CHECK: dfir.sync_send @s
    dfir.sync_send @s
  }
  dfir.unit "lu" {
    %a = dfir.address @a
    %c4096 = arith.constant 4096 : index
    // CHECK: dfir.sync_recv @s
    dfir.sync_recv @s
    // CHECK: dfir.load @q from "core[0]/L1"[%{{.*}}] size %{{.*}}
    dfir.load @q from "core[0]/L1"[%a] size %c4096
    // A column block of a row-major tile: rows of `size` bytes a stride apart.
    // CHECK: dfir.load @q from "core[0]/L1"[%{{.*}}] size %{{.*}} rows %{{.*}} stride %{{.*}}{{$}}
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    dfir.load @q from "core[0]/L1"[%a] size %c64 rows %c2 stride %c4096
  }
  dfir.unit "vec" {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    // CHECK: dfir.splat 0.000000e+00 : vector<64xf16>
    %zero = dfir.splat 0.0 : vector<64xf16>
    // CHECK: dfir.splat_arg @arg5 : vector<64xf16>
    %eps = dfir.splat_arg @arg5 : vector<64xf16>
    // An integer argument converted to the float element type.
    // CHECK: dfir.splat_arg @n : vector<64xf16>
    %nf = dfir.splat_arg @n : vector<64xf16>
    // Coordinates along a dimension, and a scalar over every element.
    // CHECK: dfir.iota %{{.*}} dimension 1 : vector<2x32xf32>
    %j = dfir.iota %c0 dimension 1 : vector<2x32xf32>
    // CHECK: dfir.iota %{{.*}} : vector<2x32xf32>
    %r = dfir.iota %c32 : vector<2x32xf32>
    %sum = scf.for %i = %c0 to %c32 step %c1 iter_args(%acc = %zero) -> (vector<64xf16>) {
      // CHECK: dfir.recv @q : vector<64xf16>
      %v = dfir.recv @q : vector<64xf16>
      // CHECK: dfir.map %{{.*}}, %{{.*}} : vector<64xf16>, vector<64xf16> -> vector<64xf16> {
      // CHECK-NEXT: ^bb0(%{{.*}}: f16, %{{.*}}: f16):
      // CHECK: dfir.yield %{{.*}} : f16
      %e = dfir.map %v, %acc : vector<64xf16>, vector<64xf16> -> vector<64xf16> {
      ^bb0(%p: f16, %q: f16):
        %s = arith.addf %p, %q : f16
        %t = spyreop.exp %s : f16
        dfir.yield %t : f16
      }
      scf.yield %e : vector<64xf16>
    }
    // CHECK: dfir.reduce max %{{.*}} : vector<64xf16> -> vector<1xf16>
    %m = dfir.reduce max %sum : vector<64xf16> -> vector<1xf16>
    // The NaN-skipping kinds of arith.maxnumf/minnumf.
    // CHECK: dfir.reduce maxnum %{{.*}} : vector<64xf16> -> vector<1xf16>
    // CHECK: dfir.reduce minnum %{{.*}} : vector<64xf16> -> vector<1xf16>
    %mn = dfir.reduce maxnum %sum : vector<64xf16> -> vector<1xf16>
    %mi = dfir.reduce minnum %sum : vector<64xf16> -> vector<1xf16>
    // The select form with the accumulator on the compare's left folds
    // from the accumulator.
    // CHECK: %[[INIT:.*]] = dfir.splat
    // CHECK: dfir.reduce maxafternan %{{.*}} from %[[INIT]] : vector<64xf16> -> vector<1xf16>
    // CHECK: dfir.reduce minafternan %{{.*}} from %[[INIT]] : vector<64xf16> -> vector<1xf16>
    %init = dfir.splat -1.0 : vector<1xf16>
    %ma = dfir.reduce maxafternan %sum from %init : vector<64xf16> -> vector<1xf16>
    %mia = dfir.reduce minafternan %sum from %init : vector<64xf16> -> vector<1xf16>
    // A fold into a loop-carried accumulator (input 1).
    // CHECK: dfir.map %{{.*}}, %{{.*}} accumulator 1 : vector<1xf16>, vector<1xf16> -> vector<1xf16> {
    %z = dfir.splat 0.0 : vector<1xf16>
    %folded = dfir.map %m, %z accumulator 1 : vector<1xf16>, vector<1xf16> -> vector<1xf16> {
    ^bb0(%p: f16, %q: f16):
      %s = arith.addf %p, %q : f16
      dfir.yield %s : f16
    }
    // CHECK: dfir.broadcast %{{.*}} : vector<1xf16> -> vector<64xf16>
    %b = dfir.broadcast %m : vector<1xf16> -> vector<64xf16>
    // CHECK: dfir.send @r, %{{.*}} : vector<64xf16>
    dfir.send @r, %b : vector<64xf16>
  }
  dfir.unit "su" {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    // CHECK: dfir.store @r to "core[0]/L1"[%{{.*}}] size %{{.*}}
    dfir.store @r to "core[0]/L1"[%c0] size %c128
    // CHECK: dfir.store @r to "core[0]/L1"[%{{.*}}] size %{{.*}} rows %{{.*}} stride %{{.*}}{{$}}
    dfir.store @r to "core[0]/L1"[%c0] size %c128 rows %c0 stride %c128
  }
  dfir.unit "pt" {
    %a = dfir.splat 1.0 : vector<8x8xf16>
    %c = dfir.splat 0.0 : vector<8x8xf32>
    // CHECK: dfir.matmul %{{.*}}, %{{.*}}, %{{.*}} : vector<8x8xf16>, vector<8x8xf16> -> vector<8x8xf32>
    %d = dfir.matmul %a, %a, %c : vector<8x8xf16>, vector<8x8xf16> -> vector<8x8xf32>
    %x = dfir.splat 1.0 : vector<32xf16>
    %s = dfir.splat 0.0 : vector<1xf32>
    // CHECK: dfir.matmul %{{.*}}, %{{.*}}, %{{.*}} : vector<32xf16>, vector<32xf16> -> vector<1xf32>
    %e = dfir.matmul %x, %x, %s : vector<32xf16>, vector<32xf16> -> vector<1xf32>
    // A narrower right operand, extended as it is read.
    %p = dfir.splat 1.0 : vector<8x8xf32>
    // CHECK: dfir.matmul %{{.*}}, %{{.*}}, %{{.*}} : vector<8x8xf32>, vector<8x8xf16> -> vector<8x8xf32>
    %f = dfir.matmul %p, %a, %c : vector<8x8xf32>, vector<8x8xf16> -> vector<8x8xf32>
  }
}
