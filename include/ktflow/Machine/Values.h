//===- Values.h - Element values of the machine -----------------*- C++ -*-===//
//
// This file declares how the machine represents and computes element
// values: every element is held as a double, rounded to its element type
// after every operation (round-to-nearest-even for floats, wrap-around for
// integers), and converted to and from the bytes of device memory.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_MACHINE_VALUES_H
#define KTFLOW_MACHINE_VALUES_H

#include "ktflow/Machine/Program.h"

#include <cstdint>

namespace ktflow::machine {

uint16_t floatToHalf(float value);
float halfToFloat(uint16_t bits);
uint16_t floatToBFloat(float value);
float bfloatToFloat(uint16_t bits);

/// Rounds (floats) or wraps (integers) `value` to what `type` can hold.
double roundToType(ElemType type, double value);

/// Reads the element of `type` stored little-endian at `bytes`.
double loadElement(ElemType type, const uint8_t *bytes);
/// Stores `value` (already rounded) as `type` little-endian at `bytes`.
void storeElement(ElemType type, double value, uint8_t *bytes);

/// Evaluates one micro-op over `n` elements. Slots are arrays of `n`
/// doubles.
void evalMicroOp(const MicroOp &op, const double *a, const double *b,
                 const double *c, double *dst, size_t n);

/// Combines two values of a reduction, rounded to `type`.
double reduceStep(ReduceKind kind, ElemType type, double acc, double value);
/// The identity of a reduction.
double reduceIdentity(ReduceKind kind);

} // namespace ktflow::machine

#endif // KTFLOW_MACHINE_VALUES_H
