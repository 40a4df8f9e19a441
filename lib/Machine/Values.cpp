//===- Values.cpp - Element values of the machine -------------------------===//
//
// This file implements element conversions and the element-wise semantics of
// Map micro-ops. Float operations are computed in double and rounded once to
// the element type (for f16 and bf16 through a round-to-odd float, so that
// a transcendental result is not rounded twice).
//
//===----------------------------------------------------------------------===//

#include "ktflow/Machine/Values.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace ktflow::machine;

uint16_t ktflow::machine::floatToHalf(float value) {
  uint32_t x;
  std::memcpy(&x, &value, 4);
  uint32_t sign = (x >> 16) & 0x8000u;
  uint32_t absx = x & 0x7fffffffu;
  if (absx >= 0x7f800000u) // inf or NaN
    return sign | 0x7c00u | (absx > 0x7f800000u ? 0x200u : 0u);
  if (absx >= 0x477ff000u) // >= 65520 rounds to infinity
    return sign | 0x7c00u;
  if (absx < 0x38800000u) { // below 2^-14: subnormal or zero
    float a;
    std::memcpy(&a, &absx, 4);
    // Scaling by 2^24 is exact; nearbyint rounds to nearest even.
    return sign | static_cast<uint32_t>(std::nearbyint(a * 16777216.0f));
  }
  uint32_t mant = absx & 0x7fffffu;
  uint32_t h = (((absx >> 23) - 112u) << 10) | (mant >> 13);
  uint32_t rem = mant & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u)))
    ++h;
  return sign | h;
}

float ktflow::machine::halfToFloat(uint16_t bits) {
  uint32_t sign = (bits & 0x8000u) << 16;
  uint32_t exp = (bits >> 10) & 0x1fu;
  uint32_t mant = bits & 0x3ffu;
  float result;
  if (exp == 0) {
    result = std::ldexp(static_cast<float>(mant), -24);
    return sign ? -result : result;
  }
  uint32_t x = exp == 31 ? (sign | 0x7f800000u | (mant << 13))
                         : (sign | ((exp + 112u) << 23) | (mant << 13));
  std::memcpy(&result, &x, 4);
  return result;
}

uint16_t ktflow::machine::floatToBFloat(float value) {
  uint32_t x;
  std::memcpy(&x, &value, 4);
  if ((x & 0x7fffffffu) > 0x7f800000u)
    return static_cast<uint16_t>((x >> 16) | 0x40u);
  x += 0x7fffu + ((x >> 16) & 1u);
  return static_cast<uint16_t>(x >> 16);
}

float ktflow::machine::bfloatToFloat(uint16_t bits) {
  uint32_t x = static_cast<uint32_t>(bits) << 16;
  float result;
  std::memcpy(&result, &x, 4);
  return result;
}

/// Converts a double to int64 without undefined behaviour (NaN -> 0,
/// saturating), truncating toward zero.
static int64_t toInt64(double v) {
  if (std::isnan(v))
    return 0;
  if (v >= 9.2233720368547758e18)
    return std::numeric_limits<int64_t>::max();
  if (v <= -9.2233720368547758e18)
    return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(v);
}

/// `v` rounded to float with round-to-odd: an inexact result is the float
/// next to `v` toward zero with its last bit set. Rounding that to a type
/// at least two bits narrower (f16, bf16) then gives the single correct
/// rounding of `v`; rounding to nearest twice would not (a double just
/// below an f16 midpoint becomes the midpoint as a float, which then rounds
/// to even, away from `v`: exp's results hit this).
static float toFloatRoundToOdd(double v) {
  float f = static_cast<float>(v);
  if (!std::isfinite(f) || static_cast<double>(f) == v)
    return f;
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  if (std::fabs(static_cast<double>(f)) > std::fabs(v))
    --bits; // one float toward zero (the sign is in the top bit)
  bits |= 1;
  std::memcpy(&f, &bits, 4);
  return f;
}

