// RUN: ktflow-opt %s -split-input-file --ktdf-import-target --ktdf-split-output-blocks | FileCheck %s
// RUN: ktflow-opt %s -split-input-file --ktdf-import-target --ktdf-split-output-blocks=use-lanes=false | FileCheck %s --check-prefix=CORES

// A Triton-style blocked product on spyre_like: 32 grid points, 32 cores x
// 2 corelets = 64 instances, so 2 copies per point; the 512 columns of
// each block split into two slices of 256 (>= min-columns = 64). The
// right operand, the accumulator the K loop carries, the product's output
// and the stored tile are sliced; the left operand (32x128) is loaded
// whole by both copies.

// CHECK-LABEL: func.func @blocked
// CHECK-SAME: grid = [2, 16, 2]
// CHECK: %[[PM:.*]]:3 = ktdp.get_compute_tile_id : index, index, index
// CHECK: %[[W:.*]] = arith.constant 256 : index
// CHECK: %[[COL:.*]] = arith.muli %[[PM]]#2, %[[W]] : index
// CHECK: arith.constant dense<0.000000e+00> : tensor<32x256xf16>
// CHECK: scf.for {{.*}} -> (tensor<32x256xf16>)
// CHECK: ktdp.construct_access_tile %{{.*}}[%{{.*}}, %{{.*}}] {{.*}} -> !ktdp.access_tile<32x128xindex>
// CHECK: %[[TB:.*]] = ktdp.construct_access_tile %{{.*}}[%{{.*}}, %{{.*}} + %[[COL]]] {{.*}} -> !ktdp.access_tile<128x256xindex>
// CHECK: ktdp.load %[[TB]] : <128x256xindex> -> tensor<128x256xf16>
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<32x128xf16>, tensor<128x256xf16>) outs(%{{.*}} : tensor<32x256xf16>) -> tensor<32x256xf16>
// CHECK: arith.addf %{{.*}}, %{{.*}} : tensor<32x256xf16>
// CHECK: %[[TC:.*]] = ktdp.construct_access_tile %{{.*}}[%{{.*}}, %{{.*}} + %[[COL]]] {{.*}} -> !ktdp.access_tile<32x256xindex>
// CHECK: ktdp.store %{{.*}}, %[[TC]] : tensor<32x256xf16>, <32x256xindex>

