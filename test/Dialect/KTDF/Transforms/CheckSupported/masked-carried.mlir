// RUN: ktflow-opt %s --ktdf-check-supported -split-input-file -verify-diagnostics

// Masked coordinates through loop-carried values (scf.yield, iter_args).
// The check alone sees the carrying loops (the pipeline unrolls those of
// constant trips before it and keeps what the others carry in the
// scratchpad, ktdf-carry-in-scratchpad). A masked load reads 0 where its
// view ends, as the reference does (the DMA lowering zeroes what it does
// not load), so a masked coordinate may be carried into any later
// iteration: nothing here is refused.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// Rows past the views (n_rows > 64) are masked; the column-block loop's
// tiles all lie in row %row, so a masked row's running sum only reaches
// the store of that row, which skips it. The row's maximum of the carried
// sum is spread back over its own row.
func.func @rows_carried(%x_ptr: index, %y_ptr: index, %n_rows: index) attributes {grid = [16, 1]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %N = arith.constant 512 : index
  %BLOCK_SIZE = arith.constant 128 : index
  %ninf = arith.constant 0xFC00 : f16
  %zeros = arith.constant dense<0.0> : tensor<1x128xf16>
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 512], strides: [512, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x512xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 512], strides: [512, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x512xf16>
  scf.for %row = %pid to %n_rows step %c16 : index {
    %acc = scf.for %off = %c0 to %N step %BLOCK_SIZE iter_args(%a = %zeros) -> tensor<1x128xf16> {
      %r = arith.addi %row, %c0 : index
      %tx = ktdp.construct_access_tile %X[%r, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x128xindex>
      %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
      %a2 = arith.addf %a, %x : tensor<1x128xf16>
      scf.yield %a2 : tensor<1x128xf16>
    }
    %i = tensor.splat %ninf : tensor<1xf16>
    %mx = linalg.reduce { arith.maxnumf } ins(%acc : tensor<1x128xf16>) outs(%i : tensor<1xf16>) dimensions = [1]
    %m = tensor.extract %mx[%c0] : tensor<1xf16>
    %mb = tensor.splat %m : tensor<1x128xf16>
    %y = arith.subf %acc, %mb : tensor<1x128xf16>
    %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x128xindex>
    ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
    scf.yield
  }
  return
}

// -----

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// A loaded row as the initial value of what a loop carries, stored after
// the loop through the same row: accepted.
func.func @row_as_init(%x_ptr: index, %y_ptr: index, %n_rows: index) attributes {grid = [16, 1]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c16 = arith.constant 16 : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 512], strides: [512, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x512xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 512], strides: [512, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x512xf16>
  scf.for %row = %pid to %n_rows step %c16 : index {
    %tx = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x128xindex>
    %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
    %p = scf.for %k = %c0 to %c3 step %c1 iter_args(%a = %x) -> tensor<1x128xf16> {
      %a2 = arith.mulf %a, %x : tensor<1x128xf16>
      scf.yield %a2 : tensor<1x128xf16>
    }
    %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x128xindex>
    ktdp.store %p, %ty : tensor<1x128xf16>, <1x128xindex>
    scf.yield
  }
  return
}

// -----

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// layernorm_rows' column blocks up to a plain index N: columns past the
// view's 512 may be masked, and the loop carries block b's column 128 b + j
// into the sum with block b + 1's column 128 (b + 1) + j, so a masked
// column reaches a stored element (the 0 the load reads, as the
// reference's).
func.func @columns_carried(%x_ptr: index, %y_ptr: index, %N: index) attributes {grid = [16, 1]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %BLOCK_SIZE = arith.constant 128 : index
  %zeros = arith.constant dense<0.0> : tensor<1x128xf16>
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 512], strides: [512, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x512xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 512], strides: [512, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x512xf16>
  %acc = scf.for %off = %c0 to %N step %BLOCK_SIZE iter_args(%a = %zeros) -> tensor<1x128xf16> {
    %tx = ktdp.construct_access_tile %X[%pid, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x128xindex>
    %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
    %a2 = arith.addf %a, %x : tensor<1x128xf16>
    scf.yield %a2 : tensor<1x128xf16>
  }
  %ty = ktdp.construct_access_tile %Y[%pid, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x128xindex>
  ktdp.store %acc, %ty : tensor<1x128xf16>, <1x128xindex>
  return
}

// -----

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// A sum down the rows carried by the row loop, stored in the last row
// read: a masked row adds its 0s into the rows stored after it.
func.func @rows_summed_by_loop(%x_ptr: index, %y_ptr: index, %n: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zeros = arith.constant dense<0.0> : tensor<1x128xf16>
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %s = scf.for %r = %c0 to %n step %c1 iter_args(%a = %zeros) -> tensor<1x128xf16> {
    %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
    %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
    %a2 = arith.addf %a, %x : tensor<1x128xf16>
    %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
    ktdp.store %a2, %ty : tensor<1x128xf16>, <1x128xindex>
    scf.yield %a2 : tensor<1x128xf16>
  }
  return
}

// -----

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// The same column blocks up to min(N, 512): the loop's upper bound is at
// most 512, so every block lies inside the view and nothing is masked.
func.func @columns_clamped(%x_ptr: index, %y_ptr: index, %N: index) attributes {grid = [16, 1]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c512 = arith.constant 512 : index
  %BLOCK_SIZE = arith.constant 128 : index
  %zeros = arith.constant dense<0.0> : tensor<1x128xf16>
  %n = arith.minsi %N, %c512 : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 512], strides: [512, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x512xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 512], strides: [512, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x512xf16>
  %acc = scf.for %off = %c0 to %n step %BLOCK_SIZE iter_args(%a = %zeros) -> tensor<1x128xf16> {
    %tx = ktdp.construct_access_tile %X[%pid, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x128xindex>
    %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
    %a2 = arith.addf %a, %x : tensor<1x128xf16>
    scf.yield %a2 : tensor<1x128xf16>
  }
  %ty = ktdp.construct_access_tile %Y[%pid, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x128xindex>
  ktdp.store %acc, %ty : tensor<1x128xf16>, <1x128xindex>
  return
}
