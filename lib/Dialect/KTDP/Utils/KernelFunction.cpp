//===- KernelFunction.cpp - Which function of a module is the kernel ------===//
//
// This file implements the choice of a module's kernel function, shared by
// the interpreter, the scheduler and the roofline so that `ktflow run
// --check` compiles and interprets the same function.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/KTDP/Utils/KernelFunction.h"
#include "ktflow/Dialect/KTDP/Utils/LaunchGrid.h"

using namespace mlir;

FailureOr<func::FuncOp>
mlir::ktdp::selectKernel(ModuleOp module, StringRef name, std::string &error) {
  if (!name.empty()) {
    auto chosen = module.lookupSymbol<func::FuncOp>(name);
    if (chosen && !chosen.isExternal())
      return chosen;
    error = "no function @" + name.str() + " with a body in the module";
    return failure();
  }
  SmallVector<func::FuncOp> withGrid, withBody;
  module.walk([&](func::FuncOp f) {
    if (f.isExternal())
      return;
    withBody.push_back(f);
    if (getGridOwner(f))
      withGrid.push_back(f);
  });
  if (withGrid.size() == 1)
    return withGrid.front();
  if (withGrid.empty() && withBody.size() == 1)
    return withBody.front();
  if (withBody.empty()) {
    error = "the module has no function with a body";
    return failure();
  }
  std::string names;
  for (func::FuncOp f : withGrid.empty() ? withBody : withGrid)
    names += (names.empty() ? "@" : ", @") + f.getSymName().str();
  error =
      "the module has several kernels (" + names + "); choose one with --func";
  return failure();
}
