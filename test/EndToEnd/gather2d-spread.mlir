// A field-guide-style 2-D gather (RFC §"indirect access", both coordinates
// from index matrices) on a grid of 2: tile g gathers
//   OUT[12g + m, k] = SRC[ROWS[12g + m, k], COLS[12g + m, k]]
// for m < 12, k < 40 (f32, i64 indices into a 48x96 source). Each element
// costs its DMA engine two index reads from device memory, one round trip
// each; ktdf-split-index-bound-gathers cuts each tile's gather into chunks
// of rows that ktdf-spread-iterations deals over the lanes the 2 points
// leave idle, so the reads run on many DMA engines at once.
//
// RUN: python3 %S/../Simulator/Inputs/check_npy.py --write %t.rows.npy "<i8" 24x40 "(i * 7 + 3) % 48"
// RUN: python3 %S/../Simulator/Inputs/check_npy.py --write %t.cols.npy "<i8" 24x40 "(i * 5 + 11) % 96"
// RUN: ktflow run %s --arch %examples/devices/spyre_like.mlir --check --input src=seq:0:4608 --input rows=%t.rows.npy --input cols=%t.cols.npy --output out=%t.spyre.npy | FileCheck %s --check-prefix=SPYRE
// RUN: python3 %S/../Simulator/Inputs/check_npy.py %t.spyre.npy "((i * 7 + 3) % 48) * 96 + (i * 5 + 11) % 96" 960
// RUN: ktflow run %s --arch %examples/devices/mesh_device.mlir --check --input src=seq:0:4608 --input rows=%t.rows.npy --input cols=%t.cols.npy --output out=%t.mesh.npy | FileCheck %s --check-prefix=MESH
// RUN: python3 %S/../Simulator/Inputs/check_npy.py %t.mesh.npy "((i * 7 + 3) % 48) * 96 + (i * 5 + 11) % 96" 960
// RUN: ktflow run %s --arch %examples/devices/sample_device.mlir --check --input src=seq:0:4608 --input rows=%t.rows.npy --input cols=%t.cols.npy --output out=%t.sample.npy | FileCheck %s --check-prefix=SAMPLE
// RUN: python3 %S/../Simulator/Inputs/check_npy.py %t.sample.npy "((i * 7 + 3) % 48) * 96 + (i * 5 + 11) % 96" 960
//
// One DMA engine per point read all 480 elements' indices before:
// spyre_like 144,396 cycles (300 an element: two reads of 150), mesh_device
// 77,144, sample_device 96,386. Now a point's gather is cut into chunks
// of about its elements over its lanes (16 at least), dealt over those
// lanes: spyre_like's 32 take 48 chunks of 1x10, mesh_device's 8 take 12
// of 1x40, sample_device's 4 take 4 of 3x40 (two lanes share a core's DMA
// engine there). The cost model follows within 1 %. mesh_device's DMA
// engine reads its SPM 2 cycles away and HBM 80: ktdf-route-transfers
// stages each chunk's 40 row and 40 column ids there (IndexStaging.cpp),
// 13,079 -> 1,966 cycles, the element DMAs binding (4 in flight of 82
// cycles; estimate within 2 %). Since ktdf-split-point-rows cuts a gather
// whose first variable walks the point's rows (`ROWS[12g + m, k]`,
// PointRowGathers.cpp), the points are first cut into parts of rows:
// spyre_like 12 parts of 1 row, each in 2 chunks of 1x20 (12,313 ->
// 12,314), mesh_device 6 parts of 2 rows, one a tile (1,966 -> 1,862);
// sample_device as before. The estimate's index reads wait for the DMA
// that stages their ids (issue 14, slice237): mesh_device 1,868 -> 1,950
// (+4.7 %; the DMA that stores the gathered rows waits in the simulator
// for them to land, in the estimate for a slot). Engines that load one
// transfer an index read stay in step past their second (issue 14,
// est245): spyre_like 12,352 -> 12,353, mesh_device 1,950 -> 1,952.
// The drain counts an engine's tokens only after its last transfer
// (issue 14, est251): sample_device 48,519 -> 48,514.
// SPYRE: cycles: 12314{{$}}
// SPYRE: estimate: 12353 cycles
// SPYRE: PASS
// MESH: cycles: 1862{{$}}
// MESH: estimate: 1952 cycles
// MESH: PASS
// SAMPLE: cycles: 48289{{$}}
// SAMPLE: estimate: 48514 cycles
// SAMPLE: PASS

#src_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 47 >= 0, d1 >= 0, -d1 + 95 >= 0)>
#out_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 23 >= 0, d1 >= 0, -d1 + 39 >= 0)>
#vars = affine_set<(d0, d1) : (d0 >= 0, -d0 + 11 >= 0, d1 >= 0, -d1 + 39 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @gather2d(%src: index,  // SRC:  48x96 f32 (input)
                      %rows: index, // ROWS: 24x40 i64 in [0, 48) (input)
                      %cols: index, // COLS: 24x40 i64 in [0, 96) (input)
                      %out: index)  // OUT:  24x40 f32 (output)
      attributes {grid = [2]} {
    %g = ktdp.get_compute_tile_id : index
    %c12 = arith.constant 12 : index
    %r0 = arith.muli %g, %c12 : index
    %SRC = ktdp.construct_memory_view %src, sizes: [48, 96], strides: [96, 1] {coordinate_set = #src_set, memory_space = #ktdp.memory_space<global>} : memref<48x96xf32>
    %ROWS = ktdp.construct_memory_view %rows, sizes: [24, 40], strides: [40, 1] {coordinate_set = #out_set, memory_space = #ktdp.memory_space<global>} : memref<24x40xi64>
    %COLS = ktdp.construct_memory_view %cols, sizes: [24, 40], strides: [40, 1] {coordinate_set = #out_set, memory_space = #ktdp.memory_space<global>} : memref<24x40xi64>
    %OUT = ktdp.construct_memory_view %out, sizes: [24, 40], strides: [40, 1] {coordinate_set = #out_set, memory_space = #ktdp.memory_space<global>} : memref<24x40xf32>
    %t = ktdp.construct_indirect_access_tile intermediate_variables(%m, %k) %SRC[ind(%ROWS[%r0 + %m, %k]), ind(%COLS[%r0 + %m, %k])] {variables_space_set = #vars, variables_space_order = #id2} : memref<48x96xf32>, memref<24x40xi64>, memref<24x40xi64> -> !ktdp.access_tile<12x40xindex>
    %to = ktdp.construct_access_tile %OUT[%r0, 0] {access_tile_set = #vars, access_tile_order = #id2} : memref<24x40xf32> -> !ktdp.access_tile<12x40xindex>
    %v = ktdp.load %t : <12x40xindex> -> tensor<12x40xf32>
    ktdp.store %v, %to : tensor<12x40xf32>, <12x40xindex>
    return
  }
}
