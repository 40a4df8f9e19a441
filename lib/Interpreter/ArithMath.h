//===- ArithMath.h - Element-wise arith/math/spyreop semantics --*- C++ -*-===//
//
// This file declares the element-wise operations of the interpreter: every
// scalar arith, math and spyreop op is decoded once into an EwOp (what to
// compute, with which operand and result element types) and then applied to
// whole columns of values in one tight loop per op. Float ops compute in
// double and round once to the result type; integer ops wrap to the result
// width. The same kernels run element-wise ops on tensors and the bodies of
// linalg ops.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_INTERPRETER_ARITHMATH_H
#define KTFLOW_LIB_INTERPRETER_ARITHMATH_H

#include "HostTypes.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"

#include <array>
#include <string>

namespace ktflow::interp {

enum class EwKind : uint16_t {
  // Float, unary.
  NegF, AbsF, Exp, Exp2, Expm1, Log, Log2, Log10, Log1p, Sqrt, Rsqrt, Cbrt,
  Tanh, Sinh, Cosh, Sin, Cos, Tan, Asin, Acos, Atan, Asinh, Acosh, Atanh,
  Erf, Erfc, Floor, Ceil, Round, RoundEven, Trunc, Sigmoid, Silu, Gelu,
  Reciprocal, Softplus, Square, Identity,
  // Float, binary and ternary.
  AddF, SubF, MulF, DivF, RemF, MaximumF, MinimumF, MaxNumF, MinNumF, PowF,
  Atan2, CopySign, Fma, FPowI, LayerNormScale, LayerNormNorm,
  // Float predicates (i1 results).
  IsNaN, IsInf, IsFinite, IsNormal, CmpF,
  // Integer.
  AddI, SubI, MulI, DivSI, DivUI, CeilDivSI, CeilDivUI, FloorDivSI, RemSI,
  RemUI, AndI, OrI, XOrI, ShLI, ShRSI, ShRUI, MaxSI, MinSI, MaxUI, MinUI,
  AbsI, IPowI, CtPop, Ctlz, Cttz, CmpI, Idx32ToAddr, IdentityI,
  // Any type.
  Select,
  // Casts.
  ExtF, TruncF, SIToFP, UIToFP, FPToSI, FPToUI, ExtSI, ExtUI, TruncI,
  IndexCast, IndexCastUI, BitcastFToI, BitcastIToF,
};

/// A decoded element-wise op (one per result of the MLIR op).
struct EwOp {
  EwKind kind = EwKind::Identity;
  DType resultType = DType::F32;
  llvm::SmallVector<DType, 3> operandTypes;
  /// Comparison predicate (arith::CmpFPredicate / CmpIPredicate value).
  int predicate = 0;
  /// softplus beta and threshold.
  double beta = 1, threshold = 20;
  /// idx32toaddr literal base/stride, when not operands.
  std::optional<int64_t> literalBase, literalStride;
};

/// Decodes result `resultIndex` of `op`. Returns std::nullopt (and a reason)
/// when the op is not an element-wise op the interpreter knows.
std::optional<EwOp> decodeElementwise(mlir::Operation *op,
                                      unsigned resultIndex,
                                      std::string &reason);

/// Whether `op` belongs to a dialect whose ops decodeElementwise handles
/// (so an unknown op of that dialect is reported as unsupported).
bool isElementwiseDialect(mlir::Operation *op);

/// A column of input values: `f` for float types, `i` for integers.
struct ColumnIn {
  const double *f = nullptr;
  const int64_t *i = nullptr;
};
struct ColumnOut {
  double *f = nullptr;
  int64_t *i = nullptr;
};

/// Computes `n` results of `op` into `out`, rounded/wrapped to the result
/// type. Returns the index of the first element whose integer division had
/// a zero divisor (its result is 0), or -1.
int64_t runElementwise(const EwOp &op, llvm::ArrayRef<ColumnIn> inputs,
                       ColumnOut out, size_t n);

/// The kernel of one kind: computes `n` results of `op` into `out`, before
/// they are rounded or wrapped to the result type. Returns the index of the
/// first zero divisor of an integer division, or -1.
using EwKernel = int64_t (*)(const EwOp &op, llvm::ArrayRef<ColumnIn> inputs,
                             ColumnOut out, size_t n);

/// The number of kinds (BitcastIToF is the last).
inline constexpr size_t kNumEwKinds =
    static_cast<size_t>(EwKind::BitcastIToF) + 1;

/// The kernels of runElementwise, indexed by kind; each family of kinds
/// registers its own (as the op handlers of Executor.h's HandlerTable do).
class EwKernelTable {
public:
  void add(EwKind kind, EwKernel kernel) {
    kernels[static_cast<size_t>(kind)] = kernel;
  }
  /// The kernel of `kind`, or null.
  EwKernel lookup(EwKind kind) const {
    return kernels[static_cast<size_t>(kind)];
  }

private:
  std::array<EwKernel, kNumEwKinds> kernels{};
};

/// Float arithmetic, math and spyreop kernels, float predicates and select
/// (ElementwiseKernels.cpp).
void registerFloatKernels(EwKernelTable &table);
/// Integer arithmetic, comparison and bit kernels (IntegerKernels.cpp).
void registerIntegerKernels(EwKernelTable &table);
/// Casts between integer types and between integers and floats
/// (IntegerKernels.cpp).
void registerCastKernels(EwKernelTable &table);

/// The table runElementwise uses, with every family registered.
const EwKernelTable &elementwiseKernels();

/// The signed value of an integer stored for type `t` (i1 true is -1).
inline int64_t signedValue(int64_t v, DType t) {
  return t == DType::I1 ? -(v & 1) : v;
}

} // namespace ktflow::interp

#endif // KTFLOW_LIB_INTERPRETER_ARITHMATH_H
