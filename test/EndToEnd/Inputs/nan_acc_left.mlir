// nan_acc_left.mlir - Triton-style row maxima and minima of a 16x256 f16
// matrix that may hold NaN, written with the accumulator on the compare's
// LEFT, as Triton emits some max spellings; one row per iteration, rows
// dealt out cyclically over a [8, 1] grid.
//
// Computes, for r < n_rows (16), all values f16, each a sequential fold in
// column order of  acc = cmp(acc, x) ? acc : x  from the init:
//   SMAX[r] = linalg.reduce, cmpf ogt %acc, %in, init -inf
//   SMIN[r] = linalg.reduce, cmpf olt %acc, %in, init +inf
//   LMAX[r] = scf.for over the row's four 1x64 column tiles carrying a
//             tensor<1xf16> in iter_args, each tile folded by a
//             linalg.generic reduction (cmpf oge %acc, %in) from it
//   LMIN[r] = the same loop with cmpf ole, from +inf
// A NaN element replaces the accumulator (the ordered compare is false) and
// the next element replaces the NaN (the compare is false again), so each
// result is the extremum of the elements after the row's last NaN: NaN when
// the last element is NaN, the init when there is none after it.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#v_set = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 255 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0)>
module {
  func.func @nan_acc_left(%x_ptr: index,    // X: 16x256 f16 (input)
                          %smax_ptr: index, // SMAX: 16 f16 (output)
                          %smin_ptr: index, // SMIN: 16 f16 (output)
                          %lmax_ptr: index, // LMAX: 16 f16 (output)
                          %lmin_ptr: index, // LMIN: 16 f16 (output)
                          %n_rows: index)   // rows to process: 16
      attributes {grid = [8, 1]} {
    %tid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %ninf = arith.constant 0xFC00 : f16  // -inf
    %pinf = arith.constant 0x7C00 : f16  // +inf
    %X = ktdp.construct_memory_view %x_ptr, sizes: [16, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<16x256xf16>
    %SMAX = ktdp.construct_memory_view %smax_ptr, sizes: [16], strides: [1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<16xf16>
    %SMIN = ktdp.construct_memory_view %smin_ptr, sizes: [16], strides: [1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<16xf16>
    %LMAX = ktdp.construct_memory_view %lmax_ptr, sizes: [16], strides: [1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<16xf16>
    %LMIN = ktdp.construct_memory_view %lmin_ptr, sizes: [16], strides: [1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<16xf16>
    scf.for %r = %tid to %n_rows step %c8 : index {
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<16x256xf16> -> !ktdp.access_tile<1x256xindex>
      %x = ktdp.load %tx : <1x256xindex> -> tensor<1x256xf16>
      %max_init = tensor.splat %ninf : tensor<1xf16>
      %min_init = tensor.splat %pinf : tensor<1xf16>
      %smax = linalg.reduce ins(%x : tensor<1x256xf16>) outs(%max_init : tensor<1xf16>) dimensions = [1]
        (%in : f16, %acc : f16) {
          %gt = arith.cmpf ogt, %acc, %in : f16
          %mx = arith.select %gt, %acc, %in : f16
          linalg.yield %mx : f16
        }
      %smin = linalg.reduce ins(%x : tensor<1x256xf16>) outs(%min_init : tensor<1xf16>) dimensions = [1]
        (%in : f16, %acc : f16) {
          %lt = arith.cmpf olt, %acc, %in : f16
          %mn = arith.select %lt, %acc, %in : f16
          linalg.yield %mn : f16
        }
      %lmax, %lmin = scf.for %off = %c0 to %c256 step %c64 iter_args(%amax = %max_init, %amin = %min_init) -> (tensor<1xf16>, tensor<1xf16>) {
        %tb = ktdp.construct_access_tile %X[%r, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<16x256xf16> -> !ktdp.access_tile<1x64xindex>
        %b = ktdp.load %tb : <1x64xindex> -> tensor<1x64xf16>
        %m2 = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]} ins(%b : tensor<1x64xf16>) outs(%amax : tensor<1xf16>) {
        ^bb0(%e : f16, %acc : f16):
          %ge = arith.cmpf oge, %acc, %e : f16
          %mx = arith.select %ge, %acc, %e : f16
          linalg.yield %mx : f16
        } -> tensor<1xf16>
        %n2 = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]} ins(%b : tensor<1x64xf16>) outs(%amin : tensor<1xf16>) {
        ^bb0(%e : f16, %acc : f16):
          %le = arith.cmpf ole, %acc, %e : f16
          %mn = arith.select %le, %acc, %e : f16
          linalg.yield %mn : f16
        } -> tensor<1xf16>
        scf.yield %m2, %n2 : tensor<1xf16>, tensor<1xf16>
      }
      %t1 = ktdp.construct_access_tile %SMAX[%r] {access_tile_set = #one, access_tile_order = #id1} : memref<16xf16> -> !ktdp.access_tile<1xindex>
      %t2 = ktdp.construct_access_tile %SMIN[%r] {access_tile_set = #one, access_tile_order = #id1} : memref<16xf16> -> !ktdp.access_tile<1xindex>
      %t3 = ktdp.construct_access_tile %LMAX[%r] {access_tile_set = #one, access_tile_order = #id1} : memref<16xf16> -> !ktdp.access_tile<1xindex>
      %t4 = ktdp.construct_access_tile %LMIN[%r] {access_tile_set = #one, access_tile_order = #id1} : memref<16xf16> -> !ktdp.access_tile<1xindex>
      ktdp.store %smax, %t1 : tensor<1xf16>, <1xindex>
      ktdp.store %smin, %t2 : tensor<1xf16>, <1xindex>
      ktdp.store %lmax, %t3 : tensor<1xf16>, <1xindex>
      ktdp.store %lmin, %t4 : tensor<1xf16>, <1xindex>
      scf.yield
    }
    return
  }
}
