// scratchpad_reload.mlir - a loop iteration stores into its scratchpad and
// reads the tile back, with a loaded value shared by both.
//
// Computes, for 0 <= i < 16, 0 <= j < 64, in f16 (each result rounded):
//   L[j]    = X[i, j] + X[i, j]      (L: 64 f16 in the tile's scratchpad)
//   Y[i, j] = L[j] * X[i, j]         (L read back)
//
// Arguments (all `index`, tensor start addresses counted in f16 elements):
//   %x  X : 16x64 f16, row-major, input
//   %y  Y : 16x64 f16, row-major, output
// Grid: [1]. An scf.for over the rows. X's row feeds both the store into
// the scratchpad and the product, so the store and the reload form one
// compute group, which does not order them: the reload read the
// scratchpad before the store (Y was mostly zeros on every device).
// ktdf-forward-stores now gives the reload the stored tensor.
// Memory space spelling: #ktdp.memory_space<global> and <ct_local, ct_id = 0>.

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#one = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @scratchpad_reload(%x: index, %y: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %X = ktdp.construct_memory_view %x, sizes: [16, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [16, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
    %L = ktdp.construct_memory_view %c0, sizes: [1, 64], strides: [64, 1] {coordinate_set = #one, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<1x64xf16, #ktdp.memory_space<ct_local, ct_id = 0>>
    %tl = ktdp.construct_access_tile %L[0, 0] {access_tile_set = #one, access_tile_order = #id2} : memref<1x64xf16, #ktdp.memory_space<ct_local, ct_id = 0>> -> !ktdp.access_tile<1x64xindex>
    scf.for %i = %c0 to %c16 step %c1 {
      %tx = ktdp.construct_access_tile %X[%i, 0] {access_tile_set = #one, access_tile_order = #id2} : memref<16x64xf16> -> !ktdp.access_tile<1x64xindex>
      %ty = ktdp.construct_access_tile %Y[%i, 0] {access_tile_set = #one, access_tile_order = #id2} : memref<16x64xf16> -> !ktdp.access_tile<1x64xindex>
      %xt = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
      %d = arith.addf %xt, %xt : tensor<1x64xf16>
      ktdp.store %d, %tl : tensor<1x64xf16>, <1x64xindex>
      %lt = ktdp.load %tl : <1x64xindex> -> tensor<1x64xf16>
      %s = arith.mulf %lt, %xt : tensor<1x64xf16>
      ktdp.store %s, %ty : tensor<1x64xf16>, <1x64xindex>
    }
    return
  }
}
