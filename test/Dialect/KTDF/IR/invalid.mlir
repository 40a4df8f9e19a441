// RUN: ktflow-opt %s -split-input-file -verify-diagnostics

// One case per ktdf verifier and parser message.

func.func @no_dims() {
  // expected-error @+1 {{needs at least one dimension}}
  ktdf.parallel () in [] {
  }
  return
}

// -----

func.func @zero_extent() {
  // expected-error @+1 {{extents must be positive}}
  ktdf.parallel (%i) in [0] {
  }
  return
}

// -----

func.func @arg_count() {
  // expected-error @+1 {{has 2 dimensions but its body takes 1 arguments}}
  "ktdf.parallel"() <{extents = array<i64: 4, 2>}> ({
  ^bb0(%i: index):
  }) : () -> ()
  return
}

// -----

func.func @arg_type() {
  // expected-error @+1 {{body arguments must be of type index}}
  "ktdf.parallel"() <{extents = array<i64: 4>}> ({
  ^bb0(%i: i32):
  }) : () -> ()
  return
}

// -----

func.func @instances() {
  // expected-error @+1 {{distributes over a positive number of instances, not 0}}
  ktdf.parallel (%i) in [4] distribute(num_instances = 0) {
  }
  return
}

// -----

func.func @too_large() {
  // expected-error @+1 {{iteration space is too large}}
  ktdf.parallel (%i, %j) in [65536, 65536] {
  }
  return
}

// -----

func.func @modulo() {
  // expected-error @+1 {{modulo size must be positive, not 0}}
  ktdf.pipeline modulo(size: 0) {
  }
  return
}

// -----

func.func @pipeline_body() {
  ktdf.pipeline {
    // expected-error @+1 {{cannot appear directly in a ktdf.pipeline}}
    %c0 = arith.constant 0 : index
  }
  return
}

// -----

func.func @stage_name() {
  ktdf.pipeline {
    // expected-error @+1 {{needs a non-empty name}}
    ktdf.stage "" depends_out(0) applicable_units [dma_load] {
    }
  }
  return
}

// -----

func.func @stage_roles() {
  ktdf.pipeline {
    // expected-error @+1 {{needs at least one applicable unit role}}
    ktdf.stage "s" depends_out(0) applicable_units [] {
    }
  }
  return
}

// -----

func.func @stage_role_twice() {
  ktdf.pipeline {
    // expected-error @+1 {{lists unit role 'dma_load' twice}}
    ktdf.stage "s" depends_out(0) applicable_units [dma_load, dma_load] {
    }
  }
  return
}

// -----

func.func @stage_unknown_role() {
  ktdf.pipeline {
    // expected-error @+1 {{unknown unit role 'dma'}}
    ktdf.stage "s" depends_out(0) applicable_units [dma] {
    }
  }
  return
}

// -----

func.func @stage_token_count() {
  ktdf.pipeline {
    // expected-error @+1 {{expected between 0 and 64 tokens}}
    ktdf.stage "s" depends_out(-1) applicable_units [dma_load] {
    }
  }
  return
}

// -----

func.func @stage_empty_unit() {
  ktdf.pipeline {
    // expected-error @+1 {{names an empty unit}}
    ktdf.stage "s" depends_out(0) applicable_units [dma_load] unit "" {
    }
  }
  return
}

// -----

func.func @stage_foreign_token(%t: !ktdf.token) {
  ktdf.pipeline {
    // expected-error @+1 {{waits for a token that no stage or private resource of its pipeline defines}}
    ktdf.stage "s" depends_in(%t) depends_out(0) applicable_units [dma_load] {
    }
  }
  return
}

// -----

func.func @stage_outside_pipeline() {
  // expected-error @+1 {{expects parent op 'ktdf.pipeline'}}
  ktdf.stage "s" depends_out(0) applicable_units [dma_load] {
  }
  return
}

// -----

