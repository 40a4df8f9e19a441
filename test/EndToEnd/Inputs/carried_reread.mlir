// carried_reread.mlir - a column loop over a run-time N carries a running
// sum and, in the same trip, subtracts the block's maximum from the value
// it carried in: Y[b] = a - max(X[b]), a = a + X[b].
//
// The trip's compute stage makes two passes over the block (the maximum,
// then the subtraction); the carried sum is rewritten in the first and
// read again in the second, which its scratchpad (rewritten in place,
// ktdf-carry-in-scratchpad) cannot give: refused at the loop.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @carried_reread(%x_ptr: index, %y_ptr: index, %N: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %c1024 = arith.constant 1024 : index
    %c128 = arith.constant 128 : index
    %ninf = arith.constant 0xFC00 : f16
    %zeros = arith.constant dense<0.0> : tensor<1x128xf16>
    %n = arith.minsi %N, %c1024 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 1024], strides: [1024, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x1024xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 1024], strides: [1024, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x1024xf16>
    %acc = scf.for %off = %c0 to %n step %c128 iter_args(%a = %zeros) -> tensor<1x128xf16> {
      %tx = ktdp.construct_access_tile %X[0, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x1024xf16> -> !ktdp.access_tile<1x128xindex>
      %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
      %a2 = arith.addf %a, %x : tensor<1x128xf16>
      %i = tensor.splat %ninf : tensor<1xf16>
      %mx = linalg.reduce { arith.maxnumf } ins(%x : tensor<1x128xf16>) outs(%i : tensor<1xf16>) dimensions = [1]
      %m = tensor.extract %mx[%c0] : tensor<1xf16>
      %mb = tensor.splat %m : tensor<1x128xf16>
      %y = arith.subf %a, %mb : tensor<1x128xf16>
      %ty = ktdp.construct_access_tile %Y[0, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x1024xf16> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
      scf.yield %a2 : tensor<1x128xf16>
    }
    %ty = ktdp.construct_access_tile %Y[1, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x1024xf16> -> !ktdp.access_tile<1x128xindex>
    ktdp.store %acc, %ty : tensor<1x128xf16>, <1x128xindex>
    return
  }
}
