// RUN: ktflow-opt %s -split-input-file -verify-diagnostics --ktdf-import-target --ktdf-to-dfir

// A buffer that one pipeline exports is only read by the others, into a
// FIFO slot or a buffer: a DMA straight from it to device memory, or a
// write into it, is refused at the transfer.

ktdf_arch.target @sample_device from "../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">

#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
func.func @store_export(%v: index, %y: index) attributes {grid = [32], ktdf.scratchpad = {L1 = 256 : i64}} {
  ktdf.parallel (%p) in [32] distribute(num_instances = 8) {
    %V = ktdp.construct_memory_view %v, sizes: [64], strides: [1] {coordinate_set = #vec, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [64], strides: [1] {coordinate_set = #vec, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %tv = ktdp.construct_access_tile %V[0] {access_tile_order = #id1, access_tile_set = #vec} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    %ty = ktdp.construct_access_tile %Y[0] {access_tile_order = #id1, access_tile_set = #vec} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    %e = ktdf.pipeline per_instance modulo(size: 1) -> memref<64xf16, "L1"> {
      %buf = ktdf.private offset 0 export 0 : memref<64xf16, "L1">
      %t = ktdf.stage "load" depends_out(1) applicable_units [dma_load] unit "core/MNILU_Block/MNILU" {
        ktdf.data_transfer %tv to %buf : !ktdp.access_tile<64xindex> to memref<64xf16, "L1">
      }
    }
    ktdf.pipeline modulo(size: 1) {
      ktdf.stage "store" depends_out(0) applicable_units [dma_store] unit "core/MNISU_Block/MNISU" {
        // expected-error @+1 {{a buffer exported by another pipeline can only be read into a FIFO slot or a buffer}}
        ktdf.data_transfer %e to %ty : memref<64xf16, "L1"> to !ktdp.access_tile<64xindex>
      }
    }
  }
  return
}

// -----

ktdf_arch.target @sample_device from "../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">

#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
func.func @write_export(%v: index) attributes {grid = [32], ktdf.scratchpad = {L1 = 256 : i64}} {
  ktdf.parallel (%p) in [32] distribute(num_instances = 8) {
    %V = ktdp.construct_memory_view %v, sizes: [64], strides: [1] {coordinate_set = #vec, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %tv = ktdp.construct_access_tile %V[0] {access_tile_order = #id1, access_tile_set = #vec} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    %e = ktdf.pipeline per_instance modulo(size: 1) -> memref<64xf16, "L1"> {
      %buf = ktdf.private offset 0 export 0 : memref<64xf16, "L1">
      %t = ktdf.stage "load" depends_out(1) applicable_units [dma_load] unit "core/MNILU_Block/MNILU" {
        ktdf.data_transfer %tv to %buf : !ktdp.access_tile<64xindex> to memref<64xf16, "L1">
      }
    }
    ktdf.pipeline modulo(size: 1) {
      ktdf.stage "reload" depends_out(0) applicable_units [dma_load] unit "core/MNILU_Block/MNILU" {
        // expected-error @+1 {{a buffer exported by another pipeline can only be read into a FIFO slot or a buffer}}
        ktdf.data_transfer %tv to %e : !ktdp.access_tile<64xindex> to memref<64xf16, "L1">
      }
    }
  }
  return
}
