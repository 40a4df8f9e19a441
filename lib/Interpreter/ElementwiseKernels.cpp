//===- ElementwiseKernels.cpp - Column kernels of element-wise ops --------===//
//
// This file implements runElementwise: one loop per op kind over a column of
// values, then one rounding (or wrapping) pass to the result type. NaN and
// signed-zero rules follow MLIR: maximumf/minimumf propagate NaN and order
// -0 < +0; maxnumf/minnumf return the non-NaN operand. Integer division
// truncates (divsi), floordivsi/ceildivsi round as named; a zero divisor is
// reported to the caller.
//
//===----------------------------------------------------------------------===//

#include "ArithMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/bit.h"

#include <cmath>

using namespace ktflow::interp;
using mlir::arith::CmpFPredicate;
using mlir::arith::CmpIPredicate;

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

template <typename F>
void binaryI(const ColumnIn &a, const ColumnIn &b, int64_t *out, size_t n,
             F f) {
  for (size_t i = 0; i < n; ++i)
    out[i] = f(a.i[i], b.i[i]);
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

bool compareI(int predicate, int64_t a, int64_t b, DType t) {
  int64_t sa = signedValue(a, t), sb = signedValue(b, t);
  uint64_t ua = zeroExtend(a, t), ub = zeroExtend(b, t);
  switch (static_cast<CmpIPredicate>(predicate)) {
  case CmpIPredicate::eq:
    return ua == ub;
  case CmpIPredicate::ne:
    return ua != ub;
  case CmpIPredicate::slt:
    return sa < sb;
  case CmpIPredicate::sle:
    return sa <= sb;
  case CmpIPredicate::sgt:
    return sa > sb;
  case CmpIPredicate::sge:
    return sa >= sb;
  case CmpIPredicate::ult:
    return ua < ub;
  case CmpIPredicate::ule:
    return ua <= ub;
  case CmpIPredicate::ugt:
    return ua > ub;
  case CmpIPredicate::uge:
    return ua >= ub;
  }
  return false;
}

int64_t floorDivS(int64_t a, int64_t b) {
  if (b == -1)
    return static_cast<int64_t>(0 - static_cast<uint64_t>(a));
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

int64_t ceilDivS(int64_t a, int64_t b) {
  if (b == -1)
    return static_cast<int64_t>(0 - static_cast<uint64_t>(a));
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) == (b < 0))) ? q + 1 : q;
}

