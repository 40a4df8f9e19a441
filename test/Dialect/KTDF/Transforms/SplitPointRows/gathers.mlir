// RUN: ktflow-opt %s --arch %examples/devices/mesh_device.mlir --ktdf-import-target --ktdf-split-point-rows | FileCheck %s --check-prefixes=CHECK,MESH
// RUN: ktflow-opt %s --arch %examples/devices/spyre_like.mlir --ktdf-import-target --ktdf-split-point-rows | FileCheck %s --check-prefixes=CHECK,SPYRE
// RUN: ktflow-opt %s --arch %examples/devices/sample_device.mlir --ktdf-import-target --ktdf-split-point-rows | FileCheck %s --check-prefix=SAMPLE

// A row gather in the field guide's spelling (`ind(%TOK[%r0 + %d0])`:
// the tile id's row origin captured inside the index subscript, and a
// run-time scalar column `(%col + %d1)`), scaled by a splat and added to a
// dense tile. Its 4 points of 8 rows leave 12 of mesh_device's 16
// instances idle and 60 of spyre_like's 64: each point becomes 4 parts of
// 2 rows (8 of 1), a last grid dimension. Part h gathers from row
// h * 8/P of its point, the offset captured after the row origin and
// added to the row variable, so it reads only its rows' token ids:
// the reads (one device-memory round trip each) spread over the parts'
// DMA engines. Its dense tiles sit h * 8/P rows further. sample_device's
// 2 lanes a point share one DMA engine: whole points, as before.

// CHECK-LABEL: func.func @embed_rows
// MESH-SAME: grid = [4, 4]
// SPYRE-SAME: grid = [4, 8]
// CHECK: %[[ID:.*]]:2 = ktdp.get_compute_tile_id : index, index
// MESH: %[[ROWS:.*]] = arith.constant 2 : index
// SPYRE: %[[ROWS:.*]] = arith.constant 1 : index
// CHECK: %[[OFF:.*]] = arith.muli %[[ID]]#1, %[[ROWS]] : index
// CHECK: %[[R0:.*]] = arith.muli %[[ID]]#0, %{{.*}} : index
// CHECK: %[[EMB:.*]] = ktdp.construct_memory_view %arg0
// CHECK: %[[TOK:.*]] = ktdp.construct_memory_view %arg1
// MESH: %[[G:.*]] = ktdp.construct_indirect_access_tile intermediate_variables(%[[D0:.*]], %[[D1:.*]]) %[[EMB]][ind(%[[TOK]][%[[R0]] + %[[OFF]] + %[[D0]]]), (%arg4 + %[[D1]])] {{.*}} -> !ktdp.access_tile<2x64xindex>
// SPYRE: %[[G:.*]] = ktdp.construct_indirect_access_tile intermediate_variables(%[[D0:.*]], %[[D1:.*]]) %[[EMB]][ind(%[[TOK]][%[[R0]] + %[[OFF]] + %[[D0]]]), (%arg4 + %[[D1]])] {{.*}} -> !ktdp.access_tile<1x64xindex>
// CHECK: %[[TP:.*]] = ktdp.construct_access_tile %{{.*}}[%[[R0]] + %[[OFF]], 0]
// CHECK: %[[TO:.*]] = ktdp.construct_access_tile %{{.*}}[%[[R0]] + %[[OFF]], 0]
// MESH: %[[E:.*]] = ktdp.load %[[G]] : <2x64xindex> -> tensor<2x64xf16>
// SPYRE: %[[E:.*]] = ktdp.load %[[G]] : <1x64xindex> -> tensor<1x64xf16>
// CHECK: %[[P:.*]] = ktdp.load %[[TP]]
// CHECK: %[[S:.*]] = tensor.splat %arg5
// CHECK: %[[ES:.*]] = arith.mulf %[[E]], %[[S]]
// CHECK: %[[SUM:.*]] = arith.addf %[[ES]], %[[P]]
// MESH: ktdp.store %[[SUM]], %[[TO]] : tensor<2x64xf16>, <2x64xindex>
// SPYRE: ktdp.store %[[SUM]], %[[TO]] : tensor<1x64xf16>, <1x64xindex>

// SAMPLE-LABEL: func.func @embed_rows
// SAMPLE-SAME: grid = [4]
// SAMPLE: ktdp.get_compute_tile_id : index
// SAMPLE: -> !ktdp.access_tile<8x64xindex>
// OUT[r, c] = f16(EMB[TOK[r], col + c] * scale + POS[r, c]), r < 32, c < 64.
#emb_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 99 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#tok_set = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>
#out_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @embed_rows(%emb_ptr: index,  // EMB: 100x128 f16 (input)
                        %tok_ptr: index,  // TOK: 32 i32 token ids (input)
                        %pos_ptr: index,  // POS: 32x64 f16 (input)
                        %out_ptr: index,  // OUT: 32x64 f16 (output)
                        %col: index,      // first EMB column to read
                        %scale: f16)
      attributes {grid = [4]} {
    %pid = ktdp.get_compute_tile_id : index
    %c8 = arith.constant 8 : index
    %r0 = arith.muli %pid, %c8 : index
    %EMB = ktdp.construct_memory_view %emb_ptr, sizes: [100, 128], strides: [128, 1] {coordinate_set = #emb_set, memory_space = #ktdp.memory_space<global>} : memref<100x128xf16>
    %TOK = ktdp.construct_memory_view %tok_ptr, sizes: [32], strides: [1] {coordinate_set = #tok_set, memory_space = #ktdp.memory_space<global>} : memref<32xi32>
    %POS = ktdp.construct_memory_view %pos_ptr, sizes: [32, 64], strides: [64, 1] {coordinate_set = #out_set, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %OUT = ktdp.construct_memory_view %out_ptr, sizes: [32, 64], strides: [64, 1] {coordinate_set = #out_set, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %rows = ktdp.construct_indirect_access_tile intermediate_variables(%d0, %d1) %EMB[ind(%TOK[%r0 + %d0]), (%col + %d1)] {variables_space_set = #blk, variables_space_order = #id2} : memref<100x128xf16>, memref<32xi32> -> !ktdp.access_tile<8x64xindex>
    %tp = ktdp.construct_access_tile %POS[%r0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<8x64xindex>
    %to = ktdp.construct_access_tile %OUT[%r0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<8x64xindex>
    %e = ktdp.load %rows : <8x64xindex> -> tensor<8x64xf16>
    %p = ktdp.load %tp : <8x64xindex> -> tensor<8x64xf16>
    %s = tensor.splat %scale : tensor<8x64xf16>
    %es = arith.mulf %e, %s : tensor<8x64xf16>
    %sum = arith.addf %es, %p : tensor<8x64xf16>
    ktdp.store %sum, %to : tensor<8x64xf16>, <8x64xindex>
    return
  }
}
