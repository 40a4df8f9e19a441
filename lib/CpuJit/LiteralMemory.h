//===- LiteralMemory.h - Views at literal addresses -------------*- C++ -*-===//
//
// Global memory at literal addresses below 2^44 is one untyped byte space in
// the interpreter (docs/interpreter.md §3): views of one element type that
// overlap form a region named by its lowest literal (`@ADDR`), whose
// initial contents are zeros or its `@ADDR` input. The compiled tier gives
// each such region a buffer of its own, as it gives each tensor argument
// one. It lowers the regions whose form does not depend on the run: views
// built in the kernel's entry block (every tile binds them all) at constant
// addresses with constant sizes and non-negative strides, views of one
// element type either identical or disjoint, views of different element
// types disjoint in bytes. Anything else is not lowered yet.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_CPUJIT_LITERALMEMORY_H
#define KTFLOW_LIB_CPUJIT_LITERALMEMORY_H

#include "TileFunction.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace ktflow::jit {

/// Gives every region of literal-address memory of `fn` a buffer: appends
/// kLiteralArgument to `layout.bufferArgs` and the region to
/// `layout.literalRegions`, in ascending address order, and maps each view
/// at a literal address to its buffer. Fails, with `why`, on views at
/// literal addresses the tier does not lower.
mlir::LogicalResult
assignLiteralRegions(mlir::func::FuncOp fn, TileFunctionLayout &layout,
                     llvm::DenseMap<mlir::Operation *, unsigned> &bufferOfView,
                     std::string &why);

} // namespace ktflow::jit

#endif // KTFLOW_LIB_CPUJIT_LITERALMEMORY_H
