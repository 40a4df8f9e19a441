// combo_if_concat.mlir - an scf.if yielding either the loaded row or the
// tensor.concat of its halves swapped. 64x128 f16 rows cyclic over a
// [32, 1] grid.
//
// Computes, for r < 64, j < 64:
//   Y[r, j] = r even ? X[r, j] : X[r, 64 + j]
//   Y[r, 64 + j] = r even ? X[r, 64 + j] : X[r, j]
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @if_concat_kernel(%x_ptr: index,   // X: 64x128 f16 (input)
                   %y_ptr: index) attributes {grid = [32, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f16
    %ninf = arith.constant 0xFC00 : f16
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    scf.for %r = %pid to %c64 step %c32 : index {
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
      %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
      %c2 = arith.constant 2 : index
      %par = arith.remui %r, %c2 : index
      %even = arith.cmpi eq, %par, %c0 : index
      %y = scf.if %even -> (tensor<1x128xf16>) {
        scf.yield %x : tensor<1x128xf16>
      } else {
        %l = tensor.extract_slice %x[0, 0] [1, 64] [1, 1] : tensor<1x128xf16> to tensor<1x64xf16>
        %h = tensor.extract_slice %x[0, 64] [1, 64] [1, 1] : tensor<1x128xf16> to tensor<1x64xf16>
        %c = tensor.concat dim(1) %h, %l : (tensor<1x64xf16>, tensor<1x64xf16>) -> tensor<1x128xf16>
        scf.yield %c : tensor<1x128xf16>
      }
      %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
    }
    return
  }
}
