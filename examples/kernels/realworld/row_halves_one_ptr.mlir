// row_halves_one_ptr.mlir - row_halves_dyn with each tensor at one pointer:
// an (2n)x64 f16 tensor held as two row halves of a run-time height n,
// scaled element-wise by 2 into a tensor held the same way, in 64-row
// blocks that need not line up with the halves.
//
// Computes, for r < 2n, c < 64 (one f16 addition each):
//   Y[r, c] = f16(X[r, c] + X[r, c])
//
// Memory layout: X and Y are (2n)x64 row-major blocks at x_ptr and y_ptr;
// the second half starts at the computed address ptr + 64n (field guide
// §1b.4), `n` a size scaled into an element offset, so n stays a launch
// scalar and x_ptr the tensor's start address. Distributed views stitch
// the halves back into the global (2n)x64 shape (§1b.7).
//
// Grid [2, 1], one tile id: tile p takes row blocks p, p + 2, ... below
// ceil(2n / 64).

#top = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#bottom = affine_set<(d0, d1)[s0] : (d0 - s0 >= 0, -d0 + 2 * s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @double_halves(%x_ptr: index,  // X: (2n)x64 f16 (input)
                           %y_ptr: index,  // Y: (2n)x64 f16 (output)
                           %n_i32: i32)    // n, the rows of a half
      attributes {grid = [2, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %n = arith.index_cast %n_i32 : i32 to index
    %rows = arith.muli %n, %c2 : index
    %off = arith.muli %n, %c64 : index
    %x1_ptr = arith.addi %x_ptr, %off : index
    %y1_ptr = arith.addi %y_ptr, %off : index
    %X0 = ktdp.construct_memory_view %x_ptr, sizes: [%n, 64], strides: [64, 1] {coordinate_set = #top, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
    %X1 = ktdp.construct_memory_view %x1_ptr, sizes: [%n, 64], strides: [64, 1] {coordinate_set = #bottom, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
    %X = ktdp.construct_distributed_memory_view(%X0, %X1 : memref<?x64xf16>, memref<?x64xf16>) : memref<?x64xf16>
    %Y0 = ktdp.construct_memory_view %y_ptr, sizes: [%n, 64], strides: [64, 1] {coordinate_set = #top, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
    %Y1 = ktdp.construct_memory_view %y1_ptr, sizes: [%n, 64], strides: [64, 1] {coordinate_set = #bottom, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
    %Y = ktdp.construct_distributed_memory_view(%Y0, %Y1 : memref<?x64xf16>, memref<?x64xf16>) : memref<?x64xf16>
    %nblk = arith.ceildivui %rows, %c64 : index
    scf.for %b = %pid to %nblk step %c2 : index {
      %row = arith.muli %b, %c64 : index
      %tx = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<?x64xf16> -> !ktdp.access_tile<64x64xindex>
      %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<?x64xf16> -> !ktdp.access_tile<64x64xindex>
      %x = ktdp.load %tx : <64x64xindex> -> tensor<64x64xf16>
      %y = arith.addf %x, %x : tensor<64x64xf16>
      ktdp.store %y, %ty : tensor<64x64xf16>, <64x64xindex>
    }
    return
  }
}
