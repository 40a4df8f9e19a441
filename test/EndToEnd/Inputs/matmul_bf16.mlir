// matmul_bf16.mlir - a bf16 matrix product (test/EndToEnd/matrix-limits.test):
// C = A . B for A 64x128, B 128x64 bf16, C 64x64 f32, one grid point.
// mesh_device's MXU multiplies bf16; spyre_like's PT (f16 only) and the
// vector units of spyre_like and sample_device do not.
#ab = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#ba = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#cc = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @product(%a: index, %b: index, %c: index) attributes {grid = [1]} {
    %A = ktdp.construct_memory_view %a, sizes: [64, 128], strides: [128, 1] {coordinate_set = #ab, memory_space = #ktdp.memory_space<global>} : memref<64x128xbf16>
    %B = ktdp.construct_memory_view %b, sizes: [128, 64], strides: [64, 1] {coordinate_set = #ba, memory_space = #ktdp.memory_space<global>} : memref<128x64xbf16>
    %C = ktdp.construct_memory_view %c, sizes: [64, 64], strides: [64, 1] {coordinate_set = #cc, memory_space = #ktdp.memory_space<global>} : memref<64x64xf32>
    %ta = ktdp.construct_access_tile %A[0, 0] {access_tile_set = #ab, access_tile_order = #id2} : memref<64x128xbf16> -> !ktdp.access_tile<64x128xindex>
    %tb = ktdp.construct_access_tile %B[0, 0] {access_tile_set = #ba, access_tile_order = #id2} : memref<128x64xbf16> -> !ktdp.access_tile<128x64xindex>
    %tc = ktdp.construct_access_tile %C[0, 0] {access_tile_set = #cc, access_tile_order = #id2} : memref<64x64xf32> -> !ktdp.access_tile<64x64xindex>
    %x = ktdp.load %ta : <64x128xindex> -> tensor<64x128xbf16>
    %y = ktdp.load %tb : <128x64xindex> -> tensor<128x64xbf16>
    %e = tensor.empty() : tensor<64x64xf32>
    %p = linalg.matmul ins(%x, %y : tensor<64x128xbf16>, tensor<128x64xbf16>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
    ktdp.store %p, %tc : tensor<64x64xf32>, <64x64xindex>
    return
  }
}
