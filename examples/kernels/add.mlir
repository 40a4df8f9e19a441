// add.mlir - element-wise matrix add, one 3-row block per compute tile.
//
// Computes   C[i, j] = A[i, j] + B[i, j]      for 0 <= i < 96, 0 <= j < 64
// in f16 (one f16 add per element, rounded to f16).
//
// Arguments (all `index`, tensor start addresses counted in f16 elements):
//   %a  A : 96x64 f16, row-major (strides [64, 1]), input
//   %b  B : 96x64 f16, row-major, input
//   %c  C : 96x64 f16, row-major, output
// Grid: [32]. Tile t (0 <= t < 32) handles rows [3t, 3t + 3) with one
// 3x64 access tile per tensor. A is declared in `#ktdp.spyre_memory_space<HBM>`,
// B and C in `#ktdp.memory_space<global>` (the same memory, two spellings).

#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#tset = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @add(%a: index, %b: index, %c: index) attributes {grid = [32]} {
    %id = ktdp.get_compute_tile_id : index
    %c3 = arith.constant 3 : index
    %row = arith.muli %id, %c3 : index
    %A = ktdp.construct_memory_view %a, sizes: [96, 64], strides: [64, 1] {coordinate_set = #set, memory_space = #ktdp.spyre_memory_space<HBM>} : memref<96x64xf16>
    %B = ktdp.construct_memory_view %b, sizes: [96, 64], strides: [64, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
    %C = ktdp.construct_memory_view %c, sizes: [96, 64], strides: [64, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
    %ta = ktdp.construct_access_tile %A[%row, 0] {access_tile_set = #tset, access_tile_order = #map} : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
    %tb = ktdp.construct_access_tile %B[%row, 0] {access_tile_set = #tset, access_tile_order = #map} : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
    %tc = ktdp.construct_access_tile %C[%row, 0] {access_tile_set = #tset, access_tile_order = #map} : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
    %x = ktdp.load %ta : !ktdp.access_tile<3x64xindex> -> tensor<3x64xf16>
    %y = ktdp.load %tb : <3x64xindex> -> tensor<3x64xf16>
    %e = tensor.empty() : tensor<3x64xf16>
    %z = linalg.add ins(%x, %y : tensor<3x64xf16>, tensor<3x64xf16>) outs(%e : tensor<3x64xf16>) -> tensor<3x64xf16>
    ktdp.store %z, %tc : tensor<3x64xf16>, !ktdp.access_tile<3x64xindex>
    return
  }
}
