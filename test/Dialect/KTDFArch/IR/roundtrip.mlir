// Every ktdf_arch op, type and attribute prints in a form that parses back to
// the same IR, in the custom and in the generic form.
// RUN: ktflow-opt %s --split-input-file | FileCheck %s
// RUN: ktflow-opt %s --split-input-file | ktflow-opt --split-input-file | FileCheck %s
// RUN: ktflow-opt %s --split-input-file --mlir-print-op-generic | ktflow-opt --split-input-file | FileCheck %s

// CHECK-LABEL: ktdf_arch.device @every_feature attributes {ktdf_arch.clock_mhz = 1500 : i64} {
// CHECK-NEXT:    %[[HBM:.+]] = memory {kind = "HBM", ktdf_arch.bandwidth = 5.120000e+02 : f64, size = 1024 : i64}
// CHECK-NEXT:    group {kind = "tile", ktdf_arch.instances = 4 : i64, ktdf_arch.interconnect = {bidirectional, hop_latency = 3 : i64, link_bandwidth = 32 : i64, topology = "ring"}} share(%[[HBM]]) {
// CHECK-NEXT:      %[[SPM:.+]] = memory {kind = "SPM", size = 256 : i64}
// CHECK-NEXT:      %[[DMA:.+]] = exec_unit {kind = "DMA", ktdf_arch.features = {ktdf_arch.feature.load, ktdf_arch.feature.store = {word_size = #ktdf_arch.map<"HBM" = 64>}}}
// CHECK-NEXT:      %[[ALU:.+]] = exec_unit {ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.matrix = {dtypes = [bf16, f16], shape = array<i64: 16, 16, 4>}, ktdf_arch.feature.queue = {depth = 4 : i64}, ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f32 = 16>, splat}, ktdf_arch.feature.throughput = {elementwise = #ktdf_arch.map<f32 = 8>, matrix = #ktdf_arch.map<bf16 = 2.560000e+02 : f32>, reduction = #ktdf_arch.map<f32 = 1.500000e+00>, transcendental = #ktdf_arch.map<f32 = 2>}}}
// CHECK-NEXT:      datapath %[[HBM]] to %[[DMA]] : memory, exec_unit
// CHECK-NEXT:      datapath {ktdf_arch.bandwidth = 16 : i64, ktdf_arch.latency = 0 : i64} %[[DMA]] to %[[SPM]] : exec_unit, memory
// CHECK-NEXT:      datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 2 : i64, ordered}}, ktdf_arch.transfer_granularity = array<i64: 64, 2>} %[[SPM]] to %[[ALU]] : memory, exec_unit {other.hint}
// CHECK-NEXT:      datapath %[[ALU]] to %[[SPM]] : exec_unit, memory
// CHECK-NEXT:    }
// CHECK-NEXT:  }
ktdf_arch.device @every_feature attributes { ktdf_arch.clock_mhz = 1500 } {
  %hbm = memory { kind = "HBM", size = 1024, ktdf_arch.bandwidth = 512.0 }
  group { kind = "tile", ktdf_arch.instances = 4,
          ktdf_arch.interconnect = { topology = "ring", bidirectional, link_bandwidth = 32, hop_latency = 3 } } share(%hbm) {
    %spm = memory { kind = "SPM", size = 256 }
    %dma = exec_unit { kind = "DMA", ktdf_arch.features = { ktdf_arch.feature.load,
           ktdf_arch.feature.store = { word_size = #ktdf_arch.map<"HBM" = 64> } } }
    %alu = exec_unit { ktdf_arch.features = { ktdf_arch.feature.compute,
           ktdf_arch.feature.simd = { lanes = #ktdf_arch.map<f32 = 16>, splat },
           ktdf_arch.feature.matrix = { shape = array<i64: 16, 16, 4>, dtypes = [bf16, f16] },
           ktdf_arch.feature.queue = { depth = 4 },
           ktdf_arch.feature.throughput = { elementwise = #ktdf_arch.map<f32 = 8>,
             transcendental = #ktdf_arch.map<f32 = 2>, reduction = #ktdf_arch.map<f32 = 1.5>,
             matrix = #ktdf_arch.map<bf16 = 256.0 : f32> } } }
    datapath %hbm to %dma : memory, exec_unit
    datapath { ktdf_arch.bandwidth = 16, ktdf_arch.latency = 0 } %dma to %spm : exec_unit, memory
    datapath { ktdf_arch.features = { ktdf_arch.feature.queue = { depth = 2, ordered } },
               ktdf_arch.transfer_granularity = array<i64: 64, 2> } %spm to %alu : memory, exec_unit {other.hint}
    datapath %alu to %spm : !ktdf_arch.exec_unit, !ktdf_arch.memory
  }
}

// -----

// Groups: no dictionary, empty share(), a result, a group sharing a unit,
// extra attributes after the result type, nested yields.
// CHECK-LABEL: ktdf_arch.device @groups {
// CHECK-NEXT:    %[[M:.+]] = memory {kind = "M", size = 64 : i64}
// CHECK-NEXT:    %[[OUTER:.+]] = group {kind = "outer"} share() {
// CHECK-NEXT:      %[[INNER:.+]] = group share() {
// CHECK-NEXT:        %[[U:.+]] = exec_unit {kind = "U"}
// CHECK-NEXT:        yield %[[U]]
// CHECK-NEXT:      } -> exec_unit
// CHECK-NEXT:      yield %[[INNER]]
// CHECK-NEXT:    } -> exec_unit attributes {tool.note = "kept"}
// CHECK-NEXT:    group share(%[[M]], %[[OUTER]]) {
// CHECK-NEXT:      %[[V:.+]] = exec_unit {kind = "V"}
// CHECK-NEXT:      datapath %[[M]] to %[[V]] : memory, exec_unit
// CHECK-NEXT:      datapath %[[OUTER]] to %[[V]] : exec_unit, exec_unit
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[MEMG:.+]] = group {kind = "memblock"} share() {
// CHECK-NEXT:      %[[R:.+]] = memory {kind = "R", size = 8 : i64}
// CHECK-NEXT:      yield %[[R]]
// CHECK-NEXT:    } -> memory
// CHECK-NEXT:    datapath %[[M]] to %[[OUTER]] : memory, exec_unit
// CHECK-NEXT:    datapath %[[OUTER]] to %[[MEMG]] : exec_unit, memory
ktdf_arch.device @groups {
  %m = memory { kind = "M", size = 64 }
  %outer = group { kind = "outer" } share() {
    %inner = group share() {
      %u = exec_unit { kind = "U" }
      yield %u
    } -> exec_unit
    yield %inner
  } -> exec_unit attributes { tool.note = "kept" }
  group share(%m, %outer) {
    %v = exec_unit { kind = "V" }
    datapath %m to %v : memory, exec_unit
    datapath %outer to %v : exec_unit, exec_unit
  }
  %memblock = group { kind = "memblock" } share() {
    %r = memory { kind = "R", size = 8 }
    yield %r
  } -> memory
  datapath %m to %outer : memory, exec_unit
  datapath %outer to %memblock : exec_unit, memory
}

// -----

// Pattern blocks: several checkpoints, an empty block, unnamed patterns.
// CHECK-LABEL: ktdf_arch.device @patterns {
// CHECK:         patterns ["pre_mapping", "post_lowering"] {
// CHECK-NEXT:      pdl.pattern : benefit(2) {
// CHECK:             rewrite %{{.+}} with "expand"
// CHECK:         patterns ["post_scheduling"] {
// CHECK-NEXT:    }
ktdf_arch.device @patterns {
  %m = memory { kind = "M", size = 64 }
  patterns ["pre_mapping", "post_lowering"] {
    pdl.pattern : benefit(2) {
      %root = pdl.operation "spyreop.slice_reduction"
      pdl.rewrite %root with "expand"
    }
  }
  patterns ["post_scheduling"] {
  }
}

// -----

// The map attribute with every kind of key and value, and the kernel-side
// target declaration, inline and imported.
// CHECK-LABEL: module attributes {test.empty = #ktdf_arch.map<>, test.mixed = #ktdf_arch.map<f16 = 64, "L1" = [{align_in_words = 2 : i64, size_in_words = 2 : i64}], i8 = 3 : i8, vector<4xf32> = "v", 2.500000e+00 = -1>} {
// CHECK:         ktdf_arch.target @inline_device memory_map #ktdf_arch.map<#ktdp.memory_space<global> = "DDR", #ktdp.memory_space<ct_local> = "L1">
// CHECK-NEXT:    ktdf_arch.target @other from "devices/other.mlir" memory_map #ktdf_arch.map<"global" = "HBM", #ktdp.spyre_memory_space<LX> = "SPM">
// CHECK-NEXT:    ktdf_arch.target @inline_device memory_map #ktdf_arch.map<>
module attributes { test.empty = #ktdf_arch.map<>,
    test.mixed = #ktdf_arch.map<f16 = 64, "L1" = [{size_in_words = 2, align_in_words = 2}], i8 = 3 : i8, vector<4xf32> = "v", 2.5 = -1> } {
  ktdf_arch.device @inline_device {
    %ddr = memory { kind = "DDR", size = 1024 }
    group share(%ddr) {
      %l1 = memory { kind = "L1", size = 64 }
      %dma = exec_unit { kind = "DMA" }
      datapath %ddr to %dma : memory, exec_unit
      datapath %dma to %l1 : exec_unit, memory
    }
  }
  ktdf_arch.target @inline_device memory_map #ktdf_arch.map<#ktdp.memory_space<global> = "DDR", #ktdp.memory_space<ct_local> = "L1">
  ktdf_arch.target @other from "devices/other.mlir" memory_map #ktdf_arch.map<"global" = "HBM", #ktdp.spyre_memory_space<LX> = "SPM">
  ktdf_arch.target @inline_device memory_map #ktdf_arch.map<>
}
