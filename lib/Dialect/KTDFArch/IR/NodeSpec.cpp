//===- NodeSpec.cpp - Read and validate ktdf_arch dictionaries ------------===//
//
// This file reads the dictionaries that describe the nodes, datapaths, groups
// and devices of an architecture description into their typed form. Each
// reader reports the first malformed entry through the caller's callback, so
// the verifier's messages and the model's defaults come from one place.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/KTDFArch/IR/KTDFArch.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::ktdf_arch;

//===----------------------------------------------------------------------===//
// Enum names
//===----------------------------------------------------------------------===//

StringRef mlir::ktdf_arch::stringifyOpClass(OpClass cls) {
  switch (cls) {
  case OpClass::Elementwise:
    return "elementwise";
  case OpClass::Transcendental:
    return "transcendental";
  case OpClass::Reduction:
    return "reduction";
  case OpClass::Matrix:
    return "matrix";
  }
  return "unknown";
}

std::optional<OpClass> mlir::ktdf_arch::symbolizeOpClass(StringRef name) {
  return llvm::StringSwitch<std::optional<OpClass>>(name)
      .Case("elementwise", OpClass::Elementwise)
      .Case("transcendental", OpClass::Transcendental)
      .Case("reduction", OpClass::Reduction)
      .Case("matrix", OpClass::Matrix)
      .Default(std::nullopt);
}

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
// Value helpers
//===----------------------------------------------------------------------===//

namespace {

/// Reads one dictionary, checking each key once. Keys of other dialects
/// (a prefix other than `ktdf_arch.`) and unprefixed keys the reader does not
/// know are kept untouched; unknown `ktdf_arch.` keys are errors, since they
/// are most likely typos of ours.
class DictReader {
public:
  DictReader(DictionaryAttr dict, StringRef what, EmitErrorFn emitError)
      : dict(dict), what(what), emitError(emitError) {}

  /// Fails on a `ktdf_arch.` key outside `known`, listing the known ones.
  LogicalResult checkKeys(ArrayRef<StringRef> known, bool strictUnprefixed) {
    if (!dict)
      return success();
    for (NamedAttribute entry : dict) {
      StringRef key = entry.getName().getValue();
      if (llvm::is_contained(known, key))
        continue;
      bool ours = key.starts_with("ktdf_arch.");
      bool unprefixed = !key.contains('.');
      if (!ours && !(strictUnprefixed && unprefixed))
        continue;
      InFlightDiagnostic diag = emitError();
      diag << "unknown key '" << key << "' in " << what << "; expected one of";
      llvm::interleave(
          known, [&](StringRef name) { diag << " '" << name << "'"; },
          [&] { diag << ","; });
      return diag;
    }
    return success();
  }

  Attribute get(StringRef key) const { return dict ? dict.get(key) : nullptr; }

  InFlightDiagnostic error(StringRef key) {
    return emitError() << "'" << key << "' in " << what << " ";
  }

  /// A positive (or, with `allowZero`, non-negative) 64-bit integer.
  FailureOr<std::optional<int64_t>> getInt(StringRef key, bool allowZero) {
    Attribute attr = get(key);
    if (!attr)
      return std::optional<int64_t>();
    auto intAttr = dyn_cast<IntegerAttr>(attr);
    std::optional<int64_t> value;
    if (intAttr && !intAttr.getType().isInteger(1))
      value = intAttr.getValue().trySExtValue();
    if (!value)
      return error(key) << "must be an integer, got " << attr;
    if (*value < 0 || (*value == 0 && !allowZero))
      return error(key) << "must be " << (allowZero ? "non-negative" : "positive")
                        << ", got " << *value;
    return value;
  }

  /// A positive integer or floating-point number.
  FailureOr<std::optional<double>> getPositiveNumber(StringRef key) {
    Attribute attr = get(key);
    if (!attr)
      return std::optional<double>();
    std::optional<double> value = readNumber(attr);
    if (!value)
      return error(key) << "must be a number, got " << attr;
    if (!(*value > 0))
      return error(key) << "must be positive, got " << attr;
    return value;
  }

