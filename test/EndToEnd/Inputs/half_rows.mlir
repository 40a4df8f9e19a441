// half_rows.mlir - C = A + B on the first half of each compute tile's rows.
//
// M is a runtime argument (a multiple of 8, at most 64). Compute tile t of 4
// owns rows [t * M/4, (t + 1) * M/4) and adds only the first M/8 of them, so
// the loop's trip count is only known at run time and C's other rows keep
// their initial contents: a schedule that merges loop iterations must not
// write past the rows the loop covers.

#rows = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @half_rows(%M_arg: !ktdp.runtime_arg<index, granularity=8, upperbound=64>, %a: index, %b: index, %c: index) attributes {grid = [4]} {
  %t = ktdp.get_compute_tile_id : index
  %M = ktdp.runtime_arg_extract value from %M_arg : !ktdp.runtime_arg<index, granularity=8, upperbound=64> -> index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %owned = arith.divui %M, %c4 : index
  %half = arith.divui %M, %c8 : index
  %start = arith.muli %t, %owned : index
  %A = ktdp.construct_memory_view %a, sizes: [%M, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  %B = ktdp.construct_memory_view %b, sizes: [%M, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  %C = ktdp.construct_memory_view %c, sizes: [%M, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  scf.for %i = %c0 to %half step %c1 {
    %ta = ktdp.construct_access_tile %A[%start + %i, 0] {access_tile_set = #row, access_tile_order = #id} : memref<?x64xf16> -> !ktdp.access_tile<1x64xindex>
    %tb = ktdp.construct_access_tile %B[%start + %i, 0] {access_tile_set = #row, access_tile_order = #id} : memref<?x64xf16> -> !ktdp.access_tile<1x64xindex>
    %tc = ktdp.construct_access_tile %C[%start + %i, 0] {access_tile_set = #row, access_tile_order = #id} : memref<?x64xf16> -> !ktdp.access_tile<1x64xindex>
    %x = ktdp.load %ta : <1x64xindex> -> tensor<1x64xf16>
    %y = ktdp.load %tb : <1x64xindex> -> tensor<1x64xf16>
    %e = tensor.empty() : tensor<1x64xf16>
    %z = linalg.add ins(%x, %y : tensor<1x64xf16>, tensor<1x64xf16>) outs(%e : tensor<1x64xf16>) -> tensor<1x64xf16>
    ktdp.store %z, %tc : tensor<1x64xf16>, <1x64xindex>
  }
  return
}
