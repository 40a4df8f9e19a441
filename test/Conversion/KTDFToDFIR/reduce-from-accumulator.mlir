// RUN: ktflow-opt %s --ktdf-compile | FileCheck %s

// Row sums of a 2x128 f16 tile, in f32 (of the widened values, as a
// layernorm's mean) and in f16, on sample_device, one chunk loop carrying
// both accumulators. The f32 sum's reduce starts from the loop's
// accumulator (the zero of the kernel's splat, then the previous chunks'
// sum), so no one-element map folds each chunk's sum in: a cycle a chunk
// less on the SFU. The f16 sum accumulates in f32 inside the unit, which
// an f16 accumulator cannot start: it keeps its fold.

// CHECK-LABEL: dfir.unit "core[0]/subcore[0]/SFU_Block/SFU"
// CHECK: %[[Z:.*]] = dfir.splat 0.000000e+00 : vector<1xf32>
// CHECK: scf.for {{.*}} iter_args(%[[A32:.*]] = %[[Z]], %[[A16:.*]] = %{{.*}}) -> (vector<1xf32>, vector<1xf16>)
// CHECK: %[[S32:.*]] = dfir.reduce add %{{.*}} from %[[A32]] : vector<128xf32> -> vector<1xf32>
// CHECK-NEXT: %[[R16:.*]] = dfir.reduce add %{{.*}} : vector<128xf16> -> vector<1xf16>
// CHECK-NEXT: %[[S16:.*]] = dfir.map %[[R16]], %[[A16]] accumulator 1 : vector<1xf16>, vector<1xf16> -> vector<1xf16>
// CHECK: scf.yield %[[S32]], %[[S16]] : vector<1xf32>, vector<1xf16>
// CHECK-LABEL: dfir.unit "core[0]/subcore[1]/L1LU"

ktdf_arch.target @sample_device from "../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#v_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#pair = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @row_sums(%x: index, %s32: index, %s16: index) attributes {grid = [32]} {
  %id = ktdp.get_compute_tile_id : index
  %c2 = arith.constant 2 : index
  %row0 = arith.muli %id, %c2 : index
  %X = ktdp.construct_memory_view %x, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %S32 = ktdp.construct_memory_view %s32, sizes: [64], strides: [1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<64xf32>
  %S16 = ktdp.construct_memory_view %s16, sizes: [64], strides: [1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %tx = ktdp.construct_access_tile %X[%row0, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<2x128xindex>
  %xh = ktdp.load %tx : <2x128xindex> -> tensor<2x128xf16>
  %xf = arith.extf %xh : tensor<2x128xf16> to tensor<2x128xf32>
  %zero32 = arith.constant 0.0 : f32
  %init32 = tensor.splat %zero32 : tensor<2xf32>
  %sum32 = linalg.reduce ins(%xf : tensor<2x128xf32>) outs(%init32 : tensor<2xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %zero16 = arith.constant 0.0 : f16
  %init16 = tensor.splat %zero16 : tensor<2xf16>
  %sum16 = linalg.reduce ins(%xh : tensor<2x128xf16>) outs(%init16 : tensor<2xf16>) dimensions = [1]
    (%in: f16, %acc: f16) {
      %s = arith.addf %in, %acc : f16
      linalg.yield %s : f16
    }
  %t32 = ktdp.construct_access_tile %S32[%row0] {access_tile_set = #pair, access_tile_order = #id1} : memref<64xf32> -> !ktdp.access_tile<2xindex>
  %t16 = ktdp.construct_access_tile %S16[%row0] {access_tile_set = #pair, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<2xindex>
  ktdp.store %sum32, %t32 : tensor<2xf32>, <2xindex>
  ktdp.store %sum16, %t16 : tensor<2xf16>, <2xindex>
  return
}
