// combo_guard_carry.mlir - a row condition inside a carried loop: the
// accumulator takes in only the rows whose maximum is positive. 64x128
// f32 rows on a [1, 1] grid.
//
// Computes, for j < 128 (sequential over i = 0..63, f32):
//   acc[j] = max_k X[i, k] > 0 ? acc[j] + X[i, j] : acc[j];   Y[j] = acc[j]
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#y_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @guard_carry_kernel(%x_ptr: index,   // X: 64x128 f32 (input)
                                %y_ptr: index)   // Y: 1x128 f32 (output)
      attributes {grid = [1, 1]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %zeros = arith.constant dense<0.0> : tensor<1x128xf32>
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf32>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [1, 128], strides: [128, 1] {coordinate_set = #y_set, memory_space = #ktdp.memory_space<global>} : memref<1x128xf32>
    %acc = scf.for %i = %c0 to %c64 step %c1 iter_args(%a = %zeros) -> (tensor<1x128xf32>) {
      %tx = ktdp.construct_access_tile %X[%i, 0] {access_tile_set = #y_set, access_tile_order = #id2} : memref<64x128xf32> -> !ktdp.access_tile<1x128xindex>
      %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf32>
      %e0 = tensor.empty() : tensor<1xf32>
      %minit = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<1xf32>) -> tensor<1xf32>
      %mx = linalg.reduce ins(%x : tensor<1x128xf32>) outs(%minit : tensor<1xf32>) dimensions = [1]
        (%in: f32, %acc0: f32) {
          %mm = arith.maxnumf %in, %acc0 : f32
          linalg.yield %mm : f32
        }
      %m = tensor.extract %mx[%c0] : tensor<1xf32>
      %pos = arith.cmpf ogt, %m, %zero : f32
      %p = arith.addf %a, %x : tensor<1x128xf32>
      %a2 = arith.select %pos, %p, %a : tensor<1x128xf32>
      scf.yield %a2 : tensor<1x128xf32>
    }
    %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #y_set, access_tile_order = #id2} : memref<1x128xf32> -> !ktdp.access_tile<1x128xindex>
    ktdp.store %acc, %ty : tensor<1x128xf32>, <1x128xindex>
    return
  }
}
