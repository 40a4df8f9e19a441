// RUN: ktflow-opt %s --ktdf-map-memory-spaces -verify-diagnostics

// A memory map without ct_local cannot place a scratchpad view.

ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR">

#all = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
func.func @local(%a: index) attributes {grid = [1]} {
  // expected-error @+1 {{the target's memory map does not map KTIR's 'ct_local' memory space to a device memory}}
  %C = ktdp.construct_memory_view %a, sizes: [64], strides: [1] {coordinate_set = #all, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<64xf16>
  return
}
