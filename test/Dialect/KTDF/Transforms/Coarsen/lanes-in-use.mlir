// RUN: ktflow-opt %s --ktdf-coarsen | FileCheck %s

// The shipped if_select on spyre_like: 32 grid points on 32 instances, a
// loop of up to 3 rows (1 on the last point) of 1x64 f16 tiles, two loads
// and a store per row. A core's DMA_IN and DMA_OUT serve its 2 lanes,
// but the 32 instances fill the cores first (instance k on core k mod 32,
// lane k div 32): one lane of each core runs the loop, and only its
// transfers queue on the engines. Its 3 rows' 6 loads are in flight
// together (8 slots), so the later rows pay no latency: F = 1 (324
// estimated cycles against 330 at F = 3; simulated 346 against 361).
// Counting both lanes doubled the transfers into a second round and
// merged the 3 rows (unittests/Scheduler/CoarsenInFlightTest.cpp).

// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c1 {
// CHECK-NOT: derive_size
// CHECK: ktdf.data_transfer {{.*}} : !ktdp.access_tile<1x64xindex> to memref<1x64xf16, "LX">
// CHECK-NOT: access_tile<3x64xindex>

// Input: the ScheduleIR ktdf-coarsen receives, printed once by
// `ktflow-opt examples/kernels/if_select.mlir --arch examples/devices/spyre_like.mlir --ktdf-mapping --ktdf-route-transfers --ktdf-tile-streams --ktdf-spread-iterations --ktdf-distribute`.

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0) -> (d0)>
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 93 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#set1 = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
module {
  ktdf_arch.device @spyre_like attributes {ktdf_arch.clock_mhz = 1000 : i64} {
    %DDR = memory {kind = "DDR", ktdf_arch.bandwidth = 1024 : i64, size = 137438953472 : i64}
    group {kind = "core", ktdf_arch.instances = 32 : i64, ktdf_arch.interconnect = {bidirectional, hop_latency = 1 : i64, link_bandwidth = 128 : i64, topology = "ring"}} share(%DDR) {
      %LX = memory {kind = "LX", size = 2097152 : i64}
      %DMA_IN = exec_unit {kind = "DMA_IN", ktdf_arch.features = {ktdf_arch.feature.load = {word_size = #ktdf_arch.map<"DDR" = 128, "LX" = 128>}}, ktdf_arch.max_outstanding = 8 : i64}
      %DMA_OUT = exec_unit {kind = "DMA_OUT", ktdf_arch.features = {ktdf_arch.feature.store = {word_size = #ktdf_arch.map<"DDR" = 128, "LX" = 128>}}, ktdf_arch.max_outstanding = 8 : i64}
      datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.latency = 150 : i64, ktdf_arch.transfer_granularity = array<i64: 128>} %DDR to %DMA_IN : memory, exec_unit
      datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.latency = 2 : i64, ktdf_arch.transfer_granularity = array<i64: 128>} %DMA_IN to %LX : exec_unit, memory
      datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.latency = 2 : i64, ktdf_arch.transfer_granularity = array<i64: 128>} %LX to %DMA_OUT : memory, exec_unit
      datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.latency = 150 : i64, ktdf_arch.transfer_granularity = array<i64: 128>} %DMA_OUT to %DDR : exec_unit, memory
      group {kind = "corelet", ktdf_arch.instances = 2 : i64} share(%LX) {
        %LXLU = exec_unit {kind = "LXLU", ktdf_arch.features = {ktdf_arch.feature.load = {word_size = #ktdf_arch.map<"LX" = 128>}}}
        %LXSU = exec_unit {kind = "LXSU", ktdf_arch.features = {ktdf_arch.feature.store = {word_size = #ktdf_arch.map<"LX" = 128>}}}
        %PT = exec_unit {kind = "PT", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.matrix = {dtypes = [f16], shape = array<i64: 8, 8, 8>}}}
        %SFP = exec_unit {kind = "SFP", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 64, f32 = 32>}, ktdf_arch.feature.throughput = {elementwise = #ktdf_arch.map<f16 = 64, f32 = 32>, reduction = #ktdf_arch.map<f16 = 64, f32 = 32>, transcendental = #ktdf_arch.map<f16 = 8, f32 = 4>}}}
        datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.latency = 3 : i64, ktdf_arch.transfer_granularity = array<i64: 128>} %LX to %LXLU : memory, exec_unit
        datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 8 : i64, ordered}}, ktdf_arch.latency = 1 : i64} %LXLU to %PT : exec_unit, exec_unit
        datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 8 : i64, ordered}}, ktdf_arch.latency = 1 : i64} %LXLU to %SFP : exec_unit, exec_unit
        datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 8 : i64, ordered}}, ktdf_arch.latency = 1 : i64} %PT to %SFP : exec_unit, exec_unit
        datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 8 : i64, ordered}}, ktdf_arch.latency = 1 : i64} %PT to %LXSU : exec_unit, exec_unit
        datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 8 : i64, ordered}}, ktdf_arch.latency = 1 : i64} %SFP to %LXSU : exec_unit, exec_unit
        datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.latency = 3 : i64, ktdf_arch.transfer_granularity = array<i64: 128>} %LXSU to %LX : exec_unit, memory
      }
    }
  }
  ktdf_arch.target @spyre_like memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @if_select(%arg0: index {ktdf.tensor = tensor<94x64xf16>}, %arg1: index {ktdf.tensor = tensor<94x64xf16>}, %arg2: index {ktdf.tensor = tensor<94x64xf16>}) attributes {grid = [32]} {
    ktdf.parallel (%arg3) in [32] distribute(num_instances = 32) {
      %c31 = arith.constant 31 : index
      %c3 = arith.constant 3 : index
      %c1 = arith.constant 1 : index
      %c0 = arith.constant 0 : index
      %0 = arith.muli %arg3, %c3 : index
      %1 = arith.cmpi eq, %arg3, %c31 : index
      %2 = arith.select %1, %c1, %c3 : index
      %3 = ktdp.construct_memory_view %arg0, sizes: [94, 64], strides: [64, 1] {coordinate_set = #set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<94x64xf16>
      %4 = ktdp.construct_memory_view %arg1, sizes: [94, 64], strides: [64, 1] {coordinate_set = #set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<94x64xf16>
      %5 = ktdp.construct_memory_view %arg2, sizes: [94, 64], strides: [64, 1] {coordinate_set = #set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<94x64xf16>
      scf.for %arg4 = %c0 to %2 step %c1 {
        %6 = ktdp.construct_access_tile %3[%0 + %arg4, 0] {access_tile_order = #map, access_tile_set = #set1} : memref<94x64xf16> -> !ktdp.access_tile<1x64xindex>
        %7 = ktdp.construct_access_tile %4[%0 + %arg4, 0] {access_tile_order = #map, access_tile_set = #set1} : memref<94x64xf16> -> !ktdp.access_tile<1x64xindex>
        %8 = ktdp.construct_access_tile %5[%0 + %arg4, 0] {access_tile_order = #map, access_tile_set = #set1} : memref<94x64xf16> -> !ktdp.access_tile<1x64xindex>
        ktdf.pipeline {
          %buf = ktdf.private : memref<1x64xf16, "LX">
          %slot = ktdf.private : !ktdf.fifo.slot<"core/corelet/LXLU" -> "core/corelet/SFP", 64xf16>
          %buf_0 = ktdf.private : memref<1x64xf16, "LX">
          %slot_1 = ktdf.private : !ktdf.fifo.slot<"core/corelet/LXLU" -> "core/corelet/SFP", 64xf16>
          %slot_2 = ktdf.private : !ktdf.fifo.slot<"core/corelet/SFP" -> "core/corelet/LXSU", 64xf16>
          %buf_3 = ktdf.private : memref<1x64xf16, "LX">
          %9 = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load] unit "core/DMA_IN" {
            ktdf.data_transfer %6 to %buf : !ktdp.access_tile<1x64xindex> to memref<1x64xf16, "LX">
          }
          %10 = ktdf.stage "load_1" depends_out(1) applicable_units [dma_load] unit "core/DMA_IN" {
            ktdf.data_transfer %7 to %buf_0 : !ktdp.access_tile<1x64xindex> to memref<1x64xf16, "LX">
          }
          %11 = ktdf.stage "feed" depends_in(%9, %10) depends_out(1) applicable_units [scratchpad_load] unit "core/corelet/LXLU" {
            %c0_4 = arith.constant 0 : index
            %c1_5 = arith.constant 1 : index
            %c1_6 = arith.constant 1 : index
            %c64 = arith.constant 64 : index
            %c64_7 = arith.constant 64 : index
            scf.for %arg5 = %c0_4 to %c1_6 step %c1_5 {
              scf.for %arg6 = %c0_4 to %c64 step %c64_7 {
                ktdf.data_transfer %buf[%arg5, %arg6] to %slot : memref<1x64xf16, "LX"> to !ktdf.fifo.slot<"core/corelet/LXLU" -> "core/corelet/SFP", 64xf16>
                ktdf.data_transfer %buf_0[%arg5, %arg6] to %slot_1 : memref<1x64xf16, "LX"> to !ktdf.fifo.slot<"core/corelet/LXLU" -> "core/corelet/SFP", 64xf16>
              }
            }
          }
          %12 = ktdf.stage "compute" depends_in(%11) depends_out(1) applicable_units [vector_compute] unit "core/corelet/SFP" {
            %c0_4 = arith.constant 0 : index
            %c1_5 = arith.constant 1 : index
            %c1_6 = arith.constant 1 : index
            %c64 = arith.constant 64 : index
            %c64_7 = arith.constant 64 : index
            scf.for %arg5 = %c0_4 to %c1_6 step %c1_5 {
              scf.for %arg6 = %c0_4 to %c64 step %c64_7 {
                %14 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"core/corelet/LXLU" -> "core/corelet/SFP", 64xf16> -> tensor<64xf16>
                %15 = ktdf.read_from_fifo %slot_1 : !ktdf.fifo.slot<"core/corelet/LXLU" -> "core/corelet/SFP", 64xf16> -> tensor<64xf16>
                %16 = tensor.empty() : tensor<64xf16>
                %17 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel"]} ins(%14, %15 : tensor<64xf16>, tensor<64xf16>) outs(%16 : tensor<64xf16>) {
                ^bb0(%in: f16, %in_8: f16, %out: f16):
                  %18 = arith.cmpf ogt, %in, %in_8 : f16
                  %19 = arith.select %18, %in, %in_8 : f16
                  linalg.yield %19 : f16
                } -> tensor<64xf16>
                ktdf.write_to_fifo %17 to %slot_2 : tensor<64xf16> to !ktdf.fifo.slot<"core/corelet/SFP" -> "core/corelet/LXSU", 64xf16>
              }
            }
          }
          %13 = ktdf.stage "drain" depends_in(%12) depends_out(1) applicable_units [scratchpad_store] unit "core/corelet/LXSU" {
            %c0_4 = arith.constant 0 : index
            %c1_5 = arith.constant 1 : index
            %c1_6 = arith.constant 1 : index
            %c64 = arith.constant 64 : index
            %c64_7 = arith.constant 64 : index
            scf.for %arg5 = %c0_4 to %c1_6 step %c1_5 {
              scf.for %arg6 = %c0_4 to %c64 step %c64_7 {
                ktdf.data_transfer %slot_2 to %buf_3[%arg5, %arg6] : !ktdf.fifo.slot<"core/corelet/SFP" -> "core/corelet/LXSU", 64xf16> to memref<1x64xf16, "LX">
              }
            }
          }
          ktdf.stage "store_0" depends_in(%13) depends_out(0) applicable_units [dma_store] unit "core/DMA_OUT" {
            ktdf.data_transfer %buf_3 to %8 : memref<1x64xf16, "LX"> to !ktdp.access_tile<1x64xindex>
          }
        }
      }
    }
    return
  }
}

