// combo_if_loop_heads.mlir - a loop over two heads of a loaded 8x256 f16
// block, the head's columns sliced at the loop's run-time offset and an
// scf.if on the head choosing the transform: head 0 scaled by 0.125, head
// 1 shifted by 1. Grid [8].
//
// For h < 2, r < 64, j < 128 (f16):
//   K[64 h + r, j] = h == 0 ? Q[r, j] * 0.125 : Q[r, 128 + j] + 1
#q = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#k = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#head = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @if_loop_heads_kernel(%q_ptr: index,   // Q: 64x256 f16 (input)
                                  %k_ptr: index)   // K: 128x128 f16 (output)
      attributes {grid = [8]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %row = arith.muli %pid, %c8 : index
    %scale = arith.constant dense<0.125> : tensor<8x128xf16>
    %one = arith.constant dense<1.0> : tensor<8x128xf16>
    %Q = ktdp.construct_memory_view %q_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #q, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %K = ktdp.construct_memory_view %k_ptr, sizes: [128, 128], strides: [128, 1] {coordinate_set = #k, memory_space = #ktdp.memory_space<global>} : memref<128x128xf16>
    %tq = ktdp.construct_access_tile %Q[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<8x256xindex>
    %qb = ktdp.load %tq : <8x256xindex> -> tensor<8x256xf16>
    scf.for %h = %c0 to %c2 step %c1 {
      %col = arith.muli %h, %c128 : index
      %base = arith.muli %h, %c64 : index
      %krow = arith.addi %base, %row : index
      %qh = tensor.extract_slice %qb[0, %col] [8, 128] [1, 1] : tensor<8x256xf16> to tensor<8x128xf16>
      %first = arith.cmpi eq, %h, %c0 : index
      %kh = scf.if %first -> (tensor<8x128xf16>) {
        %s = arith.mulf %qh, %scale : tensor<8x128xf16>
        scf.yield %s : tensor<8x128xf16>
      } else {
        %a = arith.addf %qh, %one : tensor<8x128xf16>
        scf.yield %a : tensor<8x128xf16>
      }
      %tk = ktdp.construct_access_tile %K[%krow, 0] {access_tile_set = #head, access_tile_order = #id2} : memref<128x128xf16> -> !ktdp.access_tile<8x128xindex>
      ktdp.store %kh, %tk : tensor<8x128xf16>, <8x128xindex>
    }
    return
  }
}
