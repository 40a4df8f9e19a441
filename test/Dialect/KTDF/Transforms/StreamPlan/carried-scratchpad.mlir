// RUN: ktflow-opt %s -verify-diagnostics --ktdf-test-stream-plan

// examples/kernels/realworld/row_center_dyn.mlir after ktflow-opt
// --ktdf-mapping on spyre_like (device and target left out): its column
// loop carries the row's running sum in a scratchpad view
// (ktdf-carry-in-scratchpad). The pipeline before the loop only writes the
// initial value, a splat constant: a whole tile of equal elements, written
// in pass 0. The one after it reduces the carried sum and writes the row's
// mean, a row op on rank-0 tensors that nothing else in the stage reads,
// once per row.

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0) -> (d0)>
#map2 = affine_map<(d0, d1) -> (d0)>
#map3 = affine_map<() -> (0)>
#map4 = affine_map<() -> ()>
#map5 = affine_map<(d0) -> ()>
#map6 = affine_map<(d0, d1) -> ()>
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#set1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#set2 = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#set3 = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#set4 = affine_set<(d0) : (d0 == 0)>
module {
  func.func @row_center_kernel(%arg0: index {ktdf.tensor = tensor<64x1024xf16>}, %arg1: index {ktdf.tensor = tensor<64x1024xf16>}, %arg2: index {ktdf.tensor = tensor<64xf16>}, %arg3: index, %arg4: index) attributes {grid = [16, 1]} {
    ktdf.parallel (%arg5, %arg6) in [16, 1] {
      %cst = arith.constant dense<0.000000e+00> : tensor<1x128xf16>
      %c128 = arith.constant 128 : index
      %c1024 = arith.constant 1024 : index
      %c16 = arith.constant 16 : index
      %c0 = arith.constant 0 : index
      %0 = ktdp.construct_memory_view %c0, sizes: [1, 128], strides: [128, 1] {coordinate_set = #set, ktdf.carried, ktdf.memory = "LX", memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<1x128xf16, #ktdp.memory_space<ct_local, ct_id = 0>>
      %1 = ktdp.construct_access_tile %0[0, 0] {access_tile_order = #map, access_tile_set = #set} : memref<1x128xf16, #ktdp.memory_space<ct_local, ct_id = 0>> -> !ktdp.access_tile<1x128xindex>
      %2 = arith.minsi %arg4, %c1024 : index
      %3 = arith.index_cast %arg4 : index to i32
      %4 = ktdp.construct_memory_view %arg0, sizes: [64, 1024], strides: [1024, 1] {coordinate_set = #set1, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64x1024xf16>
      %5 = ktdp.construct_memory_view %arg1, sizes: [64, 1024], strides: [1024, 1] {coordinate_set = #set1, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64x1024xf16>
      %6 = ktdp.construct_memory_view %arg2, sizes: [64], strides: [1] {coordinate_set = #set2, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64xf16>
      scf.for %arg7 = %arg5 to %arg3 step %c16 {
        %7 = arith.sitofp %3 : i32 to f16
        ktdf.pipeline {
          %slot = ktdf.private : !ktdf.fifo.slot<vector_compute -> LX, 1x128xf16>
          // expected-remark @+1 {{1 rows of 128 columns, 1 pass(es), row major}}
          %9 = ktdf.stage "compute" depends_out(1) applicable_units [vector_compute] {
            // expected-remark @+1 {{writes tile, computed in pass 0}}
            ktdf.write_to_fifo %cst to %slot : tensor<1x128xf16> to !ktdf.fifo.slot<vector_compute -> LX, 1x128xf16>
          }
          ktdf.stage "store_0" depends_in(%9) depends_out(0) applicable_units [scratchpad_store, dma_store] {
            ktdf.data_transfer %slot to %1 : !ktdf.fifo.slot<vector_compute -> LX, 1x128xf16> to !ktdp.access_tile<1x128xindex>
          }
        }
        scf.for %arg8 = %c0 to %2 step %c128 {
          %9 = ktdp.construct_access_tile %4[%arg7, %arg8] {access_tile_order = #map, access_tile_set = #set3} : memref<64x1024xf16> -> !ktdp.access_tile<1x128xindex>
          ktdf.pipeline {
            %slot = ktdf.private : !ktdf.fifo.slot<LX -> vector_compute, 1x128xf16>
            %slot_0 = ktdf.private : !ktdf.fifo.slot<DDR -> vector_compute, 1x128xf16>
            %slot_1 = ktdf.private : !ktdf.fifo.slot<vector_compute -> LX, 1x128xf16>
            %10 = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load, scratchpad_load] {
              ktdf.data_transfer %1 to %slot : !ktdp.access_tile<1x128xindex> to !ktdf.fifo.slot<LX -> vector_compute, 1x128xf16>
            }
            %11 = ktdf.stage "load_1" depends_out(1) applicable_units [dma_load, scratchpad_load] {
              ktdf.data_transfer %9 to %slot_0 : !ktdp.access_tile<1x128xindex> to !ktdf.fifo.slot<DDR -> vector_compute, 1x128xf16>
            }
            // expected-remark @+1 {{1 rows of 128 columns, 1 pass(es), row major}}
            %12 = ktdf.stage "compute" depends_in(%10, %11) depends_out(1) applicable_units [vector_compute] {
              // expected-remark @+1 {{reads tile}}
              %13 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<LX -> vector_compute, 1x128xf16> -> tensor<1x128xf16>
              // expected-remark @+1 {{reads tile}}
              %14 = ktdf.read_from_fifo %slot_0 : !ktdf.fifo.slot<DDR -> vector_compute, 1x128xf16> -> tensor<1x128xf16>
              %15 = tensor.empty() : tensor<1x128xf16>
              // expected-remark @+1 {{stream: tile, computed in pass 0}}
              %16 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%13, %14 : tensor<1x128xf16>, tensor<1x128xf16>) outs(%15 : tensor<1x128xf16>) {
              ^bb0(%in: f16, %in_2: f16, %out: f16):
                %17 = arith.addf %in, %in_2 : f16
                linalg.yield %17 : f16
              } -> tensor<1x128xf16>
              // expected-remark @+1 {{writes tile, computed in pass 0}}
              ktdf.write_to_fifo %16 to %slot_1 : tensor<1x128xf16> to !ktdf.fifo.slot<vector_compute -> LX, 1x128xf16>
            }
            ktdf.stage "store_0" depends_in(%12) depends_out(0) applicable_units [scratchpad_store, dma_store] {
              ktdf.data_transfer %slot_1 to %1 : !ktdf.fifo.slot<vector_compute -> LX, 1x128xf16> to !ktdp.access_tile<1x128xindex>
            }
          }
        }
        %8 = ktdp.construct_access_tile %6[%arg7] {access_tile_order = #map1, access_tile_set = #set4} : memref<64xf16> -> !ktdp.access_tile<1xindex>
        ktdf.pipeline {
          %slot = ktdf.private : !ktdf.fifo.slot<LX -> vector_compute, 1x128xf16>
          %slot_0 = ktdf.private : !ktdf.fifo.slot<vector_compute -> DDR, 1xf16>
          %9 = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load, scratchpad_load] {
            ktdf.data_transfer %1 to %slot : !ktdp.access_tile<1x128xindex> to !ktdf.fifo.slot<LX -> vector_compute, 1x128xf16>
          }
          // expected-remark @+1 {{1 rows of 128 columns, 1 pass(es), row major}}
          %10 = ktdf.stage "compute" depends_in(%9) depends_out(1) applicable_units [vector_compute] {
            // expected-remark @+1 {{reads tile}}
            %11 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<LX -> vector_compute, 1x128xf16> -> tensor<1x128xf16>
            %cst_1 = arith.constant dense<0.000000e+00> : tensor<1xf16>
            // expected-remark @+1 {{row reduction: row, known before pass 1}}
            %12 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "reduction"]} ins(%11 : tensor<1x128xf16>) outs(%cst_1 : tensor<1xf16>) {
            ^bb0(%in: f16, %out: f16):
              %17 = arith.addf %in, %out : f16
              linalg.yield %17 : f16
            } -> tensor<1xf16>
            %13 = tensor.empty() : tensor<f16>
            // expected-remark @+1 {{row op: row, known before pass 1}}
            %14 = linalg.generic {indexing_maps = [#map3, #map4], iterator_types = []} ins(%12 : tensor<1xf16>) outs(%13 : tensor<f16>) {
            ^bb0(%in: f16, %out: f16):
              %17 = arith.divf %in, %7 : f16
              linalg.yield %17 : f16
            } -> tensor<f16>
            %15 = tensor.empty() : tensor<1xf16>
            // expected-remark @+1 {{row op: row, known before pass 1}}
            %16 = linalg.generic {indexing_maps = [#map5, #map1], iterator_types = ["parallel"]} ins(%14 : tensor<f16>) outs(%15 : tensor<1xf16>) {
            ^bb0(%in: f16, %out: f16):
              linalg.yield %in : f16
            } -> tensor<1xf16>
            // expected-remark @+1 {{writes row, known before pass 1}}
            ktdf.write_to_fifo %16 to %slot_0 : tensor<1xf16> to !ktdf.fifo.slot<vector_compute -> DDR, 1xf16>
          }
          ktdf.stage "store_0" depends_in(%10) depends_out(0) applicable_units [scratchpad_store, dma_store] {
            ktdf.data_transfer %slot_0 to %8 : !ktdf.fifo.slot<vector_compute -> DDR, 1xf16> to !ktdp.access_tile<1xindex>
          }
        }
        scf.for %arg8 = %c0 to %2 step %c128 {
          %9 = arith.sitofp %3 : i32 to f16
          %10 = ktdp.construct_access_tile %4[%arg7, %arg8] {access_tile_order = #map, access_tile_set = #set3} : memref<64x1024xf16> -> !ktdp.access_tile<1x128xindex>
          %11 = ktdp.construct_access_tile %5[%arg7, %arg8] {access_tile_order = #map, access_tile_set = #set3} : memref<64x1024xf16> -> !ktdp.access_tile<1x128xindex>
          ktdf.pipeline {
            %slot = ktdf.private : !ktdf.fifo.slot<LX -> vector_compute, 1x128xf16>
            %slot_0 = ktdf.private : !ktdf.fifo.slot<DDR -> vector_compute, 1x128xf16>
            %slot_1 = ktdf.private : !ktdf.fifo.slot<vector_compute -> DDR, 1x128xf16>
            %12 = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load, scratchpad_load] {
              ktdf.data_transfer %1 to %slot : !ktdp.access_tile<1x128xindex> to !ktdf.fifo.slot<LX -> vector_compute, 1x128xf16>
            }
            %13 = ktdf.stage "load_1" depends_out(1) applicable_units [dma_load, scratchpad_load] {
              ktdf.data_transfer %10 to %slot_0 : !ktdp.access_tile<1x128xindex> to !ktdf.fifo.slot<DDR -> vector_compute, 1x128xf16>
            }
            // expected-remark @+1 {{1 rows of 128 columns, 2 pass(es), row major}}
            %14 = ktdf.stage "compute" depends_in(%12, %13) depends_out(1) applicable_units [vector_compute] {
              // expected-remark @+1 {{reads tile}}
              %15 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<LX -> vector_compute, 1x128xf16> -> tensor<1x128xf16>
              // expected-remark @+1 {{reads tile}}
              %16 = ktdf.read_from_fifo %slot_0 : !ktdf.fifo.slot<DDR -> vector_compute, 1x128xf16> -> tensor<1x128xf16>
              %cst_2 = arith.constant dense<0.000000e+00> : tensor<1xf16>
              // expected-remark @+1 {{row reduction: row, known before pass 1}}
              %17 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "reduction"]} ins(%15 : tensor<1x128xf16>) outs(%cst_2 : tensor<1xf16>) {
              ^bb0(%in: f16, %out: f16):
                %22 = arith.addf %in, %out : f16
                linalg.yield %22 : f16
              } -> tensor<1xf16>
              %18 = tensor.empty() : tensor<f16>
              // expected-remark @+1 {{row op: row, known before pass 1}}
              %19 = linalg.generic {indexing_maps = [#map3, #map4], iterator_types = []} ins(%17 : tensor<1xf16>) outs(%18 : tensor<f16>) {
              ^bb0(%in: f16, %out: f16):
                %22 = arith.divf %in, %9 : f16
                linalg.yield %22 : f16
              } -> tensor<f16>
              %20 = tensor.empty() : tensor<1x128xf16>
              // expected-remark @+1 {{stream: tile, computed in pass 1}}
              %21 = linalg.generic {indexing_maps = [#map, #map6, #map], iterator_types = ["parallel", "parallel"]} ins(%16, %19 : tensor<1x128xf16>, tensor<f16>) outs(%20 : tensor<1x128xf16>) {
              ^bb0(%in: f16, %in_3: f16, %out: f16):
                %22 = arith.subf %in, %in_3 : f16
                linalg.yield %22 : f16
              } -> tensor<1x128xf16>
              // expected-remark @+1 {{writes tile, computed in pass 1}}
              ktdf.write_to_fifo %21 to %slot_1 : tensor<1x128xf16> to !ktdf.fifo.slot<vector_compute -> DDR, 1x128xf16>
            }
            ktdf.stage "store_0" depends_in(%14) depends_out(0) applicable_units [scratchpad_store, dma_store] {
              ktdf.data_transfer %slot_1 to %11 : !ktdf.fifo.slot<vector_compute -> DDR, 1x128xf16> to !ktdp.access_tile<1x128xindex>
            }
          }
        }
      }
    }
    return
  }
}

