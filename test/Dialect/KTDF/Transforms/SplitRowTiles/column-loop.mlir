// RUN: ktflow-opt %s -split-input-file --ktdf-import-target --ktdf-split-row-tiles | FileCheck %s

// A grid-stride loop over the row blocks of an m x n matrix of run-time
// height and width, holding a loop over the row's column blocks (the
// shipped scale_matrix_dyn, Triton's spelling: i32 sizes cast to index).
// Two points on mesh_device's 16 cores leave 8 instances a point: the
// row loop is wrapped in a loop of 4 row slices of 16 rows, each running
// every row block and, in it, every column block on its 16 rows; the
// column loop stays inside. The run-time choice weighs T = ceil(nrb / 2)
// trips of tile 0 dealt to 2 copies a slice against T dealt to 8 copies
// of whole blocks: one engine loads and stores, so each trip is a
// pipeline of the column loop's C = max(ceil(n / 64), 1) trips of its
// own, floor(T / K) rounds of every copy, then the T mod K copies of the
// last, between the estimate of one copy and of every copy busy.

// CHECK-LABEL: func.func @scale_matrix
// CHECK:       %[[PID:.*]] = ktdp.get_compute_tile_id
// CHECK-DAG:   %[[N:.*]] = arith.index_cast %arg3
// CHECK-DAG:   %[[NRB:.*]] = arith.ceildivui
// CHECK-DAG:   %[[C4:.*]] = arith.constant 4 : index
// CHECK:       %[[TRIPS:.*]] = arith.ceildivsi %{{.*}}, %c2 : index
// CHECK:       %[[SPAN:.*]] = arith.subi %[[N]], %c0 : index
// CHECK:       %[[COLS:.*]] = arith.ceildivsi %[[SPAN]], %c64 : index
// CHECK:       %[[PER_ROW:.*]] = arith.maxsi %[[COLS]], %{{.*}} : index
// CHECK:       %[[TWO:.*]] = arith.constant 2 : index
// CHECK:       %[[SLICE_ROUNDS:.*]] = arith.divsi %[[TRIPS]], %[[TWO]] : index
// CHECK:       %[[SLICE_COLS:.*]] = arith.muli %[[PER_ROW]], %{{.*}} : index
// CHECK:       %[[SLICE_ROW:.*]] = arith.addi %[[SLICE_COLS]], %{{.*}} : index
// CHECK:       %[[SLICE_FULL:.*]] = arith.muli %[[SLICE_ROUNDS]], %[[SLICE_ROW]] : index
// CHECK:       %[[SLICE_DEALT:.*]] = arith.muli %[[SLICE_ROUNDS]], %[[TWO]] : index
// CHECK:       %[[SLICE_REST:.*]] = arith.subi %[[TRIPS]], %[[SLICE_DEALT]] : index
// CHECK:       %[[SLICE_LAST:.*]] = arith.select
// CHECK:       %[[SLICED:.*]] = arith.addi %[[SLICE_FULL]], %[[SLICE_LAST]] : index
// CHECK:       %[[EIGHT:.*]] = arith.constant 8 : index
// CHECK:       %[[BLOCK_ROUNDS:.*]] = arith.divsi %[[TRIPS]], %[[EIGHT]] : index
// CHECK:       %[[BLOCK_COLS:.*]] = arith.muli %[[PER_ROW]], %{{.*}} : index
// CHECK:       %[[BLOCK_ROW:.*]] = arith.addi %[[BLOCK_COLS]], %{{.*}} : index
// CHECK:       %[[BLOCK_FULL:.*]] = arith.muli %[[BLOCK_ROUNDS]], %[[BLOCK_ROW]] : index
// CHECK:       %[[BLOCK_LAST:.*]] = arith.select
// CHECK:       %[[WHOLE:.*]] = arith.addi %[[BLOCK_FULL]], %[[BLOCK_LAST]] : index
// CHECK:       %[[PAYS:.*]] = arith.cmpi slt, %[[SLICED]], %[[WHOLE]] : index
// CHECK:       %[[SLICED_UB:.*]] = arith.select %[[PAYS]], %[[NRB]], %[[PID]] : index
// CHECK:       %[[WHOLE_UB:.*]] = arith.select %[[PAYS]], %[[PID]], %[[NRB]] : index
// CHECK:       scf.for %[[S:.*]] = %{{.*}} to %[[C4]] step %{{.*}} {
// CHECK:         %[[FIRST:.*]] = arith.muli %[[S]], %{{.*}} : index
// CHECK:         scf.for %[[RB:.*]] = %[[PID]] to %[[SLICED_UB]] step %c2 {
// CHECK:           %[[ROW:.*]] = arith.muli %[[RB]], %c64
// CHECK:           scf.for %[[COL:.*]] = %c0 to %[[N]] step %c64 {
// CHECK:             ktdp.construct_access_tile %{{.*}}[%[[ROW]] + %[[FIRST]], %[[COL]]] {{.*}} -> !ktdp.access_tile<16x64xindex>
// CHECK:             ktdp.construct_access_tile %{{.*}}[%[[ROW]] + %[[FIRST]], %[[COL]]] {{.*}} -> !ktdp.access_tile<16x64xindex>
// CHECK:             ktdp.load {{.*}} -> tensor<16x64xf16>
// CHECK:             arith.addf {{.*}} : tensor<16x64xf16>
// CHECK:             ktdp.store {{.*}} : tensor<16x64xf16>, <16x64xindex>
// CHECK-NOT:         tensor<64x64xf16>
// CHECK:       scf.for %[[WRB:.*]] = %[[PID]] to %[[WHOLE_UB]] step %c2 {
// CHECK:         scf.for %{{.*}} = %c0 to %[[N]] step %c64 {
// CHECK:           ktdp.load {{.*}} -> tensor<64x64xf16>
// CHECK:           ktdp.store {{.*}} : tensor<64x64xf16>, <64x64xindex>
// CHECK:       return
#mat = affine_set<(d0, d1)[s0, s1] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + s1 - 1 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @mesh_device from "../../../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM">
  func.func @scale_matrix(%x_ptr: index, %y_ptr: index, %m_i32: i32, %n_i32: i32) attributes {grid = [2, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %m = arith.index_cast %m_i32 : i32 to index
    %n = arith.index_cast %n_i32 : i32 to index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [%m, %n], strides: [%n, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<?x?xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [%m, %n], strides: [%n, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<?x?xf16>
    %nrb = arith.ceildivui %m, %c64 : index
    scf.for %rb = %pid to %nrb step %c2 : index {
      %row = arith.muli %rb, %c64 : index
      scf.for %col = %c0 to %n step %c64 : index {
        %tx = ktdp.construct_access_tile %X[%row, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<?x?xf16> -> !ktdp.access_tile<64x64xindex>
        %ty = ktdp.construct_access_tile %Y[%row, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<?x?xf16> -> !ktdp.access_tile<64x64xindex>
        %x = ktdp.load %tx : <64x64xindex> -> tensor<64x64xf16>
        %y = arith.addf %x, %x : tensor<64x64xf16>
        ktdp.store %y, %ty : tensor<64x64xf16>, <64x64xindex>
      }
    }
    return
  }
}

// -----

// On sample_device a core's load and store engines are apart: the next
// row block's first loads run while the last one drains, so a copy's
// trips are one pipeline of ceil(T / K) x C column trips (K = 1 copy a
// slice of 4, 4 whole-block copies).

// CHECK-LABEL: func.func @scale_matrix_sample
// CHECK:       %[[TRIPS:.*]] = arith.ceildivsi %{{.*}}, %c2 : index
// CHECK:       %[[COLS:.*]] = arith.ceildivsi %{{.*}}, %c64 : index
// CHECK:       %[[PER_ROW:.*]] = arith.maxsi %[[COLS]], %{{.*}} : index
// CHECK:       %[[ONE:.*]] = arith.constant 1 : index
// CHECK:       %[[SLICE_ROUNDS:.*]] = arith.ceildivsi %[[TRIPS]], %[[ONE]] : index
// CHECK:       %[[SLICE_STEPS:.*]] = arith.muli %[[SLICE_ROUNDS]], %[[PER_ROW]] : index
// CHECK:       %[[SLICE_NEXT:.*]] = arith.muli %[[SLICE_STEPS]], %{{.*}} : index
// CHECK:       %[[SLICED:.*]] = arith.addi %[[SLICE_NEXT]], %{{.*}} : index
// CHECK:       %[[FOUR:.*]] = arith.constant 4 : index
// CHECK:       %[[BLOCK_ROUNDS:.*]] = arith.ceildivsi %[[TRIPS]], %[[FOUR]] : index
// CHECK:       %[[BLOCK_STEPS:.*]] = arith.muli %[[BLOCK_ROUNDS]], %[[PER_ROW]] : index
// CHECK:       %[[BLOCK_NEXT:.*]] = arith.muli %[[BLOCK_STEPS]], %{{.*}} : index
// CHECK:       %[[WHOLE:.*]] = arith.addi %[[BLOCK_NEXT]], %{{.*}} : index
// CHECK:       arith.cmpi slt, %[[SLICED]], %[[WHOLE]] : index
// CHECK:       scf.for
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             ktdp.load {{.*}} -> tensor<16x64xf16>
#mat = affine_set<(d0, d1)[s0, s1] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + s1 - 1 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR">
  func.func @scale_matrix_sample(%x_ptr: index, %y_ptr: index, %m_i32: i32, %n_i32: i32) attributes {grid = [2, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %m = arith.index_cast %m_i32 : i32 to index
    %n = arith.index_cast %n_i32 : i32 to index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [%m, %n], strides: [%n, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<?x?xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [%m, %n], strides: [%n, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<?x?xf16>
    %nrb = arith.ceildivui %m, %c64 : index
    scf.for %rb = %pid to %nrb step %c2 : index {
      %row = arith.muli %rb, %c64 : index
      scf.for %col = %c0 to %n step %c64 : index {
        %tx = ktdp.construct_access_tile %X[%row, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<?x?xf16> -> !ktdp.access_tile<64x64xindex>
        %ty = ktdp.construct_access_tile %Y[%row, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<?x?xf16> -> !ktdp.access_tile<64x64xindex>
        %x = ktdp.load %tx : <64x64xindex> -> tensor<64x64xf16>
        %y = arith.addf %x, %x : tensor<64x64xf16>
        ktdp.store %y, %ty : tensor<64x64xf16>, <64x64xindex>
      }
    }
    return
  }
}

// -----

// Left alone: the column loop carries each row's running sum across the
// row's column blocks (a reduction into a 64x1 block, stored once after
// it): its trips are not the independent blocks a slice may run apart.

// CHECK-LABEL: func.func @row_sums_carried
// CHECK-NOT:   access_tile<16x
// CHECK-NOT:   arith.select
// CHECK:       scf.for
// CHECK:         scf.for {{.*}} iter_args
// CHECK:           ktdp.load {{.*}} -> tensor<64x64xf32>
#mat = affine_set<(d0, d1)[s0, s1] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + s1 - 1 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#one = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
module {
  ktdf_arch.target @mesh_device from "../../../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM">
  func.func @row_sums_carried(%x_ptr: index, %s_ptr: index, %m_i32: i32, %n_i32: i32) attributes {grid = [2, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant dense<0.0> : tensor<64x1xf32>
    %m = arith.index_cast %m_i32 : i32 to index
    %n = arith.index_cast %n_i32 : i32 to index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [%m, %n], strides: [%n, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<?x?xf32>
    %S = ktdp.construct_memory_view %s_ptr, sizes: [%m, 1], strides: [1, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<?x1xf32>
    %nrb = arith.ceildivui %m, %c64 : index
    scf.for %rb = %pid to %nrb step %c2 : index {
      %row = arith.muli %rb, %c64 : index
      %sum = scf.for %col = %c0 to %n step %c64 iter_args(%acc = %zero) -> (tensor<64x1xf32>) : index {
        %tx = ktdp.construct_access_tile %X[%row, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<?x?xf32> -> !ktdp.access_tile<64x64xindex>
        %x = ktdp.load %tx : <64x64xindex> -> tensor<64x64xf32>
        %part = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<64x64xf32>) outs(%acc : tensor<64x1xf32>) {
        ^bb0(%in: f32, %out: f32):
          %a = arith.addf %in, %out : f32
          linalg.yield %a : f32
        } -> tensor<64x1xf32>
        scf.yield %part : tensor<64x1xf32>
      }
      %ts = ktdp.construct_access_tile %S[%row, %c0] {access_tile_set = #one, access_tile_order = #id2} : memref<?x1xf32> -> !ktdp.access_tile<64x1xindex>
      ktdp.store %sum, %ts : tensor<64x1xf32>, <64x1xindex>
    }
    return
  }
}

// -----

// Left alone: every trip of the column loop stores into the row block's
// first column block (the last column's values win; a slice would keep
// its own rows' order, but the test of what moves must see the column
// loop's variable too).

// CHECK-LABEL: func.func @one_column_block
// CHECK-NOT:   access_tile<16x64xindex>
// CHECK-NOT:   arith.select
// CHECK:       ktdp.load {{.*}} -> tensor<64x64xf16>
#mat = affine_set<(d0, d1)[s0, s1] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + s1 - 1 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @mesh_device from "../../../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM">
  func.func @one_column_block(%x_ptr: index, %y_ptr: index, %m_i32: i32, %n_i32: i32) attributes {grid = [2, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %m = arith.index_cast %m_i32 : i32 to index
    %n = arith.index_cast %n_i32 : i32 to index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [%m, %n], strides: [%n, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<?x?xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [%m, %n], strides: [%n, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<?x?xf16>
    %nrb = arith.ceildivui %m, %c64 : index
    scf.for %rb = %pid to %nrb step %c2 : index {
      %row = arith.muli %rb, %c64 : index
      scf.for %col = %c0 to %n step %c64 : index {
        %tx = ktdp.construct_access_tile %X[%row, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<?x?xf16> -> !ktdp.access_tile<64x64xindex>
        %ty = ktdp.construct_access_tile %Y[%row, %c0] {access_tile_set = #blk, access_tile_order = #id2} : memref<?x?xf16> -> !ktdp.access_tile<64x64xindex>
        %x = ktdp.load %tx : <64x64xindex> -> tensor<64x64xf16>
        %y = arith.addf %x, %x : tensor<64x64xf16>
        ktdp.store %y, %ty : tensor<64x64xf16>, <64x64xindex>
      }
    }
    return
  }
}

// -----

// Left alone: the column loop's variable moves the tiles down (a loop
// over 16-row bands of the row block): a slice's rows of one band are
// another slice's of the next, whose trips run elsewhere.

// CHECK-LABEL: func.func @bands_down
// CHECK-NOT:   access_tile<16x64xindex>
// CHECK-NOT:   arith.select
// CHECK:       ktdp.load {{.*}} -> tensor<64x64xf16>
#mat = affine_set<(d0, d1)[s0, s1] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + s1 - 1 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @mesh_device from "../../../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM">
  func.func @bands_down(%x_ptr: index, %y_ptr: index, %m_i32: i32, %n_i32: i32) attributes {grid = [2, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %m = arith.index_cast %m_i32 : i32 to index
    %n = arith.index_cast %n_i32 : i32 to index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [%m, %n], strides: [%n, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<?x?xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [%m, %n], strides: [%n, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<?x?xf16>
    %nrb = arith.ceildivui %m, %c64 : index
    scf.for %rb = %pid to %nrb step %c2 : index {
      %row = arith.muli %rb, %c64 : index
      scf.for %band = %c0 to %c64 step %c16 : index {
        %r = arith.addi %row, %band : index
        %tx = ktdp.construct_access_tile %X[%r, %c0] {access_tile_set = #blk, access_tile_order = #id2} : memref<?x?xf16> -> !ktdp.access_tile<64x64xindex>
        %ty = ktdp.construct_access_tile %Y[%r, %c0] {access_tile_set = #blk, access_tile_order = #id2} : memref<?x?xf16> -> !ktdp.access_tile<64x64xindex>
        %x = ktdp.load %tx : <64x64xindex> -> tensor<64x64xf16>
        %y = arith.addf %x, %x : tensor<64x64xf16>
        ktdp.store %y, %ty : tensor<64x64xf16>, <64x64xindex>
      }
    }
    return
  }
}
