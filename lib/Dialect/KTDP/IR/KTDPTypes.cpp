//===- KTDPTypes.cpp - ktdp types -----------------------------------------===//
//
// This file implements the custom syntax and verifiers of the ktdp types.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::ktdp;

#define GET_TYPEDEF_CLASSES
#include "ktflow/Dialect/KTDP/IR/KTDPTypes.cpp.inc"

void KTDPDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "ktflow/Dialect/KTDP/IR/KTDPTypes.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// AccessTileType
//===----------------------------------------------------------------------===//

// Syntax: `<` (dim `x`)* element-type `>`, as for builtin tensors.
Type AccessTileType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/true,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType) || parser.parseGreater())
    return {};
  return parser.getChecked<AccessTileType>(parser.getContext(), shape,
                                           elementType);
}

void AccessTileType::print(AsmPrinter &printer) const {
  printer << "<";
  printer.printDimensionList(getShape());
  if (!getShape().empty())
    printer << "x";
  printer << getElementType() << ">";
}

LogicalResult
AccessTileType::verify(function_ref<InFlightDiagnostic()> emitError,
                       ArrayRef<int64_t> shape, Type elementType) {
  if (!elementType.isIndex())
    return emitError() << "tile element type must be 'index', but got: "
                       << elementType;
  for (int64_t dim : shape)
    if (dim < 0 && !ShapedType::isDynamic(dim))
      return emitError() << "tile dimension size must be dynamic or >= 0";
  return success();
}

ShapedType AccessTileType::cloneWith(std::optional<ArrayRef<int64_t>> shape,
                                     Type elementType) const {
  return AccessTileType::get(shape ? *shape : getShape(), elementType);
}

//===----------------------------------------------------------------------===//
// RuntimeArgType
//===----------------------------------------------------------------------===//

// Syntax: `<` type (`,` (`granularity`|`upperbound`) `=` int)* `>`, each
// keyword at most once and in either order.
Type RuntimeArgType::parse(AsmParser &parser) {
  Type underlying;
  std::optional<int64_t> granularity, upperbound;
  if (parser.parseLess() || parser.parseType(underlying))
    return {};
  while (succeeded(parser.parseOptionalComma())) {
    SMLoc keywordLoc = parser.getCurrentLocation();
    StringRef keyword;
    if (parser.parseOptionalKeyword(&keyword) ||
        (keyword != "granularity" && keyword != "upperbound")) {
      parser.emitError(keywordLoc,
                       "expected 'granularity' or 'upperbound' keyword");
      return {};
    }
    std::optional<int64_t> &slot =
        keyword == "granularity" ? granularity : upperbound;
    if (slot) {
      parser.emitError(keywordLoc, "duplicate '") << keyword << "' keyword";
      return {};
    }
    int64_t value;
    if (parser.parseEqual() || parser.parseInteger(value))
      return {};
    slot = value;
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<RuntimeArgType>(parser.getContext(), underlying,
                                           granularity, upperbound);
}

void RuntimeArgType::print(AsmPrinter &printer) const {
  printer << "<" << getUnderlyingType();
  if (getGranularity())
    printer << ", granularity=" << *getGranularity();
  if (getUpperbound())
    printer << ", upperbound=" << *getUpperbound();
  printer << ">";
}

LogicalResult
RuntimeArgType::verify(function_ref<InFlightDiagnostic()> emitError,
                       Type underlying, std::optional<int64_t> granularity,
                       std::optional<int64_t> upperbound) {
  if (!llvm::isa<IndexType, IntegerType, FloatType>(underlying))
    return emitError() << "runtime_arg underlying type must be a builtin type "
                          "(index, integer, or float), but got: "
                       << underlying;
  if (granularity && *granularity <= 0)
    return emitError() << "runtime_arg granularity must be positive, but got: "
                       << *granularity;
  if (upperbound && *upperbound <= 0)
    return emitError() << "runtime_arg upperbound must be positive, but got: "
                       << *upperbound;
  return success();
}

//===----------------------------------------------------------------------===//
// TileFutureType
//===----------------------------------------------------------------------===//

// Syntax: `<` partials `,` `groups` `=` set `>`, where partials is
// `(` tensor-type (`,` tensor-type)* `)` or the same list without the
// parentheses (as real-world kernels write it).
Type TileFutureType::parse(AsmParser &parser) {
  SmallVector<RankedTensorType> partials;
  if (parser.parseLess())
    return {};
  auto parsePartial = [&]() -> ParseResult {
    SMLoc loc = parser.getCurrentLocation();
    Type type;
    if (parser.parseType(type))
      return failure();
    auto tensor = llvm::dyn_cast<RankedTensorType>(type);
    if (!tensor)
      return parser.emitError(loc, "invalid kind of type specified: expected "
                                   "builtin.tensor, but found ")
             << type;
    partials.push_back(tensor);
    return success();
  };
  if (succeeded(parser.parseOptionalLParen())) {
    if (failed(parser.parseOptionalRParen()) &&
        (parser.parseCommaSeparatedList(parsePartial) || parser.parseRParen()))
      return {};
    if (parser.parseComma() || parser.parseKeyword("groups"))
      return {};
  } else {
    // Unparenthesised, the list ends at the `groups` keyword.
    do {
      if (parsePartial() || parser.parseComma())
        return {};
    } while (failed(parser.parseOptionalKeyword("groups")));
  }
  IntegerSetAttr groups;
  if (parser.parseEqual() || parser.parseAttribute(groups) ||
      parser.parseGreater())
    return {};
  return parser.getChecked<TileFutureType>(parser.getContext(), partials,
                                           groups);
}

void TileFutureType::print(AsmPrinter &printer) const {
  printer << "<(";
  llvm::interleaveComma(getPartialTypes(), printer);
  printer << "), groups = " << getGroups() << ">";
}

LogicalResult
TileFutureType::verify(function_ref<InFlightDiagnostic()> emitError,
                       ArrayRef<RankedTensorType> partialTypes,
                       IntegerSetAttr groups) {
  if (partialTypes.empty())
    return emitError() << "tile_future must carry at least one partial type";
  if (!groups)
    return emitError() << "tile_future requires a `groups` integer set";
  if (groups.getValue().getNumDims() != 1)
    return emitError() << "tile_future `groups` must have exactly one "
                          "dimension (g)";
  if (groups.getValue().getNumSymbols() != 0)
    return emitError() << "tile_future `groups` must have no symbols";
  return success();
}
