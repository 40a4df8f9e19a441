// Indirect access tiles on the compiled tier (docs/cpu-jit.md): each
// subscript is an affine expression or a value read from an integer index
// view; the outputs must be the interpreter's bit for bit.
//
// A gather through i32 row ids, over a triangular variables space (the
// positions outside it load 0) walked in transposed order, with a direct
// subscript in `floordiv`/`mod` of the tile id.
// RUN: rm -rf %t && mkdir -p %t
// RUN: ktflow interp %s --func gather --seed 7 --input idx=range:0:8 --engine=interp > %t/gather.interp
// RUN: ktflow interp %s --func gather --seed 7 --input idx=range:0:8 --engine=jit > %t/gather.jit 2> %t/gather.note
// RUN: diff %t/gather.interp %t/gather.jit
// RUN: FileCheck %s --check-prefix=JIT --input-file=%t/gather.note
// JIT: engine: jit
//
// Two index views, one per base dimension, and a scatter through them.
// RUN: ktflow interp %s --func scatter2d --seed 7 --input rows=range:0:4 --input cols=value:1 --engine=interp > %t/scatter.interp
// RUN: ktflow interp %s --func scatter2d --seed 7 --input rows=range:0:4 --input cols=value:1 --engine=jit > %t/scatter.jit 2> %t/scatter.note
// RUN: diff %t/scatter.interp %t/scatter.jit
// RUN: FileCheck %s --check-prefix=JIT --input-file=%t/scatter.note
//
// An index outside the base view's coordinates is the interpreter's error:
// the tier notices it, and the interpreter reports it at the op.
// RUN: not ktflow interp %s --func gather --input idx=value:8 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: note: engine: interp (jit: an index read outside its view or out of range)
// RANGE: error: 'ktdp.load' op tile 0: index value 8 read from the index view at (0) is out of range [0, 7] of dimension 0 of the view
//
// So is a read of the index view outside its coordinate_set.
// RUN: not ktflow interp %s --func index_outside_set 2>&1 | FileCheck %s --check-prefix=OUTSIDE
// OUTSIDE: note: engine: interp (jit: an index read outside its view or out of range)
// OUTSIDE: error: 'ktdp.load' op tile 0: reading the index view of dimension 0: coordinate (3) is outside the index view's coordinate_set
//
// A subscript taken `mod 0` (campaign 3, seed 1727: paged_kv_gather's
// `%t mod 16` mutated) has no value in the interpreter; native code would
// divide by zero (it faulted). The tier refuses any affine floordiv,
// ceildiv or mod by a divisor that is not a positive constant, and the
// interpreter reports the subscript.
// RUN: not ktflow interp %s --func mod_zero --input idx=range:0:8 2>&1 | FileCheck %s --check-prefix=MOD0
// RUN: not ktflow interp %s --func mod_zero --input idx=range:0:8 --engine=jit 2>&1 | FileCheck %s --check-prefix=MOD0-JIT
// MOD0: note: engine: interp (jit: not lowerable: 'ktdp.construct_indirect_access_tile' with an affine floordiv, ceildiv or mod by a divisor that is not a positive constant)
// MOD0: error: 'ktdp.load' op tile 0: subscript evaluation failed (division by zero)
// MOD0-JIT: error: --engine=jit: not lowerable: 'ktdp.construct_indirect_access_tile' with an affine floordiv, ceildiv or mod by a divisor that is not a positive constant

