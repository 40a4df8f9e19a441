// indexed_add_2048x1024.mlir - indexed row gather-add at benchmark size
// (ktir-field-guide.md §1f "indexed row gather, i64 index"; the shipped
// examples/kernels/realworld/indexed_add.mlir scaled up): rows of an
// embedding-like table gathered by an i64 index vector, from a run-time
// column offset, plus a dense tensor.
//
// Computes, for r < 2048, c < 1024 (one f16 addition, rounded to f16):
//   OUT[r, c] = f16(TABLE[IDX[r], start + c] + Y[r, c])
// with IDX[r] in [0, 16384) and 0 <= start <= 1024 (e.g. 512).
//
// Grid [16, 2], comma-form ids: tile (gx, gy) covers rows [128gx, 128gx +
// 128) and columns [512gy, 512gy + 512). The indirect tile captures the
// tile's row origin inside the index subscript (`%r0 + %d0`) and the
// scalar argument %start inside the column subscript (`%col0 + %d1`,
// col0 = start + 512gy).

#table_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 16383 >= 0, d1 >= 0, -d1 + 2047 >= 0)>
#idx_set = affine_set<(d0) : (d0 >= 0, -d0 + 2047 >= 0)>
#y_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2047 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#vars = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @indexed_add(%table_ptr: index, // TABLE: 16384x2048 f16 (input)
                         %idx_ptr: index,   // IDX:   2048 i64 row ids (input)
                         %y_ptr: index,     // Y:     2048x1024 f16 (input)
                         %out_ptr: index,   // OUT:   2048x1024 f16 (output)
                         %start: index)     // first TABLE column to read
      attributes {grid = [16, 2]} {
    %gx, %gy = ktdp.get_compute_tile_id : index, index
    %c128 = arith.constant 128 : index
    %c512 = arith.constant 512 : index
    %r0 = arith.muli %gx, %c128 : index
    %c0 = arith.muli %gy, %c512 : index
    %col0 = arith.addi %start, %c0 : index
    %TABLE = ktdp.construct_memory_view %table_ptr, sizes: [16384, 2048], strides: [2048, 1] {coordinate_set = #table_set, memory_space = #ktdp.memory_space<global>} : memref<16384x2048xf16>
    %IDX = ktdp.construct_memory_view %idx_ptr, sizes: [2048], strides: [1] {coordinate_set = #idx_set, memory_space = #ktdp.memory_space<global>} : memref<2048xi64>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [2048, 1024], strides: [1024, 1] {coordinate_set = #y_set, memory_space = #ktdp.memory_space<global>} : memref<2048x1024xf16>
    %OUT = ktdp.construct_memory_view %out_ptr, sizes: [2048, 1024], strides: [1024, 1] {coordinate_set = #y_set, memory_space = #ktdp.memory_space<global>} : memref<2048x1024xf16>
    %rows = ktdp.construct_indirect_access_tile intermediate_variables(%d0, %d1) %TABLE[ind(%IDX[%r0 + %d0]), (%col0 + %d1)] {variables_space_set = #vars, variables_space_order = #id2} : memref<16384x2048xf16>, memref<2048xi64> -> !ktdp.access_tile<128x512xindex>
    %ty = ktdp.construct_access_tile %Y[%r0, %c0] {access_tile_set = #vars, access_tile_order = #id2} : memref<2048x1024xf16> -> !ktdp.access_tile<128x512xindex>
    %to = ktdp.construct_access_tile %OUT[%r0, %c0] {access_tile_set = #vars, access_tile_order = #id2} : memref<2048x1024xf16> -> !ktdp.access_tile<128x512xindex>
    %g = ktdp.load %rows : <128x512xindex> -> tensor<128x512xf16>
    %y = ktdp.load %ty : <128x512xindex> -> tensor<128x512xf16>
    %sum = arith.addf %g, %y : tensor<128x512xf16>
    ktdp.store %sum, %to : tensor<128x512xf16>, <128x512xindex>
    return
  }
}
