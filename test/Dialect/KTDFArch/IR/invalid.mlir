// Every user-facing error of a ktdf_arch description is a located diagnostic.
// RUN: ktflow-opt %s --split-input-file --verify-diagnostics

ktdf_arch.device @undefined_node {
  %m = memory { kind = "M", size = 64 }
  // expected-error @+1 {{use of undeclared SSA value name}}
  datapath %m to %nowhere : memory, exec_unit
}

// -----

ktdf_arch.device @wrong_handle_type {
  %m = memory { kind = "M", size = 64 }
  %u = exec_unit { kind = "U" }
  // expected-note @-1 {{prior use here}}
  // expected-error @+1 {{use of value '%u' expects different type than prior uses: '!ktdf_arch.memory' vs '!ktdf_arch.exec_unit'}}
  datapath %m to %u : memory, memory
}

// -----

ktdf_arch.device @fifo_without_depth {
  %m = memory { kind = "M", size = 64 }
  %u = exec_unit { kind = "U" }
  // expected-error @+1 {{FIFO without depth: 'ktdf_arch.feature.queue' needs 'depth = <entries>'}}
  datapath { ktdf_arch.features = { ktdf_arch.feature.queue = { ordered } } } %m to %u : memory, exec_unit
}

// -----

ktdf_arch.device @fifo_flag_without_depth {
  %m = memory { kind = "M", size = 64 }
  %u = exec_unit { kind = "U" }
  // expected-error @+1 {{FIFO without depth}}
  datapath { ktdf_arch.features = { ktdf_arch.feature.queue } } %m to %u : memory, exec_unit
}

// -----

ktdf_arch.device @fifo_zero_depth {
  %m = memory { kind = "M", size = 64 }
  %u = exec_unit { kind = "U" }
  // expected-error @+1 {{'depth' in 'ktdf_arch.feature.queue' must be positive, got 0}}
  datapath { ktdf_arch.features = { ktdf_arch.feature.queue = { depth = 0 } } } %m to %u : memory, exec_unit
}

// -----

// A depth the simulator would hold up front (campaign 3, seed 1724: 2^63 - 1
// entries, truncated to 2^32 - 1 in the machine model, an allocation of
// 2^32 entries per FIFO instance).
ktdf_arch.device @fifo_huge_depth {
  %m = memory { kind = "M", size = 64 }
  %u = exec_unit { kind = "U" }
  // expected-error @+1 {{'depth' in 'ktdf_arch.feature.queue' must be at most 65536 entries, got 9223372036854775807}}
  datapath { ktdf_arch.features = { ktdf_arch.feature.queue = { depth = 9223372036854775807 } } } %m to %u : memory, exec_unit
}

// -----

ktdf_arch.device @unit_without_route {
  %m = memory { kind = "M", size = 64 }
  %a = exec_unit { kind = "A" }
  // expected-error @+1 {{has no route to or from any memory; connect it with datapaths}}
  %b = exec_unit { kind = "B" }
  datapath %m to %a : memory, exec_unit
}

// -----

// A compute unit ends a route: B is only reachable through it.
ktdf_arch.device @route_through_compute {
  %m = memory { kind = "M", size = 64 }
  %alu = exec_unit { kind = "ALU", ktdf_arch.features = { ktdf_arch.feature.compute } }
  // expected-error @+1 {{has no route to or from any memory}}
  %b = exec_unit { kind = "B" }
  datapath %m to %alu : memory, exec_unit
  datapath %alu to %b : exec_unit, exec_unit
}

// -----

ktdf_arch.device @memory_without_size {
  // expected-error @+1 {{memory without size: add 'size = <bytes>'}}
  %m = memory { kind = "M" }
}

// -----

ktdf_arch.device @memory_without_kind {
  // expected-error @+1 {{memory without kind: add 'kind = "<name>"'}}
  %m = memory { size = 64 }
}

// -----

ktdf_arch.device @negative_size {
  // expected-error @+1 {{'size' in a memory must be positive, got -1}}
  %m = memory { kind = "M", size = -1 }
}

// -----