#x8x4 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#v4 = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#v3 = affine_set<(d0) : (d0 >= 0, -d0 + 2 >= 0)>
#y4x4 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#tri = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, d0 - d1 >= 0)>
#var4x4 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#var4x1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#swap = affine_map<(d0, d1) -> (d1, d0)>
module {
  // Tile g gathers rows idx[0..3] of X into a 4x4 tile, keeping the
  // lower triangle, column (j + g floordiv 2) mod 4; Y[g] = the tile.
  func.func @gather(%x: index, %idx: index, %y: index) attributes {grid = [2]} {
    %g = ktdp.get_compute_tile_id : index
    %c4 = arith.constant 4 : index
    %row = arith.muli %g, %c4 : index
    %X = ktdp.construct_memory_view %x, sizes: [8, 4], strides: [4, 1] {coordinate_set = #x8x4, memory_space = #ktdp.memory_space<global>} : memref<8x4xf16>
    %I = ktdp.construct_memory_view %idx, sizes: [4], strides: [1] {coordinate_set = #v4, memory_space = #ktdp.memory_space<global>} : memref<4xi32>
    %Y = ktdp.construct_memory_view %y, sizes: [8, 4], strides: [4, 1] {coordinate_set = #x8x4, memory_space = #ktdp.memory_space<global>} : memref<8x4xf16>
    %t = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %X[ind(%I[%i]), ((%j + %g floordiv 2) mod 4)] {variables_space_set = #tri, variables_space_order = #swap} : memref<8x4xf16>, memref<4xi32> -> !ktdp.access_tile<4x4xindex>
    %v = ktdp.load %t : !ktdp.access_tile<4x4xindex> -> tensor<4x4xf16>
    %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #var4x4, access_tile_order = #id2} : memref<8x4xf16> -> !ktdp.access_tile<4x4xindex>
    ktdp.store %v, %ty : tensor<4x4xf16>, !ktdp.access_tile<4x4xindex>
    return
  }

  // Z[rows[i], cols[i]] = V[i] for i < 4; Z's other elements stay 0.
  func.func @scatter2d(%v: index, %rows: index, %cols: index, %z: index) attributes {grid = [1]} {
    %V = ktdp.construct_memory_view %v, sizes: [4, 1], strides: [1, 1] {coordinate_set = #var4x1, memory_space = #ktdp.memory_space<global>} : memref<4x1xf32>
    %R = ktdp.construct_memory_view %rows, sizes: [4], strides: [1] {coordinate_set = #v4, memory_space = #ktdp.memory_space<global>} : memref<4xi64>
    %C = ktdp.construct_memory_view %cols, sizes: [4], strides: [1] {coordinate_set = #v4, memory_space = #ktdp.memory_space<global>} : memref<4xi64>
    %Z = ktdp.construct_memory_view %z, sizes: [4, 4], strides: [4, 1] {coordinate_set = #y4x4, memory_space = #ktdp.memory_space<global>} : memref<4x4xf32>
    %tv = ktdp.construct_access_tile %V[0, 0] {access_tile_set = #var4x1, access_tile_order = #id2} : memref<4x1xf32> -> !ktdp.access_tile<4x1xindex>
    %data = ktdp.load %tv : !ktdp.access_tile<4x1xindex> -> tensor<4x1xf32>
    %tz = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %Z[ind(%R[%i + %j]), ind(%C[%i])] {variables_space_set = #var4x1, variables_space_order = #id2} : memref<4x4xf32>, memref<4xi64>, memref<4xi64> -> !ktdp.access_tile<4x1xindex>
    ktdp.store %data, %tz : tensor<4x1xf32>, !ktdp.access_tile<4x1xindex>
    return
  }

  // Y = X[idx[i], j mod 0]: no subscript has a value.
  func.func @mod_zero(%x: index, %idx: index, %y: index) attributes {grid = [1]} {
    %X = ktdp.construct_memory_view %x, sizes: [8, 4], strides: [4, 1] {coordinate_set = #x8x4, memory_space = #ktdp.memory_space<global>} : memref<8x4xf16>
    %I = ktdp.construct_memory_view %idx, sizes: [4], strides: [1] {coordinate_set = #v4, memory_space = #ktdp.memory_space<global>} : memref<4xi32>
    %Y = ktdp.construct_memory_view %y, sizes: [4, 4], strides: [4, 1] {coordinate_set = #y4x4, memory_space = #ktdp.memory_space<global>} : memref<4x4xf16>
    %t = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %X[ind(%I[%i]), (%j mod 0)] {variables_space_set = #var4x4, variables_space_order = #id2} : memref<8x4xf16>, memref<4xi32> -> !ktdp.access_tile<4x4xindex>
    %v = ktdp.load %t : !ktdp.access_tile<4x4xindex> -> tensor<4x4xf16>
    %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #var4x4, access_tile_order = #id2} : memref<4x4xf16> -> !ktdp.access_tile<4x4xindex>
    ktdp.store %v, %ty : tensor<4x4xf16>, !ktdp.access_tile<4x4xindex>
    return
  }

  // The index view's coordinate_set holds 3 of its 4 elements.
  func.func @index_outside_set(%x: index, %idx: index) attributes {grid = [1]} {
    %X = ktdp.construct_memory_view %x, sizes: [8, 4], strides: [4, 1] {coordinate_set = #x8x4, memory_space = #ktdp.memory_space<global>} : memref<8x4xf16>
    %I = ktdp.construct_memory_view %idx, sizes: [4], strides: [1] {coordinate_set = #v3, memory_space = #ktdp.memory_space<global>} : memref<4xi32>
    %t = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %X[ind(%I[%i]), (%j)] {variables_space_set = #var4x4, variables_space_order = #id2} : memref<8x4xf16>, memref<4xi32> -> !ktdp.access_tile<4x4xindex>
    %v = ktdp.load %t : !ktdp.access_tile<4x4xindex> -> tensor<4x4xf16>
    return
  }
}
