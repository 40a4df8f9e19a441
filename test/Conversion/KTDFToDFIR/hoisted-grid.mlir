// RUN: ktflow-opt %s --ktdf-mapping --ktdf-route-transfers --ktdf-tile-streams=chunk=64 --ktdf-distribute --ktdf-buffer=depth=2 --ktdf-hoist-invariant-transfers --ktdf-allocate-scratchpad --ktdf-to-dfir | FileCheck %s

// A per_instance pipeline (p0) on sample_device, whose 8 lanes walk 4 grid
// points each: the core's DMA engine loads the vector once for each of its
// two lanes before it walks the points, with only a full channel (nothing
// refills the buffer); each lane's feed takes that token before its first
// point and reads the buffer at every point.

// CHECK-LABEL: dfir.kernel @four_points device "sample_device"
// CHECK-DAG: dfir.buffer @p0_buf0_c0_l0 in "core[0]/L1" size 128 offset 0
// CHECK-DAG: dfir.buffer @p1_buf0_c0_l0 in "core[0]/L1" size 1024 offset 128
// CHECK-DAG: dfir.sync @p0_xfull0_c0_l0 from "core[0]/MNILU_Block/MNILU" to "core[0]/subcore[0]/L1LU"
// CHECK-DAG: dfir.sync @p0_xfull0_c0_l1 from "core[0]/MNILU_Block/MNILU" to "core[0]/subcore[1]/L1LU"
// CHECK-NOT: xfree

// CHECK-LABEL: dfir.unit "core[0]/MNILU_Block/MNILU"
// CHECK-NEXT: arith.constant
// CHECK-NOT: scf.for
// CHECK: dfir.dma %{{.*}} bytes from "DDR"[%{{.*}}] to "core[0]/L1"
// CHECK-NEXT: dfir.sync_send @p0_xfull0_c0_l0
// CHECK-NOT: scf.for
// CHECK: dfir.dma %{{.*}} bytes from "DDR"[%{{.*}}] to "core[0]/L1"
// CHECK-NEXT: dfir.sync_send @p0_xfull0_c0_l1
// CHECK: scf.for %{{.*}} = %{{.*}} to %c4 step
// CHECK-NOT: @p0_
// CHECK: dfir.unit

// CHECK-LABEL: dfir.unit "core[0]/subcore[0]/L1LU"
// CHECK: dfir.sync_recv @p0_xfull0_c0_l0
// CHECK: scf.for %{{.*}} = %{{.*}} to %c4 step
// CHECK: dfir.sync_recv @p1_full0_c0_l0
// CHECK: dfir.address @p1_buf0_c0_l0
// CHECK: dfir.address @p0_buf0_c0_l0
// CHECK-NOT: @p0_
// CHECK: dfir.unit

ktdf_arch.target @sample_device from "../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

func.func @four_points(%x: index, %v: index, %y: index) attributes {grid = [32]} {
  %id = ktdp.get_compute_tile_id : index
  %c4 = arith.constant 4 : index
  %row = arith.muli %id, %c4 : index
  %X = ktdp.construct_memory_view %x, sizes: [128, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
  %V = ktdp.construct_memory_view %v, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [128, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
  %tx = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<4x64xindex>
  %tv = ktdp.construct_access_tile %V[0] {access_tile_set = #vec, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<64xindex>
  %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<4x64xindex>
  %xt = ktdp.load %tx : <4x64xindex> -> tensor<4x64xf16>
  %vt = ktdp.load %tv : <64xindex> -> tensor<64xf16>
  %e = tensor.empty() : tensor<4x64xf16>
  %vb = linalg.broadcast ins(%vt : tensor<64xf16>) outs(%e : tensor<4x64xf16>) dimensions = [0]
  %yt = arith.addf %xt, %vb : tensor<4x64xf16>
  ktdp.store %yt, %ty : tensor<4x64xf16>, <4x64xindex>
  return
}
