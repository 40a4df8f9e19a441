// RUN: ktflow-opt %s --ktir-to-ktdf -verify-diagnostics

// A tile loaded outside a loop and stored inside it would make a compute
// group cross a loop boundary.

// Input: the KTIR ktir-to-ktdf receives, printed once by
// `ktflow-opt KERNEL --ktdf-map-memory-spaces` from a KTIR kernel.

#map = affine_map<(d0, d1) -> (d0, d1)>
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#set1 = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
module {
  ktdf_arch.target @sample_device from "../../../examples/devices/sample_device.mlir" memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">
  func.func @hoisted(%arg0: index, %arg1: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %0 = ktdp.construct_memory_view %arg0, sizes: [64, 64], strides: [64, 1] {coordinate_set = #set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %1 = ktdp.construct_memory_view %arg1, sizes: [64, 64], strides: [64, 1] {coordinate_set = #set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %2 = ktdp.construct_access_tile %0[0, 0] {access_tile_order = #map, access_tile_set = #set1} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
    // expected-error @+1 {{tensor value is used outside its block; compute groups must not cross loops}}
    %3 = ktdp.load %2 : <1x64xindex> -> tensor<1x64xf16>
    scf.for %arg2 = %c0 to %c8 step %c1 {
      %4 = ktdp.construct_access_tile %1[%arg2, 0] {access_tile_order = #map, access_tile_set = #set1} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
      ktdp.store %3, %4 : tensor<1x64xf16>, <1x64xindex>
    }
    return
  }
}