double ktflow::machine::roundToType(ElemType type, double v) {
  switch (type) {
  case ElemType::f16:
    return halfToFloat(floatToHalf(toFloatRoundToOdd(v)));
  case ElemType::bf16:
    return bfloatToFloat(floatToBFloat(toFloatRoundToOdd(v)));
  case ElemType::f32:
    return static_cast<float>(v);
  case ElemType::f64:
    return v;
  case ElemType::i1:
    return static_cast<double>(toInt64(v) & 1);
  case ElemType::i8:
    return static_cast<int8_t>(toInt64(v));
  case ElemType::i16:
    return static_cast<int16_t>(toInt64(v));
  case ElemType::i32:
    return static_cast<int32_t>(toInt64(v));
  case ElemType::i64:
    return static_cast<double>(toInt64(v));
  }
  return v;
}

double ktflow::machine::loadElement(ElemType type, const uint8_t *p) {
  switch (type) {
  case ElemType::i1:
    return p[0] & 1;
  case ElemType::i8:
    return static_cast<int8_t>(p[0]);
  case ElemType::i16: {
    int16_t v;
    std::memcpy(&v, p, 2);
    return v;
  }
  case ElemType::i32: {
    int32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  case ElemType::i64: {
    int64_t v;
    std::memcpy(&v, p, 8);
    return static_cast<double>(v);
  }
  case ElemType::f16:
  case ElemType::bf16: {
    uint16_t v;
    std::memcpy(&v, p, 2);
    return type == ElemType::f16 ? halfToFloat(v) : bfloatToFloat(v);
  }
  case ElemType::f32: {
    float v;
    std::memcpy(&v, p, 4);
    return v;
  }
  case ElemType::f64: {
    double v;
    std::memcpy(&v, p, 8);
    return v;
  }
  }
  return 0;
}

void ktflow::machine::storeElement(ElemType type, double v, uint8_t *p) {
  switch (type) {
  case ElemType::i1:
  case ElemType::i8:
    p[0] = static_cast<uint8_t>(toInt64(v));
    return;
  case ElemType::i16: {
    int16_t x = static_cast<int16_t>(toInt64(v));
    std::memcpy(p, &x, 2);
    return;
  }
  case ElemType::i32: {
    int32_t x = static_cast<int32_t>(toInt64(v));
    std::memcpy(p, &x, 4);
    return;
  }
  case ElemType::i64: {
    int64_t x = toInt64(v);
    std::memcpy(p, &x, 8);
    return;
  }
  case ElemType::f16:
  case ElemType::bf16: {
    uint16_t x = type == ElemType::f16 ? floatToHalf(static_cast<float>(v))
                                       : floatToBFloat(static_cast<float>(v));
    std::memcpy(p, &x, 2);
    return;
  }
  case ElemType::f32: {
    float x = static_cast<float>(v);
    std::memcpy(p, &x, 4);
    return;
  }
  case ElemType::f64:
    std::memcpy(p, &v, 8);
    return;
  }
}

// The float maximum and minimum of arith, as the reference interpreter
// computes them: maximumf/minimumf (maxNaN/minNaN) propagate NaN,
// maxnumf/minnumf (maxNum/minNum) return the operand that is not NaN; all
// order -0 below +0.
static double maxNaN(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<double>::quiet_NaN();
  if (a == 0 && b == 0)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
static double minNaN(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<double>::quiet_NaN();
  if (a == 0 && b == 0)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
static double maxNum(double a, double b) {
  if (std::isnan(a))
    return b;
  return std::isnan(b) ? a : maxNaN(a, b);
}
static double minNum(double a, double b) {
  if (std::isnan(a))
    return b;
  return std::isnan(b) ? a : minNaN(a, b);
}

static bool cmpF(int64_t predicate, double a, double b) {
  using P = CmpFPredicate;
  if (predicate < 0 || predicate > static_cast<int64_t>(P::True))
    return false;
  bool unordered = std::isnan(a) || std::isnan(b);
  switch (static_cast<P>(predicate)) {
  case P::False:
    return false;
  case P::Oeq:
    return !unordered && a == b;
  case P::Ogt:
    return !unordered && a > b;
  case P::Oge:
    return !unordered && a >= b;
  case P::Olt:
    return !unordered && a < b;
  case P::Ole:
    return !unordered && a <= b;
  case P::One:
    return !unordered && a != b;
  case P::Ord:
    return !unordered;
  case P::Ueq:
    return unordered || a == b;
  case P::Ugt:
    return unordered || a > b;
  case P::Uge:
    return unordered || a >= b;
  case P::Ult:
    return unordered || a < b;
  case P::Ule:
    return unordered || a <= b;
  case P::Une:
    return unordered || a != b;
  case P::Uno:
    return unordered;
  case P::True:
    return true;
  }
  return false;
}

static uint64_t asUnsigned(ElemType type, int64_t v) {
  unsigned bits = type == ElemType::i1 ? 1 : elemBytes(type) * 8;
  return bits >= 64 ? static_cast<uint64_t>(v)
                    : static_cast<uint64_t>(v) & ((uint64_t(1) << bits) - 1);
}

static bool cmpI(int64_t predicate, ElemType type, int64_t a, int64_t b) {
  using P = CmpIPredicate;
  if (predicate < 0 || predicate > static_cast<int64_t>(P::Uge))
    return false;
  uint64_t ua = asUnsigned(type, a), ub = asUnsigned(type, b);
  switch (static_cast<P>(predicate)) {
  case P::Eq:
    return a == b;
  case P::Ne:
    return a != b;
  case P::Slt:
    return a < b;
  case P::Sle:
    return a <= b;
  case P::Sgt:
    return a > b;
  case P::Sge:
    return a >= b;
  case P::Ult:
    return ua < ub;
  case P::Ule:
    return ua <= ub;
  case P::Ugt:
    return ua > ub;
  case P::Uge:
    return ua >= ub;
  }
  return false;
}

static double unary(ScalarOp op, double x) {
  switch (op) {
  case ScalarOp::NegF:
    return -x;
  case ScalarOp::AbsF:
    return std::fabs(x);
  case ScalarOp::Exp:
    return std::exp(x);
  case ScalarOp::Log:
    return std::log(x);
  case ScalarOp::Sqrt:
    return std::sqrt(x);
  case ScalarOp::Rsqrt:
    return 1.0 / std::sqrt(x);
  case ScalarOp::Tanh:
    return std::tanh(x);
  case ScalarOp::Sigmoid:
    return 1.0 / (1.0 + std::exp(-x));
  case ScalarOp::Silu:
    return x / (1.0 + std::exp(-x));
  case ScalarOp::Gelu:
    return 0.5 * x *
           (1.0 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
  case ScalarOp::Recip:
    return 1.0 / x;
  case ScalarOp::Erf:
    return std::erf(x);
  default:
    return x;
  }
}

static double binaryInt(ScalarOp op, int64_t a, int64_t b) {
  switch (op) {
  case ScalarOp::AddI:
    return static_cast<double>(static_cast<int64_t>(static_cast<uint64_t>(a) +
                                                    static_cast<uint64_t>(b)));
  case ScalarOp::SubI:
    return static_cast<double>(static_cast<int64_t>(static_cast<uint64_t>(a) -
                                                    static_cast<uint64_t>(b)));
  case ScalarOp::MulI:
    return static_cast<double>(static_cast<int64_t>(static_cast<uint64_t>(a) *
                                                    static_cast<uint64_t>(b)));
  // Division by zero has no defined value in arith; the simulator yields 0
  // rather than trapping, like most vector units.
  case ScalarOp::DivSI:
    return b == 0 || (b == -1 && a == std::numeric_limits<int64_t>::min())
               ? 0
               : static_cast<double>(a / b);
  case ScalarOp::RemSI:
    return b == 0 || b == -1 ? 0 : static_cast<double>(a % b);
  case ScalarOp::MaxSI:
    return static_cast<double>(a > b ? a : b);
  case ScalarOp::MinSI:
    return static_cast<double>(a < b ? a : b);
  case ScalarOp::AndI:
    return static_cast<double>(a & b);
  case ScalarOp::OrI:
    return static_cast<double>(a | b);
  case ScalarOp::XorI:
    return static_cast<double>(a ^ b);
  default:
    return 0;
  }
}

void ktflow::machine::evalMicroOp(const MicroOp &op, const double *a,
                                  const double *b, const double *c, double *dst,
                                  size_t n) {
  ElemType t = op.type;
  switch (op.op) {
  case ScalarOp::Const: {
    double v = roundToType(t, op.imm);
    for (size_t i = 0; i < n; ++i)
      dst[i] = v;
    return;
  }
  case ScalarOp::AddF:
    for (size_t i = 0; i < n; ++i)
      dst[i] = roundToType(t, a[i] + b[i]);
    return;
  case ScalarOp::SubF:
    for (size_t i = 0; i < n; ++i)
      dst[i] = roundToType(t, a[i] - b[i]);
    return;
  case ScalarOp::MulF:
    for (size_t i = 0; i < n; ++i)
      dst[i] = roundToType(t, a[i] * b[i]);
    return;
  case ScalarOp::DivF:
    for (size_t i = 0; i < n; ++i)
      dst[i] = roundToType(t, a[i] / b[i]);
    return;
  case ScalarOp::MaxF:
    for (size_t i = 0; i < n; ++i)
      dst[i] = maxNaN(a[i], b[i]);
    return;
  case ScalarOp::MinF:
    for (size_t i = 0; i < n; ++i)
      dst[i] = minNaN(a[i], b[i]);
    return;
  case ScalarOp::MaxNumF:
    for (size_t i = 0; i < n; ++i)
      dst[i] = maxNum(a[i], b[i]);
    return;
  case ScalarOp::MinNumF:
    for (size_t i = 0; i < n; ++i)
      dst[i] = minNum(a[i], b[i]);
    return;
  case ScalarOp::AddI:
  case ScalarOp::SubI:
  case ScalarOp::MulI:
  case ScalarOp::DivSI:
  case ScalarOp::RemSI:
  case ScalarOp::MaxSI:
  case ScalarOp::MinSI:
  case ScalarOp::AndI:
  case ScalarOp::OrI:
  case ScalarOp::XorI:
    for (size_t i = 0; i < n; ++i)
      dst[i] = roundToType(t, binaryInt(op.op, toInt64(a[i]), toInt64(b[i])));
    return;
  case ScalarOp::Cast:
    for (size_t i = 0; i < n; ++i)
      dst[i] = roundToType(t, isFloat(t) ? a[i] : std::trunc(a[i]));
    return;
  case ScalarOp::CastUnsigned:
    for (size_t i = 0; i < n; ++i)
      dst[i] = roundToType(
          t, static_cast<double>(asUnsigned(op.srcType, toInt64(a[i]))));
    return;
  case ScalarOp::CmpF:
    for (size_t i = 0; i < n; ++i)
      dst[i] = cmpF(static_cast<int64_t>(op.imm), a[i], b[i]) ? 1 : 0;
    return;
  case ScalarOp::CmpI:
    for (size_t i = 0; i < n; ++i)
      dst[i] = cmpI(static_cast<int64_t>(op.imm), op.srcType, toInt64(a[i]),
                    toInt64(b[i]))
                   ? 1
                   : 0;
    return;
  case ScalarOp::Select:
    for (size_t i = 0; i < n; ++i)
      dst[i] = a[i] != 0 ? b[i] : c[i];
    return;
  default:
    for (size_t i = 0; i < n; ++i)
      dst[i] = roundToType(t, unary(op.op, a[i]));
    return;
  }
}

double ktflow::machine::reduceIdentity(ReduceKind kind) {
  switch (kind) {
  case ReduceKind::Add:
    return 0;
  case ReduceKind::Mul:
    return 1;
  case ReduceKind::Max:
  case ReduceKind::MaxNum:
  case ReduceKind::MaxAfterNaN:
    return -std::numeric_limits<double>::infinity();
  case ReduceKind::Min:
  case ReduceKind::MinNum:
  case ReduceKind::MinAfterNaN:
    return std::numeric_limits<double>::infinity();
  }
  return 0;
}

double ktflow::machine::reduceStep(ReduceKind kind, ElemType type, double acc,
                                   double v) {
  switch (kind) {
  case ReduceKind::Add:
    return roundToType(type, acc + v);
  case ReduceKind::Mul:
    return roundToType(type, acc * v);
  case ReduceKind::Max:
    return maxNaN(acc, v);
  case ReduceKind::Min:
    return minNaN(acc, v);
  case ReduceKind::MaxNum:
    return maxNum(acc, v);
  case ReduceKind::MinNum:
    return minNum(acc, v);
  // cmp(acc, v) ? acc : v with an ordered compare, false on NaN: a NaN
  // element replaces the accumulator, and a NaN accumulator the element.
  case ReduceKind::MaxAfterNaN:
    return std::isnan(acc) ? v : maxNaN(acc, v);
  case ReduceKind::MinAfterNaN:
    return std::isnan(acc) ? v : minNaN(acc, v);
  }
  return acc;
}
