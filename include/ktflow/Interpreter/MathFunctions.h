//===- MathFunctions.h - The interpreter's math functions ---*- C++ -*-===//
//
// This file declares the scalar functions the reference interpreter
// evaluates math ops of one float operand with, public so the compiled CPU
// tier tabulates the same functions for 16-bit floats
// (lib/CpuJit/NarrowMathTables.cpp) instead of a list of its own.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_INTERPRETER_MATHFUNCTIONS_H
#define KTFLOW_INTERPRETER_MATHFUNCTIONS_H

#include "mlir/IR/Operation.h"

#include <optional>

namespace ktflow::interp {

/// A math function of one float operand's value (exp, log, tanh, sin,
/// rsqrt, erf, ...) as the interpreter evaluates it: `evaluate` in double,
/// whose result the interpreter rounds once to the op's type. `id` names
/// the function within this build of ktflow.
struct UnaryMathFunction {
  unsigned id;
  double (*evaluate)(double);
};

/// The function of math op `op` when it is such a function of its one
/// float operand (a transcendental function, sqrt or rsqrt; not the
/// rounding, sign or classification ops).
std::optional<UnaryMathFunction> unaryMathFunction(mlir::Operation *op);
/// The function named `id`.
std::optional<UnaryMathFunction> unaryMathFunction(unsigned id);

} // namespace ktflow::interp

#endif // KTFLOW_INTERPRETER_MATHFUNCTIONS_H
