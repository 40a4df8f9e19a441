//===- ElementType.cpp - Element types of host tensors --------------------===//
//
// This file implements the element types' names, sizes and rounding. Narrow
// floats are rounded from double with the "add and subtract a magic constant"
// trick: adding 1.5 * 2^(k+52) to a double of smaller magnitude rounds it to
// a multiple of 2^k in the current (round-to-nearest-even) mode, so one
// exponent extraction, one table lookup and two additions round a value to
// any narrower format exactly, subnormals included.
//
//===----------------------------------------------------------------------===//

#include "ktflow/HostTensor/ElementType.h"

#include "llvm/ADT/bit.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

using namespace ktflow::host;

namespace {

/// A binary floating-point format narrower than double.
struct FloatFormat {
  int mantBits;    ///< Stored fraction bits.
  int minExp;      ///< Exponent of the smallest normal value.
  int maxExp;      ///< Exponent of the largest finite binade.
  bool subnormals; ///< Whether values below 2^minExp exist (else flushed).
  double maxFinite;
  double minNormal;
  int bias;
  int expBits;
  /// magic[k - kMin] = 1.5 * 2^(k + 52) for every quantum exponent k.
  int kMin;
  double magic[400];

  FloatFormat(int mantBits, int expBits, int minExp, int maxExp,
              bool subnormals, double maxFinite)
      : mantBits(mantBits), minExp(minExp), maxExp(maxExp),
        subnormals(subnormals), maxFinite(maxFinite),
        minNormal(std::ldexp(1.0, minExp)), bias(-minExp + 1), expBits(expBits),
        kMin(minExp - mantBits) {
    for (int k = kMin; k <= maxExp - mantBits; ++k)
      magic[k - kMin] = std::ldexp(1.5, k + 52);
  }

  double round(double x) const {
    uint64_t bits = llvm::bit_cast<uint64_t>(x);
    int e = int((bits >> 52) & 0x7ff) - 1023;
    if (e == 1024)
      return x; // inf or NaN
    if (e > maxExp)
      return std::copysign(std::numeric_limits<double>::infinity(), x);
    int k = (e < minExp ? minExp : e) - mantBits;
    double c = magic[k - kMin];
    // Without -ffast-math the compiler keeps both additions.
    double y = (x + c) - c;
    double a = std::fabs(y);
    if (!subnormals && a < minNormal)
      y = 0.0;
    else if (a > maxFinite)
      y = std::numeric_limits<double>::infinity();
    return std::copysign(y, x);
  }
};

const FloatFormat &halfFormat() {
  static const FloatFormat f(10, 5, -14, 15, true, 65504.0);
  return f;
}
const FloatFormat &bfloatFormat() {
  static const FloatFormat f(7, 8, -126, 127, true,
                             std::ldexp(2.0 - std::ldexp(1.0, -7), 127));
  return f;
}
/// DLFloat16 as IBM describes it: bias 31, no subnormals, the all-ones
/// pattern is the single NaN/infinity, so the largest finite value has a
/// fraction of all ones but the last bit.
const FloatFormat &dlfloatFormat() {
  static const FloatFormat f(9, 6, -30, 32, false,
                             std::ldexp(2.0 - std::ldexp(1.0, -8), 32));
  return f;
}

const FloatFormat *formatOf(DType t) {
  switch (t) {
  case DType::F16:
    return &halfFormat();
  case DType::BF16:
    return &bfloatFormat();
  case DType::DF16:
    return &dlfloatFormat();
  default:
    return nullptr;
  }
}

} // namespace

unsigned ktflow::host::bitWidth(DType t) {
  switch (t) {
  case DType::I1:
    return 1;
  case DType::I8:
    return 8;
  case DType::I16:
  case DType::F16:
  case DType::BF16:
  case DType::DF16:
    return 16;
  case DType::I32:
  case DType::F32:
    return 32;
  case DType::I64:
  case DType::Index:
  case DType::F64:
    return 64;
  }
  return 64;
}

unsigned ktflow::host::byteSize(DType t) {
  return t == DType::I1 ? 1 : bitWidth(t) / 8;
}