func.func @private_dynamic() {
  ktdf.pipeline {
    // expected-error @+1 {{buffers need a static shape}}
    %b = ktdf.private : memref<?xf16, "L1">
  }
  return
}

// -----

func.func @private_no_kind() {
  ktdf.pipeline {
    // expected-error @+1 {{buffers need a device memory kind}}
    %b = ktdf.private : memref<64xf16>
  }
  return
}

// -----

func.func @private_layout() {
  ktdf.pipeline {
    // expected-error @+1 {{buffers are dense and row-major}}
    %b = ktdf.private : memref<4x4xf16, strided<[8, 1]>, "L1">
  }
  return
}

// -----

func.func @private_offset() {
  ktdf.pipeline {
    // expected-error @+1 {{offset must not be negative}}
    %b = ktdf.private offset -64 : memref<64xf16, "L1">
  }
  return
}

// -----

func.func @private_type() {
  ktdf.pipeline {
    // expected-error @+1 {{declares a buffer (memref), a FIFO slot or a token, not 'f32'}}
    %b = ktdf.private : f32
  }
  return
}

// -----

func.func @private_slot_offset() {
  ktdf.pipeline {
    // expected-error @+1 {{only buffers have an offset}}
    %b = ktdf.private offset 0 : !ktdf.token
  }
  return
}

// -----

func.func @transfer_ends(%a: f32, %b: memref<4xf32, "L1">) {
  // expected-error @+1 {{ends must be access tiles, memrefs or FIFO slots}}
  ktdf.data_transfer %a to %b : f32 to memref<4xf32, "L1">
  return
}

// -----

func.func @transfer_tiles(%a: !ktdp.access_tile<4xindex>) {
  // expected-error @+1 {{moves from one access tile to another only between a scratchpad view and device memory}}
  ktdf.data_transfer %a to %a : !ktdp.access_tile<4xindex> to !ktdp.access_tile<4xindex>
  return
}

// -----

