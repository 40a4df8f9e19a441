// RUN: ktflow-opt %s --ktdf-compile=O0 --split-input-file | FileCheck %s

// Two gathers through the same block-table entry (a paged attention's K
// and V pages): the table is only read, so the second gather's point loop
// starts its cache of the last index address and value from the first
// gather's, and reads BT[g] again only if its address differs.
// CHECK-LABEL: dfir.unit "tile[0]/DMA"
// CHECK: %[[K:.*]]:7 = scf.for %{{.*}} = %{{.*}} to %c16{{.*}} step %{{.*}} iter_args(%arg{{[0-9]+}} = %c-1{{(_[0-9]+)?}}, %arg{{[0-9]+}} = %c0{{(_[0-9]+)?}},
// CHECK: dfir.read_index "HBM"[%{{.*}}] : i32 below %c8
// CHECK: %{{.*}}:7 = scf.for %{{.*}} = %{{.*}} to %c16{{.*}} step %{{.*}} iter_args(%arg{{[0-9]+}} = %[[K]]#0, %arg{{[0-9]+}} = %[[K]]#1,
// CHECK: dfir.read_index "HBM"[%{{.*}}] : i32 below %c8

#kv = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#bt = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#vars = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#y = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#yt = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
ktdf_arch.target @mesh_device from "../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">

func.func @kv(%kp: index, %vp: index, %btp: index, %yp: index) attributes {grid = [2]} {
  %g = ktdp.get_compute_tile_id : index
  %c16 = arith.constant 16 : index
  %K = ktdp.construct_memory_view %kp, sizes: [8, 512], strides: [512, 1] {coordinate_set = #kv, memory_space = #ktdp.memory_space<global>} : memref<8x512xf16>
  %V = ktdp.construct_memory_view %vp, sizes: [8, 512], strides: [512, 1] {coordinate_set = #kv, memory_space = #ktdp.memory_space<global>} : memref<8x512xf16>
  %BT = ktdp.construct_memory_view %btp, sizes: [2], strides: [1] {coordinate_set = #bt, memory_space = #ktdp.memory_space<global>} : memref<2xi32>
  %Y = ktdp.construct_memory_view %yp, sizes: [32, 32], strides: [32, 1] {coordinate_set = #y, memory_space = #ktdp.memory_space<global>} : memref<32x32xf16>
  %tk = ktdp.construct_indirect_access_tile intermediate_variables(%t, %e) %K[ind(%BT[%g]), (%t * 32 + %e)] {variables_space_set = #vars, variables_space_order = #id2} : memref<8x512xf16>, memref<2xi32> -> !ktdp.access_tile<16x32xindex>
  %tv = ktdp.construct_indirect_access_tile intermediate_variables(%t, %e) %V[ind(%BT[%g]), (%t * 32 + %e)] {variables_space_set = #vars, variables_space_order = #id2} : memref<8x512xf16>, memref<2xi32> -> !ktdp.access_tile<16x32xindex>
  %k = ktdp.load %tk : <16x32xindex> -> tensor<16x32xf16>
  %v = ktdp.load %tv : <16x32xindex> -> tensor<16x32xf16>
  %w = arith.addf %k, %v : tensor<16x32xf16>
  %row = arith.muli %g, %c16 : index
  %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #yt, access_tile_order = #id2} : memref<32x32xf16> -> !ktdp.access_tile<16x32xindex>
  ktdp.store %w, %ty : tensor<16x32xf16>, <16x32xindex>
  return
}

// -----

// Negative: the kernel also stores into the table, so each gather reads
// its index afresh (its cache starts from nothing read). Both loops are
// the same unit's: the CHECK-NOT keeps the second from matching tile[1]'s.
// CHECK-LABEL: dfir.unit "tile[0]/DMA"
// CHECK: scf.for %{{.*}} = %{{.*}} to %c16{{.*}} step %{{.*}} iter_args(%arg{{[0-9]+}} = %c-1{{(_[0-9]+)?}}, %arg{{[0-9]+}} = %c0{{(_[0-9]+)?}},
// CHECK-NOT: dfir.unit
// CHECK: scf.for %{{.*}} = %{{.*}} to %c16{{.*}} step %{{.*}} iter_args(%arg{{[0-9]+}} = %c-1{{(_[0-9]+)?}}, %arg{{[0-9]+}} = %c0{{(_[0-9]+)?}},

#kv = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#bt = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#vars = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#y = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#yt = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
#one = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>
ktdf_arch.target @mesh_device from "../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">

func.func @kv_written(%kp: index, %vp: index, %btp: index, %yp: index) attributes {grid = [2]} {
  %g = ktdp.get_compute_tile_id : index
  %c16 = arith.constant 16 : index
  %K = ktdp.construct_memory_view %kp, sizes: [8, 512], strides: [512, 1] {coordinate_set = #kv, memory_space = #ktdp.memory_space<global>} : memref<8x512xf16>
  %V = ktdp.construct_memory_view %vp, sizes: [8, 512], strides: [512, 1] {coordinate_set = #kv, memory_space = #ktdp.memory_space<global>} : memref<8x512xf16>
  %BT = ktdp.construct_memory_view %btp, sizes: [2], strides: [1] {coordinate_set = #bt, memory_space = #ktdp.memory_space<global>} : memref<2xi32>
  %Y = ktdp.construct_memory_view %yp, sizes: [32, 32], strides: [32, 1] {coordinate_set = #y, memory_space = #ktdp.memory_space<global>} : memref<32x32xf16>
  %tk = ktdp.construct_indirect_access_tile intermediate_variables(%t, %e) %K[ind(%BT[%g]), (%t * 32 + %e)] {variables_space_set = #vars, variables_space_order = #id2} : memref<8x512xf16>, memref<2xi32> -> !ktdp.access_tile<16x32xindex>
  %tv = ktdp.construct_indirect_access_tile intermediate_variables(%t, %e) %V[ind(%BT[%g]), (%t * 32 + %e)] {variables_space_set = #vars, variables_space_order = #id2} : memref<8x512xf16>, memref<2xi32> -> !ktdp.access_tile<16x32xindex>
  %k = ktdp.load %tk : <16x32xindex> -> tensor<16x32xf16>
  %v = ktdp.load %tv : <16x32xindex> -> tensor<16x32xf16>
  %w = arith.addf %k, %v : tensor<16x32xf16>
  %row = arith.muli %g, %c16 : index
  %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #yt, access_tile_order = #id2} : memref<32x32xf16> -> !ktdp.access_tile<16x32xindex>
  ktdp.store %w, %ty : tensor<16x32xf16>, <16x32xindex>
  %tb = ktdp.construct_access_tile %BT[%g] {access_tile_set = #one, access_tile_order = #id1} : memref<2xi32> -> !ktdp.access_tile<1xindex>
  %b = ktdp.load %tb : <1xindex> -> tensor<1xi32>
  ktdp.store %b, %tb : tensor<1xi32>, <1xindex>
  return
}
