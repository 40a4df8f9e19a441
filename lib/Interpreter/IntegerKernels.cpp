//===- IntegerKernels.cpp - Column kernels of integer ops and casts -------===//
//
// This file implements and registers the integer element-wise kernels
// (arithmetic that wraps at the operand width, signed/unsigned division and
// comparison, shifts, bit counts, the Spyre integer intrinsics) and every
// cast. Unsigned ops read operands zero-extended from their width; division
// by a zero divisor yields 0 and is reported to the caller.
//
//===----------------------------------------------------------------------===//

#include "ArithMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/bit.h"

#include <cmath>

using namespace ktflow::interp;
using mlir::arith::CmpIPredicate;

namespace {

/// The type integer ops read their operands as.
DType operandType(const EwOp &op) {
  return op.operandTypes.empty() ? op.resultType : op.operandTypes[0];
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

/// The scalar functions of the integer kernels; `t` is the operand type.
int64_t addI(int64_t a, int64_t b, DType) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) +
                              static_cast<uint64_t>(b));
}
int64_t subI(int64_t a, int64_t b, DType) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) -
                              static_cast<uint64_t>(b));
}
int64_t mulI(int64_t a, int64_t b, DType) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) *
                              static_cast<uint64_t>(b));
}
int64_t divSI(int64_t a, int64_t b, DType t) {
  a = signedValue(a, t);
  b = signedValue(b, t);
  return b == -1 ? static_cast<int64_t>(0 - static_cast<uint64_t>(a)) : a / b;
}
int64_t divUI(int64_t a, int64_t b, DType t) {
  return static_cast<int64_t>(zeroExtend(a, t) / zeroExtend(b, t));
}
int64_t ceilDivSI(int64_t a, int64_t b, DType t) {
  return ceilDivS(signedValue(a, t), signedValue(b, t));
}
int64_t ceilDivUI(int64_t a, int64_t b, DType t) {
  uint64_t ua = zeroExtend(a, t), ub = zeroExtend(b, t);
  return static_cast<int64_t>(ua / ub + (ua % ub != 0));
}
int64_t floorDivSI(int64_t a, int64_t b, DType t) {
  return floorDivS(signedValue(a, t), signedValue(b, t));
}
int64_t remSI(int64_t a, int64_t b, DType t) {
  a = signedValue(a, t);
  b = signedValue(b, t);
  return b == -1 ? int64_t(0) : a % b;
}
int64_t remUI(int64_t a, int64_t b, DType t) {
  return static_cast<int64_t>(zeroExtend(a, t) % zeroExtend(b, t));
}
int64_t andI(int64_t a, int64_t b, DType) { return a & b; }
int64_t orI(int64_t a, int64_t b, DType) { return a | b; }
int64_t xorI(int64_t a, int64_t b, DType) { return a ^ b; }
int64_t shlI(int64_t a, int64_t b, DType t) {
  uint64_t s = zeroExtend(b, t);
  return s >= bitWidth(t) ? int64_t(0)
                          : static_cast<int64_t>(static_cast<uint64_t>(a) << s);
}
int64_t shrUI(int64_t a, int64_t b, DType t) {
  uint64_t s = zeroExtend(b, t);
  return s >= bitWidth(t) ? int64_t(0)
                          : static_cast<int64_t>(zeroExtend(a, t) >> s);
}
int64_t shrSI(int64_t a, int64_t b, DType t) {
  uint64_t s = zeroExtend(b, t);
  unsigned width = bitWidth(t);
  return signedValue(a, t) >> (s >= width ? width - 1 : s);
}
int64_t maxSI(int64_t a, int64_t b, DType t) {
  return signedValue(a, t) >= signedValue(b, t) ? a : b;
}
int64_t minSI(int64_t a, int64_t b, DType t) {
  return signedValue(a, t) <= signedValue(b, t) ? a : b;
}
int64_t maxUI(int64_t a, int64_t b, DType t) {
  return zeroExtend(a, t) >= zeroExtend(b, t) ? a : b;
}
int64_t minUI(int64_t a, int64_t b, DType t) {
  return zeroExtend(a, t) <= zeroExtend(b, t) ? a : b;
}
int64_t ipowI(int64_t a, int64_t b, DType t) {
  return ipow(signedValue(a, t), signedValue(b, t));
}

