//===- KTDFDialect.cpp - The ktdf dialect, its types and attributes -------===//
//
// This file registers the ktdf dialect and implements the FIFO slot type's
// assembly format (`!ktdf.fifo.slot<SRC -> DST, 64xf16>`) and verifier.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/KTDF/IR/KTDF.h"
#include "ktflow/Support/ElementBytes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::ktdf;

#include "ktflow/Dialect/KTDF/IR/KTDFDialect.cpp.inc"
#include "ktflow/Dialect/KTDF/IR/KTDFEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "ktflow/Dialect/KTDF/IR/KTDFAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "ktflow/Dialect/KTDF/IR/KTDFTypes.cpp.inc"

void KTDFDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "ktflow/Dialect/KTDF/IR/KTDFTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "ktflow/Dialect/KTDF/IR/KTDFAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "ktflow/Dialect/KTDF/IR/KTDFOps.cpp.inc"
      >();
}

Operation *KTDFDialect::materializeConstant(OpBuilder &builder,
                                           Attribute value, Type type,
                                           Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}

//===----------------------------------------------------------------------===//
// FifoSlotType
//===----------------------------------------------------------------------===//

/// An endpoint is a bare identifier (`L1LU`, `vector_compute`) or a string.
static ParseResult parseEndpoint(AsmParser &parser, StringAttr &result) {
  std::string text;
  if (succeeded(parser.parseOptionalString(&text))) {
    result = parser.getBuilder().getStringAttr(text);
    return success();
  }
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  result = parser.getBuilder().getStringAttr(keyword);
  return success();
}

static bool isBareIdentifier(StringRef s) {
  if (s.empty() || !(llvm::isAlpha(s.front()) || s.front() == '_'))
    return false;
  return llvm::all_of(s, [](char c) {
    return llvm::isAlnum(c) || c == '_' || c == '.' || c == '$';
  });
}

static void printEndpoint(AsmPrinter &printer, StringAttr endpoint) {
  if (isBareIdentifier(endpoint.getValue()))
    printer << endpoint.getValue();
  else
    printer.printString(endpoint.getValue());
}

Type FifoSlotType::parse(AsmParser &parser) {
  StringAttr src, dst;
  SmallVector<int64_t> shape;
  Type elementType;
  if (parser.parseLess() || parseEndpoint(parser, src) || parser.parseArrow() ||
      parseEndpoint(parser, dst) || parser.parseComma() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false) ||
      parser.parseType(elementType) || parser.parseGreater())
    return {};
  return parser.getChecked<FifoSlotType>(parser.getContext(), src, dst, shape,
                                         elementType);
}

void FifoSlotType::print(AsmPrinter &printer) const {
  printer << "<";
  printEndpoint(printer, getSrc());
  printer << " -> ";
  printEndpoint(printer, getDst());
  printer << ", ";
  for (int64_t d : getShape())
    printer << d << "x";
  printer << getElementType() << ">";
}

LogicalResult
FifoSlotType::verify(function_ref<InFlightDiagnostic()> emitError,
                     StringAttr src, StringAttr dst, ArrayRef<int64_t> shape,
                     Type elementType) {
  if (!src || !dst || src.getValue().empty() || dst.getValue().empty())
    return emitError() << "FIFO slot endpoints must be non-empty";
  if (shape.empty())
    return emitError() << "a FIFO slot holds a block of rank 1 or more";
  if (llvm::any_of(shape, [](int64_t d) { return d <= 0; }))
    return emitError() << "FIFO slot dimensions must be positive";
  if (!elementType.isIntOrIndexOrFloat() || elementType.isIndex())
    return emitError() << "FIFO slot elements must be integers or floats, "
                          "not "
                       << elementType;
  return success();
}

int64_t FifoSlotType::getSizeInBytes() const {
  int64_t n = 1;
  for (int64_t d : getShape())
    n *= d;
  return n * ktflow::bytesPerElement(getElementType());
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

StringRef mlir::ktdf::getBufferMemoryKind(MemRefType type) {
  if (auto kind = dyn_cast_if_present<StringAttr>(type.getMemorySpace()))
    return kind.getValue();
  return "";
}

MemRefType mlir::ktdf::getBufferType(ArrayRef<int64_t> shape, Type elementType,
                                     StringRef kind) {
  MLIRContext *ctx = elementType.getContext();
  return MemRefType::get(shape, elementType, MemRefLayoutAttrInterface(),
                         StringAttr::get(ctx, kind));
}
