// RUN: ktflow-opt %s --split-input-file --ktdf-to-dfir | FileCheck %s

// Kept copy destinations read in place from a resident part whose rows lie
// further apart (ResidentCopies.cpp, readsInPlace), on mesh_device: a
// 32x64 f16 part at element 12288 of tile 0's scratchpad (byte 24576) with
// a row stride of 128 (a column half of a resident 32x128 block), nothing
// in the kernel writing it, a fill passing it into the dense view tile 0
// sends (byte 40960) and the dense view it keeps (byte 45056), a copy to
// tile 1 and a store of the kept view. Tile 0 sends the part itself (32
// rows of 128 bytes at a pitch of 256) and stores it straight from its
// place, its DMA reading rows at the part's pitch: no fill is left, so its
// load, vector and store units get no program. Tile 1 stores the dense
// copy it received.
// CHECK-LABEL: dfir.kernel @strided_part
// CHECK-LABEL: dfir.unit "tile[0]/DMA"
// CHECK: dfir.remote_dma %{{.*}} bytes from "tile[0]/SPM"[%{{.*}}] to "tile[1]/SPM"[%{{.*}}] rows %c32 strides %c256, %c128
// CHECK: dfir.address @local_SPM_c0_l0
// CHECK-NEXT: arith.constant 24576
// CHECK-NEXT: arith.addi
// CHECK-NEXT: %[[PART:.*]] = arith.addi
// CHECK: %[[BYTES:.*]] = arith.constant 128
// CHECK-NEXT: %[[PITCH:.*]] = arith.constant 256
// CHECK-NEXT: %[[ROW:.*]] = arith.constant 128
// CHECK-NEXT: dfir.dma %[[BYTES]] bytes from "tile[0]/SPM"[%[[PART]]] to "HBM"[%{{.*}}] rows %{{.*}} strides %[[PITCH]], %[[ROW]]
// CHECK-NOT: dfir.unit "tile[0]/V
// CHECK-LABEL: dfir.unit "tile[1]/DMA"
// CHECK: dfir.dma %{{.*}} bytes from "tile[1]/SPM"[%{{.*}}] to "HBM"
// CHECK-NOT: dfir.unit "tile[1]/V


