// RUN: ktflow-opt %s | ktflow-opt | FileCheck %s
// RUN: ktflow-opt %s --verify-roundtrip | FileCheck %s

// One round-trip per spyreop intrinsic, the df16 family of types, both
// spellings of idx32toaddr and every slice_reduction enum case.

// CHECK-LABEL: func.func @integer_ops
// CHECK-SAME: (%[[A:[^:]+]]: i32, %[[B:[^:]+]]: i32, %[[C:[^:]+]]: i64)
func.func @integer_ops(%a: i32, %b: i32, %c: i64) {
  // CHECK: spyreop.addi32toi32 %[[A]], %[[B]]{{$}}
  %0 = spyreop.addi32toi32 %a, %b
  // CHECK: spyreop.addi64toi64 %[[C]], %[[C]]{{$}}
  %1 = spyreop.addi64toi64 %c, %c
  // CHECK: spyreop.muli32toi32 %[[A]], %[[B]]{{$}}
  %2 = spyreop.muli32toi32 %a, %b
  // Base and stride as SSA values...
  // CHECK: spyreop.idx32toaddr %[[A]] base %[[B]] stride %[[B]]{{$}}
  %3 = spyreop.idx32toaddr %a base %b stride %b
  // ... or as literals; hex is accepted and printed in decimal.
  // CHECK: spyreop.idx32toaddr %[[A]] base 3735928559 stride 4{{$}}
  %4 = spyreop.idx32toaddr %a base 0xDEADBEEF stride 4
  // CHECK: spyreop.idx32toaddr %[[A]] base -4 stride %[[B]]{{$}}
  %5 = spyreop.idx32toaddr %a base -4 stride %b
  return
}

// CHECK-LABEL: func.func @unary_ops
// CHECK-SAME: (%[[H:[^:]+]]: f16, %[[D:[^:]+]]: !spyreop.df16, %[[F:[^:]+]]: f32)
func.func @unary_ops(%h: f16, %d: !spyreop.df16, %f: f32) {
  // CHECK: spyreop.exp %[[D]] : !spyreop.df16
  %0 = spyreop.exp %d : !spyreop.df16
  // CHECK: spyreop.sigmoid %[[H]] : f16
  %1 = spyreop.sigmoid %h : f16
  // CHECK: spyreop.silu %[[F]] : f32
  %2 = spyreop.silu %f : f32
  // CHECK: spyreop.sqrt %[[D]] : !spyreop.df16
  %3 = spyreop.sqrt %d : !spyreop.df16
  // CHECK: spyreop.reciprocal %[[F]] : f32
  %4 = spyreop.reciprocal %f : f32
  // CHECK: spyreop.rsqrt %[[H]] : f16
  %5 = spyreop.rsqrt %h : f16
  // CHECK: spyreop.gelu %[[D]] : !spyreop.df16
  %6 = spyreop.gelu %d : !spyreop.df16
  // CHECK: spyreop.realdiv %[[D]], %[[D]] : !spyreop.df16
  %7 = spyreop.realdiv %d, %d : !spyreop.df16
  // CHECK: spyreop.softplus %[[H]] beta 1.000000e+00 threshold 2.000000e+01 : f16
  %8 = spyreop.softplus %h beta 1.0 threshold 20.0 : f16
  // CHECK: spyreop.softplus %[[D]] beta -5.000000e-01 threshold 0.000000e+00 : !spyreop.df16
  %9 = spyreop.softplus %d beta -0.5 threshold 0.0 : !spyreop.df16
  return
}

