// mask_streamed.mlir - a causal mask on a tile streamed in chunks (no
// matrix product in its compute group): linalg.index is refused there.
// Y[i, j] = X[i, j] where j <= i, else 0; X, Y: 32x32 f16.
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @mask(%x_ptr: index, %y_ptr: index) attributes {grid = [1]} {
    %zero = arith.constant 0.0 : f16
    %X = ktdp.construct_memory_view %x_ptr, sizes: [32, 32], strides: [32, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<32x32xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [32, 32], strides: [32, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<32x32xf16>
    %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #set, access_tile_order = #id2} : memref<32x32xf16> -> !ktdp.access_tile<32x32xindex>
    %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #set, access_tile_order = #id2} : memref<32x32xf16> -> !ktdp.access_tile<32x32xindex>
    %x = ktdp.load %tx : <32x32xindex> -> tensor<32x32xf16>
    %e = tensor.empty() : tensor<32x32xf16>
    %m = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%x : tensor<32x32xf16>) outs(%e : tensor<32x32xf16>) {
      ^bb0(%v: f16, %o: f16):
        %i = linalg.index 0 : index
        %j = linalg.index 1 : index
        %visible = arith.cmpi ule, %j, %i : index
        %r = arith.select %visible, %v, %zero : f16
        linalg.yield %r : f16
    } -> tensor<32x32xf16>
    ktdp.store %m, %ty : tensor<32x32xf16>, <32x32xindex>
    return
  }
}
