// Block distribution with the row end clamped by the select-min idiom:
// tile t doubles rows [32t, min(32t + 32, n_rows)) of a 128x64 f16 X.
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @double_rows(%x_ptr: index, %y_ptr: index, %n_rows: index)
      attributes {grid = [4, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [128, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [128, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
    %start = arith.muli %pid, %c32 : index
    %end0 = arith.addi %start, %c32 : index
    %lt = arith.cmpi slt, %end0, %n_rows : index
    %end = arith.select %lt, %end0, %n_rows : index
    scf.for %r = %start to %end step %c1 {
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<1x64xindex>
      %x = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
      %y = arith.addf %x, %x : tensor<1x64xf16>
      %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<1x64xindex>
      ktdp.store %y, %ty : tensor<1x64xf16>, <1x64xindex>
    }
    return
  }
}
