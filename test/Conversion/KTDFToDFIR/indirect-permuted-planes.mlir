// RUN: ktflow-opt %s --ktdf-compile=O0 | FileCheck %s

// A page gathered transposed (K^T of a paged cache, in the field guide's
// style): the tile walks (t, e) in the order (e, t), so page BT[p]'s 16
// tokens of 32 f16 land as the columns of a 32x16 buffer. The tokens read
// no index of their own (the page's index is read once, for token 0) and
// lie 64 bytes apart in the cache: they move as the planes of one DMA,
// each plane a token's 32 one-element rows (2 bytes apart in the cache, 32
// bytes apart in the buffer), the planes 2 bytes apart in the buffer. The
// pending DMA's address, buffer address, planes and plane stride ride
// along the tokens' loop; the DMA goes after it (one per page, where it was
// one per token).
// CHECK-LABEL: dfir.unit "tile[0]/DMA"
// CHECK: %[[LOOP:.*]]:6 = scf.for %{{.*}} = %{{.*}} to %c16{{.*}} step %{{.*}} iter_args(
// CHECK: dfir.read_index "HBM"[%{{.*}}] : i32 below %c8
// CHECK: dfir.dma %c2{{.*}} bytes from "HBM"[%{{.*}}] to "tile[0]/SPM"[%{{.*}}] rows %c32{{.*}} strides %c2{{.*}}, %c32{{.*}} planes %{{.*}} strides %{{.*}}, %c2
// CHECK: scf.yield
// CHECK: dfir.dma %c2{{.*}} bytes from "HBM"[%[[LOOP]]#2] to "tile[0]/SPM"[%[[LOOP]]#3] rows %c32{{.*}} strides %c2{{.*}}, %c32{{.*}} planes %[[LOOP]]#4 strides %[[LOOP]]#5, %c2
// CHECK-LABEL: dfir.unit "tile[0]/VPU"

#c = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#bt = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#page = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#y = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#swap = affine_map<(d0, d1) -> (d1, d0)>
ktdf_arch.target @mesh_device from "../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">

func.func @page_kt(%kp: index, %btp: index, %yp: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %K = ktdp.construct_memory_view %kp, sizes: [8, 512], strides: [512, 1] {coordinate_set = #c, memory_space = #ktdp.memory_space<global>} : memref<8x512xf16>
  %BT = ktdp.construct_memory_view %btp, sizes: [2], strides: [1] {coordinate_set = #bt, memory_space = #ktdp.memory_space<global>} : memref<2xi32>
  %Y = ktdp.construct_memory_view %yp, sizes: [32, 16], strides: [16, 1] {coordinate_set = #y, memory_space = #ktdp.memory_space<global>} : memref<32x16xf16>
  %kt = ktdp.construct_indirect_access_tile intermediate_variables(%t, %e) %K[ind(%BT[%c0]), (%t * 32 + %e)] {variables_space_set = #page, variables_space_order = #swap} : memref<8x512xf16>, memref<2xi32> -> !ktdp.access_tile<32x16xindex>
  %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #y, access_tile_order = #id2} : memref<32x16xf16> -> !ktdp.access_tile<32x16xindex>
  %x = ktdp.load %kt : <32x16xindex> -> tensor<32x16xf16>
  %w = arith.addf %x, %x : tensor<32x16xf16>
  ktdp.store %w, %ty : tensor<32x16xf16>, <32x16xindex>
  return
}
