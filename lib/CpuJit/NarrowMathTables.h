//===- NarrowMathTables.h - Math functions of 16-bit floats as tables -*- C++
//-*-===//
//
// This file declares the tier's lookup tables for math functions of one
// f16 operand (NarrowMathTables.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_CPUJIT_NARROWMATHTABLES_H
#define KTFLOW_LIB_CPUJIT_NARROWMATHTABLES_H

#include "mlir/IR/BuiltinOps.h"

#include <cstdint>

namespace ktflow::jit {

/// `const uint16_t *ktflow_jit_math_table(int64_t function)`, which the
/// caller provides (narrowMathTable).
inline constexpr const char *kNarrowMathTableFunctionName =
    "ktflow_jit_math_table";

/// The results of math function `function` (interp::UnaryMathFunction::id)
/// for every f16 bit pattern, indexed by the input's bits: the interpreter's
/// result for that input (its scalar function in double, rounded once to the
/// type), NaNs included. Built on first use, once per process; thread-safe.
const uint16_t *narrowMathTable(int64_t function);

/// Replaces every math op of `module` that maps one f16 operand to an f16
/// result, and whose function has a table, by a load from
/// the table (which the function fetches once, at its entry).
void lookUpNarrowMath(mlir::ModuleOp module);

} // namespace ktflow::jit

#endif // KTFLOW_LIB_CPUJIT_NARROWMATHTABLES_H
