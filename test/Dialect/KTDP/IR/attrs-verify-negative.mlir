// RUN: ktflow-opt %s -split-input-file -verify-diagnostics

// Verifiers of both memory-space families, as memref memory spaces and as
// op attributes.

// expected-error @+1 {{core affinity is only valid for LX or L0 memory spaces, but got memory space 'HBM' with core = 2}}
func.func @hbm_core(%a: memref<64xf32, #ktdp.spyre_memory_space<HBM, core = 2>>) {
  return
}

// -----

// expected-error @+1 {{core affinity is only valid for LX or L0 memory spaces, but got memory space 'unspecified' with core = 0}}
func.func @unspecified_core(%a: memref<64xf32, #ktdp.spyre_memory_space<unspecified, core = 0>>) {
  return
}

// -----

// expected-error @+1 {{core affinity must be non-negative, but got: -3}}
func.func @negative_core(%a: memref<64xf32, #ktdp.spyre_memory_space<LX, core = -3>>) {
  return
}

// -----

// expected-error @+2 {{expected ::mlir::ktdp::SpyreMemoryType to be one of: unspecified, LX, HBM, L0}}
// expected-error @+1 {{failed to parse KTDP_SpyreMemorySpaceAttr parameter 'value'}}
func.func @unknown_spyre_space(%a: memref<64xf32, #ktdp.spyre_memory_space<DDR>>) {
  return
}

// -----

// expected-error @+1 {{ct_id is only valid for the ct_local memory space, but got memory space 'global' with ct_id = 1}}
func.func @global_ct_id(%a: memref<64xf32, #ktdp.memory_space<global, ct_id = 1>>) {
  return
}

// -----

// expected-error @+1 {{ct_id must be non-negative, but got: -2}}
func.func @negative_ct_id(%a: memref<64xf32, #ktdp.memory_space<ct_local, ct_id = -2>>) {
  return
}

// -----

// The families do not mix their spellings.
// expected-error @+2 {{expected ::mlir::ktdp::MemoryKind to be one of: global, ct_local}}
// expected-error @+1 {{failed to parse KTDP_MemorySpaceAttr parameter 'kind'}}
func.func @hbm_in_memory_space(%a: memref<64xf32, #ktdp.memory_space<HBM>>) {
  return
}

// -----

// expected-error @+1 {{expected 'ct_id'}}
func.func @core_in_memory_space(%a: memref<64xf32, #ktdp.memory_space<ct_local, core = 1>>) {
  return
}

// -----

func.func @op_attribute(%a: index) {
  // expected-error @+3 {{core affinity is only valid for LX or L0 memory spaces, but got memory space 'HBM' with core = 3}}
  %0 = ktdp.construct_memory_view %a, sizes: [64], strides: [1] {
    coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>,
    memory_space = #ktdp.spyre_memory_space<HBM, core = 3>} : memref<64xf16>
  return
}

// -----

func.func @not_a_memory_space(%a: index) {
  // expected-error @+1 {{attribute 'memory_space' failed to satisfy constraint: ktdp memory space}}
  %0 = ktdp.construct_memory_view %a, sizes: [64], strides: [1] {
    coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>,
    memory_space = 1 : i64} : memref<64xf16>
  return
}
