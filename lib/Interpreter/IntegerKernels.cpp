//===- IntegerKernels.cpp - Column kernels of integer ops and casts -------===//
//
// This file implements the integer element-wise kernels (arithmetic that
// wraps at the operand width, signed/unsigned division and comparison,
// shifts, bit counts, the Spyre integer intrinsics) and every cast.
// Unsigned ops read operands zero-extended from their width; division by a
// zero divisor yields 0 and is reported to the caller.
//
//===----------------------------------------------------------------------===//

#include "ArithMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/bit.h"

#include <cmath>

using namespace ktflow::interp;
using mlir::arith::CmpIPredicate;

namespace {

template <typename F>
void binaryI(const ColumnIn &a, const ColumnIn &b, int64_t *out, size_t n,
             F f) {
  for (size_t i = 0; i < n; ++i)
    out[i] = f(a.i[i], b.i[i]);
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

} // namespace

int64_t ktflow::interp::runIntegerAndCastKernel(const EwOp &op,
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
  default:
    break;
  }
  return firstZeroDivisor;
}
