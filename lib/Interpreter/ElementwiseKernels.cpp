//===- ElementwiseKernels.cpp - Column kernels of element-wise ops --------===//
//
// This file implements runElementwise: the kernel of the op's kind (one
// loop over a column of values, looked up in a table indexed by EwKind),
// then one rounding (or wrapping) pass to the result type. It registers the
// float kernels. NaN and signed-zero rules follow MLIR: maximumf/minimumf
// propagate NaN and order -0 < +0; maxnumf/minnumf return the non-NaN
// operand. Integer kernels and casts live in IntegerKernels.cpp.
//
//===----------------------------------------------------------------------===//

#include "ArithMath.h"

#include "ktflow/Interpreter/MathFunctions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

using namespace ktflow::interp;
using mlir::arith::CmpFPredicate;

namespace {

double maximumF(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<double>::quiet_NaN();
  if (a == 0 && b == 0)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

double minimumF(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<double>::quiet_NaN();
  if (a == 0 && b == 0)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

double maxNumF(double a, double b) {
  if (std::isnan(a))
    return b;
  if (std::isnan(b))
    return a;
  return maximumF(a, b);
}

double minNumF(double a, double b) {
  if (std::isnan(a))
    return b;
  if (std::isnan(b))
    return a;
  return minimumF(a, b);
}

bool compareF(int predicate, double a, double b) {
  bool unordered = std::isnan(a) || std::isnan(b);
  switch (static_cast<CmpFPredicate>(predicate)) {
  case CmpFPredicate::AlwaysFalse:
    return false;
  case CmpFPredicate::OEQ:
    return !unordered && a == b;
  case CmpFPredicate::OGT:
    return !unordered && a > b;
  case CmpFPredicate::OGE:
    return !unordered && a >= b;
  case CmpFPredicate::OLT:
    return !unordered && a < b;
  case CmpFPredicate::OLE:
    return !unordered && a <= b;
  case CmpFPredicate::ONE:
    return !unordered && a != b;
  case CmpFPredicate::ORD:
    return !unordered;
  case CmpFPredicate::UEQ:
    return unordered || a == b;
  case CmpFPredicate::UGT:
    return unordered || a > b;
  case CmpFPredicate::UGE:
    return unordered || a >= b;
  case CmpFPredicate::ULT:
    return unordered || a < b;
  case CmpFPredicate::ULE:
    return unordered || a <= b;
  case CmpFPredicate::UNE:
    return unordered || a != b;
  case CmpFPredicate::UNO:
    return unordered;
  case CmpFPredicate::AlwaysTrue:
    return true;
  }
  return false;
}

double minNormalValue(DType t) {
  switch (t) {
  case DType::F16:
    return std::ldexp(1.0, -14);
  case DType::BF16:
  case DType::F32:
    return std::ldexp(1.0, -126);
  case DType::DF16:
    return std::ldexp(1.0, -30);
  default:
    return std::numeric_limits<double>::min();
  }
}

double gelu(double x) {
  // The tanh approximation the Spyre SFU implements.
  const double k = std::sqrt(2.0 / M_PI);
  return 0.5 * x * (1.0 + std::tanh(k * (x + 0.044715 * x * x * x)));
}

// The scalar functions of the unary and binary kernels.
double negF(double a) { return -a; }
double absF(double a) { return std::fabs(a); }
double expF(double a) { return std::exp(a); }
double exp2F(double a) { return std::exp2(a); }
double expm1F(double a) { return std::expm1(a); }
double logF(double a) { return std::log(a); }
double log2F(double a) { return std::log2(a); }
double log10F(double a) { return std::log10(a); }
double log1pF(double a) { return std::log1p(a); }
double sqrtF(double a) { return std::sqrt(a); }
double rsqrtF(double a) { return 1.0 / std::sqrt(a); }
double cbrtF(double a) { return std::cbrt(a); }
double tanhF(double a) { return std::tanh(a); }
double sinhF(double a) { return std::sinh(a); }
double coshF(double a) { return std::cosh(a); }
double sinF(double a) { return std::sin(a); }
double cosF(double a) { return std::cos(a); }
double tanF(double a) { return std::tan(a); }
double asinF(double a) { return std::asin(a); }
double acosF(double a) { return std::acos(a); }
double atanF(double a) { return std::atan(a); }
double asinhF(double a) { return std::asinh(a); }
double acoshF(double a) { return std::acosh(a); }
double atanhF(double a) { return std::atanh(a); }
double erfF(double a) { return std::erf(a); }
double erfcF(double a) { return std::erfc(a); }
double floorF(double a) { return std::floor(a); }
double ceilF(double a) { return std::ceil(a); }
double roundF(double a) { return std::round(a); }
double roundEvenF(double a) { return std::nearbyint(a); }
double truncF(double a) { return std::trunc(a); }
double sigmoidF(double a) { return 1.0 / (1.0 + std::exp(-a)); }
double siluF(double a) { return a / (1.0 + std::exp(-a)); }
double reciprocalF(double a) { return 1.0 / a; }
double squareF(double a) { return a * a; }
double identityF(double a) { return a; }
double addF(double a, double b) { return a + b; }
double subF(double a, double b) { return a - b; }
double mulF(double a, double b) { return a * b; }
double divF(double a, double b) { return a / b; }
double remF(double a, double b) { return std::fmod(a, b); }
double powF(double a, double b) { return std::pow(a, b); }
double atan2F(double a, double b) { return std::atan2(a, b); }
double copySignF(double a, double b) { return std::copysign(a, b); }
double layerNormScale(double mean, double squares) {
  return 1.0 / std::sqrt(squares - mean * mean);
}

template <double (*F)(double)>
int64_t unaryF(const EwOp &, llvm::ArrayRef<ColumnIn> in, ColumnOut out,
               size_t n) {
  for (size_t i = 0; i < n; ++i)
    out.f[i] = F(in[0].f[i]);
  return -1;
}

template <double (*F)(double, double)>
int64_t binaryF(const EwOp &, llvm::ArrayRef<ColumnIn> in, ColumnOut out,
                size_t n) {
  for (size_t i = 0; i < n; ++i)
    out.f[i] = F(in[0].f[i], in[1].f[i]);
  return -1;
}

/// A predicate of one float (i1 results).
template <bool (*F)(double)>
int64_t predicateF(const EwOp &, llvm::ArrayRef<ColumnIn> in, ColumnOut out,
                   size_t n) {
  for (size_t i = 0; i < n; ++i)
    out.i[i] = F(in[0].f[i]);
  return -1;
}

bool isNaN(double a) { return std::isnan(a); }
bool isInf(double a) { return std::isinf(a); }
bool isFinite(double a) { return std::isfinite(a); }

int64_t isNormalKernel(const EwOp &op, llvm::ArrayRef<ColumnIn> in,
                       ColumnOut out, size_t n) {
  DType t = op.operandTypes.empty() ? op.resultType : op.operandTypes[0];
  double minNormal = minNormalValue(t);
  for (size_t i = 0; i < n; ++i) {
    double a = std::fabs(in[0].f[i]);
    out.i[i] = std::isfinite(a) && a >= minNormal;
  }
  return -1;
}

int64_t cmpFKernel(const EwOp &op, llvm::ArrayRef<ColumnIn> in, ColumnOut out,
                   size_t n) {
  for (size_t i = 0; i < n; ++i)
    out.i[i] = compareF(op.predicate, in[0].f[i], in[1].f[i]);
  return -1;
}

int64_t softplusKernel(const EwOp &op, llvm::ArrayRef<ColumnIn> in,
                       ColumnOut out, size_t n) {
  double beta = op.beta, threshold = op.threshold;
  for (size_t i = 0; i < n; ++i) {
    double a = in[0].f[i];
    out.f[i] = beta * a > threshold ? a : std::log1p(std::exp(beta * a)) / beta;
  }
  return -1;
}

int64_t fmaKernel(const EwOp &, llvm::ArrayRef<ColumnIn> in, ColumnOut out,
                  size_t n) {
  for (size_t i = 0; i < n; ++i)
    out.f[i] = std::fma(in[0].f[i], in[1].f[i], in[2].f[i]);
  return -1;
}

int64_t layerNormNormKernel(const EwOp &, llvm::ArrayRef<ColumnIn> in,
                            ColumnOut out, size_t n) {
  for (size_t i = 0; i < n; ++i)
    out.f[i] = (in[0].f[i] - in[1].f[i]) * in[2].f[i] * in[3].f[i] + in[4].f[i];
  return -1;
}

int64_t fpowiKernel(const EwOp &op, llvm::ArrayRef<ColumnIn> in, ColumnOut out,
                    size_t n) {
  for (size_t i = 0; i < n; ++i)
    out.f[i] = std::pow(in[0].f[i], static_cast<double>(signedValue(
                                        in[1].i[i], op.operandTypes[1])));
  return -1;
}

int64_t selectKernel(const EwOp &op, llvm::ArrayRef<ColumnIn> in, ColumnOut out,
                     size_t n) {
  if (isFloat(op.resultType)) {
    for (size_t i = 0; i < n; ++i)
      out.f[i] = (in[0].i[i] & 1) ? in[1].f[i] : in[2].f[i];
  } else {
    for (size_t i = 0; i < n; ++i)
      out.i[i] = (in[0].i[i] & 1) ? in[1].i[i] : in[2].i[i];
  }
  return -1;
}

} // namespace

/// The math ops of one float operand the interpreter evaluates with a
/// libm function in double (unaryMathFunction's), each with that function:
/// one list for their kernels and for the compiled tier's tables.
#define KTFLOW_UNARY_MATH_FUNCTIONS(X)                                         \
  X(Exp, expF)                                                                 \
  X(Exp2, exp2F)                                                               \
  X(Expm1, expm1F)                                                             \
  X(Log, logF)                                                                 \
  X(Log2, log2F)                                                               \
  X(Log10, log10F)                                                             \
  X(Log1p, log1pF)                                                             \
  X(Sqrt, sqrtF)                                                               \
  X(Rsqrt, rsqrtF)                                                             \
  X(Cbrt, cbrtF)                                                               \
  X(Tanh, tanhF)                                                               \
  X(Sinh, sinhF)                                                               \
  X(Cosh, coshF)                                                               \
  X(Sin, sinF)                                                                 \
  X(Cos, cosF)                                                                 \
  X(Tan, tanF)                                                                 \
  X(Asin, asinF)                                                               \
  X(Acos, acosF)                                                               \
  X(Atan, atanF)                                                               \
  X(Asinh, asinhF)                                                             \
  X(Acosh, acoshF)                                                             \
  X(Atanh, atanhF)                                                             \
  X(Erf, erfF)                                                                 \
  X(Erfc, erfcF)

/// The scalar function of a kind unaryMathFunction covers.
static double (*unaryMathScalar(EwKind kind))(double) {
  switch (kind) {
#define KTFLOW_CASE(KIND, FN)                                                  \
  case EwKind::KIND:                                                           \
    return FN;
    KTFLOW_UNARY_MATH_FUNCTIONS(KTFLOW_CASE)
#undef KTFLOW_CASE
  default:
    return nullptr;
  }
}

std::optional<UnaryMathFunction>
ktflow::interp::unaryMathFunction(unsigned id) {
  if (double (*evaluate)(double) = unaryMathScalar(static_cast<EwKind>(id)))
    return UnaryMathFunction{id, evaluate};
  return std::nullopt;
}

std::optional<UnaryMathFunction>
ktflow::interp::unaryMathFunction(mlir::Operation *op) {
  if (!llvm::isa<mlir::math::MathDialect>(op->getDialect()) ||
      op->getNumOperands() != 1 || op->getNumResults() != 1)
    return std::nullopt;
  std::string reason;
  std::optional<EwOp> ew = decodeElementwise(op, 0, reason);
  if (!ew || !isFloat(ew->resultType))
    return std::nullopt;
  return unaryMathFunction(static_cast<unsigned>(ew->kind));
}

void ktflow::interp::registerFloatKernels(EwKernelTable &table) {
  table.add(EwKind::NegF, unaryF<negF>);
  table.add(EwKind::AbsF, unaryF<absF>);
#define KTFLOW_ADD(KIND, FN) table.add(EwKind::KIND, unaryF<FN>);
  KTFLOW_UNARY_MATH_FUNCTIONS(KTFLOW_ADD)
#undef KTFLOW_ADD
  table.add(EwKind::Floor, unaryF<floorF>);
  table.add(EwKind::Ceil, unaryF<ceilF>);
  table.add(EwKind::Round, unaryF<roundF>);
  table.add(EwKind::RoundEven, unaryF<roundEvenF>);
  table.add(EwKind::Trunc, unaryF<truncF>);
  table.add(EwKind::Sigmoid, unaryF<sigmoidF>);
  table.add(EwKind::Silu, unaryF<siluF>);
  table.add(EwKind::Gelu, unaryF<gelu>);
  table.add(EwKind::Reciprocal, unaryF<reciprocalF>);
  table.add(EwKind::Softplus, softplusKernel);
  table.add(EwKind::Square, unaryF<squareF>);
  table.add(EwKind::Identity, unaryF<identityF>);
  // Float casts change no value here: the result is rounded afterwards.
  table.add(EwKind::ExtF, unaryF<identityF>);
  table.add(EwKind::TruncF, unaryF<identityF>);
  table.add(EwKind::AddF, binaryF<addF>);
  table.add(EwKind::SubF, binaryF<subF>);
  table.add(EwKind::MulF, binaryF<mulF>);
  table.add(EwKind::DivF, binaryF<divF>);
  table.add(EwKind::RemF, binaryF<remF>);
  table.add(EwKind::MaximumF, binaryF<maximumF>);
  table.add(EwKind::MinimumF, binaryF<minimumF>);
  table.add(EwKind::MaxNumF, binaryF<maxNumF>);
  table.add(EwKind::MinNumF, binaryF<minNumF>);
  table.add(EwKind::PowF, binaryF<powF>);
  table.add(EwKind::Atan2, binaryF<atan2F>);
  table.add(EwKind::CopySign, binaryF<copySignF>);
  table.add(EwKind::LayerNormScale, binaryF<layerNormScale>);
  table.add(EwKind::Fma, fmaKernel);
  table.add(EwKind::LayerNormNorm, layerNormNormKernel);
  table.add(EwKind::FPowI, fpowiKernel);
  table.add(EwKind::IsNaN, predicateF<isNaN>);
  table.add(EwKind::IsInf, predicateF<isInf>);
  table.add(EwKind::IsFinite, predicateF<isFinite>);
  table.add(EwKind::IsNormal, isNormalKernel);
  table.add(EwKind::CmpF, cmpFKernel);
  table.add(EwKind::Select, selectKernel);
}

const EwKernelTable &ktflow::interp::elementwiseKernels() {
  static const EwKernelTable table = [] {
    EwKernelTable t;
    registerFloatKernels(t);
    registerIntegerKernels(t);
    registerCastKernels(t);
    return t;
  }();
  return table;
}

int64_t ktflow::interp::runElementwise(const EwOp &op,
                                       llvm::ArrayRef<ColumnIn> in,
                                       ColumnOut out, size_t n) {
  int64_t firstZeroDivisor = -1;
  if (EwKernel kernel = elementwiseKernels().lookup(op.kind))
    firstZeroDivisor = kernel(op, in, out, n);
  DType rt = op.resultType;
  if (isFloat(rt))
    roundArray(rt, out.f, n);
  else
    wrapIntArray(rt, out.i, n);
  return firstZeroDivisor;
}