llvm::StringRef ktflow::host::dtypeName(DType t) {
  switch (t) {
  case DType::I1:
    return "i1";
  case DType::I8:
    return "i8";
  case DType::I16:
    return "i16";
  case DType::I32:
    return "i32";
  case DType::I64:
    return "i64";
  case DType::Index:
    return "index";
  case DType::F16:
    return "f16";
  case DType::BF16:
    return "bf16";
  case DType::DF16:
    return "df16";
  case DType::F32:
    return "f32";
  case DType::F64:
    return "f64";
  }
  return "?";
}

double ktflow::host::roundToDType(double x, DType t) {
  if (const FloatFormat *format = formatOf(t))
    return format->round(x);
  if (t == DType::F32)
    return static_cast<double>(static_cast<float>(x));
  return x;
}

void ktflow::host::roundArray(DType t, double *data, size_t n) {
  if (t == DType::F32) {
    for (size_t i = 0; i < n; ++i)
      data[i] = static_cast<double>(static_cast<float>(data[i]));
    return;
  }
  const FloatFormat *format = formatOf(t);
  if (!format)
    return;
  for (size_t i = 0; i < n; ++i)
    data[i] = format->round(data[i]);
}

int64_t ktflow::host::wrapInt(int64_t v, DType t) {
  unsigned width = bitWidth(t);
  if (width == 64)
    return v;
  if (width == 1)
    return v & 1;
  unsigned shift = 64 - width;
  return static_cast<int64_t>(static_cast<uint64_t>(v) << shift) >> shift;
}

void ktflow::host::wrapIntArray(DType t, int64_t *data, size_t n) {
  unsigned width = bitWidth(t);
  if (width == 64)
    return;
  if (width == 1) {
    for (size_t i = 0; i < n; ++i)
      data[i] &= 1;
    return;
  }
  unsigned shift = 64 - width;
  for (size_t i = 0; i < n; ++i)
    data[i] =
        static_cast<int64_t>(static_cast<uint64_t>(data[i]) << shift) >> shift;
}

uint64_t ktflow::host::zeroExtend(int64_t v, DType t) {
  unsigned width = bitWidth(t);
  if (width == 64)
    return static_cast<uint64_t>(v);
  return static_cast<uint64_t>(v) & ((uint64_t(1) << width) - 1);
}

uint64_t ktflow::host::floatToBits(double x, DType t) {
  if (t == DType::F64)
    return llvm::bit_cast<uint64_t>(x);
  if (t == DType::F32)
    return llvm::bit_cast<uint32_t>(static_cast<float>(x));
  const FloatFormat *f = formatOf(t);
  if (!f)
    return 0;
  unsigned width = 1 + f->expBits + f->mantBits;
  // A normal value of f16 or bf16 (the bulk of a .npy tensor): the
  // double's own fields, its fraction truncated as the general path below
  // does, without its libm calls.
  if (t == DType::F16 || t == DType::BF16) {
    uint64_t bits = llvm::bit_cast<uint64_t>(x);
    int e = static_cast<int>((bits >> 52) & 0x7ff) - 1023;
    if (e >= f->minExp && e <= f->maxExp) {
      uint64_t sign = (bits >> 63) << (width - 1);
      uint64_t mant = (bits & ((uint64_t(1) << 52) - 1)) >> (52 - f->mantBits);
      return sign | (static_cast<uint64_t>(e + f->bias) << f->mantBits) | mant;
    }
  }
  uint64_t sign = std::signbit(x) ? uint64_t(1) << (width - 1) : 0;
  uint64_t expMask = (uint64_t(1) << f->expBits) - 1;
  uint64_t mantMask = (uint64_t(1) << f->mantBits) - 1;
  bool merged = t == DType::DF16; // one all-ones pattern for NaN and inf
  if (std::isnan(x) || std::isinf(x)) {
    if (merged)
      return sign | (expMask << f->mantBits) | mantMask;
    uint64_t mant = std::isnan(x) ? uint64_t(1) << (f->mantBits - 1) : 0;
    return sign | (expMask << f->mantBits) | mant;
  }
  double a = std::fabs(x);
  if (a == 0.0)
    return sign;
  int e = std::ilogb(a);
  if (e < f->minExp) {
    // Subnormal: the fraction counts multiples of the smallest subnormal.
    double units = std::ldexp(a, f->mantBits - f->minExp);
    return sign | (static_cast<uint64_t>(units) & mantMask);
  }
  double frac = std::ldexp(a, -e) - 1.0;
  uint64_t mant = static_cast<uint64_t>(std::ldexp(frac, f->mantBits));
  uint64_t field = static_cast<uint64_t>(e + f->bias);
  return sign | (field << f->mantBits) | (mant & mantMask);
}

