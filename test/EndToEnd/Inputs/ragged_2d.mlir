// ragged_2d.mlir - sizes that no tile divides: Y = X * X - 1 on a 50x100
// f16 matrix in 16x64 tiles, row blocks dealt cyclically over a [2, 1]
// grid, a column-block loop; the last row block (rows 48..63) and the last
// column block (columns 64..127) reach past the view and are masked on
// both dimensions (loads read 0 there, stores skip).
//
// Computes, for i < 50, j < 100, f16 rounded per op:
//   Y[i, j] = X[i, j] * X[i, j] - 1

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 49 >= 0, d1 >= 0, -d1 + 99 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @ragged_2d_kernel(%x_ptr: index,   // X: 50x100 f16 (input)
                              %y_ptr: index)   // Y: 50x100 f16 (output)
      attributes {grid = [2, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c50 = arith.constant 50 : index
    %c64 = arith.constant 64 : index
    %c100 = arith.constant 100 : index
    %one = arith.constant dense<1.0> : tensor<16x64xf16>
    %X = ktdp.construct_memory_view %x_ptr, sizes: [50, 100], strides: [100, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<50x100xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [50, 100], strides: [100, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<50x100xf16>
    %start = arith.muli %pid, %c16 : index
    scf.for %r = %start to %c50 step %c32 : index {
      scf.for %c = %c0 to %c100 step %c64 : index {
        %tx = ktdp.construct_access_tile %X[%r, %c] {access_tile_set = #blk, access_tile_order = #id2} : memref<50x100xf16> -> !ktdp.access_tile<16x64xindex>
        %x = ktdp.load %tx : <16x64xindex> -> tensor<16x64xf16>
        %sq = arith.mulf %x, %x : tensor<16x64xf16>
        %y = arith.subf %sq, %one : tensor<16x64xf16>
        %ty = ktdp.construct_access_tile %Y[%r, %c] {access_tile_set = #blk, access_tile_order = #id2} : memref<50x100xf16> -> !ktdp.access_tile<16x64xindex>
        ktdp.store %y, %ty : tensor<16x64xf16>, <16x64xindex>
        scf.yield
      }
      scf.yield
    }
    return
  }
}
