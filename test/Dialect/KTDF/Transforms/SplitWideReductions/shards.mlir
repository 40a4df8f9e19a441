// RUN: ktflow-opt %s --ktdf-lower-if --ktdf-import-target --ktdf-resolve-distributed-views --ktdf-split-wide-reductions | FileCheck %s

// A SwiGLU FFN sharded over its 128 hidden columns on a grid of 2 points
// (sharded_ffn's spelling: distributed weight views, products into
// tensor.empty, the 4x32 partial collapsed to 128 for the kernel's own
// all-reduce over both tiles, tile 0 storing in scf.if) on mesh_device's
// 16 tiles: each shard's 64 hidden columns are cut into 8 parts of 8 (8
// tiles a shard, 8 columns a part at least), a new last grid dimension
// (tile s * 8 + p). Each part reads its 8 columns of W1 and W3 and its 8
// rows of W2 in its shard (X whole); an all-reduce added after the down
// projection sums a shard's 8 f32 partials (groups of 8 side-by-side
// tiles), one truncf rounds the sum to the shard's f16 partial, and the
// kernel's all-reduce then sums the 2 shards' in 8 groups, part p of each
// shard. The store of X plus the sum, tile 0's alone in the kernel, runs
// on the tiles of the kernel all-reduce's group 0 (tiles 0 and 8, tiles
// numbered first dimension fastest), each its 2 rows of the 4 (its
// position in the group): X's rows loaded again, the sum's rows sliced,
// and the reduce marked `ktdf.scatter` (OwnRowStores.cpp).

