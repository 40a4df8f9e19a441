// RUN: ktflow-opt %s --ktdf-check-supported -split-input-file -verify-diagnostics

// Rows of a 2-d tile outside its view's coordinate_set are masked by not
// moving them: a load leaves them undefined where the reference reads 0.
// That is exact only when no stored element depends on a masked row: each
// value keeps its rows apart and is stored through a tile with the same
// rows (for per-row values, a 1-d tile whose elements are the rows) in a
// view that holds no more of them. X and Y below hold 62 of their
// 64 rows (the last 4-row tile is half masked).

#x62 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 61 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// Softmax-like: a row reduction broadcast back, stored with the same rows.
func.func @kept_apart(%x: index, %y: index) attributes {grid = [16]} {
  %id = ktdp.get_compute_tile_id : index
  %c4 = arith.constant 4 : index
  %r0 = arith.muli %id, %c4 : index
  %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #x62, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [64, 64], strides: [64, 1] {coordinate_set = #x62, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %tx = ktdp.construct_access_tile %X[%r0, 0] {access_tile_set = #t, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<4x64xindex>
  %ty = ktdp.construct_access_tile %Y[%r0, 0] {access_tile_set = #t, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<4x64xindex>
  %x4 = ktdp.load %tx : <4x64xindex> -> tensor<4x64xf16>
  %ninf = arith.constant 0xFC00 : f16
  %e4 = tensor.empty() : tensor<4xf16>
  %m0 = linalg.fill ins(%ninf : f16) outs(%e4 : tensor<4xf16>) -> tensor<4xf16>
  %m = linalg.reduce ins(%x4 : tensor<4x64xf16>) outs(%m0 : tensor<4xf16>) dimensions = [1]
    (%v: f16, %acc: f16) {
      %r = arith.maximumf %v, %acc : f16
      linalg.yield %r : f16
    }
  %e = tensor.empty() : tensor<4x64xf16>
  %mb = linalg.broadcast ins(%m : tensor<4xf16>) outs(%e : tensor<4x64xf16>) dimensions = [1]
  %d = arith.subf %x4, %mb : tensor<4x64xf16>
  ktdp.store %d, %ty : tensor<4x64xf16>, <4x64xindex>
  return
}

// -----

#x62 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 61 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#y61 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 60 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
// A store may mask more rows than the load (Y holds 61), not fewer (Z all).
func.func @store_view_holds_more(%x: index, %y: index, %z: index) attributes {grid = [16]} {
  %id = ktdp.get_compute_tile_id : index
  %c4 = arith.constant 4 : index
  %r0 = arith.muli %id, %c4 : index
  %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #x62, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [64, 64], strides: [64, 1] {coordinate_set = #y61, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %Z = ktdp.construct_memory_view %z, sizes: [64, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %tx = ktdp.construct_access_tile %X[%r0, 0] {access_tile_set = #t, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<4x64xindex>
  %ty = ktdp.construct_access_tile %Y[%r0, 0] {access_tile_set = #t, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<4x64xindex>
  %tz = ktdp.construct_access_tile %Z[%r0, 0] {access_tile_set = #t, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<4x64xindex>
  // expected-error @+1 {{rows of this load may lie outside its view's coordinate_set; the scheduler masks them by not loading them, so they must not reach a stored element, but it is stored through a view that may hold rows the load's view does not}}
  %x4 = ktdp.load %tx : <4x64xindex> -> tensor<4x64xf16>
  %d = arith.addf %x4, %x4 : tensor<4x64xf16>
  ktdp.store %d, %ty : tensor<4x64xf16>, <4x64xindex>
  // expected-note @+1 {{here}}
  ktdp.store %d, %tz : tensor<4x64xf16>, <4x64xindex>
  return
}

// -----

// The shipped rmsnorm.mlir with the row origin of its load changed from
// %i * 4 to %i * 8: its rows 32 and above are masked, but stored as rows
// 16 to 31 of Y.
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @other_rows(%x: index, %y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %X = ktdp.construct_memory_view %x, sizes: [32, 128], strides: [128, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<32x128xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [32, 128], strides: [128, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<32x128xf16>
  scf.for %i = %c0 to %c8 step %c1 {
    %tx = ktdp.construct_access_tile %X[%i * 8, 0] {access_tile_set = #block, access_tile_order = #id} : memref<32x128xf16> -> !ktdp.access_tile<4x128xindex>
    %ty = ktdp.construct_access_tile %Y[%i * 4, 0] {access_tile_set = #block, access_tile_order = #id} : memref<32x128xf16> -> !ktdp.access_tile<4x128xindex>
    // expected-error @+1 {{but it is stored through a tile whose rows are not those of the load}}
    %xh = ktdp.load %tx : <4x128xindex> -> tensor<4x128xf16>
    // expected-note @+1 {{here}}
    ktdp.store %xh, %ty : tensor<4x128xf16>, <4x128xindex>
  }
  return
}

// -----

// The shipped col_reduce.mlir with X holding 62 rows: the column sums
// would fold the two masked rows.
#x62 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 61 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#cols = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @column_reduction(%x: index, %s: index) attributes {grid = [4]} {
  %id = ktdp.get_compute_tile_id : index
  %c64 = arith.constant 64 : index
  %c0 = arith.muli %id, %c64 : index
  %X = ktdp.construct_memory_view %x, sizes: [64, 256], strides: [256, 1] {coordinate_set = #x62, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
  %S = ktdp.construct_memory_view %s, sizes: [256], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<256xf16>
  %tx = ktdp.construct_access_tile %X[0, %c0] {access_tile_set = #block, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<64x64xindex>
  %ts = ktdp.construct_access_tile %S[%c0] {access_tile_set = #cols, access_tile_order = #id1} : memref<256xf16> -> !ktdp.access_tile<64xindex>
  // expected-error @+1 {{but 'linalg.reduce' reduces across its rows}}
  %xt = ktdp.load %tx : <64x64xindex> -> tensor<64x64xf16>
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<64xf16>
  %s0 = linalg.fill ins(%zero : f16) outs(%e : tensor<64xf16>) -> tensor<64xf16>
  // expected-note @+1 {{here}}
  %sum = linalg.reduce ins(%xt : tensor<64x64xf16>) outs(%s0 : tensor<64xf16>) dimensions = [0]
    (%v: f16, %acc: f16) {
      %r = arith.addf %v, %acc : f16
      linalg.yield %r : f16
    }
  ktdp.store %sum, %ts : tensor<64xf16>, <64xindex>
  return
}

// -----

// The shipped row_reduce.mlir with X holding 62 rows: the per-row sums go
// to a 1-d view that holds all 64.
#x62 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 61 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#rows = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @per_row_outputs(%x: index, %s: index) attributes {grid = [16]} {
  %id = ktdp.get_compute_tile_id : index
  %c4 = arith.constant 4 : index
  %r0 = arith.muli %id, %c4 : index
  %X = ktdp.construct_memory_view %x, sizes: [64, 256], strides: [256, 1] {coordinate_set = #x62, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
  %S = ktdp.construct_memory_view %s, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %tx = ktdp.construct_access_tile %X[%r0, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<4x256xindex>
  %ts = ktdp.construct_access_tile %S[%r0] {access_tile_set = #rows, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<4xindex>
  // expected-error @+1 {{but it is stored through a view that may hold rows the load's view does not}}
  %xt = ktdp.load %tx : <4x256xindex> -> tensor<4x256xf16>
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<4xf16>
  %s0 = linalg.fill ins(%zero : f16) outs(%e : tensor<4xf16>) -> tensor<4xf16>
  %sum = linalg.reduce ins(%xt : tensor<4x256xf16>) outs(%s0 : tensor<4xf16>) dimensions = [1]
    (%v: f16, %acc: f16) {
      %r = arith.addf %v, %acc : f16
      linalg.yield %r : f16
    }
  // expected-note @+1 {{here}}
  ktdp.store %sum, %ts : tensor<4xf16>, <4xindex>
  return
}

// -----

// Views of a runtime row count: Y holds rows below N - 1 of its N, X all N;
// the tile's rows past either are masked, and Y masks at least X's.
#xs = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#ys = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 2 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @runtime_rows(%x: index, %y: index, %N_arg: !ktdp.runtime_arg<index, upperbound=1024>) attributes {grid = [32]} {
  %id = ktdp.get_compute_tile_id : index
  %N = ktdp.runtime_arg_extract value from %N_arg : !ktdp.runtime_arg<index, upperbound=1024> -> index
  %c8 = arith.constant 8 : index
  %c256 = arith.constant 256 : index
  %start = arith.muli %id, %c8 : index
  %X = ktdp.construct_memory_view %x, sizes: [%N, 64], strides: [64, 1] {coordinate_set = #xs, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [%N, 64], strides: [64, 1] {coordinate_set = #ys, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  scf.for %r0 = %start to %N step %c256 {
    %tx = ktdp.construct_access_tile %X[%r0, 0] {access_tile_set = #t, access_tile_order = #id} : memref<?x64xf16> -> !ktdp.access_tile<8x64xindex>
    %ty = ktdp.construct_access_tile %Y[%r0, 0] {access_tile_set = #t, access_tile_order = #id} : memref<?x64xf16> -> !ktdp.access_tile<8x64xindex>
    %xt = ktdp.load %tx : <8x64xindex> -> tensor<8x64xf16>
    ktdp.store %xt, %ty : tensor<8x64xf16>, <8x64xindex>
  }
  return
}

// -----

// ... but not the other way round.
#xs = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#ys = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 2 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @runtime_rows_wider_store(%x: index, %y: index, %N_arg: !ktdp.runtime_arg<index, upperbound=1024>) attributes {grid = [32]} {
  %id = ktdp.get_compute_tile_id : index
  %N = ktdp.runtime_arg_extract value from %N_arg : !ktdp.runtime_arg<index, upperbound=1024> -> index
  %c8 = arith.constant 8 : index
  %c256 = arith.constant 256 : index
  %start = arith.muli %id, %c8 : index
  %X = ktdp.construct_memory_view %x, sizes: [%N, 64], strides: [64, 1] {coordinate_set = #xs, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [%N, 64], strides: [64, 1] {coordinate_set = #ys, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  scf.for %r0 = %start to %N step %c256 {
    %ty = ktdp.construct_access_tile %Y[%r0, 0] {access_tile_set = #t, access_tile_order = #id} : memref<?x64xf16> -> !ktdp.access_tile<8x64xindex>
    %tx = ktdp.construct_access_tile %X[%r0, 0] {access_tile_set = #t, access_tile_order = #id} : memref<?x64xf16> -> !ktdp.access_tile<8x64xindex>
    // expected-error @+1 {{but it is stored through a view that may hold rows the load's view does not}}
    %yt = ktdp.load %ty : <8x64xindex> -> tensor<8x64xf16>
    // expected-note @+1 {{here}}
    ktdp.store %yt, %tx : tensor<8x64xf16>, <8x64xindex>
  }
  return
}
