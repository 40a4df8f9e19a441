//===- SpyreOp.td - The spyreop intrinsics dialect ---------*- tablegen -*-===//
//
// This file defines the spyreop dialect: IBM Spyre device intrinsics that
// appear inside linalg.generic bodies of KTIR kernels, and the df16 family
// of number types.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_SPYREOP_IR_SPYREOP_TD
#define KTFLOW_DIALECT_SPYREOP_IR_SPYREOP_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def SpyreOp_Dialect : Dialect {
  let name = "spyreop";
  let cppNamespace = "::mlir::spyreop";
  let summary = "IBM Spyre Intrinsics Dialect";
  let description = [{
    Scalar intrinsics of the Spyre vector unit (exp, sigmoid, gelu, ...),
    fused layernorm helpers, a stick-wide slice reduction, integer address
    helpers, and the DF16 number type (1 sign, 6 exponent, 9 mantissa bits).
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

class SpyreOp_Type<string name, string typeMnemonic, string doc>
    : TypeDef<SpyreOp_Dialect, name> {
  let mnemonic = typeMnemonic;
  let summary = doc;
}

def SpyreOp_DF16 : SpyreOp_Type<"DF16", "df16",
    "IBM DF16: 16-bit float with 1 sign, 6 exponent and 9 mantissa bits">;
def SpyreOp_DF16Fused : SpyreOp_Type<"DF16Fused", "df16_fused",
    "a (mean, mean of squares) pair held as one df16 value">;
def SpyreOp_FP16Fused : SpyreOp_Type<"FP16Fused", "fp16_fused",
    "a (mean, mean of squares) pair held as one f16 value">;
def SpyreOp_FP32Fused : SpyreOp_Type<"FP32Fused", "fp32_fused",
    "a (mean, mean of squares) pair held as one f32 value">;

def SpyreOp_HalfFloat : AnyTypeOf<[F16, SpyreOp_DF16]>;
def SpyreOp_Float : AnyTypeOf<[F16, SpyreOp_DF16, F32]>;
def SpyreOp_FusedFloat : AnyTypeOf<[SpyreOp_FP16Fused, SpyreOp_FP32Fused,
                                    SpyreOp_DF16Fused]>;

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def SpyreOp_ReductionKind : I32EnumAttr<"ReductionKind",
    "reduction of a slice_reduction", [
      I32EnumAttrCase<"add", 0>, I32EnumAttrCase<"sub", 1>,
      I32EnumAttrCase<"max", 2>, I32EnumAttrCase<"min", 3>,
      I32EnumAttrCase<"mul", 4>, I32EnumAttrCase<"abs_max", 5>
    ]> {
  let cppNamespace = "::mlir::spyreop";
  let genSpecializedAttr = 0;
}

def SpyreOp_ReductionScope : I32EnumAttr<"ReductionScope",
    "scope of a slice_reduction", [
      I32EnumAttrCase<"in_slice", 0>, I32EnumAttrCase<"across_slice", 1>
    ]> {
  let cppNamespace = "::mlir::spyreop";
  let genSpecializedAttr = 0;
}

def SpyreOp_ReductionKindAttr
    : EnumAttr<SpyreOp_Dialect, SpyreOp_ReductionKind, "reduction_kind"> {
  let assemblyFormat = "`<` $value `>`";
}
def SpyreOp_ReductionScopeAttr
    : EnumAttr<SpyreOp_Dialect, SpyreOp_ReductionScope, "reduction_scope"> {
  let assemblyFormat = "`<` $value `>`";
}

def SpyreOp_FloatNonZero : ConfinedAttr<F32Attr, [
    AttrConstraint<CPred<"!::llvm::cast<::mlir::FloatAttr>($_self).getValue().isZero()">,
                   "whose value is non-zero">]>;

//===----------------------------------------------------------------------===//
// Operations
//===----------------------------------------------------------------------===//

class SpyreOp_Op<string mnemonic, list<Trait> traits = []>
    : Op<SpyreOp_Dialect, mnemonic, !listconcat([Pure], traits)>;

class SpyreOp_IntBinaryOp<string mnemonic, Type type, string doc>
    : SpyreOp_Op<mnemonic, [SameOperandsAndResultType]> {
  let summary = doc;
  let arguments = (ins type:$lhs, type:$rhs);
  let results = (outs type:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict";
}

def SpyreOp_AddI32ToI32Op : SpyreOp_IntBinaryOp<"addi32toi32", I32,
    "wrapping i32 addition">;
def SpyreOp_AddI64ToI64Op : SpyreOp_IntBinaryOp<"addi64toi64", I64,
    "wrapping i64 addition">;
def SpyreOp_MulI32ToI32Op : SpyreOp_IntBinaryOp<"muli32toi32", I32,
    "wrapping i32 multiplication">;

def SpyreOp_Idx32ToAddrOp : SpyreOp_Op<"idx32toaddr", [AttrSizedOperandSegments]> {
  let summary = "address base + stride * index, in i32";
  let description = [{
    Both published spellings are accepted: base and stride as SSA values,
    or as integer literals.

    ```mlir
    %a = spyreop.idx32toaddr %i base %b stride %s
    %a = spyreop.idx32toaddr %i base 0xDEADBEEF stride 4
    ```
  }];
  let arguments = (ins I32:$index, Optional<I32>:$base, Optional<I32>:$stride,
                       OptionalAttr<I64Attr>:$base_literal,
                       OptionalAttr<I64Attr>:$stride_literal);
  let results = (outs I32:$result);
  let assemblyFormat = [{
    $index `base` custom<ValueOrLiteral>($base, $base_literal)
    `stride` custom<ValueOrLiteral>($stride, $stride_literal) attr-dict
  }];
  let hasVerifier = 1;
}

class SpyreOp_UnaryOp<string mnemonic, Type type, string doc>
    : SpyreOp_Op<mnemonic, [SameOperandsAndResultType]> {
  let summary = doc;
  let arguments = (ins type:$operand);
  let results = (outs type:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
}

def SpyreOp_ExpOp : SpyreOp_UnaryOp<"exp", SpyreOp_Float, "e^x">;
def SpyreOp_SigmoidOp : SpyreOp_UnaryOp<"sigmoid", SpyreOp_Float,
    "1 / (1 + e^-x)">;
def SpyreOp_SiluOp : SpyreOp_UnaryOp<"silu", SpyreOp_Float, "x * sigmoid(x)">;
def SpyreOp_SqrtOp : SpyreOp_UnaryOp<"sqrt", SpyreOp_Float, "square root">;
def SpyreOp_ReciprocalOp : SpyreOp_UnaryOp<"reciprocal", SpyreOp_Float, "1 / x">;
def SpyreOp_RsqrtOp : SpyreOp_UnaryOp<"rsqrt", SpyreOp_Float,
    "1 / sqrt(x)">;
def SpyreOp_GeluOp : SpyreOp_UnaryOp<"gelu", SpyreOp_HalfFloat,
    "Gaussian error linear unit (tanh approximation)">;

def SpyreOp_RealDivOp : SpyreOp_Op<"realdiv", [SameOperandsAndResultType]> {
  let summary = "floating-point division";
  let arguments = (ins SpyreOp_Float:$lhs, SpyreOp_Float:$rhs);
  let results = (outs SpyreOp_Float:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
}

def SpyreOp_SoftplusOp : SpyreOp_Op<"softplus", [SameOperandsAndResultType]> {
  let summary = "log(1 + e^(beta x)) / beta, linear above threshold";
  let description = [{
    ```mlir
    %y = spyreop.softplus %x beta 1.0 threshold 20.0 : f16
    ```
  }];
  let arguments = (ins SpyreOp_HalfFloat:$operand, SpyreOp_FloatNonZero:$beta,
                       F32Attr:$threshold);
  let results = (outs SpyreOp_HalfFloat:$result);
  let assemblyFormat = [{
    $operand `beta` $beta `threshold` $threshold attr-dict `:` type($result)
  }];
}

def SpyreOp_Exx2Op : SpyreOp_Op<"exx2", [AllTypesMatch<["operand", "mean", "mean_of_squares"]>]> {
  let summary = "running mean and mean of squares of a value";
  let arguments = (ins SpyreOp_Float:$operand);
  let results = (outs SpyreOp_Float:$mean, SpyreOp_Float:$mean_of_squares);
  let assemblyFormat = "$operand attr-dict `:` type($operand)";
}

def SpyreOp_Exx2FusedOp : SpyreOp_Op<"exx2_fused"> {
  let summary = "mean and mean of squares packed into one fused value";
  let arguments = (ins SpyreOp_Float:$operand);
  let results = (outs SpyreOp_FusedFloat:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `->` type($result)";
}

def SpyreOp_LayerNormScaleOp : SpyreOp_Op<"layernormscale",
    [SameOperandsAndResultType]> {
  let summary = "1 / sqrt(E[x^2] - E[x]^2): the layernorm scale";
  let arguments = (ins SpyreOp_Float:$operand, SpyreOp_Float:$squares);
  let results = (outs SpyreOp_Float:$result);
  let assemblyFormat = "$operand `squares` $squares attr-dict `:` type($result)";
}

def SpyreOp_LayerNormScaleFusedOp : SpyreOp_Op<"layernormscale_fused"> {
  let summary = "the layernorm scale of a fused (mean, mean of squares) value";
  let arguments = (ins SpyreOp_FusedFloat:$operand);
  let results = (outs SpyreOp_Float:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `->` type($result)";
}

def SpyreOp_LayerNormNormOp : SpyreOp_Op<"layernormnorm",
    [SameOperandsAndResultType]> {
  let summary = "(x - mean) * scale * weight + bias";
  let description = [{
    The keywords are the published ones; the `squares` operand carries the
    mean that `exx2` produced for the row.

    ```mlir
    %y = spyreop.layernormnorm %x squares %mean scale %s weight %w bias %b : f16
    ```
  }];
  let arguments = (ins SpyreOp_Float:$operand, SpyreOp_Float:$squares,
                       SpyreOp_Float:$scale, SpyreOp_Float:$weight,
                       SpyreOp_Float:$bias);
  let results = (outs SpyreOp_Float:$result);
  let assemblyFormat = [{
    $operand `squares` $squares `scale` $scale `weight` $weight `bias` $bias
    attr-dict `:` type($result)
  }];
}

def SpyreOp_SliceReductionOp : SpyreOp_Op<"slice_reduction",
    [AllTypesMatch<["operand", "result"]>]> {
  let summary = "reduce a stick-wide slice in place or across slices";
  let description = [{
    ```mlir
    %r = spyreop.slice_reduction %x {reduction_kind = #spyreop.reduction_kind<add>,
           reduction_scope = #spyreop.reduction_scope<in_slice>}
         : tensor<1x64xf16> -> tensor<1x64xf16>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$operand,
                       SpyreOp_ReductionKindAttr:$reduction_kind,
                       SpyreOp_ReductionScopeAttr:$reduction_scope);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `->` type($result)";
}

#endif // KTFLOW_DIALECT_SPYREOP_IR_SPYREOP_TD
