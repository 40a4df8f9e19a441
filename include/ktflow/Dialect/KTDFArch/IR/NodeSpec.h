//===- NodeSpec.h - Typed views of ktdf_arch node dictionaries --*- C++ -*-===//
//
// This file declares the typed form of the dictionaries that describe
// memories, execution units, datapaths, groups and devices, and the functions
// that read them. Reading validates: every malformed entry is reported
// through the caller's error callback, so the op verifiers and the device
// model share one definition of what each key means and what it defaults to.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_KTDFARCH_IR_NODESPEC_H
#define KTFLOW_DIALECT_KTDFARCH_IR_NODESPEC_H

#include "ktflow/Machine/OpClass.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace mlir::ktdf_arch {

/// Classes of compute operations: the machine library's, so a machine built
/// from a device model keeps its rates in the same rows.
using ktflow::machine::kNumOpClasses;
using ktflow::machine::OpClass;
using ktflow::machine::stringifyOpClass;

//===----------------------------------------------------------------------===//
// Dictionary keys
//===----------------------------------------------------------------------===//

inline constexpr llvm::StringLiteral kKindKey = "kind";
inline constexpr llvm::StringLiteral kSizeKey = "size";
inline constexpr llvm::StringLiteral kFeaturesKey = "ktdf_arch.features";
inline constexpr llvm::StringLiteral kBandwidthKey = "ktdf_arch.bandwidth";
inline constexpr llvm::StringLiteral kLatencyKey = "ktdf_arch.latency";
inline constexpr llvm::StringLiteral kTransferGranularityKey =
    "ktdf_arch.transfer_granularity";
inline constexpr llvm::StringLiteral kInstancesKey = "ktdf_arch.instances";
inline constexpr llvm::StringLiteral kInterconnectKey =
    "ktdf_arch.interconnect";
inline constexpr llvm::StringLiteral kClockKey = "ktdf_arch.clock_mhz";
inline constexpr llvm::StringLiteral kMaxOutstandingKey =
    "ktdf_arch.max_outstanding";

inline constexpr llvm::StringLiteral kComputeFeature =
    "ktdf_arch.feature.compute";
inline constexpr llvm::StringLiteral kSimdFeature = "ktdf_arch.feature.simd";
inline constexpr llvm::StringLiteral kMatrixFeature =
    "ktdf_arch.feature.matrix";
inline constexpr llvm::StringLiteral kLoadFeature = "ktdf_arch.feature.load";
inline constexpr llvm::StringLiteral kStoreFeature = "ktdf_arch.feature.store";
inline constexpr llvm::StringLiteral kQueueFeature = "ktdf_arch.feature.queue";
inline constexpr llvm::StringLiteral kThroughputFeature =
    "ktdf_arch.feature.throughput";

//===----------------------------------------------------------------------===//
// Documented defaults
//===----------------------------------------------------------------------===//

/// Clock of a device that states none: 1 GHz, so one cycle is 1 ns.
inline constexpr double kDefaultClockMHz = 1000.0;
/// Bandwidth of a datapath that states none, in bytes per cycle.
inline constexpr double kDefaultDatapathBandwidth = 64.0;
/// Latency of a datapath that states none, in cycles.
inline constexpr int64_t kDefaultDatapathLatency = 1;
/// Latency of one interconnect hop when the interconnect states none.
inline constexpr int64_t kDefaultHopLatency = 1;
/// A SIMD unit evaluates a transcendental function on lanes / 4 elements per
/// cycle (floating-point lane types only) unless its throughput says
/// otherwise.
inline constexpr double kDefaultTranscendentalDivisor = 4.0;

//===----------------------------------------------------------------------===//
// Documented limits (the device verifier refuses descriptions beyond them)
//===----------------------------------------------------------------------===//

/// Instances of memories, execution units and datapaths in a device, every
/// copy of a replicated group counted. The device model, the scheduler's
/// lanes and the simulated machine cost about 700 bytes and 4 microseconds
/// per instance: at 2^18, compiling a kernel takes about a second and
/// 280 MB (measured, docs/architecture-description.md §5).
inline constexpr int64_t kMaxDeviceInstances = int64_t(1) << 18;

//===----------------------------------------------------------------------===//
// Features
//===----------------------------------------------------------------------===//

struct SimdFeature {
  /// Lanes per element type, in the order written.
  SmallVector<std::pair<Type, int64_t>> lanes;
  bool splat = false;
  bool zeroPad = false;
};

