// elementwise_bf16.mlir - examples/kernels/elementwise.mlir on bf16:
// element-wise subtract, multiply and divide.
//
// Computes, for 0 <= i < 128, 0 <= j < 64, in bf16 (each result rounded to bf16):
//   D[i, j] = A[i, j] - B[i, j]                  (linalg.sub)
//   P[i, j] = A[i, j] * B[i, j]                  (arith.mulf on tensors)
//   Q[i, j] = A[i, j] / (B[i, j] + 2)            (linalg.div; B + 2 in [1, 3)
//                                                 for B in [-1, 1))
//
// Arguments (all `index`, tensor start addresses counted in bf16 elements):
//   %a, %b     A, B : 128x64 bf16, row-major, inputs
//   %d, %p, %q D, P, Q : 128x64 bf16, row-major, outputs
// Grid: [16]. Tile t handles rows [8t, 8t + 8) with one 8x64 tile per tensor.
// Memory space spelling: #ktdp.memory_space<global>.

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @elementwise(%a: index, %b: index, %d: index, %p: index, %q: index) attributes {grid = [16]} {
    %id = ktdp.get_compute_tile_id : index
    %c8 = arith.constant 8 : index
    %row = arith.muli %id, %c8 : index
    %A = ktdp.construct_memory_view %a, sizes: [128, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<128x64xbf16>
    %B = ktdp.construct_memory_view %b, sizes: [128, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<128x64xbf16>
    %D = ktdp.construct_memory_view %d, sizes: [128, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<128x64xbf16>
    %P = ktdp.construct_memory_view %p, sizes: [128, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<128x64xbf16>
    %Q = ktdp.construct_memory_view %q, sizes: [128, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<128x64xbf16>
    %ta = ktdp.construct_access_tile %A[%row, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<128x64xbf16> -> !ktdp.access_tile<8x64xindex>
    %tb = ktdp.construct_access_tile %B[%row, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<128x64xbf16> -> !ktdp.access_tile<8x64xindex>
    %td = ktdp.construct_access_tile %D[%row, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<128x64xbf16> -> !ktdp.access_tile<8x64xindex>
    %tp = ktdp.construct_access_tile %P[%row, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<128x64xbf16> -> !ktdp.access_tile<8x64xindex>
    %tq = ktdp.construct_access_tile %Q[%row, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<128x64xbf16> -> !ktdp.access_tile<8x64xindex>
    %x = ktdp.load %ta : <8x64xindex> -> tensor<8x64xbf16>
    %y = ktdp.load %tb : <8x64xindex> -> tensor<8x64xbf16>
    %e = tensor.empty() : tensor<8x64xbf16>
    %diff = linalg.sub ins(%x, %y : tensor<8x64xbf16>, tensor<8x64xbf16>) outs(%e : tensor<8x64xbf16>) -> tensor<8x64xbf16>
    %prod = arith.mulf %x, %y : tensor<8x64xbf16>
    %two = arith.constant dense<2.0> : tensor<8x64xbf16>
    %den = arith.addf %y, %two : tensor<8x64xbf16>
    %quot = linalg.div ins(%x, %den : tensor<8x64xbf16>, tensor<8x64xbf16>) outs(%e : tensor<8x64xbf16>) -> tensor<8x64xbf16>
    ktdp.store %diff, %td : tensor<8x64xbf16>, <8x64xindex>
    ktdp.store %prod, %tp : tensor<8x64xbf16>, <8x64xindex>
    ktdp.store %quot, %tq : tensor<8x64xbf16>, <8x64xindex>
    return
  }
}
