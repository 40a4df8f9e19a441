//===- KTDFArchDialect.cpp - ktdf_arch dialect, types and map attribute ---===//
//
// This file registers the ktdf_arch dialect and implements its node-handle
// types and the `#ktdf_arch.map<key = value, ...>` attribute.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/KTDFArch/IR/KTDFArch.h"

#include "mlir/Dialect/PDL/IR/PDL.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::ktdf_arch;

#include "ktflow/Dialect/KTDFArch/IR/KTDFArchDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "ktflow/Dialect/KTDFArch/IR/KTDFArchTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "ktflow/Dialect/KTDFArch/IR/KTDFArchAttrs.cpp.inc"

void KTDFArchDialect::initialize() {
  registerTypes();
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "ktflow/Dialect/KTDFArch/IR/KTDFArchOps.cpp.inc"
      >();
}

void KTDFArchDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "ktflow/Dialect/KTDFArch/IR/KTDFArchTypes.cpp.inc"
      >();
}

void KTDFArchDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "ktflow/Dialect/KTDFArch/IR/KTDFArchAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// MapAttr
//===----------------------------------------------------------------------===//

// Syntax: `<` (key `=` value (`,` key `=` value)*)? `>`. A key that is a type
// (`f16`) comes back from parseAttribute as a TypeAttr, which prints as the
// bare type again.
Attribute MapAttr::parse(AsmParser &parser, Type) {
  SmallVector<Attribute> keys, values;
  if (parser.parseLess())
    return {};
  if (failed(parser.parseOptionalGreater())) {
    do {
      Attribute key, value;
      if (parser.parseAttribute(key) || parser.parseEqual() ||
          parser.parseAttribute(value))
        return {};
      keys.push_back(key);
      values.push_back(value);
    } while (succeeded(parser.parseOptionalComma()));
    if (parser.parseGreater())
      return {};
  }
  return parser.getChecked<MapAttr>(parser.getContext(), keys, values);
}

/// Prints i64 integers and f64 floats without their (default) type, so that
/// `f16 = 64` reads back as written.
static void printMapEntry(AsmPrinter &printer, Attribute attr) {
  if (auto intAttr = dyn_cast<IntegerAttr>(attr);
      intAttr && intAttr.getType().isInteger(64)) {
    printer.printAttributeWithoutType(attr);
    return;
  }
  if (auto floatAttr = dyn_cast<FloatAttr>(attr);
      floatAttr && floatAttr.getType().isF64()) {
    printer.printAttributeWithoutType(attr);
    return;
  }
  printer.printAttribute(attr);
}

void MapAttr::print(AsmPrinter &printer) const {
  printer << '<';
  llvm::interleaveComma(llvm::zip(getKeys(), getValues()), printer,
                        [&](auto entry) {
                          printMapEntry(printer, std::get<0>(entry));
                          printer << " = ";
                          printMapEntry(printer, std::get<1>(entry));
                        });
  printer << '>';
}

LogicalResult MapAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                              ArrayRef<Attribute> keys,
                              ArrayRef<Attribute> values) {
  if (keys.size() != values.size())
    return emitError() << "#ktdf_arch.map needs one value per key";
  llvm::SmallDenseSet<Attribute> seen;
  for (auto [key, value] : llvm::zip(keys, values)) {
    if (!key || !value)
      return emitError() << "#ktdf_arch.map entries need a key and a value";
    if (!seen.insert(key).second)
      return emitError() << "duplicate key " << key << " in #ktdf_arch.map";
  }
  return success();
}

Attribute MapAttr::lookup(Attribute key) const {
  for (auto [candidate, value] : llvm::zip(getKeys(), getValues()))
    if (candidate == key)
      return value;
  return {};
}

Attribute MapAttr::lookup(Type type) const {
  return lookup(TypeAttr::get(type));
}

Attribute MapAttr::lookup(StringRef key) const {
  for (auto [candidate, value] : llvm::zip(getKeys(), getValues()))
    if (auto str = dyn_cast<StringAttr>(candidate); str && str == key)
      return value;
  return {};
}
