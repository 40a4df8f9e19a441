// refuse_window_row_cycle.mlir - each row minus its maximum, over the sum
// of exp of its left half minus that maximum: the left half's sum needs
// the whole row's maximum and the whole row's op needs the sum, so neither
// tile shape's computation runs first (refused: one compute stage works on
// one tile shape).
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @window_row_cycle(%x_ptr: index, %y_ptr: index) attributes {grid = [32, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f16
    %ninf = arith.constant 0xFC00 : f16
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    scf.for %r = %pid to %c64 step %c32 : index {
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
      %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
      %e0 = tensor.empty() : tensor<1xf16>
      %minit = linalg.fill ins(%ninf : f16) outs(%e0 : tensor<1xf16>) -> tensor<1xf16>
      %mx = linalg.reduce ins(%x : tensor<1x128xf16>) outs(%minit : tensor<1xf16>) dimensions = [1]
        (%in: f16, %acc: f16) {
          %a = arith.maxnumf %in, %acc : f16
          linalg.yield %a : f16
        }
      %m = tensor.extract %mx[%c0] : tensor<1xf16>
      %l = tensor.extract_slice %x[0, 0] [1, 64] [1, 1] : tensor<1x128xf16> to tensor<1x64xf16>
      %ml = tensor.splat %m : tensor<1x64xf16>
      %dl = arith.subf %l, %ml : tensor<1x64xf16>
      %el = math.exp %dl : tensor<1x64xf16>
      %sinit = linalg.fill ins(%zero : f16) outs(%e0 : tensor<1xf16>) -> tensor<1xf16>
      %sm = linalg.reduce ins(%el : tensor<1x64xf16>) outs(%sinit : tensor<1xf16>) dimensions = [1]
        (%in: f16, %acc: f16) {
          %a = arith.addf %in, %acc : f16
          linalg.yield %a : f16
        }
      %s = tensor.extract %sm[%c0] : tensor<1xf16>
      %mv = tensor.splat %m : tensor<1x128xf16>
      %sv = tensor.splat %s : tensor<1x128xf16>
      %d = arith.subf %x, %mv : tensor<1x128xf16>
      %y = arith.divf %d, %sv : tensor<1x128xf16>
      %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
    }
    return
  }
}
