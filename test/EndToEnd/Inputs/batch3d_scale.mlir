// batch3d_scale.mlir - a 3-D tensor (batch x rows x cols = 4x32x64 f16):
// each batch's rows scaled by that batch's row maximum, a [4, 1, 1] grid,
// one id, tile b loops over its batch's rows 8 at a time (1x8x64 tiles).
//
// Computes, for b < 4, i < 32, j < 64, f16:
//   m_{b,i}    = max_j X[b, i, j]                (maxnumf, init 0xFC00)
//   Y[b, i, j] = X[b, i, j] - m_{b,i}            (one f16 rounding)

#x_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#blk = affine_set<(d0, d1, d2) : (d0 == 0, d1 >= 0, -d1 + 7 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rows = affine_map<(d0, d1, d2) -> (d0, d1)>
module {
  func.func @batch3d_kernel(%x_ptr: index,   // X: 4x32x64 f16 (input)
                            %y_ptr: index)   // Y: 4x32x64 f16 (output)
      attributes {grid = [4, 1, 1]} {
    %b = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %ninf = arith.constant 0xFC00 : f16
    %X = ktdp.construct_memory_view %x_ptr, sizes: [4, 32, 64], strides: [2048, 64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x32x64xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [4, 32, 64], strides: [2048, 64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x32x64xf16>
    scf.for %i = %c0 to %c32 step %c8 : index {
      %tx = ktdp.construct_access_tile %X[%b, %i, 0] {access_tile_set = #blk, access_tile_order = #id3} : memref<4x32x64xf16> -> !ktdp.access_tile<1x8x64xindex>
      %x = ktdp.load %tx : <1x8x64xindex> -> tensor<1x8x64xf16>
      %mi = tensor.splat %ninf : tensor<1x8xf16>
      %m = linalg.reduce { arith.maxnumf } ins(%x : tensor<1x8x64xf16>) outs(%mi : tensor<1x8xf16>) dimensions = [2]
      %e = tensor.empty() : tensor<1x8x64xf16>
      %y = linalg.generic {indexing_maps = [#id3, #rows, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
          ins(%x, %m : tensor<1x8x64xf16>, tensor<1x8xf16>) outs(%e : tensor<1x8x64xf16>) {
        ^bb0(%xv: f16, %mv: f16, %o: f16):
          %d = arith.subf %xv, %mv : f16
          linalg.yield %d : f16
      } -> tensor<1x8x64xf16>
      %ty = ktdp.construct_access_tile %Y[%b, %i, 0] {access_tile_set = #blk, access_tile_order = #id3} : memref<4x32x64xf16> -> !ktdp.access_tile<1x8x64xindex>
      ktdp.store %y, %ty : tensor<1x8x64xf16>, <1x8x64xindex>
      scf.yield
    }
    return
  }
}
