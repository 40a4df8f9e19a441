// matmul_one_tile_1024.mlir - a matrix product no shipped device can hold
// (test/EndToEnd/matrix-limits.test): one grid point multiplies a whole
// 1024x1024 f16 tile by another into a 1024x1024 f32 result. A matrix
// stage moves its tiles whole (docs/scheduler.md, ktdf-tile-streams), so
// its buffers exceed every device's scratchpad (mesh_device's 512 KiB SPM,
// spyre_like's 2 MiB LX, sample_device's 1 MiB L1).
#ab = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1023 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#ba = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1023 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#cc = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1023 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @product(%a: index, %b: index, %c: index) attributes {grid = [1]} {
    %A = ktdp.construct_memory_view %a, sizes: [1024, 1024], strides: [1024, 1] {coordinate_set = #ab, memory_space = #ktdp.memory_space<global>} : memref<1024x1024xf16>
    %B = ktdp.construct_memory_view %b, sizes: [1024, 1024], strides: [1024, 1] {coordinate_set = #ba, memory_space = #ktdp.memory_space<global>} : memref<1024x1024xf16>
    %C = ktdp.construct_memory_view %c, sizes: [1024, 1024], strides: [1024, 1] {coordinate_set = #cc, memory_space = #ktdp.memory_space<global>} : memref<1024x1024xf32>
    %ta = ktdp.construct_access_tile %A[0, 0] {access_tile_set = #ab, access_tile_order = #id2} : memref<1024x1024xf16> -> !ktdp.access_tile<1024x1024xindex>
    %tb = ktdp.construct_access_tile %B[0, 0] {access_tile_set = #ba, access_tile_order = #id2} : memref<1024x1024xf16> -> !ktdp.access_tile<1024x1024xindex>
    %tc = ktdp.construct_access_tile %C[0, 0] {access_tile_set = #cc, access_tile_order = #id2} : memref<1024x1024xf32> -> !ktdp.access_tile<1024x1024xindex>
    %x = ktdp.load %ta : <1024x1024xindex> -> tensor<1024x1024xf16>
    %y = ktdp.load %tb : <1024x1024xindex> -> tensor<1024x1024xf16>
    %e = tensor.empty() : tensor<1024x1024xf32>
    %p = linalg.matmul ins(%x, %y : tensor<1024x1024xf16>, tensor<1024x1024xf16>) outs(%e : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    ktdp.store %p, %tc : tensor<1024x1024xf32>, <1024x1024xindex>
    return
  }
}