#map = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
#set1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
module {
  ktdf_arch.device @mesh_device attributes {ktdf_arch.clock_mhz = 1500 : i64} {
    %HBM = memory {kind = "HBM", ktdf_arch.bandwidth = 512 : i64, size = 17179869184 : i64}
    group {kind = "tile", ktdf_arch.instances = 16 : i64, ktdf_arch.interconnect = {dims = array<i64: 4, 4>, hop_latency = 2 : i64, link_bandwidth = 64 : i64, topology = "mesh"}} share(%HBM) {
      %SPM = memory {kind = "SPM", ktdf_arch.bandwidth = 256 : i64, size = 524288 : i64}
      %DMA = exec_unit {kind = "DMA", ktdf_arch.features = {ktdf_arch.feature.load = {word_size = #ktdf_arch.map<"HBM" = 64, "SPM" = 64>}, ktdf_arch.feature.store = {word_size = #ktdf_arch.map<"HBM" = 64, "SPM" = 64>}}, ktdf_arch.max_outstanding = 4 : i64}
      datapath {ktdf_arch.bandwidth = 64 : i64, ktdf_arch.latency = 80 : i64, ktdf_arch.transfer_granularity = array<i64: 64, 256>} %HBM to %DMA : memory, exec_unit
      datapath {ktdf_arch.bandwidth = 64 : i64, ktdf_arch.latency = 2 : i64} %DMA to %SPM : exec_unit, memory
      datapath {ktdf_arch.bandwidth = 64 : i64, ktdf_arch.latency = 2 : i64} %SPM to %DMA : memory, exec_unit
      datapath {ktdf_arch.bandwidth = 64 : i64, ktdf_arch.latency = 80 : i64, ktdf_arch.transfer_granularity = array<i64: 64, 256>} %DMA to %HBM : exec_unit, memory
      %VLD = exec_unit {kind = "VLD", ktdf_arch.features = {ktdf_arch.feature.load}}
      %VST = exec_unit {kind = "VST", ktdf_arch.features = {ktdf_arch.feature.store}}
      %VPU = exec_unit {kind = "VPU", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f32 = 16, f16 = 32>}}}
      %MXU = exec_unit {kind = "MXU", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.matrix = {dtypes = [bf16, f16], shape = array<i64: 16, 16, 4>}, ktdf_arch.feature.throughput = {matrix = #ktdf_arch.map<f16 = 128>}}}
      datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.latency = 2 : i64} %SPM to %VLD : memory, exec_unit
      datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 64 : i64}}} %VLD to %VPU : exec_unit, exec_unit
      datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 64 : i64}}} %VLD to %MXU : exec_unit, exec_unit
      datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 64 : i64}}} %MXU to %VPU : exec_unit, exec_unit
      datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 64 : i64}}} %MXU to %VST : exec_unit, exec_unit
      datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 64 : i64}}} %VPU to %VST : exec_unit, exec_unit
      datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.latency = 2 : i64} %VST to %SPM : exec_unit, memory
    }
  }
  ktdf_arch.target @mesh_device memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">
  func.func @strided_part() attributes {grid = [2], ktdf.literal_tensors = {"0" = tensor<32x64xf16>, "24576" = tensor<32x64xf16>}, ktdf.local = {SPM = 65536 : i64}, ktdf.scratchpad = {SPM = 163840 : i64}} {
    ktdf.parallel (%arg0) in [2] distribute(num_instances = 2) {
      %c0 = arith.constant 0 : index
      %c12288 = arith.constant 12288 : index
      %c20480 = arith.constant 20480 : index
      %c22528 = arith.constant 22528 : index
      %c24576 = arith.constant 24576 : index
      %4 = ktdp.construct_memory_view %c22528, sizes: [32, 64], strides: [64, 1] {coordinate_set = #set1, ktdf.exchange, ktdf.memory = "SPM", memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<32x64xf16, #ktdp.memory_space<ct_local, ct_id = 0>>
      %5 = ktdp.construct_access_tile %4[0, 0] {access_tile_order = #map, access_tile_set = #set1} : memref<32x64xf16, #ktdp.memory_space<ct_local, ct_id = 0>> -> !ktdp.access_tile<32x64xindex>
      %6 = ktdp.construct_memory_view %c20480, sizes: [32, 64], strides: [64, 1] {coordinate_set = #set1, ktdf.exchange, ktdf.memory = "SPM", memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<32x64xf16, #ktdp.memory_space<ct_local, ct_id = 0>>
      %7 = ktdp.construct_access_tile %6[0, 0] {access_tile_order = #map, access_tile_set = #set1} : memref<32x64xf16, #ktdp.memory_space<ct_local, ct_id = 0>> -> !ktdp.access_tile<32x64xindex>
      %8 = ktdp.construct_memory_view %c0, sizes: [32, 64], strides: [64, 1] {coordinate_set = #set1, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
      %9 = ktdp.construct_memory_view %c12288, sizes: [32, 64], strides: [128, 1] {coordinate_set = #set1, ktdf.memory = "SPM", memory_space = #ktdp.memory_space<ct_local>} : memref<32x64xf16>
      %11 = ktdp.construct_memory_view %c24576, sizes: [32, 64], strides: [64, 1] {coordinate_set = #set1, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
      %12 = ktdp.construct_access_tile %8[%c0, %c0] {access_tile_order = #map, access_tile_set = #set1} : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
      %13 = ktdp.construct_access_tile %9[%c0, %c0] {access_tile_order = #map, access_tile_set = #set1} : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
      // Row 0 read from the grid point: each tile keeps its store
      // (DuplicateStores.cpp would leave it to tile 0 alone).
      %row = arith.muli %arg0, %c0 : index
      %16 = ktdp.construct_access_tile %11[%row, %c0] {access_tile_order = #map, access_tile_set = #set1} : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
      ktdf.pipeline modulo(size: 4) {
        %slot = ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
        %slot_0 = ktdf.private : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
        %slot_1 = ktdf.private : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
        %18 = ktdf.stage "feed" depends_out(1) applicable_units [scratchpad_load] unit "tile/VLD" {
          %c0_2 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c32 = arith.constant 32 : index
          %c64 = arith.constant 64 : index
          scf.for %arg1 = %c0_2 to %c32 step %c1 {
            scf.for %arg2 = %c0_2 to %c64 step %c32 {
              ktdf.data_transfer %13[%arg1, %arg2] to %slot : !ktdp.access_tile<32x64xindex> to !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
            }
          }
        }
        %19 = ktdf.stage "compute" depends_in(%18) depends_out(1) applicable_units [vector_compute] unit "tile/VPU" {
          %c0_2 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c32 = arith.constant 32 : index
          %c64 = arith.constant 64 : index
          scf.for %arg1 = %c0_2 to %c32 step %c1 {
            scf.for %arg2 = %c0_2 to %c64 step %c32 {
              %21 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16> -> tensor<32xf16>
              ktdf.write_to_fifo %21 to %slot_0 : tensor<32xf16> to !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
              ktdf.write_to_fifo %21 to %slot_1 : tensor<32xf16> to !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
            }
          }
        }
        %20 = ktdf.stage "drain" depends_in(%19) depends_out(1) applicable_units [scratchpad_store] unit "tile/VST" {
          %c0_2 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c32 = arith.constant 32 : index
          %c64 = arith.constant 64 : index
          scf.for %arg1 = %c0_2 to %c32 step %c1 {
            scf.for %arg2 = %c0_2 to %c64 step %c32 {
              ktdf.data_transfer %slot_0 to %7[%arg1, %arg2] : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16> to !ktdp.access_tile<32x64xindex>
              ktdf.data_transfer %slot_1 to %5[%arg1, %arg2] : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16> to !ktdp.access_tile<32x64xindex>
            }
          }
        }
      }
      ktdf.pipeline modulo(size: 1) {
        ktdf.stage "send" depends_out(0) applicable_units [dma_store] unit "tile/DMA" {
          ktdf.tile_copy %6, %4 {sources = array<i64: 0, 0>, stored_locally} : memref<32x64xf16, #ktdp.memory_space<ct_local, ct_id = 0>>, memref<32x64xf16, #ktdp.memory_space<ct_local, ct_id = 0>>
        }
      }
      ktdf.pipeline modulo(size: 4) {
        %slot = ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
        %slot_0 = ktdf.private : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
        %buf = ktdf.private offset 114688 : memref<32x64xf16, "SPM">
        %f = ktdf.stage "feed" depends_out(1) applicable_units [scratchpad_load] unit "tile/VLD" {
          %c0_1 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c32 = arith.constant 32 : index
          %c64 = arith.constant 64 : index
          scf.for %arg1 = %c0_1 to %c32 step %c1 {
            scf.for %arg2 = %c0_1 to %c64 step %c32 {
              ktdf.data_transfer %5[%arg1, %arg2] to %slot : !ktdp.access_tile<32x64xindex> to !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
            }
          }
        }
        %c = ktdf.stage "compute" depends_in(%f) depends_out(1) applicable_units [vector_compute] unit "tile/VPU" {
          %c0_1 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c32 = arith.constant 32 : index
          %c64 = arith.constant 64 : index
          scf.for %arg1 = %c0_1 to %c32 step %c1 {
            scf.for %arg2 = %c0_1 to %c64 step %c32 {
              %21 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16> -> tensor<32xf16>
              ktdf.write_to_fifo %21 to %slot_0 : tensor<32xf16> to !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
            }
          }
        }
        %d = ktdf.stage "drain" depends_in(%c) depends_out(1) applicable_units [scratchpad_store] unit "tile/VST" {
          %c0_1 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c32 = arith.constant 32 : index
          %c64 = arith.constant 64 : index
          scf.for %arg1 = %c0_1 to %c32 step %c1 {
            scf.for %arg2 = %c0_1 to %c64 step %c32 {
              ktdf.data_transfer %slot_0 to %buf[%arg1, %arg2] : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16> to memref<32x64xf16, "SPM">
            }
          }
        }
        ktdf.stage "store_0" depends_in(%d) depends_out(0) applicable_units [dma_store] unit "tile/DMA" attributes {ktdf.row_blocks = 2 : i64} {
          ktdf.data_transfer %buf to %16 : memref<32x64xf16, "SPM"> to !ktdp.access_tile<32x64xindex>
        }
      }
    }
    return
  }
}


// -----

// The kept view read by the load unit (the reader doubles each chunk, so
// it is no DMA): tile 0's loads read the part in place, row r at byte
// 24576 + 2 * 128 * r (element stride 128, not the view's 64); the fill is
// gone (the copy sends the part), so the load unit reads nothing else.
// Tile 1 reads its dense copy at element stride 64.
// CHECK-LABEL: dfir.kernel @strided_part_doubled
// CHECK-LABEL: dfir.unit "tile[0]/VLD"
// CHECK: arith.addi %{{.*}}, %arg3
// CHECK-NEXT: arith.constant 128
// CHECK-NEXT: arith.muli
// CHECK: dfir.address @local_SPM_c0_l0
// CHECK-NEXT: arith.constant 24576
// CHECK: dfir.load @fifo0 from "tile[0]/SPM"
// CHECK-NOT: dfir.load
// CHECK-LABEL: dfir.unit "tile[1]/VLD"
// CHECK: arith.addi %{{.*}}, %arg3
// CHECK-NEXT: arith.constant 64
// CHECK-NEXT: arith.muli
// CHECK: dfir.load @fifo2 from "tile[1]/SPM"


#map = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
#set1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
module {
  ktdf_arch.device @mesh_device attributes {ktdf_arch.clock_mhz = 1500 : i64} {
    %HBM = memory {kind = "HBM", ktdf_arch.bandwidth = 512 : i64, size = 17179869184 : i64}
    group {kind = "tile", ktdf_arch.instances = 16 : i64, ktdf_arch.interconnect = {dims = array<i64: 4, 4>, hop_latency = 2 : i64, link_bandwidth = 64 : i64, topology = "mesh"}} share(%HBM) {
      %SPM = memory {kind = "SPM", ktdf_arch.bandwidth = 256 : i64, size = 524288 : i64}
      %DMA = exec_unit {kind = "DMA", ktdf_arch.features = {ktdf_arch.feature.load = {word_size = #ktdf_arch.map<"HBM" = 64, "SPM" = 64>}, ktdf_arch.feature.store = {word_size = #ktdf_arch.map<"HBM" = 64, "SPM" = 64>}}, ktdf_arch.max_outstanding = 4 : i64}
      datapath {ktdf_arch.bandwidth = 64 : i64, ktdf_arch.latency = 80 : i64, ktdf_arch.transfer_granularity = array<i64: 64, 256>} %HBM to %DMA : memory, exec_unit
      datapath {ktdf_arch.bandwidth = 64 : i64, ktdf_arch.latency = 2 : i64} %DMA to %SPM : exec_unit, memory
      datapath {ktdf_arch.bandwidth = 64 : i64, ktdf_arch.latency = 2 : i64} %SPM to %DMA : memory, exec_unit
      datapath {ktdf_arch.bandwidth = 64 : i64, ktdf_arch.latency = 80 : i64, ktdf_arch.transfer_granularity = array<i64: 64, 256>} %DMA to %HBM : exec_unit, memory
      %VLD = exec_unit {kind = "VLD", ktdf_arch.features = {ktdf_arch.feature.load}}
      %VST = exec_unit {kind = "VST", ktdf_arch.features = {ktdf_arch.feature.store}}
      %VPU = exec_unit {kind = "VPU", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f32 = 16, f16 = 32>}}}
      %MXU = exec_unit {kind = "MXU", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.matrix = {dtypes = [bf16, f16], shape = array<i64: 16, 16, 4>}, ktdf_arch.feature.throughput = {matrix = #ktdf_arch.map<f16 = 128>}}}
      datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.latency = 2 : i64} %SPM to %VLD : memory, exec_unit
      datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 64 : i64}}} %VLD to %VPU : exec_unit, exec_unit
      datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 64 : i64}}} %VLD to %MXU : exec_unit, exec_unit
      datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 64 : i64}}} %MXU to %VPU : exec_unit, exec_unit
      datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 64 : i64}}} %MXU to %VST : exec_unit, exec_unit
      datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 64 : i64}}} %VPU to %VST : exec_unit, exec_unit
      datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.latency = 2 : i64} %VST to %SPM : exec_unit, memory
    }
  }
  ktdf_arch.target @mesh_device memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">
  func.func @strided_part_doubled() attributes {grid = [2], ktdf.literal_tensors = {"0" = tensor<32x64xf16>, "24576" = tensor<32x64xf16>}, ktdf.local = {SPM = 65536 : i64}, ktdf.scratchpad = {SPM = 163840 : i64}} {
    ktdf.parallel (%arg0) in [2] distribute(num_instances = 2) {
      %c0 = arith.constant 0 : index
      %c12288 = arith.constant 12288 : index
      %c20480 = arith.constant 20480 : index
      %c22528 = arith.constant 22528 : index
      %c24576 = arith.constant 24576 : index
      %4 = ktdp.construct_memory_view %c22528, sizes: [32, 64], strides: [64, 1] {coordinate_set = #set1, ktdf.exchange, ktdf.memory = "SPM", memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<32x64xf16, #ktdp.memory_space<ct_local, ct_id = 0>>
      %5 = ktdp.construct_access_tile %4[0, 0] {access_tile_order = #map, access_tile_set = #set1} : memref<32x64xf16, #ktdp.memory_space<ct_local, ct_id = 0>> -> !ktdp.access_tile<32x64xindex>
      %6 = ktdp.construct_memory_view %c20480, sizes: [32, 64], strides: [64, 1] {coordinate_set = #set1, ktdf.exchange, ktdf.memory = "SPM", memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<32x64xf16, #ktdp.memory_space<ct_local, ct_id = 0>>
      %7 = ktdp.construct_access_tile %6[0, 0] {access_tile_order = #map, access_tile_set = #set1} : memref<32x64xf16, #ktdp.memory_space<ct_local, ct_id = 0>> -> !ktdp.access_tile<32x64xindex>
      %8 = ktdp.construct_memory_view %c0, sizes: [32, 64], strides: [64, 1] {coordinate_set = #set1, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
      %9 = ktdp.construct_memory_view %c12288, sizes: [32, 64], strides: [128, 1] {coordinate_set = #set1, ktdf.memory = "SPM", memory_space = #ktdp.memory_space<ct_local>} : memref<32x64xf16>
      %11 = ktdp.construct_memory_view %c24576, sizes: [32, 64], strides: [64, 1] {coordinate_set = #set1, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
      %12 = ktdp.construct_access_tile %8[%c0, %c0] {access_tile_order = #map, access_tile_set = #set1} : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
      %13 = ktdp.construct_access_tile %9[%c0, %c0] {access_tile_order = #map, access_tile_set = #set1} : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
      // Row 0 read from the grid point: each tile keeps its store
      // (DuplicateStores.cpp would leave it to tile 0 alone).
      %row = arith.muli %arg0, %c0 : index
      %16 = ktdp.construct_access_tile %11[%row, %c0] {access_tile_order = #map, access_tile_set = #set1} : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
      ktdf.pipeline modulo(size: 4) {
        %slot = ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
        %slot_0 = ktdf.private : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
        %slot_1 = ktdf.private : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
        %18 = ktdf.stage "feed" depends_out(1) applicable_units [scratchpad_load] unit "tile/VLD" {
          %c0_2 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c32 = arith.constant 32 : index
          %c64 = arith.constant 64 : index
          scf.for %arg1 = %c0_2 to %c32 step %c1 {
            scf.for %arg2 = %c0_2 to %c64 step %c32 {
              ktdf.data_transfer %13[%arg1, %arg2] to %slot : !ktdp.access_tile<32x64xindex> to !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
            }
          }
        }
        %19 = ktdf.stage "compute" depends_in(%18) depends_out(1) applicable_units [vector_compute] unit "tile/VPU" {
          %c0_2 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c32 = arith.constant 32 : index
          %c64 = arith.constant 64 : index
          scf.for %arg1 = %c0_2 to %c32 step %c1 {
            scf.for %arg2 = %c0_2 to %c64 step %c32 {
              %21 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16> -> tensor<32xf16>
              ktdf.write_to_fifo %21 to %slot_0 : tensor<32xf16> to !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
              ktdf.write_to_fifo %21 to %slot_1 : tensor<32xf16> to !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
            }
          }
        }
        %20 = ktdf.stage "drain" depends_in(%19) depends_out(1) applicable_units [scratchpad_store] unit "tile/VST" {
          %c0_2 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c32 = arith.constant 32 : index
          %c64 = arith.constant 64 : index
          scf.for %arg1 = %c0_2 to %c32 step %c1 {
            scf.for %arg2 = %c0_2 to %c64 step %c32 {
              ktdf.data_transfer %slot_0 to %7[%arg1, %arg2] : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16> to !ktdp.access_tile<32x64xindex>
              ktdf.data_transfer %slot_1 to %5[%arg1, %arg2] : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16> to !ktdp.access_tile<32x64xindex>
            }
          }
        }
      }
      ktdf.pipeline modulo(size: 1) {
        ktdf.stage "send" depends_out(0) applicable_units [dma_store] unit "tile/DMA" {
          ktdf.tile_copy %6, %4 {sources = array<i64: 0, 0>, stored_locally} : memref<32x64xf16, #ktdp.memory_space<ct_local, ct_id = 0>>, memref<32x64xf16, #ktdp.memory_space<ct_local, ct_id = 0>>
        }
      }
      ktdf.pipeline modulo(size: 4) {
        %slot = ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
        %slot_0 = ktdf.private : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
        %buf = ktdf.private offset 114688 : memref<32x64xf16, "SPM">
        %f = ktdf.stage "feed" depends_out(1) applicable_units [scratchpad_load] unit "tile/VLD" {
          %c0_1 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c32 = arith.constant 32 : index
          %c64 = arith.constant 64 : index
          scf.for %arg1 = %c0_1 to %c32 step %c1 {
            scf.for %arg2 = %c0_1 to %c64 step %c32 {
              ktdf.data_transfer %5[%arg1, %arg2] to %slot : !ktdp.access_tile<32x64xindex> to !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
            }
          }
        }
        %c = ktdf.stage "compute" depends_in(%f) depends_out(1) applicable_units [vector_compute] unit "tile/VPU" {
          %c0_1 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c32 = arith.constant 32 : index
          %c64 = arith.constant 64 : index
          scf.for %arg1 = %c0_1 to %c32 step %c1 {
            scf.for %arg2 = %c0_1 to %c64 step %c32 {
              %21 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16> -> tensor<32xf16>
              %e = tensor.empty() : tensor<32xf16>
              %22 = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%21 : tensor<32xf16>) outs(%e : tensor<32xf16>) {
              ^bb0(%in: f16, %out: f16):
                %s = arith.addf %in, %in : f16
                linalg.yield %s : f16
              } -> tensor<32xf16>
              ktdf.write_to_fifo %22 to %slot_0 : tensor<32xf16> to !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
            }
          }
        }
        %d = ktdf.stage "drain" depends_in(%c) depends_out(1) applicable_units [scratchpad_store] unit "tile/VST" {
          %c0_1 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c32 = arith.constant 32 : index
          %c64 = arith.constant 64 : index
          scf.for %arg1 = %c0_1 to %c32 step %c1 {
            scf.for %arg2 = %c0_1 to %c64 step %c32 {
              ktdf.data_transfer %slot_0 to %buf[%arg1, %arg2] : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16> to memref<32x64xf16, "SPM">
            }
          }
        }
        ktdf.stage "store_0" depends_in(%d) depends_out(0) applicable_units [dma_store] unit "tile/DMA" attributes {ktdf.row_blocks = 2 : i64} {
          ktdf.data_transfer %buf to %16 : memref<32x64xf16, "SPM"> to !ktdp.access_tile<32x64xindex>
        }
      }
    }
    return
  }
}


// -----

// Refused: a part a later pipeline writes (X stored into it after the
// store of the kept view) holds other data by then; nothing is read in its
// place (writtenInKernel). The fill stays: tile 0's load unit reads the
// part and its store unit writes the views, and the copy sends the view it
// wrote (4096 bytes in one DMA).
// CHECK-LABEL: dfir.kernel @strided_part_written_after
// CHECK-LABEL: dfir.unit "tile[0]/DMA"
// CHECK: dfir.remote_dma %c4096 bytes from "tile[0]/SPM"
// CHECK-LABEL: dfir.unit "tile[0]/VLD"
// CHECK: arith.constant 24576
// CHECK-NEXT: arith.addi
// CHECK-NEXT: arith.addi
// CHECK-NEXT: arith.constant
// CHECK-NEXT: dfir.load @fifo0 from "tile[0]/SPM"
// CHECK-LABEL: dfir.unit "tile[0]/VST"
// CHECK: dfir.store @fifo1 to "tile[0]/SPM"


#map = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
#set1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
module {
  ktdf_arch.device @mesh_device attributes {ktdf_arch.clock_mhz = 1500 : i64} {
    %HBM = memory {kind = "HBM", ktdf_arch.bandwidth = 512 : i64, size = 17179869184 : i64}
    group {kind = "tile", ktdf_arch.instances = 16 : i64, ktdf_arch.interconnect = {dims = array<i64: 4, 4>, hop_latency = 2 : i64, link_bandwidth = 64 : i64, topology = "mesh"}} share(%HBM) {
      %SPM = memory {kind = "SPM", ktdf_arch.bandwidth = 256 : i64, size = 524288 : i64}
      %DMA = exec_unit {kind = "DMA", ktdf_arch.features = {ktdf_arch.feature.load = {word_size = #ktdf_arch.map<"HBM" = 64, "SPM" = 64>}, ktdf_arch.feature.store = {word_size = #ktdf_arch.map<"HBM" = 64, "SPM" = 64>}}, ktdf_arch.max_outstanding = 4 : i64}
      datapath {ktdf_arch.bandwidth = 64 : i64, ktdf_arch.latency = 80 : i64, ktdf_arch.transfer_granularity = array<i64: 64, 256>} %HBM to %DMA : memory, exec_unit
      datapath {ktdf_arch.bandwidth = 64 : i64, ktdf_arch.latency = 2 : i64} %DMA to %SPM : exec_unit, memory
      datapath {ktdf_arch.bandwidth = 64 : i64, ktdf_arch.latency = 2 : i64} %SPM to %DMA : memory, exec_unit
      datapath {ktdf_arch.bandwidth = 64 : i64, ktdf_arch.latency = 80 : i64, ktdf_arch.transfer_granularity = array<i64: 64, 256>} %DMA to %HBM : exec_unit, memory
      %VLD = exec_unit {kind = "VLD", ktdf_arch.features = {ktdf_arch.feature.load}}
      %VST = exec_unit {kind = "VST", ktdf_arch.features = {ktdf_arch.feature.store}}
      %VPU = exec_unit {kind = "VPU", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f32 = 16, f16 = 32>}}}
      %MXU = exec_unit {kind = "MXU", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.matrix = {dtypes = [bf16, f16], shape = array<i64: 16, 16, 4>}, ktdf_arch.feature.throughput = {matrix = #ktdf_arch.map<f16 = 128>}}}
      datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.latency = 2 : i64} %SPM to %VLD : memory, exec_unit
      datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 64 : i64}}} %VLD to %VPU : exec_unit, exec_unit
      datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 64 : i64}}} %VLD to %MXU : exec_unit, exec_unit
      datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 64 : i64}}} %MXU to %VPU : exec_unit, exec_unit
      datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 64 : i64}}} %MXU to %VST : exec_unit, exec_unit
      datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 64 : i64}}} %VPU to %VST : exec_unit, exec_unit
      datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.latency = 2 : i64} %VST to %SPM : exec_unit, memory
    }
  }
  ktdf_arch.target @mesh_device memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">
  func.func @strided_part_written_after() attributes {grid = [2], ktdf.literal_tensors = {"0" = tensor<32x64xf16>, "24576" = tensor<32x64xf16>}, ktdf.local = {SPM = 65536 : i64}, ktdf.scratchpad = {SPM = 163840 : i64}} {
    ktdf.parallel (%arg0) in [2] distribute(num_instances = 2) {
      %c0 = arith.constant 0 : index
      %c12288 = arith.constant 12288 : index
      %c20480 = arith.constant 20480 : index
      %c22528 = arith.constant 22528 : index
      %c24576 = arith.constant 24576 : index
      %4 = ktdp.construct_memory_view %c22528, sizes: [32, 64], strides: [64, 1] {coordinate_set = #set1, ktdf.exchange, ktdf.memory = "SPM", memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<32x64xf16, #ktdp.memory_space<ct_local, ct_id = 0>>
      %5 = ktdp.construct_access_tile %4[0, 0] {access_tile_order = #map, access_tile_set = #set1} : memref<32x64xf16, #ktdp.memory_space<ct_local, ct_id = 0>> -> !ktdp.access_tile<32x64xindex>
      %6 = ktdp.construct_memory_view %c20480, sizes: [32, 64], strides: [64, 1] {coordinate_set = #set1, ktdf.exchange, ktdf.memory = "SPM", memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<32x64xf16, #ktdp.memory_space<ct_local, ct_id = 0>>
      %7 = ktdp.construct_access_tile %6[0, 0] {access_tile_order = #map, access_tile_set = #set1} : memref<32x64xf16, #ktdp.memory_space<ct_local, ct_id = 0>> -> !ktdp.access_tile<32x64xindex>
      %8 = ktdp.construct_memory_view %c0, sizes: [32, 64], strides: [64, 1] {coordinate_set = #set1, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
      %9 = ktdp.construct_memory_view %c12288, sizes: [32, 64], strides: [128, 1] {coordinate_set = #set1, ktdf.memory = "SPM", memory_space = #ktdp.memory_space<ct_local>} : memref<32x64xf16>
      %11 = ktdp.construct_memory_view %c24576, sizes: [32, 64], strides: [64, 1] {coordinate_set = #set1, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
      %12 = ktdp.construct_access_tile %8[%c0, %c0] {access_tile_order = #map, access_tile_set = #set1} : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
      %13 = ktdp.construct_access_tile %9[%c0, %c0] {access_tile_order = #map, access_tile_set = #set1} : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
      // Row 0 read from the grid point: each tile keeps its store
      // (DuplicateStores.cpp would leave it to tile 0 alone).
      %row = arith.muli %arg0, %c0 : index
      %16 = ktdp.construct_access_tile %11[%row, %c0] {access_tile_order = #map, access_tile_set = #set1} : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
      ktdf.pipeline modulo(size: 4) {
        %slot = ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
        %slot_0 = ktdf.private : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
        %slot_1 = ktdf.private : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
        %18 = ktdf.stage "feed" depends_out(1) applicable_units [scratchpad_load] unit "tile/VLD" {
          %c0_2 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c32 = arith.constant 32 : index
          %c64 = arith.constant 64 : index
          scf.for %arg1 = %c0_2 to %c32 step %c1 {
            scf.for %arg2 = %c0_2 to %c64 step %c32 {
              ktdf.data_transfer %13[%arg1, %arg2] to %slot : !ktdp.access_tile<32x64xindex> to !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
            }
          }
        }
        %19 = ktdf.stage "compute" depends_in(%18) depends_out(1) applicable_units [vector_compute] unit "tile/VPU" {
          %c0_2 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c32 = arith.constant 32 : index
          %c64 = arith.constant 64 : index
          scf.for %arg1 = %c0_2 to %c32 step %c1 {
            scf.for %arg2 = %c0_2 to %c64 step %c32 {
              %21 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16> -> tensor<32xf16>
              ktdf.write_to_fifo %21 to %slot_0 : tensor<32xf16> to !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
              ktdf.write_to_fifo %21 to %slot_1 : tensor<32xf16> to !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
            }
          }
        }
        %20 = ktdf.stage "drain" depends_in(%19) depends_out(1) applicable_units [scratchpad_store] unit "tile/VST" {
          %c0_2 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c32 = arith.constant 32 : index
          %c64 = arith.constant 64 : index
          scf.for %arg1 = %c0_2 to %c32 step %c1 {
            scf.for %arg2 = %c0_2 to %c64 step %c32 {
              ktdf.data_transfer %slot_0 to %7[%arg1, %arg2] : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16> to !ktdp.access_tile<32x64xindex>
              ktdf.data_transfer %slot_1 to %5[%arg1, %arg2] : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16> to !ktdp.access_tile<32x64xindex>
            }
          }
        }
      }
      ktdf.pipeline modulo(size: 1) {
        ktdf.stage "send" depends_out(0) applicable_units [dma_store] unit "tile/DMA" {
          ktdf.tile_copy %6, %4 {sources = array<i64: 0, 0>, stored_locally} : memref<32x64xf16, #ktdp.memory_space<ct_local, ct_id = 0>>, memref<32x64xf16, #ktdp.memory_space<ct_local, ct_id = 0>>
        }
      }
      ktdf.pipeline modulo(size: 4) {
        %slot = ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
        %slot_0 = ktdf.private : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
        %buf = ktdf.private offset 114688 : memref<32x64xf16, "SPM">
        %f = ktdf.stage "feed" depends_out(1) applicable_units [scratchpad_load] unit "tile/VLD" {
          %c0_1 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c32 = arith.constant 32 : index
          %c64 = arith.constant 64 : index
          scf.for %arg1 = %c0_1 to %c32 step %c1 {
            scf.for %arg2 = %c0_1 to %c64 step %c32 {
              ktdf.data_transfer %5[%arg1, %arg2] to %slot : !ktdp.access_tile<32x64xindex> to !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
            }
          }
        }
        %c = ktdf.stage "compute" depends_in(%f) depends_out(1) applicable_units [vector_compute] unit "tile/VPU" {
          %c0_1 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c32 = arith.constant 32 : index
          %c64 = arith.constant 64 : index
          scf.for %arg1 = %c0_1 to %c32 step %c1 {
            scf.for %arg2 = %c0_1 to %c64 step %c32 {
              %21 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16> -> tensor<32xf16>
              ktdf.write_to_fifo %21 to %slot_0 : tensor<32xf16> to !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
            }
          }
        }
        %d = ktdf.stage "drain" depends_in(%c) depends_out(1) applicable_units [scratchpad_store] unit "tile/VST" {
          %c0_1 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c32 = arith.constant 32 : index
          %c64 = arith.constant 64 : index
          scf.for %arg1 = %c0_1 to %c32 step %c1 {
            scf.for %arg2 = %c0_1 to %c64 step %c32 {
              ktdf.data_transfer %slot_0 to %buf[%arg1, %arg2] : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16> to memref<32x64xf16, "SPM">
            }
          }
        }
        ktdf.stage "store_0" depends_in(%d) depends_out(0) applicable_units [dma_store] unit "tile/DMA" attributes {ktdf.row_blocks = 2 : i64} {
          ktdf.data_transfer %buf to %16 : memref<32x64xf16, "SPM"> to !ktdp.access_tile<32x64xindex>
        }
      }
      ktdf.pipeline modulo(size: 4) {
        %slot = ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
        %slot_0 = ktdf.private : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
        %buf = ktdf.private offset 131072 : memref<32x64xf16, "SPM">
        %l = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load] unit "tile/DMA" attributes {ktdf.row_blocks = 2 : i64} {
          ktdf.data_transfer %12 to %buf : !ktdp.access_tile<32x64xindex> to memref<32x64xf16, "SPM">
        }
        %f = ktdf.stage "feed" depends_in(%l) depends_out(1) applicable_units [scratchpad_load] unit "tile/VLD" {
          %c0_1 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c32 = arith.constant 32 : index
          %c64 = arith.constant 64 : index
          scf.for %arg1 = %c0_1 to %c32 step %c1 {
            scf.for %arg2 = %c0_1 to %c64 step %c32 {
              ktdf.data_transfer %buf[%arg1, %arg2] to %slot : memref<32x64xf16, "SPM"> to !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
            }
          }
        }
        %c = ktdf.stage "compute" depends_in(%f) depends_out(1) applicable_units [vector_compute] unit "tile/VPU" {
          %c0_1 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c32 = arith.constant 32 : index
          %c64 = arith.constant 64 : index
          scf.for %arg1 = %c0_1 to %c32 step %c1 {
            scf.for %arg2 = %c0_1 to %c64 step %c32 {
              %21 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16> -> tensor<32xf16>
              ktdf.write_to_fifo %21 to %slot_0 : tensor<32xf16> to !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
            }
          }
        }
        %d = ktdf.stage "drain" depends_in(%c) depends_out(1) applicable_units [scratchpad_store] unit "tile/VST" {
          %c0_1 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c32 = arith.constant 32 : index
          %c64 = arith.constant 64 : index
          scf.for %arg1 = %c0_1 to %c32 step %c1 {
            scf.for %arg2 = %c0_1 to %c64 step %c32 {
              ktdf.data_transfer %slot_0 to %13[%arg1, %arg2] : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16> to !ktdp.access_tile<32x64xindex>
            }
          }
        }
      }
    }
    return
  }
}


// -----

// Refused: a part whose elements are not contiguous within a row (element
// stride 2) is no box of rows a DMA reads at a pitch (movesAsRows): the
// fill stays, tile 0's load unit reads the part and the copy sends the
// dense view the fill wrote.
// CHECK-LABEL: dfir.kernel @strided_elements
// CHECK-LABEL: dfir.unit "tile[0]/DMA"
// CHECK: dfir.remote_dma %c4096 bytes from "tile[0]/SPM"
// CHECK-LABEL: dfir.unit "tile[0]/VLD"
// CHECK: arith.constant 24576
// CHECK: dfir.load @fifo0 from "tile[0]/SPM"
// CHECK-LABEL: dfir.unit "tile[0]/VST"
// CHECK: dfir.store @fifo1 to "tile[0]/SPM"


#map = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
#set1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
module {
  ktdf_arch.device @mesh_device attributes {ktdf_arch.clock_mhz = 1500 : i64} {
    %HBM = memory {kind = "HBM", ktdf_arch.bandwidth = 512 : i64, size = 17179869184 : i64}
    group {kind = "tile", ktdf_arch.instances = 16 : i64, ktdf_arch.interconnect = {dims = array<i64: 4, 4>, hop_latency = 2 : i64, link_bandwidth = 64 : i64, topology = "mesh"}} share(%HBM) {
      %SPM = memory {kind = "SPM", ktdf_arch.bandwidth = 256 : i64, size = 524288 : i64}
      %DMA = exec_unit {kind = "DMA", ktdf_arch.features = {ktdf_arch.feature.load = {word_size = #ktdf_arch.map<"HBM" = 64, "SPM" = 64>}, ktdf_arch.feature.store = {word_size = #ktdf_arch.map<"HBM" = 64, "SPM" = 64>}}, ktdf_arch.max_outstanding = 4 : i64}
      datapath {ktdf_arch.bandwidth = 64 : i64, ktdf_arch.latency = 80 : i64, ktdf_arch.transfer_granularity = array<i64: 64, 256>} %HBM to %DMA : memory, exec_unit
      datapath {ktdf_arch.bandwidth = 64 : i64, ktdf_arch.latency = 2 : i64} %DMA to %SPM : exec_unit, memory
      datapath {ktdf_arch.bandwidth = 64 : i64, ktdf_arch.latency = 2 : i64} %SPM to %DMA : memory, exec_unit
      datapath {ktdf_arch.bandwidth = 64 : i64, ktdf_arch.latency = 80 : i64, ktdf_arch.transfer_granularity = array<i64: 64, 256>} %DMA to %HBM : exec_unit, memory
      %VLD = exec_unit {kind = "VLD", ktdf_arch.features = {ktdf_arch.feature.load}}
      %VST = exec_unit {kind = "VST", ktdf_arch.features = {ktdf_arch.feature.store}}
      %VPU = exec_unit {kind = "VPU", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f32 = 16, f16 = 32>}}}
      %MXU = exec_unit {kind = "MXU", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.matrix = {dtypes = [bf16, f16], shape = array<i64: 16, 16, 4>}, ktdf_arch.feature.throughput = {matrix = #ktdf_arch.map<f16 = 128>}}}
      datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.latency = 2 : i64} %SPM to %VLD : memory, exec_unit
      datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 64 : i64}}} %VLD to %VPU : exec_unit, exec_unit
      datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 64 : i64}}} %VLD to %MXU : exec_unit, exec_unit
      datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 64 : i64}}} %MXU to %VPU : exec_unit, exec_unit
      datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 64 : i64}}} %MXU to %VST : exec_unit, exec_unit
      datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 64 : i64}}} %VPU to %VST : exec_unit, exec_unit
      datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.latency = 2 : i64} %VST to %SPM : exec_unit, memory
    }
  }
  ktdf_arch.target @mesh_device memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">
  func.func @strided_elements() attributes {grid = [2], ktdf.literal_tensors = {"0" = tensor<32x64xf16>, "24576" = tensor<32x64xf16>}, ktdf.local = {SPM = 65536 : i64}, ktdf.scratchpad = {SPM = 163840 : i64}} {
    ktdf.parallel (%arg0) in [2] distribute(num_instances = 2) {
      %c0 = arith.constant 0 : index
      %c12288 = arith.constant 12288 : index
      %c20480 = arith.constant 20480 : index
      %c22528 = arith.constant 22528 : index
      %c24576 = arith.constant 24576 : index
      %4 = ktdp.construct_memory_view %c22528, sizes: [32, 64], strides: [64, 1] {coordinate_set = #set1, ktdf.exchange, ktdf.memory = "SPM", memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<32x64xf16, #ktdp.memory_space<ct_local, ct_id = 0>>
      %5 = ktdp.construct_access_tile %4[0, 0] {access_tile_order = #map, access_tile_set = #set1} : memref<32x64xf16, #ktdp.memory_space<ct_local, ct_id = 0>> -> !ktdp.access_tile<32x64xindex>
      %6 = ktdp.construct_memory_view %c20480, sizes: [32, 64], strides: [64, 1] {coordinate_set = #set1, ktdf.exchange, ktdf.memory = "SPM", memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<32x64xf16, #ktdp.memory_space<ct_local, ct_id = 0>>
      %7 = ktdp.construct_access_tile %6[0, 0] {access_tile_order = #map, access_tile_set = #set1} : memref<32x64xf16, #ktdp.memory_space<ct_local, ct_id = 0>> -> !ktdp.access_tile<32x64xindex>
      %8 = ktdp.construct_memory_view %c0, sizes: [32, 64], strides: [64, 1] {coordinate_set = #set1, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
      %9 = ktdp.construct_memory_view %c12288, sizes: [32, 64], strides: [128, 2] {coordinate_set = #set1, ktdf.memory = "SPM", memory_space = #ktdp.memory_space<ct_local>} : memref<32x64xf16>
      %11 = ktdp.construct_memory_view %c24576, sizes: [32, 64], strides: [64, 1] {coordinate_set = #set1, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
      %12 = ktdp.construct_access_tile %8[%c0, %c0] {access_tile_order = #map, access_tile_set = #set1} : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
      %13 = ktdp.construct_access_tile %9[%c0, %c0] {access_tile_order = #map, access_tile_set = #set1} : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
      // Row 0 read from the grid point: each tile keeps its store
      // (DuplicateStores.cpp would leave it to tile 0 alone).
      %row = arith.muli %arg0, %c0 : index
      %16 = ktdp.construct_access_tile %11[%row, %c0] {access_tile_order = #map, access_tile_set = #set1} : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
      ktdf.pipeline modulo(size: 4) {
        %slot = ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
        %slot_0 = ktdf.private : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
        %slot_1 = ktdf.private : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
        %18 = ktdf.stage "feed" depends_out(1) applicable_units [scratchpad_load] unit "tile/VLD" {
          %c0_2 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c32 = arith.constant 32 : index
          %c64 = arith.constant 64 : index
          scf.for %arg1 = %c0_2 to %c32 step %c1 {
            scf.for %arg2 = %c0_2 to %c64 step %c32 {
              ktdf.data_transfer %13[%arg1, %arg2] to %slot : !ktdp.access_tile<32x64xindex> to !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
            }
          }
        }
        %19 = ktdf.stage "compute" depends_in(%18) depends_out(1) applicable_units [vector_compute] unit "tile/VPU" {
          %c0_2 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c32 = arith.constant 32 : index
          %c64 = arith.constant 64 : index
          scf.for %arg1 = %c0_2 to %c32 step %c1 {
            scf.for %arg2 = %c0_2 to %c64 step %c32 {
              %21 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16> -> tensor<32xf16>
              ktdf.write_to_fifo %21 to %slot_0 : tensor<32xf16> to !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
              ktdf.write_to_fifo %21 to %slot_1 : tensor<32xf16> to !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
            }
          }
        }
        %20 = ktdf.stage "drain" depends_in(%19) depends_out(1) applicable_units [scratchpad_store] unit "tile/VST" {
          %c0_2 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c32 = arith.constant 32 : index
          %c64 = arith.constant 64 : index
          scf.for %arg1 = %c0_2 to %c32 step %c1 {
            scf.for %arg2 = %c0_2 to %c64 step %c32 {
              ktdf.data_transfer %slot_0 to %7[%arg1, %arg2] : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16> to !ktdp.access_tile<32x64xindex>
              ktdf.data_transfer %slot_1 to %5[%arg1, %arg2] : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16> to !ktdp.access_tile<32x64xindex>
            }
          }
        }
      }
      ktdf.pipeline modulo(size: 1) {
        ktdf.stage "send" depends_out(0) applicable_units [dma_store] unit "tile/DMA" {
          ktdf.tile_copy %6, %4 {sources = array<i64: 0, 0>, stored_locally} : memref<32x64xf16, #ktdp.memory_space<ct_local, ct_id = 0>>, memref<32x64xf16, #ktdp.memory_space<ct_local, ct_id = 0>>
        }
      }
      ktdf.pipeline modulo(size: 4) {
        %slot = ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
        %slot_0 = ktdf.private : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
        %buf = ktdf.private offset 114688 : memref<32x64xf16, "SPM">
        %f = ktdf.stage "feed" depends_out(1) applicable_units [scratchpad_load] unit "tile/VLD" {
          %c0_1 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c32 = arith.constant 32 : index
          %c64 = arith.constant 64 : index
          scf.for %arg1 = %c0_1 to %c32 step %c1 {
            scf.for %arg2 = %c0_1 to %c64 step %c32 {
              ktdf.data_transfer %5[%arg1, %arg2] to %slot : !ktdp.access_tile<32x64xindex> to !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
            }
          }
        }
        %c = ktdf.stage "compute" depends_in(%f) depends_out(1) applicable_units [vector_compute] unit "tile/VPU" {
          %c0_1 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c32 = arith.constant 32 : index
          %c64 = arith.constant 64 : index
          scf.for %arg1 = %c0_1 to %c32 step %c1 {
            scf.for %arg2 = %c0_1 to %c64 step %c32 {
              %21 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16> -> tensor<32xf16>
              ktdf.write_to_fifo %21 to %slot_0 : tensor<32xf16> to !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
            }
          }
        }
        %d = ktdf.stage "drain" depends_in(%c) depends_out(1) applicable_units [scratchpad_store] unit "tile/VST" {
          %c0_1 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c32 = arith.constant 32 : index
          %c64 = arith.constant 64 : index
          scf.for %arg1 = %c0_1 to %c32 step %c1 {
            scf.for %arg2 = %c0_1 to %c64 step %c32 {
              ktdf.data_transfer %slot_0 to %buf[%arg1, %arg2] : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16> to memref<32x64xf16, "SPM">
            }
          }
        }
        ktdf.stage "store_0" depends_in(%d) depends_out(0) applicable_units [dma_store] unit "tile/DMA" attributes {ktdf.row_blocks = 2 : i64} {
          ktdf.data_transfer %buf to %16 : memref<32x64xf16, "SPM"> to !ktdp.access_tile<32x64xindex>
        }
      }
    }
    return
  }
}

