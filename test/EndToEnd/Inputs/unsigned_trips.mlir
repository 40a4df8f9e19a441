// unsigned_trips.mlir - an unsigned-compare loop over run-time bounds: each
// tile of a [4] grid adds its row of X to a running f16 sum, trips `lo` to
// `hi` of `scf.for unsigned`, and stores the sum as its row of Y.
//
// Computes, for r < 4, c < 128, all values f16:
//   trips   = hi - lo when lo <= hi compared unsigned, else 0
//   Y[r, c] = trips-fold f16 sum of X[r, c]
// With lo = -2 (2^64 - 2 unsigned) and hi = 3 the loop runs no trips
// (Y = 0); a signed compare would run five. `lo` is a plain `index`
// argument, which may be negative: the scheduler refuses the loop.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @unsigned_trips(%x_ptr: index, // X: 4x128 f16, row-major
                            %y_ptr: index, // Y: 4x128 f16, row-major (output)
                            %lo: index,    // first trip
                            %hi: index)    // trip bound
      attributes {grid = [4]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zeros = arith.constant dense<0.0> : tensor<1x128xf16>
    %X = ktdp.construct_memory_view %x_ptr, sizes: [4, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x128xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [4, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x128xf16>
    %tx = ktdp.construct_access_tile %X[%pid, %c0] {access_tile_set = #blk, access_tile_order = #id2} : memref<4x128xf16> -> !ktdp.access_tile<1x128xindex>
    %acc = scf.for unsigned %t = %lo to %hi step %c1 iter_args(%a = %zeros) -> tensor<1x128xf16> {
      %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
      %a2 = arith.addf %a, %x : tensor<1x128xf16>
      scf.yield %a2 : tensor<1x128xf16>
    }
    %ty = ktdp.construct_access_tile %Y[%pid, %c0] {access_tile_set = #blk, access_tile_order = #id2} : memref<4x128xf16> -> !ktdp.access_tile<1x128xindex>
    ktdp.store %acc, %ty : tensor<1x128xf16>, <1x128xindex>
    return
  }
}
