// RUN: ktflow-opt %s --ktir-to-ktdf | FileCheck %s

// A gather (a load of an indirect access tile) whose tensor is only
// expanded by a dimension of extent 1 before it is stored (paged_gather's
// tensor.expand_shape 2x64x64 -> 1x2x64x64, a copy after ktdf-generalize):
// the gather's slot carries the expanded type, the same bytes in the same
// order, and the copy goes away; the compute stage forwards the slot.

// CHECK-LABEL: func.func @paged
// CHECK: %[[G:.*]] = ktdp.construct_indirect_access_tile
// CHECK: ktdf.pipeline {
// CHECK-NEXT: %[[IN:.*]] = ktdf.private : !ktdf.fifo.slot<DDR -> vector_compute, 1x2x64x64xf16>
// CHECK: ktdf.data_transfer %[[G]] to %[[IN]]
// CHECK: %[[V:.*]] = ktdf.read_from_fifo %[[IN]] : {{.*}} -> tensor<1x2x64x64xf16>
// CHECK-NOT: linalg.generic
// CHECK: ktdf.write_to_fifo %[[V]]

#x = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 1 >= 0, d2 >= 0, -d2 + 15 >= 0, d3 >= 0, -d3 + 63 >= 0)>
#p = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#y = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 1 >= 0, d3 >= 0, -d3 + 63 >= 0)>
#v = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#yt = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 1 >= 0, d3 >= 0, -d3 + 63 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#swap = affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>
#drop = affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
module {
  ktdf_arch.target @sample_device from "../../../examples/devices/sample_device.mlir" memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">
  func.func @paged(%x: index, %idx: index, %y: index) attributes {grid = [2]} {
    %b = ktdp.get_compute_tile_id : index
    %X = ktdp.construct_memory_view %x, sizes: [16, 2, 16, 64], strides: [2048, 1024, 64, 1] {coordinate_set = #x, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<16x2x16x64xf16>
    %P = ktdp.construct_memory_view %idx, sizes: [2, 4], strides: [4, 1] {coordinate_set = #p, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<2x4xi32>
    %Y = ktdp.construct_memory_view %y, sizes: [2, 64, 2, 64], strides: [8192, 128, 64, 1] {coordinate_set = #y, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<2x64x2x64xf16>
    %g = ktdp.construct_indirect_access_tile intermediate_variables(%h, %t, %d) %X[ind(%P[%b, (%t floordiv 16)]), (%h), (%t mod 16), (%d)] {variables_space_set = #v, variables_space_order = #id3} : memref<16x2x16x64xf16>, memref<2x4xi32> -> !ktdp.access_tile<2x64x64xindex>
    %ty = ktdp.construct_access_tile %Y[%b, 0, 0, 0] {access_tile_set = #yt, access_tile_order = #swap} : memref<2x64x2x64xf16> -> !ktdp.access_tile<1x2x64x64xindex>
    %pages = ktdp.load %g : <2x64x64xindex> -> tensor<2x64x64xf16>
    %e = tensor.empty() : tensor<1x2x64x64xf16>
    %seq = linalg.generic {indexing_maps = [#drop, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%pages : tensor<2x64x64xf16>) outs(%e : tensor<1x2x64x64xf16>) {
    ^bb0(%in: f16, %out: f16):
      linalg.yield %in : f16
    } -> tensor<1x2x64x64xf16>
    ktdp.store %seq, %ty : tensor<1x2x64x64xf16>, <1x2x64x64xindex>
    return
  }
}
