// RUN: ktflow-opt %s -verify-diagnostics --ktdf-test-stream-plan

// A layernorm whose row fits one block (test/EndToEnd/Inputs/
// layernorm_one_block.mlir; ktflow-opt --ktdf-mapping on sample_device,
// device and target left out): its mean and rstd are scalar arithmetic on
// the row's sums, which ktdf-generalize computed on rank-0 tensors (row
// ops, known before the pass after their reduction), and each is also
// splat into the tensor<1xf16> stored per row: a one-loop copy of a row
// value over a one-row tile, itself a row value, written once per row.

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0) -> (d0)>
#map2 = affine_map<(d0, d1) -> (d0)>
#map3 = affine_map<() -> (0)>
#map4 = affine_map<() -> ()>
#map5 = affine_map<(d0, d1) -> ()>
#map6 = affine_map<(d0, d1) -> (d1)>
#map7 = affine_map<(d0) -> ()>
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 20 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#set1 = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#set2 = affine_set<(d0) : (d0 >= 0, -d0 + 20 >= 0)>
#set3 = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 255 >= 0)>
#set4 = affine_set<(d0) : (d0 == 0)>
module {
  func.func @layer_norm_fwd(%arg0: index {ktdf.tensor = tensor<21x256xf16>}, %arg1: index {ktdf.tensor = tensor<21x256xf16>}, %arg2: index {ktdf.tensor = tensor<256xf16>}, %arg3: index {ktdf.tensor = tensor<256xf16>}, %arg4: index {ktdf.tensor = tensor<21xf16>}, %arg5: index {ktdf.tensor = tensor<21xf16>}, %arg6: index, %arg7: index, %arg8: f16) attributes {grid = [4, 1]} {
    ktdf.parallel (%arg9, %arg10) in [4, 1] {
      %c4 = arith.constant 4 : index
      %c0 = arith.constant 0 : index
      %0 = arith.index_cast %arg7 : index to i32
      %1 = arith.sitofp %0 : i32 to f16
      %2 = ktdp.construct_memory_view %arg0, sizes: [21, 256], strides: [256, 1] {coordinate_set = #set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<21x256xf16>
      %3 = ktdp.construct_memory_view %arg1, sizes: [21, 256], strides: [256, 1] {coordinate_set = #set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<21x256xf16>
      %4 = ktdp.construct_memory_view %arg2, sizes: [256], strides: [1] {coordinate_set = #set1, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<256xf16>
      %5 = ktdp.construct_memory_view %arg3, sizes: [256], strides: [1] {coordinate_set = #set1, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<256xf16>
      %6 = ktdp.construct_memory_view %arg4, sizes: [21], strides: [1] {coordinate_set = #set2, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<21xf16>
      %7 = ktdp.construct_memory_view %arg5, sizes: [21], strides: [1] {coordinate_set = #set2, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<21xf16>
      scf.for %arg11 = %arg9 to %arg6 step %c4 {
        %8 = ktdp.construct_access_tile %2[%arg11, %c0] {access_tile_order = #map, access_tile_set = #set3} : memref<21x256xf16> -> !ktdp.access_tile<1x256xindex>
        %9 = ktdp.construct_access_tile %4[%c0] {access_tile_order = #map1, access_tile_set = #set1} : memref<256xf16> -> !ktdp.access_tile<256xindex>
        %10 = ktdp.construct_access_tile %5[%c0] {access_tile_order = #map1, access_tile_set = #set1} : memref<256xf16> -> !ktdp.access_tile<256xindex>
        %11 = ktdp.construct_access_tile %3[%arg11, %c0] {access_tile_order = #map, access_tile_set = #set3} : memref<21x256xf16> -> !ktdp.access_tile<1x256xindex>
        %12 = ktdp.construct_access_tile %6[%arg11] {access_tile_order = #map1, access_tile_set = #set4} : memref<21xf16> -> !ktdp.access_tile<1xindex>
        %13 = ktdp.construct_access_tile %7[%arg11] {access_tile_order = #map1, access_tile_set = #set4} : memref<21xf16> -> !ktdp.access_tile<1xindex>
        ktdf.pipeline {
          %slot = ktdf.private : !ktdf.fifo.slot<DDR -> vector_compute, 1x256xf16>
          %slot_0 = ktdf.private : !ktdf.fifo.slot<DDR -> vector_compute, 256xf16>
          %slot_1 = ktdf.private : !ktdf.fifo.slot<DDR -> vector_compute, 256xf16>
          %slot_2 = ktdf.private : !ktdf.fifo.slot<vector_compute -> DDR, 1x256xf16>
          %slot_3 = ktdf.private : !ktdf.fifo.slot<vector_compute -> DDR, 1xf16>
          %slot_4 = ktdf.private : !ktdf.fifo.slot<vector_compute -> DDR, 1xf16>
          %14 = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load, scratchpad_load] {
            ktdf.data_transfer %8 to %slot : !ktdp.access_tile<1x256xindex> to !ktdf.fifo.slot<DDR -> vector_compute, 1x256xf16>
          }
          %15 = ktdf.stage "load_1" depends_out(1) applicable_units [dma_load, scratchpad_load] {
            ktdf.data_transfer %9 to %slot_0 : !ktdp.access_tile<256xindex> to !ktdf.fifo.slot<DDR -> vector_compute, 256xf16>
          }
          %16 = ktdf.stage "load_2" depends_out(1) applicable_units [dma_load, scratchpad_load] {
            ktdf.data_transfer %10 to %slot_1 : !ktdp.access_tile<256xindex> to !ktdf.fifo.slot<DDR -> vector_compute, 256xf16>
          }
          // expected-remark @+1 {{1 rows of 256 columns, 3 pass(es), row major}}
          %17 = ktdf.stage "compute" depends_in(%14, %15, %16) depends_out(1) applicable_units [vector_compute] {
            // expected-remark @+1 {{reads tile}}
            %18 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<DDR -> vector_compute, 1x256xf16> -> tensor<1x256xf16>
            // expected-remark @+1 {{reads column}}
            %19 = ktdf.read_from_fifo %slot_0 : !ktdf.fifo.slot<DDR -> vector_compute, 256xf16> -> tensor<256xf16>
            // expected-remark @+1 {{reads column}}
            %20 = ktdf.read_from_fifo %slot_1 : !ktdf.fifo.slot<DDR -> vector_compute, 256xf16> -> tensor<256xf16>
            %cst = arith.constant dense<0.000000e+00> : tensor<1xf16>
            // expected-remark @+1 {{row reduction: row, known before pass 1}}
            %21 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "reduction"]} ins(%18 : tensor<1x256xf16>) outs(%cst : tensor<1xf16>) {
            ^bb0(%in: f16, %out: f16):
              %33 = arith.addf %in, %out : f16
              linalg.yield %33 : f16
            } -> tensor<1xf16>
            %22 = tensor.empty() : tensor<f16>
            // expected-remark @+1 {{row op: row, known before pass 1}}
            %23 = linalg.generic {indexing_maps = [#map3, #map4], iterator_types = []} ins(%21 : tensor<1xf16>) outs(%22 : tensor<f16>) {
            ^bb0(%in: f16, %out: f16):
              %33 = arith.divf %in, %1 : f16
              linalg.yield %33 : f16
            } -> tensor<f16>
            // expected-remark @+1 {{row reduction: row, known before pass 2}}
            %24 = linalg.generic {indexing_maps = [#map, #map5, #map2], iterator_types = ["parallel", "reduction"]} ins(%18, %23 : tensor<1x256xf16>, tensor<f16>) outs(%cst : tensor<1xf16>) {
            ^bb0(%in: f16, %in_5: f16, %out: f16):
              %33 = arith.subf %in, %in_5 : f16
              %34 = arith.mulf %33, %33 : f16
              %35 = arith.addf %34, %out : f16
              linalg.yield %35 : f16
            } -> tensor<1xf16>
            %25 = tensor.empty() : tensor<f16>
            // expected-remark @+1 {{row op: row, known before pass 2}}
            %26 = linalg.generic {indexing_maps = [#map3, #map4], iterator_types = []} ins(%24 : tensor<1xf16>) outs(%25 : tensor<f16>) {
            ^bb0(%in: f16, %out: f16):
              %33 = arith.divf %in, %1 : f16
              %34 = arith.addf %33, %arg8 : f16
              %35 = math.rsqrt %34 : f16
              linalg.yield %35 : f16
            } -> tensor<f16>
            %27 = tensor.empty() : tensor<1x256xf16>
            // expected-remark @+1 {{stream: tile, computed in pass 2}}
            %28 = linalg.generic {indexing_maps = [#map, #map5, #map5, #map6, #map6, #map], iterator_types = ["parallel", "parallel"]} ins(%18, %23, %26, %19, %20 : tensor<1x256xf16>, tensor<f16>, tensor<f16>, tensor<256xf16>, tensor<256xf16>) outs(%27 : tensor<1x256xf16>) {
            ^bb0(%in: f16, %in_5: f16, %in_6: f16, %in_7: f16, %in_8: f16, %out: f16):
              %33 = arith.subf %in, %in_5 : f16
              %34 = arith.mulf %33, %in_6 : f16
              %35 = arith.mulf %34, %in_7 : f16
              %36 = arith.addf %35, %in_8 : f16
              linalg.yield %36 : f16
            } -> tensor<1x256xf16>
            %29 = tensor.empty() : tensor<1xf16>
            // expected-remark @+1 {{row op: row, known before pass 1}}
            %30 = linalg.generic {indexing_maps = [#map7, #map1], iterator_types = ["parallel"]} ins(%23 : tensor<f16>) outs(%29 : tensor<1xf16>) {
            ^bb0(%in: f16, %out: f16):
              linalg.yield %in : f16
            } -> tensor<1xf16>
            %31 = tensor.empty() : tensor<1xf16>
            // expected-remark @+1 {{row op: row, known before pass 2}}
            %32 = linalg.generic {indexing_maps = [#map7, #map1], iterator_types = ["parallel"]} ins(%26 : tensor<f16>) outs(%31 : tensor<1xf16>) {
            ^bb0(%in: f16, %out: f16):
              linalg.yield %in : f16
            } -> tensor<1xf16>
            // expected-remark @+1 {{writes tile, computed in pass 2}}
            ktdf.write_to_fifo %28 to %slot_2 : tensor<1x256xf16> to !ktdf.fifo.slot<vector_compute -> DDR, 1x256xf16>
            // expected-remark @+1 {{writes row, known before pass 1}}
            ktdf.write_to_fifo %30 to %slot_3 : tensor<1xf16> to !ktdf.fifo.slot<vector_compute -> DDR, 1xf16>
            // expected-remark @+1 {{writes row, known before pass 2}}
            ktdf.write_to_fifo %32 to %slot_4 : tensor<1xf16> to !ktdf.fifo.slot<vector_compute -> DDR, 1xf16>
          }
          ktdf.stage "store_0" depends_in(%17) depends_out(0) applicable_units [scratchpad_store, dma_store] {
            ktdf.data_transfer %slot_2 to %11 : !ktdf.fifo.slot<vector_compute -> DDR, 1x256xf16> to !ktdp.access_tile<1x256xindex>
          }
          ktdf.stage "store_1" depends_in(%17) depends_out(0) applicable_units [scratchpad_store, dma_store] {
            ktdf.data_transfer %slot_3 to %12 : !ktdf.fifo.slot<vector_compute -> DDR, 1xf16> to !ktdp.access_tile<1xindex>
          }
          ktdf.stage "store_2" depends_in(%17) depends_out(0) applicable_units [scratchpad_store, dma_store] {
            ktdf.data_transfer %slot_4 to %13 : !ktdf.fifo.slot<vector_compute -> DDR, 1xf16> to !ktdp.access_tile<1xindex>
          }
        }
      }
    }
    return
  }
}
