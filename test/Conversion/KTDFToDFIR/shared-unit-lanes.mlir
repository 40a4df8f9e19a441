// RUN: ktflow-opt %s --ktdf-compile | FileCheck %s

// A unit that several lanes share walks their loops together. On
// sample_device a core's DMA engines (MNILU, MNISU) serve both sub-cores:
// their programs run one loop over the most trips either lane has, and its
// iteration t loads (stores) the row of iteration t of lane 0, then of
// lane 1, each under its own trip guard, instead of lane 0's whole loop
// before lane 1's (which starved lane 1's SFU while the engine waited for
// a free copy of lane 0's buffer). A lane's own units keep one loop.

// CHECK-LABEL: dfir.unit "core[0]/MNILU_Block/MNILU"
// CHECK: arith.maxui
// CHECK: %[[MOST:.*]] = arith.maxui
// CHECK-NEXT: scf.for %[[T:arg[0-9]+]] = %{{[a-z0-9_]+}} to %[[MOST]] step
// CHECK: arith.cmpi ult, %[[T]]
// CHECK: arith.cmpi ult, %[[T]]
// CHECK: scf.for
// CHECK: dfir.dma {{.*}} from "DDR"
// CHECK: dfir.sync_send @p0_full0_c0_l0
// CHECK: scf.for
// CHECK: dfir.dma {{.*}} from "DDR"
// CHECK: dfir.sync_send @p0_full0_c0_l1
// CHECK-LABEL: dfir.unit "core[0]/MNISU_Block/MNISU"
// CHECK: arith.maxui
// CHECK: %[[MOST2:.*]] = arith.maxui
// CHECK-NEXT: scf.for %[[T2:arg[0-9]+]] = %{{[a-z0-9_]+}} to %[[MOST2]] step
// CHECK: arith.cmpi ult, %[[T2]]
// CHECK: arith.cmpi ult, %[[T2]]
// CHECK: dfir.sync_recv @p0_full{{[0-9]+}}_c0_l0
// CHECK: dfir.sync_recv @p0_full{{[0-9]+}}_c0_l1
// CHECK-LABEL: dfir.unit "core[0]/subcore[0]/L1LU"
// CHECK-NOT: arith.maxui
// CHECK: dfir.unit

ktdf_arch.target @sample_device from "../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @rows(%x: index, %y: index) attributes {grid = [8]} {
  %pid = ktdp.get_compute_tile_id : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [64, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  scf.for %r = %pid to %c64 step %c8 {
    %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
    %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
    %v = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
    %e = math.exp %v : tensor<1x64xf16>
    ktdp.store %e, %ty : tensor<1x64xf16>, <1x64xindex>
  }
  return
}
