// add_runtime_arg.mlir - element-wise add over a runtime number of rows M.
//
// Computes   C[i, j] = A[i, j] + B[i, j]      for 0 <= i < M, 0 <= j < 64
// in f16 (one f16 add per element, rounded to f16).
//
// Arguments:
//   %M_arg  !ktdp.runtime_arg<index, granularity=32, upperbound=1024>: the
//           row count M; M must be a positive multiple of 32 and <= 1024
//           (e.g. M = 96 or 128).
//   %a      index, start address (in f16 elements) of A : Mx64 f16, row-major, input
//   %b      index, start address of B : Mx64 f16, row-major, input
//   %c      index, start address of C : Mx64 f16, row-major, output
// The views have symbolic sizes [%M, 64] (memref<?x64xf16>); their
// coordinate_set symbol s0 is bound to %M.
// Grid: [32]. Tile t handles rows [t * M/32, (t + 1) * M/32), one 1x64 row per
// scf.for iteration (trip count M/32).
// Memory space spelling: #ktdp.memory_space<global>.

#rows = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row_tile = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @add_runtime_arg(%M_arg: !ktdp.runtime_arg<index, granularity=32, upperbound=1024>, %a: index, %b: index, %c: index) attributes {grid = [32]} {
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
    scf.for %i = %c0 to %rows_per_tile step %c1 {
      %ta = ktdp.construct_access_tile %A[%start_row + %i, 0] {access_tile_set = #row_tile, access_tile_order = #identity} : memref<?x64xf16> -> !ktdp.access_tile<1x64xindex>
      %tb = ktdp.construct_access_tile %B[%start_row + %i, 0] {access_tile_set = #row_tile, access_tile_order = #identity} : memref<?x64xf16> -> !ktdp.access_tile<1x64xindex>
      %tc = ktdp.construct_access_tile %C[%start_row + %i, 0] {access_tile_set = #row_tile, access_tile_order = #identity} : memref<?x64xf16> -> !ktdp.access_tile<1x64xindex>
      %x = ktdp.load %ta : <1x64xindex> -> tensor<1x64xf16>
      %y = ktdp.load %tb : <1x64xindex> -> tensor<1x64xf16>
      %e = tensor.empty() : tensor<1x64xf16>
      %z = linalg.add ins(%x, %y : tensor<1x64xf16>, tensor<1x64xf16>) outs(%e : tensor<1x64xf16>) -> tensor<1x64xf16>
      ktdp.store %z, %tc : tensor<1x64xf16>, <1x64xindex>
    }
    return
  }
}
