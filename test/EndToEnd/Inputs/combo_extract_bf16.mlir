// combo_extract_bf16.mlir - bf16 rows shifted by their element 5 and
// accumulated per tile in a loop with a run-time start (rows cyclic over
// a [16, 1] grid), the sum kept in f32 as a carried value.
//
// Computes, for t < 16, j < 128 (f32 per op, over r = t, t+16, .. < 64):
//   acc[j] += f32(X[r, j]) - f32(X[r, 5]);   Y[t, j] = bf16(acc[j])
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#y_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @extract_bf16_kernel(%x_ptr: index,   // X: 64x128 bf16 (input)
                                 %y_ptr: index)   // Y: 16x128 bf16 (output)
      attributes {grid = [16, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c5 = arith.constant 5 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %zeros = arith.constant dense<0.0> : tensor<1x128xf32>
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xbf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [16, 128], strides: [128, 1] {coordinate_set = #y_set, memory_space = #ktdp.memory_space<global>} : memref<16x128xbf16>
    %acc = scf.for %r = %pid to %c64 step %c16 iter_args(%a = %zeros) -> (tensor<1x128xf32>) {
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xbf16> -> !ktdp.access_tile<1x128xindex>
      %xb = ktdp.load %tx : <1x128xindex> -> tensor<1x128xbf16>
      %e5 = tensor.extract %xb[%c0, %c5] : tensor<1x128xbf16>
      %e5f = arith.extf %e5 : bf16 to f32
      %x = arith.extf %xb : tensor<1x128xbf16> to tensor<1x128xf32>
      %sv = tensor.splat %e5f : tensor<1x128xf32>
      %d = arith.subf %x, %sv : tensor<1x128xf32>
      %a2 = arith.addf %a, %d : tensor<1x128xf32>
      scf.yield %a2 : tensor<1x128xf32>
    }
    %yb = arith.truncf %acc : tensor<1x128xf32> to tensor<1x128xbf16>
    %ty = ktdp.construct_access_tile %Y[%pid, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<16x128xbf16> -> !ktdp.access_tile<1x128xindex>
    ktdp.store %yb, %ty : tensor<1x128xbf16>, <1x128xindex>
    return
  }
}
