//===- ConstructIndirectAccessTileOp.cpp - indirect access tiles ----------===//
//
// This file implements the custom syntax and the verifier of
// ktdp.construct_indirect_access_tile:
//
//   %t = ktdp.construct_indirect_access_tile
//          intermediate_variables(%v, ...) %base[subscript, ...]
//          (symbols(%s, ...))?
//          {variables_space_set = ..., variables_space_order = ...}
//        : base-type (, index-view-type)* -> !ktdp.access_tile<...>
//   subscript ::= `(` affine-expr-of-ssa-ids `)`
//               | `ind` `(` %index_view `[` affine-exprs-of-ssa-ids `]` `)`
//
// SSA names that are not intermediate variables are captured from the
// enclosing scope. Every subscript map is rewritten over the canonical domain
// (captured variables..., intermediate variables...).
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "SymbolOperands.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::ktdp;

static constexpr StringLiteral kKindsAttr = "per_dim_subscript_kinds";
static constexpr StringLiteral kMapsAttr = "per_dim_subscript_maps";
static constexpr StringLiteral kSetAttr = "variables_space_set";
static constexpr StringLiteral kOrderAttr = "variables_space_order";

namespace {
/// One subscript as written, before canonicalisation.
struct ParsedSubscript {
  bool indirect = false;
  OpAsmParser::UnresolvedOperand indexView;
  /// Expressions over `dims` (numbered in order of first appearance).
  SmallVector<AffineExpr> exprs;
  SmallVector<OpAsmParser::UnresolvedOperand> dims;
  SMLoc loc;
};

bool sameName(const OpAsmParser::UnresolvedOperand &a,
              const OpAsmParser::UnresolvedOperand &b) {
  return a.name == b.name && a.number == b.number;
}
} // namespace

static ParseResult parseSubscript(OpAsmParser &parser, ParsedSubscript &sub) {
  sub.loc = parser.getCurrentLocation();
  SmallVector<OpAsmParser::UnresolvedOperand> symbols;
  if (succeeded(parser.parseOptionalKeyword("ind"))) {
    sub.indirect = true;
    Attribute mapAttr;
    NamedAttrList scratch;
    if (parser.parseLParen() || parser.parseOperand(sub.indexView) ||
        parser.parseAffineMapOfSSAIds(sub.dims, mapAttr, "map", scratch,
                                      AsmParser::Delimiter::Square) ||
        parser.parseRParen())
      return failure();
    AffineMap map = llvm::cast<AffineMapAttr>(mapAttr).getValue();
    if (map.getNumSymbols() != 0)
      return parser.emitError(sub.loc, "error canonicalizing subscripts: "
                                       "symbol() is not allowed in a "
                                       "subscript");
    llvm::append_range(sub.exprs, map.getResults());
    return success();
  }
  if (succeeded(parser.parseOptionalLParen())) {
    AffineExpr expr;
    if (parser.parseAffineExprOfSSAIds(sub.dims, symbols, expr) ||
        parser.parseRParen())
      return failure();
    if (!symbols.empty())
      return parser.emitError(sub.loc, "error canonicalizing subscripts: "
                                       "symbol() is not allowed in a "
                                       "subscript");
    sub.exprs.push_back(expr);
    return success();
  }
  return parser.emitError(sub.loc, "unexpected token in subscript list, "
                                   "expected 'ind', '(', or ']'");
}