/// The value of the bits of a 16-bit float of format `f`.
static double decodeBits(uint64_t bits, DType t, const FloatFormat *f) {
  unsigned width = 1 + f->expBits + f->mantBits;
  bool negative = (bits >> (width - 1)) & 1;
  uint64_t expMask = (uint64_t(1) << f->expBits) - 1;
  uint64_t mantMask = (uint64_t(1) << f->mantBits) - 1;
  uint64_t field = (bits >> f->mantBits) & expMask;
  uint64_t mant = bits & mantMask;
  double value;
  if (t == DType::DF16 && field == expMask && mant == mantMask) {
    value = std::numeric_limits<double>::quiet_NaN();
  } else if (t != DType::DF16 && field == expMask) {
    value = mant ? std::numeric_limits<double>::quiet_NaN()
                 : std::numeric_limits<double>::infinity();
  } else if (field == 0) {
    // Zero or subnormal; df16 has no subnormals, so its field 0 is zero.
    value = t == DType::DF16 ? 0.0
                             : std::ldexp(static_cast<double>(mant),
                                          f->minExp - f->mantBits);
  } else {
    value =
        std::ldexp(1.0 + std::ldexp(static_cast<double>(mant), -f->mantBits),
                   static_cast<int>(field) - f->bias);
  }
  return negative ? -value : value;
}

/// decodeBits of every pattern of f16 or bf16, built on first use: parsing
/// a large .npy tensor decodes every element.
static const double *decodeTable(DType t) {
  auto build = [](DType type) {
    std::vector<double> table(1 << 16);
    for (uint64_t bits = 0; bits < table.size(); ++bits)
      table[bits] = decodeBits(bits, type, formatOf(type));
    return table;
  };
  if (t == DType::F16) {
    static const std::vector<double> half = build(DType::F16);
    return half.data();
  }
  static const std::vector<double> bfloat = build(DType::BF16);
  return bfloat.data();
}

double ktflow::host::bitsToFloat(uint64_t bits, DType t) {
  if (t == DType::F64)
    return llvm::bit_cast<double>(bits);
  if (t == DType::F32)
    return llvm::bit_cast<float>(static_cast<uint32_t>(bits));
  if (t == DType::F16 || t == DType::BF16)
    return decodeTable(t)[bits & 0xffff];
  const FloatFormat *f = formatOf(t);
  if (!f)
    return 0.0;
  return decodeBits(bits, t, f);
}

double ktflow::host::maxFinite(DType t) {
  if (const FloatFormat *f = formatOf(t))
    return f->maxFinite;
  if (t == DType::F32)
    return std::numeric_limits<float>::max();
  return std::numeric_limits<double>::max();
}

double ktflow::host::unitInLastPlace(double x, DType t) {
  int mantBits = 52, minExp = -1022;
  if (const FloatFormat *f = formatOf(t))
    mantBits = f->mantBits, minExp = f->minExp;
  else if (t == DType::F32)
    mantBits = 23, minExp = -126;
  int e = x != 0 && std::isfinite(x) ? std::max(std::ilogb(x), minExp) : minExp;
  return std::ldexp(1.0, e - mantBits);
}

int64_t ktflow::host::floatToInt(double x, DType t, bool isUnsigned) {
  if (std::isnan(x))
    return 0;
  unsigned width = bitWidth(t);
  double truncated = std::trunc(x);
  if (isUnsigned) {
    if (truncated <= 0)
      return 0;
    double limit = std::ldexp(1.0, width); // exclusive
    if (truncated >= limit)
      return wrapInt(static_cast<int64_t>(width == 64
                                              ? ~uint64_t(0)
                                              : (uint64_t(1) << width) - 1),
                     t);
    return wrapInt(static_cast<int64_t>(static_cast<uint64_t>(truncated)), t);
  }
  if (width == 1)
    return truncated != 0 ? 1 : 0;
  double hi = std::ldexp(1.0, width - 1); // exclusive
  if (truncated >= hi)
    return width == 64 ? std::numeric_limits<int64_t>::max()
                       : (int64_t(1) << (width - 1)) - 1;
  if (truncated < -hi)
    return width == 64 ? std::numeric_limits<int64_t>::min()
                       : -(int64_t(1) << (width - 1));
  return static_cast<int64_t>(truncated);
}
