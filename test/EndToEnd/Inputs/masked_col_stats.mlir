// masked_col_stats.mlir - Triton-style masked reduction over a runtime
// count: the maximum and the sum of each column of X over its first N rows,
// N known only at launch (a plain index argument, 1 <= N <= 256, in general
// not a multiple of the block), one 256x64 block per program (`rows =
// arange(256)`, `mask = rows[:, None] < N`, `tl.max`/`tl.sum` over axis
// 0), column blocks dealt out over a [4, 1] grid.
//
// X is N x 256 f16, row-major; its view holds N rows, so the block
// reaches past it when N < 256: its load reads 0 there (the reference
// interpreter's masking,
// docs/interpreter.md §3: Triton's `other=0`, also for the maximum; the
// dynamic size is the outermost one, as the scheduler needs). Computes, for
// c < 256, all values f16:
//   x[r]    = X[r, c] for r < N, 0 for N <= r < 256
//   MAX[c]  = max_r x[r]          (maxnumf from -inf = 0xFC00: at least 0
//                                  when N < 256)
//   SUM[c]  = f16(sum_r x[r])     (f32 accumulation, one rounding)
//
// Grid [4, 1] with one `get_compute_tile_id : index`: tile t handles
// columns 64 t to 64 t + 63.

#x_set = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#v_set = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#cols = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @masked_col_stats(%x_ptr: index,    // X: N x 256 f16, row-major (input)
                              %max_ptr: index,  // MAX: 256 f16 (output)
                              %sum_ptr: index,  // SUM: 256 f16 (output)
                              %N: index)        // rows, 1 to 256
      attributes {grid = [4, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %BLOCK_N = arith.constant 64 : index
    %ninf = arith.constant 0xFC00 : f16  // -inf
    %zero = arith.constant 0.000000e+00 : f16
    %col = arith.muli %pid, %BLOCK_N : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [%N, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<?x256xf16>
    %MAX = ktdp.construct_memory_view %max_ptr, sizes: [256], strides: [1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<256xf16>
    %SUM = ktdp.construct_memory_view %sum_ptr, sizes: [256], strides: [1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<256xf16>
    %tx = ktdp.construct_access_tile %X[0, %col] {access_tile_set = #block, access_tile_order = #id2} : memref<?x256xf16> -> !ktdp.access_tile<256x64xindex>
    %x = ktdp.load %tx : <256x64xindex> -> tensor<256x64xf16>
    %e = tensor.empty() : tensor<64xf16>
    %max_init = linalg.fill ins(%ninf : f16) outs(%e : tensor<64xf16>) -> tensor<64xf16>
    %max = linalg.reduce { arith.maxnumf } ins(%x : tensor<256x64xf16>) outs(%max_init : tensor<64xf16>) dimensions = [0]
    %sum_init = linalg.fill ins(%zero : f16) outs(%e : tensor<64xf16>) -> tensor<64xf16>
    %sum = linalg.reduce { arith.addf } ins(%x : tensor<256x64xf16>) outs(%sum_init : tensor<64xf16>) dimensions = [0]
    %tm = ktdp.construct_access_tile %MAX[%col] {access_tile_set = #cols, access_tile_order = #id1} : memref<256xf16> -> !ktdp.access_tile<64xindex>
    %ts = ktdp.construct_access_tile %SUM[%col] {access_tile_set = #cols, access_tile_order = #id1} : memref<256xf16> -> !ktdp.access_tile<64xindex>
    ktdp.store %max, %tm : tensor<64xf16>, <64xindex>
    ktdp.store %sum, %ts : tensor<64xf16>, <64xindex>
    return
  }
}
