// matmul.mlir - C = A * B, blocked over a 2-D grid, K loop with the f32
// accumulator carried in scf.for iter_args.
//
// Computes   C[m, n] = f16( sum_{k < 256} f32(A[m, k]) * f32(B[k, n]) )
// for 0 <= m < 64, 0 <= n < 128. linalg.matmul with f16 inputs and an f32
// output extends each input to f32 and accumulates in f32; the K loop adds
// four 64-deep partial products in order k = 0, 64, 128, 192. The final
// result is rounded to f16 (nearest even).
//
// Arguments (all `index`, tensor start addresses counted in f16 elements):
//   %a  A : 64x256 f16, row-major (strides [256, 1]), input
//   %b  B : 256x128 f16, row-major (strides [128, 1]), input
//   %c  C : 64x128 f16, row-major (strides [128, 1]), output
// Grid: [2, 2], ids (x, y) with x fastest (linear id = x + 2y). Tile (x, y)
// computes the 32x64 block C[32y : 32y + 32, 64x : 64x + 64]; each K step
// loads a 32x64 tile of A at [32y, k] and a 64x64 tile of B at [k, 64x].
// Memory space spelling: #ktdp.memory_space<global>.

#a_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#b_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#c_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#tile_32x64 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#tile_64x64 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @matmul(%a: index, %b: index, %c: index) attributes {grid = [2, 2]} {
    %id:2 = ktdp.get_compute_tile_id : index, index
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %n0 = arith.muli %id#0, %c64 : index
    %m0 = arith.muli %id#1, %c32 : index
    %A = ktdp.construct_memory_view %a, sizes: [64, 256], strides: [256, 1] {coordinate_set = #a_set, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %B = ktdp.construct_memory_view %b, sizes: [256, 128], strides: [128, 1] {coordinate_set = #b_set, memory_space = #ktdp.memory_space<global>} : memref<256x128xf16>
    %C = ktdp.construct_memory_view %c, sizes: [64, 128], strides: [128, 1] {coordinate_set = #c_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>

    %zero = arith.constant 0.0 : f32
    %empty = tensor.empty() : tensor<32x64xf32>
    %acc0 = linalg.fill ins(%zero : f32) outs(%empty : tensor<32x64xf32>) -> tensor<32x64xf32>
    %acc = scf.for %k = %c0 to %c256 step %c64 iter_args(%acc_k = %acc0) -> (tensor<32x64xf32>) {
      %ta = ktdp.construct_access_tile %A[%m0, %k] {access_tile_set = #tile_32x64, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<32x64xindex>
      %tb = ktdp.construct_access_tile %B[%k, %n0] {access_tile_set = #tile_64x64, access_tile_order = #id2} : memref<256x128xf16> -> !ktdp.access_tile<64x64xindex>
      %at = ktdp.load %ta : <32x64xindex> -> tensor<32x64xf16>
      %bt = ktdp.load %tb : <64x64xindex> -> tensor<64x64xf16>
      %next = linalg.matmul ins(%at, %bt : tensor<32x64xf16>, tensor<64x64xf16>) outs(%acc_k : tensor<32x64xf32>) -> tensor<32x64xf32>
      scf.yield %next : tensor<32x64xf32>
    }
    %ch = arith.truncf %acc : tensor<32x64xf32> to tensor<32x64xf16>
    %tc = ktdp.construct_access_tile %C[%m0, %n0] {access_tile_set = #tile_32x64, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<32x64xindex>
    ktdp.store %ch, %tc : tensor<32x64xf16>, <32x64xindex>
    return
  }
}