  FailureOr<std::optional<std::string>> getString(StringRef key) {
    Attribute attr = get(key);
    if (!attr)
      return std::optional<std::string>();
    auto str = dyn_cast<StringAttr>(attr);
    if (!str)
      return error(key) << "must be a string, got " << attr;
    return std::optional<std::string>(str.getValue().str());
  }

  /// A unit flag (`ordered`); anything else under the key is an error.
  FailureOr<bool> getFlag(StringRef key) {
    Attribute attr = get(key);
    if (!attr)
      return false;
    if (!isa<UnitAttr>(attr))
      return error(key) << "is a flag and takes no value, got " << attr;
    return true;
  }

  /// A dictionary-valued entry; a unit flag reads as an empty dictionary
  /// when `flagAllowed`.
  FailureOr<DictionaryAttr> getDict(StringRef key, bool flagAllowed) {
    Attribute attr = get(key);
    if (!attr)
      return DictionaryAttr();
    if (flagAllowed && isa<UnitAttr>(attr))
      return DictionaryAttr::get(attr.getContext());
    auto sub = dyn_cast<DictionaryAttr>(attr);
    if (!sub)
      return error(key) << "must be a dictionary, got " << attr;
    return sub;
  }

  FailureOr<MapAttr> getMap(StringRef key) {
    Attribute attr = get(key);
    if (!attr)
      return MapAttr();
    auto map = dyn_cast<MapAttr>(attr);
    if (!map)
      return error(key) << "must be a #ktdf_arch.map, got " << attr;
    return map;
  }

  FailureOr<SmallVector<int64_t>> getPositiveArray(StringRef key) {
    Attribute attr = get(key);
    if (!attr)
      return SmallVector<int64_t>();
    auto array = dyn_cast<DenseI64ArrayAttr>(attr);
    if (!array || array.empty())
      return error(key) << "must be a non-empty array<i64: ...>, got " << attr;
    for (int64_t value : array.asArrayRef())
      if (value <= 0)
        return error(key) << "must hold positive values, got " << value;
    return SmallVector<int64_t>(array.asArrayRef());
  }

  static std::optional<double> readNumber(Attribute attr) {
    if (auto intAttr = dyn_cast<IntegerAttr>(attr)) {
      if (intAttr.getType().isInteger(1))
        return std::nullopt;
      if (std::optional<int64_t> value = intAttr.getValue().trySExtValue())
        return static_cast<double>(*value);
      return std::nullopt;
    }
    if (auto floatAttr = dyn_cast<FloatAttr>(attr))
      return floatAttr.getValueAsDouble();
    return std::nullopt;
  }

  DictionaryAttr dict;
  std::string what;
  EmitErrorFn emitError;
};

} // namespace

//===----------------------------------------------------------------------===//
// Features
//===----------------------------------------------------------------------===//

/// Reads a `#ktdf_arch.map` with type keys and positive numeric values.
static FailureOr<SmallVector<std::pair<Type, double>>>
readTypeMap(DictReader &reader, StringRef key, bool integral) {
  FailureOr<MapAttr> map = reader.getMap(key);
  if (failed(map))
    return failure();
  SmallVector<std::pair<Type, double>> entries;
  if (!*map)
    return entries;
  for (auto [keyAttr, valueAttr] :
       llvm::zip((*map).getKeys(), (*map).getValues())) {
    auto typeAttr = dyn_cast<TypeAttr>(keyAttr);
    if (!typeAttr)
      return reader.error(key) << "must be keyed by element types, got "
                               << keyAttr;
    std::optional<double> value = DictReader::readNumber(valueAttr);
    if (!value || !(*value > 0) || (integral && !isa<IntegerAttr>(valueAttr)))
      return reader.error(key)
             << "must map " << typeAttr.getValue() << " to a positive "
             << (integral ? "integer" : "number") << ", got " << valueAttr;
    entries.push_back({typeAttr.getValue(), *value});
  }
  return entries;
}

