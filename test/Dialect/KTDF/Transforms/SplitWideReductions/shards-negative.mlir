// RUN: ktflow-opt %s -split-input-file --ktdf-lower-if --ktdf-import-target --ktdf-split-wide-reductions | FileCheck %s

// Kernels of several points left whole on mesh_device (each keeps its
// grid and its 64-column hidden tiles):
//  * pair_groups: the partial's all-reduce runs in two groups of two
//    tiles, not one of every tile (the parts' tile sets are not built for
//    groups yet);
//  * own_rows: each point contracts its own rows and stores its partial,
//    with no all-reduce of the kernel's to join;
//  * max_reduce: the kernel's exchange folds the partials with maximumf,
//    which a part's partial sum cannot join;
//  * in_loop: the kernel's all-reduce is in a token loop: after the
//    parts' sum it would reduce a loaded tensor, whose exchange views the
//    next trip could overwrite.

// CHECK-LABEL: func.func @pair_groups
// CHECK-SAME: grid = [4]
// CHECK: ktdp.load %{{.*}} : <32x64xindex> -> tensor<32x64xf16>
// CHECK: inter_tile_produce producer_tiles_per_group = #{{.*}} ->
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#up = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#down = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#pairs = affine_set<(i)[g] : (i - 2*g >= 0, -i + 2*g + 1 >= 0)>
#upv = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#downv = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @mesh_device from "../../../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">
  func.func @pair_groups(%x_ptr: index, %w1_ptr: index, %w2_ptr: index, %out_ptr: index)
      attributes {grid = [4]} {
    %pid = ktdp.get_compute_tile_id : index
    %c64 = arith.constant 64 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [4, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x32xf16>
    %W1 = ktdp.construct_memory_view %w1_ptr, sizes: [32, 256], strides: [256, 1] {coordinate_set = #upv, memory_space = #ktdp.memory_space<global>} : memref<32x256xf16>
    %W2 = ktdp.construct_memory_view %w2_ptr, sizes: [256, 32], strides: [32, 1] {coordinate_set = #downv, memory_space = #ktdp.memory_space<global>} : memref<256x32xf16>
    %h0 = arith.muli %pid, %c64 : index
    %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #x_set, access_tile_order = #id2} : memref<4x32xf16> -> !ktdp.access_tile<4x32xindex>
    %t1 = ktdp.construct_access_tile %W1[0, %h0] {access_tile_set = #up, access_tile_order = #id2} : memref<32x256xf16> -> !ktdp.access_tile<32x64xindex>
    %t2 = ktdp.construct_access_tile %W2[%h0, 0] {access_tile_set = #down, access_tile_order = #id2} : memref<256x32xf16> -> !ktdp.access_tile<64x32xindex>
    %x = ktdp.load %tx : <4x32xindex> -> tensor<4x32xf16>
    %w1 = ktdp.load %t1 : <32x64xindex> -> tensor<32x64xf16>
    %w2 = ktdp.load %t2 : <64x32xindex> -> tensor<64x32xf16>
    %e0 = tensor.empty() : tensor<4x64xf16>
    %h = linalg.matmul ins(%x, %w1 : tensor<4x32xf16>, tensor<32x64xf16>) outs(%e0 : tensor<4x64xf16>) -> tensor<4x64xf16>
    %g = math.exp %h : tensor<4x64xf16>
    %e1 = tensor.empty() : tensor<4x32xf16>
    %part = linalg.matmul ins(%g, %w2 : tensor<4x64xf16>, tensor<64x32xf16>) outs(%e1 : tensor<4x32xf16>) -> tensor<4x32xf16>
    %ident = arith.constant dense<0.000000e+00> : tensor<4x32xf16>
    %fut = ktdp.inter_tile_produce producer_tiles_per_group = #pairs : tensor<4x32xf16> -> !ktdp.tile_future<tensor<4x32xf16>, groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
    ^bb0(%gid: index):
      ktdp.yield_partial %part : tensor<4x32xf16>
    }
    %sum = ktdp.inter_tile_reduce(%fut) consumer_tiles_per_group = #pairs, identity(%ident : tensor<4x32xf16>) : !ktdp.tile_future<tensor<4x32xf16>, groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<4x32xf16> {
    ^bb0(%a: tensor<4x32xf16>, %b: tensor<4x32xf16>):
      %s = arith.addf %a, %b : tensor<4x32xf16>
      ktdp.yield_reduced %s : tensor<4x32xf16>
    }
    %OUT = ktdp.construct_memory_view %out_ptr, sizes: [4, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x32xf16>
    %to = ktdp.construct_access_tile %OUT[0, 0] {access_tile_set = #x_set, access_tile_order = #id2} : memref<4x32xf16> -> !ktdp.access_tile<4x32xindex>
    ktdp.store %sum, %to : tensor<4x32xf16>, <4x32xindex>
    return
  }
}

// -----

// CHECK-LABEL: func.func @own_rows
// CHECK-SAME: grid = [2]
// CHECK-NOT: inter_tile
// CHECK: ktdp.load %{{.*}} : <32x64xindex> -> tensor<32x64xf16>
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#up = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#down = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#xv = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @mesh_device from "../../../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">
  func.func @own_rows(%x_ptr: index, %w1_ptr: index, %w2_ptr: index, %out_ptr: index)
      attributes {grid = [2]} {
    %pid = ktdp.get_compute_tile_id : index
    %c4 = arith.constant 4 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [8, 32], strides: [32, 1] {coordinate_set = #xv, memory_space = #ktdp.memory_space<global>} : memref<8x32xf16>
    %W1 = ktdp.construct_memory_view %w1_ptr, sizes: [32, 64], strides: [64, 1] {coordinate_set = #up, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %W2 = ktdp.construct_memory_view %w2_ptr, sizes: [64, 32], strides: [32, 1] {coordinate_set = #down, memory_space = #ktdp.memory_space<global>} : memref<64x32xf16>
    %OUT = ktdp.construct_memory_view %out_ptr, sizes: [8, 32], strides: [32, 1] {coordinate_set = #xv, memory_space = #ktdp.memory_space<global>} : memref<8x32xf16>
    %r0 = arith.muli %pid, %c4 : index
    %tx = ktdp.construct_access_tile %X[%r0, 0] {access_tile_set = #x_set, access_tile_order = #id2} : memref<8x32xf16> -> !ktdp.access_tile<4x32xindex>
    %t1 = ktdp.construct_access_tile %W1[0, 0] {access_tile_set = #up, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
    %t2 = ktdp.construct_access_tile %W2[0, 0] {access_tile_set = #down, access_tile_order = #id2} : memref<64x32xf16> -> !ktdp.access_tile<64x32xindex>
    %x = ktdp.load %tx : <4x32xindex> -> tensor<4x32xf16>
    %w1 = ktdp.load %t1 : <32x64xindex> -> tensor<32x64xf16>
    %w2 = ktdp.load %t2 : <64x32xindex> -> tensor<64x32xf16>
    %e0 = tensor.empty() : tensor<4x64xf16>
    %h = linalg.matmul ins(%x, %w1 : tensor<4x32xf16>, tensor<32x64xf16>) outs(%e0 : tensor<4x64xf16>) -> tensor<4x64xf16>
    %g = math.exp %h : tensor<4x64xf16>
    %e1 = tensor.empty() : tensor<4x32xf16>
    %y = linalg.matmul ins(%g, %w2 : tensor<4x64xf16>, tensor<64x32xf16>) outs(%e1 : tensor<4x32xf16>) -> tensor<4x32xf16>
    %to = ktdp.construct_access_tile %OUT[%r0, 0] {access_tile_set = #x_set, access_tile_order = #id2} : memref<8x32xf16> -> !ktdp.access_tile<4x32xindex>
    ktdp.store %y, %to : tensor<4x32xf16>, <4x32xindex>
    return
  }
}

// -----

// CHECK-LABEL: func.func @max_reduce
// CHECK-SAME: grid = [2]
// CHECK: ktdp.load %{{.*}} : <32x64xindex> -> tensor<32x64xf16>
// CHECK: inter_tile_produce producer_tiles_per_group = #{{.*}} ->
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#up = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#down = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#all2 = affine_set<(i)[g] : (i - 2*g >= 0, -i + 2*g + 1 >= 0)>
#upv = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#downv = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @mesh_device from "../../../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">
  func.func @max_reduce(%x_ptr: index, %w1_ptr: index, %w2_ptr: index, %out_ptr: index)
      attributes {grid = [2]} {
    %pid = ktdp.get_compute_tile_id : index
    %c64 = arith.constant 64 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [4, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x32xf16>
    %W1 = ktdp.construct_memory_view %w1_ptr, sizes: [32, 128], strides: [128, 1] {coordinate_set = #upv, memory_space = #ktdp.memory_space<global>} : memref<32x128xf16>
    %W2 = ktdp.construct_memory_view %w2_ptr, sizes: [128, 32], strides: [32, 1] {coordinate_set = #downv, memory_space = #ktdp.memory_space<global>} : memref<128x32xf16>
    %h0 = arith.muli %pid, %c64 : index
    %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #x_set, access_tile_order = #id2} : memref<4x32xf16> -> !ktdp.access_tile<4x32xindex>
    %t1 = ktdp.construct_access_tile %W1[0, %h0] {access_tile_set = #up, access_tile_order = #id2} : memref<32x128xf16> -> !ktdp.access_tile<32x64xindex>
    %t2 = ktdp.construct_access_tile %W2[%h0, 0] {access_tile_set = #down, access_tile_order = #id2} : memref<128x32xf16> -> !ktdp.access_tile<64x32xindex>
    %x = ktdp.load %tx : <4x32xindex> -> tensor<4x32xf16>
    %w1 = ktdp.load %t1 : <32x64xindex> -> tensor<32x64xf16>
    %w2 = ktdp.load %t2 : <64x32xindex> -> tensor<64x32xf16>
    %e0 = tensor.empty() : tensor<4x64xf16>
    %h = linalg.matmul ins(%x, %w1 : tensor<4x32xf16>, tensor<32x64xf16>) outs(%e0 : tensor<4x64xf16>) -> tensor<4x64xf16>
    %g = math.exp %h : tensor<4x64xf16>
    %e1 = tensor.empty() : tensor<4x32xf16>
    %part = linalg.matmul ins(%g, %w2 : tensor<4x64xf16>, tensor<64x32xf16>) outs(%e1 : tensor<4x32xf16>) -> tensor<4x32xf16>
    %ident = arith.constant dense<0xFC00> : tensor<4x32xf16>
    %fut = ktdp.inter_tile_produce producer_tiles_per_group = #all2 : tensor<4x32xf16> -> !ktdp.tile_future<tensor<4x32xf16>, groups = affine_set<(g) : (g == 0)>> {
    ^bb0(%gid: index):
      ktdp.yield_partial %part : tensor<4x32xf16>
    }
    %m = ktdp.inter_tile_reduce(%fut) consumer_tiles_per_group = #all2, identity(%ident : tensor<4x32xf16>) : !ktdp.tile_future<tensor<4x32xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<4x32xf16> {
    ^bb0(%a: tensor<4x32xf16>, %b: tensor<4x32xf16>):
      %s = arith.maximumf %a, %b : tensor<4x32xf16>
      ktdp.yield_reduced %s : tensor<4x32xf16>
    }
    %OUT = ktdp.construct_memory_view %out_ptr, sizes: [4, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x32xf16>
    %to = ktdp.construct_access_tile %OUT[0, 0] {access_tile_set = #x_set, access_tile_order = #id2} : memref<4x32xf16> -> !ktdp.access_tile<4x32xindex>
    ktdp.store %m, %to : tensor<4x32xf16>, <4x32xindex>
    return
  }
}

// -----

// CHECK-LABEL: func.func @in_loop
// CHECK-SAME: grid = [2]
// CHECK: ktdp.load %{{.*}} : <32x64xindex> -> tensor<32x64xf16>
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#x_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#up = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#down = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#upv = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#downv = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#all2 = affine_set<(i)[g] : (i >= 0, -i + 1 >= 0, g == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @mesh_device from "../../../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">
  func.func @in_loop(%x_ptr: index, %w1_ptr: index, %w2_ptr: index, %out_ptr: index, %n_tokens: index)
      attributes {grid = [2]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [16, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<16x32xf16>
    %OUT = ktdp.construct_memory_view %out_ptr, sizes: [16, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<16x32xf16>
    %W1 = ktdp.construct_memory_view %w1_ptr, sizes: [32, 128], strides: [128, 1] {coordinate_set = #upv, memory_space = #ktdp.memory_space<global>} : memref<32x128xf16>
    %W2 = ktdp.construct_memory_view %w2_ptr, sizes: [128, 32], strides: [32, 1] {coordinate_set = #downv, memory_space = #ktdp.memory_space<global>} : memref<128x32xf16>
    %h0 = arith.muli %pid, %c64 : index
    %t1 = ktdp.construct_access_tile %W1[0, %h0] {access_tile_set = #up, access_tile_order = #id2} : memref<32x128xf16> -> !ktdp.access_tile<32x64xindex>
    %t2 = ktdp.construct_access_tile %W2[%h0, 0] {access_tile_set = #down, access_tile_order = #id2} : memref<128x32xf16> -> !ktdp.access_tile<64x32xindex>
    %w1 = ktdp.load %t1 : <32x64xindex> -> tensor<32x64xf16>
    %w2 = ktdp.load %t2 : <64x32xindex> -> tensor<64x32xf16>
    %ident = arith.constant dense<0.000000e+00> : tensor<4x32xf16>
    %is0 = arith.cmpi eq, %pid, %c0 : index
    scf.for %r = %c0 to %n_tokens step %c4 : index {
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #x_blk, access_tile_order = #id2} : memref<16x32xf16> -> !ktdp.access_tile<4x32xindex>
      %x = ktdp.load %tx : <4x32xindex> -> tensor<4x32xf16>
      %e0 = tensor.empty() : tensor<4x64xf16>
      %h = linalg.matmul ins(%x, %w1 : tensor<4x32xf16>, tensor<32x64xf16>) outs(%e0 : tensor<4x64xf16>) -> tensor<4x64xf16>
      %g = math.exp %h : tensor<4x64xf16>
      %e1 = tensor.empty() : tensor<4x32xf16>
      %part = linalg.matmul ins(%g, %w2 : tensor<4x64xf16>, tensor<64x32xf16>) outs(%e1 : tensor<4x32xf16>) -> tensor<4x32xf16>
      %fut = ktdp.inter_tile_produce producer_tiles_per_group = #all2 : tensor<4x32xf16> -> !ktdp.tile_future<tensor<4x32xf16>, groups = affine_set<(g) : (g == 0)>> {
      ^bb0(%gid: index):
        ktdp.yield_partial %part : tensor<4x32xf16>
      }
      %sum = ktdp.inter_tile_reduce(%fut) consumer_tiles_per_group = #all2, identity(%ident : tensor<4x32xf16>) : !ktdp.tile_future<tensor<4x32xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<4x32xf16> {
      ^bb0(%a: tensor<4x32xf16>, %b: tensor<4x32xf16>):
        %s = arith.addf %a, %b : tensor<4x32xf16>
        ktdp.yield_reduced %s : tensor<4x32xf16>
      }
      scf.if %is0 {
        %to = ktdp.construct_access_tile %OUT[%r, 0] {access_tile_set = #x_blk, access_tile_order = #id2} : memref<16x32xf16> -> !ktdp.access_tile<4x32xindex>
        ktdp.store %sum, %to : tensor<4x32xf16>, <4x32xindex>
      }
    }
    return
  }
}
