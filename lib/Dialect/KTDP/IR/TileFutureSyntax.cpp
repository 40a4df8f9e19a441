//===- TileFutureSyntax.cpp - Spellings of tile futures in ops ------------===//
//
// This file implements the custom directives of the inter-tile ops that
// read and write their `!ktdp.tile_future` type. The prefixed spelling with
// an inline groups set such as `affine_set<(g) : (g >= 0, -g + 1 >= 0)>`
// cannot go through MLIR's generic type parser: its scanner for the body of
// a `!dialect.type<...>` reads the `>` of `>=` as a closing bracket and
// gives up ("unbalanced '(' character in pretty dialect name") before the
// dialect sees the type. Inside an op the future type is known, so these
// directives parse such a body themselves, token by token.
//
//===----------------------------------------------------------------------===//

#include "TileFutureSyntax.h"

#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/IR/Diagnostics.h"

#include <cstring>

using namespace mlir;
using namespace mlir::ktdp;

static constexpr StringLiteral kFutureTypeName = "!ktdp.tile_future";

/// Whether the source text at `loc` starts with `!ktdp.tile_future<`. The
/// parser's buffer is null-terminated, so the comparison stops in time.
static bool startsPrefixedFuture(SMLoc loc) {
  const char *text = loc.getPointer();
  return text &&
         std::strncmp(text, kFutureTypeName.data(), kFutureTypeName.size()) ==
             0 &&
         text[kFutureTypeName.size()] == '<';
}

/// Parses `!ktdp.tile_future<...>`. The generic type parser runs first,
/// with its diagnostics held back. When its body scan gives up, it has
/// consumed the type name and stands at the `<`: the body is then parsed
/// here, and its diagnostics dropped. Any other failure reports them.
static ParseResult parsePrefixedFuture(OpAsmParser &parser, SMLoc loc,
                                       Type &type) {
  SmallVector<Diagnostic> held;
  ParseResult generic = failure();
  {
    ScopedDiagnosticHandler hold(parser.getContext(), [&](Diagnostic &diag) {
      held.push_back(std::move(diag));
      return success();
    });
    generic = parser.parseType(type);
  }
  bool scanGaveUp =
      failed(generic) && parser.getCurrentLocation().getPointer() ==
                             loc.getPointer() + kFutureTypeName.size();
  if (scanGaveUp) {
    type = TileFutureType::parse(parser);
    return success(type != nullptr);
  }
  DiagnosticEngine &engine = parser.getContext()->getDiagEngine();
  for (Diagnostic &diag : held)
    engine.emit(std::move(diag));
  return generic;
}

ParseResult mlir::ktdp::parseTileFuture(OpAsmParser &parser, Type &type) {
  SMLoc loc = parser.getCurrentLocation();
  if (startsPrefixedFuture(loc))
    return parsePrefixedFuture(parser, loc, type);
  TileFutureType future;
  if (parser.parseCustomTypeWithFallback(future))
    return failure();
  type = future;
  return success();
}

void mlir::ktdp::printTileFuture(OpAsmPrinter &printer, Operation *,
                                 Type type) {
  if (auto future = llvm::dyn_cast<TileFutureType>(type))
    printer.printStrippedAttrOrType(future);
  else
    printer << type;
}

ParseResult mlir::ktdp::parseProducedFuture(OpAsmParser &parser,
                                            Type &type) {
  // The leading `: T` (or `: (T, ...)`) repeats the partial types. The
  // parenthesised list is read here rather than as a type, which would
  // take `(T) -> !ktdp.tile_future<...>` for a function type.
  SmallVector<Type> leading;
  SMLoc leadingLoc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalColon())) {
    leadingLoc = parser.getCurrentLocation();
    bool parenthesised = succeeded(parser.parseOptionalLParen());
    if (parser.parseTypeList(leading) ||
        (parenthesised && parser.parseRParen()))
      return failure();
  }
  if (parser.parseArrow() || parseTileFuture(parser, type))
    return failure();
  ArrayRef<RankedTensorType> partials =
      llvm::cast<TileFutureType>(type).getPartialTypes();
  if (!leading.empty() &&
      !llvm::equal(leading, partials,
                   [](Type a, RankedTensorType b) { return a == Type(b); })) {
    std::string message;
    llvm::raw_string_ostream os(message);
    os << "the partial types before '->' (";
    llvm::interleaveComma(leading, os);
    os << ") must match the future's partial types (";
    llvm::interleaveComma(partials, os);
    os << ")";
    return parser.emitError(leadingLoc, message);
  }
  return success();
}

void mlir::ktdp::printProducedFuture(OpAsmPrinter &printer, Operation *op,
                                     Type type) {
  printer << "-> ";
  printTileFuture(printer, op, type);
}
