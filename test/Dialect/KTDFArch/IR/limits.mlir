// A device may have at most 2^18 instances of memories, execution units and
// datapaths, every copy of a replicated group counted
// (docs/architecture-description.md §5). Beyond that, the verifier refuses
// the description before any tool starts to model it: before this limit,
// a million-core device kept `ktflow compile` busy past 60 s at 5 GB.
// RUN: ktflow-opt %s --split-input-file --verify-diagnostics

// 65535 cores of 4 instances, plus the DDR: 262141, within the limit.
ktdf_arch.device @just_within {
  %m = memory { kind = "DDR", size = 8589934592 }
  group { kind = "core", ktdf_arch.instances = 65535 } share(%m) {
    %s = memory { kind = "L1", size = 1024 }
    %u = exec_unit { kind = "U" }
    datapath %m to %u : memory, exec_unit
    datapath %u to %s : exec_unit, memory
  }
}

// -----

ktdf_arch.device @just_over {
  %m = memory { kind = "DDR", size = 8589934592 }
  // expected-error @+1 {{'ktdf_arch.group' op replicates its body 65536 times: the device would have 262145 instances of memories, execution units and datapaths, more than the 262144 ktflow models}}
  group { kind = "core", ktdf_arch.instances = 65536 } share(%m) {
    %s = memory { kind = "L1", size = 1024 }
    %u = exec_unit { kind = "U" }
    datapath %m to %u : memory, exec_unit
    datapath %u to %s : exec_unit, memory
  }
}

// -----

// The reported case: a million cores of the sample device's shape.
ktdf_arch.device @million_cores {
  %ddr = memory { kind = "DDR", size = 8589934592 }
  // expected-error @+1 {{'ktdf_arch.group' op replicates its body 1000000 times: the device would have 6000001 instances}}
  group { kind = "core", ktdf_arch.instances = 1000000 } share(%ddr) {
    %l1 = memory { kind = "L1", size = 1048576 }
    %dma = exec_unit { kind = "DMA", ktdf_arch.features = { ktdf_arch.feature.load = { word_size = #ktdf_arch.map<"DDR" = 64, "L1" = 64> } } }
    %sfu = exec_unit { kind = "SFU", ktdf_arch.features = { ktdf_arch.feature.compute } }
    datapath %ddr to %dma : memory, exec_unit
    datapath %dma to %l1 : exec_unit, memory
    datapath %l1 to %sfu : memory, exec_unit
  }
}

// -----

// Nested copies multiply (4096 x 8192 = 2^25 copies of 4 instances); the
// count saturates instead of wrapping (2^40 x 2^40).
ktdf_arch.device @nested {
  %m = memory { kind = "M", size = 64 }
  group { ktdf_arch.instances = 4096 } share(%m) {
    // expected-error @+1 {{'ktdf_arch.group' op replicates its body 8192 times: the device would have 134217729 instances}}
    group { ktdf_arch.instances = 8192 } share(%m) {
      %s = memory { kind = "S", size = 8 }
      %u = exec_unit { kind = "U" }
      datapath %m to %u : memory, exec_unit
      datapath %u to %s : exec_unit, memory
    }
  }
}

// -----

ktdf_arch.device @wrapping {
  %m = memory { kind = "M", size = 64 }
  // expected-error @+1 {{'ktdf_arch.group' op replicates its body 1099511627776 times: the device would have 9223372036854775807 instances}}
  group { ktdf_arch.instances = 1099511627776 } share(%m) {
    group { ktdf_arch.instances = 1099511627776 } share(%m) {
      %u = exec_unit { kind = "U" }
      datapath %m to %u : memory, exec_unit
    }
  }
}

// -----

// The size of memories is not limited: the simulator backs them in pages
// as they are written (docs/simulator.md), so 65 scratchpads of 256 MiB
// and 64 device memories of 1 GiB are fine.
ktdf_arch.device @large_memories {
  %m = memory { kind = "DDR", size = 8589934592 }
  group { kind = "core", ktdf_arch.instances = 65 } share(%m) {
    %h = memory { kind = "HBM", size = 1073741824 }
    %s = memory { kind = "L1", size = 268435456 }
    %u = exec_unit { kind = "U" }
    datapath %m to %u : memory, exec_unit
    datapath %h to %u : memory, exec_unit
    datapath %u to %s : exec_unit, memory
  }
}
