// RUN: ktflow-opt %s -split-input-file -verify-diagnostics --ktdf-test-stream-plan

// A bias row loaded as a 1x128 tile, collapsed to 128 and broadcast over
// the 16 rows of a tile (test/EndToEnd/Inputs/bias_row_collapsed.mlir;
// ktflow-opt --ktdf-mapping on spyre_like, device and target left out).
// ktdf-generalize folded the collapse into the map (d0, d1) -> (0, d1). The
// bias is read first and has the tile's rank, but it is the 16x128 tile
// that sets the shape (the widest end), and the 1x128 read is one value per
// column, not a whole tile.

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (0, d1)>
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#set1 = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#set2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
module {
  func.func @bias_rows(%arg0: index {ktdf.tensor = tensor<64x128xf16>}, %arg1: index {ktdf.tensor = tensor<1x128xf16>}, %arg2: index {ktdf.tensor = tensor<64x128xf16>}) attributes {grid = [4]} {
    ktdf.parallel (%arg3) in [4] {
      %c16 = arith.constant 16 : index
      %0 = arith.muli %arg3, %c16 : index
      %1 = ktdp.construct_memory_view %arg0, sizes: [64, 128], strides: [128, 1] {coordinate_set = #set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
      %2 = ktdp.construct_memory_view %arg1, sizes: [1, 128], strides: [128, 1] {coordinate_set = #set1, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<1x128xf16>
      %3 = ktdp.construct_memory_view %arg2, sizes: [64, 128], strides: [128, 1] {coordinate_set = #set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
      %4 = ktdp.construct_access_tile %1[%0, 0] {access_tile_order = #map, access_tile_set = #set2} : memref<64x128xf16> -> !ktdp.access_tile<16x128xindex>
      %5 = ktdp.construct_access_tile %2[0, 0] {access_tile_order = #map, access_tile_set = #set1} : memref<1x128xf16> -> !ktdp.access_tile<1x128xindex>
      %6 = ktdp.construct_access_tile %3[%0, 0] {access_tile_order = #map, access_tile_set = #set2} : memref<64x128xf16> -> !ktdp.access_tile<16x128xindex>
      ktdf.pipeline {
        %slot = ktdf.private : !ktdf.fifo.slot<DDR -> vector_compute, 1x128xf16>
        %slot_0 = ktdf.private : !ktdf.fifo.slot<DDR -> vector_compute, 16x128xf16>
        %slot_1 = ktdf.private : !ktdf.fifo.slot<vector_compute -> DDR, 16x128xf16>
        %7 = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load, scratchpad_load] {
          ktdf.data_transfer %5 to %slot : !ktdp.access_tile<1x128xindex> to !ktdf.fifo.slot<DDR -> vector_compute, 1x128xf16>
        }
        %8 = ktdf.stage "load_1" depends_out(1) applicable_units [dma_load, scratchpad_load] {
          ktdf.data_transfer %4 to %slot_0 : !ktdp.access_tile<16x128xindex> to !ktdf.fifo.slot<DDR -> vector_compute, 16x128xf16>
        }
        // expected-remark @+1 {{16 rows of 128 columns, 1 pass(es), row major}}
        %9 = ktdf.stage "compute" depends_in(%7, %8) depends_out(1) applicable_units [vector_compute] {
          // expected-remark @+1 {{reads column}}
          %10 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<DDR -> vector_compute, 1x128xf16> -> tensor<1x128xf16>
          // expected-remark @+1 {{reads tile}}
          %11 = ktdf.read_from_fifo %slot_0 : !ktdf.fifo.slot<DDR -> vector_compute, 16x128xf16> -> tensor<16x128xf16>
          %12 = tensor.empty() : tensor<16x128xf16>
          // expected-remark @+1 {{stream: tile, computed in pass 0}}
          %13 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%11, %10 : tensor<16x128xf16>, tensor<1x128xf16>) outs(%12 : tensor<16x128xf16>) {
          ^bb0(%in: f16, %in_2: f16, %out: f16):
            %14 = arith.addf %in, %in_2 : f16
            linalg.yield %14 : f16
          } -> tensor<16x128xf16>
          // expected-remark @+1 {{writes tile, computed in pass 0}}
          ktdf.write_to_fifo %13 to %slot_1 : tensor<16x128xf16> to !ktdf.fifo.slot<vector_compute -> DDR, 16x128xf16>
        }
        ktdf.stage "store_0" depends_in(%9) depends_out(0) applicable_units [scratchpad_store, dma_store] {
          ktdf.data_transfer %slot_1 to %6 : !ktdf.fifo.slot<vector_compute -> DDR, 16x128xf16> to !ktdp.access_tile<16x128xindex>
        }
      }
    }
    return
  }
}


// -----

// The same row next to a column reduction (test/EndToEnd/Inputs/
// col_sums_bias_row.mlir, mapped the same way): the 128 sums are expanded
// back to 1x128 by a generic over 1x128 loops of the 16x128 tile, a copy of
// per-column values that keeps the unit dimension, written per column.

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0) -> (d0)>
#map2 = affine_map<(d0, d1) -> (0, d1)>
#map3 = affine_map<(d0, d1) -> (d1)>
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#set1 = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 127 >= 0)>
module {
  func.func @col_sums_bias_row(%arg0: index {ktdf.tensor = tensor<16x128xf16>}, %arg1: index {ktdf.tensor = tensor<1x128xf16>}, %arg2: index {ktdf.tensor = tensor<1x128xf16>}) attributes {grid = [1]} {
    ktdf.parallel (%arg3) in [1] {
      %0 = ktdp.construct_memory_view %arg0, sizes: [16, 128], strides: [128, 1] {coordinate_set = #set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<16x128xf16>
      %1 = ktdp.construct_memory_view %arg1, sizes: [1, 128], strides: [128, 1] {coordinate_set = #set1, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<1x128xf16>
      %2 = ktdp.construct_memory_view %arg2, sizes: [1, 128], strides: [128, 1] {coordinate_set = #set1, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<1x128xf16>
      %3 = ktdp.construct_access_tile %0[0, 0] {access_tile_order = #map, access_tile_set = #set} : memref<16x128xf16> -> !ktdp.access_tile<16x128xindex>
      %4 = ktdp.construct_access_tile %1[0, 0] {access_tile_order = #map, access_tile_set = #set1} : memref<1x128xf16> -> !ktdp.access_tile<1x128xindex>
      %5 = ktdp.construct_access_tile %2[0, 0] {access_tile_order = #map, access_tile_set = #set1} : memref<1x128xf16> -> !ktdp.access_tile<1x128xindex>
      ktdf.pipeline {
        %slot = ktdf.private : !ktdf.fifo.slot<DDR -> vector_compute, 1x128xf16>
        %slot_0 = ktdf.private : !ktdf.fifo.slot<DDR -> vector_compute, 16x128xf16>
        %slot_1 = ktdf.private : !ktdf.fifo.slot<vector_compute -> DDR, 1x128xf16>
        %6 = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load, scratchpad_load] {
          ktdf.data_transfer %4 to %slot : !ktdp.access_tile<1x128xindex> to !ktdf.fifo.slot<DDR -> vector_compute, 1x128xf16>
        }
        %7 = ktdf.stage "load_1" depends_out(1) applicable_units [dma_load, scratchpad_load] {
          ktdf.data_transfer %3 to %slot_0 : !ktdp.access_tile<16x128xindex> to !ktdf.fifo.slot<DDR -> vector_compute, 16x128xf16>
        }
        // expected-remark @+1 {{16 rows of 128 columns, 1 pass(es), column major}}
        %8 = ktdf.stage "compute" depends_in(%6, %7) depends_out(1) applicable_units [vector_compute] {
          // expected-remark @+1 {{reads column}}
          %9 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<DDR -> vector_compute, 1x128xf16> -> tensor<1x128xf16>
          // expected-remark @+1 {{reads tile}}
          %10 = ktdf.read_from_fifo %slot_0 : !ktdf.fifo.slot<DDR -> vector_compute, 16x128xf16> -> tensor<16x128xf16>
          %11 = tensor.empty() : tensor<128xf16>
          %cst = arith.constant 0.000000e+00 : f16
          // expected-remark @+1 {{stream: column, computed in pass 0}}
          %12 = linalg.generic {indexing_maps = [#map1], iterator_types = ["parallel"]} outs(%11 : tensor<128xf16>) {
          ^bb0(%out: f16):
            linalg.yield %cst : f16
          } -> tensor<128xf16>
          // expected-remark @+1 {{column reduction: column, computed in pass 0}}
          %13 = linalg.generic {indexing_maps = [#map, #map2, #map3], iterator_types = ["reduction", "parallel"]} ins(%10, %9 : tensor<16x128xf16>, tensor<1x128xf16>) outs(%12 : tensor<128xf16>) {
          ^bb0(%in: f16, %in_2: f16, %out: f16):
            %16 = arith.addf %in, %in_2 : f16
            %17 = arith.addf %16, %out : f16
            linalg.yield %17 : f16
          } -> tensor<128xf16>
          %14 = tensor.empty() : tensor<1x128xf16>
          // expected-remark @+1 {{stream: column, computed in pass 0}}
          %15 = linalg.generic {indexing_maps = [#map3, #map], iterator_types = ["parallel", "parallel"]} ins(%13 : tensor<128xf16>) outs(%14 : tensor<1x128xf16>) {
          ^bb0(%in: f16, %out: f16):
            linalg.yield %in : f16
          } -> tensor<1x128xf16>
          // expected-remark @+1 {{writes column, computed in pass 0}}
          ktdf.write_to_fifo %15 to %slot_1 : tensor<1x128xf16> to !ktdf.fifo.slot<vector_compute -> DDR, 1x128xf16>
        }
        ktdf.stage "store_0" depends_in(%8) depends_out(0) applicable_units [scratchpad_store, dma_store] {
          ktdf.data_transfer %slot_1 to %5 : !ktdf.fifo.slot<vector_compute -> DDR, 1x128xf16> to !ktdp.access_tile<1x128xindex>
        }
      }
    }
    return
  }
}
