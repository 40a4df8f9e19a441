// colmajor_global.mlir - column-major views of device memory (field guide
// §1b.6's layout, `strides: [1, 64]`, in global memory): two tiles each add
// a column-major 16x64 block of A (element (i, j) at i + 64j, a pitch of
// 64) to B's rows (row-major), and store the sum both row-major into C and
// column-major into D (element (i, j) of D at i + 32j):
//   C[16t + i, j] = A[16t + i + 64j] + B[16t + i, j]
//   D[16t + i + 32j] = C[16t + i, j]              t < 2, i < 16, j < 64
#a  = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#t  = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @colmajor_global(%a: index, %b: index, %c: index, %d: index) attributes {grid = [2]} {
    %tid = ktdp.get_compute_tile_id : index
    %c16 = arith.constant 16 : index
    %row = arith.muli %tid, %c16 : index
    %A = ktdp.construct_memory_view %a, sizes: [32, 64], strides: [1, 64] {coordinate_set = #a, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16, strided<[1, 64]>>
    %B = ktdp.construct_memory_view %b, sizes: [32, 64], strides: [64, 1] {coordinate_set = #a, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %C = ktdp.construct_memory_view %c, sizes: [32, 64], strides: [64, 1] {coordinate_set = #a, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %D = ktdp.construct_memory_view %d, sizes: [32, 64], strides: [1, 32] {coordinate_set = #a, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16, strided<[1, 32]>>
    %ta = ktdp.construct_access_tile %A[%row, 0] {access_tile_set = #t, access_tile_order = #id2} : memref<32x64xf16, strided<[1, 64]>> -> !ktdp.access_tile<16x64xindex>
    %tb = ktdp.construct_access_tile %B[%row, 0] {access_tile_set = #t, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<16x64xindex>
    %tc = ktdp.construct_access_tile %C[%row, 0] {access_tile_set = #t, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<16x64xindex>
    %td = ktdp.construct_access_tile %D[%row, 0] {access_tile_set = #t, access_tile_order = #id2} : memref<32x64xf16, strided<[1, 32]>> -> !ktdp.access_tile<16x64xindex>
    %x = ktdp.load %ta : <16x64xindex> -> tensor<16x64xf16>
    %y = ktdp.load %tb : <16x64xindex> -> tensor<16x64xf16>
    %e = tensor.empty() : tensor<16x64xf16>
    %z = linalg.add ins(%x, %y : tensor<16x64xf16>, tensor<16x64xf16>) outs(%e : tensor<16x64xf16>) -> tensor<16x64xf16>
    ktdp.store %z, %tc : tensor<16x64xf16>, <16x64xindex>
    ktdp.store %z, %td : tensor<16x64xf16>, <16x64xindex>
    return
  }
}
