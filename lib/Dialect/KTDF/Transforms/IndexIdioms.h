//===- IndexIdioms.h - Coordinates in linalg bodies -------------*- C++ -*-===//
//
// This file declares what the scheduler accepts of index arithmetic in a
// linalg.generic body: the iteration's coordinates (`linalg.index`), index
// values the body captures (a tile's row origin computed from its id) and
// constants, combined by addi, subi and muli and compared by cmpi — a
// causal mask, `select(j <= q0 + i, s, -inf)`. The vector units have no
// integer lanes on every device, so the compute lowering computes these
// values in f32 (dfir.iota makes the coordinates): exact when every value
// is an integer of magnitude at most 2^24, and an unsigned comparison of
// non-negative values is the ordered float comparison. The ranges come
// from the loop extents and the range analysis of captured values.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_INDEXIDIOMS_H
#define KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_INDEXIDIOMS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>
#include <string>
#include <utility>

namespace mlir::ktdf {

/// Why the index arithmetic in `generic`'s body cannot be computed in f32,
/// and the op at fault, or nothing when it can (or there is none).
std::optional<std::pair<std::string, Operation *>>
whyNotFloatIndexArithmetic(linalg::GenericOp generic);

} // namespace mlir::ktdf

#endif // KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_INDEXIDIOMS_H
