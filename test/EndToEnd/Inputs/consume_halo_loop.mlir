// consume_halo_loop.mlir - consume_halo_diff's ring shift done once per
// column half inside a loop of two trips (ktdf-unroll-carried-loops
// unrolls it: two tile copies).
//
// Computes, for t < 4, c < 128, all values f16:
//   D[t, c] = f16(X[16t, c] - X[16((t + 3) mod 4) + 15, c])
//
// Grid [4, 1], one tile id: trip j moves the 64 columns at 64 j.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#d_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row1 = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
#prev = affine_set<(p)[c] : (p - (c + 3) mod 4 == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @halo_loop(%x_ptr: index,  // X: 64x128 f16 (input)
                       %d_ptr: index)  // D: 4x128 f16 (output)
      attributes {grid = [4, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c15 = arith.constant 15 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %row0 = arith.muli %pid, %c16 : index
    %last_row = arith.addi %row0, %c15 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %D = ktdp.construct_memory_view %d_ptr, sizes: [4, 128], strides: [128, 1] {coordinate_set = #d_set, memory_space = #ktdp.memory_space<global>} : memref<4x128xf16>
    scf.for %col = %c0 to %c128 step %c64 {
      %tlast = ktdp.construct_access_tile %X[%last_row, %col] {access_tile_set = #row1, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x64xindex>
      %last = ktdp.load %tlast : <1x64xindex> -> tensor<1x64xf16>
      %fut = ktdp.inter_tile_produce producer_tiles_per_group = #all4
          : tensor<1x64xf16> -> !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>>
      {
      ^bb0(%gid: index):
        ktdp.yield_partial %last : tensor<1x64xf16>
      }
      %halo = ktdp.inter_tile_consume(%fut) consumer_tiles_per_group = #all4, producer_dependency_per_consumer = #prev
          : !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16>
      %tfirst = ktdp.construct_access_tile %X[%row0, %col] {access_tile_set = #row1, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x64xindex>
      %first = ktdp.load %tfirst : <1x64xindex> -> tensor<1x64xf16>
      %d = arith.subf %first, %halo : tensor<1x64xf16>
      %td = ktdp.construct_access_tile %D[%pid, %col] {access_tile_set = #row1, access_tile_order = #id2} : memref<4x128xf16> -> !ktdp.access_tile<1x64xindex>
      ktdp.store %d, %td : tensor<1x64xf16>, <1x64xindex>
    }
    return
  }
}
