// carried_prefix.mlir - running sums of a row's column blocks over a
// run-time N: Y[r, 128 b + j] = f16(Y[r, 128 (b-1) + j] + X[r, 128 b + j]),
// the running sum carried in iter_args and stored at every trip; the
// loop's result is unused.
//
// Arguments (all `index`): %x X 16x1024 f16 (input), %y Y 16x1024 f16
// (output), %n_rows rows (16), %N row length (min(N, 1024) is summed).
// Grid [4, 1], rows dealt cyclically. Nothing reads the carried value
// after the loop, so only the loop's own channel orders a trip's feed
// after the previous trip's drain.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @carried_prefix(%x: index, %y: index, %n_rows: index, %N: index) attributes {grid = [4, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c128 = arith.constant 128 : index
    %c1024 = arith.constant 1024 : index
    %zeros = arith.constant dense<0.0> : tensor<1x128xf16>
    %n = arith.minsi %N, %c1024 : index
    %X = ktdp.construct_memory_view %x, sizes: [16, 1024], strides: [1024, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<16x1024xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [16, 1024], strides: [1024, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<16x1024xf16>
    scf.for %row = %pid to %n_rows step %c4 : index {
      %unused = scf.for %off = %c0 to %n step %c128 iter_args(%a = %zeros) -> tensor<1x128xf16> {
        %tx = ktdp.construct_access_tile %X[%row, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<16x1024xf16> -> !ktdp.access_tile<1x128xindex>
        %xv = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
        %a2 = arith.addf %a, %xv : tensor<1x128xf16>
        %ty = ktdp.construct_access_tile %Y[%row, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<16x1024xf16> -> !ktdp.access_tile<1x128xindex>
        ktdp.store %a2, %ty : tensor<1x128xf16>, <1x128xindex>
        scf.yield %a2 : tensor<1x128xf16>
      }
    }
    return
  }
}