ktdf_arch.device @size_not_integer {
  // expected-error @+1 {{'size' in a memory must be an integer, got "big"}}
  %m = memory { kind = "M", size = "big" }
}

// -----

ktdf_arch.device @negative_datapath_bandwidth {
  %m = memory { kind = "M", size = 64 }
  %u = exec_unit { kind = "U" }
  // expected-error @+1 {{'ktdf_arch.bandwidth' in a datapath must be positive, got -64}}
  datapath { ktdf_arch.bandwidth = -64 } %m to %u : memory, exec_unit
}

// -----

ktdf_arch.device @zero_memory_bandwidth {
  // expected-error @+1 {{'ktdf_arch.bandwidth' in a memory must be positive, got 0.000000e+00 : f64}}
  %m = memory { kind = "M", size = 64, ktdf_arch.bandwidth = 0.0 }
}

// -----

ktdf_arch.device @negative_latency {
  %m = memory { kind = "M", size = 64 }
  %u = exec_unit { kind = "U" }
  // expected-error @+1 {{'ktdf_arch.latency' in a datapath must be non-negative, got -3}}
  datapath { ktdf_arch.latency = -3 } %m to %u : memory, exec_unit
}

// -----

ktdf_arch.device @bad_granularity {
  %m = memory { kind = "M", size = 64 }
  %u = exec_unit { kind = "U" }
  // expected-error @+1 {{'ktdf_arch.transfer_granularity' in a datapath must hold positive values, got -2}}
  datapath { ktdf_arch.transfer_granularity = array<i64: 64, -2> } %m to %u : memory, exec_unit
}

// -----

// A granule of 2^63 bytes wrapped the scratchpad alignment the scheduler
// derives from it (buffers overlapped: a wrong answer, mutation campaign).
ktdf_arch.device @huge_granularity {
  %m = memory { kind = "M", size = 64 }
  %u = exec_unit { kind = "U" }
  // expected-error @+1 {{'ktdf_arch.transfer_granularity' in a datapath must hold sizes of at most 1048576 bytes, got 9223372036854775807}}
  datapath { ktdf_arch.transfer_granularity = array<i64: 64, 9223372036854775807> } %m to %u : memory, exec_unit
}

// -----

ktdf_arch.device @granularity_not_array {
  %m = memory { kind = "M", size = 64 }
  %u = exec_unit { kind = "U" }
  // expected-error @+1 {{'ktdf_arch.transfer_granularity' in a datapath must be a non-empty array<i64: ...>, got 64 : i64}}
  datapath { ktdf_arch.transfer_granularity = 64 } %m to %u : memory, exec_unit
}

// -----

ktdf_arch.device @zero_instances {
  %m = memory { kind = "M", size = 64 }
  // expected-error @+1 {{'ktdf_arch.instances' in a group must be positive, got 0}}
  group { ktdf_arch.instances = 0 } share() {
  }
}

// -----

ktdf_arch.device @duplicate_ssa_name {
  %m = memory { kind = "M", size = 64 }
  // expected-note @-1 {{previously defined here}}
  // expected-error @+1 {{redefinition of SSA value '%m'}}
  %m = memory { kind = "N", size = 64 }
}

// -----

ktdf_arch.device @duplicate_memory_kind {
  // expected-note @+1 {{first defined here}}
  %a = memory { kind = "L1", size = 64 }
  // expected-error @+1 {{duplicate memory kind "L1" in one scope; memory maps could not tell them apart}}
  %b = memory { kind = "L1", size = 128 }
}

// -----

ktdf_arch.device @duplicate_share {
  %m = memory { kind = "M", size = 64 }
  // expected-error @+1 {{shares the same node twice}}
  group share(%m, %m) {
  }
}

// -----

