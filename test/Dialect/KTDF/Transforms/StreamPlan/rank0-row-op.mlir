// RUN: ktflow-opt %s -verify-diagnostics --ktdf-test-stream-plan

// A row's scale computed on a rank-0 tensor (RMSNorm: rsqrt of the mean
// square, from a sum of squares written as a 1x128 . 128x1 matmul and a
// tensor<1x1xf16> collapsed to tensor<f16>). Input: the mapped ScheduleIR
// of test/EndToEnd/Inputs/rmsnorm_row_dot.mlir (ktflow-opt --ktdf-mapping,
// spyre_like; device and target left out). ktdf-generalize folded the
// reshapes into indexing maps and kept the rank-0 computation out of the
// element-wise op that reads it, so it reads the one-element f32 sum
// through the constant map () -> (0): a row op known after the reduction's
// pass, computed once per row, and the stream op that reads it (classified
// before it, being full-rank) runs in the pass after, not before it.

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0) -> (d0)>
#map2 = affine_map<(d0, d1) -> (d0)>
#map3 = affine_map<() -> (0)>
#map4 = affine_map<() -> ()>
#map5 = affine_map<(d0, d1) -> ()>
#map6 = affine_map<(d0, d1) -> (d1)>
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 19 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#set1 = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#set2 = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
module {
  func.func @rms_norm_dot(%arg0: index {ktdf.tensor = tensor<20x128xf16>}, %arg1: index {ktdf.tensor = tensor<128xf16>}, %arg2: index {ktdf.tensor = tensor<20x128xf16>}, %arg3: index) attributes {grid = [4]} {
    ktdf.parallel (%arg4) in [4] {
      %c6 = arith.constant 6 : index
      %c1 = arith.constant 1 : index
      %c0 = arith.constant 0 : index
      %0 = ktdp.construct_memory_view %arg0, sizes: [20, 128], strides: [128, 1] {coordinate_set = #set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<20x128xf16>
      %1 = ktdp.construct_memory_view %arg1, sizes: [128], strides: [1] {coordinate_set = #set1, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<128xf16>
      %2 = ktdp.construct_memory_view %arg2, sizes: [20, 128], strides: [128, 1] {coordinate_set = #set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<20x128xf16>
      %3 = arith.muli %arg4, %c6 : index
      %4 = arith.addi %3, %c6 : index
      %5 = arith.cmpi slt, %4, %arg3 : index
      %6 = arith.select %5, %4, %arg3 : index
      scf.for %arg5 = %3 to %6 step %c1 {
        %7 = ktdp.construct_access_tile %0[%arg5, %c0] {access_tile_order = #map, access_tile_set = #set2} : memref<20x128xf16> -> !ktdp.access_tile<1x128xindex>
        %8 = ktdp.construct_access_tile %1[%c0] {access_tile_order = #map1, access_tile_set = #set1} : memref<128xf16> -> !ktdp.access_tile<128xindex>
        %9 = ktdp.construct_access_tile %2[%arg5, %c0] {access_tile_order = #map, access_tile_set = #set2} : memref<20x128xf16> -> !ktdp.access_tile<1x128xindex>
        ktdf.pipeline {
          %slot = ktdf.private : !ktdf.fifo.slot<DDR -> vector_compute, 1x128xf16>
          %slot_0 = ktdf.private : !ktdf.fifo.slot<DDR -> vector_compute, 128xf16>
          %slot_1 = ktdf.private : !ktdf.fifo.slot<vector_compute -> DDR, 1x128xf16>
          %10 = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load, scratchpad_load] {
            ktdf.data_transfer %7 to %slot : !ktdp.access_tile<1x128xindex> to !ktdf.fifo.slot<DDR -> vector_compute, 1x128xf16>
          }
          %11 = ktdf.stage "load_1" depends_out(1) applicable_units [dma_load, scratchpad_load] {
            ktdf.data_transfer %8 to %slot_0 : !ktdp.access_tile<128xindex> to !ktdf.fifo.slot<DDR -> vector_compute, 128xf16>
          }
          // expected-remark @+1 {{1 rows of 128 columns, 2 pass(es), row major}}
          %12 = ktdf.stage "compute" depends_in(%10, %11) depends_out(1) applicable_units [vector_compute] {
            // expected-remark @+1 {{reads tile}}
            %13 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<DDR -> vector_compute, 1x128xf16> -> tensor<1x128xf16>
            // expected-remark @+1 {{reads column}}
            %14 = ktdf.read_from_fifo %slot_0 : !ktdf.fifo.slot<DDR -> vector_compute, 128xf16> -> tensor<128xf16>
            %15 = tensor.empty() : tensor<1xf32>
            %cst = arith.constant 0.000000e+00 : f32
            // expected-remark @+1 {{row op: row, known before pass 0}}
            %16 = linalg.generic {indexing_maps = [#map1], iterator_types = ["parallel"]} outs(%15 : tensor<1xf32>) {
            ^bb0(%out: f32):
              linalg.yield %cst : f32
            } -> tensor<1xf32>
            // expected-remark @+1 {{row reduction: row, known before pass 1}}
            %17 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "reduction"]} ins(%13 : tensor<1x128xf16>) outs(%16 : tensor<1xf32>) {
            ^bb0(%in: f16, %out: f32):
              %22 = arith.extf %in : f16 to f32
              %23 = arith.mulf %22, %22 : f32
              %24 = arith.addf %23, %out : f32
              linalg.yield %24 : f32
            } -> tensor<1xf32>
            %18 = tensor.empty() : tensor<f16>
            %cst_2 = arith.constant 1.280000e+02 : f16
            %cst_3 = arith.constant 1.001360e-05 : f16
            // expected-remark @+1 {{row op: row, known before pass 1}}
            %19 = linalg.generic {indexing_maps = [#map3, #map4], iterator_types = []} ins(%17 : tensor<1xf32>) outs(%18 : tensor<f16>) {
            ^bb0(%in: f32, %out: f16):
              %22 = arith.truncf %in : f32 to f16
              %23 = arith.divf %22, %cst_2 : f16
              %24 = arith.addf %23, %cst_3 : f16
              %25 = math.rsqrt %24 : f16
              linalg.yield %25 : f16
            } -> tensor<f16>
            %20 = tensor.empty() : tensor<1x128xf16>
            // expected-remark @+1 {{stream: tile, computed in pass 1}}
            %21 = linalg.generic {indexing_maps = [#map, #map5, #map6, #map], iterator_types = ["parallel", "parallel"]} ins(%13, %19, %14 : tensor<1x128xf16>, tensor<f16>, tensor<128xf16>) outs(%20 : tensor<1x128xf16>) {
            ^bb0(%in: f16, %in_4: f16, %in_5: f16, %out: f16):
              %22 = arith.mulf %in, %in_4 : f16
              %23 = arith.mulf %22, %in_5 : f16
              linalg.yield %23 : f16
            } -> tensor<1x128xf16>
            // expected-remark @+1 {{writes tile, computed in pass 1}}
            ktdf.write_to_fifo %21 to %slot_1 : tensor<1x128xf16> to !ktdf.fifo.slot<vector_compute -> DDR, 1x128xf16>
          }
          ktdf.stage "store_0" depends_in(%12) depends_out(0) applicable_units [scratchpad_store, dma_store] {
            ktdf.data_transfer %slot_1 to %9 : !ktdf.fifo.slot<vector_compute -> DDR, 1x128xf16> to !ktdp.access_tile<1x128xindex>
          }
        }
      }
    }
    return
  }
}


