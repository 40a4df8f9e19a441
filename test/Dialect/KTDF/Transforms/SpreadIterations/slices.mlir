// RUN: ktflow-opt %s --ktdf-mapping --ktdf-route-transfers --ktdf-tile-streams=chunk=64 --ktdf-spread-iterations --ktdf-distribute | FileCheck %s

// ktdf-split-row-tiles' row slices of a grid-stride loop of run-time trips:
// a loop of 4 slices holding the block loop alone. 64 / 8 = 8 copies of
// each of spyre_like's 8 points: 4 slices x 2 trip copies. Copy %j runs
// slice %j mod 4 (one trip of the slice loop, shifted by it) and, of the
// block loop, the trips (%j div 4), (%j div 4) + 2, ... (step 2 x 8).

// CHECK-LABEL: func.func @sliced
// CHECK:       ktdf.parallel (%[[PID:.*]], %[[J:.*]]) in [8, 8] distribute(num_instances = 64)
// CHECK:       ktdp.construct_memory_view
// CHECK:       %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:  %[[SLICE:.*]] = arith.remui %[[J]], %[[C4]] : index
// CHECK-NEXT:  %[[TRIP:.*]] = arith.divui %[[J]], %[[C4]] : index
// CHECK:       %[[SHIFT:.*]] = arith.muli %[[SLICE]], %{{.*}} : index
// CHECK:       scf.for %[[S:.*]] = %{{.*}} to %{{.*}} step
// CHECK:         arith.addi %[[S]], %[[SHIFT]] : index
// CHECK:         %[[OFF:.*]] = arith.muli %[[TRIP]], %{{.*}} : index
// CHECK:         %[[LB:.*]] = arith.addi %[[PID]], %[[OFF]] : index
// CHECK:         %[[WIDE:.*]] = arith.constant 16 : index
// CHECK:         scf.for %{{.*}} = %[[LB]] to %{{.*}} step %[[WIDE]]
// CHECK:           ktdf.pipeline

ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 4095 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @sliced(%x: index, %y: index, %n: index) attributes {grid = [8]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %X = ktdp.construct_memory_view %x, sizes: [64, 4096], strides: [4096, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x4096xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [64, 4096], strides: [4096, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x4096xf16>
  scf.for %s = %c0 to %c4 step %c1 {
    %row = arith.muli %s, %c16 : index
    scf.for %b = %pid to %n step %c8 {
      %col = arith.muli %b, %c64 : index
      %tx = ktdp.construct_access_tile %X[%row, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x4096xf16> -> !ktdp.access_tile<16x64xindex>
      %ty = ktdp.construct_access_tile %Y[%row, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x4096xf16> -> !ktdp.access_tile<16x64xindex>
      %v = ktdp.load %tx : <16x64xindex> -> tensor<16x64xf16>
      %e = math.exp %v : tensor<16x64xf16>
      ktdp.store %e, %ty : tensor<16x64xf16>, <16x64xindex>
    }
  }
  return
}