ParseResult ConstructIndirectAccessTileOp::parse(OpAsmParser &parser,
                                                 OperationState &result) {
  Builder &builder = parser.getBuilder();
  MLIRContext *ctx = builder.getContext();
  SMLoc loc = parser.getCurrentLocation();

  SmallVector<OpAsmParser::Argument> variables;
  if (parser.parseKeyword("intermediate_variables") ||
      parser.parseArgumentList(variables, AsmParser::Delimiter::Paren))
    return parser.emitError(loc, "error parsing intermediate_variables");
  // A repeated name would silently alias the first variable of that name.
  for (auto [i, variable] : llvm::enumerate(variables))
    for (auto &earlier : ArrayRef(variables).take_front(i))
      if (sameName(earlier.ssaName, variable.ssaName))
        return parser.emitError(variable.ssaName.location,
                                "intermediate variable '")
               << variable.ssaName.name << "' is declared twice";

  OpAsmParser::UnresolvedOperand base;
  SmallVector<ParsedSubscript> subscripts;
  if (parser.parseOperand(base) || parser.parseLSquare())
    return failure();
  do {
    if (parseSubscript(parser, subscripts.emplace_back()))
      return failure();
  } while (succeeded(parser.parseOptionalComma()));
  if (parser.parseRSquare())
    return failure();

  SmallVector<OpAsmParser::UnresolvedOperand> symbols;
  if (parseOptionalSymbols(parser, symbols) ||
      parser.parseOptionalAttrDict(result.attributes))
    return failure();

  // Canonical domain: captured variables (first appearance) then the
  // intermediate variables in declaration order.
  SmallVector<OpAsmParser::UnresolvedOperand> captured;
  for (ParsedSubscript &sub : subscripts)
    for (auto &dim : sub.dims) {
      bool isVariable = llvm::any_of(variables, [&](auto &v) {
        return sameName(v.ssaName, dim);
      });
      bool seen = llvm::any_of(captured,
                               [&](auto &c) { return sameName(c, dim); });
      if (!isVariable && !seen)
        captured.push_back(dim);
    }
  unsigned numDomain = captured.size() + variables.size();
  auto canonicalPosition = [&](const OpAsmParser::UnresolvedOperand &dim) {
    for (auto [i, c] : llvm::enumerate(captured))
      if (sameName(c, dim))
        return static_cast<unsigned>(i);
    for (auto [i, v] : llvm::enumerate(variables))
      if (sameName(v.ssaName, dim))
        return static_cast<unsigned>(captured.size() + i);
    return 0u; // Unreachable: every dim is captured or a variable.
  };

  SmallVector<Attribute> kinds, maps;
  SmallVector<OpAsmParser::UnresolvedOperand> indexViews;
  for (ParsedSubscript &sub : subscripts) {
    SmallVector<AffineExpr> replacement;
    for (auto &dim : sub.dims)
      replacement.push_back(getAffineDimExpr(canonicalPosition(dim), ctx));
    SmallVector<AffineExpr> exprs;
    for (AffineExpr e : sub.exprs)
      exprs.push_back(e.replaceDims(replacement));
    maps.push_back(AffineMapAttr::get(AffineMap::get(numDomain, 0, exprs, ctx)));
    kinds.push_back(builder.getBoolAttr(sub.indirect));
    if (sub.indirect)
      indexViews.push_back(sub.indexView);
  }
  result.addAttribute(kKindsAttr, builder.getArrayAttr(kinds));
  result.addAttribute(kMapsAttr, builder.getArrayAttr(maps));

  auto set = llvm::dyn_cast_or_null<IntegerSetAttr>(result.attributes.get(kSetAttr));
  if (!set)
    return parser.emitError(loc, "variables_space_set is missing in the "
                                 "operation");
  if (!llvm::isa_and_nonnull<AffineMapAttr>(result.attributes.get(kOrderAttr)))
    return parser.emitError(loc, "variables_space_order is missing in the "
                                 "operation");
  if (set.getValue().getNumSymbols() != symbols.size())
    return parser.emitError(loc, "variables_space_set has ")
           << set.getValue().getNumSymbols() << " symbols but got "
           << symbols.size() << " symbol operands";

  SMLoc typesLoc = parser.getCurrentLocation();
  SmallVector<Type> types;
  Type resultType;
  if (parser.parseColonTypeList(types) || parser.parseArrow() ||
      parser.parseType(resultType))
    return failure();
  if (types.size() != 1 + indexViews.size())
    return parser.emitError(typesLoc, "expected ")
           << 1 + indexViews.size() << " types (base + " << indexViews.size()
           << " indirect memrefs), but got " << types.size();

  Type indexType = builder.getIndexType();
  if (parser.resolveOperand(base, types.front(), result.operands) ||
      parser.resolveOperands(indexViews, ArrayRef(types).drop_front(), typesLoc,
                             result.operands) ||
      parser.resolveOperands(captured, indexType, result.operands) ||
      parser.resolveOperands(symbols, indexType, result.operands))
    return parser.emitError(loc, "error resolving operands");
  result.addAttribute(getOperandSegmentSizesAttrName(result.name),
                      builder.getDenseI32ArrayAttr(
                          {1, static_cast<int32_t>(indexViews.size()),
                           static_cast<int32_t>(captured.size()),
                           static_cast<int32_t>(symbols.size())}));
  result.addTypes(resultType);

  Region *body = result.addRegion();
  auto *block = new Block();
  body->push_back(block);
  for (auto &variable : variables)
    block->addArgument(indexType,
                       parser.getEncodedSourceLoc(variable.ssaName.location));
  OpBuilder opBuilder(ctx);
  ensureTerminator(*body, opBuilder, result.location);
  return success();
}

void ConstructIndirectAccessTileOp::print(OpAsmPrinter &p) {
  SmallVector<Value> domain(getCapturedVariables());
  llvm::append_range(domain, getIntermediateVariables());

  p << " intermediate_variables(";
  p.printOperands(getIntermediateVariables());
  p << ") " << getBase() << "[";
  auto indexViews = getIndirectMemrefs().begin();
  for (auto [i, kindAndMap] : llvm::enumerate(llvm::zip(
           getPerDimSubscriptKinds(), getPerDimSubscriptMaps()))) {
    auto [kind, mapAttr] = kindAndMap;
    if (i)
      p << ", ";
    AffineMap map = llvm::cast<AffineMapAttr>(mapAttr).getValue();
    bool indirect = llvm::cast<BoolAttr>(kind).getValue();
    if (indirect)
      p << "ind(" << *indexViews++ << "[";
    else
      p << "(";
    llvm::interleaveComma(map.getResults(), p, [&](AffineExpr e) {
      p.printAffineExprOfSSAIds(e, domain, {});
    });
    p << (indirect ? "])" : ")");
  }
  p << "]";
  printOptionalSymbols(p, getSymbolOperands());
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {kKindsAttr, kMapsAttr,
                           getOperandSegmentSizesAttrName()});
  p << " : " << getBase().getType();
  for (Value view : getIndirectMemrefs())
    p << ", " << view.getType();
  p << " -> ";
  p.printType(getResult().getType());
}

