//===- DevicePatterns.h - A device description's PDL patterns ---*- C++ -*-===//
//
// This file declares the compiled form of the `pdl.pattern`s a device
// description lists for a checkpoint, which --ktdf-apply-device-patterns
// applies to the kernel and the roofline count applies to one op at a time
// (docs/roofline.md §2: an op the description rewrites is counted as it
// rewrites it).
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_KTDF_TRANSFORMS_DEVICEPATTERNS_H
#define KTFLOW_DIALECT_KTDF_TRANSFORMS_DEVICEPATTERNS_H

#include "ktflow/Dialect/KTDFArch/IR/KTDFArch.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"

#include <optional>

namespace mlir::ktdf {

/// The patterns of every `patterns` block of `device` that lists
/// `checkpoint`, compiled with ktflow's native functions (`widen_to_f32`,
/// ...); none when the device lists none.
std::optional<FrozenRewritePatternSet>
getDevicePatterns(ktdf_arch::DeviceOp device, StringRef checkpoint);

/// Applies `patterns` greedily to `root` as the checkpoints do: only the
/// patterns change the IR (no folding, no constant CSE).
LogicalResult applyDevicePatterns(Operation *root,
                                  const FrozenRewritePatternSet &patterns);

/// Every checkpoint's patterns of `device` that has some, compiled, in
/// pipeline order: applied one after the other, what the description makes
/// of the ops they are applied to.
SmallVector<FrozenRewritePatternSet>
getAllDevicePatterns(ktdf_arch::DeviceOp device);

/// Applies each of `patterns` in turn to `root` (applyDevicePatterns).
LogicalResult
applyAllDevicePatterns(Operation *root,
                       ArrayRef<FrozenRewritePatternSet> patterns);

} // namespace mlir::ktdf

#endif // KTFLOW_DIALECT_KTDF_TRANSFORMS_DEVICEPATTERNS_H
