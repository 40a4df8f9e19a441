// RUN: ktflow-opt %s --ktdf-mapping --ktdf-route-transfers --ktdf-tile-streams | FileCheck %s
// RUN: ktflow-opt %s --ktdf-mapping --ktdf-route-transfers --ktdf-tile-streams=chunk=128 | FileCheck %s --check-prefix=WIDE

// A row reduction whose result the rest of the row needs: per row, pass 0
// folds 64-element chunks (sample_device's L1 ports move 128-byte sticks)
// into the row's maximum, carried by the chunk loop; pass 1 streams the
// row again and subtracts. The feed stage streams the row twice, in the
// same order the compute stage reads it.

ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">

// CHECK: %[[SLOT:.*]] = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
// CHECK: ktdf.stage "feed"
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: ktdf.data_transfer %{{.*}}[%[[R]], %[[C]]] to %[[SLOT]]
// CHECK: scf.for %[[C2:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: ktdf.data_transfer %{{.*}}[%[[R]], %[[C2]]] to %[[SLOT]]
// CHECK: ktdf.stage "compute"
// CHECK: scf.for
// CHECK: %[[INIT:.*]] = linalg.generic {{.*}}iterator_types = []} outs(%{{.*}} : tensor<f16>)
// CHECK: %[[MAX:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (tensor<f16>) {
// CHECK-NEXT: %[[X:.*]] = ktdf.read_from_fifo %[[SLOT]] : {{.*}} -> tensor<64xf16>
// CHECK-NEXT: %[[M:.*]] = linalg.generic {{.*}}iterator_types = ["reduction"]} ins(%[[X]] : tensor<64xf16>) outs(%[[ACC]] : tensor<f16>)
// CHECK: arith.maximumf
// CHECK: scf.yield %[[M]] : tensor<f16>
// CHECK: scf.for
// CHECK-NEXT: %[[X2:.*]] = ktdf.read_from_fifo %[[SLOT]]
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel"]} ins(%[[X2]], %[[MAX]] : tensor<64xf16>, tensor<f16>)
// CHECK: arith.subf
// CHECK: ktdf.write_to_fifo
// CHECK: ktdf.stage "drain"

// WIDE: !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 128xf16>
// WIDE: ktdf.read_from_fifo {{.*}} -> tensor<128xf16>

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @rowmax(%x: index, %y: index) attributes {grid = [4]} {
  %id = ktdp.get_compute_tile_id : index
  %c2 = arith.constant 2 : index
  %r0 = arith.muli %id, %c2 : index
  %X = ktdp.construct_memory_view %x, sizes: [8, 128], strides: [128, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [8, 128], strides: [128, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
  %tx = ktdp.construct_access_tile %X[%r0, 0] {access_tile_set = #t, access_tile_order = #id} : memref<8x128xf16> -> !ktdp.access_tile<2x128xindex>
  %ty = ktdp.construct_access_tile %Y[%r0, 0] {access_tile_set = #t, access_tile_order = #id} : memref<8x128xf16> -> !ktdp.access_tile<2x128xindex>
  %v = ktdp.load %tx : <2x128xindex> -> tensor<2x128xf16>
  %ninf = arith.constant 0xFC00 : f16
  %e = tensor.empty() : tensor<2xf16>
  %init = linalg.fill ins(%ninf : f16) outs(%e : tensor<2xf16>) -> tensor<2xf16>
  %m = linalg.reduce ins(%v : tensor<2x128xf16>) outs(%init : tensor<2xf16>) dimensions = [1]
    (%in: f16, %acc: f16) {
      %r = arith.maximumf %in, %acc : f16
      linalg.yield %r : f16
    }
  %full = tensor.empty() : tensor<2x128xf16>
  %mb = linalg.broadcast ins(%m : tensor<2xf16>) outs(%full : tensor<2x128xf16>) dimensions = [1]
  %w = arith.subf %v, %mb : tensor<2x128xf16>
  ktdp.store %w, %ty : tensor<2x128xf16>, <2x128xindex>
  return
}
