// indexed_add.mlir - gather rows of an embedding-like table by an i64 index
// vector, from a runtime column offset, and add a dense tensor to them.
//
// Computes, for r < 32, c < 64 (one f16 addition, rounded to f16):
//   OUT[r, c] = f16(TABLE[IDX[r], start + c] + Y[r, c])
// with IDX[r] in [0, 64) (`range:0:64`) and 0 <= start <= 64 (e.g. 32).
//
// Grid [2, 2], comma-form ids: tile (gx, gy) covers rows [16gx, 16gx + 16)
// and columns [32gy, 32gy + 32). The indirect tile captures the tile's row
// origin inside the index subscript (`%r0 + %d0`) and the scalar argument
// %start inside the column subscript (`%col0 + %d1`, col0 = start + 32gy).

#table_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#idx_set = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>
#y_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#vars = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @indexed_add(%table_ptr: index, // TABLE: 64x128 f16 (input)
                         %idx_ptr: index,   // IDX:   32 i64 row ids (input)
                         %y_ptr: index,     // Y:     32x64 f16 (input)
                         %out_ptr: index,   // OUT:   32x64 f16 (output)
                         %start: index)     // first TABLE column to read
      attributes {grid = [2, 2]} {
    %gx, %gy = ktdp.get_compute_tile_id : index, index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %r0 = arith.muli %gx, %c16 : index
    %c0 = arith.muli %gy, %c32 : index
    %col0 = arith.addi %start, %c0 : index
    %TABLE = ktdp.construct_memory_view %table_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #table_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %IDX = ktdp.construct_memory_view %idx_ptr, sizes: [32], strides: [1] {coordinate_set = #idx_set, memory_space = #ktdp.memory_space<global>} : memref<32xi64>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [32, 64], strides: [64, 1] {coordinate_set = #y_set, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %OUT = ktdp.construct_memory_view %out_ptr, sizes: [32, 64], strides: [64, 1] {coordinate_set = #y_set, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %rows = ktdp.construct_indirect_access_tile intermediate_variables(%d0, %d1) %TABLE[ind(%IDX[%r0 + %d0]), (%col0 + %d1)] {variables_space_set = #vars, variables_space_order = #id2} : memref<64x128xf16>, memref<32xi64> -> !ktdp.access_tile<16x32xindex>
    %ty = ktdp.construct_access_tile %Y[%r0, %c0] {access_tile_set = #vars, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<16x32xindex>
    %to = ktdp.construct_access_tile %OUT[%r0, %c0] {access_tile_set = #vars, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<16x32xindex>
    %g = ktdp.load %rows : <16x32xindex> -> tensor<16x32xf16>
    %y = ktdp.load %ty : <16x32xindex> -> tensor<16x32xf16>
    %sum = arith.addf %g, %y : tensor<16x32xf16>
    ktdp.store %sum, %to : tensor<16x32xf16>, <16x32xindex>
    return
  }
}
