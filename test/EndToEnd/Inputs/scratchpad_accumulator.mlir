// scratchpad_accumulator.mlir - a running sum of rows kept in the tile's
// scratchpad across loop iterations.
//
// Computes, in f32, for 0 <= j < 64:
//   L[j]    = X[0, j]                           (stored before the loop)
//   Y[i, j] = L[j] = L[j] + X[i, j]             for i = 1 .. 63 in order
//
// Arguments (all `index`, tensor start addresses counted in f32 elements):
//   %x  X : 64x64 f32, row-major, input
//   %y  Y : 64x64 f32, row-major, output (row 0 is not written)
// Grid: [1]. Each iteration of the scf.for loads L from the scratchpad and
// stores the new sum back: the next iteration's load must see this store,
// which nothing ordered (Y wrong on sample_device and spyre_like). The
// scheduler refuses the load.
// Memory space spelling: #ktdp.memory_space<global> and <ct_local, ct_id = 0>.

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @scratchpad_accumulator(%x: index, %y: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf32>
    %Y = ktdp.construct_memory_view %y, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf32>
    %L = ktdp.construct_memory_view %c0, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<1x64xf32, #ktdp.memory_space<ct_local, ct_id = 0>>
    %tl = ktdp.construct_access_tile %L[0, 0] {access_tile_set = #row, access_tile_order = #id} : memref<1x64xf32, #ktdp.memory_space<ct_local, ct_id = 0>> -> !ktdp.access_tile<1x64xindex>
    %t0 = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #row, access_tile_order = #id} : memref<64x64xf32> -> !ktdp.access_tile<1x64xindex>
    %v0 = ktdp.load %t0 : <1x64xindex> -> tensor<1x64xf32>
    ktdp.store %v0, %tl : tensor<1x64xf32>, <1x64xindex>
    scf.for %i = %c1 to %c64 step %c1 {
      %tx = ktdp.construct_access_tile %X[%i, 0] {access_tile_set = #row, access_tile_order = #id} : memref<64x64xf32> -> !ktdp.access_tile<1x64xindex>
      %ty = ktdp.construct_access_tile %Y[%i, 0] {access_tile_set = #row, access_tile_order = #id} : memref<64x64xf32> -> !ktdp.access_tile<1x64xindex>
      %v = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf32>
      %a = ktdp.load %tl : <1x64xindex> -> tensor<1x64xf32>
      %s = arith.addf %a, %v : tensor<1x64xf32>
      ktdp.store %s, %tl : tensor<1x64xf32>, <1x64xindex>
      ktdp.store %s, %ty : tensor<1x64xf32>, <1x64xindex>
    }
    return
  }
}
