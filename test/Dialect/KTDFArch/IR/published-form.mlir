// The published ktdf_arch form, written as the dataflow-scheduler device files
// write it (aliases at the top, bare `memory`/`exec_unit` keywords, sibling
// groups reusing SSA names, a datapath without attributes, a discardable
// attribute of another dialect, a PDL pattern block, `//` comments), must
// parse unchanged, verify, and survive a print/parse round trip.
// RUN: ktflow-opt %s | FileCheck %s
// RUN: ktflow-opt %s | ktflow-opt | FileCheck %s
// RUN: ktflow-opt %s --mlir-print-op-generic | ktflow-opt | FileCheck %s

#DDR   = { kind = "DDR", size = 8589934592 }
#L1    = { kind = "L1", size = 1048576 }
#RF    = { kind = "SFU_RF", size = 2048 }
#SFU   = { kind = "SFU", ktdf_arch.features = { ktdf_arch.feature.compute,
           ktdf_arch.feature.simd = { lanes = #ktdf_arch.map<f16 = 64, f32 = 32, i32 = 32> } } }
#MNILU = { kind = "MNILU", ktdf_arch.features = { ktdf_arch.feature.load = {
           word_size = #ktdf_arch.map<"DDR" = 64, "L1" = 64> } } }
#MNISU = { kind = "MNISU", ktdf_arch.features = { ktdf_arch.feature.store = {
           word_size = #ktdf_arch.map<"DDR" = 64, "L1" = 64> } } }
#L1LU  = { kind = "L1LU", some_tool.double_buffer_last,
           ktdf_arch.features = { ktdf_arch.feature.simd = { splat, zero_pad },
           ktdf_arch.feature.load = { word_size = #ktdf_arch.map<"L1" = 64>,
             access_granularity = #ktdf_arch.map<"L1" = [{size_in_words = 64, align_in_words = 64},
                                                         {size_in_words = 2, align_in_words = 2}]> } } }
#L1SU  = { kind = "L1SU", ktdf_arch.features = { ktdf_arch.feature.store = {
           word_size = #ktdf_arch.map<"L1" = 64> } } }
#Q16   = { ktdf_arch.features = { ktdf_arch.feature.queue = { depth = 16, ordered } } }
#DDR_MNILU = { ktdf_arch.transfer_granularity = array<i64: 64> }
#MNILU_L1  = { ktdf_arch.transfer_granularity = array<i64: 64, 2> }

ktdf_arch.device @sample_device {
  %ddr = memory #DDR
  group { kind = "core" } share(%ddr) {
    %l1    = memory #L1
    %mnilu = group { kind = "MNILU_Block" } share() {
      %u = exec_unit #MNILU
      yield %u
    } -> exec_unit   // DMA load
    %mnisu = group { kind = "MNISU_Block" } share() {
      %u = exec_unit #MNISU
      yield %u
    } -> exec_unit   // DMA store
    datapath #DDR_MNILU %ddr to %mnilu : memory, exec_unit
    datapath #MNILU_L1 %mnilu to %l1 : exec_unit, memory
    datapath %l1 to %mnisu : memory, exec_unit
    datapath %mnisu to %ddr : exec_unit, memory
    // Two sub-cores, written out; each body is its own scope.
    group share(%l1) {
      %sfu  = group { kind = "SFU_Block" } share() {
        %rf = memory #RF
        %u  = exec_unit #SFU
        datapath %rf to %u : memory, exec_unit
        datapath %u to %rf : exec_unit, memory
        yield %u
      } -> exec_unit                                                        // compute
      %l1lu = exec_unit #L1LU                                               // L1 load unit
      %l1su = exec_unit #L1SU                                               // L1 store unit
      datapath #Q16 %l1 to %l1lu : memory, exec_unit
      datapath %l1lu to %sfu : exec_unit, exec_unit
      datapath %sfu to %l1su : exec_unit, exec_unit
      datapath #Q16 %l1su to %l1 : exec_unit, memory
    }
    group share(%l1) {
      %sfu  = group { kind = "SFU_Block" } share() {
        %rf = memory #RF
        %u  = exec_unit #SFU
        datapath %rf to %u : memory, exec_unit
        datapath %u to %rf : exec_unit, memory
        yield %u
      } -> exec_unit
      %l1lu = exec_unit #L1LU
      %l1su = exec_unit #L1SU
      datapath #Q16 %l1 to %l1lu : memory, exec_unit
      datapath %l1lu to %sfu : exec_unit, exec_unit
      datapath %sfu to %l1su : exec_unit, exec_unit
      datapath #Q16 %l1su to %l1 : exec_unit, memory
    }
  }
  // Widen f16 exponentials to f32 on a device without an f16 exp.
  patterns ["pre_scheduling"] {
    pdl.pattern @widen_exp : benefit(1) {
      %f16 = pdl.type : f16
      %x = pdl.operand : %f16
      %exp = pdl.operation "math.exp"(%x : !pdl.value) -> (%f16 : !pdl.type)
      pdl.rewrite %exp with "widen_to_f32"
    }
  }
  patterns ["post_scheduling"] {
  }
}

// CHECK-LABEL: ktdf_arch.device @sample_device {
// CHECK-NEXT:    %[[DDR:.+]] = memory {kind = "DDR", size = 8589934592 : i64}
// CHECK-NEXT:    group {kind = "core"} share(%[[DDR]]) {
// CHECK-NEXT:      %[[L1:.+]] = memory {kind = "L1", size = 1048576 : i64}
// CHECK-NEXT:      %[[LOAD:.+]] = group {kind = "MNILU_Block"} share() {
// CHECK-NEXT:        %[[U:.+]] = exec_unit {kind = "MNILU", ktdf_arch.features = {ktdf_arch.feature.load = {word_size = #ktdf_arch.map<"DDR" = 64, "L1" = 64>}}}
// CHECK-NEXT:        yield %[[U]]
// CHECK-NEXT:      } -> exec_unit
// CHECK:           datapath {ktdf_arch.transfer_granularity = array<i64: 64>} %[[DDR]] to %[[LOAD]] : memory, exec_unit
// CHECK-NEXT:      datapath {ktdf_arch.transfer_granularity = array<i64: 64, 2>} %[[LOAD]] to %[[L1]] : exec_unit, memory
// CHECK-NEXT:      datapath %[[L1]] to %{{.+}} : memory, exec_unit
// CHECK:           group share(%[[L1]]) {
// CHECK:             exec_unit {kind = "SFU", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 64, f32 = 32, i32 = 32>}}}
// CHECK:             exec_unit {kind = "L1LU", ktdf_arch.features = {ktdf_arch.feature.load = {access_granularity = #ktdf_arch.map<"L1" = [{align_in_words = 64 : i64, size_in_words = 64 : i64}, {align_in_words = 2 : i64, size_in_words = 2 : i64}]>, word_size = #ktdf_arch.map<"L1" = 64>}, ktdf_arch.feature.simd = {splat, zero_pad}}, some_tool.double_buffer_last}
// CHECK:             datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 16 : i64, ordered}}} %[[L1]] to %{{.+}} : memory, exec_unit
// CHECK:           group share(%[[L1]]) {
// CHECK:         patterns ["pre_scheduling"] {
// CHECK-NEXT:      pdl.pattern @widen_exp : benefit(1) {
// CHECK:             operation "math.exp"
// CHECK:             rewrite %{{.+}} with "widen_to_f32"
// CHECK:         patterns ["post_scheduling"] {
