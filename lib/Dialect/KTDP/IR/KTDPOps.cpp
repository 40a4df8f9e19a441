//===- KTDPOps.cpp - ktdp operations --------------------------------------===//
//
// This file implements the verifiers of the ktdp operations with declarative
// syntax: compute-tile ids, memory views, load/store and runtime arguments.
// The access-tile and inter-tile operations live in their own files.
//
//===----------------------------------------------------------------------===//

#include "TileFutureSyntax.h"

#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::ktdp;

#define GET_OP_CLASSES
#include "ktflow/Dialect/KTDP/IR/KTDPOps.cpp.inc"

//===----------------------------------------------------------------------===//
// GetComputeTileIdOp
//===----------------------------------------------------------------------===//

LogicalResult GetComputeTileIdOp::verify() {
  if (getIds().empty())
    return emitOpError("must return at least one index (num tile-grid dims "
                       ">= 1)");
  return success();
}

//===----------------------------------------------------------------------===//
// ConstructMemoryViewOp
//===----------------------------------------------------------------------===//

/// The box `0 <= d_i < size_i` of a view's sizes. A dynamic size is the
/// next symbol, as symbols bind to the dynamic sizes left to right.
static IntegerSet getSizeBox(ArrayRef<int64_t> sizes, MLIRContext *context) {
  SmallVector<AffineExpr> constraints;
  unsigned numSymbols = 0;
  for (auto [i, size] : llvm::enumerate(sizes)) {
    AffineExpr d = getAffineDimExpr(i, context);
    AffineExpr extent = ShapedType::isDynamic(size)
                            ? getAffineSymbolExpr(numSymbols++, context)
                            : getAffineConstantExpr(size, context);
    constraints.push_back(d);
    constraints.push_back(extent - d - 1);
  }
  // A rank-0 view holds its one point; an integer set needs a constraint.
  if (constraints.empty())
    return IntegerSet::get(0, 0, getAffineConstantExpr(0, context),
                           /*eqFlags=*/true);
  SmallVector<bool> eqFlags(constraints.size(), false);
  return IntegerSet::get(sizes.size(), numSymbols, constraints, eqFlags);
}

ParseResult ConstructMemoryViewOp::parse(OpAsmParser &parser,
                                         OperationState &result) {
  OpAsmParser::UnresolvedOperand offset;
  SmallVector<OpAsmParser::UnresolvedOperand, 4> sizes, strides;
  DenseI64ArrayAttr staticSizes, staticStrides;
  MemRefType type;
  SMLoc attrLoc;
  if (parser.parseOperand(offset) || parser.parseComma() ||
      parser.parseKeyword("sizes") || parser.parseColon() ||
      parseDynamicIndexList(parser, sizes, staticSizes) ||
      parser.parseComma() || parser.parseKeyword("strides") ||
      parser.parseColon() ||
      parseDynamicIndexList(parser, strides, staticStrides) ||
      parser.getCurrentLocation(&attrLoc) ||
      parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColon() || parser.parseCustomTypeWithFallback(type))
    return failure();
  Properties &properties = result.getOrAddProperties<Properties>();
  properties.static_sizes = staticSizes;
  properties.static_strides = staticStrides;
  properties.operandSegmentSizes = {1, static_cast<int32_t>(sizes.size()),
                                    static_cast<int32_t>(strides.size())};
  StringAttr setName = getCoordinateSetAttrName(result.name);
  if (!result.attributes.get(setName))
    result.addAttribute(setName, IntegerSetAttr::get(getSizeBox(
                                     staticSizes, parser.getContext())));
  if (failed(verifyInherentAttrs(result.name, result.attributes, [&] {
        return parser.emitError(attrLoc)
               << "'" << result.name.getStringRef() << "' op ";
      })))
    return failure();
  Type index = parser.getBuilder().getIndexType();
  result.addTypes(type);
  return failure(parser.resolveOperand(offset, index, result.operands) ||
                 parser.resolveOperands(sizes, index, result.operands) ||
                 parser.resolveOperands(strides, index, result.operands));
}

void ConstructMemoryViewOp::print(OpAsmPrinter &p) {
  p << ' ' << getOffset() << ", sizes: ";
  printDynamicIndexList(p, *this, getSizes(), getStaticSizesAttr());
  p << ", strides: ";
  printDynamicIndexList(p, *this, getStrides(), getStaticStridesAttr());
  p.printOptionalAttrDict(
      (*this)->getAttrs(),
      {"operandSegmentSizes", "static_sizes", "static_strides"});
  p << " : " << getType();
}

