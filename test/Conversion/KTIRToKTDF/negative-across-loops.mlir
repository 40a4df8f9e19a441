// RUN: ktflow-opt %s --ktdf-map-memory-spaces --ktir-to-ktdf -verify-diagnostics

// A tile loaded outside a loop and stored inside it would make a compute
// group cross a loop boundary.

ktdf_arch.target @sample_device from "../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @hoisted(%x: index, %y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [64, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #row, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
  // expected-error @+1 {{tensor value is used outside its block; compute groups must not cross loops}}
  %v = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
  scf.for %i = %c0 to %c8 step %c1 {
    %ty = ktdp.construct_access_tile %Y[%i, 0] {access_tile_set = #row, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
    ktdp.store %v, %ty : tensor<1x64xf16>, <1x64xindex>
  }
  return
}
