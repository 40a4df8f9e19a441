// RUN: ktflow-opt %s -split-input-file --ktdf-import-target --ktdf-share-left-operands | FileCheck %s

// A gated product on spyre_like: 2 grid points, 64 instances, 32 cores, so
// up to 32 copies per point; the 256 output columns allow 4 slices of 64
// (min-columns). Each copy computes the gates of trips c, c + 4, ... into a
// trip-major 72x64 exchange view (the hidden loop runs to a plain index:
// the 8 trips whose W2 rows start inside its 512-row view, and one for all
// later trips), zeroed first; the all-reduce groups each point's copies
// (tile ids p + 2c); then the loop reads trip j's gate at row
// min(j / 64, 8) * 8 and works on 64-column slices of W2, the accumulator,
// the residual (loaded again after the exchange) and the output.

// CHECK-LABEL: func.func @gated
// CHECK-SAME: grid = [2, 4]
// CHECK: %[[RECV:.*]] = ktdp.construct_memory_view %{{.*}}, sizes: [3456]{{.*}}ktdf.exchange
// CHECK: %[[VIEW:.*]] = ktdp.construct_memory_view %{{.*}}, sizes: [72, 64]{{.*}}ktdf.exchange
// CHECK: %[[WHOLE:.*]] = ktdp.construct_access_tile %[[VIEW]][0, 0]
// CHECK: %[[ID:.*]]:2 = ktdp.get_compute_tile_id : index, index
// CHECK: %[[C64:.*]] = arith.constant 64 : index
// CHECK: %[[COL:.*]] = arith.muli %[[ID]]#1, %[[C64]] : index
// CHECK: %[[UB:.*]] = arith.minsi %{{.*}}, %{{.*}} : index
// CHECK: ktdp.store %{{.*}}, %[[WHOLE]] : tensor<72x64xf16>, <72x64xindex>
// CHECK: %[[X:.*]] = ktdp.load %{{.*}} : <8x256xindex> -> tensor<8x256xf16>
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %[[UB]] step %{{.*}} {
// CHECK:   linalg.matmul ins(%[[X]], %{{.*}} : tensor<8x256xf16>, tensor<256x64xf16>)
// CHECK:   %[[G:.*]] = math.exp
// CHECK:   %[[T:.*]] = arith.divui %[[J]], %{{.*}} : index
// CHECK:   %[[R:.*]] = arith.muli %[[T]], %{{.*}} : index
// CHECK:   %[[TILE:.*]] = ktdp.construct_access_tile %[[VIEW]][%[[R]], 0] {{.*}} -> !ktdp.access_tile<8x64xindex>
// CHECK:   ktdp.store %[[G]], %[[TILE]]
// CHECK: ktdf.all_reduce %[[VIEW]], %[[RECV]] {combiner = "arith.addf", groups = [array<i64: 0, 2, 4, 6>, array<i64: 1, 3, 5, 7>]}
// CHECK: %[[XS:.*]] = ktdp.load %{{.*}} : <8x64xindex> -> tensor<8x64xf16>
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<8x64xf16>) {
// CHECK:   ktdp.construct_access_tile %{{.*}}[%[[K]], %[[COL]]] {{.*}} -> !ktdp.access_tile<64x64xindex>
// CHECK:   %[[KT:.*]] = arith.divui %[[K]], %{{.*}} : index
// CHECK:   %[[LAST:.*]] = arith.minui %[[KT]], %{{.*}} : index
// CHECK:   %[[KR:.*]] = arith.muli %[[LAST]], %{{.*}} : index
// CHECK:   %[[KTILE:.*]] = ktdp.construct_access_tile %[[VIEW]][%[[KR]], 0]
// CHECK:   %[[KG:.*]] = ktdp.load %[[KTILE]] : <8x64xindex> -> tensor<8x64xf16>
// CHECK:   linalg.matmul ins(%[[KG]], %{{.*}} : tensor<8x64xf16>, tensor<64x64xf16>) outs(%{{.*}} : tensor<8x64xf16>)
// CHECK: arith.addf %[[XS]], %{{.*}} : tensor<8x64xf16>
// CHECK: ktdp.construct_access_tile %{{.*}}[%{{.*}}, %[[COL]]] {{.*}} -> !ktdp.access_tile<8x64xindex>
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#up_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#down_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 511 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#o_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#x_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#up_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#down_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#o_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @gated(%x_ptr: index, %w1_ptr: index, %w2_ptr: index, %out_ptr: index, %d_ff: index) attributes {grid = [2]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f16
    %row0 = arith.muli %pid, %c8 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [16, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<16x256xf16>
    %W1 = ktdp.construct_memory_view %w1_ptr, sizes: [256, 512], strides: [512, 1] {coordinate_set = #up_set, memory_space = #ktdp.memory_space<global>} : memref<256x512xf16>
    %W2 = ktdp.construct_memory_view %w2_ptr, sizes: [512, 256], strides: [256, 1] {coordinate_set = #down_set, memory_space = #ktdp.memory_space<global>} : memref<512x256xf16>
    %OUT = ktdp.construct_memory_view %out_ptr, sizes: [16, 256], strides: [256, 1] {coordinate_set = #o_set, memory_space = #ktdp.memory_space<global>} : memref<16x256xf16>
    %tx = ktdp.construct_access_tile %X[%row0, 0] {access_tile_set = #x_blk, access_tile_order = #id2} : memref<16x256xf16> -> !ktdp.access_tile<8x256xindex>
    %x = ktdp.load %tx : <8x256xindex> -> tensor<8x256xf16>
    %empty = tensor.empty() : tensor<8x256xf16>
    %e64 = tensor.empty() : tensor<8x64xf16>
    %acc0 = linalg.fill ins(%zero : f16) outs(%empty : tensor<8x256xf16>) -> tensor<8x256xf16>
    %acc = scf.for %j = %c0 to %d_ff step %c64 iter_args(%running = %acc0) -> (tensor<8x256xf16>) {
      %t1 = ktdp.construct_access_tile %W1[0, %j] {access_tile_set = #up_blk, access_tile_order = #id2} : memref<256x512xf16> -> !ktdp.access_tile<256x64xindex>
      %t2 = ktdp.construct_access_tile %W2[%j, 0] {access_tile_set = #down_blk, access_tile_order = #id2} : memref<512x256xf16> -> !ktdp.access_tile<64x256xindex>
      %w1 = ktdp.load %t1 : <256x64xindex> -> tensor<256x64xf16>
      %w2 = ktdp.load %t2 : <64x256xindex> -> tensor<64x256xf16>
      %z1 = linalg.fill ins(%zero : f16) outs(%e64 : tensor<8x64xf16>) -> tensor<8x64xf16>
      %h1 = linalg.matmul ins(%x, %w1 : tensor<8x256xf16>, tensor<256x64xf16>) outs(%z1 : tensor<8x64xf16>) -> tensor<8x64xf16>
      %gate = math.exp %h1 : tensor<8x64xf16>
      %next = linalg.matmul ins(%gate, %w2 : tensor<8x64xf16>, tensor<64x256xf16>) outs(%running : tensor<8x256xf16>) -> tensor<8x256xf16>
      scf.yield %next : tensor<8x256xf16>
    }
    %res = arith.addf %x, %acc : tensor<8x256xf16>
    %to = ktdp.construct_access_tile %OUT[%row0, 0] {access_tile_set = #o_blk, access_tile_order = #id2} : memref<16x256xf16> -> !ktdp.access_tile<8x256xindex>
    ktdp.store %res, %to : tensor<8x256xf16>, <8x256xindex>
    return
  }
}

// -----

// A constant trip count: the view holds the 8 trips, nothing is clamped.

// CHECK-LABEL: func.func @constant
// CHECK-SAME: grid = [2, 4]
// CHECK-NOT: arith.minsi
// CHECK: sizes: [64, 64]{{.*}}ktdf.exchange
// CHECK-NOT: arith.minui
// CHECK: ktdf.all_reduce
// CHECK-NOT: arith.minui
// CHECK: return
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#up_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#down_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 511 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#o_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#x_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#up_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#down_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#o_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @constant(%x_ptr: index, %w1_ptr: index, %w2_ptr: index, %out_ptr: index, %d_ff: index) attributes {grid = [2]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0.0 : f16
    %row0 = arith.muli %pid, %c8 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [16, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<16x256xf16>
    %W1 = ktdp.construct_memory_view %w1_ptr, sizes: [256, 512], strides: [512, 1] {coordinate_set = #up_set, memory_space = #ktdp.memory_space<global>} : memref<256x512xf16>
    %W2 = ktdp.construct_memory_view %w2_ptr, sizes: [512, 256], strides: [256, 1] {coordinate_set = #down_set, memory_space = #ktdp.memory_space<global>} : memref<512x256xf16>
    %OUT = ktdp.construct_memory_view %out_ptr, sizes: [16, 256], strides: [256, 1] {coordinate_set = #o_set, memory_space = #ktdp.memory_space<global>} : memref<16x256xf16>
    %tx = ktdp.construct_access_tile %X[%row0, 0] {access_tile_set = #x_blk, access_tile_order = #id2} : memref<16x256xf16> -> !ktdp.access_tile<8x256xindex>
    %x = ktdp.load %tx : <8x256xindex> -> tensor<8x256xf16>
    %empty = tensor.empty() : tensor<8x256xf16>
    %e64 = tensor.empty() : tensor<8x64xf16>
    %acc0 = linalg.fill ins(%zero : f16) outs(%empty : tensor<8x256xf16>) -> tensor<8x256xf16>
    %acc = scf.for %j = %c0 to %c512 step %c64 iter_args(%running = %acc0) -> (tensor<8x256xf16>) {
      %t1 = ktdp.construct_access_tile %W1[0, %j] {access_tile_set = #up_blk, access_tile_order = #id2} : memref<256x512xf16> -> !ktdp.access_tile<256x64xindex>
      %t2 = ktdp.construct_access_tile %W2[%j, 0] {access_tile_set = #down_blk, access_tile_order = #id2} : memref<512x256xf16> -> !ktdp.access_tile<64x256xindex>
      %w1 = ktdp.load %t1 : <256x64xindex> -> tensor<256x64xf16>
      %w2 = ktdp.load %t2 : <64x256xindex> -> tensor<64x256xf16>
      %z1 = linalg.fill ins(%zero : f16) outs(%e64 : tensor<8x64xf16>) -> tensor<8x64xf16>
      %h1 = linalg.matmul ins(%x, %w1 : tensor<8x256xf16>, tensor<256x64xf16>) outs(%z1 : tensor<8x64xf16>) -> tensor<8x64xf16>
      %gate = math.exp %h1 : tensor<8x64xf16>
      %next = linalg.matmul ins(%gate, %w2 : tensor<8x64xf16>, tensor<64x256xf16>) outs(%running : tensor<8x256xf16>) -> tensor<8x256xf16>
      scf.yield %next : tensor<8x256xf16>
    }
    %res = arith.addf %x, %acc : tensor<8x256xf16>
    %to = ktdp.construct_access_tile %OUT[%row0, 0] {access_tile_set = #o_blk, access_tile_order = #id2} : memref<16x256xf16> -> !ktdp.access_tile<8x256xindex>
    ktdp.store %res, %to : tensor<8x256xf16>, <8x256xindex>
    return
  }
}

// -----

// Past the view's trips every trip must compute the same gate: with a
// run-time bound, the loop variable may reach the gate only as a tile's
// anchor. Here an offset computed from it feeds a tile: left alone.

// CHECK-LABEL: func.func @iv_in_gate
// CHECK-SAME: grid = [2]}
// CHECK-NOT: ktdf.all_reduce
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#up_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#down_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 511 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#o_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#x_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#up_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#down_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#o_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @iv_in_gate(%x_ptr: index, %w1_ptr: index, %w2_ptr: index, %out_ptr: index, %d_ff: index) attributes {grid = [2]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f16
    %row0 = arith.muli %pid, %c8 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [16, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<16x256xf16>
    %W1 = ktdp.construct_memory_view %w1_ptr, sizes: [256, 512], strides: [512, 1] {coordinate_set = #up_set, memory_space = #ktdp.memory_space<global>} : memref<256x512xf16>
    %W2 = ktdp.construct_memory_view %w2_ptr, sizes: [512, 256], strides: [256, 1] {coordinate_set = #down_set, memory_space = #ktdp.memory_space<global>} : memref<512x256xf16>
    %OUT = ktdp.construct_memory_view %out_ptr, sizes: [16, 256], strides: [256, 1] {coordinate_set = #o_set, memory_space = #ktdp.memory_space<global>} : memref<16x256xf16>
    %tx = ktdp.construct_access_tile %X[%row0, 0] {access_tile_set = #x_blk, access_tile_order = #id2} : memref<16x256xf16> -> !ktdp.access_tile<8x256xindex>
    %x = ktdp.load %tx : <8x256xindex> -> tensor<8x256xf16>
    %empty = tensor.empty() : tensor<8x256xf16>
    %e64 = tensor.empty() : tensor<8x64xf16>
    %acc0 = linalg.fill ins(%zero : f16) outs(%empty : tensor<8x256xf16>) -> tensor<8x256xf16>
    %acc = scf.for %j = %c0 to %d_ff step %c64 iter_args(%running = %acc0) -> (tensor<8x256xf16>) {
      %j1 = arith.addi %j, %c0 : index
      %t1 = ktdp.construct_access_tile %W1[0, %j1] {access_tile_set = #up_blk, access_tile_order = #id2} : memref<256x512xf16> -> !ktdp.access_tile<256x64xindex>
      %t2 = ktdp.construct_access_tile %W2[%j, 0] {access_tile_set = #down_blk, access_tile_order = #id2} : memref<512x256xf16> -> !ktdp.access_tile<64x256xindex>
      %w1 = ktdp.load %t1 : <256x64xindex> -> tensor<256x64xf16>
      %w2 = ktdp.load %t2 : <64x256xindex> -> tensor<64x256xf16>
      %z1 = linalg.fill ins(%zero : f16) outs(%e64 : tensor<8x64xf16>) -> tensor<8x64xf16>
      %h1 = linalg.matmul ins(%x, %w1 : tensor<8x256xf16>, tensor<256x64xf16>) outs(%z1 : tensor<8x64xf16>) -> tensor<8x64xf16>
      %gate = math.exp %h1 : tensor<8x64xf16>
      %next = linalg.matmul ins(%gate, %w2 : tensor<8x64xf16>, tensor<64x256xf16>) outs(%running : tensor<8x256xf16>) -> tensor<8x256xf16>
      scf.yield %next : tensor<8x256xf16>
    }
    %res = arith.addf %x, %acc : tensor<8x256xf16>
    %to = ktdp.construct_access_tile %OUT[%row0, 0] {access_tile_set = #o_blk, access_tile_order = #id2} : memref<16x256xf16> -> !ktdp.access_tile<8x256xindex>
    ktdp.store %res, %to : tensor<8x256xf16>, <8x256xindex>
    return
  }
}
