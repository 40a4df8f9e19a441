// sigmoid_f32.mlir - sigmoid in f32, 64x128, rows dealt cyclically over a
// [16, 1] grid, one 1x128 row per iteration.
//
// Computes, for r < 64, j < 128, all f32, rounded per op:
//   Y[r, j] = 1 / (1 + exp(0 - x))      with x = X[r, j]  (subf from a splat 0)

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @sigmoid_kernel(%x_ptr: index,   // X: 64x128 f32 (input)
                            %y_ptr: index)   // Y: 64x128 f32 (output)
      attributes {grid = [16, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %zf = arith.constant 0.0 : f32
    %onef = arith.constant 1.0 : f32
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf32>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf32>
    scf.for %r = %pid to %c64 step %c16 : index {
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf32> -> !ktdp.access_tile<1x128xindex>
      %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf32>
      %z = tensor.splat %zf : tensor<1x128xf32>
      %one = tensor.splat %onef : tensor<1x128xf32>
      %n = arith.subf %z, %x : tensor<1x128xf32>
      %e = math.exp %n : tensor<1x128xf32>
      %d = arith.addf %one, %e : tensor<1x128xf32>
      %y = arith.divf %one, %d : tensor<1x128xf32>
      %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf32> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %y, %ty : tensor<1x128xf32>, <1x128xindex>
      scf.yield
    }
    return
  }
}
