// halves_add.mlir - element-wise sum of two 64x192 f16 tensors held as two
// column halves each, into a third held the same way, in 64x64 column
// blocks that do not line up with the halves: block 1 (columns 64-127)
// straddles the cut at column 96.
//
// Computes, for r < 64, c < 192 (one f16 addition each):
//   Y[r, c] = f16(X[r, c] + W[r, c])
//
// Memory layout: X, W and Y are each stored as two column halves at their
// own pointers (a 2-way tensor-parallel layout): half h holds columns
// [96h, 96h + 96) as a 64x96 row-major block. Distributed views stitch the
// halves back into the global 64x192 shape; each part's coordinate_set is
// in global columns. (The field guide's real kernels of this kind have a
// run-time half width, `[64, ?]`; ktflow refuses views whose inner size is
// dynamic, see docs/scheduler.md.)
//
// Grid [2, 1], one tile id: tile p takes column blocks p, p + 2, ... of 64.

#half0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 95 >= 0)>
#half1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 - 96 >= 0, -d1 + 191 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @add_halves(%x0_ptr: index,  // X columns 0-95: 64x96 f16 (input)
                        %x1_ptr: index,  // X columns 96-191: 64x96 f16 (input)
                        %w0_ptr: index,  // W columns 0-95: 64x96 f16 (input)
                        %w1_ptr: index,  // W columns 96-191: 64x96 f16 (input)
                        %y0_ptr: index,  // Y columns 0-95: 64x96 f16 (output)
                        %y1_ptr: index)  // Y columns 96-191: 64x96 f16 (output)
      attributes {grid = [2, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %BLOCK_N = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %N = arith.constant 192 : index
    %X0 = ktdp.construct_memory_view %x0_ptr, sizes: [64, 96], strides: [96, 1] {coordinate_set = #half0, memory_space = #ktdp.memory_space<global>} : memref<64x96xf16>
    %X1 = ktdp.construct_memory_view %x1_ptr, sizes: [64, 96], strides: [96, 1] {coordinate_set = #half1, memory_space = #ktdp.memory_space<global>} : memref<64x96xf16>
    %X = ktdp.construct_distributed_memory_view(%X0, %X1 : memref<64x96xf16>, memref<64x96xf16>) : memref<64x192xf16>
    %W0 = ktdp.construct_memory_view %w0_ptr, sizes: [64, 96], strides: [96, 1] {coordinate_set = #half0, memory_space = #ktdp.memory_space<global>} : memref<64x96xf16>
    %W1 = ktdp.construct_memory_view %w1_ptr, sizes: [64, 96], strides: [96, 1] {coordinate_set = #half1, memory_space = #ktdp.memory_space<global>} : memref<64x96xf16>
    %W = ktdp.construct_distributed_memory_view(%W0, %W1 : memref<64x96xf16>, memref<64x96xf16>) : memref<64x192xf16>
    %Y0 = ktdp.construct_memory_view %y0_ptr, sizes: [64, 96], strides: [96, 1] {coordinate_set = #half0, memory_space = #ktdp.memory_space<global>} : memref<64x96xf16>
    %Y1 = ktdp.construct_memory_view %y1_ptr, sizes: [64, 96], strides: [96, 1] {coordinate_set = #half1, memory_space = #ktdp.memory_space<global>} : memref<64x96xf16>
    %Y = ktdp.construct_distributed_memory_view(%Y0, %Y1 : memref<64x96xf16>, memref<64x96xf16>) : memref<64x192xf16>
    %start = arith.muli %pid, %BLOCK_N : index
    scf.for %col = %start to %N step %c128 : index {
      %tx = ktdp.construct_access_tile %X[0, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x192xf16> -> !ktdp.access_tile<64x64xindex>
      %tw = ktdp.construct_access_tile %W[0, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x192xf16> -> !ktdp.access_tile<64x64xindex>
      %ty = ktdp.construct_access_tile %Y[0, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x192xf16> -> !ktdp.access_tile<64x64xindex>
      %x = ktdp.load %tx : <64x64xindex> -> tensor<64x64xf16>
      %w = ktdp.load %tw : <64x64xindex> -> tensor<64x64xf16>
      %y = arith.addf %x, %w : tensor<64x64xf16>
      ktdp.store %y, %ty : tensor<64x64xf16>, <64x64xindex>
    }
    return
  }
}