struct MatrixFeature {
  /// One matrix instruction computes an M×K by K×N product.
  int64_t m = 0, n = 0, k = 0;
  SmallVector<Type> dtypes;
};

struct AccessGranularity {
  int64_t sizeInWords = 0;
  int64_t alignInWords = 0;
};

/// `ktdf_arch.feature.load` / `.store`: word size (bytes) and legal access
/// shapes (in words) per memory kind.
struct MemoryAccessFeature {
  SmallVector<std::pair<std::string, int64_t>> wordSize;
  SmallVector<std::pair<std::string, SmallVector<AccessGranularity>>>
      accessGranularity;
};

struct QueueFeature {
  int64_t depth = 0;
  bool ordered = false;
};

/// Peak rate of one compute unit per operation class and element type:
/// elements per cycle (element-wise, transcendental), input elements per
/// cycle (reduction), multiply-accumulates per cycle (matrix).
struct ThroughputEntry {
  OpClass opClass;
  Type dtype;
  double perCycle;
  /// True when the value comes from the unit's SIMD or matrix shape rather
  /// than an explicit `ktdf_arch.feature.throughput` entry.
  bool isDefault;
};

//===----------------------------------------------------------------------===//
// Node specs
//===----------------------------------------------------------------------===//

struct MemorySpec {
  std::string kind;
  int64_t size = 0;
  /// Bytes per cycle over all ports; unset means only the datapaths bound it.
  std::optional<double> bandwidth;
};

struct UnitSpec {
  /// The unit's `kind`, or "exec_unit" when it has none. For display only.
  std::string kind;
  bool compute = false;
  std::optional<SimdFeature> simd;
  std::optional<MatrixFeature> matrix;
  std::optional<MemoryAccessFeature> load;
  std::optional<MemoryAccessFeature> store;
  std::optional<QueueFeature> queue;
  /// Explicit entries first, then the defaults they do not override.
  SmallVector<ThroughputEntry> throughput;
  /// Transfers a load or store unit keeps in flight: it may issue the next
  /// while fewer than this many have not landed (1: each waits for the
  /// last byte of the one before).
  int64_t maxOutstanding = 1;

  std::optional<double> getThroughput(OpClass cls, Type dtype) const;
};

struct DatapathSpec {
  /// Legal transfer sizes in bytes, as written (alternatives).
  SmallVector<int64_t> transferGranularity;
  double bandwidth = kDefaultDatapathBandwidth;
  int64_t latency = kDefaultDatapathLatency;
  /// Set when the datapath is a FIFO.
  std::optional<QueueFeature> queue;
};

enum class Topology { Ring, Mesh, Crossbar };
llvm::StringRef stringifyTopology(Topology topology);

struct InterconnectSpec {
  Topology topology = Topology::Ring;
  /// Rings may be one-way; mesh and crossbar links always carry both ways.
  bool bidirectional = false;
  /// Bytes per cycle per link and direction.
  double linkBandwidth = 0;
  int64_t hopLatency = kDefaultHopLatency;
  /// Mesh extents (product = instances); empty otherwise.
  SmallVector<int64_t> dims;
};

struct GroupSpec {
  std::string kind;
  int64_t instances = 1;
  std::optional<InterconnectSpec> interconnect;
};

struct DeviceSpec {
  double clockMHz = kDefaultClockMHz;
};

/// Reports an error against the entity being read.
using EmitErrorFn = llvm::function_ref<InFlightDiagnostic()>;

FailureOr<MemorySpec> readMemorySpec(DictionaryAttr dict, EmitErrorFn emitError);
FailureOr<UnitSpec> readUnitSpec(DictionaryAttr dict, EmitErrorFn emitError);
/// `dict` may be null (a datapath without attributes).
FailureOr<DatapathSpec> readDatapathSpec(DictionaryAttr dict,
                                         EmitErrorFn emitError);
/// `dict` may be null (a group without attributes).
FailureOr<GroupSpec> readGroupSpec(DictionaryAttr dict, EmitErrorFn emitError);
/// Reads the device op's own attribute dictionary.
FailureOr<DeviceSpec> readDeviceSpec(DictionaryAttr dict,
                                     EmitErrorFn emitError);

} // namespace mlir::ktdf_arch

#endif // KTFLOW_DIALECT_KTDFARCH_IR_NODESPEC_H
