// RUN: ktflow-opt %s --ktdf-compile | FileCheck %s

// The grid points of a lane run one after another on its units. On
// mesh_device, whose core has one DMA engine that both loads and stores,
// the engine's walk over its lane's points (32 points of an 8x64 block over
// 16 tiles: 2 each) is skewed like a loop whose body is one pipeline
// (skewed-loop.mlir): the first point's load before the walk, then per
// point the next point's load (guarded: not after the last) before this
// point's store. ktdf-coarsen, knowing the engine skews, keeps the two
// points instead of merging them into one 16x64 block: 391 cycles, where
// one block per tile took 455 (ktflow run --check passes). The VPU's walk
// is not skewed.

// CHECK-LABEL: dfir.unit "tile[0]/DMA"
// CHECK: dfir.dma {{.*}} from "HBM"
// CHECK: scf.for %[[J:arg[0-9]+]] = %{{.*}} to %[[TWO:c2[_0-9]*]] step
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[J]]
// CHECK: arith.cmpi slt, %[[NEXT]], %[[TWO]]
// CHECK: dfir.dma {{.*}} from "HBM"
// CHECK: dfir.sync_recv @p0_full
// CHECK: dfir.dma {{.*}} from "tile[0]/SPM"{{.*}} to "HBM"
// CHECK: } {dfir.skewed = 1 : i64}
// CHECK-LABEL: dfir.unit "tile[0]/VPU"
// CHECK-NOT: dfir.skewed
// CHECK: dfir.unit

ktdf_arch.target @mesh_device from "../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM">

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @blocks(%x: index, %y: index) attributes {grid = [32]} {
  %pid = ktdp.get_compute_tile_id : index
  %c8 = arith.constant 8 : index
  %row = arith.muli %pid, %c8 : index
  %X = ktdp.construct_memory_view %x, sizes: [256, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<256x64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [256, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<256x64xf16>
  %tx = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<256x64xf16> -> !ktdp.access_tile<8x64xindex>
  %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<256x64xf16> -> !ktdp.access_tile<8x64xindex>
  %v = ktdp.load %tx : <8x64xindex> -> tensor<8x64xf16>
  %e = math.exp %v : tensor<8x64xf16>
  ktdp.store %e, %ty : tensor<8x64xf16>, <8x64xindex>
  return
}
