// paged_kv_gather_full.mlir - the field guide's paged KV gather at its real
// size (ktir-field-guide.md §3 item 5): one 4x8x2048x128 f16 tile (8.4 M
// elements, 16 MB) gathered through a 4x32 i32 page table from a pool of
// 10000 pages (655 M elements, 1.3 GB), stored transposed.
//
// Computes, for b < 4, h < 8, t < 2048, d < 128 (a pure f16 copy):
//   Y[b, t, h, d] = X[Idx[b, t floordiv 64], h, t mod 64, d]
//
// Arguments (start addresses in elements of each tensor's type):
//   %x_addr   X   : 10000x8x64x128 f16 = [page, head, slot, head dim],
//                   row-major, input (the cache)
//   %idx_addr Idx : 4x32 i32 = [sequence, logical page], input: every
//                   entry a page id in [0, 10000) (`range:0:10000`)
//   %y_addr   Y   : 4x2048x8x128 f16 = [sequence, token, head, head dim],
//                   row-major, output
// No grid: one tile. The guide's kernel spells the view sizes (and some
// strides) as SSA constants; they are literals here because the scheduler
// takes a dynamic view size only from a kernel argument. The indirect
// tile's variable space is (b, h, t, d); Y's tile enumerates its
// coordinates in the order (d0, d2, d1, d3), so tile element (b, h, t, d)
// lands at Y[b, t, h, d].
//
// Size: the interpreter and the simulator back memory in 64 KiB pages as
// it is touched, and `run --check` generates an input of more than 2^24
// elements page by page, so the pool costs the pages the table names
// (128 pages of 128 KiB, 16 MB), not 1.3 GB. A scratchpad holds 1 or 2 MB:
// the scheduler moves the gather in chunks (ktdf-stream-wide-rows, one
// (b, h) slice of 2048x128 at a time, or smaller).

module {
  func.func @paged_kv_gather_full(%x_addr: index,   // X: 10000x8x64x128 f16 pool (input)
                                  %idx_addr: index, // Idx: 4x32 i32 page table (input)
                                  %y_addr: index) { // Y: 4x2048x8x128 f16 (output)
    %X = ktdp.construct_memory_view %x_addr,
        sizes: [10000, 8, 64, 128], strides: [65536, 8192, 128, 1] {
      coordinate_set = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 9999 >= 0, d1 >= 0, -d1 + 7 >= 0, d2 >= 0, -d2 + 63 >= 0, d3 >= 0, -d3 + 127 >= 0)>,
      memory_space = #ktdp.spyre_memory_space<HBM>
    } : memref<10000x8x64x128xf16>
    %Idx = ktdp.construct_memory_view %idx_addr, sizes: [4, 32], strides: [32, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>,
      memory_space = #ktdp.spyre_memory_space<HBM>
    } : memref<4x32xi32>
    %Y = ktdp.construct_memory_view %y_addr,
        sizes: [4, 2048, 8, 128], strides: [2097152, 1024, 128, 1] {
      coordinate_set = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 2047 >= 0, d2 >= 0, -d2 + 7 >= 0, d3 >= 0, -d3 + 127 >= 0)>,
      memory_space = #ktdp.spyre_memory_space<HBM>
    } : memref<4x2048x8x128xf16>
    %xt = ktdp.construct_indirect_access_tile intermediate_variables(%b, %h, %tkv, %dkv)
        %X[ind(%Idx[%b, (%tkv floordiv 64)]), (%h), (%tkv mod 64), (%dkv)] {
      variables_space_set = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0, d2 >= 0, -d2 + 2047 >= 0, d3 >= 0, -d3 + 127 >= 0)>,
      variables_space_order = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
    } : memref<10000x8x64x128xf16>, memref<4x32xi32> -> !ktdp.access_tile<4x8x2048x128xindex>
    %yt = ktdp.construct_access_tile %Y[0, 0, 0, 0] {
      access_tile_set = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 2047 >= 0, d2 >= 0, -d2 + 7 >= 0, d3 >= 0, -d3 + 127 >= 0)>,
      access_tile_order = affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>
    } : memref<4x2048x8x128xf16> -> !ktdp.access_tile<4x8x2048x128xindex>
    %data = ktdp.load %xt : !ktdp.access_tile<4x8x2048x128xindex> -> tensor<4x8x2048x128xf16>
    ktdp.store %data, %yt : tensor<4x8x2048x128xf16>, !ktdp.access_tile<4x8x2048x128xindex>
    return
  }
}
