// center_rows_dyn_3.mlir - row centering of an n x 192 f16 matrix whose
// columns are split over 3 tiles (64 each): a loop of run-time trips over
// blocks of 4 rows sums each row of the tile's third in f32, all-reduces
// the 4 sums over the 3 tiles and stores x - sum / 192. The last block
// reaches past row n unless 4 divides n (masked loads read 0, masked
// stores drop the rows).
//
// Computes, for r < n, c < 192:
//   p_t[r] = sum_{c in third t} f32(x[r, c])
//   s[r]   = ((0 + p_0[r]) + p_1[r]) + p_2[r]   (f32)
//   Y[r, c] = f16(f32(x[r, c]) - s[r] / 192)

#x_set = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 191 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#all3 = affine_set<(i)[g] : (i >= 0, -i + 2 >= 0, g == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @center_rows(%x_ptr: index,   // X: n x 192 f16 (input)
                         %y_ptr: index,   // Y: n x 192 f16 (output)
                         %n_rows: i32)    // n
      attributes {grid = [3]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %n = arith.index_cast %n_rows : i32 to index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [%n, 192], strides: [192, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<?x192xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [%n, 192], strides: [192, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<?x192xf16>
    %col = arith.muli %pid, %c64 : index
    %zero = arith.constant 0.000000e+00 : f32
    %width = arith.constant 1.920000e+02 : f32
    %init0 = tensor.empty() : tensor<4xf32>
    %init = linalg.fill ins(%zero : f32) outs(%init0 : tensor<4xf32>) -> tensor<4xf32>
    %ident = arith.constant dense<0.0> : tensor<4xf32>
    %wv = tensor.splat %width : tensor<4xf32>
    scf.for %r = %c0 to %n step %c4 : index {
      %tx = ktdp.construct_access_tile %X[%r, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<?x192xf16> -> !ktdp.access_tile<4x64xindex>
      %x = ktdp.load %tx : <4x64xindex> -> tensor<4x64xf16>
      %xf = arith.extf %x : tensor<4x64xf16> to tensor<4x64xf32>
      %part = linalg.reduce { arith.addf } ins(%xf : tensor<4x64xf32>) outs(%init : tensor<4xf32>) dimensions = [1]
      %f = ktdp.inter_tile_produce producer_tiles_per_group = #all3
          : tensor<4xf32> -> !ktdp.tile_future<tensor<4xf32>, groups = affine_set<(g) : (g == 0)>> {
      ^bb0(%g: index):
        ktdp.yield_partial %part : tensor<4xf32>
      }
      %sum = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all3, identity(%ident : tensor<4xf32>)
          : !ktdp.tile_future<tensor<4xf32>, groups = affine_set<(g) : (g == 0)>> -> tensor<4xf32> {
      ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
        %s = arith.addf %a, %b : tensor<4xf32>
        ktdp.yield_reduced %s : tensor<4xf32>
      }
      %mean = arith.divf %sum, %wv : tensor<4xf32>
      %e = tensor.empty() : tensor<4x64xf32>
      %mb = linalg.broadcast ins(%mean : tensor<4xf32>) outs(%e : tensor<4x64xf32>) dimensions = [1]
      %d = arith.subf %xf, %mb : tensor<4x64xf32>
      %y = arith.truncf %d : tensor<4x64xf32> to tensor<4x64xf16>
      %ty = ktdp.construct_access_tile %Y[%r, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<?x192xf16> -> !ktdp.access_tile<4x64xindex>
      ktdp.store %y, %ty : tensor<4x64xf16>, <4x64xindex>
      scf.yield
    }
    return
  }
}