static FailureOr<SimdFeature> readSimd(DictionaryAttr dict,
                                       EmitErrorFn emitError) {
  DictReader reader(dict, "'ktdf_arch.feature.simd'", emitError);
  SimdFeature simd;
  if (failed(reader.checkKeys({"lanes", "splat", "zero_pad"}, true)))
    return failure();
  FailureOr<SmallVector<std::pair<Type, double>>> lanes =
      readTypeMap(reader, "lanes", /*integral=*/true);
  FailureOr<bool> splat = reader.getFlag("splat");
  FailureOr<bool> zeroPad = reader.getFlag("zero_pad");
  if (failed(lanes) || failed(splat) || failed(zeroPad))
    return failure();
  for (auto [type, count] : *lanes)
    simd.lanes.push_back({type, static_cast<int64_t>(count)});
  simd.splat = *splat;
  simd.zeroPad = *zeroPad;
  return simd;
}

static FailureOr<MatrixFeature> readMatrix(DictionaryAttr dict,
                                           EmitErrorFn emitError) {
  DictReader reader(dict, "'ktdf_arch.feature.matrix'", emitError);
  if (failed(reader.checkKeys({"shape", "dtypes"}, true)))
    return failure();
  FailureOr<SmallVector<int64_t>> shape = reader.getPositiveArray("shape");
  if (failed(shape))
    return failure();
  if (shape->size() != 3)
    return emitError() << "'ktdf_arch.feature.matrix' needs 'shape = "
                          "array<i64: M, N, K>'";
  auto dtypes = dyn_cast_if_present<ArrayAttr>(reader.get("dtypes"));
  if (!dtypes || dtypes.empty())
    return emitError() << "'ktdf_arch.feature.matrix' needs 'dtypes = "
                          "[type, ...]', the element types it multiplies";
  MatrixFeature matrix;
  matrix.m = (*shape)[0];
  matrix.n = (*shape)[1];
  matrix.k = (*shape)[2];
  for (Attribute entry : dtypes) {
    auto type = dyn_cast<TypeAttr>(entry);
    if (!type)
      return reader.error("dtypes") << "must list types, got " << entry;
    matrix.dtypes.push_back(type.getValue());
  }
  return matrix;
}

static FailureOr<MemoryAccessFeature>
readMemoryAccess(DictionaryAttr dict, StringRef name, EmitErrorFn emitError) {
  std::string what = ("'" + name + "'").str();
  DictReader reader(dict, what, emitError);
  if (failed(reader.checkKeys({"word_size", "access_granularity"}, true)))
    return failure();
  FailureOr<MapAttr> wordSize = reader.getMap("word_size");
  FailureOr<MapAttr> granularity = reader.getMap("access_granularity");
  if (failed(wordSize) || failed(granularity))
    return failure();
  MemoryAccessFeature access;
  if (*wordSize) {
    for (auto [key, value] :
         llvm::zip((*wordSize).getKeys(), (*wordSize).getValues())) {
      auto kind = dyn_cast<StringAttr>(key);
      std::optional<double> bytes = DictReader::readNumber(value);
      if (!kind || !bytes || !(*bytes > 0) || !isa<IntegerAttr>(value))
        return reader.error("word_size")
               << "must map memory kinds (strings) to positive integers, got "
               << key << " = " << value;
      access.wordSize.push_back({kind.str(), static_cast<int64_t>(*bytes)});
    }
  }
  if (*granularity) {
    for (auto [key, value] :
         llvm::zip((*granularity).getKeys(), (*granularity).getValues())) {
      auto kind = dyn_cast<StringAttr>(key);
      auto list = dyn_cast<ArrayAttr>(value);
      if (!kind || !list)
        return reader.error("access_granularity")
               << "must map memory kinds (strings) to lists of "
                  "{size_in_words, align_in_words}, got "
               << key << " = " << value;
      SmallVector<AccessGranularity> shapes;
      for (Attribute element : list) {
        DictReader shapeReader(dyn_cast<DictionaryAttr>(element),
                               "an access granularity", emitError);
        if (!shapeReader.dict)
          return reader.error("access_granularity")
                 << "entries must be dictionaries, got " << element;
        FailureOr<std::optional<int64_t>> size =
            shapeReader.getInt("size_in_words", /*allowZero=*/false);
        FailureOr<std::optional<int64_t>> align =
            shapeReader.getInt("align_in_words", /*allowZero=*/false);
        if (failed(shapeReader.checkKeys({"size_in_words", "align_in_words"},
                                         true)) ||
            failed(size) || failed(align))
          return failure();
        if (!*size || !*align)
          return reader.error("access_granularity")
                 << "entries need 'size_in_words' and 'align_in_words'";
        shapes.push_back({**size, **align});
      }
      access.accessGranularity.push_back({kind.str(), std::move(shapes)});
    }
  }
  return access;
}

