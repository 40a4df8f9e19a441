//===- Roofline.h - Peak rates of a device ----------------------*- C++ -*-===//
//
// This file declares Roofline: peak bytes per cycle at every memory, peak
// operations per cycle per operation class and element type (for the whole
// device and per unit class), and the peak figures of the core interconnect.
// ktflow/Device/RooflineBound.h divides a kernel's bytes and operations by
// these numbers to get a lower bound on its cycles.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DEVICE_ROOFLINE_H
#define KTFLOW_DEVICE_ROOFLINE_H

#include "ktflow/Device/DeviceModel.h"

namespace ktflow::device {

/// Peak traffic at one memory instance, in bytes per cycle. Reads are what
/// its outgoing datapaths can carry, writes what its incoming ones can; a
/// stated `ktdf_arch.bandwidth` caps each and their sum.
struct MemoryPeak {
  NodeId memory = 0;
  double readBytesPerCycle = 0;
  double writeBytesPerCycle = 0;
  double totalBytesPerCycle = 0;
  std::optional<double> statedBandwidth;
};

/// Peak rate of one operation class on one element type, summed over the
/// compute units: elements per cycle for element-wise and transcendental
/// operations, input elements per cycle for reductions, multiply-accumulates
/// per cycle for matrix products.
struct ComputePeak {
  mlir::ktdf_arch::OpClass opClass;
  mlir::Type dtype;
  double perCore = 0;
  double perDevice = 0;
};

/// The compute units that share a kind and a throughput table, taken
/// together: an operation the class computes may run on any of its copies,
/// so its peak for an (operation class, element type) is the sum over all of
/// them.
struct UnitClass {
  /// The units' kind, for display.
  std::string kind;
  /// The unit templates of the class (a sub-core written out twice gives
  /// two).
  llvm::SmallVector<NodeId> units;
  /// Copies of the units in the device.
  int64_t instances = 0;
  /// One unit's throughput table (explicit and default entries).
  llvm::SmallVector<mlir::ktdf_arch::ThroughputEntry> throughput;

  /// Operations per cycle of all copies together; 0 when the class does not
  /// compute `opClass` on `dtype`.
  double getPeak(mlir::ktdf_arch::OpClass opClass, mlir::Type dtype) const;
};

/// Peak figures of the links between core instances.
struct InterconnectPeak {
  mlir::ktdf_arch::InterconnectSpec spec;
  int64_t endpoints = 0;
  /// Most hops between two cores.
  int64_t diameterHops = 0;
  /// Bytes per cycle that can cross a cut into two equal halves, one way.
  double bisectionBytesPerCycle = 0;
};

class Roofline {
public:
  explicit Roofline(const DeviceModel &model);

  llvm::ArrayRef<MemoryPeak> getMemoryPeaks() const { return memoryPeaks; }
  const MemoryPeak *getMemoryPeak(NodeId memory) const;
  llvm::ArrayRef<ComputePeak> getComputePeaks() const { return computePeaks; }
  /// Null when no unit computes `opClass` on `dtype`.
  const ComputePeak *getComputePeak(mlir::ktdf_arch::OpClass opClass,
                                    mlir::Type dtype) const;

  /// The classes of the compute units, in the order their first unit
  /// appears in the description.
  llvm::ArrayRef<UnitClass> getUnitClasses() const { return unitClasses; }

  /// Bytes per cycle all device memories (memory-tree roots) can exchange
  /// with the rest of the device.
  double getDeviceMemoryBytesPerCycle() const { return deviceBytes; }
  /// One core's share: its own device-memory datapaths, or an equal share
  /// of the device figure when that is smaller.
  double getDeviceMemoryBytesPerCyclePerCore() const { return coreBytes; }
  /// Operations per device-memory byte above which one core is compute
  /// bound for `opClass` on `dtype`.
  std::optional<double> getRidgePoint(mlir::ktdf_arch::OpClass opClass,
                                      mlir::Type dtype) const;

  /// The interconnect of the core level (or of any replicated group), if
  /// the description states one.
  llvm::ArrayRef<std::pair<ScopeId, InterconnectPeak>>
  getInterconnects() const {
    return interconnects;
  }

private:
  llvm::SmallVector<MemoryPeak> memoryPeaks;
  llvm::SmallVector<ComputePeak> computePeaks;
  llvm::SmallVector<UnitClass> unitClasses;
  llvm::SmallVector<std::pair<ScopeId, InterconnectPeak>> interconnects;
  double deviceBytes = 0;
  double coreBytes = 0;
};

} // namespace ktflow::device

#endif // KTFLOW_DEVICE_ROOFLINE_H
