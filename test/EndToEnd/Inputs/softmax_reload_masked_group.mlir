// softmax_reload_masked_group.mlir - softmax_reload_dyn.mlir whose second
// pass also adds the first pass's row max (a value of the first
// compute group), so the store and the masked reload are one group: refused.

#x_set = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#to_row = affine_map<(d0, d1) -> (d0)>
#bcast = affine_map<(d0, d1) -> (d0)>
module {
  func.func @softmax_reload_masked_group(%x_ptr: index, %y_ptr: index, %n_rows: index) attributes {grid = [4, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c16 = arith.constant 16 : index
    %ninf = arith.constant 0xFC00 : f16
    %zero = arith.constant 0.0 : f32
    %row0 = arith.muli %pid, %c16 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [%n_rows, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<?x256xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [%n_rows, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<?x256xf16>
    %tx = ktdp.construct_access_tile %X[%row0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<?x256xf16> -> !ktdp.access_tile<16x256xindex>
    %x = ktdp.load %tx : <16x256xindex> -> tensor<16x256xf16>
    %max_init = tensor.splat %ninf : tensor<16xf16>
    %max = linalg.reduce { arith.maxnumf } ins(%x : tensor<16x256xf16>) outs(%max_init : tensor<16xf16>) dimensions = [1]
    %mb_e = tensor.empty() : tensor<16x256xf16>
    %mb = linalg.broadcast ins(%max : tensor<16xf16>) outs(%mb_e : tensor<16x256xf16>) dimensions = [1]
    %shifted = arith.subf %x, %mb : tensor<16x256xf16>
    %e = math.exp %shifted : tensor<16x256xf16>
    %ty = ktdp.construct_access_tile %Y[%row0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<?x256xf16> -> !ktdp.access_tile<16x256xindex>
    ktdp.store %e, %ty : tensor<16x256xf16>, <16x256xindex>
    %e2 = ktdp.load %ty : <16x256xindex> -> tensor<16x256xf16>
    %sum_init = tensor.splat %zero : tensor<16xf32>
    %sum = linalg.generic {indexing_maps = [#id2, #to_row], iterator_types = ["parallel", "reduction"]} ins(%e2 : tensor<16x256xf16>) outs(%sum_init : tensor<16xf32>) {
    ^bb0(%in: f16, %acc: f32):
      %w = arith.extf %in : f16 to f32
      %a = arith.addf %w, %acc : f32
      linalg.yield %a : f32
    } -> tensor<16xf32>
    %empty = tensor.empty() : tensor<16x256xf16>
    %e3 = arith.addf %e2, %mb : tensor<16x256xf16>
    %y = linalg.generic {indexing_maps = [#id2, #to_row, #id2], iterator_types = ["parallel", "parallel"]} ins(%e3, %sum : tensor<16x256xf16>, tensor<16xf32>) outs(%empty : tensor<16x256xf16>) {
    ^bb0(%in: f16, %s: f32, %out: f16):
      %w = arith.extf %in : f16 to f32
      %q = arith.divf %w, %s : f32
      %t = arith.truncf %q : f32 to f16
      linalg.yield %t : f16
    } -> tensor<16x256xf16>
    ktdp.store %y, %ty : tensor<16x256xf16>, <16x256xindex>
    return
  }
}
