// batch3d_colsum_pairs.mlir - batch3d_colsum with two batches per tile:
// each tile of a [2, 1, 1] grid sums the 16x64 f16 slabs of batches 2t and
// 2t + 1 over their rows in f32, one 2x16x64 tile reduced over dimension
// 1 (dimension 0, of extent 2, kept).
//
// Computes, for b < 4, j < 64:
//   Y[b, j] = sum_i f32(X[b, i, j])        (f32, sequential over i)

#x_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#y_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#blk = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#yb = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
module {
  func.func @batch3d_colsum_pairs_kernel(%x_ptr: index,   // X: 4x16x64 f16 (input)
                                        %y_ptr: index)   // Y: 4x64 f32 column sums (output)
      attributes {grid = [2, 1, 1]} {
    %t = ktdp.get_compute_tile_id : index
    %c2 = arith.constant 2 : index
    %b = arith.muli %t, %c2 : index
    %zero = arith.constant 0.0 : f32
    %X = ktdp.construct_memory_view %x_ptr, sizes: [4, 16, 64], strides: [1024, 64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x16x64xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [4, 64], strides: [64, 1] {coordinate_set = #y_set, memory_space = #ktdp.memory_space<global>} : memref<4x64xf32>
    %tx = ktdp.construct_access_tile %X[%b, 0, 0] {access_tile_set = #blk, access_tile_order = #id3} : memref<4x16x64xf16> -> !ktdp.access_tile<2x16x64xindex>
    %x = ktdp.load %tx : <2x16x64xindex> -> tensor<2x16x64xf16>
    %xf = arith.extf %x : tensor<2x16x64xf16> to tensor<2x16x64xf32>
    %e = tensor.empty() : tensor<2x64xf32>
    %i = linalg.fill ins(%zero : f32) outs(%e : tensor<2x64xf32>) -> tensor<2x64xf32>
    %s = linalg.reduce { arith.addf } ins(%xf : tensor<2x16x64xf32>) outs(%i : tensor<2x64xf32>) dimensions = [1]
    %ty = ktdp.construct_access_tile %Y[%b, 0] {access_tile_set = #yb, access_tile_order = #id2} : memref<4x64xf32> -> !ktdp.access_tile<2x64xindex>
    ktdp.store %s, %ty : tensor<2x64xf32>, <2x64xindex>
    return
  }
}
