//===- LiftSlices.h - Tensor slices as transfers of sub-tiles -*- C++ -*-===//
//
// This file declares what ktdf-lift-slices and ktdf-check-supported share:
// why a tensor.extract_slice, tensor.insert_slice or tensor.concat cannot
// be rewritten into loads or stores of sub-tiles, so that the check refuses
// what the pass leaves with the reason.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_LIFTSLICES_H
#define KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_LIFTSLICES_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"

#include <optional>
#include <string>

namespace mlir::ktdf {

/// Why ktdf-lift-slices leaves `op` (a tensor.extract_slice, insert_slice
/// or concat) in place, as a sentence for an error at `op`; std::nullopt
/// when the pass rewrites it (or `op` is none of the three).
std::optional<std::string> whyNotLiftedSlice(Operation *op);

/// Whether ktdf-lift-slices computes any window of `value` as the same
/// window of loads: `value` is a load through a box access tile, a splat,
/// or element-wise arithmetic on such values.
bool isSliceable(Value value);

/// Whether `extract` reads one element of a larger statically shaped tensor
/// outside linalg bodies (inside one, it is a gather), which
/// ktdf-lift-slices loads alone when a one-element window of the tensor is
/// sliceable.
bool isElementOfLargerTensor(Operation *extract);

} // namespace mlir::ktdf

#endif // KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_LIFTSLICES_H
