// if_select.mlir - element-wise maximum with a boundary tile that owns fewer
// rows (scf.if yielding the trip count) and a compare + select on tensors.
//
// Computes   C[i, j] = A[i, j] > B[i, j] ? A[i, j] : B[i, j]
// for 0 <= i < 94, 0 <= j < 64, f16 (arith.cmpf ogt + arith.select: if either
// operand is NaN the comparison is false and B[i, j] is taken).
//
// Arguments (all `index`, tensor start addresses counted in f16 elements):
//   %a  A : 94x64 f16, row-major (strides [64, 1]), input
//   %b  B : 94x64 f16, row-major, input
//   %c  C : 94x64 f16, row-major, output
// Grid: [32]. 94 = 31 * 3 + 1: tiles 0..30 own rows [3t, 3t + 3); the last
// tile (t = 31) owns only row 93. The per-tile row count comes from an
// `scf.if %is_last -> (index)` (1 on tile 31, 3 otherwise) and an scf.for
// walks the rows one 1x64 tile at a time.
// Memory space spelling: #ktdp.memory_space<global>.

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 93 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row_tile = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @if_select(%a: index, %b: index, %c: index) attributes {grid = [32]} {
    %id = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c31 = arith.constant 31 : index
    %row0 = arith.muli %id, %c3 : index
    %is_last = arith.cmpi eq, %id, %c31 : index
    %nrows = scf.if %is_last -> (index) {
      scf.yield %c1 : index
    } else {
      scf.yield %c3 : index
    }
    %A = ktdp.construct_memory_view %a, sizes: [94, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<94x64xf16>
    %B = ktdp.construct_memory_view %b, sizes: [94, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<94x64xf16>
    %C = ktdp.construct_memory_view %c, sizes: [94, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<94x64xf16>
    scf.for %i = %c0 to %nrows step %c1 {
      %ta = ktdp.construct_access_tile %A[%row0 + %i, 0] {access_tile_set = #row_tile, access_tile_order = #id2} : memref<94x64xf16> -> !ktdp.access_tile<1x64xindex>
      %tb = ktdp.construct_access_tile %B[%row0 + %i, 0] {access_tile_set = #row_tile, access_tile_order = #id2} : memref<94x64xf16> -> !ktdp.access_tile<1x64xindex>
      %tc = ktdp.construct_access_tile %C[%row0 + %i, 0] {access_tile_set = #row_tile, access_tile_order = #id2} : memref<94x64xf16> -> !ktdp.access_tile<1x64xindex>
      %x = ktdp.load %ta : <1x64xindex> -> tensor<1x64xf16>
      %y = ktdp.load %tb : <1x64xindex> -> tensor<1x64xf16>
      %gt = arith.cmpf ogt, %x, %y : tensor<1x64xf16>
      %z = arith.select %gt, %x, %y : tensor<1x64xi1>, tensor<1x64xf16>
      ktdp.store %z, %tc : tensor<1x64xf16>, <1x64xindex>
    }
    return
  }
}
