// RUN: ktflow-opt %s --ktdf-compile=O0 | FileCheck %s

// A row gather in a permuted variable order (a transposed gather): the
// tile walks (d1, d0), so the 16 rows of 32 f16 land as the columns of a
// 32x16 buffer. Per row d0 the DMA unit reads the row's index (from the
// box of them ktdf-route-transfers staged in SPM, which mesh_device's DMA
// engine reads sooner than HBM), and moves
// the row as one strided DMA: 32 rows of 2 bytes, 2 bytes apart in the
// table and 32 bytes (16 elements) apart in the buffer, starting at
// element d0 of the buffer (2 d0 bytes). No two rows coalesce (no pending
// run rides along the loop).
// CHECK-LABEL: dfir.unit "tile[0]/DMA"
// CHECK: scf.for %[[ROW:.*]] = %{{.*}} to %c16{{.*}} step
// CHECK: %[[D0:.*]] = arith.remui %[[ROW]], %c16
// CHECK: dfir.read_index "tile[0]/SPM"[%{{.*}}] : i32 below %c64
// CHECK: arith.muli %[[D0]], %c1{{.*}} : index
// CHECK: %[[BYTES:.*]] = arith.muli %{{.*}}, %c2{{.*}} : index
// CHECK-NEXT: %[[AT:.*]] = arith.addi %{{.*}}, %[[BYTES]] : index
// CHECK: dfir.dma %c2{{.*}} bytes from "HBM"[%{{.*}}] to "tile[0]/SPM"[%[[AT]]] rows %c32{{.*}} strides %c2{{.*}}, %c32
// CHECK-NEXT: scf.yield
// CHECK-LABEL: dfir.unit "tile[0]/VPU"

#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#i = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#v = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#y = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#swap = affine_map<(d0, d1) -> (d1, d0)>
ktdf_arch.target @mesh_device from "../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">

func.func @columns(%tp: index, %ip: index, %yp: index) attributes {grid = [1]} {
  %T = ktdp.construct_memory_view %tp, sizes: [64, 32], strides: [32, 1] {coordinate_set = #t, memory_space = #ktdp.memory_space<global>} : memref<64x32xf16>
  %I = ktdp.construct_memory_view %ip, sizes: [16], strides: [1] {coordinate_set = #i, memory_space = #ktdp.memory_space<global>} : memref<16xi32>
  %Y = ktdp.construct_memory_view %yp, sizes: [32, 16], strides: [16, 1] {coordinate_set = #y, memory_space = #ktdp.memory_space<global>} : memref<32x16xf16>
  %cols = ktdp.construct_indirect_access_tile intermediate_variables(%d0, %d1) %T[ind(%I[%d0]), (%d1)] {variables_space_set = #v, variables_space_order = #swap} : memref<64x32xf16>, memref<16xi32> -> !ktdp.access_tile<32x16xindex>
  %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #y, access_tile_order = #id2} : memref<32x16xf16> -> !ktdp.access_tile<32x16xindex>
  %x = ktdp.load %cols : <32x16xindex> -> tensor<32x16xf16>
  %w = arith.addf %x, %x : tensor<32x16xf16>
  ktdp.store %w, %ty : tensor<32x16xf16>, <32x16xindex>
  return
}
