//===- MemoryTensors.h - Which tensor an access tile touches ----*- C++ -*-===//
//
// This file declares the questions the scheduler asks about pairs of
// memory accesses: which tensor in device memory an access tile lies in
// (its kernel argument, or its literal address: regions of different
// literal addresses do not overlap), and whether two access tiles name the
// same coordinates. The legality checks, ktdf-forward-stores and the
// lowering's ordering channels share them, so they agree on what a reload
// is.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_ANALYSIS_MEMORYTENSORS_H
#define KTFLOW_ANALYSIS_MEMORYTENSORS_H

#include "mlir/IR/Value.h"

#include <cstdint>
#include <optional>
#include <utility>

namespace ktflow {

/// A tensor in device memory: the opaque kernel argument its views start
/// at (with -1), or null and its literal address.
using DeviceTensor = std::pair<const void *, int64_t>;

/// The device-memory tensor an access tile (direct, or a gather's or
/// scatter's base, which it may touch anywhere) lies in; none for
/// scratchpad (ct_local) views and tiles on anything but a memory view.
std::optional<DeviceTensor> getDeviceTensor(mlir::Value accessTile);

/// Whether two access tiles name the same coordinates: the same value, or
/// two constructions with the same operands and attributes.
bool isSameAccessTile(mlir::Value a, mlir::Value b);

} // namespace ktflow

#endif // KTFLOW_ANALYSIS_MEMORYTENSORS_H
