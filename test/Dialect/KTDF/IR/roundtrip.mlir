// RUN: ktflow-opt %s | ktflow-opt | FileCheck %s
// RUN: ktflow-opt %s --mlir-print-op-generic | ktflow-opt | FileCheck %s

// Every ktdf op and type, printed and parsed back.

#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @pipeline
func.func @pipeline(%a: index, %c: index) {
  // CHECK: ktdf.parallel (%[[X:.*]], %[[Y:.*]]) in [32, 1] distribute(num_instances = 8) {
  ktdf.parallel (%x, %y) in [32, 1] distribute(num_instances = 8) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c64 = arith.constant 64 : index
    %row = arith.muli %x, %c3 : index
    %A = ktdp.construct_memory_view %a, sizes: [96, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
    %C = ktdp.construct_memory_view %c, sizes: [96, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
    %ta = ktdp.construct_access_tile %A[%row, 0] {access_tile_set = #tile, access_tile_order = #id2} : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
    %tc = ktdp.construct_access_tile %C[%row, 0] {access_tile_set = #tile, access_tile_order = #id2} : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
    // CHECK: ktdf.pipeline modulo(size: 2) {
    ktdf.pipeline modulo(size: 2) {
      // CHECK: %[[IN:.*]] = ktdf.private offset 0 : memref<3x64xf16, "L1">
      %in = ktdf.private offset 0 : memref<3x64xf16, "L1">
      // CHECK: %[[OUT:.*]] = ktdf.private : memref<3x64xf16, "L1">
      %out = ktdf.private : memref<3x64xf16, "L1">
      // CHECK: %[[S1:.*]] = ktdf.private : !ktdf.fifo.slot<L1LU -> SFU, 64xf16>
      %s1 = ktdf.private : !ktdf.fifo.slot<L1LU -> SFU, 64xf16>
      // CHECK: %[[S2:.*]] = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/SFU" -> "core/subcore[0]/L1SU", 64xf16>
      %s2 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/SFU" -> "core/subcore[0]/L1SU", 64xf16>
      // CHECK: %[[FREE:.*]] = ktdf.private : !ktdf.token
      %free = ktdf.private : !ktdf.token
      // CHECK: %[[T0:.*]] = ktdf.stage "load" depends_in(%[[FREE]]) depends_out(1) applicable_units [dma_load] {
      // CHECK-NEXT: ktdf.data_transfer %{{.*}} to %[[IN]] : !ktdp.access_tile<3x64xindex> to memref<3x64xf16, "L1">
      %t0 = ktdf.stage "load" depends_in(%free) depends_out(1) applicable_units [dma_load] {
        ktdf.data_transfer %ta to %in : !ktdp.access_tile<3x64xindex> to memref<3x64xf16, "L1">
      }
      // CHECK: ktdf.stage "feed" depends_in(%[[T0]]) depends_out(0) applicable_units [scratchpad_load] unit "core/subcore[0]/L1LU" {
      ktdf.stage "feed" depends_in(%t0) depends_out(0) applicable_units [scratchpad_load] unit "core/subcore[0]/L1LU" {
        scf.for %r = %c0 to %c3 step %c1 {
          // CHECK: ktdf.data_transfer %[[IN]][%{{.*}}, %{{.*}}] to %[[S1]] : memref<3x64xf16, "L1"> to !ktdf.fifo.slot<L1LU -> SFU, 64xf16>
          ktdf.data_transfer %in[%r, %c0] to %s1 : memref<3x64xf16, "L1"> to !ktdf.fifo.slot<L1LU -> SFU, 64xf16>
        }
      }
      // CHECK: ktdf.stage "compute" depends_out(0) applicable_units [vector_compute, matrix_compute] {
      ktdf.stage "compute" depends_out(0) applicable_units [vector_compute, matrix_compute] {
        scf.for %r = %c0 to %c3 step %c1 {
          // CHECK: %[[V:.*]] = ktdf.read_from_fifo %[[S1]] : !ktdf.fifo.slot<L1LU -> SFU, 64xf16> -> vector<64xf16>
          %v = ktdf.read_from_fifo %s1 : !ktdf.fifo.slot<L1LU -> SFU, 64xf16> -> vector<64xf16>
          %w = arith.addf %v, %v : vector<64xf16>
          // CHECK: ktdf.write_to_fifo %{{.*}} to %[[S2]] : vector<64xf16> to !ktdf.fifo.slot<"core/subcore[0]/SFU" -> "core/subcore[0]/L1SU", 64xf16>
          ktdf.write_to_fifo %w to %s2 : vector<64xf16> to !ktdf.fifo.slot<"core/subcore[0]/SFU" -> "core/subcore[0]/L1SU", 64xf16>
        }
      }
      // CHECK: %[[T3:.*]]:2 = ktdf.stage "drain" depends_out(2) applicable_units [scratchpad_store] {
      %t3:2 = ktdf.stage "drain" depends_out(2) applicable_units [scratchpad_store] {
        scf.for %r = %c0 to %c3 step %c1 {
          ktdf.data_transfer %s2 to %out[%r, %c0] : !ktdf.fifo.slot<"core/subcore[0]/SFU" -> "core/subcore[0]/L1SU", 64xf16> to memref<3x64xf16, "L1">
        }
      }
      // CHECK: ktdf.stage "store" depends_in(%[[T3]]#0, %[[T3]]#1) depends_out(0) applicable_units [dma_store] {
      ktdf.stage "store" depends_in(%t3#0, %t3#1) depends_out(0) applicable_units [dma_store] {
        // CHECK: ktdf.data_transfer %[[OUT]] to %{{.*}} : memref<3x64xf16, "L1"> to !ktdp.access_tile<3x64xindex>
        ktdf.data_transfer %out to %tc : memref<3x64xf16, "L1"> to !ktdp.access_tile<3x64xindex>
        // CHECK: ktdf.data_transfer %[[OUT]] to %{{.*}} rows %{{.*}} : memref<3x64xf16, "L1"> to !ktdp.access_tile<3x64xindex>
        ktdf.data_transfer %out to %tc rows %c1 : memref<3x64xf16, "L1"> to !ktdp.access_tile<3x64xindex>
      }
    }
  }
  return
}

// CHECK-LABEL: func.func @logical_transfers
func.func @logical_transfers(%ta: !ktdp.access_tile<3x64xindex>, %tc: !ktdp.access_tile<3x64xindex>) {
  // CHECK: ktdf.parallel (%{{.*}}) in [4] {
  ktdf.parallel (%i) in [4] {
    // CHECK: ktdf.pipeline {
    ktdf.pipeline {
      %in = ktdf.private : !ktdf.fifo.slot<DDR -> vector_compute, 3x64xf16>
      %out = ktdf.private : !ktdf.fifo.slot<vector_compute -> DDR, 3x64xf16>
      %t = ktdf.stage "load" depends_out(1) applicable_units [dma_load, scratchpad_load] {
        // CHECK: ktdf.data_transfer %{{.*}} to %{{.*}} : !ktdp.access_tile<3x64xindex> to !ktdf.fifo.slot<DDR -> vector_compute, 3x64xf16>
        ktdf.data_transfer %ta to %in : !ktdp.access_tile<3x64xindex> to !ktdf.fifo.slot<DDR -> vector_compute, 3x64xf16>
      }
      %u = ktdf.stage "compute" depends_in(%t) depends_out(1) applicable_units [vector_compute] {
        // CHECK: ktdf.read_from_fifo %{{.*}} : !ktdf.fifo.slot<DDR -> vector_compute, 3x64xf16> -> tensor<3x64xf16>
        %x = ktdf.read_from_fifo %in : !ktdf.fifo.slot<DDR -> vector_compute, 3x64xf16> -> tensor<3x64xf16>
        ktdf.write_to_fifo %x to %out : tensor<3x64xf16> to !ktdf.fifo.slot<vector_compute -> DDR, 3x64xf16>
      }
      ktdf.stage "store" depends_in(%u) depends_out(0) applicable_units [scratchpad_store, dma_store] {
        ktdf.data_transfer %out to %tc : !ktdf.fifo.slot<vector_compute -> DDR, 3x64xf16> to !ktdp.access_tile<3x64xindex>
      }
    }
  }
  return
}

// CHECK-LABEL: func.func @indirect
func.func @indirect(%table: memref<1024x64xf16>, %idx: memref<8xi32, "L1">, %rows: memref<8x64xf16, "L1">) {
  // CHECK: ktdf.ind_data_transfer %{{.*}}[%{{.*}}] to %{{.*}} : memref<1024x64xf16>[memref<8xi32, "L1">] to memref<8x64xf16, "L1">
  ktdf.ind_data_transfer %table[%idx] to %rows : memref<1024x64xf16>[memref<8xi32, "L1">] to memref<8x64xf16, "L1">
  // CHECK: ktdf.ind_data_transfer %{{.*}} to %{{.*}}[%{{.*}}] : memref<8x64xf16, "L1"> to memref<1024x64xf16>[memref<8xi32, "L1">]
  ktdf.ind_data_transfer %rows to %table[%idx] : memref<8x64xf16, "L1"> to memref<1024x64xf16>[memref<8xi32, "L1">]
  return
}

// A scatter reading its indices from a buffer a load unit staged them in.
#rows8 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
// CHECK-LABEL: func.func @staged_indices
func.func @staged_indices(%cp: index, %sp: index, %r0: index, %rows: memref<8x64xf16, "L1">, %slots: memref<8xi32, "L1">) {
  %C = ktdp.construct_memory_view %cp, sizes: [64, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %S = ktdp.construct_memory_view %sp, sizes: [32], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<32xi32>
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %C[ind(%S[%r0 + %i]), (%j)] {variables_space_set = #rows8, variables_space_order = #id2} : memref<64x64xf16>, memref<32xi32> -> !ktdp.access_tile<8x64xindex>
  // CHECK: ktdf.data_transfer %{{.*}} to %{{.*}} indices(%{{.*}} : memref<8xi32, "L1">) : memref<8x64xf16, "L1"> to !ktdp.access_tile<8x64xindex>
  ktdf.data_transfer %rows to %t indices(%slots : memref<8xi32, "L1">) : memref<8x64xf16, "L1"> to !ktdp.access_tile<8x64xindex>
  return
}

// CHECK-LABEL: func.func @tiling
func.func @tiling(%iv: index, %t: index) -> (index, index, index) {
  %c128 = arith.constant 128 : index
  // CHECK: %[[TS:.*]] = ktdf.tiling.reserve_size "row_chunk" extent 128 granularity 64
  %ts = ktdf.tiling.reserve_size "row_chunk" extent 128 granularity 64
  // CHECK: ktdf.tiling.derive_size %[[TS]] at %{{.*}} extent %{{.*}}
  %n = ktdf.tiling.derive_size %ts at %iv extent %c128
  // CHECK: ktdf.tiling.linearize_index %{{.*}}, %{{.*}} by %[[TS]]
  %i = ktdf.tiling.linearize_index %t, %iv by %ts
  return %ts, %n, %i : index, index, index
}

// CHECK-LABEL: func.func @indexed_tile
func.func @indexed_tile(%t: !ktdp.access_tile<4x128xindex>, %r: index, %c: index) {
  ktdf.pipeline {
    %s = ktdf.private : !ktdf.fifo.slot<LU -> VPU, 64xf16>
    ktdf.stage "feed" depends_out(0) applicable_units [scratchpad_load] {
      // CHECK: ktdf.data_transfer %{{.*}}[%{{.*}}, %{{.*}}] to %{{.*}} : !ktdp.access_tile<4x128xindex> to !ktdf.fifo.slot<LU -> VPU, 64xf16>
      ktdf.data_transfer %t[%r, %c] to %s : !ktdp.access_tile<4x128xindex> to !ktdf.fifo.slot<LU -> VPU, 64xf16>
    }
  }
  return
}

// A pipeline that exports its buffer to the pipelines of a loop.
// CHECK-LABEL: func.func @exported_buffer
func.func @exported_buffer(%tv: !ktdp.access_tile<64xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // CHECK: %[[V:.*]] = ktdf.pipeline modulo(size: 1) -> memref<64xf16, "L1"> {
  // CHECK-NEXT: %[[B:.*]] = ktdf.private offset 128 export 0 : memref<64xf16, "L1">
  %v = ktdf.pipeline modulo(size: 1) -> memref<64xf16, "L1"> {
    %buf = ktdf.private offset 128 export 0 : memref<64xf16, "L1">
    %t = ktdf.stage "load" depends_out(1) applicable_units [dma_load] {
      ktdf.data_transfer %tv to %buf : !ktdp.access_tile<64xindex> to memref<64xf16, "L1">
    }
  }
  scf.for %i = %c0 to %c4 step %c1 {
    ktdf.pipeline modulo(size: 2) {
      %slot = ktdf.private : !ktdf.fifo.slot<L1LU -> SFU, 64xf16>
      // CHECK: ktdf.data_transfer %[[V]][%{{.*}}] to
      ktdf.stage "feed" depends_out(0) applicable_units [scratchpad_load] {
        ktdf.data_transfer %v[%c0] to %slot : memref<64xf16, "L1"> to !ktdf.fifo.slot<L1LU -> SFU, 64xf16>
      }
    }
  }
  return
}

// An exporting pipeline with two copies in a loop: each iteration fills the
// other copy (a row span loaded one row ahead).
// CHECK-LABEL: func.func @exported_copies
func.func @exported_copies(%tv: !ktdp.access_tile<64xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    // CHECK: ktdf.pipeline modulo(size: 2) -> memref<64xf16, "L1"> {
    %v = ktdf.pipeline modulo(size: 2) -> memref<64xf16, "L1"> {
      %buf = ktdf.private export 0 : memref<64xf16, "L1">
      %t = ktdf.stage "load" depends_out(1) applicable_units [dma_load] {
        ktdf.data_transfer %tv to %buf : !ktdp.access_tile<64xindex> to memref<64xf16, "L1">
      }
    }
  }
  return
}

// A pipeline run once per instance of the grid.
// CHECK-LABEL: func.func @per_instance
func.func @per_instance(%tv: !ktdp.access_tile<64xindex>) {
  ktdf.parallel (%i) in [4] {
    // CHECK: ktdf.pipeline per_instance modulo(size: 1) -> memref<64xf16, "L1"> {
    %v = ktdf.pipeline per_instance modulo(size: 1) -> memref<64xf16, "L1"> {
      %buf = ktdf.private export 0 : memref<64xf16, "L1">
      %t = ktdf.stage "load" depends_out(1) applicable_units [dma_load] {
        ktdf.data_transfer %tv to %buf : !ktdp.access_tile<64xindex> to memref<64xf16, "L1">
      }
    }
  }
  return
}

// A 4x16 column block of a wider buffer: its slot has the block's shape
// (the load unit moves it as rows) and the compute unit takes the slot's
// 64 elements as one flat chunk.
// CHECK-LABEL: func.func @column_block_chunk
func.func @column_block_chunk() {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  ktdf.pipeline {
    %buf = ktdf.private : memref<8x32xf16, "L1">
    %slot = ktdf.private : !ktdf.fifo.slot<L1LU -> SFU, 4x16xf16>
    %t = ktdf.stage "feed" depends_out(1) applicable_units [scratchpad_load] {
      // CHECK: ktdf.data_transfer %{{.*}}[%{{.*}}, %{{.*}}] to %{{.*}} : memref<8x32xf16, "L1"> to !ktdf.fifo.slot<L1LU -> SFU, 4x16xf16>
      ktdf.data_transfer %buf[%c0, %c16] to %slot : memref<8x32xf16, "L1"> to !ktdf.fifo.slot<L1LU -> SFU, 4x16xf16>
    }
    ktdf.stage "compute" depends_in(%t) depends_out(0) applicable_units [vector_compute] {
      // CHECK: ktdf.read_from_fifo %{{.*}} : !ktdf.fifo.slot<L1LU -> SFU, 4x16xf16> -> tensor<64xf16>
      %v = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<L1LU -> SFU, 4x16xf16> -> tensor<64xf16>
    }
  }
  return
}

// A DMA from a scratchpad view straight to device memory: the kept view's
// four elements as four rows of one element, 16 elements apart.

#k5 = affine_set<(d0) : (d0 >= 0, -d0 + 4 >= 0)>
#k4 = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#col = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 == 0)>
#i1 = affine_map<(d0) -> (d0)>
#i2 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @scratchpad_dma
func.func @scratchpad_dma(%out: index, %pid: index) {
  %c0 = arith.constant 0 : index
  %K = ktdp.construct_memory_view %c0, sizes: [5], strides: [1] {coordinate_set = #k5, memory_space = #ktdp.memory_space<ct_local>} : memref<5xf16, #ktdp.memory_space<ct_local>>
  %O = ktdp.construct_memory_view %out, sizes: [4, 16], strides: [16, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<4x16xf16>
  %tk = ktdp.construct_access_tile %K[0] {access_tile_set = #k4, access_tile_order = #i1} : memref<5xf16, #ktdp.memory_space<ct_local>> -> !ktdp.access_tile<4xindex>
  %to = ktdp.construct_access_tile %O[0, %pid] {access_tile_set = #col, access_tile_order = #i2} : memref<4x16xf16> -> !ktdp.access_tile<4x1xindex>
  // CHECK: ktdf.data_transfer %{{.*}} to %{{.*}} : !ktdp.access_tile<4xindex> to !ktdp.access_tile<4x1xindex>
  ktdf.data_transfer %tk to %to : !ktdp.access_tile<4xindex> to !ktdp.access_tile<4x1xindex>
  return
}

// A reduce-scatter (`ktdf.scatter`): the c-th tile of each group keeps
// chunk c (ScatterAttr.h).
// CHECK-LABEL: func.func @all_reduce_scatter
// CHECK: ktdf.all_reduce %{{.*}}, %{{.*}} {combiner = "arith.addf", groups = [array<i64: 2, 0, 1, 3>], ktdf.scatter, pieces = 2 : i64} : memref<8x32xf32>, memref<192xf32>
func.func @all_reduce_scatter(%p: memref<8x32xf32>, %r: memref<192xf32>) {
  ktdf.all_reduce %p, %r {combiner = "arith.addf", groups = [array<i64: 2, 0, 1, 3>], ktdf.scatter, pieces = 2 : i64} : memref<8x32xf32>, memref<192xf32>
  return
}
