//===- SpyreOp.cpp - The spyreop dialect ----------------------------------===//
//
// This file implements the spyreop dialect registration and the custom
// pieces of its syntax.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/SpyreOp/IR/SpyreOp.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::spyreop;

#include "ktflow/Dialect/SpyreOp/IR/SpyreOpDialect.cpp.inc"
#include "ktflow/Dialect/SpyreOp/IR/SpyreOpEnums.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "ktflow/Dialect/SpyreOp/IR/SpyreOpAttrs.cpp.inc"
#define GET_TYPEDEF_CLASSES
#include "ktflow/Dialect/SpyreOp/IR/SpyreOpTypes.cpp.inc"

/// Parses either an i32 SSA value or an integer literal (decimal or hex).
static ParseResult
parseValueOrLiteral(OpAsmParser &parser,
                    std::optional<OpAsmParser::UnresolvedOperand> &value,
                    IntegerAttr &literal) {
  OpAsmParser::UnresolvedOperand operand;
  OptionalParseResult hasOperand = parser.parseOptionalOperand(operand);
  if (hasOperand.has_value()) {
    if (failed(*hasOperand))
      return failure();
    value = operand;
    return success();
  }
  int64_t integer;
  if (parser.parseInteger(integer))
    return failure();
  literal = parser.getBuilder().getI64IntegerAttr(integer);
  return success();
}

static void printValueOrLiteral(OpAsmPrinter &p, Operation *, Value value,
                                IntegerAttr literal) {
  if (value)
    p << value;
  else
    p << literal.getValue().getSExtValue();
}

#define GET_OP_CLASSES
#include "ktflow/Dialect/SpyreOp/IR/SpyreOpOps.cpp.inc"

void SpyreOpDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "ktflow/Dialect/SpyreOp/IR/SpyreOpTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "ktflow/Dialect/SpyreOp/IR/SpyreOpAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "ktflow/Dialect/SpyreOp/IR/SpyreOpOps.cpp.inc"
      >();
}

LogicalResult Idx32ToAddrOp::verify() {
  if (static_cast<bool>(getBase()) == getBaseLiteral().has_value() ||
      static_cast<bool>(getStride()) == getStrideLiteral().has_value())
    return emitOpError("base and stride must each be an i32 value or an "
                       "integer literal");
  // Literals are i32 bit patterns: signed values and unsigned addresses such
  // as 0xDEADBEEF are both fine, wider ones would be truncated.
  for (auto [what, literal] : {std::pair{"base", getBaseLiteralAttr()},
                               std::pair{"stride", getStrideLiteralAttr()}}) {
    if (!literal)
      continue;
    int64_t value = literal.getInt();
    if (value < std::numeric_limits<int32_t>::min() ||
        value > std::numeric_limits<uint32_t>::max())
      return emitOpError(what)
             << " literal " << value << " does not fit in 32 bits";
  }
  return success();
}
