// embed_rows_parts.mlir - an embedding row gather by i32 token ids from a
// run-time column, scaled and added to position rows, in the field guide's
// spelling (test/EndToEnd/indexed-add-parts.test):
//   OUT[r, c] = f16(f16(EMB[TOK[r], col + c] * scale) + POS[r, c])
// for r < 32, c < 64; grid [4], tile p covers rows [8p, 8p + 8), its
// gather capturing the row origin in the index subscript (`%r0 + %d0`)
// and the scalar %col in the column subscript.
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
