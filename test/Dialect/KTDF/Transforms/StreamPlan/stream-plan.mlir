// RUN: ktflow-opt %s -split-input-file -verify-diagnostics --ktdf-test-stream-plan

// The stream plan --ktdf-tile-streams builds for a compute stage
// (lib/Dialect/KTDF/Transforms/StreamPlan.h), reported by the test pass.
// Inputs: the mapped ScheduleIR of examples/kernels/softmax.mlir,
// broadcast_add.mlir and col_reduce.mlir (ktflow-opt --ktdf-mapping with
// sample_device as the target; the device and target are left out, the
// plan does not look at them) and of a reduction over a whole tile.
// Expected by hand:
//
// softmax, 2x128: the row maximum folds in pass 0, so it is known before
// pass 1; the sum of exp(x - max) needs it, folds in pass 1 and is known
// before pass 2; the quotient needs both: 3 passes, the output written in
// pass 2. The fills that start the two reductions depend on nothing: row
// ops known before pass 0.
//
// broadcast_add, 4x64 plus a 64-element vector read once per column: the
// vector is a column value, the sum a tile, one pass.
//
// col_reduce, 64x64: sums (in f32) and maxima down each column make the
// stage column major; their fills and the f32 -> f16 rounding of the sums
// are per-column streams; everything in one pass.
//
// A reduction over both dimensions of the tile gets the plan's own error.

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0) -> (d0)>
#map2 = affine_map<(d0, d1) -> (d0)>
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#set1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>
module {
  func.func @softmax(%arg0: index {ktdf.tensor = tensor<64x128xf16>}, %arg1: index {ktdf.tensor = tensor<64x128xf16>}) attributes {grid = [32]} {
    ktdf.parallel (%arg2) in [32] {
      %c2 = arith.constant 2 : index
      %0 = arith.muli %arg2, %c2 : index
      %1 = ktdp.construct_memory_view %arg0, sizes: [64, 128], strides: [128, 1] {coordinate_set = #set, ktdf.memory = "DDR", memory_space = #ktdp.spyre_memory_space<HBM>} : memref<64x128xf16>
      %2 = ktdp.construct_memory_view %arg1, sizes: [64, 128], strides: [128, 1] {coordinate_set = #set, ktdf.memory = "DDR", memory_space = #ktdp.spyre_memory_space<HBM>} : memref<64x128xf16>
      %3 = ktdp.construct_access_tile %1[%0, 0] {access_tile_order = #map, access_tile_set = #set1} : memref<64x128xf16> -> !ktdp.access_tile<2x128xindex>
      %4 = ktdp.construct_access_tile %2[%0, 0] {access_tile_order = #map, access_tile_set = #set1} : memref<64x128xf16> -> !ktdp.access_tile<2x128xindex>
      ktdf.pipeline {
        %slot = ktdf.private : !ktdf.fifo.slot<DDR -> vector_compute, 2x128xf16>
        %slot_0 = ktdf.private : !ktdf.fifo.slot<vector_compute -> DDR, 2x128xf16>
        %5 = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load, scratchpad_load] {
          ktdf.data_transfer %3 to %slot : !ktdp.access_tile<2x128xindex> to !ktdf.fifo.slot<DDR -> vector_compute, 2x128xf16>
        }
        // expected-remark @+1 {{2 rows of 128 columns, 3 pass(es), row major}}
        %6 = ktdf.stage "compute" depends_in(%5) depends_out(1) applicable_units [vector_compute] {
          // expected-remark @+1 {{reads tile}}
          %7 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<DDR -> vector_compute, 2x128xf16> -> tensor<2x128xf16>
          %8 = tensor.empty() : tensor<2xf32>
          %cst = arith.constant 0xFF800000 : f32
          // expected-remark @+1 {{row op: row, known before pass 0}}
          %9 = linalg.generic {indexing_maps = [#map1], iterator_types = ["parallel"]} outs(%8 : tensor<2xf32>) {
          ^bb0(%out: f32):
            linalg.yield %cst : f32
          } -> tensor<2xf32>
          // expected-remark @+1 {{row reduction: row, known before pass 1}}
          %10 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "reduction"]} ins(%7 : tensor<2x128xf16>) outs(%9 : tensor<2xf32>) {
          ^bb0(%in: f16, %out: f32):
            %15 = arith.extf %in : f16 to f32
            %16 = arith.maximumf %15, %out : f32
            linalg.yield %16 : f32
          } -> tensor<2xf32>
          %cst_1 = arith.constant 0.000000e+00 : f32
          // expected-remark @+1 {{row op: row, known before pass 0}}
          %11 = linalg.generic {indexing_maps = [#map1], iterator_types = ["parallel"]} outs(%8 : tensor<2xf32>) {
          ^bb0(%out: f32):
            linalg.yield %cst_1 : f32
          } -> tensor<2xf32>
          // expected-remark @+1 {{row reduction: row, known before pass 2}}
          %12 = linalg.generic {indexing_maps = [#map, #map2, #map2], iterator_types = ["parallel", "reduction"]} ins(%7, %10 : tensor<2x128xf16>, tensor<2xf32>) outs(%11 : tensor<2xf32>) {
          ^bb0(%in: f16, %in_2: f32, %out: f32):
            %15 = arith.extf %in : f16 to f32
            %16 = arith.subf %15, %in_2 : f32
            %17 = math.exp %16 : f32
            %18 = arith.addf %17, %out : f32
            linalg.yield %18 : f32
          } -> tensor<2xf32>
          %13 = tensor.empty() : tensor<2x128xf16>
          // expected-remark @+1 {{stream: tile, computed in pass 2}}
          %14 = linalg.generic {indexing_maps = [#map, #map2, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%7, %10, %12 : tensor<2x128xf16>, tensor<2xf32>, tensor<2xf32>) outs(%13 : tensor<2x128xf16>) {
          ^bb0(%in: f16, %in_2: f32, %in_3: f32, %out: f16):
            %15 = arith.extf %in : f16 to f32
            %16 = arith.subf %15, %in_2 : f32
            %17 = math.exp %16 : f32
            %18 = arith.divf %17, %in_3 : f32
            %19 = arith.truncf %18 : f32 to f16
            linalg.yield %19 : f16
          } -> tensor<2x128xf16>
          // expected-remark @+1 {{writes tile, computed in pass 2}}
          ktdf.write_to_fifo %14 to %slot_0 : tensor<2x128xf16> to !ktdf.fifo.slot<vector_compute -> DDR, 2x128xf16>
        }
        ktdf.stage "store_0" depends_in(%6) depends_out(0) applicable_units [scratchpad_store, dma_store] {
          ktdf.data_transfer %slot_0 to %4 : !ktdf.fifo.slot<vector_compute -> DDR, 2x128xf16> to !ktdp.access_tile<2x128xindex>
        }
      }
    }
    return
  }
}


// -----

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0) -> (d0)>
#map2 = affine_map<(d0, d1) -> (d1)>
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#set1 = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#set2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
module {
  func.func @broadcast_add(%arg0: index {ktdf.tensor = tensor<128x64xf16>}, %arg1: index {ktdf.tensor = tensor<64xf16>}, %arg2: index {ktdf.tensor = tensor<128x64xf16>}) attributes {grid = [32]} {
    ktdf.parallel (%arg3) in [32] {
      %c4 = arith.constant 4 : index
      %0 = arith.muli %arg3, %c4 : index
      %1 = ktdp.construct_memory_view %arg0, sizes: [128, 64], strides: [64, 1] {coordinate_set = #set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
      %2 = ktdp.construct_memory_view %arg1, sizes: [64], strides: [1] {coordinate_set = #set1, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64xf16>
      %3 = ktdp.construct_memory_view %arg2, sizes: [128, 64], strides: [64, 1] {coordinate_set = #set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
      %4 = ktdp.construct_access_tile %1[%0, 0] {access_tile_order = #map, access_tile_set = #set2} : memref<128x64xf16> -> !ktdp.access_tile<4x64xindex>
      %5 = ktdp.construct_access_tile %2[0] {access_tile_order = #map1, access_tile_set = #set1} : memref<64xf16> -> !ktdp.access_tile<64xindex>
      %6 = ktdp.construct_access_tile %3[%0, 0] {access_tile_order = #map, access_tile_set = #set2} : memref<128x64xf16> -> !ktdp.access_tile<4x64xindex>
      ktdf.pipeline {
        %slot = ktdf.private : !ktdf.fifo.slot<DDR -> vector_compute, 4x64xf16>
        %slot_0 = ktdf.private : !ktdf.fifo.slot<DDR -> vector_compute, 64xf16>
        %slot_1 = ktdf.private : !ktdf.fifo.slot<vector_compute -> DDR, 4x64xf16>
        %7 = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load, scratchpad_load] {
          ktdf.data_transfer %4 to %slot : !ktdp.access_tile<4x64xindex> to !ktdf.fifo.slot<DDR -> vector_compute, 4x64xf16>
        }
        %8 = ktdf.stage "load_1" depends_out(1) applicable_units [dma_load, scratchpad_load] {
          ktdf.data_transfer %5 to %slot_0 : !ktdp.access_tile<64xindex> to !ktdf.fifo.slot<DDR -> vector_compute, 64xf16>
        }
        // expected-remark @+1 {{4 rows of 64 columns, 1 pass(es), row major}}
        %9 = ktdf.stage "compute" depends_in(%7, %8) depends_out(1) applicable_units [vector_compute] {
          // expected-remark @+1 {{reads tile}}
          %10 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<DDR -> vector_compute, 4x64xf16> -> tensor<4x64xf16>
          // expected-remark @+1 {{reads column}}
          %11 = ktdf.read_from_fifo %slot_0 : !ktdf.fifo.slot<DDR -> vector_compute, 64xf16> -> tensor<64xf16>
          %12 = tensor.empty() : tensor<4x64xf16>
          // expected-remark @+1 {{stream: tile, computed in pass 0}}
          %13 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%10, %11 : tensor<4x64xf16>, tensor<64xf16>) outs(%12 : tensor<4x64xf16>) {
          ^bb0(%in: f16, %in_2: f16, %out: f16):
            %14 = arith.addf %in, %in_2 : f16
            linalg.yield %14 : f16
          } -> tensor<4x64xf16>
          // expected-remark @+1 {{writes tile, computed in pass 0}}
          ktdf.write_to_fifo %13 to %slot_1 : tensor<4x64xf16> to !ktdf.fifo.slot<vector_compute -> DDR, 4x64xf16>
        }
        ktdf.stage "store_0" depends_in(%9) depends_out(0) applicable_units [scratchpad_store, dma_store] {
          ktdf.data_transfer %slot_1 to %6 : !ktdf.fifo.slot<vector_compute -> DDR, 4x64xf16> to !ktdp.access_tile<4x64xindex>
        }
      }
    }
    return
  }
}


// -----

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0) -> (d0)>
#map2 = affine_map<(d0, d1) -> (d1)>
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#set1 = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#set2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#set3 = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
module {
  func.func @col_reduce(%arg0: index {ktdf.tensor = tensor<64x256xf16>}, %arg1: index {ktdf.tensor = tensor<256xf16>}, %arg2: index {ktdf.tensor = tensor<256xf16>}) attributes {grid = [4]} {
    ktdf.parallel (%arg3) in [4] {
      %c64 = arith.constant 64 : index
      %0 = arith.muli %arg3, %c64 : index
      %1 = ktdp.construct_memory_view %arg0, sizes: [64, 256], strides: [256, 1] {coordinate_set = #set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
      %2 = ktdp.construct_memory_view %arg1, sizes: [256], strides: [1] {coordinate_set = #set1, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<256xf16>
      %3 = ktdp.construct_memory_view %arg2, sizes: [256], strides: [1] {coordinate_set = #set1, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<256xf16>
      %4 = ktdp.construct_access_tile %1[0, %0] {access_tile_order = #map, access_tile_set = #set2} : memref<64x256xf16> -> !ktdp.access_tile<64x64xindex>
      %5 = ktdp.construct_access_tile %2[%0] {access_tile_order = #map1, access_tile_set = #set3} : memref<256xf16> -> !ktdp.access_tile<64xindex>
      %6 = ktdp.construct_access_tile %3[%0] {access_tile_order = #map1, access_tile_set = #set3} : memref<256xf16> -> !ktdp.access_tile<64xindex>
      ktdf.pipeline {
        %slot = ktdf.private : !ktdf.fifo.slot<DDR -> vector_compute, 64x64xf16>
        %slot_0 = ktdf.private : !ktdf.fifo.slot<vector_compute -> DDR, 64xf16>
        %slot_1 = ktdf.private : !ktdf.fifo.slot<vector_compute -> DDR, 64xf16>
        %7 = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load, scratchpad_load] {
          ktdf.data_transfer %4 to %slot : !ktdp.access_tile<64x64xindex> to !ktdf.fifo.slot<DDR -> vector_compute, 64x64xf16>
        }
        // expected-remark @+1 {{64 rows of 64 columns, 1 pass(es), column major}}
        %8 = ktdf.stage "compute" depends_in(%7) depends_out(1) applicable_units [vector_compute] {
          // expected-remark @+1 {{reads tile}}
          %9 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<DDR -> vector_compute, 64x64xf16> -> tensor<64x64xf16>
          %10 = tensor.empty() : tensor<64xf32>
          %cst = arith.constant 0.000000e+00 : f32
          // expected-remark @+1 {{stream: column, computed in pass 0}}
          %11 = linalg.generic {indexing_maps = [#map1], iterator_types = ["parallel"]} outs(%10 : tensor<64xf32>) {
          ^bb0(%out: f32):
            linalg.yield %cst : f32
          } -> tensor<64xf32>
          %12 = tensor.empty() : tensor<64xf16>
          %cst_2 = arith.constant 0xFC00 : f16
          // expected-remark @+1 {{stream: column, computed in pass 0}}
          %13 = linalg.generic {indexing_maps = [#map1], iterator_types = ["parallel"]} outs(%12 : tensor<64xf16>) {
          ^bb0(%out: f16):
            linalg.yield %cst_2 : f16
          } -> tensor<64xf16>
          // expected-remark @+1 {{column reduction: column, computed in pass 0}}
          %14 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["reduction", "parallel"]} ins(%9 : tensor<64x64xf16>) outs(%11 : tensor<64xf32>) {
          ^bb0(%in: f16, %out: f32):
            %18 = arith.extf %in : f16 to f32
            %19 = arith.addf %18, %out : f32
            linalg.yield %19 : f32
          } -> tensor<64xf32>
          // expected-remark @+1 {{column reduction: column, computed in pass 0}}
          %15 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["reduction", "parallel"]} ins(%9 : tensor<64x64xf16>) outs(%13 : tensor<64xf16>) {
          ^bb0(%in: f16, %out: f16):
            %18 = arith.maximumf %in, %out : f16
            linalg.yield %18 : f16
          } -> tensor<64xf16>
          %16 = tensor.empty() : tensor<64xf16>
          // expected-remark @+1 {{stream: column, computed in pass 0}}
          %17 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%14 : tensor<64xf32>) outs(%16 : tensor<64xf16>) {
          ^bb0(%in: f32, %out: f16):
            %18 = arith.truncf %in : f32 to f16
            linalg.yield %18 : f16
          } -> tensor<64xf16>
          // expected-remark @+1 {{writes column, computed in pass 0}}
          ktdf.write_to_fifo %17 to %slot_0 : tensor<64xf16> to !ktdf.fifo.slot<vector_compute -> DDR, 64xf16>
          // expected-remark @+1 {{writes column, computed in pass 0}}
          ktdf.write_to_fifo %15 to %slot_1 : tensor<64xf16> to !ktdf.fifo.slot<vector_compute -> DDR, 64xf16>
        }
        ktdf.stage "store_0" depends_in(%8) depends_out(0) applicable_units [scratchpad_store, dma_store] {
          ktdf.data_transfer %slot_0 to %5 : !ktdf.fifo.slot<vector_compute -> DDR, 64xf16> to !ktdp.access_tile<64xindex>
        }
        ktdf.stage "store_1" depends_in(%8) depends_out(0) applicable_units [scratchpad_store, dma_store] {
          ktdf.data_transfer %slot_1 to %6 : !ktdf.fifo.slot<vector_compute -> DDR, 64xf16> to !ktdp.access_tile<64xindex>
        }
      }
    }
    return
  }
}


// -----

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<() -> ()>
#map2 = affine_map<(d0, d1) -> ()>
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#set1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
module {
  func.func @total(%arg0: index {ktdf.tensor = tensor<64x64xf16>}, %arg1: index {ktdf.tensor = tensor<64x64xf16>}) attributes {grid = [1]} {
    ktdf.parallel (%arg2) in [1] {
      %0 = ktdp.construct_memory_view %arg0, sizes: [64, 64], strides: [64, 1] {coordinate_set = #set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
      %1 = ktdp.construct_memory_view %arg1, sizes: [64, 64], strides: [64, 1] {coordinate_set = #set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
      %2 = ktdp.construct_access_tile %0[0, 0] {access_tile_order = #map, access_tile_set = #set1} : memref<64x64xf16> -> !ktdp.access_tile<8x64xindex>
      %3 = ktdp.construct_access_tile %1[0, 0] {access_tile_order = #map, access_tile_set = #set1} : memref<64x64xf16> -> !ktdp.access_tile<8x64xindex>
      ktdf.pipeline {
        %slot = ktdf.private : !ktdf.fifo.slot<DDR -> vector_compute, 8x64xf16>
        %slot_0 = ktdf.private : !ktdf.fifo.slot<vector_compute -> DDR, 8x64xf16>
        %4 = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load, scratchpad_load] {
          ktdf.data_transfer %2 to %slot : !ktdp.access_tile<8x64xindex> to !ktdf.fifo.slot<DDR -> vector_compute, 8x64xf16>
        }
        %5 = ktdf.stage "compute" depends_in(%4) depends_out(1) applicable_units [vector_compute] {
          %6 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<DDR -> vector_compute, 8x64xf16> -> tensor<8x64xf16>
          %7 = tensor.empty() : tensor<f16>
          %cst = arith.constant 0.000000e+00 : f16
          %8 = linalg.generic {indexing_maps = [#map1], iterator_types = []} outs(%7 : tensor<f16>) {
          ^bb0(%out: f16):
            linalg.yield %cst : f16
          } -> tensor<f16>
          // expected-error @+1 {{reductions over both rows and columns of a tile, or over only some of its rows, are not supported yet}}
          %9 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["reduction", "reduction"]} ins(%6 : tensor<8x64xf16>) outs(%8 : tensor<f16>) {
          ^bb0(%in: f16, %out: f16):
            %12 = arith.addf %in, %out : f16
            linalg.yield %12 : f16
          } -> tensor<f16>
          %10 = tensor.empty() : tensor<8x64xf16>
          %11 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%6, %9 : tensor<8x64xf16>, tensor<f16>) outs(%10 : tensor<8x64xf16>) {
          ^bb0(%in: f16, %in_1: f16, %out: f16):
            %12 = arith.subf %in, %in_1 : f16
            linalg.yield %12 : f16
          } -> tensor<8x64xf16>
          ktdf.write_to_fifo %11 to %slot_0 : tensor<8x64xf16> to !ktdf.fifo.slot<vector_compute -> DDR, 8x64xf16>
        }
        ktdf.stage "store_0" depends_in(%5) depends_out(0) applicable_units [scratchpad_store, dma_store] {
          ktdf.data_transfer %slot_0 to %3 : !ktdf.fifo.slot<vector_compute -> DDR, 8x64xf16> to !ktdp.access_tile<8x64xindex>
        }
      }
    }
    return
  }
}

