// RUN: ktflow-opt %s --ktdf-mapping --ktdf-route-transfers --ktdf-buffer=depth=2 --ktdf-allocate-scratchpad -verify-diagnostics

// Two copies each of a 256x1024 f16 input and output tile need 2 MiB of
// L1 per lane; sample_device's L1 has 1 MiB for two lanes.

ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @big(%x: index, %y: index) attributes {grid = [1]} {
  %X = ktdp.construct_memory_view %x, sizes: [256, 1024], strides: [1024, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<256x1024xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [256, 1024], strides: [1024, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<256x1024xf16>
  %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #all, access_tile_order = #id} : memref<256x1024xf16> -> !ktdp.access_tile<256x1024xindex>
  %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #all, access_tile_order = #id} : memref<256x1024xf16> -> !ktdp.access_tile<256x1024xindex>
  %v = ktdp.load %tx : <256x1024xindex> -> tensor<256x1024xf16>
  // expected-error @+1 {{scratchpad over capacity: the pipelines of this kernel need 2097152 bytes of 'L1' per lane, 2 lane(s) share it, and it has 1048576 bytes}}
  ktdp.store %v, %ty : tensor<256x1024xf16>, <256x1024xindex>
  return
}
