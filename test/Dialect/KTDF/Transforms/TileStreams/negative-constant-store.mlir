// RUN: ktflow-opt %s --ktdf-mapping --ktdf-route-transfers --ktdf-tile-streams -verify-diagnostics

// A compute group that stores a constant reads no tile: the streamed stage
// has nothing that tells it how the value varies, and says so at the store
// (the message used to be "writing unknown of the tile").

ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @splat(%y: index) attributes {grid = [8]} {
  %id = ktdp.get_compute_tile_id : index
  %c8 = arith.constant 8 : index
  %r0 = arith.muli %id, %c8 : index
  %Y = ktdp.construct_memory_view %y, sizes: [64, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %ty = ktdp.construct_access_tile %Y[%r0, 0] {access_tile_set = #t, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<8x64xindex>
  %k = arith.constant dense<1.5> : tensor<8x64xf16>
  // expected-error @+1 {{cannot tell how the stored value varies over the tile (it is computed from no loaded tile, e.g. a constant or a fill)}}
  ktdp.store %k, %ty : tensor<8x64xf16>, <8x64xindex>
  return
}