// CHECK-DAG: #[[SHARD:set[0-9]*]] = affine_set<(d0)[s0] : (d0 - s0 * 8 >= 0, -d0 + s0 * 8 + 7 >= 0)>
// CHECK-DAG: #[[SHARDS:set[0-9]*]] = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
// CHECK-DAG: #[[PART:set[0-9]*]] = affine_set<(d0)[s0] : ((d0 - s0) mod 8 == 0, d0 >= 0, -d0 + 15 >= 0)>
// CHECK-DAG: #[[PARTS:set[0-9]*]] = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
// CHECK-LABEL: func.func @ffn_tp2
// CHECK-SAME: grid = [2, 8]
// CHECK: %[[IDS:.*]]:2 = ktdp.get_compute_tile_id : index, index
// CHECK: %[[COL:.*]] = arith.muli %[[IDS]]#1, %c8
// CHECK-DAG: ktdp.load %{{.*}} : <4x32xindex> -> tensor<4x32xf16>
// CHECK-DAG: %[[W1:.*]] = ktdp.load %{{.*}} : <32x8xindex> -> tensor<32x8xf16>
// CHECK-DAG: %[[W2:.*]] = ktdp.load %{{.*}} : <8x32xindex> -> tensor<8x32xf16>
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x32xf16>, tensor<32x8xf16>) outs(%{{.*}} : tensor<4x8xf16>)
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x32xf16>, tensor<32x8xf16>) outs(%{{.*}} : tensor<4x8xf16>)
// CHECK: arith.mulf %{{.*}}, %{{.*}} : tensor<4x8xf16>
// CHECK: %[[G:.*]] = arith.mulf %{{.*}}, %{{.*}} : tensor<4x8xf16>
// CHECK: %[[P:.*]] = linalg.matmul ins(%[[G]], %[[W2]] : tensor<4x8xf16>, tensor<8x32xf16>) outs(%{{.*}} : tensor<4x32xf32>)
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<4x32xf32>
// CHECK: %[[F:.*]] = ktdp.inter_tile_produce producer_tiles_per_group = #[[SHARD]] -> <(tensor<4x32xf32>), groups = #[[SHARDS]]>
// CHECK: ktdp.yield_partial %[[P]]
// CHECK: %[[S:.*]] = ktdp.inter_tile_reduce(%[[F]]) consumer_tiles_per_group = #[[SHARD]], identity(%[[ZERO]] : tensor<4x32xf32>)
// CHECK: arith.addf
// CHECK: %[[R:.*]] = arith.truncf %[[S]] : tensor<4x32xf32> to tensor<4x32xf16>
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %[[R]]
// CHECK: ktdp.inter_tile_produce producer_tiles_per_group = #[[PART]] -> <(tensor<128xf16>), groups = #[[PARTS]]>
// CHECK: ktdp.yield_partial %[[FLAT]]
// CHECK: %[[SUM:.*]] = ktdp.inter_tile_reduce(%{{.*}}) consumer_tiles_per_group = #[[PART]], {{.*}} {ktdf.scatter}
// CHECK: linalg.add
// CHECK-NOT: inter_tile_produce
// CHECK: scf.for %{{.*}} = %{{.*}} to %c1
// CHECK: %[[WHOLE:.*]] = tensor.expand_shape %[[SUM]]
// CHECK: %[[ACROSS:.*]] = arith.muli %{{.*}}, %c2
// CHECK: %[[TILE:.*]] = arith.addi %[[ACROSS]], %[[IDS]]#0
// CHECK: %[[POS:.*]] = arith.divui %[[TILE]], %c8
// CHECK: %[[GROUP:.*]] = arith.remui %[[TILE]], %c8
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[GROUP]], %{{.*}}
// CHECK: %[[ROW:.*]] = arith.muli %[[POS]], %c2
// CHECK: %[[MINE:.*]] = tensor.extract_slice %[[WHOLE]][%[[ROW]], 0] [2, 32] [1, 1]
// CHECK: %[[XT:.*]] = ktdp.construct_access_tile %{{.*}}[%[[ROW]], 0] {{.*}} -> !ktdp.access_tile<2x32xindex>
// CHECK: %[[X:.*]] = ktdp.load %[[XT]] : <2x32xindex> -> tensor<2x32xf16>
// CHECK: %[[Y:.*]] = arith.addf %[[X]], %[[MINE]] : tensor<2x32xf16>
// CHECK: %[[TRIPS:.*]] = arith.select %[[FIRST]]
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[TRIPS]]
// CHECK: %[[OUT:.*]] = ktdp.construct_access_tile %{{.*}}[%[[ROW]], 0] {{.*}} -> !ktdp.access_tile<2x32xindex>
// CHECK: ktdp.store %[[Y]], %[[OUT]] : tensor<2x32xf16>, <2x32xindex>
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#box = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#c0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#c1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 - 64 >= 0, -d1 + 127 >= 0)>
#rbox = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#r1 = affine_set<(d0, d1) : (d0 - 64 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#all2 = affine_set<(i)[g] : (i - 2*g >= 0, -i + 2*g + 1 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @mesh_device from "../../../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">
  func.func @ffn_tp2(%x_ptr: index, %w1_ptr: index, %w3_ptr: index,
                     %w2_ptr: index, %out_ptr: index)
      attributes {grid = [2]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c2048 = arith.constant 2048 : index
    %w1_p1 = arith.addi %w1_ptr, %c2048 : index
    %w3_p1 = arith.addi %w3_ptr, %c2048 : index
    %w2_p1 = arith.addi %w2_ptr, %c2048 : index
    %A0 = ktdp.construct_memory_view %w1_ptr, sizes: [32, 64], strides: [64, 1] {coordinate_set = #c0, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %A1 = ktdp.construct_memory_view %w1_p1, sizes: [32, 64], strides: [64, 1] {coordinate_set = #c1, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %W1 = ktdp.construct_distributed_memory_view(%A0, %A1 : memref<32x64xf16>, memref<32x64xf16>) : memref<32x128xf16>
    %B0 = ktdp.construct_memory_view %w3_ptr, sizes: [32, 64], strides: [64, 1] {coordinate_set = #c0, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %B1 = ktdp.construct_memory_view %w3_p1, sizes: [32, 64], strides: [64, 1] {coordinate_set = #c1, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %W3 = ktdp.construct_distributed_memory_view(%B0, %B1 : memref<32x64xf16>, memref<32x64xf16>) : memref<32x128xf16>
    %D0 = ktdp.construct_memory_view %w2_ptr, sizes: [64, 32], strides: [32, 1] {coordinate_set = #rbox, memory_space = #ktdp.memory_space<global>} : memref<64x32xf16>
    %D1 = ktdp.construct_memory_view %w2_p1, sizes: [64, 32], strides: [32, 1] {coordinate_set = #r1, memory_space = #ktdp.memory_space<global>} : memref<64x32xf16>
    %W2 = ktdp.construct_distributed_memory_view(%D0, %D1 : memref<64x32xf16>, memref<64x32xf16>) : memref<128x32xf16>
    %X = ktdp.construct_memory_view %x_ptr, sizes: [4, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x32xf16>
    %h0 = arith.muli %pid, %c64 : index
    %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #x_set, access_tile_order = #id2} : memref<4x32xf16> -> !ktdp.access_tile<4x32xindex>
    %t1 = ktdp.construct_access_tile %W1[0, %h0] {access_tile_set = #box, access_tile_order = #id2} : memref<32x128xf16> -> !ktdp.access_tile<32x64xindex>
    %t3 = ktdp.construct_access_tile %W3[0, %h0] {access_tile_set = #box, access_tile_order = #id2} : memref<32x128xf16> -> !ktdp.access_tile<32x64xindex>
    %t2 = ktdp.construct_access_tile %W2[%h0, 0] {access_tile_set = #rbox, access_tile_order = #id2} : memref<128x32xf16> -> !ktdp.access_tile<64x32xindex>
    %x = ktdp.load %tx : <4x32xindex> -> tensor<4x32xf16>
    %w1 = ktdp.load %t1 : <32x64xindex> -> tensor<32x64xf16>
    %w3 = ktdp.load %t3 : <32x64xindex> -> tensor<32x64xf16>
    %w2 = ktdp.load %t2 : <64x32xindex> -> tensor<64x32xf16>
    %e0 = tensor.empty() : tensor<4x64xf16>
    %h1 = linalg.matmul ins(%x, %w1 : tensor<4x32xf16>, tensor<32x64xf16>) outs(%e0 : tensor<4x64xf16>) -> tensor<4x64xf16>
    %e1 = tensor.empty() : tensor<4x64xf16>
    %h3 = linalg.matmul ins(%x, %w3 : tensor<4x32xf16>, tensor<32x64xf16>) outs(%e1 : tensor<4x64xf16>) -> tensor<4x64xf16>
    %one = arith.constant dense<1.000000e+00> : tensor<4x64xf16>
    %neg = arith.negf %h1 : tensor<4x64xf16>
    %ex = math.exp %neg : tensor<4x64xf16>
    %den = arith.addf %one, %ex : tensor<4x64xf16>
    %sig = arith.divf %one, %den : tensor<4x64xf16>
    %silu = arith.mulf %h1, %sig : tensor<4x64xf16>
    %gate = arith.mulf %silu, %h3 : tensor<4x64xf16>
    %e2 = tensor.empty() : tensor<4x32xf16>
    %part = linalg.matmul ins(%gate, %w2 : tensor<4x64xf16>, tensor<64x32xf16>) outs(%e2 : tensor<4x32xf16>) -> tensor<4x32xf16>
    %flat = tensor.collapse_shape %part [[0, 1]] : tensor<4x32xf16> into tensor<128xf16>
    %ident = arith.constant dense<0.000000e+00> : tensor<128xf16>
    %fut = ktdp.inter_tile_produce producer_tiles_per_group = #all2 : tensor<128xf16> -> !ktdp.tile_future<tensor<128xf16>, groups = affine_set<(g) : (g == 0)>> {
    ^bb0(%gid: index):
      ktdp.yield_partial %flat : tensor<128xf16>
    }
    %sum = ktdp.inter_tile_reduce(%fut) consumer_tiles_per_group = #all2, identity(%ident : tensor<128xf16>) : !ktdp.tile_future<tensor<128xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<128xf16> {
    ^bb0(%a: tensor<128xf16>, %b: tensor<128xf16>):
      %s = linalg.add ins(%a, %b : tensor<128xf16>, tensor<128xf16>) outs(%a : tensor<128xf16>) -> tensor<128xf16>
      ktdp.yield_reduced %s : tensor<128xf16>
    }
    %ffn = tensor.expand_shape %sum [[0, 1]] output_shape [4, 32] : tensor<128xf16> into tensor<4x32xf16>
    %y = arith.addf %x, %ffn : tensor<4x32xf16>
    %is_root = arith.cmpi eq, %pid, %c0 : index
    scf.if %is_root {
      %OUT = ktdp.construct_memory_view %out_ptr, sizes: [4, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x32xf16>
      %to = ktdp.construct_access_tile %OUT[0, 0] {access_tile_set = #x_set, access_tile_order = #id2} : memref<4x32xf16> -> !ktdp.access_tile<4x32xindex>
      ktdp.store %y, %to : tensor<4x32xf16>, <4x32xindex>
    }
    return
  }
}
