// halves_add_dyn.mlir - element-wise sum of two 64x(2n) f16 tensors held as
// two column halves of a run-time width n each, into a third held the same
// way, in 64x64 column blocks that need not line up with the halves: when
// n is not a multiple of 64 a block straddles the cut at column n, and the
// last block may reach past column 2n (masked).
//
// Computes, for r < 64, c < 2n (one f16 addition each):
//   Y[r, c] = f16(X[r, c] + W[r, c])
//
// Memory layout: X, W and Y are each stored as two column halves at their
// own pointers (a 2-way tensor-parallel layout): half h holds columns
// [hn, hn + n) as a 64xn row-major block (row stride n). Distributed views
// `[64, ?]` stitch the halves back into the global 64x(2n) shape; each
// part's coordinate_set is in global columns, its symbol s0 bound to the
// part's dynamic size n. A part's row stride is n, the size after it (a
// run-time DMA stride; row_halves_dyn.mlir is the row-merged variant).
//
// Grid [2, 1], one tile id: tile p takes column blocks p, p + 2, ... below
// ceil(2n / 64).

#half0 = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + s0 - 1 >= 0)>
#half1 = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + 63 >= 0, d1 - s0 >= 0, -d1 + 2 * s0 - 1 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @add_halves(%x0_ptr: index,  // X columns 0 to n-1: 64xn f16 (input)
                        %x1_ptr: index,  // X columns n to 2n-1: 64xn f16 (input)
                        %w0_ptr: index,  // W columns 0 to n-1: 64xn f16 (input)
                        %w1_ptr: index,  // W columns n to 2n-1: 64xn f16 (input)
                        %y0_ptr: index,  // Y columns 0 to n-1: 64xn f16 (output)
                        %y1_ptr: index,  // Y columns n to 2n-1: 64xn f16 (output)
                        %n_i32: i32)     // n, the columns of a half
      attributes {grid = [2, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %n = arith.index_cast %n_i32 : i32 to index
    %cols = arith.muli %n, %c2 : index
    %X0 = ktdp.construct_memory_view %x0_ptr, sizes: [64, %n], strides: [%n, 1] {coordinate_set = #half0, memory_space = #ktdp.memory_space<global>} : memref<64x?xf16>
    %X1 = ktdp.construct_memory_view %x1_ptr, sizes: [64, %n], strides: [%n, 1] {coordinate_set = #half1, memory_space = #ktdp.memory_space<global>} : memref<64x?xf16>
    %X = ktdp.construct_distributed_memory_view(%X0, %X1 : memref<64x?xf16>, memref<64x?xf16>) : memref<64x?xf16>
    %W0 = ktdp.construct_memory_view %w0_ptr, sizes: [64, %n], strides: [%n, 1] {coordinate_set = #half0, memory_space = #ktdp.memory_space<global>} : memref<64x?xf16>
    %W1 = ktdp.construct_memory_view %w1_ptr, sizes: [64, %n], strides: [%n, 1] {coordinate_set = #half1, memory_space = #ktdp.memory_space<global>} : memref<64x?xf16>
    %W = ktdp.construct_distributed_memory_view(%W0, %W1 : memref<64x?xf16>, memref<64x?xf16>) : memref<64x?xf16>
    %Y0 = ktdp.construct_memory_view %y0_ptr, sizes: [64, %n], strides: [%n, 1] {coordinate_set = #half0, memory_space = #ktdp.memory_space<global>} : memref<64x?xf16>
    %Y1 = ktdp.construct_memory_view %y1_ptr, sizes: [64, %n], strides: [%n, 1] {coordinate_set = #half1, memory_space = #ktdp.memory_space<global>} : memref<64x?xf16>
    %Y = ktdp.construct_distributed_memory_view(%Y0, %Y1 : memref<64x?xf16>, memref<64x?xf16>) : memref<64x?xf16>
    %nblk = arith.ceildivui %cols, %c64 : index
    scf.for %b = %pid to %nblk step %c2 : index {
      %col = arith.muli %b, %c64 : index
      %tx = ktdp.construct_access_tile %X[0, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x?xf16> -> !ktdp.access_tile<64x64xindex>
      %tw = ktdp.construct_access_tile %W[0, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x?xf16> -> !ktdp.access_tile<64x64xindex>
      %ty = ktdp.construct_access_tile %Y[0, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x?xf16> -> !ktdp.access_tile<64x64xindex>
      %x = ktdp.load %tx : <64x64xindex> -> tensor<64x64xf16>
      %w = ktdp.load %tw : <64x64xindex> -> tensor<64x64xf16>
      %y = arith.addf %x, %w : tensor<64x64xf16>
      ktdp.store %y, %ty : tensor<64x64xf16>, <64x64xindex>
    }
    return
  }
}