// With one lane per core (the tuner's `lanes=off`), as ktdf-distribute
// counts them, the 32 points already fill the 32 cores: no split.
// CORES-LABEL: func.func @blocked
// CORES-SAME: grid = [2, 16]}
#a_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#b_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 8191 >= 0)>
#c_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 8191 >= 0)>
#a_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#b_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#c_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @blocked(%a_ptr: index, %b_ptr: index, %c_ptr: index, %K: index) attributes {grid = [2, 16]} {
    %pm, %pn = ktdp.get_compute_tile_id : index, index
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %c512 = arith.constant 512 : index
    %off_m = arith.muli %pm, %c32 : index
    %off_n = arith.muli %pn, %c512 : index
    %A = ktdp.construct_memory_view %a_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #a_set, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %B = ktdp.construct_memory_view %b_ptr, sizes: [256, 8192], strides: [8192, 1] {coordinate_set = #b_set, memory_space = #ktdp.memory_space<global>} : memref<256x8192xf16>
    %C = ktdp.construct_memory_view %c_ptr, sizes: [64, 8192], strides: [8192, 1] {coordinate_set = #c_set, memory_space = #ktdp.memory_space<global>} : memref<64x8192xf16>
    %zero = arith.constant dense<0.0> : tensor<32x512xf16>
    %acc = scf.for %off_k = %c0 to %K step %c128 iter_args(%running = %zero) -> tensor<32x512xf16> {
      %ta = ktdp.construct_access_tile %A[%off_m, %off_k] {access_tile_set = #a_blk, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<32x128xindex>
      %tb = ktdp.construct_access_tile %B[%off_k, %off_n] {access_tile_set = #b_blk, access_tile_order = #id2} : memref<256x8192xf16> -> !ktdp.access_tile<128x512xindex>
      %a = ktdp.load %ta : <32x128xindex> -> tensor<32x128xf16>
      %b = ktdp.load %tb : <128x512xindex> -> tensor<128x512xf16>
      %empty = tensor.empty() : tensor<32x512xf16>
      %prod = linalg.matmul ins(%a, %b : tensor<32x128xf16>, tensor<128x512xf16>) outs(%empty : tensor<32x512xf16>) -> tensor<32x512xf16>
      %next = arith.addf %running, %prod : tensor<32x512xf16>
      scf.yield %next : tensor<32x512xf16>
    }
    %tc = ktdp.construct_access_tile %C[%off_m, %off_n] {access_tile_set = #c_blk, access_tile_order = #id2} : memref<64x8192xf16> -> !ktdp.access_tile<32x512xindex>
    ktdp.store %acc, %tc : tensor<32x512xf16>, <32x512xindex>
    return
  }
}

// -----

// The same product on sample_device: 4 cores x 2 lanes = 8 instances for
// 32 points, none idle: nothing changes.
// CHECK-LABEL: func.func @blocked
// CHECK-SAME: grid = [2, 16]
// CHECK: ktdp.get_compute_tile_id : index, index
// CHECK-NOT: grid
// CHECK: ktdp.store %{{.*}}, %{{.*}} : tensor<32x512xf16>, <32x512xindex>
#a_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#b_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 8191 >= 0)>
#c_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 8191 >= 0)>
#a_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#b_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#c_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">
  func.func @blocked(%a_ptr: index, %b_ptr: index, %c_ptr: index) attributes {grid = [2, 16]} {
    %pm, %pn = ktdp.get_compute_tile_id : index, index
    %c32 = arith.constant 32 : index
    %c512 = arith.constant 512 : index
    %off_m = arith.muli %pm, %c32 : index
    %off_n = arith.muli %pn, %c512 : index
    %A = ktdp.construct_memory_view %a_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #a_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %B = ktdp.construct_memory_view %b_ptr, sizes: [128, 8192], strides: [8192, 1] {coordinate_set = #b_set, memory_space = #ktdp.memory_space<global>} : memref<128x8192xf16>
    %C = ktdp.construct_memory_view %c_ptr, sizes: [64, 8192], strides: [8192, 1] {coordinate_set = #c_set, memory_space = #ktdp.memory_space<global>} : memref<64x8192xf16>
    %ta = ktdp.construct_access_tile %A[%off_m, 0] {access_tile_set = #a_blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<32x128xindex>
    %tb = ktdp.construct_access_tile %B[0, %off_n] {access_tile_set = #b_blk, access_tile_order = #id2} : memref<128x8192xf16> -> !ktdp.access_tile<128x512xindex>
    %a = ktdp.load %ta : <32x128xindex> -> tensor<32x128xf16>
    %b = ktdp.load %tb : <128x512xindex> -> tensor<128x512xf16>
    %zero = arith.constant dense<0.0> : tensor<32x512xf16>
    %prod = linalg.matmul ins(%a, %b : tensor<32x128xf16>, tensor<128x512xf16>) outs(%zero : tensor<32x512xf16>) -> tensor<32x512xf16>
    %tc = ktdp.construct_access_tile %C[%off_m, %off_n] {access_tile_set = #c_blk, access_tile_order = #id2} : memref<64x8192xf16> -> !ktdp.access_tile<32x512xindex>
    ktdp.store %prod, %tc : tensor<32x512xf16>, <32x512xindex>
    return
  }
}

// -----

// A left operand computed from a load (an attention's probabilities, a
// SwiGLU's gate): every copy would compute it again, so spyre_like's idle
// corelets stay idle and nothing changes.
// CHECK-LABEL: func.func @computed_left
// CHECK-SAME: grid = [2, 16]
// CHECK: ktdp.get_compute_tile_id : index, index
// CHECK: ktdp.store %{{.*}}, %{{.*}} : tensor<32x512xf16>, <32x512xindex>
#a_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#b_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 8191 >= 0)>
#c_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 8191 >= 0)>
#a_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#b_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#c_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @computed_left(%a_ptr: index, %b_ptr: index, %c_ptr: index) attributes {grid = [2, 16]} {
    %pm, %pn = ktdp.get_compute_tile_id : index, index
    %c32 = arith.constant 32 : index
    %c512 = arith.constant 512 : index
    %off_m = arith.muli %pm, %c32 : index
    %off_n = arith.muli %pn, %c512 : index
    %A = ktdp.construct_memory_view %a_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #a_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %B = ktdp.construct_memory_view %b_ptr, sizes: [128, 8192], strides: [8192, 1] {coordinate_set = #b_set, memory_space = #ktdp.memory_space<global>} : memref<128x8192xf16>
    %C = ktdp.construct_memory_view %c_ptr, sizes: [64, 8192], strides: [8192, 1] {coordinate_set = #c_set, memory_space = #ktdp.memory_space<global>} : memref<64x8192xf16>
    %ta = ktdp.construct_access_tile %A[%off_m, 0] {access_tile_set = #a_blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<32x128xindex>
    %tb = ktdp.construct_access_tile %B[0, %off_n] {access_tile_set = #b_blk, access_tile_order = #id2} : memref<128x8192xf16> -> !ktdp.access_tile<128x512xindex>
    %a = ktdp.load %ta : <32x128xindex> -> tensor<32x128xf16>
    %p = math.exp %a : tensor<32x128xf16>
    %b = ktdp.load %tb : <128x512xindex> -> tensor<128x512xf16>
    %zero = arith.constant dense<0.0> : tensor<32x512xf16>
    %prod = linalg.matmul ins(%p, %b : tensor<32x128xf16>, tensor<128x512xf16>) outs(%zero : tensor<32x512xf16>) -> tensor<32x512xf16>
    %tc = ktdp.construct_access_tile %C[%off_m, %off_n] {access_tile_set = #c_blk, access_tile_order = #id2} : memref<64x8192xf16> -> !ktdp.access_tile<32x512xindex>
    ktdp.store %prod, %tc : tensor<32x512xf16>, <32x512xindex>
    return
  }
}

// -----

// Column reductions and no product (the shipped col_reduce): 4 points on
// spyre_like's 64 instances, each folding a 64x64 tile down its rows into
// 64 column sums and maxima. Each column folds on its own, so copy %j
// loads columns [16 %j, 16 %j + 16) (slices of min-reduction-columns = 16;
// 16 idle instances per point allow 4 copies), reduces them and stores its
// 16 sums and maxima, the same values in the same order.

// CHECK-LABEL: func.func @col_sums
// CHECK-SAME: grid = [4, 4]
// CHECK: %[[ID:.*]]:2 = ktdp.get_compute_tile_id : index, index
// CHECK: %[[COL:.*]] = arith.muli %[[ID]]#1, %{{.*}} : index
// CHECK: ktdp.construct_access_tile %{{.*}}[0, %{{.*}} + %[[COL]]] {{.*}} -> !ktdp.access_tile<64x16xindex>
// CHECK: ktdp.load %{{.*}} -> tensor<64x16xf16>
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<64x16xf16>) outs(%{{.*}} : tensor<16xf32>)
// CHECK: linalg.reduce ins(%{{.*}} : tensor<64x16xf16>) outs(%{{.*}} : tensor<16xf16>) dimensions = [0]
// CHECK: ktdp.construct_access_tile %{{.*}}[%{{.*}} + %[[COL]]] {{.*}} -> !ktdp.access_tile<16xindex>
// CHECK: ktdp.store %{{.*}} : tensor<16xf16>, <16xindex>

ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#cols = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @col_sums(%x: index, %s: index, %m: index) attributes {grid = [4]} {
  %id = ktdp.get_compute_tile_id : index
  %c64 = arith.constant 64 : index
  %c0 = arith.muli %id, %c64 : index
  %X = ktdp.construct_memory_view %x, sizes: [64, 256], strides: [256, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
  %S = ktdp.construct_memory_view %s, sizes: [256], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<256xf16>
  %M = ktdp.construct_memory_view %m, sizes: [256], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<256xf16>
  %tx = ktdp.construct_access_tile %X[0, %c0] {access_tile_set = #block, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<64x64xindex>
  %ts = ktdp.construct_access_tile %S[%c0] {access_tile_set = #cols, access_tile_order = #id1} : memref<256xf16> -> !ktdp.access_tile<64xindex>
  %tm = ktdp.construct_access_tile %M[%c0] {access_tile_set = #cols, access_tile_order = #id1} : memref<256xf16> -> !ktdp.access_tile<64xindex>
  %xt = ktdp.load %tx : <64x64xindex> -> tensor<64x64xf16>
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFC00 : f16
  %e32 = tensor.empty() : tensor<64xf32>
  %e16 = tensor.empty() : tensor<64xf16>
  %sum0 = linalg.fill ins(%zero : f32) outs(%e32 : tensor<64xf32>) -> tensor<64xf32>
  %max0 = linalg.fill ins(%ninf : f16) outs(%e16 : tensor<64xf16>) -> tensor<64xf16>
  %sum = linalg.generic {indexing_maps = [#id2, #col], iterator_types = ["reduction", "parallel"]}
      ins(%xt : tensor<64x64xf16>) outs(%sum0 : tensor<64xf32>) {
    ^bb0(%v: f16, %acc: f32):
      %w = arith.extf %v : f16 to f32
      %a = arith.addf %w, %acc : f32
      linalg.yield %a : f32
  } -> tensor<64xf32>
  %max = linalg.reduce ins(%xt : tensor<64x64xf16>) outs(%max0 : tensor<64xf16>) dimensions = [0]
    (%v: f16, %acc: f16) {
      %r = arith.maximumf %v, %acc : f16
      linalg.yield %r : f16
    }
  %sum16 = arith.truncf %sum : tensor<64xf32> to tensor<64xf16>
  ktdp.store %sum16, %ts : tensor<64xf16>, <64xindex>
  ktdp.store %max, %tm : tensor<64xf16>, <64xindex>
  return
}

// -----

// Not split: a reduction along the columns (one value per row) folds the
// whole row; a slice of columns would give partial sums.

// CHECK-LABEL: func.func @row_sums
// CHECK-SAME: grid = [4]

ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rows = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @row_sums(%x: index, %s: index) attributes {grid = [4]} {
  %id = ktdp.get_compute_tile_id : index
  %c64 = arith.constant 64 : index
  %r0 = arith.muli %id, %c64 : index
  %X = ktdp.construct_memory_view %x, sizes: [256, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<256x64xf16>
  %S = ktdp.construct_memory_view %s, sizes: [256], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<256xf16>
  %tx = ktdp.construct_access_tile %X[%r0, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<256x64xf16> -> !ktdp.access_tile<64x64xindex>
  %ts = ktdp.construct_access_tile %S[%r0] {access_tile_set = #rows, access_tile_order = #id1} : memref<256xf16> -> !ktdp.access_tile<64xindex>
  %xt = ktdp.load %tx : <64x64xindex> -> tensor<64x64xf16>
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<64xf16>
  %init = linalg.fill ins(%zero : f16) outs(%e : tensor<64xf16>) -> tensor<64xf16>
  %sum = linalg.reduce ins(%xt : tensor<64x64xf16>) outs(%init : tensor<64xf16>) dimensions = [1]
    (%v: f16, %acc: f16) {
      %r = arith.addf %v, %acc : f16
      linalg.yield %r : f16
    }
  ktdp.store %sum, %ts : tensor<64xf16>, <64xindex>
  return
}
