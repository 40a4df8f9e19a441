// RUN: ktflow-opt %s -split-input-file --ktdf-generalize --ktdf-mapping --ktdf-route-transfers --ktdf-tile-streams | FileCheck %s

// A weight vector widened to f32 is the same for every row of the tile:
// the feed sends its chunks once, before the rows, and the compute unit
// widens each once and holds it, instead of receiving and widening it
// again on every row. The rows' chunk loop is unrolled to read the held
// chunk of its column.

// mesh_device's VPU states no register memory: 128 f32 weights in the
// cost model's 4 chunks of 32 are held.

// CHECK-LABEL: func.func @scale_rows
// CHECK: %[[X:.*]] = ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
// CHECK: %[[WBUF:.*]] = ktdf.private : memref<128xf16, "SPM">
// CHECK: %[[W:.*]] = ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
// CHECK: ktdf.stage "feed"
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT: ktdf.data_transfer %[[WBUF]][%[[C]]] to %[[W]]
// CHECK: scf.for
// CHECK-NEXT: scf.for
// CHECK-NEXT: ktdf.data_transfer {{.*}} to %[[X]]
// CHECK-NOT: to %[[W]]
// CHECK: ktdf.stage "compute"
// CHECK-NOT: scf.for
// CHECK: ktdf.read_from_fifo %[[W]]
// CHECK: %[[W0:.*]] = linalg.generic
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.extf
// CHECK-COUNT-3: arith.extf
// CHECK: scf.for
// CHECK-NOT: ktdf.read_from_fifo %[[W]]
// CHECK: ktdf.read_from_fifo %[[X]]
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %[[W0]] :
// CHECK-COUNT-3: ktdf.write_to_fifo
// CHECK-NOT: ktdf.read_from_fifo %[[W]]
// CHECK: ktdf.stage "drain"

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
ktdf_arch.target @mesh_device from "../../../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">
func.func @scale_rows(%x_ptr: index, %w_ptr: index, %y_ptr: index) attributes {grid = [32]} {
  %id = ktdp.get_compute_tile_id : index
  %c2 = arith.constant 2 : index
  %row0 = arith.muli %id, %c2 : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %W = ktdp.construct_memory_view %w_ptr, sizes: [128], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<128xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %tx = ktdp.construct_access_tile %X[%row0, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<2x128xindex>
  %tw = ktdp.construct_access_tile %W[0] {access_tile_set = #vec, access_tile_order = #id1} : memref<128xf16> -> !ktdp.access_tile<128xindex>
  %ty = ktdp.construct_access_tile %Y[%row0, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<2x128xindex>
  %xh = ktdp.load %tx : <2x128xindex> -> tensor<2x128xf16>
  %wh = ktdp.load %tw : <128xindex> -> tensor<128xf16>
  %wf = arith.extf %wh : tensor<128xf16> to tensor<128xf32>
  %out = tensor.empty() : tensor<2x128xf16>
  %yh = linalg.generic {indexing_maps = [#id2, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%xh, %wf : tensor<2x128xf16>, tensor<128xf32>) outs(%out : tensor<2x128xf16>) {
    ^bb0(%x: f16, %w: f32, %o: f16):
      %xf = arith.extf %x : f16 to f32
      %p = arith.mulf %xf, %w : f32
      %h = arith.truncf %p : f32 to f16
      linalg.yield %h : f16
  } -> tensor<2x128xf16>
  ktdp.store %yh, %ty : tensor<2x128xf16>, <2x128xindex>
  return
}

// -----

// sample_device's SFU has a 2 KiB register memory (SFU_RF): 512 f32
// weights take all of it, more than the half held chunks may take, and
// the rows widen their chunk of the weights as before.

// CHECK-LABEL: func.func @scale_rows_wide
// CHECK: ktdf.stage "feed"
// CHECK-NEXT: arith.constant
// CHECK-NOT: ktdf.data_transfer
// CHECK: scf.for
// CHECK-NEXT: scf.for
// CHECK-NEXT: ktdf.data_transfer
// CHECK-NEXT: ktdf.data_transfer
// CHECK: ktdf.stage "compute"
// CHECK-NOT: arith.extf
// CHECK: scf.for
// CHECK-NEXT: scf.for
// CHECK-NEXT: ktdf.read_from_fifo
// CHECK-NEXT: ktdf.read_from_fifo
// CHECK: arith.extf
// CHECK: ktdf.stage "drain"

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 511 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">
func.func @scale_rows_wide(%x_ptr: index, %w_ptr: index, %y_ptr: index) attributes {grid = [32]} {
  %id = ktdp.get_compute_tile_id : index
  %c2 = arith.constant 2 : index
  %row0 = arith.muli %id, %c2 : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 512], strides: [512, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x512xf16>
  %W = ktdp.construct_memory_view %w_ptr, sizes: [512], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<512xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 512], strides: [512, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x512xf16>
  %tx = ktdp.construct_access_tile %X[%row0, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<2x512xindex>
  %tw = ktdp.construct_access_tile %W[0] {access_tile_set = #vec, access_tile_order = #id1} : memref<512xf16> -> !ktdp.access_tile<512xindex>
  %ty = ktdp.construct_access_tile %Y[%row0, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<2x512xindex>
  %xh = ktdp.load %tx : <2x512xindex> -> tensor<2x512xf16>
  %wh = ktdp.load %tw : <512xindex> -> tensor<512xf16>
  %wf = arith.extf %wh : tensor<512xf16> to tensor<512xf32>
  %out = tensor.empty() : tensor<2x512xf16>
  %yh = linalg.generic {indexing_maps = [#id2, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%xh, %wf : tensor<2x512xf16>, tensor<512xf32>) outs(%out : tensor<2x512xf16>) {
    ^bb0(%x: f16, %w: f32, %o: f16):
      %xf = arith.extf %x : f16 to f32
      %p = arith.mulf %xf, %w : f32
      %h = arith.truncf %p : f32 to f16
      linalg.yield %h : f16
  } -> tensor<2x512xf16>
  ktdp.store %yh, %ty : tensor<2x512xf16>, <2x512xindex>
  return
}
