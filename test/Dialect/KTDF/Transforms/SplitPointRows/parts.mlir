// RUN: ktflow-opt %s --arch %examples/devices/mesh_device.mlir --ktdf-import-target --ktdf-split-point-rows | FileCheck %s --check-prefixes=CHECK,MESH
// RUN: ktflow-opt %s --arch %examples/devices/spyre_like.mlir --ktdf-import-target --ktdf-split-point-rows | FileCheck %s --check-prefixes=CHECK,SPYRE
// RUN: ktflow-opt %s --arch %examples/devices/sample_device.mlir --ktdf-import-target --ktdf-split-point-rows | FileCheck %s --check-prefixes=CHECK,SAMPLE
// RUN: ktflow-opt %examples/kernels/realworld/flash_attn_causal.mlir --arch %examples/devices/mesh_device.mlir --ktdf-import-target --ktdf-split-point-rows | FileCheck %s --check-prefix=LOOP
// RUN: ktflow-opt %examples/kernels/matmul.mlir --arch %examples/devices/spyre_like.mlir --ktdf-import-target --ktdf-split-point-rows | FileCheck %s --check-prefix=LOADED
// RUN: ktflow-opt %S/../../../../EndToEnd/Inputs/matmul_k2048.mlir --arch %examples/devices/spyre_like.mlir --ktdf-import-target --ktdf-split-point-rows | FileCheck %s --check-prefix=UNIT

// A causal attention of 2 points of 16 query rows (equal work) leaves 14 of
// mesh_device's 16 instances idle, 62 of spyre_like's 64, 6 of
// sample_device's 8: each point becomes P parts of 16/P rows, P the most
// the idle instances take (8, 16, 4), a last grid dimension. Part h's query
// and output tiles sit h * 16/P rows further, the mask's row number
// follows (the row origin it adds, row0 + h * 16/P, computed before the
// mask: one iota along the rows in the lowering), and the keys and
// values, read whole by every row, keep their 32 rows.

// CHECK-LABEL: func.func @causal_attention
// MESH-SAME: grid = [2, 1, 8]
// SPYRE-SAME: grid = [2, 1, 16]
// SAMPLE-SAME: grid = [2, 1, 4]
// CHECK: %[[ID:.*]]:3 = ktdp.get_compute_tile_id : index, index, index
// MESH: %[[ROWS:.*]] = arith.constant 2 : index
// SPYRE: %[[ROWS:.*]] = arith.constant 1 : index
// SAMPLE: %[[ROWS:.*]] = arith.constant 4 : index
// CHECK: %[[OFF:.*]] = arith.muli %[[ID]]#2, %[[ROWS]] : index
// CHECK: %[[ROW0:.*]] = arith.muli %[[ID]]#0, %{{.*}} : index
// MESH: %[[TQ:.*]] = ktdp.construct_access_tile %{{.*}}[%[[ROW0]] + %[[OFF]], 0] {{.*}} -> !ktdp.access_tile<2x64xindex>
// SPYRE: %[[TQ:.*]] = ktdp.construct_access_tile %{{.*}}[%[[ROW0]] + %[[OFF]], 0] {{.*}} -> !ktdp.access_tile<1x64xindex>
// SAMPLE: %[[TQ:.*]] = ktdp.construct_access_tile %{{.*}}[%[[ROW0]] + %[[OFF]], 0] {{.*}} -> !ktdp.access_tile<4x64xindex>
// CHECK: %[[TK:.*]] = ktdp.construct_access_tile %{{.*}}[0, 0] {{.*}} -> !ktdp.access_tile<32x64xindex>
// CHECK: ktdp.load %[[TK]] : <32x64xindex> -> tensor<32x64xf16>
// MESH: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<2x64xf32>, tensor<64x32xf32>) outs(%{{.*}} : tensor<2x32xf32>)
// CHECK: %[[ORIGIN:.*]] = arith.addi %[[ROW0]], %[[OFF]] : index
// CHECK: linalg.generic
// CHECK: %[[I:.*]] = linalg.index 0 : index
// CHECK: arith.addi %[[ORIGIN]], %[[I]] : index
// MESH: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<2x32xf32>, tensor<32x64xf32>) outs(%{{.*}} : tensor<2x64xf32>)
// MESH: %[[TO:.*]] = ktdp.construct_access_tile %{{.*}}[%[[ROW0]] + %[[OFF]], 0] {{.*}} -> !ktdp.access_tile<2x64xindex>
// MESH: ktdp.store %{{.*}}, %[[TO]] : tensor<2x64xf16>, <2x64xindex>

// The online-softmax attention (4 points of 16 rows, a key loop bounded by
// the tile id) on mesh_device: 4 parts of 4 rows, although 4 rows fill a
// quarter of the 16-row matrix unit (its halves were refused for that);
// the loop keeps its point's bound and carries the part's rows.
// LOOP-LABEL: func.func @attn_fwd
// LOOP-SAME: grid = [4, 1, 4]
// LOOP: %[[ID:.*]]:3 = ktdp.get_compute_tile_id : index, index, index
// LOOP: %[[C4:.*]] = arith.constant 4 : index
// LOOP: %[[OFF:.*]] = arith.muli %[[ID]]#2, %[[C4]] : index
// LOOP: %[[Q0:.*]] = arith.muli %[[ID]]#0, %{{.*}} : index
// LOOP: %[[NBLK:.*]] = arith.minsi
// LOOP: ktdp.construct_access_tile %{{.*}}[%[[Q0]] + %[[OFF]], 0] {{.*}} -> !ktdp.access_tile<4x32xindex>
// LOOP: scf.for %{{.*}} = %{{.*}} to %[[NBLK]] step %{{.*}} iter_args({{.*}}) -> (tensor<4xf32>, tensor<4xf32>, tensor<4x32xf32>)
// LOOP: -> !ktdp.access_tile<32x32xindex>
// LOOP: ktdp.store %{{.*}}, %{{.*}} : tensor<4x32xf16>, <4x32xindex>

