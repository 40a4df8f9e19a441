// RUN: ktflow-opt %s -split-input-file --ktdf-import-target --ktdf-share-left-operands | FileCheck %s
// RUN: ktflow-opt %s -split-input-file --ktdf-import-target --ktdf-share-left-operands=merge-points=false | FileCheck %s --check-prefix=OFF

// A SwiGLU FFN on mesh_device (16 cores, a 16x16x4 MXU each): 64 tokens in
// 8 grid points of 8 rows. Shared as they are (8 points x 2 copies), every
// product would fill 8 of the MXU's 16 rows. Two consecutive points merge
// into one of 16 rows (x and the output at row 16 * p), which 4 copies
// share: the same 16 instances busy. The exchange view holds 16 rows a
// trip (the 8 trips the W2 view starts and one for later trips), and each
// copy computes a trip's gate in two parts of 32 columns (W1 and W3 tiles
// 256x32: the parts' right operands take half the scratchpad a whole trip
// would), stored side by side in the view. The function is marked with
// the factor (the compile driver compiles it again unmerged when it does
// not fit the scratchpad); `merge-points=false` shares the 8 points as
// they are.

// CHECK-LABEL: func.func @swiglu_mlp
// CHECK-SAME: grid = [4, 4], ktdf.merged_points = 2 : i64
// OFF-LABEL: func.func @swiglu_mlp
// OFF-SAME: grid = [8, 2]
// OFF-NOT: ktdf.merged_points
// OFF: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x256xf16>, tensor<256x64xf16>)
// CHECK: %[[VIEW:.*]] = ktdp.construct_memory_view %{{.*}}, sizes: [144, 64]{{.*}}ktdf.exchange
// CHECK: %[[ID:.*]]:2 = ktdp.get_compute_tile_id : index, index
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[POINT:.*]] = arith.muli %[[ID]]#0, %[[C2]] : index
// CHECK: %[[ROW:.*]] = arith.muli %[[POINT]], %{{.*}} : index
// CHECK: %[[TX:.*]] = ktdp.construct_access_tile %{{.*}}[%[[ROW]], 0] {{.*}} -> !ktdp.access_tile<16x256xindex>
// CHECK: %[[X:.*]] = ktdp.load %[[TX]] : <16x256xindex> -> tensor<16x256xf16>
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:   scf.for %[[COL:.*]] = %{{.*}} to %{{.*}} step %[[C32:.*]] {
// CHECK:     %[[T1:.*]] = ktdp.construct_access_tile %{{.*}}[0, %[[J]] + %[[COL]]] {{.*}} -> !ktdp.access_tile<256x32xindex>
// CHECK:     %[[W1:.*]] = ktdp.load %[[T1]] : <256x32xindex> -> tensor<256x32xf16>
// CHECK:     linalg.matmul ins(%[[X]], %[[W1]] : tensor<16x256xf16>, tensor<256x32xf16>) outs(%{{.*}} : tensor<16x32xf16>)
// CHECK:     math.exp %{{.*}} : tensor<16x32xf16>
// CHECK:     %[[PART:.*]] = ktdp.construct_access_tile %[[VIEW]][%{{.*}}, %[[COL]]] {{.*}} -> !ktdp.access_tile<16x32xindex>
// CHECK:     ktdp.store %{{.*}}, %[[PART]] : tensor<16x32xf16>
// CHECK: ktdf.all_reduce %[[VIEW]], %{{.*}} {combiner = "arith.addf", groups = [array<i64: 0, 4, 8, 12>, array<i64: 1, 5, 9, 13>, array<i64: 2, 6, 10, 14>, array<i64: 3, 7, 11, 15>]}
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<16x64xf16>) {
// CHECK:   linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<16x64xf16>, tensor<64x64xf16>) outs(%{{.*}} : tensor<16x64xf16>)
// CHECK: ktdp.construct_access_tile %{{.*}}[%[[ROW]], %{{.*}}] {{.*}} -> !ktdp.access_tile<16x64xindex>
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#up_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#down_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 511 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#x_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#up_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#down_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @mesh_device from "../../../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">
  func.func @swiglu_mlp(%x_ptr: index,   // X:   64x256 f16 (input)
                        %w1_ptr: index,  // W1:  256x512 f16, gate projection (input)
                        %w3_ptr: index,  // W3:  256x512 f16, up projection (input)
                        %w2_ptr: index,  // W2:  512x256 f16, down projection (input)
                        %out_ptr: index, // OUT: 64x256 f16 (output)
                        %d_ff: index)    // hidden size (512)
      attributes {grid = [8]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f16
    %row0 = arith.muli %pid, %c8 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %W1 = ktdp.construct_memory_view %w1_ptr, sizes: [256, 512], strides: [512, 1] {coordinate_set = #up_set, memory_space = #ktdp.memory_space<global>} : memref<256x512xf16>
    %W3 = ktdp.construct_memory_view %w3_ptr, sizes: [256, 512], strides: [512, 1] {coordinate_set = #up_set, memory_space = #ktdp.memory_space<global>} : memref<256x512xf16>
    %W2 = ktdp.construct_memory_view %w2_ptr, sizes: [512, 256], strides: [256, 1] {coordinate_set = #down_set, memory_space = #ktdp.memory_space<global>} : memref<512x256xf16>
    %OUT = ktdp.construct_memory_view %out_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %tx = ktdp.construct_access_tile %X[%row0, 0] {access_tile_set = #x_blk, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<8x256xindex>
    %x = ktdp.load %tx : <8x256xindex> -> tensor<8x256xf16>
    %one = arith.constant dense<1.0> : tensor<8x64xf16>
    %empty = tensor.empty() : tensor<8x256xf16>
    %e64 = tensor.empty() : tensor<8x64xf16>
    %acc0 = linalg.fill ins(%zero : f16) outs(%empty : tensor<8x256xf16>) -> tensor<8x256xf16>
    %acc = scf.for %j = %c0 to %d_ff step %c64 iter_args(%running = %acc0) -> (tensor<8x256xf16>) {
      %t1 = ktdp.construct_access_tile %W1[0, %j] {access_tile_set = #up_blk, access_tile_order = #id2} : memref<256x512xf16> -> !ktdp.access_tile<256x64xindex>
      %t3 = ktdp.construct_access_tile %W3[0, %j] {access_tile_set = #up_blk, access_tile_order = #id2} : memref<256x512xf16> -> !ktdp.access_tile<256x64xindex>
      %t2 = ktdp.construct_access_tile %W2[%j, 0] {access_tile_set = #down_blk, access_tile_order = #id2} : memref<512x256xf16> -> !ktdp.access_tile<64x256xindex>
      %w1 = ktdp.load %t1 : <256x64xindex> -> tensor<256x64xf16>
      %w3 = ktdp.load %t3 : <256x64xindex> -> tensor<256x64xf16>
      %w2 = ktdp.load %t2 : <64x256xindex> -> tensor<64x256xf16>
      %z1 = linalg.fill ins(%zero : f16) outs(%e64 : tensor<8x64xf16>) -> tensor<8x64xf16>
      %h1 = linalg.matmul ins(%x, %w1 : tensor<8x256xf16>, tensor<256x64xf16>) outs(%z1 : tensor<8x64xf16>) -> tensor<8x64xf16>
      %z3 = arith.constant dense<0.0> : tensor<8x64xf16>
      %h3 = linalg.matmul ins(%x, %w3 : tensor<8x256xf16>, tensor<256x64xf16>) outs(%z3 : tensor<8x64xf16>) -> tensor<8x64xf16>
      %neg = arith.negf %h1 : tensor<8x64xf16>
      %ex = math.exp %neg : tensor<8x64xf16>
      %den = arith.addf %one, %ex : tensor<8x64xf16>
      %sig = arith.divf %one, %den : tensor<8x64xf16>
      %silu = arith.mulf %h1, %sig : tensor<8x64xf16>
      %gate = arith.mulf %silu, %h3 : tensor<8x64xf16>
      %next = linalg.matmul ins(%gate, %w2 : tensor<8x64xf16>, tensor<64x256xf16>) outs(%running : tensor<8x256xf16>) -> tensor<8x256xf16>
      scf.yield %next : tensor<8x256xf16>
    }
    %res = arith.addf %x, %acc : tensor<8x256xf16>
    %to = ktdp.construct_access_tile %OUT[%row0, 0] {access_tile_set = #x_blk, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<8x256xindex>
    ktdp.store %res, %to : tensor<8x256xf16>, <8x256xindex>
    return
  }
}

// -----

// 16 tokens in 2 points: merged, one point of 4 copies would leave 4 of
// the 8 instances the unmerged points' copies use idle. Not merged.

// CHECK-LABEL: func.func @two_points
// CHECK-SAME: grid = [2, 4]
// CHECK-NOT: ktdf.merged_points
// CHECK: ktdp.access_tile<8x256xindex>
// CHECK-NOT: arith.constant 2 : index
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x256xf16>, tensor<256x64xf16>)
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#up_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#down_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 511 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#x_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#up_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#down_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @mesh_device from "../../../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">
  func.func @two_points(%x_ptr: index,   // X:   64x256 f16 (input)
                        %w1_ptr: index,  // W1:  256x512 f16, gate projection (input)
                        %w3_ptr: index,  // W3:  256x512 f16, up projection (input)
                        %w2_ptr: index,  // W2:  512x256 f16, down projection (input)
                        %out_ptr: index, // OUT: 64x256 f16 (output)
                        %d_ff: index)    // hidden size (512)
      attributes {grid = [2]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f16
    %row0 = arith.muli %pid, %c8 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [16, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<16x256xf16>
    %W1 = ktdp.construct_memory_view %w1_ptr, sizes: [256, 512], strides: [512, 1] {coordinate_set = #up_set, memory_space = #ktdp.memory_space<global>} : memref<256x512xf16>
    %W3 = ktdp.construct_memory_view %w3_ptr, sizes: [256, 512], strides: [512, 1] {coordinate_set = #up_set, memory_space = #ktdp.memory_space<global>} : memref<256x512xf16>
    %W2 = ktdp.construct_memory_view %w2_ptr, sizes: [512, 256], strides: [256, 1] {coordinate_set = #down_set, memory_space = #ktdp.memory_space<global>} : memref<512x256xf16>
    %OUT = ktdp.construct_memory_view %out_ptr, sizes: [16, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<16x256xf16>
    %tx = ktdp.construct_access_tile %X[%row0, 0] {access_tile_set = #x_blk, access_tile_order = #id2} : memref<16x256xf16> -> !ktdp.access_tile<8x256xindex>
    %x = ktdp.load %tx : <8x256xindex> -> tensor<8x256xf16>
    %one = arith.constant dense<1.0> : tensor<8x64xf16>
    %empty = tensor.empty() : tensor<8x256xf16>
    %e64 = tensor.empty() : tensor<8x64xf16>
    %acc0 = linalg.fill ins(%zero : f16) outs(%empty : tensor<8x256xf16>) -> tensor<8x256xf16>
    %acc = scf.for %j = %c0 to %d_ff step %c64 iter_args(%running = %acc0) -> (tensor<8x256xf16>) {
      %t1 = ktdp.construct_access_tile %W1[0, %j] {access_tile_set = #up_blk, access_tile_order = #id2} : memref<256x512xf16> -> !ktdp.access_tile<256x64xindex>
      %t3 = ktdp.construct_access_tile %W3[0, %j] {access_tile_set = #up_blk, access_tile_order = #id2} : memref<256x512xf16> -> !ktdp.access_tile<256x64xindex>
      %t2 = ktdp.construct_access_tile %W2[%j, 0] {access_tile_set = #down_blk, access_tile_order = #id2} : memref<512x256xf16> -> !ktdp.access_tile<64x256xindex>
      %w1 = ktdp.load %t1 : <256x64xindex> -> tensor<256x64xf16>
      %w3 = ktdp.load %t3 : <256x64xindex> -> tensor<256x64xf16>
      %w2 = ktdp.load %t2 : <64x256xindex> -> tensor<64x256xf16>
      %z1 = linalg.fill ins(%zero : f16) outs(%e64 : tensor<8x64xf16>) -> tensor<8x64xf16>
      %h1 = linalg.matmul ins(%x, %w1 : tensor<8x256xf16>, tensor<256x64xf16>) outs(%z1 : tensor<8x64xf16>) -> tensor<8x64xf16>
      %z3 = arith.constant dense<0.0> : tensor<8x64xf16>
      %h3 = linalg.matmul ins(%x, %w3 : tensor<8x256xf16>, tensor<256x64xf16>) outs(%z3 : tensor<8x64xf16>) -> tensor<8x64xf16>
      %neg = arith.negf %h1 : tensor<8x64xf16>
      %ex = math.exp %neg : tensor<8x64xf16>
      %den = arith.addf %one, %ex : tensor<8x64xf16>
      %sig = arith.divf %one, %den : tensor<8x64xf16>
      %silu = arith.mulf %h1, %sig : tensor<8x64xf16>
      %gate = arith.mulf %silu, %h3 : tensor<8x64xf16>
      %next = linalg.matmul ins(%gate, %w2 : tensor<8x64xf16>, tensor<64x256xf16>) outs(%running : tensor<8x256xf16>) -> tensor<8x256xf16>
      scf.yield %next : tensor<8x256xf16>
    }
    %res = arith.addf %x, %acc : tensor<8x256xf16>
    %to = ktdp.construct_access_tile %OUT[%row0, 0] {access_tile_set = #x_blk, access_tile_order = #id2} : memref<16x256xf16> -> !ktdp.access_tile<8x256xindex>
    ktdp.store %res, %to : tensor<8x256xf16>, <8x256xindex>
    return
  }
}
