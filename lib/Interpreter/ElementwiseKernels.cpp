//===- ElementwiseKernels.cpp - Column kernels of element-wise ops --------===//
//
// This file implements runElementwise: one loop per op kind over a column of
// values, then one rounding (or wrapping) pass to the result type. NaN and
// signed-zero rules follow MLIR: maximumf/minimumf propagate NaN and order
// -0 < +0; maxnumf/minnumf return the non-NaN operand.
// Integer kernels and casts live in IntegerKernels.cpp.
//
//===----------------------------------------------------------------------===//

#include "ArithMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/bit.h"

#include <cmath>

using namespace ktflow::interp;
using mlir::arith::CmpFPredicate;

namespace {

template <typename F>
void unaryF(const ColumnIn &a, double *out, size_t n, F f) {
  for (size_t i = 0; i < n; ++i)
    out[i] = f(a.f[i]);
}

template <typename F>
void binaryF(const ColumnIn &a, const ColumnIn &b, double *out, size_t n,
             F f) {
  for (size_t i = 0; i < n; ++i)
    out[i] = f(a.f[i], b.f[i]);
}


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

} // namespace

int64_t ktflow::interp::runElementwise(const EwOp &op,
                                       llvm::ArrayRef<ColumnIn> in,
                                       ColumnOut out, size_t n) {
  int64_t firstZeroDivisor = -1;
  DType rt = op.resultType;
  DType t0 = op.operandTypes.empty() ? rt : op.operandTypes[0];

  switch (op.kind) {
  case EwKind::NegF:
    unaryF(in[0], out.f, n, [](double a) { return -a; });
    break;
  case EwKind::AbsF:
    unaryF(in[0], out.f, n, [](double a) { return std::fabs(a); });
    break;
  case EwKind::Exp:
    unaryF(in[0], out.f, n, [](double a) { return std::exp(a); });
    break;
  case EwKind::Exp2:
    unaryF(in[0], out.f, n, [](double a) { return std::exp2(a); });
    break;
  case EwKind::Expm1:
    unaryF(in[0], out.f, n, [](double a) { return std::expm1(a); });
    break;
  case EwKind::Log:
    unaryF(in[0], out.f, n, [](double a) { return std::log(a); });
    break;
  case EwKind::Log2:
    unaryF(in[0], out.f, n, [](double a) { return std::log2(a); });
    break;
  case EwKind::Log10:
    unaryF(in[0], out.f, n, [](double a) { return std::log10(a); });
    break;
  case EwKind::Log1p:
    unaryF(in[0], out.f, n, [](double a) { return std::log1p(a); });
    break;
  case EwKind::Sqrt:
    unaryF(in[0], out.f, n, [](double a) { return std::sqrt(a); });
    break;
  case EwKind::Rsqrt:
    unaryF(in[0], out.f, n, [](double a) { return 1.0 / std::sqrt(a); });
    break;
  case EwKind::Cbrt:
    unaryF(in[0], out.f, n, [](double a) { return std::cbrt(a); });
    break;
  case EwKind::Tanh:
    unaryF(in[0], out.f, n, [](double a) { return std::tanh(a); });
    break;
  case EwKind::Sinh:
    unaryF(in[0], out.f, n, [](double a) { return std::sinh(a); });
    break;
  case EwKind::Cosh:
    unaryF(in[0], out.f, n, [](double a) { return std::cosh(a); });
    break;
  case EwKind::Sin:
    unaryF(in[0], out.f, n, [](double a) { return std::sin(a); });
    break;
  case EwKind::Cos:
    unaryF(in[0], out.f, n, [](double a) { return std::cos(a); });
    break;
  case EwKind::Tan:
    unaryF(in[0], out.f, n, [](double a) { return std::tan(a); });
    break;
  case EwKind::Asin:
    unaryF(in[0], out.f, n, [](double a) { return std::asin(a); });
    break;
  case EwKind::Acos:
    unaryF(in[0], out.f, n, [](double a) { return std::acos(a); });
    break;
  case EwKind::Atan:
    unaryF(in[0], out.f, n, [](double a) { return std::atan(a); });
    break;
  case EwKind::Asinh:
    unaryF(in[0], out.f, n, [](double a) { return std::asinh(a); });
    break;
  case EwKind::Acosh:
    unaryF(in[0], out.f, n, [](double a) { return std::acosh(a); });
    break;
  case EwKind::Atanh:
    unaryF(in[0], out.f, n, [](double a) { return std::atanh(a); });
    break;
  case EwKind::Erf:
    unaryF(in[0], out.f, n, [](double a) { return std::erf(a); });
    break;
  case EwKind::Erfc:
    unaryF(in[0], out.f, n, [](double a) { return std::erfc(a); });
    break;
  case EwKind::Floor:
    unaryF(in[0], out.f, n, [](double a) { return std::floor(a); });
    break;
  case EwKind::Ceil:
    unaryF(in[0], out.f, n, [](double a) { return std::ceil(a); });
    break;
  case EwKind::Round:
    unaryF(in[0], out.f, n, [](double a) { return std::round(a); });
    break;
  case EwKind::RoundEven:
    unaryF(in[0], out.f, n, [](double a) { return std::nearbyint(a); });
    break;
  case EwKind::Trunc:
    unaryF(in[0], out.f, n, [](double a) { return std::trunc(a); });
    break;
  case EwKind::Sigmoid:
    unaryF(in[0], out.f, n,
           [](double a) { return 1.0 / (1.0 + std::exp(-a)); });
    break;
  case EwKind::Silu:
    unaryF(in[0], out.f, n, [](double a) { return a / (1.0 + std::exp(-a)); });
    break;
  case EwKind::Gelu:
    unaryF(in[0], out.f, n, gelu);
    break;
  case EwKind::Reciprocal:
    unaryF(in[0], out.f, n, [](double a) { return 1.0 / a; });
    break;
  case EwKind::Softplus: {
    double beta = op.beta, threshold = op.threshold;
    unaryF(in[0], out.f, n, [&](double a) {
      return beta * a > threshold ? a : std::log1p(std::exp(beta * a)) / beta;
    });
    break;
  }
  case EwKind::Square:
    unaryF(in[0], out.f, n, [](double a) { return a * a; });
    break;
  case EwKind::Identity:
  case EwKind::ExtF:
  case EwKind::TruncF:
    unaryF(in[0], out.f, n, [](double a) { return a; });
    break;
  case EwKind::AddF:
    binaryF(in[0], in[1], out.f, n, [](double a, double b) { return a + b; });
    break;
  case EwKind::SubF:
    binaryF(in[0], in[1], out.f, n, [](double a, double b) { return a - b; });
    break;
  case EwKind::MulF:
    binaryF(in[0], in[1], out.f, n, [](double a, double b) { return a * b; });
    break;
  case EwKind::DivF:
    binaryF(in[0], in[1], out.f, n, [](double a, double b) { return a / b; });
    break;
  case EwKind::RemF:
    binaryF(in[0], in[1], out.f, n,
            [](double a, double b) { return std::fmod(a, b); });
    break;
  case EwKind::MaximumF:
    binaryF(in[0], in[1], out.f, n, maximumF);
    break;
  case EwKind::MinimumF:
    binaryF(in[0], in[1], out.f, n, minimumF);
    break;
  case EwKind::MaxNumF:
    binaryF(in[0], in[1], out.f, n, maxNumF);
    break;
  case EwKind::MinNumF:
    binaryF(in[0], in[1], out.f, n, minNumF);
    break;
  case EwKind::PowF:
    binaryF(in[0], in[1], out.f, n,
            [](double a, double b) { return std::pow(a, b); });
    break;
  case EwKind::Atan2:
    binaryF(in[0], in[1], out.f, n,
            [](double a, double b) { return std::atan2(a, b); });
    break;
  case EwKind::CopySign:
    binaryF(in[0], in[1], out.f, n,
            [](double a, double b) { return std::copysign(a, b); });
    break;
  case EwKind::LayerNormScale:
    binaryF(in[0], in[1], out.f, n, [](double mean, double squares) {
      return 1.0 / std::sqrt(squares - mean * mean);
    });
    break;
  case EwKind::Fma:
    for (size_t i = 0; i < n; ++i)
      out.f[i] = std::fma(in[0].f[i], in[1].f[i], in[2].f[i]);
    break;
  case EwKind::LayerNormNorm:
    for (size_t i = 0; i < n; ++i)
      out.f[i] = (in[0].f[i] - in[1].f[i]) * in[2].f[i] * in[3].f[i] +
                 in[4].f[i];
    break;
  case EwKind::FPowI:
    for (size_t i = 0; i < n; ++i)
      out.f[i] = std::pow(in[0].f[i], static_cast<double>(signedValue(
                                          in[1].i[i], op.operandTypes[1])));
    break;
  case EwKind::IsNaN:
    for (size_t i = 0; i < n; ++i)
      out.i[i] = std::isnan(in[0].f[i]);
    break;
  case EwKind::IsInf:
    for (size_t i = 0; i < n; ++i)
      out.i[i] = std::isinf(in[0].f[i]);
    break;
  case EwKind::IsFinite:
    for (size_t i = 0; i < n; ++i)
      out.i[i] = std::isfinite(in[0].f[i]);
    break;
  case EwKind::IsNormal: {
    double minNormal = minNormalValue(t0);
    for (size_t i = 0; i < n; ++i) {
      double a = std::fabs(in[0].f[i]);
      out.i[i] = std::isfinite(a) && a >= minNormal;
    }
    break;
  }
  case EwKind::CmpF:
    for (size_t i = 0; i < n; ++i)
      out.i[i] = compareF(op.predicate, in[0].f[i], in[1].f[i]);
    break;
  case EwKind::Select:
    if (isFloat(rt)) {
      for (size_t i = 0; i < n; ++i)
        out.f[i] = (in[0].i[i] & 1) ? in[1].f[i] : in[2].f[i];
    } else {
      for (size_t i = 0; i < n; ++i)
        out.i[i] = (in[0].i[i] & 1) ? in[1].i[i] : in[2].i[i];
    }
    break;
  default:
    firstZeroDivisor = runIntegerAndCastKernel(op, in, out, n);
    break;
  }

  if (isFloat(rt))
    roundArray(rt, out.f, n);
  else
    wrapIntArray(rt, out.i, n);
  return firstZeroDivisor;
}
