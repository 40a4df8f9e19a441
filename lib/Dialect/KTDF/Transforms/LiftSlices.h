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

#include <optional>
#include <string>

namespace mlir::ktdf {

/// Why ktdf-lift-slices leaves `op` (a tensor.extract_slice, insert_slice
/// or concat) in place, as a sentence for an error at `op`; std::nullopt
/// when the pass rewrites it (or `op` is none of the three).
std::optional<std::string> whyNotLiftedSlice(Operation *op);

} // namespace mlir::ktdf

#endif // KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_LIFTSLICES_H
