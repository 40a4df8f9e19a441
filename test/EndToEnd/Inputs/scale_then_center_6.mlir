// scale_then_center_6.mlir - a tile copy feeding an all-reduce, on a [6, 1]
// grid: tile 0 loads W (64 f16) and halves it in its produce body, all 6
// tiles consume it, multiply their 4x64 block of X by it, and the column
// sums of the product are all-reduced inside each of two groups of three
// contiguous tiles; every tile stores its product minus the group's mean.
//
// Computes, for group g (rows 12g .. 12g + 11), all f16:
//   w = f16(W * 0.5);  P = f16(X * w)
//   s_g = fold of the group's 3 tiles' column sums of P;  Y = P - f16(s_g / 12)
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 23 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#w_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#tile0 = affine_set<(i)[g] : (i == 0, g == 0)>
#all6 = affine_set<(i)[g] : (i >= 0, -i + 5 >= 0, g == 0)>
#grp3 = affine_set<(i)[g] : (i - 3*g >= 0, -i + 3*g + 2 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#bcast = affine_map<(d0, d1) -> (d1)>
module {
  func.func @scale_then_center(%x_ptr: index,  // X: 24x64 f16 (input)
                               %w_ptr: index,  // W: 64 f16 (input, read by tile 0)
                               %y_ptr: index)  // Y: 24x64 f16 (output)
      attributes {grid = [6, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c4 = arith.constant 4 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [24, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<24x64xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [24, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<24x64xf16>
    %W = ktdp.construct_memory_view %w_ptr, sizes: [64], strides: [1] {coordinate_set = #w_set, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %half = arith.constant dense<0.5> : tensor<64xf16>
    %fut = ktdp.inter_tile_produce producer_tiles_per_group = #tile0
        : tensor<64xf16> -> !ktdp.tile_future<tensor<64xf16>, groups = affine_set<(g) : (g == 0)>> {
    ^bb0(%g: index):
      %tw = ktdp.construct_access_tile %W[0] {access_tile_set = #w_set, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<64xindex>
      %w = ktdp.load %tw : <64xindex> -> tensor<64xf16>
      %wh = arith.mulf %w, %half : tensor<64xf16>
      ktdp.yield_partial %wh : tensor<64xf16>
    }
    %w = ktdp.inter_tile_consume(%fut) consumer_tiles_per_group = #all6
        : !ktdp.tile_future<tensor<64xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<64xf16>
    %r0 = arith.muli %pid, %c4 : index
    %tx = ktdp.construct_access_tile %X[%r0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<24x64xf16> -> !ktdp.access_tile<4x64xindex>
    %x = ktdp.load %tx : <4x64xindex> -> tensor<4x64xf16>
    %e = tensor.empty() : tensor<4x64xf16>
    %p = linalg.generic {indexing_maps = [#id2, #bcast, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%x, %w : tensor<4x64xf16>, tensor<64xf16>) outs(%e : tensor<4x64xf16>) {
    ^bb0(%a: f16, %b: f16, %o: f16):
      %m = arith.mulf %a, %b : f16
      linalg.yield %m : f16
    } -> tensor<4x64xf16>
    %zeros = arith.constant dense<0.0> : tensor<64xf16>
    %cs = linalg.reduce { arith.addf } ins(%p : tensor<4x64xf16>) outs(%zeros : tensor<64xf16>) dimensions = [0]
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #grp3
        : tensor<64xf16> -> !ktdp.tile_future<tensor<64xf16>, groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
    ^bb0(%g: index):
      ktdp.yield_partial %cs : tensor<64xf16>
    }
    %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #grp3, identity(%zeros : tensor<64xf16>)
        : !ktdp.tile_future<tensor<64xf16>, groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<64xf16> {
    ^bb0(%a: tensor<64xf16>, %b: tensor<64xf16>):
      %t = arith.addf %a, %b : tensor<64xf16>
      ktdp.yield_reduced %t : tensor<64xf16>
    }
    %n = arith.constant dense<12.0> : tensor<64xf16>
    %mean = arith.divf %s, %n : tensor<64xf16>
    %x2 = ktdp.load %tx : <4x64xindex> -> tensor<4x64xf16>
    %e2 = tensor.empty() : tensor<4x64xf16>
    %y = linalg.generic {indexing_maps = [#id2, #bcast, #bcast, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%x2, %w, %mean : tensor<4x64xf16>, tensor<64xf16>, tensor<64xf16>) outs(%e2 : tensor<4x64xf16>) {
    ^bb0(%a: f16, %b: f16, %m: f16, %o: f16):
      %pm = arith.mulf %a, %b : f16
      %d = arith.subf %pm, %m : f16
      linalg.yield %d : f16
    } -> tensor<4x64xf16>
    %ty = ktdp.construct_access_tile %Y[%r0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<24x64xf16> -> !ktdp.access_tile<4x64xindex>
    ktdp.store %y, %ty : tensor<4x64xf16>, <4x64xindex>
    return
  }
}
