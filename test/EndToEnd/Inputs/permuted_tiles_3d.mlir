// permuted_tiles_3d.mlir - access tiles with a permuted order written in
// the kernel: each batch's 16x32 block read transposed through the order
// (d0, d2, d1), and a 3-d tile stored through the order (d1, d0, d2).
//
// Computes, for 0 <= b < 4, 0 <= k < 32, 0 <= n < 16 (A: 4x16x32 f16
// input, Y: 4x32x16 f16 and Z: 32x4x16 f16 outputs):
//   Y[b, k, n] = A[b, n, k] * 2
//   Z[k, b, n] = A[b, n, k] * 2
// Grid [4]: tile b computes batch b.
#a_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 31 >= 0)>
#y_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0, d2 >= 0, -d2 + 15 >= 0)>
#z_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 15 >= 0)>
#a_blk = affine_set<(d0, d1, d2) : (d0 == 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 31 >= 0)>
#y_blk = affine_set<(d0, d1, d2) : (d0 == 0, d1 >= 0, -d1 + 31 >= 0, d2 >= 0, -d2 + 15 >= 0)>
#z_blk = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 31 >= 0, d1 == 0, d2 >= 0, -d2 + 15 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#inner = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
#outer = affine_map<(d0, d1, d2) -> (d1, d0, d2)>
module {
  func.func @permuted_3d(%a_ptr: index, %y_ptr: index, %z_ptr: index) attributes {grid = [4]} {
    %b = ktdp.get_compute_tile_id : index
    %two = arith.constant dense<2.0> : tensor<1x32x16xf16>
    %A = ktdp.construct_memory_view %a_ptr, sizes: [4, 16, 32], strides: [512, 32, 1] {coordinate_set = #a_set, memory_space = #ktdp.memory_space<global>} : memref<4x16x32xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [4, 32, 16], strides: [512, 16, 1] {coordinate_set = #y_set, memory_space = #ktdp.memory_space<global>} : memref<4x32x16xf16>
    %Z = ktdp.construct_memory_view %z_ptr, sizes: [32, 4, 16], strides: [64, 16, 1] {coordinate_set = #z_set, memory_space = #ktdp.memory_space<global>} : memref<32x4x16xf16>
    %ta = ktdp.construct_access_tile %A[%b, 0, 0] {access_tile_set = #a_blk, access_tile_order = #inner} : memref<4x16x32xf16> -> !ktdp.access_tile<1x32x16xindex>
    %a = ktdp.load %ta : <1x32x16xindex> -> tensor<1x32x16xf16>
    %y = arith.mulf %a, %two : tensor<1x32x16xf16>
    %ty = ktdp.construct_access_tile %Y[%b, 0, 0] {access_tile_set = #y_blk, access_tile_order = #id3} : memref<4x32x16xf16> -> !ktdp.access_tile<1x32x16xindex>
    ktdp.store %y, %ty : tensor<1x32x16xf16>, <1x32x16xindex>
    %tz = ktdp.construct_access_tile %Z[0, %b, 0] {access_tile_set = #z_blk, access_tile_order = #outer} : memref<32x4x16xf16> -> !ktdp.access_tile<1x32x16xindex>
    ktdp.store %y, %tz : tensor<1x32x16xf16>, <1x32x16xindex>
    return
  }
}
