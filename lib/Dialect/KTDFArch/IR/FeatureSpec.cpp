//===- FeatureSpec.cpp - Read and validate ktdf_arch features -------------===//
//
// This file reads the features of units and datapaths (simd, matrix,
// load/store, queue, throughput) and group interconnects, and fills in the
// documented throughput defaults.
//
//===----------------------------------------------------------------------===//

#include "DictReader.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::ktdf_arch;
using namespace mlir::ktdf_arch::spec_reader;

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
      return reader.error(key)
             << "must be keyed by element types, got " << keyAttr;
    std::optional<double> value = DictReader::readNumber(valueAttr);
    if (!value || !(*value > 0) || (integral && !isa<IntegerAttr>(valueAttr)))
      return reader.error(key)
             << "must map " << typeAttr.getValue() << " to a positive "
             << (integral ? "integer" : "number") << ", got " << valueAttr;
    entries.push_back({typeAttr.getValue(), *value});
  }
  return entries;
}

FailureOr<SimdFeature> spec_reader::readSimd(DictionaryAttr dict,
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

FailureOr<MatrixFeature> spec_reader::readMatrix(DictionaryAttr dict,
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

FailureOr<MemoryAccessFeature>
spec_reader::readMemoryAccess(DictionaryAttr dict, StringRef name,
                              EmitErrorFn emitError) {
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

/// Entries of one FIFO (docs/architecture-description.md). The simulator
/// holds as many entries of a FIFO instance as the program fills (up to its
/// depth) and the machine model counts them in 32 bits; real FIFOs hold
/// tens. A depth of 2^63 - 1 was truncated to 2^32 - 1 entries.
static constexpr int64_t kMaxQueueDepth = int64_t(1) << 16;

FailureOr<QueueFeature> spec_reader::readQueue(DictionaryAttr dict,
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
  if (**depth > kMaxQueueDepth)
    return reader.error("depth") << "must be at most " << kMaxQueueDepth
                                 << " entries, got " << **depth;
  return QueueFeature{**depth, *ordered};
}

LogicalResult spec_reader::readThroughput(DictionaryAttr dict, UnitSpec &unit,
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

void spec_reader::addDefaultThroughput(UnitSpec &unit) {
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
  // A vector unit without a matrix engine multiplies matrices with one
  // multiply-accumulate per f32 lane and cycle: products of floats up to
  // 32 bits are summed in f32 (the numerics of a matrix product), so its
  // f32 element-wise rate is its rate for every such input type.
  if (unit.simd && unit.compute && !unit.matrix) {
    MLIRContext *ctx = nullptr;
    for (auto [type, lanes] : unit.simd->lanes)
      ctx = type.getContext();
    std::optional<double> f32Rate =
        ctx ? unit.getThroughput(OpClass::Elementwise, Float32Type::get(ctx))
            : std::nullopt;
    if (f32Rate)
      for (auto [type, lanes] : unit.simd->lanes)
        if (auto f = dyn_cast<FloatType>(type); f && f.getWidth() <= 32)
          addDefault(OpClass::Matrix, type, *f32Rate);
  }
}

FailureOr<InterconnectSpec>
spec_reader::readInterconnect(DictionaryAttr dict, int64_t instances,
                              EmitErrorFn emitError) {
  DictReader reader(dict, "'ktdf_arch.interconnect'", emitError);
  if (failed(reader.checkKeys({"topology", "bidirectional", "link_bandwidth",
                               "hop_latency", "dims"},
                              true)))
    return failure();
  FailureOr<std::optional<std::string>> topology = reader.getString("topology");
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