static FailureOr<QueueFeature> readQueue(DictionaryAttr dict,
                                         EmitErrorFn emitError) {
  DictReader reader(dict, "'ktdf_arch.feature.queue'", emitError);
  if (failed(reader.checkKeys({"depth", "ordered"}, true)))
    return failure();
  FailureOr<std::optional<int64_t>> depth =
      reader.getInt("depth", /*allowZero=*/false);
  FailureOr<bool> ordered = reader.getFlag("ordered");
  if (failed(depth) || failed(ordered))
    return failure();
  if (!*depth)
    return emitError() << "FIFO without depth: 'ktdf_arch.feature.queue' "
                          "needs 'depth = <entries>'";
  return QueueFeature{**depth, *ordered};
}

/// Reads explicit throughput entries into `unit.throughput`.
static LogicalResult readThroughput(DictionaryAttr dict, UnitSpec &unit,
                                    EmitErrorFn emitError) {
  DictReader reader(dict, "'ktdf_arch.feature.throughput'", emitError);
  if (failed(reader.checkKeys(
          {"elementwise", "transcendental", "reduction", "matrix"}, true)))
    return failure();
  for (OpClass cls : {OpClass::Elementwise, OpClass::Transcendental,
                      OpClass::Reduction, OpClass::Matrix}) {
    FailureOr<SmallVector<std::pair<Type, double>>> rates =
        readTypeMap(reader, stringifyOpClass(cls), /*integral=*/false);
    if (failed(rates))
      return failure();
    if (cls == OpClass::Matrix && !rates->empty() && !unit.matrix)
      return emitError() << "matrix throughput needs "
                            "'ktdf_arch.feature.matrix'";
    for (auto [type, rate] : *rates)
      unit.throughput.push_back({cls, type, rate, /*isDefault=*/false});
  }
  return success();
}

