// layernorm_bf16_rows.mlir - layernorm of 61 rows x 384 bf16 columns over a
// [3, 1] grid, rows dealt cyclically (21, 20, 20 rows per tile), each row
// walked in three 1x128 column blocks by two sibling loops: the first
// carries the f32 sum and sum of squares in iter_args, the second
// normalises with f32 statistics.
//
// Computes, for r < 61, c < 384:
//   s1 = sum over blocks of (sum_c f32(x))       (reduce per block, f32 adds across blocks)
//   s2 = sum over blocks of (sum_c f32(x)^2)
//   mu = s1 / 384;  var = s2 / 384 - mu * mu;  rs = rsqrt(var + eps)
//   Y[r, c] = bf16((f32(x[r, c]) - mu) * rs)

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 60 >= 0, d1 >= 0, -d1 + 383 >= 0)>
#row_blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @layernorm_bf16(%x_ptr: index,  // X: 61x384 bf16 (input)
                            %y_ptr: index,  // Y: 61x384 bf16 (output)
                            %eps: f32)      // e.g. 1e-5
      attributes {grid = [3, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %c61 = arith.constant 61 : index
    %c128 = arith.constant 128 : index
    %c384 = arith.constant 384 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [61, 384], strides: [384, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<61x384xbf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [61, 384], strides: [384, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<61x384xbf16>
    %zero = arith.constant 0.000000e+00 : f32
    %n = arith.constant 3.840000e+02 : f32
    %z1 = tensor.splat %zero : tensor<1xf32>
    scf.for %r = %pid to %c61 step %c3 : index {
      %s1, %s2 = scf.for %off = %c0 to %c384 step %c128 iter_args(%a1 = %z1, %a2 = %z1) -> (tensor<1xf32>, tensor<1xf32>) {
        %tx = ktdp.construct_access_tile %X[%r, %off] {access_tile_set = #row_blk, access_tile_order = #id2} : memref<61x384xbf16> -> !ktdp.access_tile<1x128xindex>
        %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xbf16>
        %xf = arith.extf %x : tensor<1x128xbf16> to tensor<1x128xf32>
        %sq = arith.mulf %xf, %xf : tensor<1x128xf32>
        %p1 = linalg.reduce { arith.addf } ins(%xf : tensor<1x128xf32>) outs(%z1 : tensor<1xf32>) dimensions = [1]
        %p2 = linalg.reduce { arith.addf } ins(%sq : tensor<1x128xf32>) outs(%z1 : tensor<1xf32>) dimensions = [1]
        %n1 = arith.addf %a1, %p1 : tensor<1xf32>
        %n2 = arith.addf %a2, %p2 : tensor<1xf32>
        scf.yield %n1, %n2 : tensor<1xf32>, tensor<1xf32>
      }
      %t1 = tensor.extract %s1[%c0] : tensor<1xf32>
      %t2 = tensor.extract %s2[%c0] : tensor<1xf32>
      %mu = arith.divf %t1, %n : f32
      %ex2 = arith.divf %t2, %n : f32
      %mu2 = arith.mulf %mu, %mu : f32
      %var = arith.subf %ex2, %mu2 : f32
      %ve = arith.addf %var, %eps : f32
      %rs = math.rsqrt %ve : f32
      %mub = tensor.splat %mu : tensor<1x128xf32>
      %rsb = tensor.splat %rs : tensor<1x128xf32>
      scf.for %off = %c0 to %c384 step %c128 : index {
        %tx = ktdp.construct_access_tile %X[%r, %off] {access_tile_set = #row_blk, access_tile_order = #id2} : memref<61x384xbf16> -> !ktdp.access_tile<1x128xindex>
        %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xbf16>
        %xf = arith.extf %x : tensor<1x128xbf16> to tensor<1x128xf32>
        %d = arith.subf %xf, %mub : tensor<1x128xf32>
        %yn = arith.mulf %d, %rsb : tensor<1x128xf32>
        %y = arith.truncf %yn : tensor<1x128xf32> to tensor<1x128xbf16>
        %ty = ktdp.construct_access_tile %Y[%r, %off] {access_tile_set = #row_blk, access_tile_order = #id2} : memref<61x384xbf16> -> !ktdp.access_tile<1x128xindex>
        ktdp.store %y, %ty : tensor<1x128xbf16>, <1x128xindex>
      }
    }
    return
  }
}
