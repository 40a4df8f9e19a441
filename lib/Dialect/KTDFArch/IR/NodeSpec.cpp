//===- NodeSpec.cpp - Read and validate ktdf_arch dictionaries ------------===//
//
// This file reads the dictionaries that describe the nodes, datapaths, groups
// and devices of an architecture description into their typed form. Each
// reader reports the first malformed entry through the caller's callback, so
// the verifier's messages and the model's defaults come from one place.
//
//===----------------------------------------------------------------------===//

#include "DictReader.h"

using namespace mlir;
using namespace mlir::ktdf_arch;
using namespace mlir::ktdf_arch::spec_reader;

//===----------------------------------------------------------------------===//
// Enum names
//===----------------------------------------------------------------------===//

StringRef mlir::ktdf_arch::stringifyTopology(Topology topology) {
  switch (topology) {
  case Topology::Ring:
    return "ring";
  case Topology::Mesh:
    return "mesh";
  case Topology::Crossbar:
    return "crossbar";
  }
  return "unknown";
}

std::optional<double> UnitSpec::getThroughput(OpClass cls, Type dtype) const {
  for (const ThroughputEntry &entry : throughput)
    if (entry.opClass == cls && entry.dtype == dtype)
      return entry.perCycle;
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Node specs
//===----------------------------------------------------------------------===//

FailureOr<MemorySpec> mlir::ktdf_arch::readMemorySpec(DictionaryAttr dict,
                                                      EmitErrorFn emitError) {
  DictReader reader(dict, "a memory", emitError);
  if (failed(reader.checkKeys({kKindKey, kSizeKey, kBandwidthKey}, false)))
    return failure();
  FailureOr<std::optional<std::string>> kind = reader.getString(kKindKey);
  FailureOr<std::optional<int64_t>> size =
      reader.getInt(kSizeKey, /*allowZero=*/false);
  FailureOr<std::optional<double>> bandwidth =
      reader.getPositiveNumber(kBandwidthKey);
  if (failed(kind) || failed(size) || failed(bandwidth))
    return failure();
  if (!*kind)
    return emitError() << "memory without kind: add 'kind = \"<name>\"'";
  if (!*size)
    return emitError() << "memory without size: add 'size = <bytes>'";
  return MemorySpec{**kind, **size, *bandwidth};
}

FailureOr<UnitSpec> mlir::ktdf_arch::readUnitSpec(DictionaryAttr dict,
                                                  EmitErrorFn emitError) {
  DictReader reader(dict, "an exec_unit", emitError);
  if (failed(reader.checkKeys({kKindKey, kFeaturesKey, kMaxOutstandingKey},
                              false)))
    return failure();
  FailureOr<std::optional<std::string>> kind = reader.getString(kKindKey);
  FailureOr<DictionaryAttr> features = reader.getDict(kFeaturesKey, false);
  FailureOr<std::optional<int64_t>> maxOutstanding =
      reader.getInt(kMaxOutstandingKey, /*allowZero=*/false);
  if (failed(kind) || failed(features) || failed(maxOutstanding))
    return failure();
  UnitSpec unit;
  unit.kind = kind->value_or("exec_unit");
  unit.maxOutstanding = maxOutstanding->value_or(1);

  DictReader featureReader(*features, "'ktdf_arch.features'", emitError);
  if (failed(featureReader.checkKeys(
          {kComputeFeature, kSimdFeature, kMatrixFeature, kLoadFeature,
           kStoreFeature, kQueueFeature, kThroughputFeature},
          /*strictUnprefixed=*/true)))
    return failure();
  FailureOr<bool> compute = featureReader.getFlag(kComputeFeature);
  FailureOr<DictionaryAttr> simd = featureReader.getDict(kSimdFeature, true);
  FailureOr<DictionaryAttr> matrix =
      featureReader.getDict(kMatrixFeature, false);
  FailureOr<DictionaryAttr> load = featureReader.getDict(kLoadFeature, true);
  FailureOr<DictionaryAttr> store = featureReader.getDict(kStoreFeature, true);
  FailureOr<DictionaryAttr> queue = featureReader.getDict(kQueueFeature, true);
  FailureOr<DictionaryAttr> throughput =
      featureReader.getDict(kThroughputFeature, false);
  if (failed(compute) || failed(simd) || failed(matrix) || failed(load) ||
      failed(store) || failed(queue) || failed(throughput))
    return failure();
  unit.compute = *compute;

  if (*simd) {
    FailureOr<SimdFeature> value = readSimd(*simd, emitError);
    if (failed(value))
      return failure();
    unit.simd = std::move(*value);
  }
  if (*matrix) {
    FailureOr<MatrixFeature> value = readMatrix(*matrix, emitError);
    if (failed(value))
      return failure();
    unit.matrix = std::move(*value);
  }
  if (*load) {
    FailureOr<MemoryAccessFeature> value =
        readMemoryAccess(*load, kLoadFeature, emitError);
    if (failed(value))
      return failure();
    unit.load = std::move(*value);
  }
  if (*store) {
    FailureOr<MemoryAccessFeature> value =
        readMemoryAccess(*store, kStoreFeature, emitError);
    if (failed(value))
      return failure();
    unit.store = std::move(*value);
  }
  if (*queue) {
    FailureOr<QueueFeature> value = readQueue(*queue, emitError);
    if (failed(value))
      return failure();
    unit.queue = *value;
  }
  // Only transfers can be in flight.
  if (*maxOutstanding && !unit.load && !unit.store)
    return emitError() << "'" << kMaxOutstandingKey << "' needs '"
                       << kLoadFeature << "' or '" << kStoreFeature << "'";
  if ((unit.matrix || *throughput) && !unit.compute)
    return emitError() << "'"
                       << (unit.matrix ? kMatrixFeature : kThroughputFeature)
                       << "' needs '" << kComputeFeature << "'";
  if (*throughput && failed(readThroughput(*throughput, unit, emitError)))
    return failure();
  if (unit.compute)
    addDefaultThroughput(unit);
  return unit;
}

/// The largest transfer granule a datapath may declare, 1 MiB.
static constexpr int64_t kMaxTransferGranularity = int64_t(1) << 20;

FailureOr<DatapathSpec>
mlir::ktdf_arch::readDatapathSpec(DictionaryAttr dict, EmitErrorFn emitError) {
  DictReader reader(dict, "a datapath", emitError);
  if (failed(reader.checkKeys({kKindKey, kFeaturesKey, kTransferGranularityKey,
                               kBandwidthKey, kLatencyKey},
                              false)))
    return failure();
  FailureOr<DictionaryAttr> features = reader.getDict(kFeaturesKey, false);
  FailureOr<SmallVector<int64_t>> granularity =
      reader.getPositiveArray(kTransferGranularityKey);
  FailureOr<std::optional<double>> bandwidth =
      reader.getPositiveNumber(kBandwidthKey);
  FailureOr<std::optional<int64_t>> latency =
      reader.getInt(kLatencyKey, /*allowZero=*/true);
  if (failed(features) || failed(granularity) || failed(bandwidth) ||
      failed(latency))
    return failure();
  // The scheduler aligns scratchpad buffers to the largest granule and
  // chunks transfers by it: a granule of 2^63 bytes wrapped the alignment
  // and overlapped buffers (a silent wrong answer, mutation campaign).
  for (int64_t bytes : *granularity)
    if (bytes > kMaxTransferGranularity)
      return emitError() << "'" << kTransferGranularityKey
                         << "' in a datapath must hold sizes of at most "
                         << kMaxTransferGranularity << " bytes, got " << bytes;
  DatapathSpec spec;
  spec.transferGranularity = std::move(*granularity);
  spec.bandwidth = bandwidth->value_or(kDefaultDatapathBandwidth);
  spec.latency = latency->value_or(kDefaultDatapathLatency);
  if (!*features)
    return spec;

  DictReader featureReader(*features, "the features of a datapath", emitError);
  if (failed(featureReader.checkKeys({kQueueFeature}, true)))
    return failure();
  FailureOr<DictionaryAttr> queue = featureReader.getDict(kQueueFeature, true);
  if (failed(queue))
    return failure();
  if (*queue) {
    FailureOr<QueueFeature> value = readQueue(*queue, emitError);
    if (failed(value))
      return failure();
    spec.queue = *value;
  }
  return spec;
}

FailureOr<GroupSpec> mlir::ktdf_arch::readGroupSpec(DictionaryAttr dict,
                                                    EmitErrorFn emitError) {
  DictReader reader(dict, "a group", emitError);
  if (failed(
          reader.checkKeys({kKindKey, kInstancesKey, kInterconnectKey}, false)))
    return failure();
  FailureOr<std::optional<std::string>> kind = reader.getString(kKindKey);
  FailureOr<std::optional<int64_t>> instances =
      reader.getInt(kInstancesKey, /*allowZero=*/false);
  FailureOr<DictionaryAttr> interconnect =
      reader.getDict(kInterconnectKey, false);
  if (failed(kind) || failed(instances) || failed(interconnect))
    return failure();
  GroupSpec spec;
  spec.kind = kind->value_or("group");
  spec.instances = instances->value_or(1);
  if (*interconnect) {
    FailureOr<InterconnectSpec> value =
        readInterconnect(*interconnect, spec.instances, emitError);
    if (failed(value))
      return failure();
    spec.interconnect = std::move(*value);
  }
  return spec;
}

FailureOr<DeviceSpec> mlir::ktdf_arch::readDeviceSpec(DictionaryAttr dict,
                                                      EmitErrorFn emitError) {
  DictReader reader(dict, "a device", emitError);
  if (failed(reader.checkKeys({kClockKey}, false)))
    return failure();
  FailureOr<std::optional<double>> clock = reader.getPositiveNumber(kClockKey);
  if (failed(clock))
    return failure();
  return DeviceSpec{clock->value_or(kDefaultClockMHz)};
}
