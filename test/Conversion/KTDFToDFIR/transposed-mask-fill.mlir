// RUN: ktflow-opt %s --ktdf-compile=O0 | FileCheck %s

// A transposed load whose tile reaches past its view (issue 14) is clamped
// like a tile in its own order and, before its DMA, the part of the buffer
// the DMA leaves out is zeroed in the buffer's permuted layout, where the
// reference interpreter reads 0. X holds 40 rows and 20 columns; 16x24
// blocks at rows 16b load transposed into 24x16 buffers (32-byte rows).
// Rows past the view (tile dimension 0, the buffer's columns): 16 - rows
// elements from column `rows` of each of the 24 buffer rows (stride 32).
// Columns past it (tile dimension 1, the buffer's rows): 24 - cols whole
// buffer rows from row `cols`. Then one DMA of `cols` one-element rows of
// each of `rows` planes (the keys of K^T), when both are positive. The
// store of Y gets no fill.
// CHECK-LABEL: dfir.unit "tile[0]/DMA"
// CHECK: %[[LEFTR:.*]] = arith.subi %c40, %{{.*}} : index
// CHECK: %[[MINR:.*]] = arith.minsi %[[LEFTR]], %c16{{.*}} : index
// CHECK: %[[ROWS:.*]] = arith.maxsi %[[MINR]], %{{.*}} : index
// CHECK: %[[MINC:.*]] = arith.minsi %{{.*}}, %c24 : index
// CHECK: %[[COLS:.*]] = arith.maxsi %[[MINC]], %{{.*}} : index
// CHECK: %[[NR:.*]] = arith.subi %c16{{.*}}, %[[ROWS]] : index
// CHECK: scf.for
// CHECK: %[[RAT:.*]] = arith.muli %[[ROWS]], %c2{{.*}} : index
// CHECK: %[[RADDR:.*]] = arith.addi %{{.*}}, %[[RAT]] : index
// CHECK: %[[RBYTES:.*]] = arith.muli %[[NR]], %c2{{.*}} : index
// CHECK: dfir.fill %[[RBYTES]] bytes to "tile[0]/SPM"[%[[RADDR]]] rows %c24{{.*}} stride %c32
// CHECK: %[[NC:.*]] = arith.subi %c24{{.*}}, %[[COLS]] : index
// CHECK: scf.for
// CHECK: %[[CAT:.*]] = arith.muli %[[COLS]], %c32{{.*}} : index
// CHECK: %[[CADDR:.*]] = arith.addi %{{.*}}, %[[CAT]] : index
// CHECK: %[[CBYTES:.*]] = arith.muli %[[NC]], %c32{{.*}} : index
// CHECK: dfir.fill %[[CBYTES]] bytes to "tile[0]/SPM"[%[[CADDR]]]{{$}}
// CHECK: %[[ANYR:.*]] = arith.cmpi sgt, %[[ROWS]], %{{.*}} : index
// CHECK: %[[ANYC:.*]] = arith.cmpi sgt, %[[COLS]], %{{.*}} : index
// CHECK: arith.andi %[[ANYR]], %[[ANYC]] : i1
// CHECK: scf.for
// CHECK: dfir.dma %c2{{.*}} bytes from "HBM"[%{{.*}}] to "tile[0]/SPM"[%{{.*}}] rows %[[COLS]] strides %c2{{.*}}, %c32{{.*}} planes %[[ROWS]] strides %c40{{.*}}, %c2
// CHECK-NOT: dfir.fill
// CHECK: dfir.dma %c32{{.*}} bytes from "tile[0]/SPM"[%{{.*}}] to "HBM"[%{{.*}}] rows %{{.*}} strides %c32{{.*}}, %c96
// CHECK-LABEL: dfir.unit "tile[0]/VPU"

ktdf_arch.target @mesh_device from "../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 39 >= 0, d1 >= 0, -d1 + 19 >= 0)>
#y_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 23 >= 0, d1 >= 0, -d1 + 47 >= 0)>
#blk_x = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 23 >= 0)>
#blk_y = affine_set<(d0, d1) : (d0 >= 0, -d0 + 23 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
  func.func @transpose_masked_blocks(%x_ptr: index, %y_ptr: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c16 = arith.constant 16 : index
    %one = arith.constant dense<1.0> : tensor<24x16xf16>
    %X = ktdp.construct_memory_view %x_ptr, sizes: [40, 20], strides: [20, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<40x20xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [24, 48], strides: [48, 1] {coordinate_set = #y_set, memory_space = #ktdp.memory_space<global>} : memref<24x48xf16>
    scf.for %b = %c0 to %c3 step %c1 {
      %r0 = arith.muli %b, %c16 : index
      %tx = ktdp.construct_access_tile %X[%r0, 0] {access_tile_set = #blk_x, access_tile_order = #id2} : memref<40x20xf16> -> !ktdp.access_tile<16x24xindex>
      %x = ktdp.load %tx : <16x24xindex> -> tensor<16x24xf16>
      %xt_init = tensor.empty() : tensor<24x16xf16>
      %xt = linalg.transpose ins(%x : tensor<16x24xf16>) outs(%xt_init : tensor<24x16xf16>) permutation = [1, 0]
      %y = arith.addf %xt, %one : tensor<24x16xf16>
      %ty = ktdp.construct_access_tile %Y[0, %r0] {access_tile_set = #blk_y, access_tile_order = #id2} : memref<24x48xf16> -> !ktdp.access_tile<24x16xindex>
      ktdp.store %y, %ty : tensor<24x16xf16>, <24x16xindex>
    }
    return
  }
