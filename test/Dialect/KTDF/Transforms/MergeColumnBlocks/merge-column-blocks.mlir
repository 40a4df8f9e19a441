// RUN: ktflow-opt %s -split-input-file --allow-unregistered-dialect --arch %examples/devices/mesh_device.mlir --ktdf-import-target --ktdf-merge-column-blocks | FileCheck %s
// RUN: ktflow-opt %s -split-input-file --allow-unregistered-dialect --arch %examples/devices/mesh_device.mlir --ktdf-import-target --ktdf-merge-column-blocks=max-block-bytes=512 | FileCheck %s --check-prefix=SMALL
// RUN: ktflow-opt %s -split-input-file --allow-unregistered-dialect --arch %examples/devices/spyre_like.mlir --ktdf-import-target --ktdf-merge-column-blocks | FileCheck %s --check-prefix=SMALL

// mesh_device has 16 lanes for the 16 grid points. On spyre_like, 48 of
// its 64 lanes would be idle: the blocks stay, for ktdf-spread-iterations
// to spread them over the idle lanes (as with max-block-bytes=512, the
// 1x512 f16 block being 1 KiB).

#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

// A row's four 1x128 column blocks, the offset the loop variable times the
// block width, become one 1x512 block: its tiles, loads, arithmetic, splat
// constant (widened outside the loop, where it was) and store.
// CHECK-LABEL: func.func @iv_offset
// CHECK:         arith.constant dense<2.000000e+00> : tensor<1x512xf16>
// CHECK:         scf.for %[[ROW:.*]] =
// CHECK-NOT:       scf.for
// CHECK:           %[[OFF:.*]] = arith.muli %c0{{.*}}, %c128
// CHECK:           ktdp.construct_access_tile %{{.*}}[%[[ROW]], %[[OFF]]] {{.*}} -> !ktdp.access_tile<1x512xindex>
// CHECK:           ktdp.load %{{.*}} : <1x512xindex> -> tensor<1x512xf16>
// CHECK:           arith.mulf %{{.*}} : tensor<1x512xf16>
// CHECK:           ktdp.store %{{.*}} : tensor<1x512xf16>, <1x512xindex>
// CHECK-NOT:     scf.for
// SMALL-LABEL: func.func @iv_offset
// SMALL:         scf.for
// SMALL:           scf.for
// SMALL:             !ktdp.access_tile<1x128xindex>
func.func @iv_offset(%x_ptr: index, %y_ptr: index) attributes {grid = [16, 1]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %two = arith.constant dense<2.0> : tensor<1x128xf16>
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 512], strides: [512, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<64x512xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 512], strides: [512, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<64x512xf16>
  scf.for %row = %pid to %c64 step %c16 {
    scf.for %i = %c0 to %c4 step %c1 {
      %off = arith.muli %i, %c128 : index
      %tx = ktdp.construct_access_tile %X[%row, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x128xindex>
      %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
      %y = arith.mulf %x, %two : tensor<1x128xf16>
      %ty = ktdp.construct_access_tile %Y[%row, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
    }
  }
  return
}

// -----

#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

// The offset carried in iter_args (Triton's pointer increment), a splat
// built in the body, and an in-place update (X read and written at the
// same tile): one 1x512 block; the loop's result is the offset after the
// last trip.
// CHECK-LABEL: func.func @carried_offset
// CHECK-NOT:     scf.for {{.*}} iter_args
// CHECK:         ktdp.construct_access_tile %{{.*}}[%{{.*}}, %c0{{.*}}] {{.*}} -> !ktdp.access_tile<1x512xindex>
// CHECK:         tensor.splat %{{.*}} : tensor<1x512xf16>
// CHECK:         ktdp.store %{{.*}} : tensor<1x512xf16>, <1x512xindex>
// CHECK:         %[[END:.*]] = arith.addi %c0{{.*}}, %c512
// CHECK:         "test.use"(%[[END]])
func.func @carried_offset(%x_ptr: index, %row: index, %s: f16) attributes {grid = [16, 1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c128 = arith.constant 128 : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 512], strides: [512, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<64x512xf16>
  %end = scf.for %i = %c0 to %c4 step %c1 iter_args(%off = %c0) -> index {
    %tx = ktdp.construct_access_tile %X[%row, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x128xindex>
    %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
    %sb = tensor.splat %s : tensor<1x128xf16>
    %y = arith.mulf %x, %sb : tensor<1x128xf16>
    ktdp.store %y, %tx : tensor<1x128xf16>, <1x128xindex>
    %next = arith.addi %off, %c128 : index
    scf.yield %next : index
  }
  "test.use"(%end) : (index) -> ()
  return
}

// -----

#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

// Left as they are: a carried tensor (a running sum), blocks that do not
// move by their width, a store a later trip reads back shifted, a tile of
// another shape, and a splat of a value the trip computes.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-5: scf.for
// CHECK-NOT:     1x512
func.func @kept(%x_ptr: index, %y_ptr: index, %row: index) attributes {grid = [16, 1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c512 = arith.constant 512 : index
  %zeros = arith.constant dense<0.0> : tensor<1x128xf16>
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 512], strides: [512, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<64x512xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 512], strides: [512, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<64x512xf16>
  %sum = scf.for %off = %c0 to %c512 step %c128 iter_args(%a = %zeros) -> tensor<1x128xf16> {
    %tx = ktdp.construct_access_tile %X[%row, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x128xindex>
    %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
    %a2 = arith.addf %a, %x : tensor<1x128xf16>
    scf.yield %a2 : tensor<1x128xf16>
  }
  %t0 = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x128xindex>
  ktdp.store %sum, %t0 : tensor<1x128xf16>, <1x128xindex>
  scf.for %off = %c0 to %c512 step %c64 {
    %tx = ktdp.construct_access_tile %X[%row, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x128xindex>
    %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
    %ty = ktdp.construct_access_tile %Y[%row, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x128xindex>
    ktdp.store %x, %ty : tensor<1x128xf16>, <1x128xindex>
  }
  scf.for %off = %c0 to %c512 step %c128 {
    %next = arith.addi %off, %c128 : index
    %tx = ktdp.construct_access_tile %X[%row, %next] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x128xindex>
    %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
    %ty = ktdp.construct_access_tile %X[%row, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x128xindex>
    ktdp.store %x, %ty : tensor<1x128xf16>, <1x128xindex>
  }
  scf.for %off = %c0 to %c512 step %c128 {
    %tx = ktdp.construct_access_tile %X[%row, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x128xindex>
    %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
    %v = tensor.collapse_shape %x [[0, 1]] : tensor<1x128xf16> into tensor<128xf16>
    %tv = ktdp.construct_access_tile %Y[%row, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x128xindex>
    %e = tensor.expand_shape %v [[0, 1]] output_shape [1, 128] : tensor<128xf16> into tensor<1x128xf16>
    ktdp.store %e, %tv : tensor<1x128xf16>, <1x128xindex>
  }
  scf.for %off = %c0 to %c512 step %c128 {
    %tx = ktdp.construct_access_tile %X[%row, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x128xindex>
    %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
    %i = arith.index_cast %off : index to i32
    %f = arith.sitofp %i : i32 to f16
    %fb = tensor.splat %f : tensor<1x128xf16>
    %y = arith.addf %x, %fb : tensor<1x128xf16>
    %ty = ktdp.construct_access_tile %Y[%row, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x128xindex>
    ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
  }
  return
}

// -----

#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

// Two stores into Y a block apart: trip i's second block is trip i + 1's
// first, written last by the first store; merged, the second store would
// land last. Kept.
// CHECK-LABEL: func.func @two_stores
// CHECK:         scf.for
// CHECK-NOT:     1x512
func.func @two_stores(%x_ptr: index, %y_ptr: index, %row: index) attributes {grid = [16, 1]} {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %c384 = arith.constant 384 : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 512], strides: [512, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<64x512xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 512], strides: [512, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<64x512xf16>
  scf.for %off = %c0 to %c384 step %c128 {
    %tx = ktdp.construct_access_tile %X[%row, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x128xindex>
    %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
    %next = arith.addi %off, %c128 : index
    %ta = ktdp.construct_access_tile %Y[%row, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x128xindex>
    %tb = ktdp.construct_access_tile %Y[%row, %next] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x128xindex>
    ktdp.store %x, %ta : tensor<1x128xf16>, <1x128xindex>
    ktdp.store %x, %tb : tensor<1x128xf16>, <1x128xindex>
  }
  return
}
