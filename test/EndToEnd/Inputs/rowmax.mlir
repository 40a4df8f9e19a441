// rowmax.mlir - y[i, j] = x[i, j] - max_j x[i, j] over 2x128 f16 tiles
// (grid [4]): a row reduction whose result the next pass needs.

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @rowmax(%x: index, %y: index) attributes {grid = [4]} {
  %id = ktdp.get_compute_tile_id : index
  %c2 = arith.constant 2 : index
  %r0 = arith.muli %id, %c2 : index
  %X = ktdp.construct_memory_view %x, sizes: [8, 128], strides: [128, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [8, 128], strides: [128, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
  %tx = ktdp.construct_access_tile %X[%r0, 0] {access_tile_set = #t, access_tile_order = #id} : memref<8x128xf16> -> !ktdp.access_tile<2x128xindex>
  %ty = ktdp.construct_access_tile %Y[%r0, 0] {access_tile_set = #t, access_tile_order = #id} : memref<8x128xf16> -> !ktdp.access_tile<2x128xindex>
  %v = ktdp.load %tx : <2x128xindex> -> tensor<2x128xf16>
  %ninf = arith.constant 0xFC00 : f16
  %e = tensor.empty() : tensor<2xf16>
  %init = linalg.fill ins(%ninf : f16) outs(%e : tensor<2xf16>) -> tensor<2xf16>
  %m = linalg.reduce ins(%v : tensor<2x128xf16>) outs(%init : tensor<2xf16>) dimensions = [1]
    (%in: f16, %acc: f16) {
      %r = arith.maximumf %in, %acc : f16
      linalg.yield %r : f16
    }
  %full = tensor.empty() : tensor<2x128xf16>
  %mb = linalg.broadcast ins(%m : tensor<2xf16>) outs(%full : tensor<2x128xf16>) dimensions = [1]
  %w = arith.subf %v, %mb : tensor<2x128xf16>
  ktdp.store %w, %ty : tensor<2x128xf16>, <2x128xindex>
  return
}
