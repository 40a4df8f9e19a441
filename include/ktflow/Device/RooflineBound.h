//===- RooflineBound.h - A kernel's lower bound on a device -----*- C++ -*-===//
//
// This file declares the roofline bound: the fewest cycles any schedule of
// a kernel can take on a device, from what the kernel must do (its
// operations as written, the bytes of its tensors, its smallest tiles:
// KernelDemand, counted from the KTIR by ktflow/Analysis/KernelDemand.h) and
// the device description alone. Nothing a schedule chooses enters it. The
// bound is the largest of three (docs/roofline.md):
//
// * compute: per unit class, the operations only that class computes over
//   the class's summed peak rate for their class and element type; the
//   largest over the classes;
// * memory: every input byte read once and every output byte written once,
//   over the device-memory bandwidth;
// * latency: one load, one compute chunk and one store of the smallest tile
//   along the device's routes.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DEVICE_ROOFLINEBOUND_H
#define KTFLOW_DEVICE_ROOFLINEBOUND_H

#include "ktflow/Device/Roofline.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace ktflow::device {

/// What a kernel must do whatever its schedule.
struct KernelDemand {
  struct Operations {
    mlir::ktdf_arch::OpClass opClass;
    /// The element type whose rate applies (ktflow/Device/ComputeOpClass.h;
    /// a reduction's input type; a matrix product's operand type).
    mlir::Type type;
    /// Elements produced (element-wise, transcendental), elements folded
    /// (reduction) or multiply-accumulates (matrix).
    double count = 0;
  };
  llvm::SmallVector<Operations> operations;
  /// Distinct bytes of device memory the launch loads and stores (a byte
  /// both loaded and stored counts in both).
  uint64_t bytesRead = 0, bytesWritten = 0;
  /// Bytes of the smallest tile the kernel loads and stores, if any.
  std::optional<uint64_t> smallestLoad, smallestStore;
  /// Points of the launch grid (1 without a grid): the copies of a route
  /// beyond one per point may share a tile's transfer.
  uint64_t gridPoints = 1;
  /// Compute operations on the longest dependence chain from a load to a
  /// store (each one operation as written).
  unsigned chain = 0;
  /// What the count could not follow (a loop with unknown bounds, ...),
  /// each once; the bound leaves that part out and stays a lower bound.
  llvm::SmallVector<std::string> gaps;

  void addOperations(mlir::ktdf_arch::OpClass opClass, mlir::Type type,
                     double count);
  void addGap(llvm::StringRef what);
  double getTotalOperations() const;
};

/// Which of the three bounds binds.
enum class BoundKind { Compute, Memory, Latency };
llvm::StringRef stringifyBoundKind(BoundKind kind);

struct ComputeBound {
  double cycles = 0;
  /// Cycles of each unit class with work (in the device's class order).
  llvm::SmallVector<std::pair<std::string, double>> perClass;
  /// The unit class with the most cycles ("" when the kernel computes
  /// nothing a unit can compute).
  std::string bottleneck;
  double operations = 0;
  /// Operations no unit computes at their element type (left out).
  double uncomputable = 0;
};

struct MemoryBound {
  uint64_t bytes = 0;
  double bytesPerCycle = 0;
  double cycles = 0;
};

/// One round trip of the smallest tile: device memory to a compute unit
/// (route latency, then the tile's bytes at the route's narrowest
/// bandwidth), one cycle per operation of the longest chain, and back.
struct LatencyBound {
  int64_t loadLatency = 0, storeLatency = 0;
  double loadTransfer = 0, storeTransfer = 0;
  /// Copies of the route one tile's transfer may be spread over.
  int64_t split = 1;
  double compute = 0;
  /// The unit (or, for a kernel that computes nothing, the memory) the
  /// round trip turns at; "" when the kernel moves no data.
  std::string via;
  double cycles = 0;
};

struct RooflineBound {
  ComputeBound compute;
  MemoryBound memory;
  LatencyBound latency;
  double cycles = 0;
  BoundKind binding = BoundKind::Memory;
  /// KernelDemand::gaps.
  llvm::SmallVector<std::string> gaps;
};

/// The bound of `demand` on the device of `roofline`, whose tensors live in
/// `deviceMemory`.
RooflineBound computeRooflineBound(const DeviceModel &model,
                                   const Roofline &roofline,
                                   NodeId deviceMemory,
                                   const KernelDemand &demand);

/// The lines `ktflow run` prints: `roofline: N cycles (K bound)` and one
/// line per bound, indented.
void printRooflineBound(llvm::raw_ostream &os, const RooflineBound &bound);

/// The bound as JSON: {"cycles", "binding", "compute": {...}, "memory":
/// {...}, "latency": {...}, "gaps": [...]}.
llvm::json::Object toJSON(const RooflineBound &bound);

} // namespace ktflow::device

#endif // KTFLOW_DEVICE_ROOFLINEBOUND_H
