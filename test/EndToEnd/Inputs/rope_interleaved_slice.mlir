// rope_interleaved_slice.mlir - rotary position embedding in the
// interleaved (GPT-J) form: each of 16 tiles loads a 4x128 f16 block of X
// and takes its even and odd columns with tensor.extract_slice of stride 2.
//
// For 0 <= p < 64, 0 <= j < 64 (x1 = X[p, 2j], x2 = X[p, 2j + 1],
// c = COS[p, j], s = SIN[p, j], f16 arithmetic):
//   Y[p, j] = x1 * c - x2 * s,   Y[p, j + 64] = x2 * c + x1 * s.
// Arguments: X 64x128 f16, COS 64x64 f16, SIN 64x64 f16 (inputs), Y 64x128
// f16 (output).
#x = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#half = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @rope_interleaved(%x_ptr: index, %cos_ptr: index, %sin_ptr: index, %y_ptr: index) attributes {grid = [16]} {
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
    %x = ktdp.load %tx : <4x128xindex> -> tensor<4x128xf16>
    %c = ktdp.load %tc : <4x64xindex> -> tensor<4x64xf16>
    %s = ktdp.load %ts : <4x64xindex> -> tensor<4x64xf16>
    %x1 = tensor.extract_slice %x[0, 0] [4, 64] [1, 2] : tensor<4x128xf16> to tensor<4x64xf16>
    %x2 = tensor.extract_slice %x[0, 1] [4, 64] [1, 2] : tensor<4x128xf16> to tensor<4x64xf16>
    %x1c = arith.mulf %x1, %c : tensor<4x64xf16>
    %x2s = arith.mulf %x2, %s : tensor<4x64xf16>
    %y1 = arith.subf %x1c, %x2s : tensor<4x64xf16>
    %x2c = arith.mulf %x2, %c : tensor<4x64xf16>
    %x1s = arith.mulf %x1, %s : tensor<4x64xf16>
    %y2 = arith.addf %x2c, %x1s : tensor<4x64xf16>
    %out = tensor.concat dim(1) %y1, %y2 : (tensor<4x64xf16>, tensor<4x64xf16>) -> tensor<4x128xf16>
    %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<4x128xindex>
    ktdp.store %out, %ty : tensor<4x128xf16>, <4x128xindex>
    return
  }
}