#v4 = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
func.func @transfer_device_tiles(%p: index, %q: index) {
  %a = ktdp.construct_memory_view %p, sizes: [4], strides: [1] {coordinate_set = #v4, memory_space = #ktdp.memory_space<global>} : memref<4xf16>
  %b = ktdp.construct_memory_view %q, sizes: [4], strides: [1] {coordinate_set = #v4, memory_space = #ktdp.memory_space<global>} : memref<4xf16>
  %ta = ktdp.construct_access_tile %a[0] {access_tile_set = #v4, access_tile_order = #id1} : memref<4xf16> -> !ktdp.access_tile<4xindex>
  %tb = ktdp.construct_access_tile %b[0] {access_tile_set = #v4, access_tile_order = #id1} : memref<4xf16> -> !ktdp.access_tile<4xindex>
  // expected-error @+1 {{moves from one access tile to another only between a scratchpad view and device memory}}
  ktdf.data_transfer %ta to %tb : !ktdp.access_tile<4xindex> to !ktdp.access_tile<4xindex>
  return
}

// -----

#v4 = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
func.func @transfer_scratchpad_indexed(%q: index, %i: index) {
  %c0 = arith.constant 0 : index
  %k = ktdp.construct_memory_view %c0, sizes: [4], strides: [1] {coordinate_set = #v4, memory_space = #ktdp.memory_space<ct_local>} : memref<4xf16, #ktdp.memory_space<ct_local>>
  %b = ktdp.construct_memory_view %q, sizes: [4], strides: [1] {coordinate_set = #v4, memory_space = #ktdp.memory_space<global>} : memref<4xf16>
  %tk = ktdp.construct_access_tile %k[0] {access_tile_set = #v4, access_tile_order = #id1} : memref<4xf16, #ktdp.memory_space<ct_local>> -> !ktdp.access_tile<4xindex>
  %tb = ktdp.construct_access_tile %b[0] {access_tile_set = #v4, access_tile_order = #id1} : memref<4xf16> -> !ktdp.access_tile<4xindex>
  // expected-error @+1 {{a move between a scratchpad tile and a device memory tile takes no indices}}
  ktdf.data_transfer %tk[%i] to %tb : !ktdp.access_tile<4xindex> to !ktdp.access_tile<4xindex>
  return
}

// -----

#v4 = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#v8 = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#m48 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#c41 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 == 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @transfer_scratchpad_elements(%q: index) {
  %c0 = arith.constant 0 : index
  %k = ktdp.construct_memory_view %c0, sizes: [8], strides: [1] {coordinate_set = #v8, memory_space = #ktdp.memory_space<ct_local>} : memref<8xf16, #ktdp.memory_space<ct_local>>
  %b = ktdp.construct_memory_view %q, sizes: [4, 8], strides: [8, 1] {coordinate_set = #m48, memory_space = #ktdp.memory_space<global>} : memref<4x8xf16>
  %tk = ktdp.construct_access_tile %k[0] {access_tile_set = #v8, access_tile_order = #id1} : memref<8xf16, #ktdp.memory_space<ct_local>> -> !ktdp.access_tile<8xindex>
  %tb = ktdp.construct_access_tile %b[0, 0] {access_tile_set = #c41, access_tile_order = #id2} : memref<4x8xf16> -> !ktdp.access_tile<4x1xindex>
  // expected-error @+1 {{moves 8 elements of its source tile into 4 of its destination tile}}
  ktdf.data_transfer %tk to %tb : !ktdp.access_tile<8xindex> to !ktdp.access_tile<4x1xindex>
  return
}

// -----

#v4 = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
func.func @transfer_scratchpad_types(%q: index) {
  %c0 = arith.constant 0 : index
  %k = ktdp.construct_memory_view %c0, sizes: [4], strides: [1] {coordinate_set = #v4, memory_space = #ktdp.memory_space<ct_local>} : memref<4xf32, #ktdp.memory_space<ct_local>>
  %b = ktdp.construct_memory_view %q, sizes: [4], strides: [1] {coordinate_set = #v4, memory_space = #ktdp.memory_space<global>} : memref<4xf16>
  %tk = ktdp.construct_access_tile %k[0] {access_tile_set = #v4, access_tile_order = #id1} : memref<4xf32, #ktdp.memory_space<ct_local>> -> !ktdp.access_tile<4xindex>
  %tb = ktdp.construct_access_tile %b[0] {access_tile_set = #v4, access_tile_order = #id1} : memref<4xf16> -> !ktdp.access_tile<4xindex>
  // expected-error @+1 {{moves 'f32' elements into 'f16' elements}}
  ktdf.data_transfer %tk to %tb : !ktdp.access_tile<4xindex> to !ktdp.access_tile<4xindex>
  return
}

// -----

func.func @transfer_slots(%a: !ktdf.fifo.slot<A -> B, 4xf16>) {
  // expected-error @+1 {{cannot move from one FIFO slot to another}}
  ktdf.data_transfer %a to %a : !ktdf.fifo.slot<A -> B, 4xf16> to !ktdf.fifo.slot<A -> B, 4xf16>
  return
}

// -----

func.func @transfer_rows_slot(%a: !ktdp.access_tile<4x64xindex>, %b: !ktdf.fifo.slot<A -> B, 4x64xf16>, %n: index) {
  // expected-error @+1 {{'rows' limits a transfer between a whole access tile of rank 2 or more and a buffer}}
  ktdf.data_transfer %a to %b rows %n : !ktdp.access_tile<4x64xindex> to !ktdf.fifo.slot<A -> B, 4x64xf16>
  return
}

// -----

func.func @transfer_rows_rank1(%a: !ktdp.access_tile<64xindex>, %b: memref<64xf16, "L1">, %n: index) {
  // expected-error @+1 {{'rows' limits a transfer between a whole access tile of rank 2 or more and a buffer}}
  ktdf.data_transfer %a to %b rows %n : !ktdp.access_tile<64xindex> to memref<64xf16, "L1">
  return
}

// -----

func.func @staged_indices_direct(%a: !ktdp.access_tile<64xindex>, %b: memref<64xf16, "L1">, %s: memref<8xi32, "L1">) {
  // expected-error @+1 {{staged indices go with an indirect access tile end}}
  ktdf.data_transfer %a to %b indices(%s : memref<8xi32, "L1">) : !ktdp.access_tile<64xindex> to memref<64xf16, "L1">
  return
}

// -----

#rows8 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2s = affine_map<(d0, d1) -> (d0, d1)>
func.func @staged_indices_type(%cp: index, %sp: index, %r0: index, %rows: memref<8x64xf16, "L1">, %slots: memref<8xi64, "L1">) {
  %C = ktdp.construct_memory_view %cp, sizes: [64, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %S = ktdp.construct_memory_view %sp, sizes: [32], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<32xi32>
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %C[ind(%S[%r0 + %i]), (%j)] {variables_space_set = #rows8, variables_space_order = #id2s} : memref<64x64xf16>, memref<32xi32> -> !ktdp.access_tile<8x64xindex>
  // expected-error @+1 {{stages 'i32' indices in a buffer of 'i64'}}
  ktdf.data_transfer %rows to %t indices(%slots : memref<8xi64, "L1">) : memref<8x64xf16, "L1"> to !ktdp.access_tile<8x64xindex>
  return
}

// -----

#rows8b = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2b = affine_map<(d0, d1) -> (d0, d1)>
func.func @staged_indices_count(%cp: index, %sp: index, %r0: index, %rows: memref<8x64xf16, "L1">, %slots: memref<8xi32, "L1">) {
  %C = ktdp.construct_memory_view %cp, sizes: [64, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %S = ktdp.construct_memory_view %sp, sizes: [32], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<32xi32>
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %C[ind(%S[%r0 + %i]), (%j)] {variables_space_set = #rows8b, variables_space_order = #id2b} : memref<64x64xf16>, memref<32xi32> -> !ktdp.access_tile<8x64xindex>
  // expected-error @+1 {{stages 2 index buffers for an indirect access tile reading 1 index views}}
  ktdf.data_transfer %rows to %t indices(%slots, %slots : memref<8xi32, "L1">, memref<8xi32, "L1">) : memref<8x64xf16, "L1"> to !ktdp.access_tile<8x64xindex>
  return
}

// -----

func.func @transfer_index_src(%a: !ktdf.fifo.slot<A -> B, 4xf16>, %b: memref<4xf16, "L1">, %i: index) {
  // expected-error @+1 {{only a buffer or access tile source can be indexed}}
  ktdf.data_transfer %a[%i] to %b : !ktdf.fifo.slot<A -> B, 4xf16> to memref<4xf16, "L1">
  return
}

// -----

func.func @transfer_index_dst(%a: !ktdf.fifo.slot<A -> B, 4xf16>, %b: memref<4xf16, "L1">, %i: index) {
  // expected-error @+1 {{only a buffer or access tile destination can be indexed}}
  ktdf.data_transfer %b to %a[%i] : memref<4xf16, "L1"> to !ktdf.fifo.slot<A -> B, 4xf16>
  return
}

// -----

func.func @transfer_both_indexed(%a: memref<4xf16, "L1">, %i: index) {
  // expected-error @+1 {{cannot infer the block shape when both buffers are indexed}}
  ktdf.data_transfer %a[%i] to %a[%i] : memref<4xf16, "L1"> to memref<4xf16, "L1">
  return
}

// -----

func.func @transfer_elem(%a: !ktdf.fifo.slot<A -> B, 4xf16>, %b: memref<4xf32, "L1">) {
  // expected-error @+1 {{moves 'f16' elements into 'f32' elements}}
  ktdf.data_transfer %a to %b : !ktdf.fifo.slot<A -> B, 4xf16> to memref<4xf32, "L1">
  return
}

// -----

func.func @transfer_index_count(%a: !ktdf.fifo.slot<A -> B, 4xf16>, %b: memref<2x4xf16, "L1">, %i: index) {
  // expected-error @+1 {{indexes its destination with 1 indices, but the buffer has rank 2}}
  ktdf.data_transfer %a to %b[%i] : !ktdf.fifo.slot<A -> B, 4xf16> to memref<2x4xf16, "L1">
  return
}

// -----

func.func @transfer_block_rank(%a: !ktdf.fifo.slot<A -> B, 1x1x4xf16>, %b: memref<2x4xf16, "L1">, %i: index) {
  // expected-error @+1 {{moves a block of rank 3 within a destination of rank 2}}
  ktdf.data_transfer %a to %b[%i, %i] : !ktdf.fifo.slot<A -> B, 1x1x4xf16> to memref<2x4xf16, "L1">
  return
}

// -----

func.func @transfer_block_fit(%a: !ktdf.fifo.slot<A -> B, 6xf16>, %b: memref<2x4xf16, "L1">, %i: index) {
  // expected-error @+1 {{moves a block of 6 elements along a dimension of 4 in its destination}}
  ktdf.data_transfer %a to %b[%i, %i] : !ktdf.fifo.slot<A -> B, 6xf16> to memref<2x4xf16, "L1">
  return
}

// -----

// Whole rows, but more than the buffer holds.
func.func @transfer_block_rows(%a: !ktdf.fifo.slot<A -> B, 12xf16>, %b: memref<2x4xf16, "L1">, %i: index) {
  // expected-error @+1 {{moves a block of 12 elements along a dimension of 4 in its destination}}
  ktdf.data_transfer %a to %b[%i, %i] : !ktdf.fifo.slot<A -> B, 12xf16> to memref<2x4xf16, "L1">
  return
}

// -----

func.func @transfer_block_size(%a: !ktdp.access_tile<3x64xindex>, %b: memref<2x64xf16, "L1">) {
  // expected-error @+1 {{moves a block of 192 elements but its destination 'memref<2x64xf16, "L1">' holds 128}}
  ktdf.data_transfer %a to %b : !ktdp.access_tile<3x64xindex> to memref<2x64xf16, "L1">
  return
}

// -----

func.func @ind_two(%a: memref<8x4xf16>, %b: memref<8x4xf16, "L1">, %i: memref<8xi32, "L1">) {
  // expected-error @+1 {{needs exactly one indexed end}}
  ktdf.ind_data_transfer %a[%i] to %b[%i] : memref<8x4xf16>[memref<8xi32, "L1">] to memref<8x4xf16, "L1">[memref<8xi32, "L1">]
  return
}

// -----

func.func @ind_index_type(%a: memref<8x4xf16>, %b: memref<8x4xf16, "L1">, %i: memref<8xf32, "L1">) {
  // expected-error @+1 {{index buffer must be a rank-1 memref of integers}}
  ktdf.ind_data_transfer %a[%i] to %b : memref<8x4xf16>[memref<8xf32, "L1">] to memref<8x4xf16, "L1">
  return
}

// -----

func.func @ind_elem(%a: memref<8x4xf16>, %b: memref<8x4xf32, "L1">, %i: memref<8xi32, "L1">) {
  // expected-error @+1 {{moves 'f16' elements into 'f32' elements}}
  ktdf.ind_data_transfer %a[%i] to %b : memref<8x4xf16>[memref<8xi32, "L1">] to memref<8x4xf32, "L1">
  return
}

// -----

func.func @ind_rank(%a: memref<8x4xf16>, %b: memref<32xf16, "L1">, %i: memref<8xi32, "L1">) {
  // expected-error @+1 {{ends must have the same non-zero rank}}
  ktdf.ind_data_transfer %a[%i] to %b : memref<8x4xf16>[memref<8xi32, "L1">] to memref<32xf16, "L1">
  return
}

// -----

func.func @ind_rows(%a: memref<8x4xf16>, %b: memref<4x4xf16, "L1">, %i: memref<8xi32, "L1">) {
  // expected-error @+1 {{moves 8 indexed rows but the unindexed end has 4}}
  ktdf.ind_data_transfer %a[%i] to %b : memref<8x4xf16>[memref<8xi32, "L1">] to memref<4x4xf16, "L1">
  return
}

// -----

func.func @ind_row_dims(%a: memref<16x4xf16>, %b: memref<8x8xf16, "L1">, %i: memref<8xi32, "L1">) {
  // expected-error @+1 {{ends disagree in a row dimension (4 vs 8)}}
  ktdf.ind_data_transfer %a[%i] to %b : memref<16x4xf16>[memref<8xi32, "L1">] to memref<8x8xf16, "L1">
  return
}

// -----

func.func @read_outside(%s: !ktdf.fifo.slot<A -> B, 4xf16>) {
  // expected-error @+1 {{must be inside a ktdf.stage}}
  %v = ktdf.read_from_fifo %s : !ktdf.fifo.slot<A -> B, 4xf16> -> vector<4xf16>
  return
}

// -----

func.func @read_type() {
  ktdf.pipeline {
    %s = ktdf.private : !ktdf.fifo.slot<A -> B, 4xf16>
    ktdf.stage "s" depends_out(0) applicable_units [vector_compute] {
      // expected-error @+1 {{moves 'vector<8xf16>' through a slot of '!ktdf.fifo.slot<A -> B, 4xf16>'}}
      %v = ktdf.read_from_fifo %s : !ktdf.fifo.slot<A -> B, 4xf16> -> vector<8xf16>
    }
  }
  return
}

// -----

// A slot of rows may be read as one flat chunk only of as many elements.
func.func @read_rows_count() {
  ktdf.pipeline {
    %s = ktdf.private : !ktdf.fifo.slot<A -> B, 4x16xf16>
    ktdf.stage "s" depends_out(0) applicable_units [vector_compute] {
      // expected-error @+1 {{moves 'tensor<32xf16>' through a slot of '!ktdf.fifo.slot<A -> B, 4x16xf16>'}}
      %v = ktdf.read_from_fifo %s : !ktdf.fifo.slot<A -> B, 4x16xf16> -> tensor<32xf16>
    }
  }
  return
}

// -----

// ... and only flat: not reshaped to another shape of rows.
func.func @read_rows_reshaped() {
  ktdf.pipeline {
    %s = ktdf.private : !ktdf.fifo.slot<A -> B, 4x16xf16>
    ktdf.stage "s" depends_out(0) applicable_units [vector_compute] {
      // expected-error @+1 {{moves 'tensor<2x32xf16>' through a slot of '!ktdf.fifo.slot<A -> B, 4x16xf16>'}}
      %v = ktdf.read_from_fifo %s : !ktdf.fifo.slot<A -> B, 4x16xf16> -> tensor<2x32xf16>
    }
  }
  return
}

// -----

func.func @write_type(%v: vector<4xf32>) {
  ktdf.pipeline {
    %s = ktdf.private : !ktdf.fifo.slot<A -> B, 4xf16>
    ktdf.stage "s" depends_out(0) applicable_units [vector_compute] {
      // expected-error @+1 {{moves 'vector<4xf32>' through a slot of}}
      ktdf.write_to_fifo %v to %s : vector<4xf32> to !ktdf.fifo.slot<A -> B, 4xf16>
    }
  }
  return
}

// -----

// expected-error @+1 {{FIFO slot endpoints must be non-empty}}
func.func private @slot_endpoint(!ktdf.fifo.slot<"" -> B, 4xf16>)

// -----

// expected-error @+1 {{a FIFO slot holds a block of rank 1 or more}}
func.func private @slot_rank(!ktdf.fifo.slot<A -> B, f16>)

// -----

// expected-error @+1 {{FIFO slot dimensions must be positive}}
func.func private @slot_dims(!ktdf.fifo.slot<A -> B, 0x4xf16>)

// -----

// expected-error @+1 {{FIFO slot elements must be integers or floats, not 'index'}}
func.func private @slot_elem(!ktdf.fifo.slot<A -> B, 4xindex>)

// -----

func.func @reserve_extent() -> index {
  // expected-error @+1 {{extent must be positive}}
  %t = ktdf.tiling.reserve_size "t" extent 0 granularity 64
  return %t : index
}

// -----

func.func @reserve_granularity() -> index {
  // expected-error @+1 {{granularity must be positive}}
  %t = ktdf.tiling.reserve_size "t" extent 64 granularity 0
  return %t : index
}

// -----

func.func @tile_index_count(%a: !ktdp.access_tile<4x64xindex>, %s: !ktdf.fifo.slot<A -> B, 64xf16>, %i: index) {
  // expected-error @+1 {{indexes an access tile of rank 2 with 1 indices}}
  ktdf.data_transfer %a[%i] to %s : !ktdp.access_tile<4x64xindex> to !ktdf.fifo.slot<A -> B, 64xf16>
  return
}

// -----

func.func @tile_index_buffer(%a: !ktdp.access_tile<4x64xindex>, %b: memref<4x64xf16, "L1">, %i: index) {
  // expected-error @+1 {{an indexed access tile moves a FIFO slot's block}}
  ktdf.data_transfer %a[%i, %i] to %b : !ktdp.access_tile<4x64xindex> to memref<4x64xf16, "L1">
  return
}

// -----

func.func @export_missing() {
  // expected-error @+1 {{result 0 is exported by no buffer}}
  %v = ktdf.pipeline -> memref<64xf16, "L1"> {
    %buf = ktdf.private : memref<64xf16, "L1">
  }
  return
}

// -----

func.func @export_out_of_range() {
  ktdf.pipeline {
    // expected-error @+1 {{exports result 1 but the pipeline has 0 result(s)}}
    %buf = ktdf.private export 1 : memref<64xf16, "L1">
  }
  return
}

// -----

func.func @export_twice() {
  %v = ktdf.pipeline -> memref<64xf16, "L1"> {
    %a = ktdf.private export 0 : memref<64xf16, "L1">
    // expected-error @+1 {{exports result 0, which another buffer already exports}}
    %b = ktdf.private export 0 : memref<64xf16, "L1">
  }
  return
}

// -----

func.func @export_type() {
  %v = ktdf.pipeline -> memref<64xf16, "L1"> {
    // expected-error @+1 {{exports result 0 of type 'memref<64xf16, "L1">' but is 'memref<32xf16, "L1">'}}
    %a = ktdf.private export 0 : memref<32xf16, "L1">
  }
  return
}

// -----

func.func @export_slot() {
  ktdf.pipeline {
    // expected-error @+1 {{only buffers can be exported}}
    %s = ktdf.private export 0 : !ktdf.fifo.slot<L1LU -> SFU, 64xf16>
  }
  return
}

// -----

func.func @per_instance_export_copies() {
  ktdf.parallel (%i) in [4] {
    // expected-error @+1 {{runs once per instance and exports buffers that live across the instance's points, so it cannot rotate 2 copies}}
    %v = ktdf.pipeline per_instance modulo(size: 2) -> memref<64xf16, "L1"> {
      %a = ktdf.private export 0 : memref<64xf16, "L1">
    }
  }
  return
}

// -----

func.func @per_instance_outside_grid() {
  // expected-error @+1 {{runs once per instance of a ktdf.parallel, so it must sit directly in one}}
  ktdf.pipeline per_instance {
  }
  return
}

// -----

func.func @all_reduce_combiner(%p: memref<128xf16>, %r: memref<96xf16>) {
  // expected-error @+1 {{combiner 'arith.subf' is not one of}}
  ktdf.all_reduce %p, %r {combiner = "arith.subf", groups = [array<i64: 0, 1, 2, 3>]} : memref<128xf16>, memref<96xf16>
  return
}

// -----

func.func @all_reduce_tile_twice(%p: memref<128xf16>, %r: memref<96xf16>) {
  // expected-error @+1 {{tile 1 is negative or in two groups}}
  ktdf.all_reduce %p, %r {combiner = "arith.addf", groups = [array<i64: 0, 1>, array<i64: 1, 2>]} : memref<128xf16>, memref<96xf16>
  return
}

// -----

// Groups of 4 send 3 chunks of 128 / 4 = 32 elements to each tile.
func.func @all_reduce_received_too_small(%p: memref<128xf16>, %r: memref<64xf16>) {
  // expected-error @+1 {{the received view holds 64 elements; groups of 4 need 96}}
  ktdf.all_reduce %p, %r {combiner = "arith.addf", groups = [array<i64: 0, 1, 2, 3>]} : memref<128xf16>, memref<64xf16>
  return
}

// -----

func.func @all_reduce_three_rings(%p: memref<128xf16>, %r: memref<96xf16>) {
  // expected-error @+1 {{expects 1 or 2 rings, not 3}}
  ktdf.all_reduce %p, %r {combiner = "arith.addf", groups = [array<i64: 0, 1, 2, 3>], rings = 3 : i64} : memref<128xf16>, memref<96xf16>
  return
}

// -----

// Two rings over halves of 66 elements: chunks of 17, 2 x 3 x 17 = 102 received.
func.func @all_reduce_two_rings_received(%p: memref<132xf16>, %r: memref<99xf16>) {
  // expected-error @+1 {{the received view holds 99 elements; 2 rings of 4 need 102}}
  ktdf.all_reduce %p, %r {combiner = "arith.addf", groups = [array<i64: 0, 1, 2, 3>], rings = 2 : i64} : memref<132xf16>, memref<99xf16>
  return
}

// -----

func.func @all_reduce_scatter_not_unit(%p: memref<128xf16>, %r: memref<96xf16>) {
  // expected-error @+1 {{expects 'ktdf.scatter' to be a unit attribute}}
  ktdf.all_reduce %p, %r {combiner = "arith.addf", groups = [array<i64: 0, 1, 2, 3>], ktdf.scatter = 1 : i64} : memref<128xf16>, memref<96xf16>
  return
}

// -----

func.func @all_reduce_scatter_two_rings(%p: memref<128xf16>, %r: memref<96xf16>) {
  // expected-error @+1 {{a scattered all-reduce has one ring}}
  ktdf.all_reduce %p, %r {combiner = "arith.addf", groups = [array<i64: 0, 1, 2, 3>], ktdf.scatter, rings = 2 : i64} : memref<128xf16>, memref<96xf16>
  return
}

// -----

// Each tile keeps an equal chunk: 130 elements do not divide among 4.
func.func @all_reduce_scatter_uneven(%p: memref<130xf16>, %r: memref<99xf16>) {
  // expected-error @+1 {{a scattered all-reduce needs groups of one size that divides its 130 elements; a group has 4 tiles}}
  ktdf.all_reduce %p, %r {combiner = "arith.addf", groups = [array<i64: 0, 1, 2, 3>], ktdf.scatter} : memref<130xf16>, memref<99xf16>
  return
}

// -----

func.func @all_reduce_scatter_group_sizes(%p: memref<128xf16>, %r: memref<96xf16>) {
  // expected-error @+1 {{a scattered all-reduce needs groups of one size that divides its 128 elements; a group has 2 tiles}}
  ktdf.all_reduce %p, %r {combiner = "arith.addf", groups = [array<i64: 0, 1, 2, 3>, array<i64: 4, 5>], ktdf.scatter} : memref<128xf16>, memref<96xf16>
  return
}