LogicalResult ConstructIndirectAccessTileOp::verify() {
  // The custom syntax prints neither the types of the intermediate variables
  // nor the body, so anything else there would be lost on printing.
  Block &body = getBody().front();
  for (BlockArgument variable : body.getArguments())
    if (!variable.getType().isIndex())
      return emitOpError("intermediate variable #")
             << variable.getArgNumber() << " must have type 'index', but has "
             << variable.getType();
  if (!llvm::hasSingleElement(body))
    return emitOpError("body must contain only the implicit "
                       "ktdp.region_terminator");
  IntegerSet set = getVariablesSpaceSet();
  AffineMap order = getVariablesSpaceOrder();
  if (set.getNumDims() != order.getNumDims())
    return emitOpError("variables_space_set dimensions (")
           << set.getNumDims() << ") must match variables_space_order inputs ("
           << order.getNumDims() << ")";
  if (order.getNumDims() != order.getNumResults())
    return emitOpError("variables_space_order must have equal number of "
                       "inputs (")
           << order.getNumDims() << ") and outputs (" << order.getNumResults()
           << ")";
  unsigned numVariables = getIntermediateVariables().size();
  if (numVariables != set.getNumDims())
    return emitOpError("number of intermediate variables (")
           << numVariables << ") must match variables_space_set dimensions ("
           << set.getNumDims() << ")";
  if (set.getNumSymbols() != getSymbolOperands().size())
    return emitOpError("variables_space_set has ")
           << set.getNumSymbols() << " symbols but got "
           << getSymbolOperands().size() << " symbol operands";
  ArrayAttr kinds = getPerDimSubscriptKinds();
  ArrayAttr maps = getPerDimSubscriptMaps();
  if (kinds.size() != maps.size())
    return emitOpError("per_dim_subscript_kinds size (")
           << kinds.size() << ") must match per_dim_subscript_maps size ("
           << maps.size() << ")";
  auto baseType = llvm::dyn_cast<ShapedType>(getBase().getType());
  if (!baseType || !baseType.hasRank())
    return emitOpError("base must be a ranked memref or tensor type");
  if (static_cast<int64_t>(maps.size()) != baseType.getRank())
    return emitOpError("number of subscripts (")
           << maps.size() << ") must match base rank (" << baseType.getRank()
           << ")";

  unsigned numDomain = getCapturedVariables().size() + numVariables;
  unsigned numIndirect = 0;
  for (auto [i, kindAndMap] : llvm::enumerate(llvm::zip(kinds, maps))) {
    auto [kind, mapAttr] = kindAndMap;
    auto indirect = llvm::dyn_cast<BoolAttr>(kind);
    if (!indirect)
      return emitOpError("per_dim_subscript_kinds must contain BoolAttr "
                         "elements");
    AffineMap map = llvm::cast<AffineMapAttr>(mapAttr).getValue();
    if (map.getNumDims() != numDomain)
      return emitOpError("subscript map for dimension ")
             << i << " has " << map.getNumDims() << " dimensions, but expected "
             << numDomain << " (captured_variables + intermediate_variables)";
    if (!indirect.getValue()) {
      if (map.getNumResults() != 1)
        return emitOpError("direct subscript map for dimension ")
               << i << " must produce exactly 1 result, but produces "
               << map.getNumResults();
      continue;
    }
    if (numIndirect >= getIndirectMemrefs().size()) {
      ++numIndirect;
      continue;
    }
    auto view = llvm::cast<MemRefType>(getIndirectMemrefs()[numIndirect++].getType());
    if (map.getNumResults() != view.getRank())
      return emitOpError("indirect subscript map for dimension ")
             << i << " produces " << map.getNumResults()
             << " results, but indirect memref has rank " << view.getRank();
  }
  if (numIndirect != getIndirectMemrefs().size())
    return emitOpError("number of indirect dimensions (")
           << numIndirect << ") must match number of indirect memrefs ("
           << getIndirectMemrefs().size() << ")";
  int64_t rank = getResult().getType().getShape().size();
  if (rank != static_cast<int64_t>(set.getNumDims()))
    return emitOpError("result type rank (")
           << rank << ") must match variables_space_set dimensions ("
           << set.getNumDims() << ")";
  return success();
}
