// lx_resident_tiles.mlir - realworld/lx_resident_copy.mlir with a copy of
// its own per tile: the same view over three memories (rows 0..95 in
// global memory at 0, rows 96..127 in tile 0's LX at 12288, column-major,
// rows 128..191 in tile 1's LX at 16384) is loaded whole and tile t stores
// it at rows 192t..192t + 191 of a 384x64 output at 24576:
//   OUT[192t + i, j] = G[i, j]                       i <  96
//                    = LX0[12288 + (i - 96) + 64j]   96 <= i < 128
//                    = LX1[16384 + 64(i - 128) + j]  128 <= i < 192
// The tiles store different bytes, so each keeps its stores and every
// tile needs the other's part: the copies stay (ResidentCopies.cpp), where
// lx_resident_copy's tiles store one output and each stores its own part
// alone (DuplicateStores.cpp).
#g   = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#l0  = affine_set<(d0, d1) : (d0 - 96 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#l1  = affine_set<(d0, d1) : (d0 - 128 >= 0, -d0 + 191 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#out = affine_set<(d0, d1) : (d0 >= 0, -d0 + 383 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 191 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @lx_resident_tiles() attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %g = arith.constant 0 : index
    %lx0 = arith.constant 12288 : index
    %lx1 = arith.constant 16384 : index
    %out = arith.constant 24576 : index
    %G = ktdp.construct_memory_view %g, sizes: [96, 64], strides: [64, 1] {coordinate_set = #g, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
    %L0 = ktdp.construct_memory_view %lx0, sizes: [32, 64], strides: [1, 64] {coordinate_set = #l0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<32x64xf16, strided<[1, 64]>>
    %L1 = ktdp.construct_memory_view %lx1, sizes: [64, 64], strides: [64, 1] {coordinate_set = #l1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<64x64xf16>
    %D = ktdp.construct_distributed_memory_view(%G, %L0, %L1 : memref<96x64xf16>, memref<32x64xf16, strided<[1, 64]>>, memref<64x64xf16>) : memref<192x64xf16>
    %pid = ktdp.get_compute_tile_id : index
    %c192 = arith.constant 192 : index
    %row = arith.muli %pid, %c192 : index
    %O = ktdp.construct_memory_view %out, sizes: [384, 64], strides: [64, 1] {coordinate_set = #out, memory_space = #ktdp.memory_space<global>} : memref<384x64xf16>
    %t = ktdp.construct_access_tile %D[%c0, %c0] {access_tile_set = #all, access_tile_order = #id2} : memref<192x64xf16> -> !ktdp.access_tile<192x64xindex>
    %v = ktdp.load %t : <192x64xindex> -> tensor<192x64xf16>
    %to = ktdp.construct_access_tile %O[%row, %c0] {access_tile_set = #all, access_tile_order = #id2} : memref<384x64xf16> -> !ktdp.access_tile<192x64xindex>
    ktdp.store %v, %to : tensor<192x64xf16>, <192x64xindex>
    return
  }
}
