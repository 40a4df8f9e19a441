// RUN: ktflow-opt %s --ktdf-compile | FileCheck %s
// RUN: ktflow run %s --check | FileCheck %s --check-prefix=SIM

// A streamed value kept for a later pass over the row (ktdf-tile-streams,
// a softmax's exp read back by its normalising pass; a 1x1024 f16 row, 2
// KiB, more than half of sample_device's SFU register memory, so the SFU
// does not hold it: TileStreams/held-values.mlir): the store unit hands
// the kept buffer to the load unit right after it stores a row of it, and
// the load unit waits for it just before the loop that feeds it back, in
// the middle of its stage: the first two passes' loads of x go ahead of
// the hand-over. The results equal the interpreter's.

// CHECK-LABEL: dfir.unit "core[0]/subcore[0]/L1LU"
// CHECK: dfir.sync_recv @p0_full0_c0_l0
// CHECK: scf.for
// CHECK: dfir.address @[[X:p0_buf0_c0_l0]]
// CHECK: dfir.load
// CHECK: scf.for
// CHECK: dfir.address @[[X]]
// CHECK: dfir.load
// CHECK: }
// CHECK-NEXT: dfir.sync_recv @[[KEPT:p0_kept[0-9]+_c0_l0]]
// CHECK-NEXT: scf.for
// CHECK: dfir.address @[[KBUF:p0_buf[0-9]+_c0_l0]]
// CHECK: dfir.load
// CHECK: dfir.sync_send @p0_free0_c0_l0
// CHECK-LABEL: dfir.unit "core[0]/subcore[0]/L1SU"
// CHECK: dfir.address @[[KBUF]]
// CHECK: dfir.store
// CHECK-NEXT: dfir.sync_send @[[KEPT]]
// CHECK: dfir.store
// CHECK: dfir.sync_send @p0_full1_c0_l0

// SIM: PASS

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 1023 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
ktdf_arch.target @sample_device from "../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">
func.func @softmax(%x_ptr: index, %y_ptr: index) attributes {grid = [64]} {
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

