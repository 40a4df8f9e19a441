// RUN: ktflow-opt %s --split-input-file --ktdf-import-target --ktdf-split-wide-reductions | FileCheck %s

// A one-point SwiGLU FFN of two hidden chunks (the unrolled hidden loop:
// the second down projection accumulates into the first's result) on
// mesh_device: each chunk's 64 hidden columns are cut into 8 parts of 8.
// Each part sums its two down projections in f32 (an f32 zero start, both
// products into f32), the all-reduce sums the parts' f32 partials, and one
// truncf rounds the sum to f16 for the store: 16-bit partials were each
// rounded by their part.

// CHECK-LABEL: func.func @swiglu_chain_f32
// CHECK-SAME: grid = [8, 1]
// CHECK: %[[IDS:.*]]:2 = ktdp.get_compute_tile_id : index, index
// CHECK: arith.muli %[[IDS]]#0, %c8
// CHECK: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<4x32xf32>
// CHECK: %[[P0:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xf16>, tensor<8x32xf16>) outs(%[[Z]] : tensor<4x32xf32>) -> tensor<4x32xf32>
// CHECK: %[[P1:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xf16>, tensor<8x32xf16>) outs(%[[P0]] : tensor<4x32xf32>) -> tensor<4x32xf32>
// CHECK-NOT: arith.truncf
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<4x32xf32>
// CHECK: %[[F:.*]] = ktdp.inter_tile_produce {{.*}} -> <(tensor<4x32xf32>)
// CHECK: ktdp.yield_partial %[[P1]] : tensor<4x32xf32>
// CHECK: %[[S:.*]] = ktdp.inter_tile_reduce(%[[F]]) {{.*}}identity(%[[ZERO]] : tensor<4x32xf32>)
// CHECK: arith.addf %{{.*}}, %{{.*}} : tensor<4x32xf32>
// CHECK: %[[Y:.*]] = arith.truncf %[[S]] : tensor<4x32xf32> to tensor<4x32xf16>
// CHECK: scf.for
// CHECK: ktdp.store %[[Y]], %{{.*}} : tensor<4x32xf16>, <4x32xindex>
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#up_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#down_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#up_tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#down_tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @mesh_device from "../../../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">
  func.func @swiglu_chain_f32(%x_ptr: index, %w1_ptr: index, %w3_ptr: index,
                              %w2_ptr: index, %y_ptr: index)
      attributes {grid = [1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c4 = arith.constant 4 : index
    %zero = arith.constant 0.0 : f16
    %row0 = arith.muli %pid, %c4 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [4, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x32xf16>
    %W1 = ktdp.construct_memory_view %w1_ptr, sizes: [32, 128], strides: [128, 1] {coordinate_set = #up_set, memory_space = #ktdp.memory_space<global>} : memref<32x128xf16>
    %W3 = ktdp.construct_memory_view %w3_ptr, sizes: [32, 128], strides: [128, 1] {coordinate_set = #up_set, memory_space = #ktdp.memory_space<global>} : memref<32x128xf16>
    %W2 = ktdp.construct_memory_view %w2_ptr, sizes: [128, 32], strides: [32, 1] {coordinate_set = #down_set, memory_space = #ktdp.memory_space<global>} : memref<128x32xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [4, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x32xf16>
    %tx = ktdp.construct_access_tile %X[%row0, 0] {access_tile_set = #x_set, access_tile_order = #id2} : memref<4x32xf16> -> !ktdp.access_tile<4x32xindex>
    %x = ktdp.load %tx : <4x32xindex> -> tensor<4x32xf16>
    %yempty = tensor.empty() : tensor<4x32xf16>
    %acc0 = linalg.fill ins(%zero : f16) outs(%yempty : tensor<4x32xf16>) -> tensor<4x32xf16>
    %t1a = ktdp.construct_access_tile %W1[0, 0] {access_tile_set = #up_tile, access_tile_order = #id2} : memref<32x128xf16> -> !ktdp.access_tile<32x64xindex>
    %t3a = ktdp.construct_access_tile %W3[0, 0] {access_tile_set = #up_tile, access_tile_order = #id2} : memref<32x128xf16> -> !ktdp.access_tile<32x64xindex>
    %t2a = ktdp.construct_access_tile %W2[0, 0] {access_tile_set = #down_tile, access_tile_order = #id2} : memref<128x32xf16> -> !ktdp.access_tile<64x32xindex>
    %w1a = ktdp.load %t1a : <32x64xindex> -> tensor<32x64xf16>
    %w3a = ktdp.load %t3a : <32x64xindex> -> tensor<32x64xf16>
    %w2a = ktdp.load %t2a : <64x32xindex> -> tensor<64x32xf16>
    %ea = tensor.empty() : tensor<4x64xf16>
    %h1a = linalg.matmul ins(%x, %w1a : tensor<4x32xf16>, tensor<32x64xf16>) outs(%ea : tensor<4x64xf16>) -> tensor<4x64xf16>
    %h3a = linalg.matmul ins(%x, %w3a : tensor<4x32xf16>, tensor<32x64xf16>) outs(%ea : tensor<4x64xf16>) -> tensor<4x64xf16>
    %ga = arith.mulf %h1a, %h3a : tensor<4x64xf16>
    %acc1 = linalg.matmul ins(%ga, %w2a : tensor<4x64xf16>, tensor<64x32xf16>) outs(%acc0 : tensor<4x32xf16>) -> tensor<4x32xf16>
    %t1b = ktdp.construct_access_tile %W1[0, 64] {access_tile_set = #up_tile, access_tile_order = #id2} : memref<32x128xf16> -> !ktdp.access_tile<32x64xindex>
    %t3b = ktdp.construct_access_tile %W3[0, 64] {access_tile_set = #up_tile, access_tile_order = #id2} : memref<32x128xf16> -> !ktdp.access_tile<32x64xindex>
    %t2b = ktdp.construct_access_tile %W2[64, 0] {access_tile_set = #down_tile, access_tile_order = #id2} : memref<128x32xf16> -> !ktdp.access_tile<64x32xindex>
    %w1b = ktdp.load %t1b : <32x64xindex> -> tensor<32x64xf16>
    %w3b = ktdp.load %t3b : <32x64xindex> -> tensor<32x64xf16>
    %w2b = ktdp.load %t2b : <64x32xindex> -> tensor<64x32xf16>
    %eb = tensor.empty() : tensor<4x64xf16>
    %h1b = linalg.matmul ins(%x, %w1b : tensor<4x32xf16>, tensor<32x64xf16>) outs(%eb : tensor<4x64xf16>) -> tensor<4x64xf16>
    %h3b = linalg.matmul ins(%x, %w3b : tensor<4x32xf16>, tensor<32x64xf16>) outs(%eb : tensor<4x64xf16>) -> tensor<4x64xf16>
    %gb = arith.mulf %h1b, %h3b : tensor<4x64xf16>
    %acc2 = linalg.matmul ins(%gb, %w2b : tensor<4x64xf16>, tensor<64x32xf16>) outs(%acc1 : tensor<4x32xf16>) -> tensor<4x32xf16>
    %ty = ktdp.construct_access_tile %Y[%row0, 0] {access_tile_set = #x_set, access_tile_order = #id2} : memref<4x32xf16> -> !ktdp.access_tile<4x32xindex>
    ktdp.store %acc2, %ty : tensor<4x32xf16>, <4x32xindex>
    return
  }
}

// -----

// Left alone: a chain the kernel itself accumulates in f32 (its own
// truncf after the last product) is all-reduced in f32 as written, with
// no second truncf.

// CHECK-LABEL: func.func @partial_already_f32
// CHECK-SAME: grid = [8, 1]
// CHECK: %[[P:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xf16>, tensor<8x32xf16>) outs(%{{.*}} : tensor<4x32xf32>) -> tensor<4x32xf32>
// CHECK-NOT: arith.truncf
// CHECK: ktdp.yield_partial %[[P]] : tensor<4x32xf32>
// CHECK: %[[S:.*]] = ktdp.inter_tile_reduce
// CHECK: %[[Y:.*]] = arith.truncf %[[S]] : tensor<4x32xf32> to tensor<4x32xf16>
// CHECK-NOT: arith.truncf
// CHECK: ktdp.store %[[Y]]
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#up_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#down_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @mesh_device from "../../../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">
  func.func @partial_already_f32(%x_ptr: index, %w1_ptr: index, %w2_ptr: index,
                                 %y_ptr: index)
      attributes {grid = [1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c4 = arith.constant 4 : index
    %zero = arith.constant 0.0 : f32
    %row0 = arith.muli %pid, %c4 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [4, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x32xf16>
    %W1 = ktdp.construct_memory_view %w1_ptr, sizes: [32, 64], strides: [64, 1] {coordinate_set = #up_set, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %W2 = ktdp.construct_memory_view %w2_ptr, sizes: [64, 32], strides: [32, 1] {coordinate_set = #down_set, memory_space = #ktdp.memory_space<global>} : memref<64x32xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [4, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x32xf16>
    %tx = ktdp.construct_access_tile %X[%row0, 0] {access_tile_set = #x_set, access_tile_order = #id2} : memref<4x32xf16> -> !ktdp.access_tile<4x32xindex>
    %t1 = ktdp.construct_access_tile %W1[0, 0] {access_tile_set = #up_set, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
    %t2 = ktdp.construct_access_tile %W2[0, 0] {access_tile_set = #down_set, access_tile_order = #id2} : memref<64x32xf16> -> !ktdp.access_tile<64x32xindex>
    %x = ktdp.load %tx : <4x32xindex> -> tensor<4x32xf16>
    %w1 = ktdp.load %t1 : <32x64xindex> -> tensor<32x64xf16>
    %w2 = ktdp.load %t2 : <64x32xindex> -> tensor<64x32xf16>
    %e = tensor.empty() : tensor<4x64xf16>
    %h = linalg.matmul ins(%x, %w1 : tensor<4x32xf16>, tensor<32x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
    %g = arith.mulf %h, %h : tensor<4x64xf16>
    %e32 = tensor.empty() : tensor<4x32xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e32 : tensor<4x32xf32>) -> tensor<4x32xf32>
    %p = linalg.matmul ins(%g, %w2 : tensor<4x64xf16>, tensor<64x32xf16>) outs(%z : tensor<4x32xf32>) -> tensor<4x32xf32>
    %y = arith.truncf %p : tensor<4x32xf32> to tensor<4x32xf16>
    %ty = ktdp.construct_access_tile %Y[%row0, 0] {access_tile_set = #x_set, access_tile_order = #id2} : memref<4x32xf16> -> !ktdp.access_tile<4x32xindex>
    ktdp.store %y, %ty : tensor<4x32xf16>, <4x32xindex>
    return
  }
}
