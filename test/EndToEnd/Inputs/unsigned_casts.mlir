// unsigned_casts.mlir - a row count read through arith.index_castui, as
// Triton kernels read their i32 sizes, with a signed min that lets a
// negative i32 (>= 2^31 as unsigned) reach the stored rows; checked by
// unsigned-casts.test.

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

// Doubles rows [0, min(n, 64)) of a 64x128 f16 matrix, n the i32 argument
// read unsigned.
func.func @rows_upto(%x: index, %y: index, %n_i32: i32) attributes {grid = [1, 1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %n = arith.index_castui %n_i32 : i32 to index
  %rows = arith.minsi %n, %c64 : index
  %X = ktdp.construct_memory_view %x, sizes: [64, 128], strides: [128, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [64, 128], strides: [128, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  scf.for %r = %c0 to %rows step %c1 {
    %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
    %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
    %v = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
    %w = arith.addf %v, %v : tensor<1x128xf16>
    ktdp.store %w, %ty : tensor<1x128xf16>, <1x128xindex>
  }
  return
}

// The same with the count computed, n - 3, and taken through i32 and back:
// the interpreter wraps n - 3 = -2 to 2^32 - 2 (all 64 rows).
func.func @computed_rows(%x: index, %y: index, %n: index) attributes {grid = [1, 1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  %m = arith.subi %n, %c3 : index
  %m_i32 = arith.index_cast %m : index to i32
  %count = arith.index_castui %m_i32 : i32 to index
  %rows = arith.minsi %count, %c64 : index
  %X = ktdp.construct_memory_view %x, sizes: [64, 128], strides: [128, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [64, 128], strides: [128, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  scf.for %r = %c0 to %rows step %c1 {
    %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
    %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
    %v = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
    %w = arith.addf %v, %v : tensor<1x128xf16>
    ktdp.store %w, %ty : tensor<1x128xf16>, <1x128xindex>
  }
  return
}
