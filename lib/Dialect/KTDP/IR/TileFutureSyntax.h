//===- TileFutureSyntax.h - Spellings of tile futures in ops ----*- C++ -*-===//
//
// This file declares the custom directives through which inter_tile_produce,
// inter_tile_consume and inter_tile_reduce read and write their
// `!ktdp.tile_future` type. They accept every spelling kernels are written
// in (stripped or `!ktdp.`-prefixed, partial types bare or parenthesised,
// inline `groups` sets containing `>=`, and produce's leading `: T ->`) and
// print the canonical stripped form.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_DIALECT_KTDP_IR_TILEFUTURESYNTAX_H
#define KTFLOW_LIB_DIALECT_KTDP_IR_TILEFUTURESYNTAX_H

#include "mlir/IR/OpImplementation.h"

namespace mlir::ktdp {

/// Parses a tile future type, `<...>` or `!ktdp.tile_future<...>`.
ParseResult parseTileFuture(OpAsmParser &parser, Type &type);

/// Prints a tile future type in its stripped form `<(T), groups = ...>`.
void printTileFuture(OpAsmPrinter &printer, Operation *op, Type type);

/// Parses produce's result type: an optional `: T (, T)*` or `: (T, ...)`
/// that must list the future's partial types, then `->` and the future.
ParseResult parseProducedFuture(OpAsmParser &parser, Type &type);

/// Prints `-> <(T), groups = ...>`.
void printProducedFuture(OpAsmPrinter &printer, Operation *op, Type type);

} // namespace mlir::ktdp

#endif // KTFLOW_LIB_DIALECT_KTDP_IR_TILEFUTURESYNTAX_H
