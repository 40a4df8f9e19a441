// RUN: ktflow-opt %s -split-input-file -verify-diagnostics

// Verifier and parser messages of the spyreop intrinsics.

func.func @softplus_beta_zero(%x: f16) {
  // expected-error @+1 {{'spyreop.softplus' op attribute 'beta' failed to satisfy constraint: 32-bit float attribute whose value is non-zero}}
  %0 = spyreop.softplus %x beta 0.0 threshold 20.0 : f16
  return
}

// -----

func.func @softplus_beta_negative_zero(%x: !spyreop.df16) {
  // expected-error @+1 {{'spyreop.softplus' op attribute 'beta' failed to satisfy constraint: 32-bit float attribute whose value is non-zero}}
  %0 = spyreop.softplus %x beta -0.0 threshold 20.0 : !spyreop.df16
  return
}

// -----

func.func @softplus_f32(%x: f32) {
  // expected-error @+1 {{'spyreop.softplus' op operand #0 must be 16-bit float or}}
  %0 = spyreop.softplus %x beta 1.0 threshold 20.0 : f32
  return
}

// -----

func.func @gelu_f32(%x: f32) {
  // expected-error @+1 {{'spyreop.gelu' op operand #0 must be 16-bit float or}}
  %0 = spyreop.gelu %x : f32
  return
}

// -----

func.func @exp_integer(%x: i32) {
  // expected-error @+1 {{'spyreop.exp' op operand #0 must be 16-bit float or}}
  %0 = spyreop.exp %x : i32
  return
}

// -----

func.func @realdiv_mixed(%x: f16, %y: f32) {
  // expected-error @+1 {{use of value '%y' expects different type than prior uses: 'f16' vs 'f32'}}
  %0 = spyreop.realdiv %x, %y : f16
  // expected-note @-3 {{prior use here}}
  return
}

// -----

func.func @add_wrong_width(%x: i64, %y: i64) {
  // expected-error @+1 {{use of value '%x' expects different type than prior uses: 'i32' vs 'i64'}}
  %0 = spyreop.addi32toi32 %x, %y
  // expected-note @-3 {{prior use here}}
  return
}

// -----

func.func @idx32toaddr_both_base(%i: i32, %b: i32) {
  // expected-error @+1 {{'spyreop.idx32toaddr' op base and stride must each be an i32 value or an integer literal}}
  %0 = "spyreop.idx32toaddr"(%i, %b, %b) <{operandSegmentSizes = array<i32: 1, 1, 1>, base_literal = 4 : i64}> : (i32, i32, i32) -> i32
  return
}

// -----

func.func @idx32toaddr_no_stride(%i: i32, %b: i32) {
  // expected-error @+1 {{'spyreop.idx32toaddr' op base and stride must each be an i32 value or an integer literal}}
  %0 = "spyreop.idx32toaddr"(%i, %b) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (i32, i32) -> i32
  return
}

// -----

func.func @idx32toaddr_wide_base(%i: i32) {
  // expected-error @+1 {{'spyreop.idx32toaddr' op base literal 4294967296 does not fit in 32 bits}}
  %0 = spyreop.idx32toaddr %i base 0x100000000 stride 4
  return
}

// -----

func.func @idx32toaddr_wide_stride(%i: i32, %b: i32) {
  // expected-error @+1 {{'spyreop.idx32toaddr' op stride literal -2147483649 does not fit in 32 bits}}
  %0 = spyreop.idx32toaddr %i base %b stride -2147483649
  return
}

// -----

func.func @idx32toaddr_missing_base(%i: i32) {
  // expected-error @+1 {{expected integer value}}
  %0 = spyreop.idx32toaddr %i base stride 4
  return
}

// -----

func.func @slice_reduction_unknown_kind(%t: tensor<1x64xf16>) {
  // expected-error @+2 {{expected ::mlir::spyreop::ReductionKind to be one of: add, sub, max, min, mul, abs_max}}
  // expected-error @+1 {{failed to parse SpyreOp_ReductionKindAttr parameter 'value'}}
  %0 = spyreop.slice_reduction %t {reduction_kind = #spyreop.reduction_kind<sum>, reduction_scope = #spyreop.reduction_scope<in_slice>} : tensor<1x64xf16> -> tensor<1x64xf16>
  return
}

// -----

func.func @slice_reduction_missing_scope(%t: tensor<1x64xf16>) {
  // expected-error @+1 {{'spyreop.slice_reduction' op requires attribute 'reduction_scope'}}
  %0 = spyreop.slice_reduction %t {reduction_kind = #spyreop.reduction_kind<add>} : tensor<1x64xf16> -> tensor<1x64xf16>
  return
}

// -----

func.func @slice_reduction_result_type(%t: tensor<1x64xf16>) {
  // expected-error @+1 {{'spyreop.slice_reduction' op failed to verify that all of {operand, result} have same type}}
  %0 = spyreop.slice_reduction %t {reduction_kind = #spyreop.reduction_kind<add>, reduction_scope = #spyreop.reduction_scope<in_slice>} : tensor<1x64xf16> -> tensor<1x1xf16>
  return
}

// -----

func.func @layernormscale_fused_operand(%x: f16) {
  // expected-error @+1 {{'spyreop.layernormscale_fused' op operand #0 must be}}
  %0 = spyreop.layernormscale_fused %x : f16 -> f16
  return
}

// -----

func.func @exx2_fused_result(%x: f16) {
  // expected-error @+1 {{'spyreop.exx2_fused' op result #0 must be}}
  %0 = spyreop.exx2_fused %x : f16 -> f32
  return
}

// -----

// expected-error @+1 {{unknown  type `df32` in dialect `spyreop`}}
func.func @unknown_type(%x: !spyreop.df32) {
  return
}
