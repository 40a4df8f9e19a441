// scaled_relu.mlir - the kernel docs/quickstart.md writes: each of 4 program
// ids takes 16 consecutive rows of a 64x128 f16 matrix and computes
//   OUT[r, c] = max(f16(X[r, c] * 0.5), 0)       (each op rounded to f16)
//
// Index arguments that feed construct_memory_view are tensor start
// addresses, in elements; the tools choose them and bind the named tensors.

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @scaled_relu(%x_ptr: index,    // X: 64x128 f16 (input)
                         %out_ptr: index)  // OUT: 64x128 f16 (output)
      attributes {grid = [4, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %BLOCK_ROWS = arith.constant 16 : index
    %c0 = arith.constant 0 : index
    %row0 = arith.muli %pid, %BLOCK_ROWS : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %OUT = ktdp.construct_memory_view %out_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %tx = ktdp.construct_access_tile %X[%row0, %c0] {access_tile_set = #block, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<16x128xindex>
    %to = ktdp.construct_access_tile %OUT[%row0, %c0] {access_tile_set = #block, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<16x128xindex>
    %x = ktdp.load %tx : <16x128xindex> -> tensor<16x128xf16>
    %half = arith.constant dense<0.5> : tensor<16x128xf16>
    %zero = arith.constant dense<0.0> : tensor<16x128xf16>
    %scaled = arith.mulf %x, %half : tensor<16x128xf16>
    %out = arith.maximumf %scaled, %zero : tensor<16x128xf16>
    ktdp.store %out, %to : tensor<16x128xf16>, <16x128xindex>
    return
  }
}
