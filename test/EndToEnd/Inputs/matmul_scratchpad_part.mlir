// matmul_scratchpad_part.mlir - a matrix product whose left operand is the
// right half of a scratchpad view of the kernel's own (columns 32..63 of
// a 64x64 view): the unit would read a part of the view that is not whole
// rows, which the matrix stage does not support yet (only buffers and
// whole rows of row-major scratchpad views, like a loop-carried
// accumulator, move whole between it and its unit: one contiguous
// transfer). Compiled only; the scheduler refuses it at the store that
// ends the product's compute group, on every shipped device.
//
// C = S[:, 32:64] . B, S 64x64 in the scratchpad, B 32x64, C 64x64, f16.

#s_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#half = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#b_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @part(%b_ptr: index, %c_ptr: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %S = ktdp.construct_memory_view %c0, sizes: [64, 64], strides: [64, 1] {coordinate_set = #s_set, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<64x64xf16, #ktdp.memory_space<ct_local, ct_id = 0>>
    %B = ktdp.construct_memory_view %b_ptr, sizes: [32, 64], strides: [64, 1] {coordinate_set = #b_set, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %C = ktdp.construct_memory_view %c_ptr, sizes: [64, 64], strides: [64, 1] {coordinate_set = #s_set, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %ts = ktdp.construct_access_tile %S[0, 32] {access_tile_set = #half, access_tile_order = #id2} : memref<64x64xf16, #ktdp.memory_space<ct_local, ct_id = 0>> -> !ktdp.access_tile<64x32xindex>
    %tb = ktdp.construct_access_tile %B[0, 0] {access_tile_set = #b_set, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
    %tc = ktdp.construct_access_tile %C[0, 0] {access_tile_set = #s_set, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
    %s = ktdp.load %ts : <64x32xindex> -> tensor<64x32xf16>
    %b = ktdp.load %tb : <32x64xindex> -> tensor<32x64xf16>
    %empty = tensor.empty() : tensor<64x64xf16>
    %p = linalg.matmul ins(%s, %b : tensor<64x32xf16>, tensor<32x64xf16>) outs(%empty : tensor<64x64xf16>) -> tensor<64x64xf16>
    ktdp.store %p, %tc : tensor<64x64xf16>, <64x64xindex>
    return
  }
}