// Products that all multiply loaded rows keep the matrix unit's rows
// (spyre_like's 8): matmul.mlir's 4 points of 32 rows (16 instances idle
// a point) become 4 parts of 8 rows, not 16 of 2; matmul_k2048's 8 points
// of 8 rows stay whole (parts of 1 row would each re-read B's 256 KiB).
// LOADED: grid = [2, 2, 4]
// LOADED: -> !ktdp.access_tile<8x64xindex>
// UNIT: grid = [8, 1]
// UNIT: -> !ktdp.access_tile<8x2048xindex>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @causal_attention(%q_ptr: index,  // Q: 32x64 f16
                              %k_ptr: index,  // K: 32x64 f16
                              %v_ptr: index,  // V: 32x64 f16
                              %o_ptr: index,  // O: 32x64 f16 (output)
                              %scale: f32)    // softmax scale
      attributes {grid = [2, 1]} {
    %tid = ktdp.get_compute_tile_id : index
    %c16 = arith.constant 16 : index
    %row0 = arith.muli %tid, %c16 : index
    %ninf = arith.constant 0xFF800000 : f32
    %Q = ktdp.construct_memory_view %q_ptr, sizes: [32, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %K = ktdp.construct_memory_view %k_ptr, sizes: [32, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %V = ktdp.construct_memory_view %v_ptr, sizes: [32, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %O = ktdp.construct_memory_view %o_ptr, sizes: [32, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %tq = ktdp.construct_access_tile %Q[%row0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<16x64xindex>
    %tk = ktdp.construct_access_tile %K[0, 0] {access_tile_set = #all, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
    %tv = ktdp.construct_access_tile %V[0, 0] {access_tile_set = #all, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
    %qh = ktdp.load %tq : <16x64xindex> -> tensor<16x64xf16>
    %kh = ktdp.load %tk : <32x64xindex> -> tensor<32x64xf16>
    %vh = ktdp.load %tv : <32x64xindex> -> tensor<32x64xf16>
    %q = arith.extf %qh : tensor<16x64xf16> to tensor<16x64xf32>
    %k = arith.extf %kh : tensor<32x64xf16> to tensor<32x64xf32>
    %v = arith.extf %vh : tensor<32x64xf16> to tensor<32x64xf32>
    %kt_init = tensor.empty() : tensor<64x32xf32>
    %kt = linalg.transpose ins(%k : tensor<32x64xf32>) outs(%kt_init : tensor<64x32xf32>) permutation = [1, 0]
    %s_init = tensor.empty() : tensor<16x32xf32>
    %qk = linalg.matmul ins(%q, %kt : tensor<16x64xf32>, tensor<64x32xf32>) outs(%s_init : tensor<16x32xf32>) -> tensor<16x32xf32>
    %scale_t = tensor.splat %scale : tensor<16x32xf32>
    %s = arith.mulf %qk, %scale_t : tensor<16x32xf32>
    %masked = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%s : tensor<16x32xf32>) outs(%s_init : tensor<16x32xf32>) {
      ^bb0(%in: f32, %out: f32):
        %i = linalg.index 0 : index
        %j = linalg.index 1 : index
        %qi = arith.addi %row0, %i : index
        %seen = arith.cmpi ule, %j, %qi : index
        %r = arith.select %seen, %in, %ninf : f32
        linalg.yield %r : f32
    } -> tensor<16x32xf32>
    %r_init = tensor.empty() : tensor<16xf32>
    %m_init = linalg.fill ins(%ninf : f32) outs(%r_init : tensor<16xf32>) -> tensor<16xf32>
    %m = linalg.reduce { arith.maxnumf } ins(%masked : tensor<16x32xf32>) outs(%m_init : tensor<16xf32>) dimensions = [1]
    %mb = linalg.broadcast ins(%m : tensor<16xf32>) outs(%s_init : tensor<16x32xf32>) dimensions = [1]
    %d = arith.subf %masked, %mb : tensor<16x32xf32>
    %e = math.exp %d : tensor<16x32xf32>
    %zero = arith.constant 0.0 : f32
    %l_init = linalg.fill ins(%zero : f32) outs(%r_init : tensor<16xf32>) -> tensor<16xf32>
    %l = linalg.reduce { arith.addf } ins(%e : tensor<16x32xf32>) outs(%l_init : tensor<16xf32>) dimensions = [1]
    %lb = linalg.broadcast ins(%l : tensor<16xf32>) outs(%s_init : tensor<16x32xf32>) dimensions = [1]
    %p = arith.divf %e, %lb : tensor<16x32xf32>
    %o_init = tensor.empty() : tensor<16x64xf32>
    %o32 = linalg.matmul ins(%p, %v : tensor<16x32xf32>, tensor<32x64xf32>) outs(%o_init : tensor<16x64xf32>) -> tensor<16x64xf32>
    %o = arith.truncf %o32 : tensor<16x64xf32> to tensor<16x64xf16>
    %to = ktdp.construct_access_tile %O[%row0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<16x64xindex>
    ktdp.store %o, %to : tensor<16x64xf16>, <16x64xindex>
    return
  }
}
