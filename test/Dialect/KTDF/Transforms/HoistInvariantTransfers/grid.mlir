// RUN: ktflow-opt %s --ktdf-mapping --ktdf-route-transfers --ktdf-tile-streams=chunk=64 --ktdf-distribute --ktdf-buffer=depth=2 --ktdf-hoist-invariant-transfers | FileCheck %s
// RUN: ktflow-opt %s --ktdf-mapping --ktdf-route-transfers --ktdf-tile-streams=chunk=64 --ktdf-distribute --ktdf-buffer=depth=2 --ktdf-hoist-invariant-transfers=grid=false | FileCheck %s --check-prefix=NOGRID

// A load that reads the same vector at every grid point leaves the grid
// when a lane walks several points: sample_device has 8 lanes, so a grid
// of 32 gives each lane 4 points and the vector is loaded once per lane
// (a per_instance pipeline at the top of the parallel body). With a grid
// of 8 every lane has one point and nothing moves. With grid=false the
// loads stay in the grid.

// NOGRID-NOT: per_instance
// NOGRID-NOT: export

ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @four_points
// CHECK: ktdf.parallel (%{{.*}}) in [32] distribute(num_instances = 8) {
// CHECK: %[[VIEW:.*]] = ktdp.construct_memory_view %arg1
// CHECK-NEXT: %[[VT:.*]] = ktdp.construct_access_tile %[[VIEW]][0]
// CHECK-NEXT: %[[V:.*]] = ktdf.pipeline per_instance modulo(size: 1) -> memref<64xf16, "L1"> {
// CHECK-NEXT: ktdf.private export 0 : memref<64xf16, "L1">
// CHECK-NEXT: ktdf.stage "load_1"
// CHECK-NEXT: ktdf.data_transfer %[[VT]] to
// CHECK: ktdf.pipeline modulo(size: 2) {
// CHECK-NOT: "load_1"
// CHECK: ktdf.data_transfer %[[V]][%{{.*}}] to
func.func @four_points(%x: index, %v: index, %y: index) attributes {grid = [32]} {
  %id = ktdp.get_compute_tile_id : index
  %c4 = arith.constant 4 : index
  %row = arith.muli %id, %c4 : index
  %X = ktdp.construct_memory_view %x, sizes: [128, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
  %V = ktdp.construct_memory_view %v, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [128, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
  %tx = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<4x64xindex>
  %tv = ktdp.construct_access_tile %V[0] {access_tile_set = #vec, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<64xindex>
  %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<4x64xindex>
  %xt = ktdp.load %tx : <4x64xindex> -> tensor<4x64xf16>
  %vt = ktdp.load %tv : <64xindex> -> tensor<64xf16>
  %e = tensor.empty() : tensor<4x64xf16>
  %vb = linalg.broadcast ins(%vt : tensor<64xf16>) outs(%e : tensor<4x64xf16>) dimensions = [0]
  %yt = arith.addf %xt, %vb : tensor<4x64xf16>
  ktdp.store %yt, %ty : tensor<4x64xf16>, <4x64xindex>
  return
}

// CHECK-LABEL: func.func @one_point
// CHECK-NOT: per_instance
// CHECK-NOT: export
// CHECK: ktdf.stage "load_1"
// CHECK: return
func.func @one_point(%x: index, %v: index, %y: index) attributes {grid = [8]} {
  %id = ktdp.get_compute_tile_id : index
  %c4 = arith.constant 4 : index
  %row = arith.muli %id, %c4 : index
  %X = ktdp.construct_memory_view %x, sizes: [128, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
  %V = ktdp.construct_memory_view %v, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [128, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
  %tx = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<4x64xindex>
  %tv = ktdp.construct_access_tile %V[0] {access_tile_set = #vec, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<64xindex>
  %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<4x64xindex>
  %xt = ktdp.load %tx : <4x64xindex> -> tensor<4x64xf16>
  %vt = ktdp.load %tv : <64xindex> -> tensor<64xf16>
  %e = tensor.empty() : tensor<4x64xf16>
  %vb = linalg.broadcast ins(%vt : tensor<64xf16>) outs(%e : tensor<4x64xf16>) dimensions = [0]
  %yt = arith.addf %xt, %vb : tensor<4x64xf16>
  ktdp.store %yt, %ty : tensor<4x64xf16>, <4x64xindex>
  return
}
