// RUN: ktflow-opt %s --ktdf-compile | FileCheck %s

// A drain's chunk loop that writes one slot into consecutive chunks of a
// buffer (the 1x256 row, four 64-element chunks) is one store of the four
// entries (512 bytes): the store unit waits for the last byte to land once
// per row instead of once per chunk. The feed's loads stay one per chunk.

// CHECK-LABEL: dfir.unit "core[0]/corelet[0]/LXLU"
// CHECK: scf.for
// CHECK: dfir.load @{{.*}} from "core[0]/LX"[%{{.*}}] size %c128
// CHECK-LABEL: dfir.unit "core[0]/corelet[0]/LXSU"
// CHECK: %[[BYTES:.*]] = arith.constant 512 : index
// CHECK: dfir.store @{{.*}} to "core[0]/LX"[%{{.*}}] size %[[BYTES]]
// CHECK-NOT: dfir.store
// CHECK: dfir.sync_send

ktdf_arch.target @spyre_like from "../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 255 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @rows(%x: index, %y: index) attributes {grid = [64]} {
  %r = ktdp.get_compute_tile_id : index
  %X = ktdp.construct_memory_view %x, sizes: [64, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [64, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
  %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x256xindex>
  %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x256xindex>
  %v = ktdp.load %tx : <1x256xindex> -> tensor<1x256xf16>
  %e = math.exp %v : tensor<1x256xf16>
  ktdp.store %e, %ty : tensor<1x256xf16>, <1x256xindex>
  return
}
