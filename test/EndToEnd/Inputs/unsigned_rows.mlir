// unsigned_rows.mlir - unsigned-compare loops over run-time bounds that
// cannot be negative: rows dealt cyclically over a [4] grid up to a
// runtime_arg row count (positive by definition) starting at the tile id,
// and in each row a loop of `k` trips (a runtime_arg too) carrying an f16
// sum of the row in iter_args. Both compares are the same signed and
// unsigned, so the scheduler compiles them as signed loops.
//
// Computes, for r < n (at most 64), c < 128, all values f16:
//   Y[r, c] = k-fold f16 sum of X[r, c]

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @unsigned_rows(%x_ptr: index, // X: 64x128 f16, row-major
                           %y_ptr: index, // Y: 64x128 f16, row-major (output)
                           %n_arg: !ktdp.runtime_arg<index, upperbound=64>,
                           %k_arg: !ktdp.runtime_arg<index, upperbound=8>)
      attributes {grid = [4]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %zeros = arith.constant dense<0.0> : tensor<1x128xf16>
    %n = ktdp.runtime_arg_extract value from %n_arg : !ktdp.runtime_arg<index, upperbound=64> -> index
    %k = ktdp.runtime_arg_extract value from %k_arg : !ktdp.runtime_arg<index, upperbound=8> -> index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    scf.for unsigned %r = %pid to %n step %c4 {
      %tx = ktdp.construct_access_tile %X[%r, %c0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
      %acc = scf.for unsigned %t = %c0 to %k step %c1 iter_args(%a = %zeros) -> tensor<1x128xf16> {
        %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
        %a2 = arith.addf %a, %x : tensor<1x128xf16>
        scf.yield %a2 : tensor<1x128xf16>
      }
      %ty = ktdp.construct_access_tile %Y[%r, %c0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %acc, %ty : tensor<1x128xf16>, <1x128xindex>
    }
    return
  }
}
