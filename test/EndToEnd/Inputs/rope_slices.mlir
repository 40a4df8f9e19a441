// rope_slices.mlir - rotary position embedding (rotate-half form) on 64
// positions of a 128-wide head, written with slices: each of 16 tiles loads
// a 4x128 f16 block of X, extends it to f32 and takes its two halves with
// tensor.extract_slice, rotates them, and rebuilds the output row block
// with tensor.insert_slice into a tensor.empty, stored at once.
//
// For 0 <= p < 64, 0 <= j < 64, with x1 = X[p, j], x2 = X[p, j + 64],
// c = COS[p, j], s = SIN[p, j], all extended to f32 (each product rounded
// to f32 before the add/sub, the result rounded to f16, nearest even):
//   Y[p, j]      = f16(x1 * c - x2 * s)
//   Y[p, j + 64] = f16(x2 * c + x1 * s)
// Arguments: X 64x128 f16, COS 64x64 f16, SIN 64x64 f16 (inputs), Y 64x128
// f16 (output).
#x = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#half = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @rope_slices(%x_ptr: index, %cos_ptr: index, %sin_ptr: index, %y_ptr: index) attributes {grid = [16]} {
    %pid = ktdp.get_compute_tile_id : index
    %c4 = arith.constant 4 : index
    %row = arith.muli %pid, %c4 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %COS = ktdp.construct_memory_view %cos_ptr, sizes: [64, 64], strides: [64, 1] {coordinate_set = #t, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %SIN = ktdp.construct_memory_view %sin_ptr, sizes: [64, 64], strides: [64, 1] {coordinate_set = #t, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %tx = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<4x128xindex>
    %tc = ktdp.construct_access_tile %COS[%row, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<4x64xindex>
    %ts = ktdp.construct_access_tile %SIN[%row, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<4x64xindex>
    %xh = ktdp.load %tx : <4x128xindex> -> tensor<4x128xf16>
    %ch = ktdp.load %tc : <4x64xindex> -> tensor<4x64xf16>
    %sh = ktdp.load %ts : <4x64xindex> -> tensor<4x64xf16>
    %x = arith.extf %xh : tensor<4x128xf16> to tensor<4x128xf32>
    %c = arith.extf %ch : tensor<4x64xf16> to tensor<4x64xf32>
    %s = arith.extf %sh : tensor<4x64xf16> to tensor<4x64xf32>
    %x1 = tensor.extract_slice %x[0, 0] [4, 64] [1, 1] : tensor<4x128xf32> to tensor<4x64xf32>
    %x2 = tensor.extract_slice %x[0, 64] [4, 64] [1, 1] : tensor<4x128xf32> to tensor<4x64xf32>
    %x1c = arith.mulf %x1, %c : tensor<4x64xf32>
    %x2s = arith.mulf %x2, %s : tensor<4x64xf32>
    %y1 = arith.subf %x1c, %x2s : tensor<4x64xf32>
    %x2c = arith.mulf %x2, %c : tensor<4x64xf32>
    %x1s = arith.mulf %x1, %s : tensor<4x64xf32>
    %y2 = arith.addf %x2c, %x1s : tensor<4x64xf32>
    %y1h = arith.truncf %y1 : tensor<4x64xf32> to tensor<4x64xf16>
    %y2h = arith.truncf %y2 : tensor<4x64xf32> to tensor<4x64xf16>
    %e = tensor.empty() : tensor<4x128xf16>
    %lo = tensor.insert_slice %y1h into %e[0, 0] [4, 64] [1, 1] : tensor<4x64xf16> into tensor<4x128xf16>
    %out = tensor.insert_slice %y2h into %lo[0, 64] [4, 64] [1, 1] : tensor<4x64xf16> into tensor<4x128xf16>
    %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<4x128xindex>
    ktdp.store %out, %ty : tensor<4x128xf16>, <4x128xindex>
    return
  }
}
