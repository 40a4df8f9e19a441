// RUN: ktflow-opt %s -split-input-file --ktdf-mapping --ktdf-route-transfers --ktdf-tile-streams=chunk=128 | FileCheck %s
// RUN: ktflow-opt %s -split-input-file --ktdf-mapping --ktdf-route-transfers --ktdf-tile-streams=use-cost-model=false | FileCheck %s --check-prefix=O0

// A row softmax streams each 1x2048 row three times: the maximum, the exp
// and its sum, the division. The division needs exp(x - max), which the
// second pass computed. A row of 16 chunks of 128 is more than the SFP
// holds for a later pass (8 chunks: held-values.mlir), so the choice is
// the scratchpad or recomputing: on spyre_like's SFP (64 f16 lanes,
// transcendentals at a quarter of that) recomputing it costs a chunk 2 + 8
// = 10 cycles, sending it to the store unit 256 B over the 128 B/cycle
// FIFO 2. So the second pass sends each exp chunk out, the drain stores it
// in a buffer marked ktdf.kept, the feed reads it back in the third pass
// in place of x, and the third pass only divides.

// CHECK-LABEL: func.func @softmax
// CHECK-DAG: %[[X:.*]] = ktdf.private : memref<1x2048xf16, "LX">
// CHECK-DAG: %[[KEPT:.*]] = ktdf.private {ktdf.kept} : memref<1x2048xf16, "LX">
// CHECK-DAG: %[[OUT:.*]] = ktdf.private : !ktdf.fifo.slot<"core/corelet/SFP" -> "core/corelet/LXSU", 128xf16>
// CHECK-DAG: %[[IN:.*]] = ktdf.private : !ktdf.fifo.slot<"core/corelet/LXLU" -> "core/corelet/SFP", 128xf16>
// CHECK: ktdf.stage "feed"
// CHECK: scf.for %[[R:.*]] = {{.*}} {
// CHECK-NEXT: scf.for
// CHECK-NEXT: ktdf.data_transfer %[[X]]
// CHECK: scf.for
// CHECK-NEXT: ktdf.data_transfer %[[X]]
// CHECK: scf.for %[[C:.*]] = {{.*}} {
// CHECK-NEXT: ktdf.data_transfer %[[KEPT]][%[[R]], %[[C]]] to %[[IN]]
// CHECK: ktdf.stage "compute"
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction"]
// CHECK: arith.maxnumf
// CHECK: %[[E:.*]] = linalg.generic {{.*}}iterator_types = ["parallel"]
// CHECK: math.exp
// CHECK: arith.addf
// CHECK: ktdf.write_to_fifo %[[E]] to %[[OUT]]
// CHECK: scf.for
// CHECK-NEXT: %[[E2:.*]] = ktdf.read_from_fifo %[[IN]]
// CHECK-NEXT: tensor.empty
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[E2]],
// CHECK-NOT: math.exp
// CHECK: arith.divf
// CHECK: ktdf.stage "drain"
// CHECK: scf.for %[[DR:.*]] = {{.*}} {
// CHECK-NEXT: scf.for %[[DC:.*]] = {{.*}} {
// CHECK-NEXT: ktdf.data_transfer %[[OUT]] to %[[KEPT]][%[[DR]], %[[DC]]]

// -O0 (one SIMD width, no cost model) recomputes.
// O0-LABEL: func.func @softmax
// O0-NOT: ktdf.kept
// O0: arith.divf
// O0-NOT: ktdf.kept

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 2047 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 2047 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
func.func @softmax(%x_ptr: index, %y_ptr: index) attributes {grid = [64]} {
  %r = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %ninf = arith.constant 0xFC00 : f16
  %zero = arith.constant 0x0000 : f16
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 2048], strides: [2048, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x2048xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 2048], strides: [2048, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x2048xf16>
  %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x2048xf16> -> !ktdp.access_tile<1x2048xindex>
  %x = ktdp.load %tx : <1x2048xindex> -> tensor<1x2048xf16>
  %max_init = tensor.splat %ninf : tensor<1xf16>
  %max = linalg.reduce { arith.maxnumf } ins(%x : tensor<1x2048xf16>) outs(%max_init : tensor<1xf16>) dimensions = [1]
  %m = tensor.extract %max[%c0] : tensor<1xf16>
  %mb = tensor.splat %m : tensor<1x2048xf16>
  %shifted = arith.subf %x, %mb : tensor<1x2048xf16>
  %e = math.exp %shifted : tensor<1x2048xf16>
  %sum_init = tensor.splat %zero : tensor<1xf16>
  %sum = linalg.reduce { arith.addf } ins(%e : tensor<1x2048xf16>) outs(%sum_init : tensor<1xf16>) dimensions = [1]
  %s = tensor.extract %sum[%c0] : tensor<1xf16>
  %sb = tensor.splat %s : tensor<1x2048xf16>
  %y = arith.divf %e, %sb : tensor<1x2048xf16>
  %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x2048xf16> -> !ktdp.access_tile<1x2048xindex>
  ktdp.store %y, %ty : tensor<1x2048xf16>, <1x2048xindex>
  return
}

// -----

// Centred over its sum: the subtraction x - max is part of the sum's body
// and of the division's (ktdf-generalize fuses it into both users), not a
// value a pass computes on its own: nothing is kept, nor held.

// CHECK-LABEL: func.func @centred
// CHECK-NOT: ktdf.kept
// CHECK: ktdf.stage "compute"
// CHECK: arith.subf
// CHECK: arith.subf
// CHECK: arith.divf
// CHECK-NOT: ktdf.kept

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 255 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
func.func @centred(%x_ptr: index, %y_ptr: index) attributes {grid = [64]} {
  %r = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %ninf = arith.constant 0xFC00 : f16
  %zero = arith.constant 0x0000 : f16
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
  %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x256xindex>
  %x = ktdp.load %tx : <1x256xindex> -> tensor<1x256xf16>
  %max_init = tensor.splat %ninf : tensor<1xf16>
  %max = linalg.reduce { arith.maxnumf } ins(%x : tensor<1x256xf16>) outs(%max_init : tensor<1xf16>) dimensions = [1]
  %m = tensor.extract %max[%c0] : tensor<1xf16>
  %mb = tensor.splat %m : tensor<1x256xf16>
  %d = arith.subf %x, %mb : tensor<1x256xf16>
  %sum_init = tensor.splat %zero : tensor<1xf16>
  %sum = linalg.reduce { arith.addf } ins(%d : tensor<1x256xf16>) outs(%sum_init : tensor<1xf16>) dimensions = [1]
  %s = tensor.extract %sum[%c0] : tensor<1xf16>
  %sb = tensor.splat %s : tensor<1x256xf16>
  %y = arith.divf %d, %sb : tensor<1x256xf16>
  %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x256xindex>
  ktdp.store %y, %ty : tensor<1x256xf16>, <1x256xindex>
  return
}