ktdf_arch.device @duplicate_map_key {
  %m = memory { kind = "M", size = 64 }
  // expected-error @+1 {{duplicate key f16 in #ktdf_arch.map}}
  %u = exec_unit { ktdf_arch.features = { ktdf_arch.feature.simd = { lanes = #ktdf_arch.map<f16 = 64, f16 = 32> } } }
}

// -----

ktdf_arch.device @unknown_feature {
  %m = memory { kind = "M", size = 64 }
  // expected-error @+1 {{unknown key 'ktdf_arch.feature.vector' in 'ktdf_arch.features'; expected one of 'ktdf_arch.feature.compute', 'ktdf_arch.feature.simd', 'ktdf_arch.feature.matrix', 'ktdf_arch.feature.load', 'ktdf_arch.feature.store', 'ktdf_arch.feature.queue', 'ktdf_arch.feature.throughput'}}
  %u = exec_unit { ktdf_arch.features = { ktdf_arch.feature.vector } }
  datapath %m to %u : memory, exec_unit
}

// -----

ktdf_arch.device @unprefixed_feature {
  %m = memory { kind = "M", size = 64 }
  // expected-error @+1 {{unknown key 'compute' in 'ktdf_arch.features'}}
  %u = exec_unit { ktdf_arch.features = { compute } }
}

// -----

ktdf_arch.device @unknown_simd_key {
  %m = memory { kind = "M", size = 64 }
  // expected-error @+1 {{unknown key 'width' in 'ktdf_arch.feature.simd'; expected one of 'lanes', 'splat', 'zero_pad'}}
  %u = exec_unit { ktdf_arch.features = { ktdf_arch.feature.simd = { width = 4 } } }
}

// -----

ktdf_arch.device @unknown_queue_key {
  %m = memory { kind = "M", size = 64 }
  %u = exec_unit { kind = "U" }
  // expected-error @+1 {{unknown key 'size' in 'ktdf_arch.feature.queue'; expected one of 'depth', 'ordered'}}
  datapath { ktdf_arch.features = { ktdf_arch.feature.queue = { depth = 4, size = 2 } } } %m to %u : memory, exec_unit
}

// -----

ktdf_arch.device @unknown_ktdf_arch_key_on_memory {
  // expected-error @+1 {{unknown key 'ktdf_arch.bandwith' in a memory; expected one of 'kind', 'size', 'ktdf_arch.bandwidth'}}
  %m = memory { kind = "M", size = 64, ktdf_arch.bandwith = 64 }
}

// -----

ktdf_arch.device @compute_feature_on_datapath {
  %m = memory { kind = "M", size = 64 }
  %u = exec_unit { kind = "U" }
  // expected-error @+1 {{unknown key 'ktdf_arch.feature.compute' in the features of a datapath; expected one of 'ktdf_arch.feature.queue'}}
  datapath { ktdf_arch.features = { ktdf_arch.feature.compute } } %m to %u : memory, exec_unit
}

// -----

ktdf_arch.device @flag_with_value {
  %m = memory { kind = "M", size = 64 }
  // expected-error @+1 {{'ktdf_arch.feature.compute' in 'ktdf_arch.features' is a flag and takes no value, got 1 : i64}}
  %u = exec_unit { ktdf_arch.features = { ktdf_arch.feature.compute = 1 } }
}

// -----

ktdf_arch.device @lanes_not_typed {
  %m = memory { kind = "M", size = 64 }
  // expected-error @+1 {{'lanes' in 'ktdf_arch.feature.simd' must be keyed by element types, got "f16"}}
  %u = exec_unit { ktdf_arch.features = { ktdf_arch.feature.simd = { lanes = #ktdf_arch.map<"f16" = 64> } } }
}

// -----

ktdf_arch.device @lanes_negative {
  %m = memory { kind = "M", size = 64 }
  // expected-error @+1 {{'lanes' in 'ktdf_arch.feature.simd' must map 'f16' to a positive integer, got -64 : i64}}
  %u = exec_unit { ktdf_arch.features = { ktdf_arch.feature.simd = { lanes = #ktdf_arch.map<f16 = -64> } } }
}

// -----

ktdf_arch.device @word_size_typed_key {
  %m = memory { kind = "M", size = 64 }
  // expected-error @+1 {{'word_size' in 'ktdf_arch.feature.load' must map memory kinds (strings) to positive integers, got f16 = 64 : i64}}
  %u = exec_unit { ktdf_arch.features = { ktdf_arch.feature.load = { word_size = #ktdf_arch.map<f16 = 64> } } }
}

// -----

ktdf_arch.device @granularity_missing_align {
  %m = memory { kind = "M", size = 64 }
  // expected-error @+1 {{'access_granularity' in 'ktdf_arch.feature.store' entries need 'size_in_words' and 'align_in_words'}}
  %u = exec_unit { ktdf_arch.features = { ktdf_arch.feature.store = { access_granularity = #ktdf_arch.map<"M" = [{size_in_words = 4}]> } } }
}

// -----

ktdf_arch.device @matrix_without_compute {
  %m = memory { kind = "M", size = 64 }
  // expected-error @+1 {{'ktdf_arch.feature.matrix' needs 'ktdf_arch.feature.compute'}}
  %u = exec_unit { ktdf_arch.features = { ktdf_arch.feature.matrix = { shape = array<i64: 8, 8, 8>, dtypes = [f16] } } }
}

// -----

ktdf_arch.device @matrix_bad_shape {
  %m = memory { kind = "M", size = 64 }
  // expected-error @+1 {{'ktdf_arch.feature.matrix' needs 'shape = array<i64: M, N, K>'}}
  %u = exec_unit { ktdf_arch.features = { ktdf_arch.feature.compute, ktdf_arch.feature.matrix = { shape = array<i64: 8, 8>, dtypes = [f16] } } }
}

// -----

ktdf_arch.device @matrix_without_dtypes {
  %m = memory { kind = "M", size = 64 }
  // expected-error @+1 {{'ktdf_arch.feature.matrix' needs 'dtypes = [type, ...]', the element types it multiplies}}
  %u = exec_unit { ktdf_arch.features = { ktdf_arch.feature.compute, ktdf_arch.feature.matrix = { shape = array<i64: 8, 8, 8> } } }
}

// -----

ktdf_arch.device @matrix_throughput_without_matrix {
  %m = memory { kind = "M", size = 64 }
  // expected-error @+1 {{matrix throughput needs 'ktdf_arch.feature.matrix'}}
  %u = exec_unit { ktdf_arch.features = { ktdf_arch.feature.compute, ktdf_arch.feature.throughput = { matrix = #ktdf_arch.map<f16 = 64> } } }
}

// -----

ktdf_arch.device @throughput_unknown_class {
  %m = memory { kind = "M", size = 64 }
  // expected-error @+1 {{unknown key 'exp' in 'ktdf_arch.feature.throughput'; expected one of 'elementwise', 'transcendental', 'reduction', 'matrix'}}
  %u = exec_unit { ktdf_arch.features = { ktdf_arch.feature.compute, ktdf_arch.feature.throughput = { exp = #ktdf_arch.map<f16 = 4> } } }
}

// -----

ktdf_arch.device @negative_throughput {
  %m = memory { kind = "M", size = 64 }
  // expected-error @+1 {{'elementwise' in 'ktdf_arch.feature.throughput' must map 'f32' to a positive number, got -1.000000e+00 : f64}}
  %u = exec_unit { ktdf_arch.features = { ktdf_arch.feature.compute, ktdf_arch.feature.throughput = { elementwise = #ktdf_arch.map<f32 = -1.0> } } }
}

// -----

ktdf_arch.device @throughput_without_compute {
  %m = memory { kind = "M", size = 64 }
  // expected-error @+1 {{'ktdf_arch.feature.throughput' needs 'ktdf_arch.feature.compute'}}
  %u = exec_unit { ktdf_arch.features = { ktdf_arch.feature.throughput = { elementwise = #ktdf_arch.map<f32 = 1> } } }
}

// -----

ktdf_arch.device @max_outstanding_zero {
  %m = memory { kind = "M", size = 64 }
  // expected-error @+1 {{'ktdf_arch.max_outstanding' in an exec_unit must be positive, got 0}}
  %u = exec_unit { ktdf_arch.max_outstanding = 0, ktdf_arch.features = { ktdf_arch.feature.load } }
}

// -----

ktdf_arch.device @max_outstanding_not_integer {
  %m = memory { kind = "M", size = 64 }
  // expected-error @+1 {{'ktdf_arch.max_outstanding' in an exec_unit must be an integer, got 2.500000e+00 : f64}}
  %u = exec_unit { ktdf_arch.max_outstanding = 2.5, ktdf_arch.features = { ktdf_arch.feature.store } }
}

// -----

ktdf_arch.device @max_outstanding_without_transfers {
  %m = memory { kind = "M", size = 64 }
  // expected-error @+1 {{'ktdf_arch.max_outstanding' needs 'ktdf_arch.feature.load' or 'ktdf_arch.feature.store'}}
  %u = exec_unit { ktdf_arch.max_outstanding = 4, ktdf_arch.features = { ktdf_arch.feature.compute, ktdf_arch.feature.simd = { lanes = #ktdf_arch.map<f16 = 8> } } }
}

// -----

ktdf_arch.device @max_outstanding_on_memory {
  // expected-error @+1 {{unknown key 'ktdf_arch.max_outstanding'}}
  %m = memory { kind = "M", size = 64, ktdf_arch.max_outstanding = 4 }
}

// -----

ktdf_arch.device @group_spec_not_dict {
  %m = memory { kind = "M", size = 64 }
  // expected-error @+1 {{expected a dictionary before 'share', got "core"}}
  group "core" share() {
  }
}

// -----

ktdf_arch.device @group_missing_yield {
  %m = memory { kind = "M", size = 64 }
  // expected-error @+1 {{yields 0 node(s) but has 1 result(s); a group that stands for a unit ends with 'yield %unit' and '-> exec_unit'}}
  %g = group share() {
    %u = exec_unit { kind = "U" }
  } -> exec_unit
}

// -----

ktdf_arch.device @group_yield_type {
  %m = memory { kind = "M", size = 64 }
  // expected-error @+1 {{yields a '!ktdf_arch.memory' but is typed '!ktdf_arch.exec_unit'}}
  %g = group share() {
    %r = memory { kind = "R", size = 8 }
    yield %r
  } -> exec_unit
}

// -----

ktdf_arch.device @group_yields_outer_node {
  %m = memory { kind = "M", size = 64 }
  // expected-error @+1 {{must yield a node defined in its own body}}
  %g = group share(%m) {
    yield %m
  } -> memory
}

// -----

ktdf_arch.device @replicated_group_with_result {
  %m = memory { kind = "M", size = 64 }
  // expected-error @+1 {{with a result stands for one node and cannot have ktdf_arch.instances > 1}}
  %g = group { ktdf_arch.instances = 2 } share() {
    %u = exec_unit { kind = "U" }
    yield %u
  } -> exec_unit
  datapath %m to %g : memory, exec_unit
}

// -----

ktdf_arch.device @group_uses_unshared_node {
  %ddr = memory { kind = "DDR", size = 64 }
  // expected-note @+1 {{add it to this group's share(...)}}
  group { kind = "core" } share() {
    %u = exec_unit { kind = "U" }
    // expected-error @+1 {{uses a node defined outside its group that the group does not share}}
    datapath %ddr to %u : memory, exec_unit
  }
}

// -----

ktdf_arch.device @self_loop {
  %m = memory { kind = "M", size = 64 }
  // expected-error @+1 {{connects a node to itself}}
  datapath %m to %m : memory, memory
}

// -----

ktdf_arch.device @foreign_op_in_device {
  %m = memory { kind = "M", size = 64 }
  // expected-error @+1 {{'arith.constant' op cannot appear in a device body, which holds memory, exec_unit, group, datapath and patterns ops}}
  %c = arith.constant 0 : index
}

// -----

ktdf_arch.device @unknown_device_key attributes { ktdf_arch.clock = 1000 } {
  // expected-error @-1 {{unknown key 'ktdf_arch.clock' in a device; expected one of 'ktdf_arch.clock_mhz'}}
  %m = memory { kind = "M", size = 64 }
}

// -----

// expected-error @+1 {{'ktdf_arch.clock_mhz' in a device must be positive, got -1}}
ktdf_arch.device @negative_clock attributes { ktdf_arch.clock_mhz = -1 } {
  %m = memory { kind = "M", size = 64 }
}

// -----

ktdf_arch.device @unknown_topology {
  %m = memory { kind = "M", size = 64 }
  // expected-error @+1 {{'ktdf_arch.interconnect' needs 'topology = "ring"', "mesh" or "crossbar"}}
  group { ktdf_arch.instances = 4, ktdf_arch.interconnect = { topology = "torus", link_bandwidth = 8 } } share() {
  }
}

// -----

ktdf_arch.device @mesh_dims_mismatch {
  %m = memory { kind = "M", size = 64 }
  // expected-error @+1 {{a mesh needs 'dims = array<i64: X, Y>' with X*Y = ktdf_arch.instances (16)}}
  group { ktdf_arch.instances = 16, ktdf_arch.interconnect = { topology = "mesh", dims = array<i64: 4, 3>, link_bandwidth = 8 } } share() {
  }
}

// -----

ktdf_arch.device @interconnect_single_instance {
  %m = memory { kind = "M", size = 64 }
  // expected-error @+1 {{'ktdf_arch.interconnect' links the instances of a group and needs 'ktdf_arch.instances' > 1}}
  group { ktdf_arch.interconnect = { topology = "crossbar", link_bandwidth = 8 } } share() {
  }
}

// -----

ktdf_arch.device @interconnect_without_bandwidth {
  %m = memory { kind = "M", size = 64 }
  // expected-error @+1 {{'ktdf_arch.interconnect' needs 'link_bandwidth = <bytes/cycle>'}}
  group { ktdf_arch.instances = 2, ktdf_arch.interconnect = { topology = "ring" } } share() {
  }
}

// -----

ktdf_arch.device @unknown_checkpoint {
  %m = memory { kind = "M", size = 64 }
  // expected-error @+1 {{unknown checkpoint 'pre_lowering'; expected one of pre_mapping, pre_scheduling, post_scheduling, post_lowering}}
  patterns ["pre_lowering"] {
  }
}

// -----

ktdf_arch.device @duplicate_checkpoint {
  %m = memory { kind = "M", size = 64 }
  // expected-error @+1 {{lists checkpoint 'post_lowering' twice}}
  patterns ["post_lowering", "post_lowering"] {
  }
}

// -----

ktdf_arch.device @not_a_pattern {
  %m = memory { kind = "M", size = 64 }
  patterns ["pre_mapping"] {
    // expected-error @+1 {{is not a 'pdl.pattern'; a patterns block holds only PDL patterns}}
    %c = arith.constant 0 : index
  }
}

// -----

// expected-error @+1 {{memory_map key "hbm" is not a KTIR memory space (global or ct_local, without a compute tile id)}}
ktdf_arch.target @d from "d.mlir" memory_map #ktdf_arch.map<"hbm" = "DDR">

// -----

// expected-error @+1 {{memory_map key #ktdp.memory_space<ct_local, ct_id = 3> is not a KTIR memory space}}
ktdf_arch.target @d from "d.mlir" memory_map #ktdf_arch.map<#ktdp.memory_space<ct_local, ct_id = 3> = "L1">

// -----

// expected-error @+1 {{memory_map must map #ktdp.memory_space<global> to a device memory kind (a string), got 1 : i64}}
ktdf_arch.target @d from "d.mlir" memory_map #ktdf_arch.map<#ktdp.memory_space<global> = 1>

// -----

// expected-error @+1 {{memory_map maps global twice}}
ktdf_arch.target @d from "d.mlir" memory_map #ktdf_arch.map<#ktdp.memory_space<global> = "DDR", #ktdp.spyre_memory_space<HBM> = "DDR">

// -----

// expected-error @+1 {{has an empty 'from' path}}
ktdf_arch.target @d from "" memory_map #ktdf_arch.map<>

// -----

// expected-error @+1 {{names no ktdf_arch.device @missing in this module; add 'from "<file>"' to import one}}
ktdf_arch.target @missing memory_map #ktdf_arch.map<"global" = "DDR">

// -----

ktdf_arch.device @small {
  %ddr = memory { kind = "DDR", size = 64 }
}
// expected-error @+1 {{memory_map names memory kind "L1", which device @small does not define}}
ktdf_arch.target @small memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">
