// add_loop.mlir - element-wise matrix add, one row per scf.for iteration.
//
// Computes   C[i, j] = A[i, j] + B[i, j]      for 0 <= i < 256, 0 <= j < 64
// in f16 (one f16 add per element, rounded to f16).
//
// Arguments (all `index`, tensor start addresses counted in f16 elements):
//   %a  A : 256x64 f16, row-major (strides [64, 1]), input
//   %b  B : 256x64 f16, row-major, input
//   %c  C : 256x64 f16, row-major, output
// Grid: [32, 1] (2-D ids, y extent 1). Tile (x, 0) handles rows
// [8x, 8x + 8): an scf.for over %i in [0, 8) loads/stores one 1x64 row
// (one 128-byte stick) anchored at [%start_row + %i, 0].
// Memory space spelling: #ktdp.spyre_memory_space<HBM>.

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row_tile = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @add_loop(%a: index, %b: index, %c: index) attributes {grid = [32, 1]} {
    %id:2 = ktdp.get_compute_tile_id : index, index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %start_row = arith.muli %id#0, %c8 : index
    %A = ktdp.construct_memory_view %a, sizes: [256, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.spyre_memory_space<HBM>} : memref<256x64xf16>
    %B = ktdp.construct_memory_view %b, sizes: [256, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.spyre_memory_space<HBM>} : memref<256x64xf16>
    %C = ktdp.construct_memory_view %c, sizes: [256, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.spyre_memory_space<HBM>} : memref<256x64xf16>
    scf.for %i = %c0 to %c8 step %c1 {
      %ta = ktdp.construct_access_tile %A[%start_row + %i, 0] {access_tile_set = #row_tile, access_tile_order = #identity} : memref<256x64xf16> -> !ktdp.access_tile<1x64xindex>
      %tb = ktdp.construct_access_tile %B[%start_row + %i, 0] {access_tile_set = #row_tile, access_tile_order = #identity} : memref<256x64xf16> -> !ktdp.access_tile<1x64xindex>
      %tc = ktdp.construct_access_tile %C[%start_row + %i, 0] {access_tile_set = #row_tile, access_tile_order = #identity} : memref<256x64xf16> -> !ktdp.access_tile<1x64xindex>
      %x = ktdp.load %ta : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
      %y = ktdp.load %tb : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
      %e = tensor.empty() : tensor<1x64xf16>
      %z = linalg.add ins(%x, %y : tensor<1x64xf16>, tensor<1x64xf16>) outs(%e : tensor<1x64xf16>) -> tensor<1x64xf16>
      ktdp.store %z, %tc : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
    }
    return
  }
}
