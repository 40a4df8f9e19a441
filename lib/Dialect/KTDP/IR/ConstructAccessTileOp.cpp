//===- ConstructAccessTileOp.cpp - ktdp.construct_access_tile -------------===//
//
// This file implements the custom syntax and the verifier of
// ktdp.construct_access_tile:
//
//   %t = ktdp.construct_access_tile %base[affine-exprs-of-ssa-ids]
//          (symbols(%s, ...))? {access_tile_set = ..., access_tile_order = ...}
//        : base-type -> !ktdp.access_tile<...>
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "SymbolOperands.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::ktdp;

static constexpr StringLiteral kBaseMapAttr = "base_map";
static constexpr StringLiteral kSetAttr = "access_tile_set";
static constexpr StringLiteral kOrderAttr = "access_tile_order";

ParseResult ConstructAccessTileOp::parse(OpAsmParser &parser,
                                         OperationState &result) {
  OpAsmParser::UnresolvedOperand base;
  SmallVector<OpAsmParser::UnresolvedOperand> indices, symbols;
  Type baseType, resultType;
  Attribute baseMapAttr;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseOperand(base) ||
      parser.parseAffineMapOfSSAIds(indices, baseMapAttr, kBaseMapAttr,
                                    result.attributes,
                                    AsmParser::Delimiter::Square))
    return failure();
  if (parseOptionalSymbols(parser, symbols) ||
      parser.parseOptionalAttrDict(result.attributes))
    return failure();

  auto set = llvm::dyn_cast_or_null<IntegerSetAttr>(result.attributes.get(kSetAttr));
  if (!set)
    return parser.emitError(loc, "Access tile set is missing in the operation");
  auto order = llvm::dyn_cast_or_null<AffineMapAttr>(result.attributes.get(kOrderAttr));
  if (!order)
    return parser.emitError(loc,
                            "Access tile order is missing in the operation");
  auto baseMap = llvm::cast<AffineMapAttr>(baseMapAttr);
  if (set.getValue().getNumDims() != baseMap.getValue().getNumResults())
    return parser.emitError(
        loc, "Access tile set and Base input dimensions should match");
  if (set.getValue().getNumSymbols() != symbols.size())
    return parser.emitError(loc, "access_tile_set has ")
           << set.getValue().getNumSymbols() << " symbols but got "
           << symbols.size() << " symbol operands";
  if (order.getValue().getNumDims() != order.getValue().getNumResults())
    return parser.emitError(loc, "Number of input dimensions and output "
                                 "dimensions in the access tile order should "
                                 "match");
  if (order.getValue().getNumDims() != set.getValue().getNumDims())
    return parser.emitError(loc, "Number of dimensions in the access tile "
                                 "order and access tile set must match!");

  if (parser.parseColonType(baseType) || parser.parseArrow() ||
      parser.parseType(resultType))
    return failure();

  Type indexType = parser.getBuilder().getIndexType();
  if (parser.resolveOperand(base, baseType, result.operands) ||
      parser.resolveOperands(indices, indexType, result.operands) ||
      parser.resolveOperands(symbols, indexType, result.operands))
    return failure();
  result.addAttribute(getOperandSegmentSizesAttrName(result.name),
                      parser.getBuilder().getDenseI32ArrayAttr(
                          {1, static_cast<int32_t>(indices.size()),
                           static_cast<int32_t>(symbols.size())}));
  result.addTypes(resultType);
  return success();
}

void ConstructAccessTileOp::print(OpAsmPrinter &p) {
  p << " " << getBase() << "[";
  p.printAffineMapOfSSAIds(getBaseMapAttr(), getIndices());
  p << "]";
  printOptionalSymbols(p, getSymbolOperands());
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {kBaseMapAttr, getOperandSegmentSizesAttrName()});
  p << " : " << getBase().getType() << " -> ";
  p.printType(getResult().getType());
}

LogicalResult ConstructAccessTileOp::verify() {
  IntegerSet set = getAccessTileSet();
  AffineMap baseMap = getBaseMap();
  AffineMap order = getAccessTileOrder();
  if (set.getNumDims() != baseMap.getNumResults())
    return emitOpError("access_tile_set dimensions (")
           << set.getNumDims() << ") must match base_map dims ("
           << baseMap.getNumResults() << ")";
  if (baseMap.getNumInputs() != getIndices().size())
    return emitOpError("base_map expects ")
           << baseMap.getNumInputs() << " operands but got "
           << getIndices().size();
  if (set.getNumSymbols() != getSymbolOperands().size())
    return emitOpError("access_tile_set has ")
           << set.getNumSymbols() << " symbols but got "
           << getSymbolOperands().size() << " symbol operands";
  if (order.getNumDims() != order.getNumResults())
    return emitOpError("access_tile_order must have equal number of inputs (")
           << order.getNumDims() << ") and outputs (" << order.getNumResults()
           << ")";
  if (order.getNumDims() != set.getNumDims())
    return emitOpError("access_tile_order dimensions (")
           << order.getNumDims() << ") must match access_tile_set dimensions ("
           << set.getNumDims() << ")";
  int64_t rank = getResult().getType().getShape().size();
  if (rank != static_cast<int64_t>(set.getNumDims()))
    return emitOpError("result type rank (")
           << rank << ") must match access_tile_set dimensions ("
           << set.getNumDims() << ")";
  return success();
}

ConstructMemoryViewOp mlir::ktdp::getAccessTileView(Value accessTile) {
  auto tile = accessTile.getDefiningOp<ConstructAccessTileOp>();
  return tile ? tile.getBase().getDefiningOp<ConstructMemoryViewOp>()
              : nullptr;
}
