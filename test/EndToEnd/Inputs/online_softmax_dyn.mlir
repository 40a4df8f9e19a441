// online_softmax_dyn.mlir - row softmax over n_rows x N f16 (N <= 1024, a
// run-time width; the last 128-column block masked past N) on a [3, 1] grid
// with rows dealt cyclically: a first loop over column blocks carries the
// running maximum and the rescaled f32 sum in iter_args (online softmax),
// a second loop writes exp(x - m) / s.
//
// Computes, per row, blocks k in order (m_0 = -inf, s_0 = 0, f32):
//   bm = max(m, max_k f32(x));  s = s * exp(m - bm) + sum_k exp(f32(x) - bm);  m = bm
//   Y[r, c] = f16(exp(f32(x[r, c]) - m) / s)
// Masked columns load 0: they enter the maximum as 0 and the sum as
// exp(0 - bm), in the reference interpreter as on the devices.
// m_0 = -inf is spelt the field guide's way: the bitcast of 0xFF800000 : i32,
// splat into the carried tensor<1xf32>.

#x_set = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + s0 - 1 >= 0)>
#row_blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @online_softmax(%x_ptr: index,   // X: 32 x N f16, row stride N (input)
                            %y_ptr: index,   // Y: 32 x N f16 (output)
                            %n_rows: index,  // rows to process, at most 32
                            %N: i32)         // row width, at most 1024
      attributes {grid = [3, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %c128 = arith.constant 128 : index
    %c32 = arith.constant 32 : index
    %n = arith.index_cast %N : i32 to index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [32, %n], strides: [%n, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<32x?xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [32, %n], strides: [%n, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<32x?xf16>
    %ninf = arith.constant 0xFF800000 : i32
    %neg = arith.bitcast %ninf : i32 to f32
    %m0 = tensor.splat %neg : tensor<1xf32>
    %zero = arith.constant 0.000000e+00 : f32
    %s0 = tensor.splat %zero : tensor<1xf32>
    scf.for %r = %pid to %n_rows step %c3 : index {
      %m, %s = scf.for %off = %c0 to %n step %c128 iter_args(%mi = %m0, %si = %s0) -> (tensor<1xf32>, tensor<1xf32>) {
        %tx = ktdp.construct_access_tile %X[%r, %off] {access_tile_set = #row_blk, access_tile_order = #id2} : memref<32x?xf16> -> !ktdp.access_tile<1x128xindex>
        %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
        %xf = arith.extf %x : tensor<1x128xf16> to tensor<1x128xf32>
        %bmax = linalg.reduce { arith.maximumf } ins(%xf : tensor<1x128xf32>) outs(%mi : tensor<1xf32>) dimensions = [1]
        %bm = tensor.extract %bmax[%c0] : tensor<1xf32>
        %mo = tensor.extract %mi[%c0] : tensor<1xf32>
        %dm = arith.subf %mo, %bm : f32
        %sc = math.exp %dm : f32
        %so = tensor.extract %si[%c0] : tensor<1xf32>
        %ss = arith.mulf %so, %sc : f32
        %bmb = tensor.splat %bm : tensor<1x128xf32>
        %d = arith.subf %xf, %bmb : tensor<1x128xf32>
        %e = math.exp %d : tensor<1x128xf32>
        %ssv = tensor.splat %ss : tensor<1xf32>
        %sn = linalg.reduce { arith.addf } ins(%e : tensor<1x128xf32>) outs(%ssv : tensor<1xf32>) dimensions = [1]
        scf.yield %bmax, %sn : tensor<1xf32>, tensor<1xf32>
      }
      %mv = tensor.extract %m[%c0] : tensor<1xf32>
      %sv = tensor.extract %s[%c0] : tensor<1xf32>
      %mb = tensor.splat %mv : tensor<1x128xf32>
      %sb = tensor.splat %sv : tensor<1x128xf32>
      scf.for %off = %c0 to %n step %c128 : index {
        %tx = ktdp.construct_access_tile %X[%r, %off] {access_tile_set = #row_blk, access_tile_order = #id2} : memref<32x?xf16> -> !ktdp.access_tile<1x128xindex>
        %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
        %xf = arith.extf %x : tensor<1x128xf16> to tensor<1x128xf32>
        %d = arith.subf %xf, %mb : tensor<1x128xf32>
        %e = math.exp %d : tensor<1x128xf32>
        %q = arith.divf %e, %sb : tensor<1x128xf32>
        %y = arith.truncf %q : tensor<1x128xf32> to tensor<1x128xf16>
        %ty = ktdp.construct_access_tile %Y[%r, %off] {access_tile_set = #row_blk, access_tile_order = #id2} : memref<32x?xf16> -> !ktdp.access_tile<1x128xindex>
        ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
      }
    }
    return
  }
}
