// gelu_erf_f32.mlir - GELU, erf form, 64x128 f32, a 2x128 block per tile
// on a [32, 1] grid, the formula in a linalg.generic body.
//
// Computes, for i < 64, j < 128, all f32, rounded per op:
//   Y[i, j] = 0.5 * x * (1 + erf(x * 0.70710678))     with x = X[i, j]

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @gelu_erf_kernel(%x_ptr: index,   // X: 64x128 f32, row-major (input)
                             %y_ptr: index)   // Y: 64x128 f32, row-major (output)
      attributes {grid = [32, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c2 = arith.constant 2 : index
    %r0 = arith.muli %pid, %c2 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf32>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf32>
    %tx = ktdp.construct_access_tile %X[%r0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf32> -> !ktdp.access_tile<2x128xindex>
    %x = ktdp.load %tx : <2x128xindex> -> tensor<2x128xf32>
    %e = tensor.empty() : tensor<2x128xf32>
    %y = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%x : tensor<2x128xf32>) outs(%e : tensor<2x128xf32>) {
      ^bb0(%v: f32, %o: f32):
        %rs2 = arith.constant 0.707106769 : f32
        %half = arith.constant 0.5 : f32
        %one = arith.constant 1.0 : f32
        %a = arith.mulf %v, %rs2 : f32
        %er = math.erf %a : f32
        %p = arith.addf %er, %one : f32
        %h = arith.mulf %v, %half : f32
        %r = arith.mulf %h, %p : f32
        linalg.yield %r : f32
    } -> tensor<2x128xf32>
    %ty = ktdp.construct_access_tile %Y[%r0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf32> -> !ktdp.access_tile<2x128xindex>
    ktdp.store %y, %ty : tensor<2x128xf32>, <2x128xindex>
    return
  }
}
