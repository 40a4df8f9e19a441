// RUN: ktflow-opt %s | ktflow-opt | FileCheck %s
// RUN: ktflow-opt %s --verify-roundtrip | FileCheck %s

// The smaller spelling variants real-world kernels use (field guide
// §1a.10), each written as kernels write it and printed back in the
// canonical form.

// Unused alias definitions at the top of the file are not an error.
#never_used = affine_set<(d0) : (d0 == 0)>
#never_used_map = affine_map<(d0, d1) -> (d1, d0)>
#s = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 7 >= 0)>
#m = affine_map<(d0, d1) -> (d0, d1)>
#v4 = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 1 >= 0, d3 >= 0, -d3 + 15 >= 0)>
#o4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 1023 >= 0)>
#vec4 = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#o1 = affine_map<(d0) -> (d0)>

// A space before the colon in sizes/strides; the access-tile attributes in
// reversed order.
// CHECK-LABEL: func.func @view_and_tile
func.func @view_and_tile(%p: index) {
  // CHECK: %[[V:.+]] = ktdp.construct_memory_view %{{.+}}, sizes: [1, 8], strides: [8, 1] {coordinate_set = #{{.+}}, memory_space = #ktdp.memory_space<global>} : memref<1x8xf16>
  %v = ktdp.construct_memory_view %p, sizes : [1, 8], strides : [8, 1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<1x8xf16>
  // CHECK: ktdp.construct_access_tile %[[V]][0, 0] {access_tile_order = #{{.+}}, access_tile_set = #{{.+}}} : memref<1x8xf16> -> !ktdp.access_tile<1x8xindex>
  %t = ktdp.construct_access_tile %v[0, 0] {access_tile_order = #m, access_tile_set = #s} : memref<1x8xf16> -> !ktdp.access_tile<1x8xindex>
  return
}

// The stripped access-tile type in load and store.
// CHECK-LABEL: func.func @stripped_tile_types
func.func @stripped_tile_types(%x: memref<1024xf32>, %y: memref<4xf32>) {
  %t = ktdp.construct_access_tile %x[0] {access_tile_set = #vec, access_tile_order = #o1} : memref<1024xf32> -> !ktdp.access_tile<1024xindex>
  %u = ktdp.construct_access_tile %y[0] {access_tile_set = #vec4, access_tile_order = #o1} : memref<4xf32> -> !ktdp.access_tile<4xindex>
  // CHECK: ktdp.load %{{.+}} : <1024xindex> -> tensor<1024xf32>
  %a = ktdp.load %t : <1024xindex> -> tensor<1024xf32>
  %v = arith.constant dense<1.0> : tensor<4xf32>
  // CHECK: ktdp.store %{{.+}}, %{{.+}} : tensor<4xf32>, <4xindex>
  ktdp.store %v, %u : tensor<4xf32>, <4xindex>
  return
}

// A space before the parenthesis of intermediate_variables, and the type
// list of an indirect tile broken before `->`.
// CHECK-LABEL: func.func @indirect_spellings
func.func @indirect_spellings(%X: memref<8x2x4x16xf16>, %P: memref<2x4xi32>) {
  // CHECK: ktdp.construct_indirect_access_tile intermediate_variables(%[[A:[^,]+]], %[[B:[^,]+]], %[[C:[^,]+]], %[[D:[^)]+]]) %{{.+}}[ind(%{{.+}}[%[[A]], %[[B]] floordiv 4]), (%[[C]]), (%[[B]] mod 4), (%[[D]])] {{.+}} : memref<8x2x4x16xf16>, memref<2x4xi32> -> !ktdp.access_tile<2x16x2x16xindex>
  %t = ktdp.construct_indirect_access_tile intermediate_variables (%a, %b, %c, %d) %X[ind(%P[%a, %b floordiv 4]), (%c), (%b mod 4), (%d)] {
    variables_space_set = #v4,
    variables_space_order = #o4
  } : memref<8x2x4x16xf16>, memref<2x4xi32>
      -> !ktdp.access_tile<2x16x2x16xindex>
  return
}

// scf.for with a trailing induction type, an unparenthesised iter_args
// result type, and an explicit empty terminator.
// CHECK-LABEL: func.func @loops
func.func @loops(%lo: index, %hi: index, %s: index) -> tensor<1x1024xf16> {
  %z = arith.constant dense<0.0> : tensor<1x1024xf16>
  // CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} {
  // CHECK-NEXT: }
  scf.for %r = %lo to %hi step %s : index {
    scf.yield
  }
  // CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%{{.+}} = %{{.+}}) -> (tensor<1x1024xf16>) {
  %acc = scf.for %r = %lo to %hi step %s iter_args(%a = %z) -> tensor<1x1024xf16> {
    %n = arith.addf %a, %a : tensor<1x1024xf16>
    scf.yield %n : tensor<1x1024xf16>
  }
  return %acc : tensor<1x1024xf16>
}

// Hex float literals, -inf built by a bitcast, dense splat constants, and
// trailing comments on an argument and an op.
// CHECK-LABEL: func.func @constants
func.func @constants(%x: tensor<32x512xf16>,   // scores
                     %y: tensor<4xf32>)        // values
    -> (f16, f32, tensor<32x512xf16>, tensor<4xf32>) {
  // CHECK: arith.constant 0xFC00 : f16
  %ninf = arith.constant 0xFC00 : f16   // -inf
  // CHECK: %[[BITS:.+]] = arith.constant -8388608 : i32
  // CHECK: arith.bitcast %[[BITS]] : i32 to f32
  %bits = arith.constant 0xFF800000 : i32
  %ninf32 = arith.bitcast %bits : i32 to f32
  // CHECK: arith.constant dense<0.000000e+00> : tensor<32x512xf16>
  %zeros = arith.constant dense<0.0> : tensor<32x512xf16>
  %sum = arith.addf %x, %zeros : tensor<32x512xf16>
  // CHECK: %[[ONE:.+]] = arith.constant dense<1.000000e+00> : tensor<4xf32>
  // CHECK: arith.divf %[[ONE]], %{{.+}} : tensor<4xf32>
  %one = arith.constant dense<1.0> : tensor<4xf32>
  %inv = arith.divf %one, %y : tensor<4xf32>
  return %ninf, %ninf32, %sum, %inv : f16, f32, tensor<32x512xf16>, tensor<4xf32>
}
