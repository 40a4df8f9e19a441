// RUN: ktflow-opt %s -split-input-file --ktdf-compile=O0 | FileCheck %s

// Plain scalar arguments are launch-time symbols: an i32 element count
// becomes a runtime argument with the range of i32, the views' dynamic
// size names it, and the programs read it with dfir.runtime_value (the
// index_cast is the identity on its value). Elements of the 1-d tiles past
// the count are masked: each DMA moves max(min(n - anchor, 256), 0)
// elements, and none when that is 0.

// CHECK-LABEL: dfir.kernel @add_n
// CHECK-DAG: dfir.runtime_arg @arg3 lowerbound -2147483648 granularity 1 upperbound 2147483647
// CHECK-DAG: dfir.tensor input @arg0 : tensor<?xf32> in "HBM" dims [@arg3]
// CHECK-DAG: dfir.tensor output @arg2 : tensor<?xf32> in "HBM" dims [@arg3]
// CHECK-LABEL: dfir.unit "tile[0]/DMA"
// CHECK: %[[N:.*]] = dfir.runtime_value @arg3
// CHECK: %[[BLOCKS:.*]] = arith.ceildivui %[[N]]
// CHECK: scf.for %[[B:.*]] = %{{.*}} to %[[BLOCKS]] step
// CHECK: %[[O:.*]] = arith.muli %[[B]], %{{.*}} : index
// CHECK: dfir.address @arg0
// CHECK: %[[LEFT:.*]] = arith.subi %[[N]], %[[O]] : index
// CHECK: %[[MIN:.*]] = arith.minsi %[[LEFT]], %{{.*}} : index
// CHECK: %[[VALID:.*]] = arith.maxsi %[[MIN]], %{{.*}} : index
// CHECK: %[[ANY:.*]] = arith.cmpi sgt, %[[VALID]]
// CHECK: arith.select %[[ANY]]
// CHECK: scf.for
// CHECK: %[[BYTES:.*]] = arith.muli %[[VALID]], %{{.*}} : index
// CHECK: dfir.dma %[[BYTES]] bytes from "HBM"[%{{.*}}] to "tile[0]/SPM"[%{{.*}}]{{$}}

ktdf_arch.target @mesh_device from "../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">

