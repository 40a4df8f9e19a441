// sibling_groups.mlir - two independent compute groups per grid point and
// per loop iteration: sibling pipelines driven by the same grid and loop.
//
// Computes, for 0 <= i < 128, 0 <= j < 64, in f16 (each result rounded):
//   D[i, j] = A[i, j] - B[i, j]      (the first group: loads A, B)
//   P[i, j] = C[i, j] * C[i, j]      (the second group: loads C)
//
// Arguments (all `index`, tensor start addresses counted in f16 elements):
//   %a, %b, %c  A, B, C : 128x64 f16, row-major, inputs
//   %d, %p      D, P    : 128x64 f16, row-major, outputs
// Grid: [8]. Tile t handles rows [16t, 16t + 16) in an scf.for of two
// 8-row steps; each step runs both groups.
// Memory space spelling: #ktdp.memory_space<global>.

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @sibling_groups(%a: index, %b: index, %c: index, %d: index, %p: index) attributes {grid = [8]} {
    %id = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %first = arith.muli %id, %c16 : index
    %A = ktdp.construct_memory_view %a, sizes: [128, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
    %B = ktdp.construct_memory_view %b, sizes: [128, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
    %C = ktdp.construct_memory_view %c, sizes: [128, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
    %D = ktdp.construct_memory_view %d, sizes: [128, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
    %P = ktdp.construct_memory_view %p, sizes: [128, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
    scf.for %i = %c0 to %c16 step %c8 {
      %row = arith.addi %first, %i : index
      %ta = ktdp.construct_access_tile %A[%row, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<8x64xindex>
      %tb = ktdp.construct_access_tile %B[%row, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<8x64xindex>
      %tc = ktdp.construct_access_tile %C[%row, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<8x64xindex>
      %td = ktdp.construct_access_tile %D[%row, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<8x64xindex>
      %tp = ktdp.construct_access_tile %P[%row, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<8x64xindex>
      %x = ktdp.load %ta : <8x64xindex> -> tensor<8x64xf16>
      %y = ktdp.load %tb : <8x64xindex> -> tensor<8x64xf16>
      %z = ktdp.load %tc : <8x64xindex> -> tensor<8x64xf16>
      %diff = arith.subf %x, %y : tensor<8x64xf16>
      %sq = arith.mulf %z, %z : tensor<8x64xf16>
      ktdp.store %diff, %td : tensor<8x64xf16>, <8x64xindex>
      ktdp.store %sq, %tp : tensor<8x64xf16>, <8x64xindex>
    }
    return
  }
}