int64_t absI(int64_t a, DType t) {
  a = signedValue(a, t);
  return a < 0 ? static_cast<int64_t>(0 - static_cast<uint64_t>(a)) : a;
}
int64_t ctPop(int64_t a, DType t) { return llvm::popcount(zeroExtend(a, t)); }
int64_t ctlz(int64_t a, DType t) {
  uint64_t v = zeroExtend(a, t);
  unsigned width = bitWidth(t);
  return v == 0 ? width : llvm::countl_zero(v) - (64 - width);
}
int64_t cttz(int64_t a, DType t) {
  uint64_t v = zeroExtend(a, t);
  return v == 0 ? bitWidth(t) : llvm::countr_zero(v);
}
int64_t identityI(int64_t a, DType) { return a; }
int64_t signExtend(int64_t a, DType t) { return signedValue(a, t); }
int64_t zeroExtendI(int64_t a, DType t) {
  return static_cast<int64_t>(zeroExtend(a, t));
}

template <int64_t (*F)(int64_t, int64_t, DType)>
int64_t binaryI(const EwOp &op, llvm::ArrayRef<ColumnIn> in, ColumnOut out,
                size_t n) {
  DType t = operandType(op);
  for (size_t i = 0; i < n; ++i)
    out.i[i] = F(in[0].i[i], in[1].i[i], t);
  return -1;
}

/// Integer division: a zero divisor yields 0 and is reported.
template <int64_t (*F)(int64_t, int64_t, DType)>
int64_t divisionI(const EwOp &op, llvm::ArrayRef<ColumnIn> in, ColumnOut out,
                  size_t n) {
  DType t = operandType(op);
  int64_t firstZeroDivisor = -1;
  for (size_t i = 0; i < n; ++i) {
    if (zeroExtend(in[1].i[i], t) == 0) {
      if (firstZeroDivisor < 0)
        firstZeroDivisor = static_cast<int64_t>(i);
      out.i[i] = 0;
      continue;
    }
    out.i[i] = F(in[0].i[i], in[1].i[i], t);
  }
  return firstZeroDivisor;
}

template <int64_t (*F)(int64_t, DType)>
int64_t unaryI(const EwOp &op, llvm::ArrayRef<ColumnIn> in, ColumnOut out,
               size_t n) {
  DType t = operandType(op);
  for (size_t i = 0; i < n; ++i)
    out.i[i] = F(in[0].i[i], t);
  return -1;
}

int64_t cmpIKernel(const EwOp &op, llvm::ArrayRef<ColumnIn> in, ColumnOut out,
                   size_t n) {
  DType t = operandType(op);
  for (size_t i = 0; i < n; ++i)
    out.i[i] = compareI(op.predicate, in[0].i[i], in[1].i[i], t);
  return -1;
}

int64_t idx32ToAddrKernel(const EwOp &op, llvm::ArrayRef<ColumnIn> in,
                          ColumnOut out, size_t n) {
  // Operands: index, then base and stride unless given as literals.
  unsigned next = 1;
  const ColumnIn *base = op.literalBase ? nullptr : &in[next++];
  const ColumnIn *stride = op.literalStride ? nullptr : &in[next++];
  for (size_t i = 0; i < n; ++i) {
    uint64_t b = base ? static_cast<uint64_t>(base->i[i])
                      : static_cast<uint64_t>(*op.literalBase);
    uint64_t s = stride ? static_cast<uint64_t>(stride->i[i])
                        : static_cast<uint64_t>(*op.literalStride);
    out.i[i] = static_cast<int64_t>(b + s * static_cast<uint64_t>(in[0].i[i]));
  }
  return -1;
}

// Casts between integers and floats. The result is rounded or wrapped to
// its type afterwards.
int64_t siToFP(const EwOp &op, llvm::ArrayRef<ColumnIn> in, ColumnOut out,
               size_t n) {
  DType t = operandType(op);
  for (size_t i = 0; i < n; ++i)
    out.f[i] = static_cast<double>(signedValue(in[0].i[i], t));
  return -1;
}

