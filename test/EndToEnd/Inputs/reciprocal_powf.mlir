// reciprocal_powf.mlir - math.powf by -1.0 and by 0.0 (a Triton-style
// x ** -1 and x ** 0), on f16 and on f32, 64x128, a 2x128 block per tile
// on a [32, 1] grid.
//
// Computes, for i < 64, j < 128:
//   R[i, j] = powf(X[i, j], -1.0) + powf(X[i, j], 0.0)      (f16)
//   Q[i, j] = powf(f32(X[i, j]) * 3.0, -1.0)                 (f32)
// each op rounded once; powf(x, 0.0) is 1 for every x (NaN included) and
// powf(+-0, -1.0) is +-inf.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @reciprocal_powf_kernel(%x_ptr: index,   // X: 64x128 f16 (input)
                                    %r_ptr: index,   // R: 64x128 f16 (output)
                                    %q_ptr: index)   // Q: 64x128 f32 (output)
      attributes {grid = [32, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c2 = arith.constant 2 : index
    %r0 = arith.muli %pid, %c2 : index
    %m1_16 = arith.constant dense<-1.0> : tensor<2x128xf16>
    %z_16 = arith.constant dense<0.0> : tensor<2x128xf16>
    %m1_32 = arith.constant dense<-1.0> : tensor<2x128xf32>
    %three = arith.constant dense<3.0> : tensor<2x128xf32>
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %R = ktdp.construct_memory_view %r_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %Q = ktdp.construct_memory_view %q_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf32>
    %tx = ktdp.construct_access_tile %X[%r0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<2x128xindex>
    %x = ktdp.load %tx : <2x128xindex> -> tensor<2x128xf16>
    %inv = math.powf %x, %m1_16 : tensor<2x128xf16>
    %unit = math.powf %x, %z_16 : tensor<2x128xf16>
    %r = arith.addf %inv, %unit : tensor<2x128xf16>
    %xf = arith.extf %x : tensor<2x128xf16> to tensor<2x128xf32>
    %x3 = arith.mulf %xf, %three : tensor<2x128xf32>
    %q = math.powf %x3, %m1_32 : tensor<2x128xf32>
    %tr = ktdp.construct_access_tile %R[%r0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<2x128xindex>
    ktdp.store %r, %tr : tensor<2x128xf16>, <2x128xindex>
    %tq = ktdp.construct_access_tile %Q[%r0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf32> -> !ktdp.access_tile<2x128xindex>
    ktdp.store %q, %tq : tensor<2x128xf32>, <2x128xindex>
    return
  }
}