#upto_n = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>
#block = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
func.func @add_n(%x: index, %y: index, %out: index, %n_i32: i32) attributes {grid = [4]} {
  %pid = ktdp.get_compute_tile_id : index
  %c4 = arith.constant 4 : index
  %c256 = arith.constant 256 : index
  %n = arith.index_cast %n_i32 : i32 to index
  %blocks = arith.ceildivui %n, %c256 : index
  %X = ktdp.construct_memory_view %x, sizes: [%n], strides: [1] {coordinate_set = #upto_n, memory_space = #ktdp.memory_space<global>} : memref<?xf32>
  %Y = ktdp.construct_memory_view %y, sizes: [%n], strides: [1] {coordinate_set = #upto_n, memory_space = #ktdp.memory_space<global>} : memref<?xf32>
  %O = ktdp.construct_memory_view %out, sizes: [%n], strides: [1] {coordinate_set = #upto_n, memory_space = #ktdp.memory_space<global>} : memref<?xf32>
  scf.for %b = %pid to %blocks step %c4 {
    %o = arith.muli %b, %c256 : index
    %tx = ktdp.construct_access_tile %X[%o] {access_tile_set = #block, access_tile_order = #id1} : memref<?xf32> -> !ktdp.access_tile<256xindex>
    %ty = ktdp.construct_access_tile %Y[%o] {access_tile_set = #block, access_tile_order = #id1} : memref<?xf32> -> !ktdp.access_tile<256xindex>
    %to = ktdp.construct_access_tile %O[%o] {access_tile_set = #block, access_tile_order = #id1} : memref<?xf32> -> !ktdp.access_tile<256xindex>
    %vx = ktdp.load %tx : <256xindex> -> tensor<256xf32>
    %vy = ktdp.load %ty : <256xindex> -> tensor<256xf32>
    %s = arith.addf %vx, %vy : tensor<256xf32>
    ktdp.store %s, %to : tensor<256xf32>, <256xindex>
  }
  return
}

// -----

// Views holding 126 of their 128 columns: every DMA moves the valid part
// of each row, 2 * max(min(min(128, 126) - 0, 128), 0) bytes, of the rows
// the view holds, with the rows' strides in memory and in the buffer; a
// load's buffer first gets the other columns zeroed (mask-fill.mlir).

// CHECK-LABEL: dfir.kernel @columns
// CHECK-LABEL: dfir.unit "tile[0]/DMA"
// CHECK: %[[LEFTR:.*]] = arith.subi %c64, %{{.*}} : index
// CHECK: %[[MINR:.*]] = arith.minsi %[[LEFTR]], %{{.*}} : index
// CHECK: %[[ROWS:.*]] = arith.maxsi %[[MINR]], %{{.*}} : index
// CHECK: %[[C126:.*]] = arith.constant 126 : index
// CHECK: %[[HELD:.*]] = arith.minsi %{{.*}}, %[[C126]] : index
// CHECK: %[[LEFT:.*]] = arith.subi %[[HELD]], %{{.*}} : index
// CHECK: %[[MIN:.*]] = arith.minsi %[[LEFT]], %{{.*}} : index
// CHECK: %[[COLS:.*]] = arith.maxsi %[[MIN]], %{{.*}} : index
// CHECK: dfir.fill %{{.*}} bytes to "tile[0]/SPM"[%{{.*}}] rows %{{.*}} stride %{{.*}}
// CHECK: %[[BYTES:.*]] = arith.muli %[[COLS]], %{{.*}} : index
// CHECK: dfir.dma %[[BYTES]] bytes from "HBM"[%{{.*}}] to "tile[0]/SPM"[%{{.*}}] rows %[[ROWS]] strides %{{.*}}, %{{.*}}
// CHECK: dfir.dma %{{.*}} bytes from "tile[0]/SPM"[%{{.*}}] to "HBM"[%{{.*}}] rows %{{.*}} strides %{{.*}}, %{{.*}}

ktdf_arch.target @mesh_device from "../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">

#x126 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 125 >= 0)>
#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @columns(%x: index, %y: index) attributes {grid = [8]} {
  %id = ktdp.get_compute_tile_id : index
  %c8 = arith.constant 8 : index
  %r = arith.muli %id, %c8 : index
  %X = ktdp.construct_memory_view %x, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x126, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x126, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #t, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<8x128xindex>
  %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #t, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<8x128xindex>
  %v = ktdp.load %tx : <8x128xindex> -> tensor<8x128xf16>
  %w = arith.addf %v, %v : tensor<8x128xf16>
  ktdp.store %w, %ty : tensor<8x128xf16>, <8x128xindex>
  return
}

// -----

// Tiles of one batch (1x8x128) on views holding batches 0..1 of their 4:
// the tiles of batches 2 and 3 lie wholly outside. With a single point of
// the outer dimensions, that point still lies in the window only when
// coordinate 0 is below the batches left, max(min(2 - b, 1), 0): the load
// and the store move nothing otherwise (they moved the whole tile).

// CHECK-LABEL: dfir.kernel @batches
// CHECK-LABEL: dfir.unit "tile[0]/DMA"
// CHECK: %[[LEFT:.*]] = arith.subi %{{.*}}, %[[B:.*]] : index
// CHECK: %[[MIN:.*]] = arith.minsi %[[LEFT]], %c1{{.*}} : index
// CHECK: %[[END:.*]] = arith.maxsi %[[MIN]], %{{.*}} : index
// CHECK: dfir.fill
// CHECK: %[[IN:.*]] = arith.cmpi slt, %c0{{.*}}, %[[END]] : index
// CHECK: %[[ANY:.*]] = arith.select %[[IN]]
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[ANY]]
// CHECK: dfir.dma %{{.*}} bytes from "HBM"[%{{.*}}] to "tile[0]/SPM"
// CHECK: %[[SLEFT:.*]] = arith.subi %{{.*}}, %[[B]] : index
// CHECK: %[[SMIN:.*]] = arith.minsi %[[SLEFT]], %c1{{.*}} : index
// CHECK: %[[SEND:.*]] = arith.maxsi %[[SMIN]], %{{.*}} : index
// CHECK: %[[SIN:.*]] = arith.cmpi slt, %c0{{.*}}, %[[SEND]] : index
// CHECK: %[[SANY:.*]] = arith.select %[[SIN]]
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[SANY]]
// CHECK: dfir.dma %{{.*}} bytes from "tile[0]/SPM"[%{{.*}}] to "HBM"

ktdf_arch.target @mesh_device from "../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">

#two = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 7 >= 0, d2 >= 0, -d2 + 127 >= 0)>
#t = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 7 >= 0, d2 >= 0, -d2 + 127 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @batches(%x: index, %y: index) attributes {grid = [4]} {
  %b = ktdp.get_compute_tile_id : index
  %X = ktdp.construct_memory_view %x, sizes: [4, 8, 128], strides: [1024, 128, 1] {coordinate_set = #two, memory_space = #ktdp.memory_space<global>} : memref<4x8x128xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [4, 8, 128], strides: [1024, 128, 1] {coordinate_set = #two, memory_space = #ktdp.memory_space<global>} : memref<4x8x128xf16>
  %tx = ktdp.construct_access_tile %X[%b, 0, 0] {access_tile_set = #t, access_tile_order = #id3} : memref<4x8x128xf16> -> !ktdp.access_tile<1x8x128xindex>
  %ty = ktdp.construct_access_tile %Y[%b, 0, 0] {access_tile_set = #t, access_tile_order = #id3} : memref<4x8x128xf16> -> !ktdp.access_tile<1x8x128xindex>
  %v = ktdp.load %tx : <1x8x128xindex> -> tensor<1x8x128xf16>
  %w = arith.addf %v, %v : tensor<1x8x128xf16>
  ktdp.store %w, %ty : tensor<1x8x128xf16>, <1x8x128xindex>
  return
}
