// f16_transcendentals.mlir - y = exp(x) + tanh(x) + sqrt(|x|) + log(1 + |x|),
// every operation on f16 tensors (rounded to f16 after each), over a 64x64
// tile per compute tile. Used by the checkpoint tests: each transcendental
// is widened to f32 at a different checkpoint of checkpoint_device.

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
module {
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
