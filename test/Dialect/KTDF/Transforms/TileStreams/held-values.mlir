// RUN: ktflow-opt %s -split-input-file --ktdf-mapping --ktdf-route-transfers --ktdf-tile-streams | FileCheck %s

// A row softmax's division reads exp(x - max), which the sum pass computed
// (kept-values.mlir). When the row is at most 8 chunks and, on a unit with
// a register memory of its own, takes at most half of it, the compute unit
// holds the exp chunks: the sum pass's and the division's chunk loops are
// unrolled and each division reads the exp value of its chunk. Nothing is
// sent to the store unit, stored or read back.

// spyre_like's SFP states no register memory: a 1x256 row in the cost
// model's 2 chunks of 128 is held.

// CHECK-LABEL: func.func @softmax
// CHECK-NOT: ktdf.kept
// CHECK: %[[IN:.*]] = ktdf.private : !ktdf.fifo.slot<"core/corelet/LXLU" -> "core/corelet/SFP", 128xf16>
// CHECK: %[[OUT:.*]] = ktdf.private : !ktdf.fifo.slot<"core/corelet/SFP" -> "core/corelet/LXSU", 128xf16>
// CHECK: ktdf.stage "feed"
// CHECK-COUNT-2: ktdf.data_transfer {{.*}} to %[[IN]]
// CHECK-NOT: ktdf.data_transfer
// CHECK: ktdf.stage "compute"
// CHECK: scf.for
// CHECK: arith.maxnumf
// The sum pass, unrolled: two exp chunks, each folded into the sum.
// CHECK-NOT: scf.for
// CHECK: ktdf.read_from_fifo %[[IN]]
// CHECK: %[[E0:.*]] = linalg.generic {{.*}}iterator_types = ["parallel"]
// CHECK: math.exp
// CHECK: %[[S0:.*]] = linalg.generic {{.*}}iterator_types = ["reduction"]
// CHECK: ktdf.read_from_fifo %[[IN]]
// CHECK: %[[E1:.*]] = linalg.generic {{.*}}iterator_types = ["parallel"]
// CHECK: math.exp
// CHECK: %[[S:.*]] = linalg.generic {{.*}}iterator_types = ["reduction"]{{.*}} outs(%[[S0]] :
// The division, unrolled, reads the held chunks.
// CHECK-NOT: ktdf.read_from_fifo
// CHECK: linalg.generic {{.*}} ins(%[[E0]], %[[S]] :
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.divf
// CHECK: ktdf.write_to_fifo {{.*}} to %[[OUT]]
// CHECK: linalg.generic {{.*}} ins(%[[E1]], %[[S]] :
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.divf
// CHECK: ktdf.write_to_fifo {{.*}} to %[[OUT]]
// CHECK-NOT: ktdf.write_to_fifo
// CHECK: ktdf.stage "drain"
// CHECK-COUNT-1: ktdf.data_transfer %[[OUT]]
// CHECK-NOT: ktdf.data_transfer %[[OUT]]
// CHECK: ktdf.stage "store_0"

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 255 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
func.func @softmax(%x_ptr: index, %y_ptr: index) attributes {grid = [64]} {
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
  %shifted = arith.subf %x, %mb : tensor<1x256xf16>
  %e = math.exp %shifted : tensor<1x256xf16>
  %sum_init = tensor.splat %zero : tensor<1xf16>
  %sum = linalg.reduce { arith.addf } ins(%e : tensor<1x256xf16>) outs(%sum_init : tensor<1xf16>) dimensions = [1]
  %s = tensor.extract %sum[%c0] : tensor<1xf16>
  %sb = tensor.splat %s : tensor<1x256xf16>
  %y = arith.divf %e, %sb : tensor<1x256xf16>
  %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x256xindex>
  ktdp.store %y, %ty : tensor<1x256xf16>, <1x256xindex>
  return
}

// -----

// sample_device's SFU has a 2 KiB register memory (SFU_RF): a 1x512 f16
// row, 1 KiB in the cost model's 4 chunks of 128, takes half of it and is
// held.