/// Adds the documented default for every (class, dtype) the unit's shape
/// implies and no explicit entry covers.
static void addDefaultThroughput(UnitSpec &unit) {
  auto addDefault = [&](OpClass cls, Type type, double rate) {
    if (!unit.getThroughput(cls, type))
      unit.throughput.push_back({cls, type, rate, /*isDefault=*/true});
  };
  if (unit.simd) {
    for (auto [type, lanes] : unit.simd->lanes) {
      addDefault(OpClass::Elementwise, type, lanes);
      // Transcendental functions are defined on floating-point values only.
      if (isa<FloatType>(type))
        addDefault(OpClass::Transcendental, type,
                   lanes / kDefaultTranscendentalDivisor);
      addDefault(OpClass::Reduction, type, lanes);
    }
  }
  if (unit.matrix)
    for (Type type : unit.matrix->dtypes)
      addDefault(OpClass::Matrix, type,
                 static_cast<double>(unit.matrix->m * unit.matrix->n));
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
  if (failed(reader.checkKeys({kKindKey, kFeaturesKey}, false)))
    return failure();
  FailureOr<std::optional<std::string>> kind = reader.getString(kKindKey);
  FailureOr<DictionaryAttr> features = reader.getDict(kFeaturesKey, false);
  if (failed(kind) || failed(features))
    return failure();
  UnitSpec unit;
  unit.kind = kind->value_or("exec_unit");

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
  DatapathSpec spec;
  spec.transferGranularity = std::move(*granularity);
  spec.bandwidth = bandwidth->value_or(kDefaultDatapathBandwidth);
  spec.latency = latency->value_or(kDefaultDatapathLatency);
  if (!*features)
    return spec;

  DictReader featureReader(*features, "the features of a datapath",
                           emitError);
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

static FailureOr<InterconnectSpec>
readInterconnect(DictionaryAttr dict, int64_t instances,
                 EmitErrorFn emitError) {
  DictReader reader(dict, "'ktdf_arch.interconnect'", emitError);
  if (failed(reader.checkKeys({"topology", "bidirectional", "link_bandwidth",
                               "hop_latency", "dims"},
                              true)))
    return failure();
  FailureOr<std::optional<std::string>> topology =
      reader.getString("topology");
  FailureOr<bool> bidirectional = reader.getFlag("bidirectional");
  FailureOr<std::optional<double>> bandwidth =
      reader.getPositiveNumber("link_bandwidth");
  FailureOr<std::optional<int64_t>> hopLatency =
      reader.getInt("hop_latency", /*allowZero=*/true);
  FailureOr<SmallVector<int64_t>> dims = reader.getPositiveArray("dims");
  if (failed(topology) || failed(bidirectional) || failed(bandwidth) ||
      failed(hopLatency) || failed(dims))
    return failure();

  InterconnectSpec spec;
  std::optional<Topology> kind =
      llvm::StringSwitch<std::optional<Topology>>(topology->value_or(""))
          .Case("ring", Topology::Ring)
          .Case("mesh", Topology::Mesh)
          .Case("crossbar", Topology::Crossbar)
          .Default(std::nullopt);
  if (!kind)
    return emitError() << "'ktdf_arch.interconnect' needs 'topology = "
                          "\"ring\"', \"mesh\" or \"crossbar\"";
  if (!*bandwidth)
    return emitError() << "'ktdf_arch.interconnect' needs 'link_bandwidth = "
                          "<bytes/cycle>'";
  if (instances < 2)
    return emitError() << "'ktdf_arch.interconnect' links the instances of a "
                          "group and needs 'ktdf_arch.instances' > 1";
  spec.topology = *kind;
  spec.linkBandwidth = **bandwidth;
  spec.hopLatency = hopLatency->value_or(kDefaultHopLatency);
  spec.bidirectional = *bidirectional || *kind != Topology::Ring;
  if (*kind == Topology::Mesh) {
    int64_t product = 1;
    for (int64_t extent : *dims)
      product *= extent;
    if (dims->size() != 2 || product != instances)
      return emitError() << "a mesh needs 'dims = array<i64: X, Y>' with X*Y "
                            "= ktdf_arch.instances ("
                         << instances << ")";
    spec.dims = std::move(*dims);
  } else if (!dims->empty()) {
    return emitError() << "'dims' applies only to a mesh";
  }
  return spec;
}

FailureOr<GroupSpec> mlir::ktdf_arch::readGroupSpec(DictionaryAttr dict,
                                                    EmitErrorFn emitError) {
  DictReader reader(dict, "a group", emitError);
  if (failed(reader.checkKeys({kKindKey, kInstancesKey, kInterconnectKey},
                              false)))
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
