// RUN: ktflow-opt %s --ktdf-map-memory-spaces | FileCheck %s

// Both spellings of KTIR's global space map to the device memory the
// target's memory map names.

ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<#ktdp.memory_space<global> = "DDR", #ktdp.memory_space<ct_local> = "L1">

#all = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
// CHECK-LABEL: func.func @spaces
func.func @spaces(%a: index, %b: index) attributes {grid = [1]} {
  // CHECK: ktdp.construct_memory_view {{.*}}ktdf.memory = "DDR", memory_space = #ktdp.spyre_memory_space<HBM>
  %A = ktdp.construct_memory_view %a, sizes: [64], strides: [1] {coordinate_set = #all, memory_space = #ktdp.spyre_memory_space<HBM>} : memref<64xf16>
  // CHECK: ktdp.construct_memory_view {{.*}}ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>
  %B = ktdp.construct_memory_view %b, sizes: [64], strides: [1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  // CHECK: ktdp.construct_memory_view {{.*}}ktdf.memory = "L1", memory_space = #ktdp.spyre_memory_space<LX, core = 0>
  %C = ktdp.construct_memory_view %a, sizes: [64], strides: [1] {coordinate_set = #all, memory_space = #ktdp.spyre_memory_space<LX, core = 0>} : memref<64xf16, #ktdp.spyre_memory_space<LX, core = 0>>
  return
}
