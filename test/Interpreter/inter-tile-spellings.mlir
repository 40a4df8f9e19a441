// Inter-tile kernels in the real-world spelling: produce with a trailing
// functional type `: T -> !ktdp.tile_future<T, groups = ...>`, inline
// groups sets with `>=`, and a reduce result that reshapes the partial.
//
// @allreduce: grid [4], tile t loads row t of X (4x8 f16, X[t, c] =
// (8t + c) / 4) as a 1x8 partial; the all-reduce gives the 8-element
// S[c] = sum_t X[t, c] = 12 + c (every partial sum is exact in f16). Each
// tile writes Y[t, c] = X[t, c] + S[c]; tile 0 also stores S.
// RUN: python3 %S/../Simulator/Inputs/check_npy.py --write %t.x.npy "<f2" 32 "i * 0.25"
// RUN: ktflow interp %s --func allreduce --input x_ptr=%t.x.npy --output y_ptr=%t.y.npy --output s_ptr=%t.s.npy | FileCheck %s --check-prefix=ALL
// ALL: y_ptr: shape=4x8 dtype=f16
// ALL: s_ptr: shape=8 dtype=f16 min=12 max=19 mean=15.5
// RUN: python3 %S/../Simulator/Inputs/check_npy.py %t.s.npy "12 + i" 8
// RUN: python3 %S/../Simulator/Inputs/check_npy.py %t.y.npy "i * 0.25 + 12 + i % 8" 32
//
// @row_groups: grid [2, 2], groups = grid rows (linear id i = x + 2y, group
// g holds tiles 2g and 2g + 1). Tile i squares A[i] = i + 1; the tile with
// x == 0 stores its row's sum: out = [1 + 4, 9 + 16] = [5, 25].
// RUN: python3 %S/../Simulator/Inputs/check_npy.py --write %t.a.npy "<f2" 4 "i + 1"
// RUN: ktflow interp %s --func row_groups --input a_ptr=%t.a.npy --output out_ptr=%t.rows.npy | FileCheck %s --check-prefix=ROWS
// ROWS: out_ptr: shape=2 dtype=f16 min=5 max=25 mean=15
// RUN: python3 %S/../Simulator/Inputs/check_npy.py %t.rows.npy "[5, 25][i]" 2
//
// @argmax: grid [4], an all-reduce of (value, index) pairs: the combiner
// takes the left and right value of each partial in turn. Values [3, 7, 5,
// 1] give the maximum 7 at tile 1.
// RUN: python3 %S/../Simulator/Inputs/check_npy.py --write %t.v.npy "<f4" 4 "[3, 7, 5, 1][i]"
// RUN: ktflow interp %s --func argmax --input v_ptr=%t.v.npy --output max_ptr=%t.max.npy --output arg_ptr=%t.arg.npy
// RUN: python3 %S/../Simulator/Inputs/check_npy.py %t.max.npy "7" 1
// RUN: python3 %S/../Simulator/Inputs/check_npy.py %t.arg.npy "1" 1

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 7 >= 0)>
#vec8 = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#vec4 = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#vec2 = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
#grpA = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>
#pairs = affine_set<(i)[g] : (i - 2 * g >= 0, -i + 2 * g + 1 >= 0)>
#one_group = affine_set<(g) : (g == 0)>   // defined, never used
module {
  func.func @allreduce(%x_ptr: index,   // 4x8 f16 input
                       %y_ptr: index,   // 4x8 f16 output
                       %s_ptr: index)   // 8 f16 output (column sums)
      attributes {grid = [4]} {
    %tid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [4, 8], strides: [8, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<4x8xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [4, 8], strides: [8, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<4x8xf16>
    %tx = ktdp.construct_access_tile %X[%tid, 0] {access_tile_set = #row, access_tile_order = #id} : memref<4x8xf16> -> !ktdp.access_tile<1x8xindex>
    %ty = ktdp.construct_access_tile %Y[%tid, 0] {access_tile_set = #row, access_tile_order = #id} : memref<4x8xf16> -> !ktdp.access_tile<1x8xindex>
    %v = ktdp.load %tx : <1x8xindex> -> tensor<1x8xf16>
    %z = arith.constant dense<0.0> : tensor<1x8xf16>
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #grpA
           : tensor<1x8xf16> -> !ktdp.tile_future<tensor<1x8xf16>, groups = affine_set<(g) : (g == 0)>>
    {
    ^bb0(%gid: index):
      ktdp.yield_partial %v : tensor<1x8xf16>
    }
    %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #grpA, identity(%z : tensor<1x8xf16>)
           : !ktdp.tile_future<tensor<1x8xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<8xf16>
    { ^bb0(%a: tensor<1x8xf16>, %b: tensor<1x8xf16>):
      %e = tensor.empty() : tensor<1x8xf16>
      %sum = linalg.add ins(%a, %b : tensor<1x8xf16>, tensor<1x8xf16>) outs(%e : tensor<1x8xf16>) -> tensor<1x8xf16>
      ktdp.yield_reduced %sum : tensor<1x8xf16> }
    %s2 = tensor.expand_shape %s [[0, 1]] output_shape [1, 8] : tensor<8xf16> into tensor<1x8xf16>
    %y = arith.addf %v, %s2 : tensor<1x8xf16>
    ktdp.store %y, %ty : tensor<1x8xf16>, <1x8xindex>
    %w = arith.cmpi eq, %tid, %c0 : index   // single writer
    scf.if %w {
      %S = ktdp.construct_memory_view %s_ptr, sizes: [8], strides: [1] {coordinate_set = #vec8, memory_space = #ktdp.memory_space<global>} : memref<8xf16>
      %ts = ktdp.construct_access_tile %S[0] {access_tile_set = #vec8, access_tile_order = #id1} : memref<8xf16> -> !ktdp.access_tile<8xindex>
      ktdp.store %s, %ts : tensor<8xf16>, <8xindex>
    }
    return
  }

  func.func @row_groups(%a_ptr: index,     // 4 f16 input, one per tile
                        %out_ptr: index)   // 2 f16 output, one per grid row
      attributes {grid = [2, 2]} {
    %px, %py = ktdp.get_compute_tile_id : index, index
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %row = arith.muli %py, %c2 : index
    %lin = arith.addi %row, %px : index   // linear tile id
    %A = ktdp.construct_memory_view %a_ptr, sizes: [4], strides: [1] {coordinate_set = #vec4, memory_space = #ktdp.memory_space<global>} : memref<4xf16>
    %ta = ktdp.construct_access_tile %A[%lin] {access_tile_set = #one, access_tile_order = #id1} : memref<4xf16> -> !ktdp.access_tile<1xindex>
    %a = ktdp.load %ta : <1xindex> -> tensor<1xf16>
    %sq = arith.mulf %a, %a : tensor<1xf16>
    %z = arith.constant dense<0.0> : tensor<1xf16>
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #pairs
           : tensor<1xf16> -> !ktdp.tile_future<tensor<1xf16>, groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
    ^bb0(%gid: index):
      ktdp.yield_partial %sq : tensor<1xf16>
    }
    %sum = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #pairs, identity(%z : tensor<1xf16>)
           : !ktdp.tile_future<tensor<1xf16>, groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<1xf16> {
    ^bb0(%l: tensor<1xf16>, %r: tensor<1xf16>):
      %t = arith.addf %l, %r : tensor<1xf16>
      ktdp.yield_reduced %t : tensor<1xf16>
    }
    %w = arith.cmpi eq, %px, %c0 : index
    scf.if %w {
      %O = ktdp.construct_memory_view %out_ptr, sizes: [2], strides: [1] {coordinate_set = #vec2, memory_space = #ktdp.memory_space<global>} : memref<2xf16>
      %to = ktdp.construct_access_tile %O[%py] {access_tile_set = #one, access_tile_order = #id1} : memref<2xf16> -> !ktdp.access_tile<1xindex>
      ktdp.store %sum, %to : tensor<1xf16>, <1xindex>
    }
    return
  }

  func.func @argmax(%v_ptr: index,     // 4 f32 input, one per tile
                    %max_ptr: index,   // 1 f32 output
                    %arg_ptr: index)   // 1 i32 output
      attributes {grid = [4]} {
    %tid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %V = ktdp.construct_memory_view %v_ptr, sizes: [4], strides: [1] {coordinate_set = #vec4, memory_space = #ktdp.memory_space<global>} : memref<4xf32>
    %tv = ktdp.construct_access_tile %V[%tid] {access_tile_set = #one, access_tile_order = #id1} : memref<4xf32> -> !ktdp.access_tile<1xindex>
    %v = ktdp.load %tv : <1xindex> -> tensor<1xf32>
    %ti = arith.index_cast %tid : index to i32
    %i = tensor.splat %ti : tensor<1xi32>
    %vmin = arith.constant dense<0xFF800000> : tensor<1xf32>
    %imin = arith.constant dense<-1> : tensor<1xi32>
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #grpA
           : tensor<1xf32>, tensor<1xi32> -> !ktdp.tile_future<tensor<1xf32>, tensor<1xi32>, groups = affine_set<(g) : (g == 0)>> {
    ^bb0(%gid: index):
      ktdp.yield_partial %v, %i : tensor<1xf32>, tensor<1xi32>
    }
    %r:2 = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #grpA, identity(%vmin, %imin : tensor<1xf32>, tensor<1xi32>)
           : !ktdp.tile_future<tensor<1xf32>, tensor<1xi32>, groups = affine_set<(g) : (g == 0)>> -> tensor<1xf32>, tensor<1xi32> {
    ^bb0(%lv: tensor<1xf32>, %rv: tensor<1xf32>, %li: tensor<1xi32>, %ri: tensor<1xi32>):
      %gt = arith.cmpf oge, %lv, %rv : tensor<1xf32>
      %mv = arith.select %gt, %lv, %rv : tensor<1xi1>, tensor<1xf32>
      %mi = arith.select %gt, %li, %ri : tensor<1xi1>, tensor<1xi32>
      ktdp.yield_reduced %mv, %mi : tensor<1xf32>, tensor<1xi32>
    }
    %w = arith.cmpi eq, %tid, %c0 : index
    scf.if %w {
      %M = ktdp.construct_memory_view %max_ptr, sizes: [1], strides: [1] {coordinate_set = #one, memory_space = #ktdp.memory_space<global>} : memref<1xf32>
      %I = ktdp.construct_memory_view %arg_ptr, sizes: [1], strides: [1] {coordinate_set = #one, memory_space = #ktdp.memory_space<global>} : memref<1xi32>
      %tm = ktdp.construct_access_tile %M[0] {access_tile_set = #one, access_tile_order = #id1} : memref<1xf32> -> !ktdp.access_tile<1xindex>
      %tI = ktdp.construct_access_tile %I[0] {access_tile_set = #one, access_tile_order = #id1} : memref<1xi32> -> !ktdp.access_tile<1xindex>
      ktdp.store %r#0, %tm : tensor<1xf32>, <1xindex>
      ktdp.store %r#1, %tI : tensor<1xi32>, <1xindex>
    }
    return
  }
}
