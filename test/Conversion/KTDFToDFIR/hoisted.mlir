// RUN: ktflow-opt %s --ktdf-mapping --ktdf-route-transfers --ktdf-tile-streams=chunk=64 --ktdf-distribute --ktdf-buffer=depth=2 --ktdf-hoist-invariant-transfers --ktdf-allocate-scratchpad --ktdf-to-dfir | FileCheck %s

// A buffer exported by a hoisted pipeline (p0) to the feed of the loop's
// pipeline (p1): one copy, its own bytes, and a full/free channel pair
// from the DMA engine to the feed unit. Each grid point reads its own
// vector (row %id of V), the same at every iteration of the loop: the DMA
// fills the buffer once per point, after the feed has handed back the
// previous fill; the feed waits for it before the loop and hands it back
// after the loop.

// CHECK-LABEL: dfir.kernel @bias device "sample_device"
// CHECK-DAG: dfir.buffer @p0_buf0_c0_l0 in "core[0]/L1" size 128 offset 0
// CHECK-DAG: dfir.buffer @p1_buf0_c0_l0 in "core[0]/L1" size 256 offset 128
// CHECK-DAG: dfir.sync @p0_xfull0_c0_l0 from "core[0]/MNILU_Block/MNILU" to "core[0]/subcore[0]/L1LU"
// CHECK-DAG: dfir.sync @p0_xfree0_c0_l0 from "core[0]/subcore[0]/L1LU" to "core[0]/MNILU_Block/MNILU"

// CHECK-LABEL: dfir.unit "core[0]/MNILU_Block/MNILU"
// CHECK: scf.for
// CHECK: dfir.sync_recv @p0_xfree0_c0_l0
// CHECK: dfir.dma %{{.*}} bytes from "DDR"[%{{.*}}] to "core[0]/L1"
// CHECK-NEXT: dfir.sync_send @p0_xfull0_c0_l0
// CHECK: scf.for
// CHECK: dfir.sync_recv @p1_free0_c0_l0
// CHECK: dfir.sync_send @p1_full0_c0_l0
// The last fill's token, taken before the program ends.
// CHECK: dfir.sync_recv @p0_xfree0_c0_l0

// CHECK-LABEL: dfir.unit "core[0]/subcore[0]/L1LU"
// CHECK: dfir.sync_recv @p0_xfull0_c0_l0
// CHECK: scf.for
// CHECK: dfir.sync_recv @p1_full0_c0_l0
// CHECK: dfir.address @p1_buf0_c0_l0
// CHECK: dfir.address @p0_buf0_c0_l0
// CHECK: dfir.sync_send @p1_free0_c0_l0
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: dfir.sync_send @p0_xfree0_c0_l0

ktdf_arch.target @sample_device from "../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#table = affine_set<(d0) : (d0 >= 0, -d0 + 1023 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @bias(%x: index, %v: index, %y: index) attributes {grid = [16]} {
  %id = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %r0 = arith.muli %id, %c8 : index
  %v0 = arith.muli %id, %c64 : index
  %X = ktdp.construct_memory_view %x, sizes: [128, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
  %V = ktdp.construct_memory_view %v, sizes: [1024], strides: [1] {coordinate_set = #table, memory_space = #ktdp.memory_space<global>} : memref<1024xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [128, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
  scf.for %i = %c0 to %c8 step %c1 {
    %tx = ktdp.construct_access_tile %X[%r0 + %i, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<1x64xindex>
    %tv = ktdp.construct_access_tile %V[%v0] {access_tile_set = #vec, access_tile_order = #id1} : memref<1024xf16> -> !ktdp.access_tile<64xindex>
    %ty = ktdp.construct_access_tile %Y[%r0 + %i, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<1x64xindex>
    %xt = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
    %vt = ktdp.load %tv : <64xindex> -> tensor<64xf16>
    %e = tensor.empty() : tensor<1x64xf16>
    %vb = linalg.broadcast ins(%vt : tensor<64xf16>) outs(%e : tensor<1x64xf16>) dimensions = [0]
    %yt = arith.addf %xt, %vb : tensor<1x64xf16>
    ktdp.store %yt, %ty : tensor<1x64xf16>, <1x64xindex>
  }
  return
}
