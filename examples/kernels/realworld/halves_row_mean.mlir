// halves_row_mean.mlir - the mean and the maximum of every row of a 64x192
// f16 tensor held as two 64x96 column halves (a 2-way tensor-parallel
// layout), in blocks of 16 rows. Every row straddles the cut at column 96,
// so each row's sum and maximum span both halves.
//
// Computes, for r < 64 (the sum in f32):
//   MEAN[r] = f16(f32(sum_c f32(X[r, c])) / 192)   (addf, init 0)
//   MAX[r]  = max_c X[r, c]                        (maximumf, init -inf)
//
// Memory layout: X is stored as two column halves at their own pointers:
// half h holds columns [96h, 96h + 96) as a 64x96 row-major block. A
// distributed view stitches them into the global 64x192 shape; each part's
// coordinate_set is in global columns. MEAN and MAX are plain 64-element
// vectors.
//
// Grid [4, 1] with one tile id: tile t reduces rows [16t, 16t + 16) as one
// 16x192 block.

#half0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 95 >= 0)>
#half1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 - 96 >= 0, -d1 + 191 >= 0)>
#v_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 191 >= 0)>
#blk = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @row_mean_halves(%x0_ptr: index,    // X columns 0-95: 64x96 f16 (input)
                             %x1_ptr: index,    // X columns 96-191: 64x96 f16 (input)
                             %mean_ptr: index,  // MEAN: 64 f16 (output)
                             %max_ptr: index)   // MAX: 64 f16 (output)
      attributes {grid = [4, 1]} {
    %tid = ktdp.get_compute_tile_id : index
    %c16 = arith.constant 16 : index
    %zero = arith.constant 0.000000e+00 : f32
    %ninf = arith.constant 0xFC00 : f16  // -inf
    %width = arith.constant 1.920000e+02 : f32
    %X0 = ktdp.construct_memory_view %x0_ptr, sizes: [64, 96], strides: [96, 1] {coordinate_set = #half0, memory_space = #ktdp.memory_space<global>} : memref<64x96xf16>
    %X1 = ktdp.construct_memory_view %x1_ptr, sizes: [64, 96], strides: [96, 1] {coordinate_set = #half1, memory_space = #ktdp.memory_space<global>} : memref<64x96xf16>
    %X = ktdp.construct_distributed_memory_view(%X0, %X1 : memref<64x96xf16>, memref<64x96xf16>) : memref<64x192xf16>
    %MEAN = ktdp.construct_memory_view %mean_ptr, sizes: [64], strides: [1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %MAX = ktdp.construct_memory_view %max_ptr, sizes: [64], strides: [1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %r = arith.muli %tid, %c16 : index
    %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #rows, access_tile_order = #id2} : memref<64x192xf16> -> !ktdp.access_tile<16x192xindex>
    %xh = ktdp.load %tx : <16x192xindex> -> tensor<16x192xf16>
    %x = arith.extf %xh : tensor<16x192xf16> to tensor<16x192xf32>
    %empty = tensor.empty() : tensor<16xf32>
    %sum_init = linalg.fill ins(%zero : f32) outs(%empty : tensor<16xf32>) -> tensor<16xf32>
    %sum = linalg.reduce ins(%x : tensor<16x192xf32>) outs(%sum_init : tensor<16xf32>) dimensions = [1]
      (%a : f32, %b : f32) {
        %s = arith.addf %a, %b : f32
        linalg.yield %s : f32
      }
    %wb = tensor.splat %width : tensor<16xf32>
    %mean = arith.divf %sum, %wb : tensor<16xf32>
    %mean16 = arith.truncf %mean : tensor<16xf32> to tensor<16xf16>
    %max_init = tensor.splat %ninf : tensor<16xf16>
    %max = linalg.reduce { arith.maximumf } ins(%xh : tensor<16x192xf16>) outs(%max_init : tensor<16xf16>) dimensions = [1]
    %tm = ktdp.construct_access_tile %MEAN[%r] {access_tile_set = #blk, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<16xindex>
    %tx2 = ktdp.construct_access_tile %MAX[%r] {access_tile_set = #blk, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<16xindex>
    ktdp.store %mean16, %tm : tensor<16xf16>, <16xindex>
    ktdp.store %max, %tx2 : tensor<16xf16>, <16xindex>
    return
  }
}
