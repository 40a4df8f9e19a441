// `ktdp.get_compute_tile_id` with fewer results than the grid has
// dimensions returns the leading coordinates, x first: under [4, 1] the
// single id is the linear tile id, under [2, 2] it is x = id mod 2.
//
// @rows: tile t of a [4, 1] grid scales rows t, t + 4, t + 8, t + 12 of a
// 16x8 f16 matrix (cyclic rows) and adds t: y[r, c] = 2 x[r, c] + (r mod 4).
// With x[i] = i / 4 - 10 (flat index i = 8 r + c) every value is exact.
// RUN: python3 %S/../Simulator/Inputs/check_npy.py --write %t.x.npy "<f2" 128 "i * 0.25 - 10"
// RUN: ktflow interp %s --func rows --input x_ptr=%t.x.npy --output y_ptr=%t.rows.npy | FileCheck %s --check-prefix=ROWS
// ROWS: y_ptr: shape=16x8 dtype=f16
// RUN: python3 %S/../Simulator/Inputs/check_npy.py %t.rows.npy "2 * (i * 0.25 - 10) + (i // 8) % 4" 128
//
// @columns: a [2, 2] grid whose tiles take one id each: tiles 0 and 2 get
// x = 0, tiles 1 and 3 get x = 1, so rows 0 and 1 of the 4x8 output hold
// x + 1 and rows 2 and 3 keep their zeros (with the linear id instead,
// every row would be written).
// RUN: ktflow interp %s --func columns --input out_ptr=zeros --output out_ptr=%t.cols.npy | FileCheck %s --check-prefix=COLS
// COLS: out_ptr: shape=4x8 dtype=f32 min=0 max=2 mean=0.75
// RUN: python3 %S/../Simulator/Inputs/check_npy.py %t.cols.npy "i // 8 + 1 if i < 16 else 0" 32
//
// @three_d: a [4, 1, 1] grid, one id: tile t writes row t.
// RUN: ktflow interp %s --func three_d --input out_ptr=zeros --output out_ptr=%t.3d.npy
// RUN: python3 %S/../Simulator/Inputs/check_npy.py %t.3d.npy "i // 8" 32
//
// All three pass the legality check as written.
// RUN: ktflow check %s | FileCheck %s --check-prefix=LEGAL
// LEGAL: 3 kernels, legal

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#out = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 7 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @rows(%x_ptr: index,   // 16x8 f16 input
                  %y_ptr: index)   // 16x8 f16 output
      attributes {grid = [4, 1]} {
    %tid = ktdp.get_compute_tile_id : index      // one id, grid rank 2
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [16, 8], strides: [8, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x8xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [16, 8], strides: [8, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x8xf16>
    %two = arith.constant dense<2.0> : tensor<1x8xf16>
    %ti = arith.index_cast %tid : index to i32
    %tf = arith.sitofp %ti : i32 to f16
    %bias = tensor.splat %tf : tensor<1x8xf16>
    scf.for %r = %tid to %c16 step %c4 : index {   // cyclic rows
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id} : memref<16x8xf16> -> !ktdp.access_tile<1x8xindex>
      %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id} : memref<16x8xf16> -> !ktdp.access_tile<1x8xindex>
      %v = ktdp.load %tx : <1x8xindex> -> tensor<1x8xf16>
      %s = arith.mulf %v, %two : tensor<1x8xf16>
      %w = arith.addf %s, %bias : tensor<1x8xf16>
      ktdp.store %w, %ty : tensor<1x8xf16>, <1x8xindex>
      scf.yield
    }
    return
  }

  func.func @columns(%out_ptr: index)   // 4x8 f32 output
      attributes {grid = [2, 2]} {
    %x = ktdp.get_compute_tile_id : index        // x only
    %c1 = arith.constant 1 : index
    %O = ktdp.construct_memory_view %out_ptr, sizes: [4, 8], strides: [8, 1] {coordinate_set = #out, memory_space = #ktdp.memory_space<global>} : memref<4x8xf32>
    %t = ktdp.construct_access_tile %O[%x, 0] {access_tile_set = #row, access_tile_order = #id} : memref<4x8xf32> -> !ktdp.access_tile<1x8xindex>
    %x1 = arith.addi %x, %c1 : index
    %xi = arith.index_cast %x1 : index to i32
    %xf = arith.sitofp %xi : i32 to f32
    %v = tensor.splat %xf : tensor<1x8xf32>
    ktdp.store %v, %t : tensor<1x8xf32>, <1x8xindex>
    return
  }

  func.func @three_d(%out_ptr: index)   // 4x8 f32 output
      attributes {grid = [4, 1, 1]} {
    %t = ktdp.get_compute_tile_id : index
    %O = ktdp.construct_memory_view %out_ptr, sizes: [4, 8], strides: [8, 1] {coordinate_set = #out, memory_space = #ktdp.memory_space<global>} : memref<4x8xf32>
    %tile = ktdp.construct_access_tile %O[%t, 0] {access_tile_set = #row, access_tile_order = #id} : memref<4x8xf32> -> !ktdp.access_tile<1x8xindex>
    %ti = arith.index_cast %t : index to i32
    %tf = arith.sitofp %ti : i32 to f32
    %v = tensor.splat %tf : tensor<1x8xf32>
    ktdp.store %v, %tile : tensor<1x8xf32>, <1x8xindex>
    return
  }
}