// CHECK-LABEL: func.func @softmax_512
// CHECK-NOT: ktdf.kept
// CHECK: ktdf.stage "compute"
// CHECK: %[[E0:.*]] = linalg.generic {{.*}}iterator_types = ["parallel"]
// CHECK: %[[E1:.*]] = linalg.generic {{.*}}iterator_types = ["parallel"]
// CHECK: %[[E2:.*]] = linalg.generic {{.*}}iterator_types = ["parallel"]
// CHECK: %[[E3:.*]] = linalg.generic {{.*}}iterator_types = ["parallel"]
// CHECK: %[[S:.*]] = linalg.generic {{.*}}iterator_types = ["reduction"]
// CHECK: linalg.generic {{.*}} ins(%[[E0]], %[[S]] :
// CHECK: linalg.generic {{.*}} ins(%[[E1]], %[[S]] :
// CHECK: linalg.generic {{.*}} ins(%[[E2]], %[[S]] :
// CHECK: linalg.generic {{.*}} ins(%[[E3]], %[[S]] :
// CHECK: ktdf.stage "drain"

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 511 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">
func.func @softmax_512(%x_ptr: index, %y_ptr: index) attributes {grid = [64]} {
  %r = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %ninf = arith.constant 0xFC00 : f16
  %zero = arith.constant 0x0000 : f16
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 512], strides: [512, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x512xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 512], strides: [512, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x512xf16>
  %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x512xindex>
  %x = ktdp.load %tx : <1x512xindex> -> tensor<1x512xf16>
  %max_init = tensor.splat %ninf : tensor<1xf16>
  %max = linalg.reduce { arith.maxnumf } ins(%x : tensor<1x512xf16>) outs(%max_init : tensor<1xf16>) dimensions = [1]
  %m = tensor.extract %max[%c0] : tensor<1xf16>
  %mb = tensor.splat %m : tensor<1x512xf16>
  %shifted = arith.subf %x, %mb : tensor<1x512xf16>
  %e = math.exp %shifted : tensor<1x512xf16>
  %sum_init = tensor.splat %zero : tensor<1xf16>
  %sum = linalg.reduce { arith.addf } ins(%e : tensor<1x512xf16>) outs(%sum_init : tensor<1xf16>) dimensions = [1]
  %s = tensor.extract %sum[%c0] : tensor<1xf16>
  %sb = tensor.splat %s : tensor<1x512xf16>
  %y = arith.divf %e, %sb : tensor<1x512xf16>
  %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x512xindex>
  ktdp.store %y, %ty : tensor<1x512xf16>, <1x512xindex>
  return
}

// -----

// A 1x1024 f16 row is 2 KiB, more than half of the SFU's register memory:
// the exp goes through the scratchpad (kept-values.mlir) instead.

// CHECK-LABEL: func.func @softmax_1024
// CHECK: ktdf.private {ktdf.kept} : memref<1x1024xf16, "L1">
// CHECK: ktdf.stage "compute"
// CHECK: scf.for
// CHECK: scf.for
// CHECK: math.exp
// CHECK: scf.for
// CHECK: ktdf.read_from_fifo
// CHECK: arith.divf

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 1023 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">
func.func @softmax_1024(%x_ptr: index, %y_ptr: index) attributes {grid = [64]} {
  %r = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %ninf = arith.constant 0xFC00 : f16
  %zero = arith.constant 0x0000 : f16
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 1024], strides: [1024, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x1024xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 1024], strides: [1024, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x1024xf16>
  %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x1024xf16> -> !ktdp.access_tile<1x1024xindex>
  %x = ktdp.load %tx : <1x1024xindex> -> tensor<1x1024xf16>
  %max_init = tensor.splat %ninf : tensor<1xf16>
  %max = linalg.reduce { arith.maxnumf } ins(%x : tensor<1x1024xf16>) outs(%max_init : tensor<1xf16>) dimensions = [1]
  %m = tensor.extract %max[%c0] : tensor<1xf16>
  %mb = tensor.splat %m : tensor<1x1024xf16>
  %shifted = arith.subf %x, %mb : tensor<1x1024xf16>
  %e = math.exp %shifted : tensor<1x1024xf16>
  %sum_init = tensor.splat %zero : tensor<1xf16>
  %sum = linalg.reduce { arith.addf } ins(%e : tensor<1x1024xf16>) outs(%sum_init : tensor<1xf16>) dimensions = [1]
  %s = tensor.extract %sum[%c0] : tensor<1xf16>
  %sb = tensor.splat %s : tensor<1x1024xf16>
  %y = arith.divf %e, %sb : tensor<1x1024xf16>
  %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x1024xf16> -> !ktdp.access_tile<1x1024xindex>
  ktdp.store %y, %ty : tensor<1x1024xf16>, <1x1024xindex>
  return
}
