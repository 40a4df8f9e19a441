// combo_rope_bf16.mlir - the rotate-half RoPE of rope_concat_loop.mlir in bf16 (f32 arithmetic):
// positions, each of 8 tiles looping over 4 blocks of 4 positions
// (Triton-style index arithmetic): the halves are sliced from the bf16
// block before they are extended, and the output block is tensor.concat
// of the rotated halves along the columns, stored at once.
//
// For 0 <= p < 128, 0 <= j < 64 (x1 = X[p, j], x2 = X[p, j + 64],
// c = COS[p, j], s = SIN[p, j], f32 arithmetic, each product rounded to
// f32, the result to f16):
//   Y[p, j]      = f16(x1 * c - x2 * s)
//   Y[p, j + 64] = f16(x2 * c + x1 * s)
// Arguments: X 128x128 f16, COS 128x64 f16, SIN 128x64 bf16 (inputs), Y
// 128x128 bf16 (output).
#x = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#half = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @rope_concat_bf16(%x_ptr: index, %cos_ptr: index, %sin_ptr: index, %y_ptr: index) attributes {grid = [8]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %first = arith.muli %pid, %c16 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [128, 128], strides: [128, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<128x128xbf16>
    %COS = ktdp.construct_memory_view %cos_ptr, sizes: [128, 64], strides: [64, 1] {coordinate_set = #t, memory_space = #ktdp.memory_space<global>} : memref<128x64xbf16>
    %SIN = ktdp.construct_memory_view %sin_ptr, sizes: [128, 64], strides: [64, 1] {coordinate_set = #t, memory_space = #ktdp.memory_space<global>} : memref<128x64xbf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [128, 128], strides: [128, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<128x128xbf16>
    scf.for %b = %c0 to %c4 step %c1 {
      %off = arith.muli %b, %c4 : index
      %row = arith.addi %first, %off : index
      %tx = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<128x128xbf16> -> !ktdp.access_tile<4x128xindex>
      %tc = ktdp.construct_access_tile %COS[%row, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<128x64xbf16> -> !ktdp.access_tile<4x64xindex>
      %ts = ktdp.construct_access_tile %SIN[%row, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<128x64xbf16> -> !ktdp.access_tile<4x64xindex>
      %xh = ktdp.load %tx : <4x128xindex> -> tensor<4x128xbf16>
      %x1h = tensor.extract_slice %xh[0, 0] [4, 64] [1, 1] : tensor<4x128xbf16> to tensor<4x64xbf16>
      %x2h = tensor.extract_slice %xh[0, 64] [4, 64] [1, 1] : tensor<4x128xbf16> to tensor<4x64xbf16>
      %ch = ktdp.load %tc : <4x64xindex> -> tensor<4x64xbf16>
      %sh = ktdp.load %ts : <4x64xindex> -> tensor<4x64xbf16>
      %x1 = arith.extf %x1h : tensor<4x64xbf16> to tensor<4x64xf32>
      %x2 = arith.extf %x2h : tensor<4x64xbf16> to tensor<4x64xf32>
      %c = arith.extf %ch : tensor<4x64xbf16> to tensor<4x64xf32>
      %s = arith.extf %sh : tensor<4x64xbf16> to tensor<4x64xf32>
      %x1c = arith.mulf %x1, %c : tensor<4x64xf32>
      %x2s = arith.mulf %x2, %s : tensor<4x64xf32>
      %y1 = arith.subf %x1c, %x2s : tensor<4x64xf32>
      %x2c = arith.mulf %x2, %c : tensor<4x64xf32>
      %x1s = arith.mulf %x1, %s : tensor<4x64xf32>
      %y2 = arith.addf %x2c, %x1s : tensor<4x64xf32>
      %y1h = arith.truncf %y1 : tensor<4x64xf32> to tensor<4x64xbf16>
      %y2h = arith.truncf %y2 : tensor<4x64xf32> to tensor<4x64xbf16>
      %out = tensor.concat dim(1) %y1h, %y2h : (tensor<4x64xbf16>, tensor<4x64xbf16>) -> tensor<4x128xbf16>
      %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<128x128xbf16> -> !ktdp.access_tile<4x128xindex>
      ktdp.store %out, %ty : tensor<4x128xbf16>, <4x128xindex>
    }
    return
  }
}