// CHECK-LABEL: func.func @layernorm_ops
func.func @layernorm_ops(%x: !spyreop.df16, %h: f16, %fp16: !spyreop.fp16_fused,
                         %fp32: !spyreop.fp32_fused, %df16: !spyreop.df16_fused) {
  // CHECK: %[[MEAN:.+]], %[[SQ:.+]] = spyreop.exx2 %{{.+}} : !spyreop.df16
  %mean, %sq = spyreop.exx2 %x : !spyreop.df16
  // CHECK: spyreop.exx2_fused %{{.+}} : f16 -> !spyreop.fp16_fused
  %0 = spyreop.exx2_fused %h : f16 -> !spyreop.fp16_fused
  // CHECK: spyreop.exx2_fused %{{.+}} : !spyreop.df16 -> !spyreop.df16_fused
  %1 = spyreop.exx2_fused %x : !spyreop.df16 -> !spyreop.df16_fused
  // CHECK: %[[SCALE:.+]] = spyreop.layernormscale %[[MEAN]] squares %[[SQ]] : !spyreop.df16
  %scale = spyreop.layernormscale %mean squares %sq : !spyreop.df16
  // CHECK: spyreop.layernormscale_fused %{{.+}} : !spyreop.fp32_fused -> f32
  %2 = spyreop.layernormscale_fused %fp32 : !spyreop.fp32_fused -> f32
  // CHECK: spyreop.layernormscale_fused %{{.+}} : !spyreop.df16_fused -> !spyreop.df16
  %3 = spyreop.layernormscale_fused %df16 : !spyreop.df16_fused -> !spyreop.df16
  // CHECK: spyreop.layernormnorm %{{.+}} squares %[[MEAN]] scale %[[SCALE]] weight %{{.+}} bias %{{.+}} : !spyreop.df16
  %4 = spyreop.layernormnorm %x squares %mean scale %scale weight %x bias %x : !spyreop.df16
  return
}

// CHECK-LABEL: func.func @slice_reductions
func.func @slice_reductions(%t: tensor<1x64xf16>, %d: tensor<2x64x!spyreop.df16>) {
  // CHECK: spyreop.slice_reduction %{{.+}} {reduction_kind = #spyreop.reduction_kind<add>, reduction_scope = #spyreop.reduction_scope<in_slice>} : tensor<1x64xf16> -> tensor<1x64xf16>
  %0 = spyreop.slice_reduction %t {reduction_kind = #spyreop.reduction_kind<add>, reduction_scope = #spyreop.reduction_scope<in_slice>} : tensor<1x64xf16> -> tensor<1x64xf16>
  // CHECK: reduction_kind = #spyreop.reduction_kind<sub>, reduction_scope = #spyreop.reduction_scope<across_slice>
  %1 = spyreop.slice_reduction %t {reduction_scope = #spyreop.reduction_scope<across_slice>, reduction_kind = #spyreop.reduction_kind<sub>} : tensor<1x64xf16> -> tensor<1x64xf16>
  // CHECK: reduction_kind = #spyreop.reduction_kind<max>
  %2 = spyreop.slice_reduction %t {reduction_kind = #spyreop.reduction_kind<max>, reduction_scope = #spyreop.reduction_scope<in_slice>} : tensor<1x64xf16> -> tensor<1x64xf16>
  // CHECK: reduction_kind = #spyreop.reduction_kind<min>
  %3 = spyreop.slice_reduction %t {reduction_kind = #spyreop.reduction_kind<min>, reduction_scope = #spyreop.reduction_scope<in_slice>} : tensor<1x64xf16> -> tensor<1x64xf16>
  // CHECK: reduction_kind = #spyreop.reduction_kind<mul>
  %4 = spyreop.slice_reduction %t {reduction_kind = #spyreop.reduction_kind<mul>, reduction_scope = #spyreop.reduction_scope<in_slice>} : tensor<1x64xf16> -> tensor<1x64xf16>
  // CHECK: reduction_kind = #spyreop.reduction_kind<abs_max>{{.+}} : tensor<2x64x!spyreop.df16> -> tensor<2x64x!spyreop.df16>
  %5 = spyreop.slice_reduction %d {reduction_kind = #spyreop.reduction_kind<abs_max>, reduction_scope = #spyreop.reduction_scope<across_slice>} : tensor<2x64x!spyreop.df16> -> tensor<2x64x!spyreop.df16>
  return
}

// Intrinsics appear inside linalg.generic bodies of KTIR kernels.
// CHECK-LABEL: func.func @in_generic
func.func @in_generic(%t: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  // CHECK: linalg.generic
  // CHECK: spyreop.gelu %{{.+}} : f16
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
       ins(%t : tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) {
  ^bb0(%in: f16, %out: f16):
    %g = spyreop.gelu %in : f16
    linalg.yield %g : f16
  } -> tensor<4x64xf16>
  return %r : tensor<4x64xf16>
}
