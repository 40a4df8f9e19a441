//===- TileBounds.h - Where access tiles lie in their views -----*- C++ -*-===//
//
// This file declares the analyses that decide whether an access tile stays
// inside the coordinates its view holds (ktdf-check-supported, and the DMA
// lowering, which masks the dimensions it cannot prove): the range of an
// index value over every compute tile and loop iteration, the range of a
// tile's anchor, and the static extent of a view along a dimension (its
// sizes and its coordinate_set, whichever is tighter). A load reads 0 at
// the coordinates its DMA masks, as the reference interpreter does, so
// masked coordinates may reach stored elements.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_KTDF_TRANSFORMS_TILEBOUNDS_H
#define KTFLOW_DIALECT_KTDF_TRANSFORMS_TILEBOUNDS_H

#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <optional>
#include <utility>

namespace mlir::ktdf {

/// Inclusive bounds of an index value over every compute tile and loop
/// iteration, when they follow from the grid (tile ids in KTIR, the
/// ktdf.parallel's arguments in ScheduleIR), loop bounds (a loop runs from
/// the lowest value of its start to below the largest of its end) or loops
/// over a window of constant width (`%b to %b + 16`), additions,
/// subtractions and multiplications, unsigned divisions and remainders of
/// values that are not negative by positive constants, unsigned minima with
/// an operand that is not negative, signed minima and maxima (`arith.minsi` /
/// `arith.maxsi`, or the `cmpi slt` + `select` idiom: min(x, 64) is at most 64
/// whatever x is) and selects of two bounded values, and the bounds runtime
/// arguments promise. Either end of an intermediate value may be unknown as
/// long as the ends the result needs are known.
std::optional<std::pair<int64_t, int64_t>> rangeOf(Value v, int depth = 0);

/// A lower bound of an index value over every compute tile and loop
/// iteration: loops start at their lower bound (scf.for steps are
/// positive), tile ids and runtime arguments are not negative, plain
/// scalar arguments may be anything; through additions, subtractions,
/// products and unsigned divisions by positive constants of values that
/// are not negative, and clamps as upperBoundOf.
std::optional<int64_t> lowerBoundOf(Value v, int depth = 0);

/// An upper bound of an index value that follows from constants, the grid
/// (a tile id is below its grid extent) and the upper bounds runtime
/// arguments promise, through additions, subtractions, multiplications
/// and unsigned divisions by positive constants of values that are not
/// negative, signed divisions by positive constants, and clamps (signed
/// minima and maxima, the cmpi + select idiom and other selects, unsigned
/// minima with an operand that is not negative).
std::optional<int64_t> upperBoundOf(Value v, int depth = 0);

/// Bounds of the anchor's result `r` from the bounds of its operands.
std::optional<std::pair<int64_t, int64_t>>
anchorRange(ktdp::ConstructAccessTileOp tile, unsigned r);

/// A lower bound of the anchor's result `r` that holds for every compute
/// tile and loop iteration (loops start at their lower bound, tile ids and
/// runtime arguments are not negative), also when its range is unknown.
std::optional<int64_t> anchorLowerBound(ktdp::ConstructAccessTileOp tile,
                                        unsigned r);

/// The number of coordinates along dimension `d`, from 0, that `view` holds
/// whatever its runtime arguments: the smaller of its static size and the
/// constant upper bounds of its coordinate_set. None when both depend on
/// runtime values.
std::optional<int64_t> staticViewExtent(ktdp::ConstructMemoryViewOp view,
                                        unsigned d);

/// Whether the strides of `view` may map two coordinates it holds to the
/// same element (then stores through it are not ordered by element).
bool viewMayAlias(ktdp::ConstructMemoryViewOp view);

/// Whether coordinates of `tile` along dimension `d` may lie past the end
/// of the coordinates its view holds: the DMA transfers mask them (a load
/// reads 0 there, a store skips them).
bool mayLeaveView(ktdp::ConstructAccessTileOp tile, unsigned d);

/// Whether `tile` may be masked along any dimension.
bool mayLeaveView(ktdp::ConstructAccessTileOp tile);

} // namespace mlir::ktdf

#endif // KTFLOW_DIALECT_KTDF_TRANSFORMS_TILEBOUNDS_H
