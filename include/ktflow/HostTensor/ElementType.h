//===- ElementType.h - Element types of host tensors -----------*- C++ -*-===//
//
// This file declares the element types of host tensors (f16, bf16, df16, f32,
// f64, i1..i64, index), which the reference interpreter computes with and the
// drivers read, write and generate, and their rounding: every float value is
// held in a double that is exactly representable in its element type,
// produced by rounding to nearest, ties to even; every integer is held in an
// int64_t wrapped to its bit width.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_HOSTTENSOR_ELEMENTTYPE_H
#define KTFLOW_HOSTTENSOR_ELEMENTTYPE_H

#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <cstdint>

namespace ktflow::host {

/// The element types of host tensors and interpreter values.
enum class DType : uint8_t {
  I1,
  I8,
  I16,
  I32,
  I64,
  Index,
  F16,
  BF16,
  DF16,
  F32,
  F64,
};

/// Whether values of `t` are held as doubles (else as int64_t).
inline bool isFloat(DType t) { return t >= DType::F16; }

/// Bit width of `t` (index is 64 bits).
unsigned bitWidth(DType t);

/// Bytes one element of `t` occupies in memory (i1 takes one byte).
unsigned byteSize(DType t);

/// Short name: "f16", "bf16", "df16", "f32", "f64", "i1", ..., "index".
llvm::StringRef dtypeName(DType t);

/// Rounds `x` to the nearest value of float type `t`, ties to even.
/// Overflow gives a signed infinity, NaN stays NaN, values below half the
/// smallest subnormal give a signed zero. df16 has no subnormals (they
/// flush to zero). For integer `t`, returns `x` unchanged.
double roundToDType(double x, DType t);

/// Rounds every element of `data` to float type `t` in place.
void roundArray(DType t, double *data, size_t n);

/// Wraps `v` to the width of integer type `t`: i1 to 0/1, narrower types
/// sign-extended from their low bits, i64/index unchanged.
int64_t wrapInt(int64_t v, DType t);

/// Wraps every element of `data` to integer type `t` in place.
void wrapIntArray(DType t, int64_t *data, size_t n);

/// The low `bitWidth(t)` bits of an integer value, zero-extended.
uint64_t zeroExtend(int64_t v, DType t);

/// The bit pattern of float value `x` (already representable) in type `t`:
/// IEEE binary16/bfloat16/binary32/binary64, or DLFloat16 for df16.
uint64_t floatToBits(double x, DType t);

/// The value of bit pattern `bits` of float type `t`.
double bitsToFloat(uint64_t bits, DType t);

/// Largest finite value of float type `t`.
double maxFinite(DType t);

/// The spacing of float type `t` at `x`: 2^(e - p) for |x| in [2^e, 2^(e+1))
/// with p fraction bits, and the spacing at the smallest normal below it.
double unitInLastPlace(double x, DType t);

/// Converts a double to an integer of type `t`, truncating toward zero and
/// saturating at the type's bounds (NaN converts to 0). `isUnsigned`
/// selects the unsigned range.
int64_t floatToInt(double x, DType t, bool isUnsigned);

} // namespace ktflow::host

#endif // KTFLOW_HOSTTENSOR_ELEMENTTYPE_H
