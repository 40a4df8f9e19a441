//===- SymbolOperands.h - Symbols clause of access tiles --------*- C++ -*-===//
//
// This file defines the parser and printer of the optional `symbols(%s, ...)`
// clause that binds the symbols of an access tile's integer set, shared by
// ktdp.construct_access_tile and ktdp.construct_indirect_access_tile so both
// spell it alike.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_DIALECT_KTDP_IR_SYMBOLOPERANDS_H
#define KTFLOW_LIB_DIALECT_KTDP_IR_SYMBOLOPERANDS_H

#include "mlir/IR/OpImplementation.h"

namespace mlir::ktdp {

/// Parses `symbols(%a, %b)` if present.
inline ParseResult parseOptionalSymbols(
    OpAsmParser &parser,
    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &symbols) {
  if (failed(parser.parseOptionalKeyword("symbols")))
    return success();
  return parser.parseOperandList(symbols, AsmParser::Delimiter::Paren);
}

/// Prints ` symbols(%a, %b)`, or nothing when there are no symbols.
inline void printOptionalSymbols(OpAsmPrinter &p, OperandRange symbols) {
  if (symbols.empty())
    return;
  p << " symbols(";
  p.printOperands(symbols);
  p << ")";
}

} // namespace mlir::ktdp

#endif // KTFLOW_LIB_DIALECT_KTDP_IR_SYMBOLOPERANDS_H
