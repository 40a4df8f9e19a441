// RUN: ktflow-opt %s -split-input-file --ktdf-compile=O0 | FileCheck %s

// A row-major m x n matrix whose row stride is the launch scalar n: the
// tensor is declared m x n (both dimensions name their arguments), and the
// DMAs of its 64x64 tiles move their valid rows n * 2 bytes apart in
// device memory (rows a run-time stride apart never merge into one
// transfer); the tile's origin is row * n + col elements in.

// CHECK-LABEL: dfir.kernel @scale
// CHECK-DAG: dfir.tensor input @arg0 : tensor<?x?xf16> in "HBM" dims [@arg2, @arg3]
// CHECK-DAG: dfir.tensor output @arg1 : tensor<?x?xf16> in "HBM" dims [@arg2, @arg3]
// CHECK-LABEL: dfir.unit "tile[0]/DMA"
// CHECK: %[[N:.*]] = dfir.runtime_value @arg3
// CHECK: %[[ROWAT:.*]] = arith.muli %{{.*}}, %[[N]] : index
// CHECK: %[[ROW:.*]] = arith.addi %{{.*}}, %[[ROWAT]] : index
// CHECK: %[[ORIGIN:.*]] = arith.addi %[[ROW]], %{{.*}} : index
// CHECK: %[[BYTES:.*]] = arith.muli %[[ORIGIN]], %c2{{.*}} : index
// CHECK: %[[AT:.*]] = arith.addi %{{.*}}, %[[BYTES]] : index
// CHECK: %[[STRIDE:.*]] = arith.muli %[[N]], %c2{{.*}} : index
// CHECK-NEXT: %[[BUFSTRIDE:.*]] = arith.constant 128 : index
// CHECK-NEXT: dfir.dma %{{.*}} bytes from "HBM"[%[[AT]]] to "tile[0]/SPM"[%{{.*}}] rows %{{.*}} strides %[[STRIDE]], %[[BUFSTRIDE]]{{$}}
// CHECK: %[[SSTRIDE:.*]] = arith.muli %[[N]], %c2{{.*}} : index
// CHECK: dfir.dma %{{.*}} bytes from "tile[0]/SPM"[%{{.*}}] to "HBM"[%{{.*}}] rows %{{.*}} strides %{{.*}}, %[[SSTRIDE]]{{$}}

ktdf_arch.target @mesh_device from "../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">

#mat = affine_set<(d0, d1)[s0, s1] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + s1 - 1 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @scale(%x: index, %y: index, %m_i32: i32, %n_i32: i32) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %m = arith.index_cast %m_i32 : i32 to index
  %n = arith.index_cast %n_i32 : i32 to index
  %X = ktdp.construct_memory_view %x, sizes: [%m, %n], strides: [%n, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<?x?xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [%m, %n], strides: [%n, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<?x?xf16>
  scf.for %row = %c0 to %m step %c64 {
    scf.for %col = %c0 to %n step %c64 {
      %tx = ktdp.construct_access_tile %X[%row, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<?x?xf16> -> !ktdp.access_tile<64x64xindex>
      %ty = ktdp.construct_access_tile %Y[%row, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<?x?xf16> -> !ktdp.access_tile<64x64xindex>
      %vx = ktdp.load %tx : <64x64xindex> -> tensor<64x64xf16>
      %s = arith.addf %vx, %vx : tensor<64x64xf16>
      ktdp.store %s, %ty : tensor<64x64xf16>, <64x64xindex>
    }
  }
  return
}
