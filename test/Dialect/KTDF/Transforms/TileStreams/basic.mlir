// RUN: ktflow-opt %s --ktdf-mapping --ktdf-route-transfers --ktdf-tile-streams | FileCheck %s
// RUN: sed -e 's|../../../../../examples/devices/sample_device.mlir|%examples/devices/mesh_device.mlir|; s|@sample_device|@mesh_device|; s|"DDR"|"HBM"|; s|"L1"|"SPM"|' %s > %t.mlir
// RUN: ktflow-opt %t.mlir --ktdf-mapping --ktdf-route-transfers --ktdf-tile-streams=use-cost-model=false | FileCheck %s --check-prefix=MESH

// An element-wise tile streams row by row in chunks: 64 f16 (a 128-byte
// stick of sample_device's L1 ports); 32 f16 on mesh_device, whose ports
// state no granularity, so one SIMD width of its vector unit.

ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">

// CHECK: ktdf.stage "compute"
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK: scf.for %{{.*}} = %[[C0]] to %[[C8]] step %[[C1]] {
// CHECK-NEXT: scf.for %{{.*}} = %[[C0]] to %[[C64]] step %{{.*}} {
// CHECK-NEXT: %[[X:.*]] = ktdf.read_from_fifo {{.*}} -> tensor<64xf16>
// CHECK: %[[Y:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<64xf16>) outs(%{{.*}} : tensor<64xf16>)
// CHECK: arith.mulf
// CHECK: ktdf.write_to_fifo %[[Y]]

// MESH: ktdf.read_from_fifo {{.*}} -> tensor<32xf16>

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
