// persistent_rows_while.mlir - a persistent-kernel style leaky ReLU: each
// program walks its rows with a grid-stride `scf.while` (Triton's
// `while row < n_rows: ...; row += num_programs`), written in the
// real-world spellings of ktir-field-guide.md §5: `index` pointer
// arguments with trailing comments, a `[8, 1]` grid with one
// `get_compute_tile_id : index`, a signed `cmpi slt` condition, hex f16
// literals, a tensor `cmpf` + `select`.
//
// Computes, for 0 <= i < 100, 0 <= j < 256, in f16:
//   Y[i, j] = X[i, j] > 0 ? X[i, j] : X[i, j] * 0.01   (0x211F = 0.01, f16;
//             one rounding; NaN compares false and takes the product)
// Program p handles rows p, p + 8, ... below 100 (13 or 12 rows), one
// 1x256 row per iteration.

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 99 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @leaky_relu_persistent(%in_ptr0: index,   // X: 100x256 f16 (input)
                                   %out_ptr0: index)  // Y: 100x256 f16 (output)
      attributes {grid = [8, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %num_programs = arith.constant 8 : index
    %n_rows = arith.constant 100 : index
    %zero = arith.constant dense<0x0000> : tensor<1x256xf16>
    %slope = arith.constant dense<0x211F> : tensor<1x256xf16>
    %X = ktdp.construct_memory_view %in_ptr0, sizes: [100, 256], strides: [256, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<100x256xf16>
    %Y = ktdp.construct_memory_view %out_ptr0, sizes: [100, 256], strides: [256, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<100x256xf16>
    %last = scf.while (%row = %pid) : (index) -> index {
      %keep_going = arith.cmpi slt, %row, %n_rows : index
      scf.condition(%keep_going) %row : index
    } do {
    ^bb0(%r: index):
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<100x256xf16> -> !ktdp.access_tile<1x256xindex>
      %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<100x256xf16> -> !ktdp.access_tile<1x256xindex>
      %x = ktdp.load %tx : <1x256xindex> -> tensor<1x256xf16>
      %pos = arith.cmpf ogt, %x, %zero : tensor<1x256xf16>
      %scaled = arith.mulf %x, %slope : tensor<1x256xf16>
      %y = arith.select %pos, %x, %scaled : tensor<1x256xi1>, tensor<1x256xf16>
      ktdp.store %y, %ty : tensor<1x256xf16>, <1x256xindex>
      %next = arith.addi %r, %num_programs : index
      scf.yield %next : index
    }
    return
  }
}
