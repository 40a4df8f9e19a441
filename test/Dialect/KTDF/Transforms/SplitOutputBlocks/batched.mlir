// RUN: ktflow-opt %s -split-input-file --ktdf-import-target --ktdf-split-output-blocks | FileCheck %s

// Batched attention scores, Triton style (examples/kernels/realworld/
// batch_scores.mlir with the query block a plain `index` argument): a
// [4, 2] grid, %h the head and %pm the query block, 3-d tiles of one
// head, the keys loaded as [1, n, d] and transposed to [1, d, n] by
// linalg.transpose, a linalg.batch_matmul into tensor.empty(). The 8
// points use 8 of spyre_like's 64 PTs. Each block's rows are cut as a
// matmul's (dimension 1 of the 3-d tiles: %h places the batch, not the
// rows) and its columns too: the columns of K^T are the rows of the
// loaded K, so copy j loads rows [16 j, 16 j + 16) of the head's keys and
// transposes only them. 2 parts of 16 rows x 4 slices of 16 columns (the
// fewest operand bytes a copy among the 8-copy cuts).

// CHECK-LABEL: func.func @scores
// CHECK-SAME: grid = [4, 2, 2, 4]
// CHECK: %[[ID:.*]]:4 = ktdp.get_compute_tile_id : index, index, index, index
// CHECK: %[[W:.*]] = arith.constant 16 : index
// CHECK: %[[COL:.*]] = arith.muli %[[ID]]#3, %[[W]] : index
// CHECK: %[[R:.*]] = arith.constant 16 : index
// CHECK: %[[ROW:.*]] = arith.muli %[[ID]]#2, %[[R]] : index
// CHECK: %[[M:.*]] = arith.muli %[[ID]]#1, %arg3 : index
// CHECK: %[[TQ:.*]] = ktdp.construct_access_tile %{{.*}}[%[[ID]]#0, %[[M]] + %[[ROW]], 0] {{.*}} -> !ktdp.access_tile<1x16x64xindex>
// CHECK: %[[Q:.*]] = ktdp.load %[[TQ]] : <1x16x64xindex> -> tensor<1x16x64xf16>
// CHECK: %[[TK:.*]] = ktdp.construct_access_tile %{{.*}}[%[[ID]]#0, %[[COL]], 0] {{.*}} -> !ktdp.access_tile<1x16x64xindex>
// CHECK: %[[K:.*]] = ktdp.load %[[TK]] : <1x16x64xindex> -> tensor<1x16x64xf16>
// CHECK: %[[KT0:.*]] = tensor.empty() : tensor<1x64x16xf16>
// CHECK: %[[KT:.*]] = linalg.transpose ins(%[[K]] : tensor<1x16x64xf16>) outs(%[[KT0]] : tensor<1x64x16xf16>) permutation = [0, 2, 1]
// CHECK: %[[S0:.*]] = tensor.empty() : tensor<1x16x16xf16>
// CHECK: %[[S:.*]] = linalg.batch_matmul ins(%[[Q]], %[[KT]] : tensor<1x16x64xf16>, tensor<1x64x16xf16>) outs(%[[S0]] : tensor<1x16x16xf16>) -> tensor<1x16x16xf16>
// CHECK: %[[TS:.*]] = ktdp.construct_access_tile %{{.*}}[%[[ID]]#0, %[[M]] + %[[ROW]], %[[COL]]] {{.*}} -> !ktdp.access_tile<1x16x16xindex>
// CHECK: ktdp.store %[[S]], %[[TS]] : tensor<1x16x16xf16>, <1x16x16xindex>
#qks_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#q_blk = affine_set<(d0, d1, d2) : (d0 == 0, d1 >= 0, -d1 + 31 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#k_blk = affine_set<(d0, d1, d2) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @scores(%q_ptr: index, %k_ptr: index, %s_ptr: index, %BLOCK_M: index) attributes {grid = [4, 2]} {
    %h, %pm = ktdp.get_compute_tile_id : index, index
    %m0 = arith.muli %pm, %BLOCK_M : index
    %Q = ktdp.construct_memory_view %q_ptr, sizes: [4, 64, 64], strides: [4096, 64, 1] {coordinate_set = #qks_set, memory_space = #ktdp.memory_space<global>} : memref<4x64x64xf16>
    %K = ktdp.construct_memory_view %k_ptr, sizes: [4, 64, 64], strides: [4096, 64, 1] {coordinate_set = #qks_set, memory_space = #ktdp.memory_space<global>} : memref<4x64x64xf16>
    %S = ktdp.construct_memory_view %s_ptr, sizes: [4, 64, 64], strides: [4096, 64, 1] {coordinate_set = #qks_set, memory_space = #ktdp.memory_space<global>} : memref<4x64x64xf16>
    %tq = ktdp.construct_access_tile %Q[%h, %m0, 0] {access_tile_set = #q_blk, access_tile_order = #id3} : memref<4x64x64xf16> -> !ktdp.access_tile<1x32x64xindex>
    %tk = ktdp.construct_access_tile %K[%h, 0, 0] {access_tile_set = #k_blk, access_tile_order = #id3} : memref<4x64x64xf16> -> !ktdp.access_tile<1x64x64xindex>
    %q = ktdp.load %tq : <1x32x64xindex> -> tensor<1x32x64xf16>
    %k = ktdp.load %tk : <1x64x64xindex> -> tensor<1x64x64xf16>
    %kt_init = tensor.empty() : tensor<1x64x64xf16>
    %kt = linalg.transpose ins(%k : tensor<1x64x64xf16>) outs(%kt_init : tensor<1x64x64xf16>) permutation = [0, 2, 1]
    %empty = tensor.empty() : tensor<1x32x64xf16>
    %s = linalg.batch_matmul ins(%q, %kt : tensor<1x32x64xf16>, tensor<1x64x64xf16>) outs(%empty : tensor<1x32x64xf16>) -> tensor<1x32x64xf16>
    %ts = ktdp.construct_access_tile %S[%h, %m0, 0] {access_tile_set = #q_blk, access_tile_order = #id3} : memref<4x64x64xf16> -> !ktdp.access_tile<1x32x64xindex>
    ktdp.store %s, %ts : tensor<1x32x64xf16>, <1x32x64xindex>
    return
  }
}

// -----

// On mesh_device (16 MXUs of 16 rows): 2 copies a point, 2 slices of 32
// columns (32 + 32 operand rows a copy, against 16 + 64 for 2 parts of 16
// rows): the queries stay whole, each copy transposes 32 keys.
// CHECK-LABEL: func.func @scores
// CHECK-SAME: grid = [4, 2, 2]
// CHECK: ktdp.load %{{.*}} : <1x32x64xindex> -> tensor<1x32x64xf16>
// CHECK: ktdp.load %{{.*}} : <1x32x64xindex> -> tensor<1x32x64xf16>
// CHECK: linalg.transpose ins(%{{.*}} : tensor<1x32x64xf16>) outs(%{{.*}} : tensor<1x64x32xf16>) permutation = [0, 2, 1]
// CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<1x32x64xf16>, tensor<1x64x32xf16>) outs(%{{.*}} : tensor<1x32x32xf16>) -> tensor<1x32x32xf16>
// CHECK: ktdp.store %{{.*}}, %{{.*}} : tensor<1x32x32xf16>, <1x32x32xindex>
#qks_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#q_blk = affine_set<(d0, d1, d2) : (d0 == 0, d1 >= 0, -d1 + 31 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#k_blk = affine_set<(d0, d1, d2) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
module {
  ktdf_arch.target @mesh_device from "../../../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">
  func.func @scores(%q_ptr: index, %k_ptr: index, %s_ptr: index, %BLOCK_M: index) attributes {grid = [4, 2]} {
    %h, %pm = ktdp.get_compute_tile_id : index, index
    %m0 = arith.muli %pm, %BLOCK_M : index
    %Q = ktdp.construct_memory_view %q_ptr, sizes: [4, 64, 64], strides: [4096, 64, 1] {coordinate_set = #qks_set, memory_space = #ktdp.memory_space<global>} : memref<4x64x64xf16>
    %K = ktdp.construct_memory_view %k_ptr, sizes: [4, 64, 64], strides: [4096, 64, 1] {coordinate_set = #qks_set, memory_space = #ktdp.memory_space<global>} : memref<4x64x64xf16>
    %S = ktdp.construct_memory_view %s_ptr, sizes: [4, 64, 64], strides: [4096, 64, 1] {coordinate_set = #qks_set, memory_space = #ktdp.memory_space<global>} : memref<4x64x64xf16>
    %tq = ktdp.construct_access_tile %Q[%h, %m0, 0] {access_tile_set = #q_blk, access_tile_order = #id3} : memref<4x64x64xf16> -> !ktdp.access_tile<1x32x64xindex>
    %tk = ktdp.construct_access_tile %K[%h, 0, 0] {access_tile_set = #k_blk, access_tile_order = #id3} : memref<4x64x64xf16> -> !ktdp.access_tile<1x64x64xindex>
    %q = ktdp.load %tq : <1x32x64xindex> -> tensor<1x32x64xf16>
    %k = ktdp.load %tk : <1x64x64xindex> -> tensor<1x64x64xf16>
    %kt_init = tensor.empty() : tensor<1x64x64xf16>
    %kt = linalg.transpose ins(%k : tensor<1x64x64xf16>) outs(%kt_init : tensor<1x64x64xf16>) permutation = [0, 2, 1]
    %empty = tensor.empty() : tensor<1x32x64xf16>
    %s = linalg.batch_matmul ins(%q, %kt : tensor<1x32x64xf16>, tensor<1x64x64xf16>) outs(%empty : tensor<1x32x64xf16>) -> tensor<1x32x64xf16>
    %ts = ktdp.construct_access_tile %S[%h, %m0, 0] {access_tile_set = #q_blk, access_tile_order = #id3} : memref<4x64x64xf16> -> !ktdp.access_tile<1x32x64xindex>
    ktdp.store %s, %ts : tensor<1x32x64xf16>, <1x32x64xindex>
    return
  }
}

// -----

// Keys centred over the sequence before the product (each d's mean over
// the 64 keys subtracted: a reduction along the columns of K^T). A
// column of the right operand then depends on every key, so no copy could
// compute only its slice: the right operand stays whole, nothing is cut.
// CHECK-LABEL: func.func @centred
// CHECK-SAME: grid = [4, 2]}
// CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<1x32x64xf16>, tensor<1x64x64xf16>) outs(%{{.*}} : tensor<1x32x64xf16>) -> tensor<1x32x64xf16>
#qks_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#q_blk = affine_set<(d0, d1, d2) : (d0 == 0, d1 >= 0, -d1 + 31 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#k_blk = affine_set<(d0, d1, d2) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @centred(%q_ptr: index, %k_ptr: index, %s_ptr: index, %BLOCK_M: index) attributes {grid = [4, 2]} {
    %h, %pm = ktdp.get_compute_tile_id : index, index
    %m0 = arith.muli %pm, %BLOCK_M : index
    %Q = ktdp.construct_memory_view %q_ptr, sizes: [4, 64, 64], strides: [4096, 64, 1] {coordinate_set = #qks_set, memory_space = #ktdp.memory_space<global>} : memref<4x64x64xf16>
    %K = ktdp.construct_memory_view %k_ptr, sizes: [4, 64, 64], strides: [4096, 64, 1] {coordinate_set = #qks_set, memory_space = #ktdp.memory_space<global>} : memref<4x64x64xf16>
    %S = ktdp.construct_memory_view %s_ptr, sizes: [4, 64, 64], strides: [4096, 64, 1] {coordinate_set = #qks_set, memory_space = #ktdp.memory_space<global>} : memref<4x64x64xf16>
    %tq = ktdp.construct_access_tile %Q[%h, %m0, 0] {access_tile_set = #q_blk, access_tile_order = #id3} : memref<4x64x64xf16> -> !ktdp.access_tile<1x32x64xindex>
    %tk = ktdp.construct_access_tile %K[%h, 0, 0] {access_tile_set = #k_blk, access_tile_order = #id3} : memref<4x64x64xf16> -> !ktdp.access_tile<1x64x64xindex>
    %q = ktdp.load %tq : <1x32x64xindex> -> tensor<1x32x64xf16>
    %k = ktdp.load %tk : <1x64x64xindex> -> tensor<1x64x64xf16>
    %kt_init = tensor.empty() : tensor<1x64x64xf16>
    %kt = linalg.transpose ins(%k : tensor<1x64x64xf16>) outs(%kt_init : tensor<1x64x64xf16>) permutation = [0, 2, 1]
    %zero = arith.constant 0.0 : f16
    %sum_init = tensor.empty() : tensor<1x64xf16>
    %sum0 = linalg.fill ins(%zero : f16) outs(%sum_init : tensor<1x64xf16>) -> tensor<1x64xf16>
    %sum = linalg.reduce ins(%kt : tensor<1x64x64xf16>) outs(%sum0 : tensor<1x64xf16>) dimensions = [2]
      (%x: f16, %acc: f16) {
        %a = arith.addf %x, %acc : f16
        linalg.yield %a : f16
      }
    %mean_init = tensor.empty() : tensor<1x64x64xf16>
    %mean_sum = linalg.broadcast ins(%sum : tensor<1x64xf16>) outs(%mean_init : tensor<1x64x64xf16>) dimensions = [2]
    %n = arith.constant dense<64.0> : tensor<1x64x64xf16>
    %mean = arith.divf %mean_sum, %n : tensor<1x64x64xf16>
    %centred = arith.subf %kt, %mean : tensor<1x64x64xf16>
    %empty = tensor.empty() : tensor<1x32x64xf16>
    %s = linalg.batch_matmul ins(%q, %centred : tensor<1x32x64xf16>, tensor<1x64x64xf16>) outs(%empty : tensor<1x32x64xf16>) -> tensor<1x32x64xf16>
    %ts = ktdp.construct_access_tile %S[%h, %m0, 0] {access_tile_set = #q_blk, access_tile_order = #id3} : memref<4x64x64xf16> -> !ktdp.access_tile<1x32x64xindex>
    ktdp.store %s, %ts : tensor<1x32x64xf16>, <1x32x64xindex>
    return
  }
}

// -----

// The keys also copied out whole (a KV cache write) before their
// transpose: the store wants K sliced by its columns (d), the product's
// right operand by K's rows (n). No slice serves both, nothing is cut.
// CHECK-LABEL: func.func @cached
// CHECK-SAME: grid = [4, 2]}
// CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<1x32x64xf16>, tensor<1x64x64xf16>) outs(%{{.*}} : tensor<1x32x64xf16>) -> tensor<1x32x64xf16>
#qks_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#q_blk = affine_set<(d0, d1, d2) : (d0 == 0, d1 >= 0, -d1 + 31 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#k_blk = affine_set<(d0, d1, d2) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @cached(%q_ptr: index, %k_ptr: index, %s_ptr: index, %c_ptr: index, %BLOCK_M: index) attributes {grid = [4, 2]} {
    %h, %pm = ktdp.get_compute_tile_id : index, index
    %m0 = arith.muli %pm, %BLOCK_M : index
    %Q = ktdp.construct_memory_view %q_ptr, sizes: [4, 64, 64], strides: [4096, 64, 1] {coordinate_set = #qks_set, memory_space = #ktdp.memory_space<global>} : memref<4x64x64xf16>
    %K = ktdp.construct_memory_view %k_ptr, sizes: [4, 64, 64], strides: [4096, 64, 1] {coordinate_set = #qks_set, memory_space = #ktdp.memory_space<global>} : memref<4x64x64xf16>
    %S = ktdp.construct_memory_view %s_ptr, sizes: [4, 64, 64], strides: [4096, 64, 1] {coordinate_set = #qks_set, memory_space = #ktdp.memory_space<global>} : memref<4x64x64xf16>
    %C = ktdp.construct_memory_view %c_ptr, sizes: [4, 64, 64], strides: [4096, 64, 1] {coordinate_set = #qks_set, memory_space = #ktdp.memory_space<global>} : memref<4x64x64xf16>
    %tq = ktdp.construct_access_tile %Q[%h, %m0, 0] {access_tile_set = #q_blk, access_tile_order = #id3} : memref<4x64x64xf16> -> !ktdp.access_tile<1x32x64xindex>
    %tk = ktdp.construct_access_tile %K[%h, 0, 0] {access_tile_set = #k_blk, access_tile_order = #id3} : memref<4x64x64xf16> -> !ktdp.access_tile<1x64x64xindex>
    %q = ktdp.load %tq : <1x32x64xindex> -> tensor<1x32x64xf16>
    %k = ktdp.load %tk : <1x64x64xindex> -> tensor<1x64x64xf16>
    %tc = ktdp.construct_access_tile %C[%h, 0, 0] {access_tile_set = #k_blk, access_tile_order = #id3} : memref<4x64x64xf16> -> !ktdp.access_tile<1x64x64xindex>
    ktdp.store %k, %tc : tensor<1x64x64xf16>, <1x64x64xindex>
    %kt_init = tensor.empty() : tensor<1x64x64xf16>
    %kt = linalg.transpose ins(%k : tensor<1x64x64xf16>) outs(%kt_init : tensor<1x64x64xf16>) permutation = [0, 2, 1]
    %empty = tensor.empty() : tensor<1x32x64xf16>
    %s = linalg.batch_matmul ins(%q, %kt : tensor<1x32x64xf16>, tensor<1x64x64xf16>) outs(%empty : tensor<1x32x64xf16>) -> tensor<1x32x64xf16>
    %ts = ktdp.construct_access_tile %S[%h, %m0, 0] {access_tile_set = #q_blk, access_tile_order = #id3} : memref<4x64x64xf16> -> !ktdp.access_tile<1x32x64xindex>
    ktdp.store %s, %ts : tensor<1x32x64xf16>, <1x32x64xindex>
    return
  }
}
