// sibling_groups_dynamic.mlir - two independent compute groups per
// iteration of a loop whose trip count is only known at run time.
//
// Computes, for 0 <= i < M, 0 <= j < 64, in f16 (each result rounded):
//   C[i, j] = A[i, j] + B[i, j]      (the first group)
//   V[i, j] = U[i, j] * U[i, j]      (the second group)
//
// Arguments:
//   %M_arg  !ktdp.runtime_arg<index, granularity=32, upperbound=1024>: M, a
//           positive multiple of 32, at most 1024
//   %a, %b, %u  start addresses (in f16 elements) of A, B, U : Mx64 f16, inputs
//   %c, %v      start addresses of C, V : Mx64 f16, outputs
// Grid: [32]. Tile t handles rows [t * M/32, (t + 1) * M/32), one 1x64 row
// of each tensor per scf.for iteration (trip count M/32).
// Memory space spelling: #ktdp.memory_space<global>.

#rows = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row_tile = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @sibling_groups_dynamic(%M_arg: !ktdp.runtime_arg<index, granularity=32, upperbound=1024>, %a: index, %b: index, %c: index, %u: index, %v: index) attributes {grid = [32]} {
    %id = ktdp.get_compute_tile_id : index
    %M = ktdp.runtime_arg_extract value from %M_arg : !ktdp.runtime_arg<index, granularity=32, upperbound=1024> -> index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %rows_per_tile = arith.divui %M, %c32 : index
    %start_row = arith.muli %id, %rows_per_tile : index
    %A = ktdp.construct_memory_view %a, sizes: [%M, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
    %B = ktdp.construct_memory_view %b, sizes: [%M, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
    %C = ktdp.construct_memory_view %c, sizes: [%M, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
    %U = ktdp.construct_memory_view %u, sizes: [%M, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
    %V = ktdp.construct_memory_view %v, sizes: [%M, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
    scf.for %i = %c0 to %rows_per_tile step %c1 {
      %ta = ktdp.construct_access_tile %A[%start_row + %i, 0] {access_tile_set = #row_tile, access_tile_order = #identity} : memref<?x64xf16> -> !ktdp.access_tile<1x64xindex>
      %tb = ktdp.construct_access_tile %B[%start_row + %i, 0] {access_tile_set = #row_tile, access_tile_order = #identity} : memref<?x64xf16> -> !ktdp.access_tile<1x64xindex>
      %tc = ktdp.construct_access_tile %C[%start_row + %i, 0] {access_tile_set = #row_tile, access_tile_order = #identity} : memref<?x64xf16> -> !ktdp.access_tile<1x64xindex>
      %x = ktdp.load %ta : <1x64xindex> -> tensor<1x64xf16>
      %y = ktdp.load %tb : <1x64xindex> -> tensor<1x64xf16>
      %e = tensor.empty() : tensor<1x64xf16>
      %z = linalg.add ins(%x, %y : tensor<1x64xf16>, tensor<1x64xf16>) outs(%e : tensor<1x64xf16>) -> tensor<1x64xf16>
      ktdp.store %z, %tc : tensor<1x64xf16>, <1x64xindex>
      %tu = ktdp.construct_access_tile %U[%start_row + %i, 0] {access_tile_set = #row_tile, access_tile_order = #identity} : memref<?x64xf16> -> !ktdp.access_tile<1x64xindex>
      %tv = ktdp.construct_access_tile %V[%start_row + %i, 0] {access_tile_set = #row_tile, access_tile_order = #identity} : memref<?x64xf16> -> !ktdp.access_tile<1x64xindex>
      %w = ktdp.load %tu : <1x64xindex> -> tensor<1x64xf16>
      %sq = arith.mulf %w, %w : tensor<1x64xf16>
      ktdp.store %sq, %tv : tensor<1x64xf16>, <1x64xindex>
    }
    return
  }
}
