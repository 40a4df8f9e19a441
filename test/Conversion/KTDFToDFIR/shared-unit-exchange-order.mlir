// RUN: ktflow-opt %s --ktdf-compile | FileCheck %s

// A unit that several lanes share serves the lanes of an op that holds a
// cross-core exchange (here an all-reduce's ring) in one order on every
// core, by the exchange's group and then the grid point, not by work
// (LaneInterleaving.cpp). Grid [6], groups of 3 tiles; tile 3g + 1 also
// stores exp/sqrt of its rows, so it has the most work. On sample_device
// core 0 runs tiles 0 (group 0, lane 0) and 4 (group 1, lane 1, more
// work), core 1 tiles 1 (group 0, more work) and 5 (group 1): by work,
// core 0's DMA engine would send group 1's ring first and core 1's group
// 0's, each waiting for the other. Both send group 0's first; the stores
// after the ring, which wait for no other core, keep the work order.

// CHECK-LABEL: dfir.unit "core[0]/MNISU_Block/MNISU"
// CHECK-NOT: @p2_sent_c0_l1
// CHECK: dfir.sync_send @p2_sent_c0_l0
// CHECK: dfir.sync_send @p2_sent_c0_l1
// CHECK-NOT: @p5_full0_c0_l0
// CHECK: dfir.sync_recv @p5_full0_c0_l1
// CHECK: dfir.sync_recv @p5_full0_c0_l0
// CHECK-LABEL: dfir.unit "core[1]/MNISU_Block/MNISU"
// CHECK-NOT: @p2_sent_c1_l1
// CHECK: dfir.sync_send @p2_sent_c1_l0
// CHECK: dfir.sync_send @p2_sent_c1_l1
// CHECK-NOT: @p5_full0_c1_l1
// CHECK: dfir.sync_recv @p5_full0_c1_l0
// CHECK: dfir.sync_recv @p5_full0_c1_l1

ktdf_arch.target @sample_device from "../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">

#m_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 5119 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#group3 = affine_set<(i)[g] : (i - 3*g >= 0, -i + 3*g + 2 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#bcast = affine_map<(d0, d1) -> (d1)>
func.func @colcenter(%x_ptr: index, %y_ptr: index, %z_ptr: index) attributes {grid = [6]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c5120 = arith.constant 5120 : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 5120], strides: [5120, 1] {coordinate_set = #m_set, memory_space = #ktdp.memory_space<global>} : memref<64x5120xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 5120], strides: [5120, 1] {coordinate_set = #m_set, memory_space = #ktdp.memory_space<global>} : memref<64x5120xf16>
  %Z = ktdp.construct_memory_view %z_ptr, sizes: [64, 5120], strides: [5120, 1] {coordinate_set = #m_set, memory_space = #ktdp.memory_space<global>} : memref<64x5120xf16>
  %c3 = arith.constant 3 : index
  %t = arith.remui %pid, %c3 : index
  %gq = arith.divui %pid, %c3 : index
  %row = arith.muli %t, %c16 : index
  %col = arith.muli %gq, %c64 : index
  %zeros = arith.constant dense<0.0> : tensor<64xf16>
  %ident = arith.constant dense<0.0> : tensor<64xf16>
  %n = arith.constant dense<64.0> : tensor<64xf16>
    %tx = ktdp.construct_access_tile %X[%row, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x5120xf16> -> !ktdp.access_tile<16x64xindex>
    %x = ktdp.load %tx : <16x64xindex> -> tensor<16x64xf16>
    %part = linalg.reduce { arith.addf } ins(%x : tensor<16x64xf16>) outs(%zeros : tensor<64xf16>) dimensions = [0]
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #group3
        : tensor<64xf16> -> !ktdp.tile_future<tensor<64xf16>, groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
    ^bb0(%g: index):
      ktdp.yield_partial %part : tensor<64xf16>
    }
    %sum = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #group3, identity(%ident : tensor<64xf16>)
        : !ktdp.tile_future<tensor<64xf16>, groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<64xf16> {
    ^bb0(%a: tensor<64xf16>, %b: tensor<64xf16>):
      %s = arith.addf %a, %b : tensor<64xf16>
      ktdp.yield_reduced %s : tensor<64xf16>
    }
    %slow = arith.cmpi eq, %t, %c1 : index
    scf.if %slow {
      %h1 = math.exp %x : tensor<16x64xf16>
      %h2 = math.sqrt %h1 : tensor<16x64xf16>
      %h3 = math.exp %h2 : tensor<16x64xf16>
      %h4 = math.sqrt %h3 : tensor<16x64xf16>
      %h5 = math.exp %h4 : tensor<16x64xf16>
      %h6 = math.sqrt %h5 : tensor<16x64xf16>
      %tz = ktdp.construct_access_tile %Z[%row, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x5120xf16> -> !ktdp.access_tile<16x64xindex>
      ktdp.store %h6, %tz : tensor<16x64xf16>, <16x64xindex>
    }
    %mean = arith.divf %sum, %n : tensor<64xf16>
    %empty = tensor.empty() : tensor<16x64xf16>
    %y = linalg.generic {indexing_maps = [#id2, #bcast, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%x, %mean : tensor<16x64xf16>, tensor<64xf16>) outs(%empty : tensor<16x64xf16>) {
    ^bb0(%a: f16, %m: f16, %o: f16):
      %d = arith.subf %a, %m : f16
      linalg.yield %d : f16
    } -> tensor<16x64xf16>
    %ty = ktdp.construct_access_tile %Y[%row, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x5120xf16> -> !ktdp.access_tile<16x64xindex>
    ktdp.store %y, %ty : tensor<16x64xf16>, <16x64xindex>
  return
}
