// RUN: ktflow-opt %s --ktdf-compile | FileCheck %s

// Lanes sharing a unit walk nested loops together too. On sample_device a
// core's DMA engines serve both sub-cores; each lane loads a scale row per
// chunk, then its chunk's 16 rows. The engines' programs run the chunks
// together and, inside, the rows together: iteration t of the inner loop
// loads (stores) row t of lane 0, then row t of lane 1. Walking lane 0's
// 16 rows before lane 1's, the engine waited for a free copy of lane 0's
// buffer while lane 1's compute unit starved (RoPE 163840x128: lane 1's
// SFU started 53,349 cycles late, 412,855 cycles; together, 336,105).

// CHECK-LABEL: dfir.unit "core[0]/MNILU_Block/MNILU"
// CHECK: arith.maxui
// CHECK: %[[CHUNKS:.*]] = arith.maxui
// CHECK-NEXT: scf.for %{{.*}} to %[[CHUNKS]] step
// CHECK: dfir.sync_send @p0_xfull0_c0_l0
// CHECK: dfir.sync_send @p0_xfull0_c0_l1
// CHECK: arith.maxui
// CHECK: %[[ROWS:.*]] = arith.maxui
// CHECK-NEXT: scf.for %[[T:arg[0-9]+]] = %{{[a-z0-9_]+}} to %[[ROWS]] step
// CHECK: arith.cmpi ult, %[[T]]
// CHECK: arith.cmpi ult, %[[T]]
// CHECK: dfir.dma {{.*}} from "DDR"
// CHECK: dfir.sync_send @p1_full0_c0_l0
// CHECK: dfir.dma {{.*}} from "DDR"
// CHECK: dfir.sync_send @p1_full0_c0_l1
// CHECK-LABEL: dfir.unit "core[0]/MNISU_Block/MNISU"
// CHECK: arith.maxui
// CHECK: %[[CHUNKS2:.*]] = arith.maxui
// CHECK-NEXT: scf.for %{{.*}} to %[[CHUNKS2]] step
// CHECK: arith.maxui
// CHECK: %[[ROWS2:.*]] = arith.maxui
// CHECK-NEXT: scf.for %[[T2:arg[0-9]+]] = %{{[a-z0-9_]+}} to %[[ROWS2]] step
// CHECK: dfir.sync_recv @p1_full1_c0_l0
// CHECK: dfir.dma {{.*}} to "DDR"
// CHECK: dfir.sync_recv @p1_full1_c0_l1
// CHECK: dfir.dma {{.*}} to "DDR"
// CHECK-LABEL: dfir.unit "core[0]/subcore[0]/L1LU"

ktdf_arch.target @sample_device from "../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#s_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @scaled_rows(%x: index, %s: index, %y: index) attributes {grid = [8]} {
  %pid = ktdp.get_compute_tile_id : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %X = ktdp.construct_memory_view %x, sizes: [256, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<256x64xf16>
  %S = ktdp.construct_memory_view %s, sizes: [16, 64], strides: [64, 1] {coordinate_set = #s_set, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [256, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<256x64xf16>
  %c_begin = arith.muli %pid, %c2 : index
  %c_end = arith.addi %c_begin, %c2 : index
  scf.for %c = %c_begin to %c_end step %c1 {
    %ts = ktdp.construct_access_tile %S[%c, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<16x64xf16> -> !ktdp.access_tile<1x64xindex>
    %sc = ktdp.load %ts : <1x64xindex> -> tensor<1x64xf16>
    %r0 = arith.muli %c, %c16 : index
    %r1 = arith.addi %r0, %c16 : index
    scf.for %r = %r0 to %r1 step %c1 {
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<256x64xf16> -> !ktdp.access_tile<1x64xindex>
      %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<256x64xf16> -> !ktdp.access_tile<1x64xindex>
      %v = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
      %e = arith.mulf %v, %sc : tensor<1x64xf16>
      ktdp.store %e, %ty : tensor<1x64xf16>, <1x64xindex>
    }
  }
  return
}