int64_t ipow(int64_t base, int64_t exp) {
  if (exp < 0)
    return base == 1 ? 1 : base == -1 ? (exp % 2 ? -1 : 1) : 0;
  uint64_t result = 1, b = static_cast<uint64_t>(base);
  while (exp) {
    if (exp & 1)
      result *= b;
    b *= b;
    exp >>= 1;
  }
  return static_cast<int64_t>(result);
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
  auto noteZero = [&](size_t i) {
    if (firstZeroDivisor < 0)
      firstZeroDivisor = static_cast<int64_t>(i);
  };
  // Integer division: a zero divisor yields 0 and is reported.
  auto divLoop = [&](auto f) {
    for (size_t i = 0; i < n; ++i) {
      if (zeroExtend(in[1].i[i], t0) == 0) {
        noteZero(i);
        out.i[i] = 0;
        continue;
      }
      out.i[i] = f(in[0].i[i], in[1].i[i]);
    }
  };
  unsigned width = bitWidth(t0);

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
  case EwKind::AddI:
    binaryI(in[0], in[1], out.i, n, [](int64_t a, int64_t b) {
      return static_cast<int64_t>(static_cast<uint64_t>(a) +
                                  static_cast<uint64_t>(b));
    });
    break;
  case EwKind::SubI:
    binaryI(in[0], in[1], out.i, n, [](int64_t a, int64_t b) {
      return static_cast<int64_t>(static_cast<uint64_t>(a) -
                                  static_cast<uint64_t>(b));
    });
    break;
  case EwKind::MulI:
    binaryI(in[0], in[1], out.i, n, [](int64_t a, int64_t b) {
      return static_cast<int64_t>(static_cast<uint64_t>(a) *
                                  static_cast<uint64_t>(b));
    });
    break;
  case EwKind::DivSI:
    divLoop([&](int64_t a, int64_t b) {
      a = signedValue(a, t0);
      b = signedValue(b, t0);
      return b == -1 ? static_cast<int64_t>(0 - static_cast<uint64_t>(a))
                     : a / b;
    });
    break;
  case EwKind::DivUI:
    divLoop([&](int64_t a, int64_t b) {
      return static_cast<int64_t>(zeroExtend(a, t0) / zeroExtend(b, t0));
    });
    break;
  case EwKind::CeilDivSI:
    divLoop([&](int64_t a, int64_t b) {
      return ceilDivS(signedValue(a, t0), signedValue(b, t0));
    });
    break;
  case EwKind::CeilDivUI:
    divLoop([&](int64_t a, int64_t b) {
      uint64_t ua = zeroExtend(a, t0), ub = zeroExtend(b, t0);
      return static_cast<int64_t>(ua / ub + (ua % ub != 0));
    });
    break;
  case EwKind::FloorDivSI:
    divLoop([&](int64_t a, int64_t b) {
      return floorDivS(signedValue(a, t0), signedValue(b, t0));
    });
    break;
  case EwKind::RemSI:
    divLoop([&](int64_t a, int64_t b) {
      a = signedValue(a, t0);
      b = signedValue(b, t0);
      return b == -1 ? int64_t(0) : a % b;
    });
    break;
  case EwKind::RemUI:
    divLoop([&](int64_t a, int64_t b) {
      return static_cast<int64_t>(zeroExtend(a, t0) % zeroExtend(b, t0));
    });
    break;
  case EwKind::AndI:
    binaryI(in[0], in[1], out.i, n, [](int64_t a, int64_t b) { return a & b; });
    break;
  case EwKind::OrI:
    binaryI(in[0], in[1], out.i, n, [](int64_t a, int64_t b) { return a | b; });
    break;
  case EwKind::XOrI:
    binaryI(in[0], in[1], out.i, n, [](int64_t a, int64_t b) { return a ^ b; });
    break;
  case EwKind::ShLI:
    binaryI(in[0], in[1], out.i, n, [&](int64_t a, int64_t b) {
      uint64_t s = zeroExtend(b, t0);
      return s >= width ? int64_t(0)
                        : static_cast<int64_t>(static_cast<uint64_t>(a) << s);
    });
    break;
  case EwKind::ShRUI:
    binaryI(in[0], in[1], out.i, n, [&](int64_t a, int64_t b) {
      uint64_t s = zeroExtend(b, t0);
      return s >= width ? int64_t(0)
                        : static_cast<int64_t>(zeroExtend(a, t0) >> s);
    });
    break;
  case EwKind::ShRSI:
    binaryI(in[0], in[1], out.i, n, [&](int64_t a, int64_t b) {
      uint64_t s = zeroExtend(b, t0);
      return signedValue(a, t0) >> (s >= width ? width - 1 : s);
    });
    break;
  case EwKind::MaxSI:
    binaryI(in[0], in[1], out.i, n, [&](int64_t a, int64_t b) {
      return signedValue(a, t0) >= signedValue(b, t0) ? a : b;
    });
    break;
  case EwKind::MinSI:
    binaryI(in[0], in[1], out.i, n, [&](int64_t a, int64_t b) {
      return signedValue(a, t0) <= signedValue(b, t0) ? a : b;
    });
    break;
  case EwKind::MaxUI:
    binaryI(in[0], in[1], out.i, n, [&](int64_t a, int64_t b) {
      return zeroExtend(a, t0) >= zeroExtend(b, t0) ? a : b;
    });
    break;
  case EwKind::MinUI:
    binaryI(in[0], in[1], out.i, n, [&](int64_t a, int64_t b) {
      return zeroExtend(a, t0) <= zeroExtend(b, t0) ? a : b;
    });
    break;
  case EwKind::AbsI:
    for (size_t i = 0; i < n; ++i) {
      int64_t a = signedValue(in[0].i[i], t0);
      out.i[i] = a < 0 ? static_cast<int64_t>(0 - static_cast<uint64_t>(a))
                       : a;
    }
    break;
  case EwKind::IPowI:
    binaryI(in[0], in[1], out.i, n, [&](int64_t a, int64_t b) {
      return ipow(signedValue(a, t0), signedValue(b, t0));
    });
    break;
  case EwKind::CtPop:
    for (size_t i = 0; i < n; ++i)
      out.i[i] = llvm::popcount(zeroExtend(in[0].i[i], t0));
    break;
  case EwKind::Ctlz:
    for (size_t i = 0; i < n; ++i) {
      uint64_t v = zeroExtend(in[0].i[i], t0);
      out.i[i] = v == 0 ? width : llvm::countl_zero(v) - (64 - width);
    }
    break;
  case EwKind::Cttz:
    for (size_t i = 0; i < n; ++i) {
      uint64_t v = zeroExtend(in[0].i[i], t0);
      out.i[i] = v == 0 ? width : llvm::countr_zero(v);
    }
    break;
  case EwKind::CmpI:
    for (size_t i = 0; i < n; ++i)
      out.i[i] = compareI(op.predicate, in[0].i[i], in[1].i[i], t0);
    break;
  case EwKind::Idx32ToAddr: {
    // Operands: index, then base and stride unless given as literals.
    unsigned next = 1;
    const ColumnIn *base = op.literalBase ? nullptr : &in[next++];
    const ColumnIn *stride = op.literalStride ? nullptr : &in[next++];
    for (size_t i = 0; i < n; ++i) {
      uint64_t b = base ? static_cast<uint64_t>(base->i[i])
                        : static_cast<uint64_t>(*op.literalBase);
      uint64_t s = stride ? static_cast<uint64_t>(stride->i[i])
                          : static_cast<uint64_t>(*op.literalStride);
      out.i[i] = static_cast<int64_t>(b + s * static_cast<uint64_t>(
                                                  in[0].i[i]));
    }
    break;
  }
  case EwKind::IdentityI:
  case EwKind::TruncI:
    for (size_t i = 0; i < n; ++i)
      out.i[i] = in[0].i[i];
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
  case EwKind::SIToFP:
    for (size_t i = 0; i < n; ++i)
      out.f[i] = static_cast<double>(signedValue(in[0].i[i], t0));
    break;
  case EwKind::UIToFP:
    for (size_t i = 0; i < n; ++i)
      out.f[i] = static_cast<double>(zeroExtend(in[0].i[i], t0));
    break;
  case EwKind::FPToSI:
    for (size_t i = 0; i < n; ++i)
      out.i[i] = floatToInt(in[0].f[i], rt, false);
    break;
  case EwKind::FPToUI:
    for (size_t i = 0; i < n; ++i)
      out.i[i] = floatToInt(in[0].f[i], rt, true);
    break;
  case EwKind::ExtSI:
  case EwKind::IndexCast:
    for (size_t i = 0; i < n; ++i)
      out.i[i] = signedValue(in[0].i[i], t0);
    break;
  case EwKind::ExtUI:
  case EwKind::IndexCastUI:
    for (size_t i = 0; i < n; ++i)
      out.i[i] = static_cast<int64_t>(zeroExtend(in[0].i[i], t0));
    break;
  case EwKind::BitcastFToI:
    for (size_t i = 0; i < n; ++i)
      out.i[i] = static_cast<int64_t>(floatToBits(in[0].f[i], t0));
    break;
  case EwKind::BitcastIToF:
    for (size_t i = 0; i < n; ++i)
      out.f[i] = bitsToFloat(zeroExtend(in[0].i[i], t0), rt);
    break;
  }

  if (isFloat(rt))
    roundArray(rt, out.f, n);
  else
    wrapIntArray(rt, out.i, n);
  return firstZeroDivisor;
}
