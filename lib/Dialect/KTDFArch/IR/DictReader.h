//===- DictReader.h - Validating reads of ktdf_arch dictionaries -*- C++
//-*-===//
//
// This file declares the private helpers NodeSpec.cpp and FeatureSpec.cpp
// share: DictReader, which reads one dictionary and reports malformed
// entries, and the readers of the individual features.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_DIALECT_KTDFARCH_IR_DICTREADER_H
#define KTFLOW_LIB_DIALECT_KTDFARCH_IR_DICTREADER_H

#include "ktflow/Dialect/KTDFArch/IR/KTDFArch.h"

namespace mlir::ktdf_arch::spec_reader {

/// Reads one dictionary, checking each key once. Keys of other dialects
/// (a prefix other than `ktdf_arch.`) and unprefixed keys the reader does not
/// know are kept untouched, unless the caller asks for strict unprefixed
/// keys; unknown `ktdf_arch.` keys are errors, since they are most likely
/// typos of ours.
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
      return error(key) << "must be "
                        << (allowZero ? "non-negative" : "positive") << ", got "
                        << *value;
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

FailureOr<SimdFeature> readSimd(DictionaryAttr dict, EmitErrorFn emitError);
FailureOr<MatrixFeature> readMatrix(DictionaryAttr dict, EmitErrorFn emitError);
FailureOr<MemoryAccessFeature>
readMemoryAccess(DictionaryAttr dict, StringRef name, EmitErrorFn emitError);
FailureOr<QueueFeature> readQueue(DictionaryAttr dict, EmitErrorFn emitError);
/// Reads explicit throughput entries into `unit.throughput`.
LogicalResult readThroughput(DictionaryAttr dict, UnitSpec &unit,
                             EmitErrorFn emitError);
/// Adds the documented default for every (class, dtype) the unit's shape
/// implies and no explicit entry covers.
void addDefaultThroughput(UnitSpec &unit);
FailureOr<InterconnectSpec>
readInterconnect(DictionaryAttr dict, int64_t instances, EmitErrorFn emitError);

} // namespace mlir::ktdf_arch::spec_reader

#endif // KTFLOW_LIB_DIALECT_KTDFARCH_IR_DICTREADER_H
