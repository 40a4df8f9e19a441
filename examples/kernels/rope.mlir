// rope.mlir - rotary position embedding (rotate-half form) with cos/sin
// tables, at literal global addresses.
//
// Computes, for 0 <= p < 128 (position), 0 <= j < 32, all arithmetic in f32
// (x1 = X[p, j], x2 = X[p, j + 32], c = COS[p, j], s = SIN[p, j], each
// extended to f32; results rounded to f16, nearest even):
//   Y[p, j]      = f16(x1 * c - x2 * s)
//   Y[p, j + 32] = f16(x2 * c + x1 * s)
// (each product rounded to f32 before the add/sub).
//
// Arguments: none. The tensors sit at literal start addresses in global
// memory, counted in f16 elements (the kernel hard-codes them, as a compiler
// that allocated the buffers would):
//   X   : 128x64 f16, row-major, elements [0, 8192),      input
//   COS : 128x32 f16, row-major, elements [8192, 12288),  input
//   SIN : 128x32 f16, row-major, elements [12288, 16384), input
//   Y   : 128x64 f16, row-major, elements [16384, 24576), output
// Grid: [32]. Tile t handles positions [4t, 4t + 4): the two halves of X and
// Y are 4x32 tiles anchored at [4t, 0] and [4t, 32].
// Memory space spelling: #ktdp.spyre_memory_space<HBM>.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#table_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#half = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @rope() attributes {grid = [32]} {
    %id = ktdp.get_compute_tile_id : index
    %c4 = arith.constant 4 : index
    %pos = arith.muli %id, %c4 : index
    %x_addr = arith.constant 0 : index
    %cos_addr = arith.constant 8192 : index
    %sin_addr = arith.constant 12288 : index
    %y_addr = arith.constant 16384 : index
    %X = ktdp.construct_memory_view %x_addr, sizes: [128, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.spyre_memory_space<HBM>} : memref<128x64xf16>
    %COS = ktdp.construct_memory_view %cos_addr, sizes: [128, 32], strides: [32, 1] {coordinate_set = #table_set, memory_space = #ktdp.spyre_memory_space<HBM>} : memref<128x32xf16>
    %SIN = ktdp.construct_memory_view %sin_addr, sizes: [128, 32], strides: [32, 1] {coordinate_set = #table_set, memory_space = #ktdp.spyre_memory_space<HBM>} : memref<128x32xf16>
    %Y = ktdp.construct_memory_view %y_addr, sizes: [128, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.spyre_memory_space<HBM>} : memref<128x64xf16>

    %tx1 = ktdp.construct_access_tile %X[%pos, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<4x32xindex>
    %tx2 = ktdp.construct_access_tile %X[%pos, 32] {access_tile_set = #half, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<4x32xindex>
    %tc = ktdp.construct_access_tile %COS[%pos, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<128x32xf16> -> !ktdp.access_tile<4x32xindex>
    %ts = ktdp.construct_access_tile %SIN[%pos, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<128x32xf16> -> !ktdp.access_tile<4x32xindex>
    %ty1 = ktdp.construct_access_tile %Y[%pos, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<4x32xindex>
    %ty2 = ktdp.construct_access_tile %Y[%pos, 32] {access_tile_set = #half, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<4x32xindex>

    %x1h = ktdp.load %tx1 : <4x32xindex> -> tensor<4x32xf16>
    %x2h = ktdp.load %tx2 : <4x32xindex> -> tensor<4x32xf16>
    %ch = ktdp.load %tc : <4x32xindex> -> tensor<4x32xf16>
    %sh = ktdp.load %ts : <4x32xindex> -> tensor<4x32xf16>
    %x1 = arith.extf %x1h : tensor<4x32xf16> to tensor<4x32xf32>
    %x2 = arith.extf %x2h : tensor<4x32xf16> to tensor<4x32xf32>
    %c = arith.extf %ch : tensor<4x32xf16> to tensor<4x32xf32>
    %s = arith.extf %sh : tensor<4x32xf16> to tensor<4x32xf32>

    %x1c = arith.mulf %x1, %c : tensor<4x32xf32>
    %x2s = arith.mulf %x2, %s : tensor<4x32xf32>
    %y1 = arith.subf %x1c, %x2s : tensor<4x32xf32>
    %x2c = arith.mulf %x2, %c : tensor<4x32xf32>
    %x1s = arith.mulf %x1, %s : tensor<4x32xf32>
    %y2 = arith.addf %x2c, %x1s : tensor<4x32xf32>

    %y1h = arith.truncf %y1 : tensor<4x32xf32> to tensor<4x32xf16>
    %y2h = arith.truncf %y2 : tensor<4x32xf32> to tensor<4x32xf16>
    ktdp.store %y1h, %ty1 : tensor<4x32xf16>, <4x32xindex>
    ktdp.store %y2h, %ty2 : tensor<4x32xf16>, <4x32xindex>
    return
  }
}
