//===- KernelFunction.h - The kernel function of a module -------*- C++ -*-===//
//
// This file declares the one rule the interpreter, the compiler and the
// roofline use to pick the kernel a module runs: the function named on the
// command line (`--func`), else its only function with a launch grid, else
// its only function with a body (which then runs on one tile).
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_KTDP_UTILS_KERNELFUNCTION_H
#define KTFLOW_DIALECT_KTDP_UTILS_KERNELFUNCTION_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace mlir::ktdp {

/// The kernel of `module`: the function `name` when `name` is not empty
/// (it must have a body), else the only function with a grid (its own or
/// an enclosing op's), else the only function with a body. Otherwise fails
/// with the reason in `error` ("...; choose one with --func" when several
/// qualify).
FailureOr<func::FuncOp> selectKernel(ModuleOp module, StringRef name,
                                     std::string &error);

} // namespace mlir::ktdp

#endif // KTFLOW_DIALECT_KTDP_UTILS_KERNELFUNCTION_H