int64_t uiToFP(const EwOp &op, llvm::ArrayRef<ColumnIn> in, ColumnOut out,
               size_t n) {
  DType t = operandType(op);
  for (size_t i = 0; i < n; ++i)
    out.f[i] = static_cast<double>(zeroExtend(in[0].i[i], t));
  return -1;
}

template <bool IsUnsigned>
int64_t fpToInt(const EwOp &op, llvm::ArrayRef<ColumnIn> in, ColumnOut out,
                size_t n) {
  for (size_t i = 0; i < n; ++i)
    out.i[i] = floatToInt(in[0].f[i], op.resultType, IsUnsigned);
  return -1;
}

int64_t bitcastFToI(const EwOp &op, llvm::ArrayRef<ColumnIn> in, ColumnOut out,
                    size_t n) {
  DType t = operandType(op);
  for (size_t i = 0; i < n; ++i)
    out.i[i] = static_cast<int64_t>(floatToBits(in[0].f[i], t));
  return -1;
}

int64_t bitcastIToF(const EwOp &op, llvm::ArrayRef<ColumnIn> in, ColumnOut out,
                    size_t n) {
  DType t = operandType(op);
  for (size_t i = 0; i < n; ++i)
    out.f[i] = bitsToFloat(zeroExtend(in[0].i[i], t), op.resultType);
  return -1;
}

} // namespace

void ktflow::interp::registerIntegerKernels(EwKernelTable &table) {
  table.add(EwKind::AddI, binaryI<addI>);
  table.add(EwKind::SubI, binaryI<subI>);
  table.add(EwKind::MulI, binaryI<mulI>);
  table.add(EwKind::DivSI, divisionI<divSI>);
  table.add(EwKind::DivUI, divisionI<divUI>);
  table.add(EwKind::CeilDivSI, divisionI<ceilDivSI>);
  table.add(EwKind::CeilDivUI, divisionI<ceilDivUI>);
  table.add(EwKind::FloorDivSI, divisionI<floorDivSI>);
  table.add(EwKind::RemSI, divisionI<remSI>);
  table.add(EwKind::RemUI, divisionI<remUI>);
  table.add(EwKind::AndI, binaryI<andI>);
  table.add(EwKind::OrI, binaryI<orI>);
  table.add(EwKind::XOrI, binaryI<xorI>);
  table.add(EwKind::ShLI, binaryI<shlI>);
  table.add(EwKind::ShRUI, binaryI<shrUI>);
  table.add(EwKind::ShRSI, binaryI<shrSI>);
  table.add(EwKind::MaxSI, binaryI<maxSI>);
  table.add(EwKind::MinSI, binaryI<minSI>);
  table.add(EwKind::MaxUI, binaryI<maxUI>);
  table.add(EwKind::MinUI, binaryI<minUI>);
  table.add(EwKind::IPowI, binaryI<ipowI>);
  table.add(EwKind::AbsI, unaryI<absI>);
  table.add(EwKind::CtPop, unaryI<ctPop>);
  table.add(EwKind::Ctlz, unaryI<ctlz>);
  table.add(EwKind::Cttz, unaryI<cttz>);
  table.add(EwKind::CmpI, cmpIKernel);
  table.add(EwKind::Idx32ToAddr, idx32ToAddrKernel);
  table.add(EwKind::IdentityI, unaryI<identityI>);
}

void ktflow::interp::registerCastKernels(EwKernelTable &table) {
  // Integer to integer: the result is wrapped to its width afterwards.
  table.add(EwKind::TruncI, unaryI<identityI>);
  table.add(EwKind::ExtSI, unaryI<signExtend>);
  table.add(EwKind::IndexCast, unaryI<signExtend>);
  table.add(EwKind::ExtUI, unaryI<zeroExtendI>);
  table.add(EwKind::IndexCastUI, unaryI<zeroExtendI>);
  table.add(EwKind::SIToFP, siToFP);
  table.add(EwKind::UIToFP, uiToFP);
  table.add(EwKind::FPToSI, fpToInt<false>);
  table.add(EwKind::FPToUI, fpToInt<true>);
  table.add(EwKind::BitcastFToI, bitcastFToI);
  table.add(EwKind::BitcastIToF, bitcastIToF);
}
