// direct_device_scale.mlir - Y = 2 X on a device whose load and store
// units reach device memory directly (no DMA engine).
//
// Computes Y[i, j] = X[i, j] * 2 in f16 for 0 <= i, j < 64, one 8-row tile
// per grid point (grid [8]). The device @direct (one core: DDR, a load
// unit, a vector unit, a store unit) feeds the vector unit from DDR and
// drains it back chunk by chunk, so nothing masks a tile's rows: the views
// hold all 64 rows, and ktdf-route-transfers accepts the tiles
// (test/Dialect/KTDF/Transforms/RouteTransfers/masked-rows-direct.mlir is
// the kernel with 62 rows held, which it refuses).

#DDR = {kind = "DDR", size = 1048576}
#LU = {kind = "LU", ktdf_arch.features = {ktdf_arch.feature.load}}
#SU = {kind = "SU", ktdf_arch.features = {ktdf_arch.feature.store}}
#VPU = {kind = "VPU", ktdf_arch.features = {ktdf_arch.feature.compute,
        ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 32>}}}
#Q = {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 8}}}
ktdf_arch.device @direct {
  %ddr = memory #DDR
  group {kind = "core"} share(%ddr) {
    %lu = exec_unit #LU
    %su = exec_unit #SU
    %vpu = exec_unit #VPU
    datapath %ddr to %lu : memory, exec_unit
    datapath #Q %lu to %vpu : exec_unit, exec_unit
    datapath #Q %vpu to %su : exec_unit, exec_unit
    datapath %su to %ddr : exec_unit, memory
  }
}
ktdf_arch.target @direct memory_map #ktdf_arch.map<"global" = "DDR">

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @scale(%x: index, %y: index) attributes {grid = [8]} {
  %id = ktdp.get_compute_tile_id : index
  %c8 = arith.constant 8 : index
  %r0 = arith.muli %id, %c8 : index
  %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [64, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %tx = ktdp.construct_access_tile %X[%r0, 0] {access_tile_set = #t, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<8x64xindex>
  %ty = ktdp.construct_access_tile %Y[%r0, 0] {access_tile_set = #t, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<8x64xindex>
  %v = ktdp.load %tx : <8x64xindex> -> tensor<8x64xf16>
  %two = arith.constant dense<2.0> : tensor<8x64xf16>
  %w = arith.mulf %v, %two : tensor<8x64xf16>
  ktdp.store %w, %ty : tensor<8x64xf16>, <8x64xindex>
  return
}
