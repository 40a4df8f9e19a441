// RUN: ktflow-opt %s --ktdf-import-target --ktdf-split-wide-reductions | FileCheck %s

// A one-point SwiGLU FFN on mesh_device (16 tiles): the down projection
// contracts the 64 hidden columns, which the two projections and the silu
// generic compute column by column, so the pass cuts them into 8 parts of
// 8 (the fewest a contraction's part keeps), a new first grid dimension.
// Each part loads its 8 columns of W1 and W3 and its 8 rows of W2 (X
// whole), computes its 4x8 hidden slice and its f32 4x32 partial of Y,
// which an inter-tile all-reduce (addf from an f32 zero splat) combines
// and one truncf rounds to f16; part 0 alone stores it (its 4 rows do not
// divide between 8 parts: own-rows.mlir).

// CHECK-LABEL: func.func @swiglu_hidden_parts
// CHECK-SAME: grid = [8, 1]
// CHECK: %[[IDS:.*]]:2 = ktdp.get_compute_tile_id : index, index
// CHECK: %[[COL:.*]] = arith.muli %[[IDS]]#0, %c8
// CHECK-DAG: ktdp.construct_access_tile %{{.*}}[%{{.*}}, 0] {{.*}} -> !ktdp.access_tile<4x32xindex>
// CHECK-DAG: %[[T1:.*]] = ktdp.construct_access_tile %{{.*}}[0, %[[COL]]] {{.*}} -> !ktdp.access_tile<32x8xindex>
// CHECK-DAG: %[[T2:.*]] = ktdp.construct_access_tile %{{.*}}[%[[COL]], 0] {{.*}} -> !ktdp.access_tile<8x32xindex>
// CHECK-DAG: ktdp.load %[[T1]] : <32x8xindex> -> tensor<32x8xf16>
// CHECK-DAG: %[[W2:.*]] = ktdp.load %[[T2]] : <8x32xindex> -> tensor<8x32xf16>
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x32xf16>, tensor<32x8xf16>) outs(%{{.*}} : tensor<4x8xf16>)
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x32xf16>, tensor<32x8xf16>) outs(%{{.*}} : tensor<4x8xf16>)
// CHECK: %[[G:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<4x8xf16>)
// CHECK: %[[P:.*]] = linalg.matmul ins(%[[G]], %[[W2]] : tensor<4x8xf16>, tensor<8x32xf16>) outs(%{{.*}} : tensor<4x32xf32>)
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<4x32xf32>
// CHECK: %[[F:.*]] = ktdp.inter_tile_produce
// CHECK: ktdp.yield_partial %[[P]]
// CHECK: %[[S:.*]] = ktdp.inter_tile_reduce(%[[F]]) {{.*}}identity(%[[ZERO]] : tensor<4x32xf32>)
// CHECK: arith.addf
// CHECK-NOT: tensor.extract_slice
// CHECK: %[[Y:.*]] = arith.truncf %[[S]] : tensor<4x32xf32> to tensor<4x32xf16>
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[IDS]]#0, %{{.*}}
// CHECK: %[[TRIPS:.*]] = arith.select %[[FIRST]]
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[TRIPS]]
// CHECK: ktdp.store %[[Y]], %{{.*}} : tensor<4x32xf16>, <4x32xindex>
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#up_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#down_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @mesh_device from "../../../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">
  func.func @swiglu_hidden_parts(%x_ptr: index, %w1_ptr: index, %w3_ptr: index,
                                 %w2_ptr: index, %y_ptr: index)
      attributes {grid = [1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c4 = arith.constant 4 : index
    %zero = arith.constant 0.0 : f16
    %row0 = arith.muli %pid, %c4 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [4, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x32xf16>
    %W1 = ktdp.construct_memory_view %w1_ptr, sizes: [32, 64], strides: [64, 1] {coordinate_set = #up_set, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %W3 = ktdp.construct_memory_view %w3_ptr, sizes: [32, 64], strides: [64, 1] {coordinate_set = #up_set, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %W2 = ktdp.construct_memory_view %w2_ptr, sizes: [64, 32], strides: [32, 1] {coordinate_set = #down_set, memory_space = #ktdp.memory_space<global>} : memref<64x32xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [4, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x32xf16>
    %tx = ktdp.construct_access_tile %X[%row0, 0] {access_tile_set = #x_set, access_tile_order = #id2} : memref<4x32xf16> -> !ktdp.access_tile<4x32xindex>
    %t1 = ktdp.construct_access_tile %W1[0, 0] {access_tile_set = #up_set, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
    %t3 = ktdp.construct_access_tile %W3[0, 0] {access_tile_set = #up_set, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
    %t2 = ktdp.construct_access_tile %W2[0, 0] {access_tile_set = #down_set, access_tile_order = #id2} : memref<64x32xf16> -> !ktdp.access_tile<64x32xindex>
    %x = ktdp.load %tx : <4x32xindex> -> tensor<4x32xf16>
    %w1 = ktdp.load %t1 : <32x64xindex> -> tensor<32x64xf16>
    %w3 = ktdp.load %t3 : <32x64xindex> -> tensor<32x64xf16>
    %w2 = ktdp.load %t2 : <64x32xindex> -> tensor<64x32xf16>
    %empty = tensor.empty() : tensor<4x64xf16>
    %z1 = linalg.fill ins(%zero : f16) outs(%empty : tensor<4x64xf16>) -> tensor<4x64xf16>
    %h1 = linalg.matmul ins(%x, %w1 : tensor<4x32xf16>, tensor<32x64xf16>) outs(%z1 : tensor<4x64xf16>) -> tensor<4x64xf16>
    %z3 = arith.constant dense<0.0> : tensor<4x64xf16>
    %h3 = linalg.matmul ins(%x, %w3 : tensor<4x32xf16>, tensor<32x64xf16>) outs(%z3 : tensor<4x64xf16>) -> tensor<4x64xf16>
    %g = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%h1, %h3 : tensor<4x64xf16>, tensor<4x64xf16>) outs(%empty : tensor<4x64xf16>) {
    ^bb0(%a: f16, %b: f16, %out: f16):
      %af = arith.extf %a : f16 to f32
      %one = arith.constant 1.0 : f32
      %n = arith.negf %af : f32
      %e = math.exp %n : f32
      %d = arith.addf %one, %e : f32
      %s = arith.divf %af, %d : f32
      %st = arith.truncf %s : f32 to f16
      %p = arith.mulf %st, %b : f16
      linalg.yield %p : f16
    } -> tensor<4x64xf16>
    %yempty = tensor.empty() : tensor<4x32xf16>
    %z2 = linalg.fill ins(%zero : f16) outs(%yempty : tensor<4x32xf16>) -> tensor<4x32xf16>
    %y = linalg.matmul ins(%g, %w2 : tensor<4x64xf16>, tensor<64x32xf16>) outs(%z2 : tensor<4x32xf16>) -> tensor<4x32xf16>
    %ty = ktdp.construct_access_tile %Y[%row0, 0] {access_tile_set = #x_set, access_tile_order = #id2} : memref<4x32xf16> -> !ktdp.access_tile<4x32xindex>
    ktdp.store %y, %ty : tensor<4x32xf16>, <4x32xindex>
    return
  }
}