LogicalResult ConstructMemoryViewOp::verify() {
  ArrayRef<int64_t> staticSizes = getStaticSizes();
  ArrayRef<int64_t> staticStrides = getStaticStrides();
  if (staticSizes.size() != staticStrides.size())
    return emitOpError("static_sizes and static_strides must have equal "
                       "length");
  if (llvm::count_if(staticSizes, ShapedType::isDynamic) !=
      static_cast<int64_t>(getSizes().size()))
    return emitOpError("number of dynamic size operands does not match "
                       "kDynamic entries in static_sizes");
  if (llvm::count_if(staticStrides, ShapedType::isDynamic) !=
      static_cast<int64_t>(getStrides().size()))
    return emitOpError("number of dynamic stride operands does not match "
                       "kDynamic entries in static_strides");
  auto type = llvm::dyn_cast<MemRefType>(getResult().getType());
  if (!type)
    return emitOpError("result must be a memref type");
  if (type.getRank() != static_cast<int64_t>(staticSizes.size()))
    return emitOpError("result memref rank does not match sizes/strides "
                       "length");
  for (auto [i, size] : llvm::enumerate(staticSizes)) {
    if (ShapedType::isDynamic(size))
      continue;
    if (size < 0)
      return emitOpError("size #") << i << " must be non-negative, but got "
                                   << size;
    // As memref.reinterpret_cast does: the view's consumers read `sizes`,
    // so a static result type that says otherwise is a typo, not a shape.
    int64_t typeDim = type.getDimSize(i);
    if (!ShapedType::isDynamic(typeDim) && typeDim != size)
      return emitOpError("size #")
             << i << " is " << size << " but the result type " << type
             << " has " << typeDim << " in that dimension";
  }
  return success();
}

SmallVector<OpFoldResult> ConstructMemoryViewOp::getMixedSizes() {
  return getMixedValues(getStaticSizes(), getSizes(), getContext());
}

SmallVector<OpFoldResult> ConstructMemoryViewOp::getMixedStrides() {
  return getMixedValues(getStaticStrides(), getStrides(), getContext());
}

//===----------------------------------------------------------------------===//
// ConstructDistributedMemoryViewOp
//===----------------------------------------------------------------------===//

LogicalResult ConstructDistributedMemoryViewOp::verify() {
  auto resultType = llvm::dyn_cast<MemRefType>(getResult().getType());
  if (!resultType)
    return emitOpError("result must be a memref type");
  for (Value input : getMemrefs()) {
    auto inputType = llvm::dyn_cast<MemRefType>(input.getType());
    if (!inputType)
      return emitOpError("all inputs must be memref types");
    if (inputType.getElementType() != resultType.getElementType())
      return emitOpError("all input memrefs must have the same element type "
                         "as the result");
    if (inputType.getRank() != resultType.getRank())
      return emitOpError("all input memrefs must have the same rank as the "
                         "result");
  }
  return success();
}

//===----------------------------------------------------------------------===//
// LoadOp / StoreOp
//===----------------------------------------------------------------------===//

LogicalResult LoadOp::verify() {
  auto resultType = llvm::dyn_cast<RankedTensorType>(getResult().getType());
  if (!resultType)
    return emitOpError("result must be a ranked tensor");
  if (getAccessTile().getType().getShape() != resultType.getShape())
    return emitOpError("access tile shape must match result tensor shape");
  return success();
}

LogicalResult StoreOp::verify() {
  auto dataType = llvm::dyn_cast<RankedTensorType>(getDataTile().getType());
  if (!dataType)
    return emitOpError("data_tile must be a ranked tensor");
  if (getAccessTile().getType().getShape() != dataType.getShape())
    return emitOpError("data tile shape must match access tile shape");
  return success();
}

//===----------------------------------------------------------------------===//
// RuntimeArgExtractOp
//===----------------------------------------------------------------------===//

LogicalResult RuntimeArgExtractOp::verify() {
  RuntimeArgType input = getInput().getType();
  Type resultType = getResult().getType();
  switch (getKind()) {
  case RuntimeArgExtractKind::value:
    if (resultType != input.getUnderlyingType())
      return emitOpError("result type (")
             << resultType << ") must match runtime_arg underlying type ("
             << input.getUnderlyingType() << ") when extracting value";
    return success();
  case RuntimeArgExtractKind::granularity:
  case RuntimeArgExtractKind::upperbound: {
    StringRef field = stringifyRuntimeArgExtractKind(getKind());
    bool present = getKind() == RuntimeArgExtractKind::granularity
                       ? input.getGranularity().has_value()
                       : input.getUpperbound().has_value();
    if (!present)
      return emitOpError("cannot extract ")
             << field << " from runtime_arg that doesn't have one";
    if (!resultType.isIndex())
      return emitOpError("result type must be index when extracting ")
             << field << ", but got " << resultType;
    return success();
  }
  }
  return success();
}
