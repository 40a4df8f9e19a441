// arith.maximumf orders -0 below +0 and minimumf +0 above -0 (MLIR's
// semantics) on the compiled tier as in the interpreter, element-wise and
// in reductions, whichever operand holds which zero. arith-expand's
// compare-and-select expansion returned the second operand of a pair that
// compares equal: maximumf(+0, -0) was -0 and minimumf(-0, +0) +0. The
// reciprocal of each result shows its sign (+inf or -inf).
//
// RUN: ktflow interp %s --input x_ptr=value:0 --input y_ptr=value:-0 --engine=interp | FileCheck %s
// RUN: ktflow interp %s --input x_ptr=value:0 --input y_ptr=value:-0 --engine=jit 2>&1 | FileCheck %s --check-prefixes=CHECK,JIT
// JIT: engine: jit
// CHECK: max_xy_ptr: shape=4x64 dtype=f32 min=inf max=inf
// CHECK: max_yx_ptr: shape=4x64 dtype=f32 min=inf max=inf
// CHECK: min_xy_ptr: shape=4x64 dtype=f32 min=-inf max=-inf
// CHECK: min_yx_ptr: shape=4x64 dtype=f32 min=-inf max=-inf
// CHECK: rmax_ptr: shape=4 dtype=f32 min=inf max=inf
// CHECK: rmin_ptr: shape=4 dtype=f32 min=-inf max=-inf

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @signed_zeros(%x_ptr: index, %y_ptr: index, %max_xy_ptr: index,
                          %max_yx_ptr: index, %min_xy_ptr: index,
                          %min_yx_ptr: index, %rmax_ptr: index,
                          %rmin_ptr: index) attributes {grid = [4]} {
    %r = ktdp.get_compute_tile_id : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [4, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<4x64xf32>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [4, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<4x64xf32>
    %MXY = ktdp.construct_memory_view %max_xy_ptr, sizes: [4, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<4x64xf32>
    %MYX = ktdp.construct_memory_view %max_yx_ptr, sizes: [4, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<4x64xf32>
    %NXY = ktdp.construct_memory_view %min_xy_ptr, sizes: [4, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<4x64xf32>
    %NYX = ktdp.construct_memory_view %min_yx_ptr, sizes: [4, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<4x64xf32>
    %RMAX = ktdp.construct_memory_view %rmax_ptr, sizes: [4], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<4xf32>
    %RMIN = ktdp.construct_memory_view %rmin_ptr, sizes: [4], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<4xf32>
    %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<4x64xf32> -> !ktdp.access_tile<1x64xindex>
    %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<4x64xf32> -> !ktdp.access_tile<1x64xindex>
    %x = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf32>
    %y = ktdp.load %ty : <1x64xindex> -> tensor<1x64xf32>
    %ones = arith.constant dense<1.0> : tensor<1x64xf32>
    %mxy = arith.maximumf %x, %y : tensor<1x64xf32>
    %myx = arith.maximumf %y, %x : tensor<1x64xf32>
    %nxy = arith.minimumf %x, %y : tensor<1x64xf32>
    %nyx = arith.minimumf %y, %x : tensor<1x64xf32>
    %imxy = arith.divf %ones, %mxy : tensor<1x64xf32>
    %imyx = arith.divf %ones, %myx : tensor<1x64xf32>
    %inxy = arith.divf %ones, %nxy : tensor<1x64xf32>
    %inyx = arith.divf %ones, %nyx : tensor<1x64xf32>
    // A row of +0 folded into -0 by maximumf, a row of -0 into +0 by minimumf.
    %nzero = arith.constant dense<-0.0> : tensor<1xf32>
    %pzero = arith.constant dense<0.0> : tensor<1xf32>
    %rmax = linalg.reduce ins(%x : tensor<1x64xf32>) outs(%nzero : tensor<1xf32>) dimensions = [1]
      (%in: f32, %acc: f32) {
        %m = arith.maximumf %in, %acc : f32
        linalg.yield %m : f32
      }
    %rmin = linalg.reduce ins(%y : tensor<1x64xf32>) outs(%pzero : tensor<1xf32>) dimensions = [1]
      (%in: f32, %acc: f32) {
        %m = arith.minimumf %in, %acc : f32
        linalg.yield %m : f32
      }
    %one = arith.constant dense<1.0> : tensor<1xf32>
    %irmax = arith.divf %one, %rmax : tensor<1xf32>
    %irmin = arith.divf %one, %rmin : tensor<1xf32>
    %tmxy = ktdp.construct_access_tile %MXY[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<4x64xf32> -> !ktdp.access_tile<1x64xindex>
    %tmyx = ktdp.construct_access_tile %MYX[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<4x64xf32> -> !ktdp.access_tile<1x64xindex>
    %tnxy = ktdp.construct_access_tile %NXY[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<4x64xf32> -> !ktdp.access_tile<1x64xindex>
    %tnyx = ktdp.construct_access_tile %NYX[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<4x64xf32> -> !ktdp.access_tile<1x64xindex>
    %trmax = ktdp.construct_access_tile %RMAX[%r] {access_tile_set = #one, access_tile_order = #id1} : memref<4xf32> -> !ktdp.access_tile<1xindex>
    %trmin = ktdp.construct_access_tile %RMIN[%r] {access_tile_set = #one, access_tile_order = #id1} : memref<4xf32> -> !ktdp.access_tile<1xindex>
    ktdp.store %imxy, %tmxy : tensor<1x64xf32>, <1x64xindex>
    ktdp.store %imyx, %tmyx : tensor<1x64xf32>, <1x64xindex>
    ktdp.store %inxy, %tnxy : tensor<1x64xf32>, <1x64xindex>
    ktdp.store %inyx, %tnyx : tensor<1x64xf32>, <1x64xindex>
    ktdp.store %irmax, %trmax : tensor<1xf32>, <1xindex>
    ktdp.store %irmin, %trmin : tensor<1xf32>, <1xindex>
    return
  }
}
