// RUN: ktflow-opt %s --ktdf-mapping | FileCheck %s --check-prefix=MAPPED
// RUN: ktflow-opt %s --ktdf-mapping --ktdf-scheduling | FileCheck %s --check-prefix=SCHEDULED
// RUN: ktflow-opt %s --ktdf-compile | FileCheck %s --check-prefix=DATAFLOW
// RUN: ktflow run %s --check | FileCheck %s --check-prefix=VERIFY

// checkpoint_device carries one PDL pattern per checkpoint, each widening
// one f16 transcendental to f32 with the native rewrite "widen_to_f32":
// exp before mapping (tensors), tanh before scheduling (linalg bodies),
// sqrt after scheduling (chunk bodies), log after lowering (dfir.map
// bodies). Each group's output shows its own checkpoint's rewrite and not
// yet the later ones', and the compiled kernel still verifies.

// MAPPED: math.exp %{{.*}} : f32
// MAPPED-NOT: math.tanh %{{.*}} : f32
// MAPPED: math.tanh %{{.*}} : f16
// MAPPED: math.sqrt %{{.*}} : f16
// MAPPED: math.log %{{.*}} : f16

// SCHEDULED: math.exp %{{.*}} : f32
// SCHEDULED: math.tanh %{{.*}} : f32
// SCHEDULED: math.sqrt %{{.*}} : f32
// SCHEDULED: math.log %{{.*}} : f16

// DATAFLOW: dfir.kernel @f16_transcendentals device "checkpoint_device"
// DATAFLOW: dfir.map
// DATAFLOW: math.exp %{{.*}} : f32
// DATAFLOW: math.tanh %{{.*}} : f32
// DATAFLOW: math.sqrt %{{.*}} : f32
// DATAFLOW: math.log %{{.*}} : f32

// The roofline counts each op as the four checkpoints' patterns rewrite it
// (docs/roofline.md §2): per element, absf and four addf (f16, 64 a cycle
// on an SFU), four extf (f32, 32) and four truncf (f16, 64), and exp,
// tanh, sqrt and log on f32 (transcendental, 8): 9/64 + 4/32 + 4/8 cycles,
// times 16384 elements over the 8 SFUs = 1568 (as written, with f16
// transcendentals at 16 a cycle: 5/64 + 4/16, 672 cycles, 147456 ops).
// VERIFY: compute: 1568 cycles on SFU (278528 operations)
// VERIFY: check y: 256x64 f16, max abs error {{.*}} PASS
// VERIFY-NEXT: PASS

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @checkpoint_device from "../Inputs/checkpoint_device.mlir"
      memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">
  func.func @f16_transcendentals(%x: index, %y: index) attributes {grid = [4]} {
    %id = ktdp.get_compute_tile_id : index
    %c64 = arith.constant 64 : index
    %row = arith.muli %id, %c64 : index
    %X = ktdp.construct_memory_view %x, sizes: [256, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<256x64xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [256, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<256x64xf16>
    %tx = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #tile, access_tile_order = #id} : memref<256x64xf16> -> !ktdp.access_tile<64x64xindex>
    %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #tile, access_tile_order = #id} : memref<256x64xf16> -> !ktdp.access_tile<64x64xindex>
    %v = ktdp.load %tx : <64x64xindex> -> tensor<64x64xf16>
    %one = arith.constant dense<1.0> : tensor<64x64xf16>
    %e = math.exp %v : tensor<64x64xf16>
    %t = math.tanh %v : tensor<64x64xf16>
    %a = math.absf %v : tensor<64x64xf16>
    %s = math.sqrt %a : tensor<64x64xf16>
    %a1 = arith.addf %a, %one : tensor<64x64xf16>
    %l = math.log %a1 : tensor<64x64xf16>
    %r0 = arith.addf %e, %t : tensor<64x64xf16>
    %r1 = arith.addf %r0, %s : tensor<64x64xf16>
    %r2 = arith.addf %r1, %l : tensor<64x64xf16>
    ktdp.store %r2, %ty : tensor<64x64xf16>, <64x64xindex>
    return
  }
}
