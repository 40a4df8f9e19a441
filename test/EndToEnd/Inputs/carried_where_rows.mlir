// carried_where_rows.mlir - a Triton tl.where on a per-row condition
// inside a loop that carries the result: even rows are added to the
// accumulator, odd rows subtracted, 64x128 f32 rows on a [1, 1] grid.
//
// Computes, for j < 128 (sequential over i = 0..63, f32 per op):
//   acc[j] = i even ? acc[j] + X[i, j] : acc[j] - X[i, j]
//   Y[j]   = acc[j]

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#y_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @carried_where_kernel(%x_ptr: index,   // X: 64x128 f32 (input)
                                  %y_ptr: index)   // Y: 1x128 f32 (output)
      attributes {grid = [1, 1]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %zeros = arith.constant dense<0.0> : tensor<1x128xf32>
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf32>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [1, 128], strides: [128, 1] {coordinate_set = #y_set, memory_space = #ktdp.memory_space<global>} : memref<1x128xf32>
    %acc = scf.for %i = %c0 to %c64 step %c1 iter_args(%a = %zeros) -> (tensor<1x128xf32>) {
      %tx = ktdp.construct_access_tile %X[%i, 0] {access_tile_set = #y_set, access_tile_order = #id2} : memref<64x128xf32> -> !ktdp.access_tile<1x128xindex>
      %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf32>
      %p = arith.addf %a, %x : tensor<1x128xf32>
      %m = arith.subf %a, %x : tensor<1x128xf32>
      %par = arith.remui %i, %c2 : index
      %even = arith.cmpi eq, %par, %c0 : index
      %a2 = arith.select %even, %p, %m : tensor<1x128xf32>
      scf.yield %a2 : tensor<1x128xf32>
    }
    %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #y_set, access_tile_order = #id2} : memref<1x128xf32> -> !ktdp.access_tile<1x128xindex>
    ktdp.store %acc, %ty : tensor<1x128xf32>, <1x128xindex>
    return
  }
}
