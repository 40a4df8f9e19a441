// RUN: ktflow-opt %s --ktdf-compile | FileCheck %s

// A 64x64 tile of a view whose row stride n is known only at launch keeps
// its buffer 2-d: the drain stores it row by row (for r { for c { slot ->
// buf[r, c] } }). The buffer's rows follow each other, so the row loop is
// one store of the 64 entries (8192 bytes), which waits for its landing
// once instead of once per row; the DMA out of the buffer keeps the
// run-time stride and the masks. The feed's loads stay one per row.

// CHECK-LABEL: dfir.unit "core[0]/MNISU_Block/MNISU"
// CHECK: dfir.dma {{.*}} rows %{{.*}} strides %c128, %{{.*}}
// CHECK-LABEL: dfir.unit "core[0]/subcore[0]/L1LU"
// CHECK: scf.for
// CHECK: dfir.load @{{.*}} from "core[0]/L1"[%{{.*}}] size %c128
// CHECK-LABEL: dfir.unit "core[0]/subcore[0]/L1SU"
// CHECK: dfir.sync_recv
// CHECK: %[[BYTES:.*]] = arith.constant 8192 : index
// CHECK-NOT: scf.for
// CHECK: dfir.store @{{.*}} to "core[0]/L1"[%{{.*}}] size %[[BYTES]]
// CHECK-NOT: dfir.store
// CHECK: dfir.sync_send

ktdf_arch.target @sample_device from "../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">

#mat = affine_set<(d0, d1)[s0, s1] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + s1 - 1 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @block(%x: index, %y: index, %m_i32: i32, %n_i32: i32) attributes {grid = [1]} {
  %m = arith.index_cast %m_i32 : i32 to index
  %n = arith.index_cast %n_i32 : i32 to index
  %X = ktdp.construct_memory_view %x, sizes: [%m, %n], strides: [%n, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<?x?xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [%m, %n], strides: [%n, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<?x?xf16>
  %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<?x?xf16> -> !ktdp.access_tile<64x64xindex>
  %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<?x?xf16> -> !ktdp.access_tile<64x64xindex>
  %v = ktdp.load %tx : <64x64xindex> -> tensor<64x64xf16>
  %e = arith.addf %v, %v : tensor<64x64xf16>
  ktdp.store %e, %ty : tensor<64x64xf16>, <64x64xindex>
  return
}
