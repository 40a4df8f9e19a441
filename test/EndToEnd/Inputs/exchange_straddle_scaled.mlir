// Inputs/exchange_straddle.mlir with the straddling load's value computed
// with before it is stored: B's rows of tile t are 1.5 x the rows
// 8 + 16((2t) mod 4).. of A (as exchange_straddle reads them through the
// scratchpad parts), each f16(f16(x * 0.5) + x). Each 8x64 piece is copied
// (or reloaded) as there, then scaled and added piece by piece.
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#part0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#part1 = affine_set<(d0, d1) : (d0 - 16 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#part2 = affine_set<(d0, d1) : (d0 - 32 >= 0, -d0 + 47 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#part3 = affine_set<(d0, d1) : (d0 - 48 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rows16 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @exchange_straddle_scaled(%a: index, %b: index) attributes {grid = [4]} {
  %id = ktdp.get_compute_tile_id : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %row0 = arith.muli %id, %c16 : index
  %twice = arith.muli %id, %c2 : index
  %pair = arith.remui %twice, %c4 : index
  %prow = arith.muli %pair, %c16 : index
  %srow = arith.addi %prow, %c8 : index
  %sp = arith.constant 4096 : index
  %A = ktdp.construct_memory_view %a, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %B = ktdp.construct_memory_view %b, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %P0 = ktdp.construct_memory_view %sp, sizes: [16, 64], strides: [64, 1] {coordinate_set = #part0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<16x64xf16>
  %P1 = ktdp.construct_memory_view %sp, sizes: [16, 64], strides: [64, 1] {coordinate_set = #part1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<16x64xf16>
  %P2 = ktdp.construct_memory_view %sp, sizes: [16, 64], strides: [64, 1] {coordinate_set = #part2, memory_space = #ktdp.memory_space<ct_local, ct_id = 2>} : memref<16x64xf16>
  %P3 = ktdp.construct_memory_view %sp, sizes: [16, 64], strides: [64, 1] {coordinate_set = #part3, memory_space = #ktdp.memory_space<ct_local, ct_id = 3>} : memref<16x64xf16>
  %D = ktdp.construct_distributed_memory_view(%P0, %P1, %P2, %P3 : memref<16x64xf16>, memref<16x64xf16>, memref<16x64xf16>, memref<16x64xf16>) : memref<64x64xf16>
  %ta = ktdp.construct_access_tile %A[%row0, 0] {access_tile_set = #rows16, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<16x64xindex>
  %td = ktdp.construct_access_tile %D[%row0, 0] {access_tile_set = #rows16, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<16x64xindex>
  %block = ktdp.load %ta : <16x64xindex> -> tensor<16x64xf16>
  ktdp.store %block, %td : tensor<16x64xf16>, <16x64xindex>
  %ts = ktdp.construct_access_tile %D[%srow, 0] {access_tile_set = #rows16, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<16x64xindex>
  %tb = ktdp.construct_access_tile %B[%row0, 0] {access_tile_set = #rows16, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<16x64xindex>
  %straddled = ktdp.load %ts : <16x64xindex> -> tensor<16x64xf16>
  %half = arith.constant dense<5.000000e-01> : tensor<16x64xf16>
  %scaled = arith.mulf %straddled, %half : tensor<16x64xf16>
  %e = tensor.empty() : tensor<16x64xf16>
  %sum = linalg.add ins(%scaled, %straddled : tensor<16x64xf16>, tensor<16x64xf16>) outs(%e : tensor<16x64xf16>) -> tensor<16x64xf16>
  ktdp.store %sum, %tb : tensor<16x64xf16>, <16x64xindex>
  return
}
