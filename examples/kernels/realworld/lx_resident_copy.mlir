// lx_resident_copy.mlir - the field guide's copy out of a distributed view
// over three memories (§1b.6) as the real kernel writes it: the scratchpad
// (LX) parts hold data from before the kernel, which only reads them.
//
// Computes, for i < 192, j < 64, all values f16 (every tile writes the same
// copy):
//   OUT[i, j] = G[i, j]                          i <  96
//             = LX0[12288 + (i - 96) + 64j]      96 <= i < 128
//             = LX1[16384 + 64(i - 128) + j]     128 <= i < 192
//
// D is a 192x64 distributed view whose parts' coordinate sets use global
// row numbers (the local index is global minus the part's lower bound):
//   * rows 0..95: global memory at literal element address 0 (96x64,
//     row-major), named `@0`;
//   * rows 96..127: tile 0's LX at element 12288, column-major (sizes
//     [32, 64], strides [1, 64]), named `lx0@12288`;
//   * rows 128..191: tile 1's LX at element 16384, row-major (64x64), named
//     `lx1@16384`.
// Grid [2]. One 192x64 load reads the whole view and one store writes it to
// global memory at 24576 (`@24576`). Nothing in the kernel writes the LX
// parts: an earlier kernel or the host put their contents there, which
// `ktflow interp --input lx0@12288=... --input lx1@16384=...` gives (zeros
// without; docs/interpreter.md). The scheduler reads each LX part on its
// tile and copies it to the other; tile 0 reads its column-major part
// through the row-major 64x32 view of the same elements and every tile
// stores the copy transposed (test/EndToEnd/realworld-lx-resident.test,
// with a row-major variant); lx_mixed_copy.mlir is the variant whose tiles
// fill their parts first.

#g   = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#l0  = affine_set<(d0, d1) : (d0 - 96 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#l1  = affine_set<(d0, d1) : (d0 - 128 >= 0, -d0 + 191 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 191 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @lx_resident_copy() attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %g = arith.constant 0 : index
    %lx0 = arith.constant 12288 : index
    %lx1 = arith.constant 16384 : index
    %out = arith.constant 24576 : index
    %G = ktdp.construct_memory_view %g, sizes: [96, 64], strides: [64, 1] {coordinate_set = #g, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
    %L0 = ktdp.construct_memory_view %lx0, sizes: [32, 64], strides: [1, 64] {coordinate_set = #l0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<32x64xf16, strided<[1, 64]>>
    %L1 = ktdp.construct_memory_view %lx1, sizes: [64, 64], strides: [64, 1] {coordinate_set = #l1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<64x64xf16>
    %D = ktdp.construct_distributed_memory_view(%G, %L0, %L1 : memref<96x64xf16>, memref<32x64xf16, strided<[1, 64]>>, memref<64x64xf16>) : memref<192x64xf16>
    %O = ktdp.construct_memory_view %out, sizes: [192, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<192x64xf16>
    %t = ktdp.construct_access_tile %D[%c0, %c0] {access_tile_set = #all, access_tile_order = #id2} : memref<192x64xf16> -> !ktdp.access_tile<192x64xindex>
    %v = ktdp.load %t : <192x64xindex> -> tensor<192x64xf16>
    %to = ktdp.construct_access_tile %O[%c0, %c0] {access_tile_set = #all, access_tile_order = #id2} : memref<192x64xf16> -> !ktdp.access_tile<192x64xindex>
    ktdp.store %v, %to : tensor<192x64xf16>, <192x64xindex>
    return
  }
}
