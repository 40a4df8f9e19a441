// while_loop.mlir - ReLU over a runtime number of rows with a grid-stride
// scf.while loop (a persistent-kernel style schedule).
//
// Computes   Y[i, j] = maximumf(X[i, j], +0.0)      for 0 <= i < M, 0 <= j < 64
// in f16 (arith.maximumf: NaN propagates, -0.0 becomes +0.0).
//
// Arguments:
//   %x      index, start address (in f16 elements) of X : Mx64 f16, row-major, input
//   %y      index, start address of Y : Mx64 f16, row-major, output
//   %M_arg  !ktdp.runtime_arg<index, upperbound=512>: the row count M,
//           1 <= M <= 512, any value (e.g. 100: tiles 0..3 get 4 rows,
//           tiles 4..31 get 3)
// The views have symbolic sizes [%M, 64] with coordinate_set symbol s0 = M.
// Grid: [32]. Tile t processes rows t, t + 32, t + 64, ... while the row is
// < M, one 1x64 row per iteration; the row index is the loop-carried value
// of the scf.while.
// Memory space spelling: #ktdp.spyre_memory_space<HBM>.

#rows = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row_tile = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @while_loop(%x: index, %y: index, %M_arg: !ktdp.runtime_arg<index, upperbound=512>) attributes {grid = [32]} {
    %id = ktdp.get_compute_tile_id : index
    %M = ktdp.runtime_arg_extract value from %M_arg : !ktdp.runtime_arg<index, upperbound=512> -> index
    %c32 = arith.constant 32 : index
    %zeros = arith.constant dense<0.0> : tensor<1x64xf16>
    %X = ktdp.construct_memory_view %x, sizes: [%M, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.spyre_memory_space<HBM>} : memref<?x64xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [%M, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.spyre_memory_space<HBM>} : memref<?x64xf16>
    %end = scf.while (%row = %id) : (index) -> index {
      %more = arith.cmpi ult, %row, %M : index
      scf.condition(%more) %row : index
    } do {
    ^bb0(%r: index):
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row_tile, access_tile_order = #id2} : memref<?x64xf16> -> !ktdp.access_tile<1x64xindex>
      %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row_tile, access_tile_order = #id2} : memref<?x64xf16> -> !ktdp.access_tile<1x64xindex>
      %xt = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
      %yt = arith.maximumf %xt, %zeros : tensor<1x64xf16>
      ktdp.store %yt, %ty : tensor<1x64xf16>, <1x64xindex>
      %next = arith.addi %r, %c32 : index
      scf.yield %next : index
    }
    return
  }
}
