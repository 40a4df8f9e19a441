// loop_bounds_args.mlir - a grid-stride row loop whose bounds come from i32
// scalar arguments: Y[r] = 2 X[r] for r = lo + p, lo + p + 8, ... below
// min(hi, 128) on an [8, 1] grid (lo >= hi: no trip; few rows: points
// with no trip). Y keeps its contents elsewhere.
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @loop_bounds_args(%x_ptr: index, %y_ptr: index, %lo_i: i32, %hi_i: i32) attributes {grid = [8, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c8 = arith.constant 8 : index
    %lo = arith.index_cast %lo_i : i32 to index
    %hi0 = arith.index_cast %hi_i : i32 to index
    %c128 = arith.constant 128 : index
    %hi = arith.minsi %hi0, %c128 : index
    %start = arith.addi %lo, %pid : index
    %two = arith.constant dense<2.0> : tensor<1x64xf16>
    %X = ktdp.construct_memory_view %x_ptr, sizes: [128, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [128, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
    scf.for %r = %start to %hi step %c8 : index {
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<1x64xindex>
      %x = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
      %y = arith.mulf %x, %two : tensor<1x64xf16>
      %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<1x64xindex>
      ktdp.store %y, %ty : tensor<1x64xf16>, <1x64xindex>
    }
    return
  }
}
