//===- SelectKernel.cpp - One kernel, calls inlined, with a grid ----------===//
//
// This file implements --ktdf-select-kernel, the first pass of the mapping
// group: it keeps the one function the module runs (the interpreter's
// choice, ktdp::selectKernel), inlines the helper functions it calls with
// MLIR's inliner, and gives it a launch grid, so that every later pass
// sees a single kernel with a grid and no calls.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/Utils/KernelFunction.h"
#include "ktflow/Dialect/KTDP/Utils/LaunchGrid.h"

#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Transforms/Inliner.h"
#include "mlir/Transforms/InliningUtils.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFSELECTKERNEL
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

/// Fails, at the call, when a call reachable from `fn` names a function
/// without a body or reaches a function already on the call stack `active`
/// (recursion cannot be inlined).
static LogicalResult checkCallees(func::FuncOp fn, SymbolTable &symbols,
                                  llvm::SmallPtrSetImpl<Operation *> &active,
                                  llvm::SmallPtrSetImpl<Operation *> &done) {
  if (done.contains(fn))
    return success();
  active.insert(fn);
  WalkResult walk = fn.walk([&](func::CallOp call) {
    auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
    if (!callee || callee.isExternal()) {
      call.emitError("cannot inline the call of @")
          << call.getCallee()
          << ": the module has no body for it (the scheduler compiles "
             "only what the module defines)";
      return WalkResult::interrupt();
    }
    if (active.contains(callee)) {
      call.emitError("cannot inline the recursive call of @")
          << call.getCallee();
      return WalkResult::interrupt();
    }
    if (failed(checkCallees(callee, symbols, active, done)))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  active.erase(fn);
  done.insert(fn);
  return failure(walk.wasInterrupted());
}

/// Inlines every call in `kernel` (the callees' own calls included) with
/// MLIR's inliner and the dialects' inliner interfaces.
static LogicalResult inlineCalls(func::FuncOp kernel, SymbolTable &symbols) {
  llvm::SmallPtrSet<Operation *, 8> active, done;
  if (failed(checkCallees(kernel, symbols, active, done)))
    return failure();
  InlinerInterface interface(kernel.getContext());
  InlinerConfig config;
  // The call graph is acyclic, so each round inlines one level deeper and
  // the loop ends once no call is left.
  while (true) {
    SmallVector<func::CallOp> calls;
    kernel.walk([&](func::CallOp call) { calls.push_back(call); });
    if (calls.empty())
      return success();
    for (func::CallOp call : calls) {
      auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
      if (failed(inlineCall(interface, config.getCloneCallback(), call, callee,
                            &callee.getBody())))
        return call.emitError("cannot inline the call of @")
               << call.getCallee()
               << " (an operation of its body cannot be inlined here)";
      call.erase();
    }
  }
}

namespace {
struct SelectKernelPass
    : public ktdf::impl::KTDFSelectKernelBase<SelectKernelPass> {
  using KTDFSelectKernelBase::KTDFSelectKernelBase;

  void getDependentDialects(DialectRegistry &registry) const override {
    KTDFSelectKernelBase::getDependentDialects(registry);
    // func.call and func.return are inlined through this extension.
    func::registerInlinerExtension(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // A module that defines no function has nothing to select; what needs
    // a kernel later says so.
    if (function.empty() &&
        llvm::none_of(module.getOps<func::FuncOp>(),
                      [](func::FuncOp f) { return !f.isExternal(); }))
      return;
    std::string error;
    FailureOr<func::FuncOp> kernel =
        ktdp::selectKernel(module, function, error);
    if (failed(kernel)) {
      module.emitError(error);
      return signalPassFailure();
    }
    // A helper on tensors is called, not launched: nothing would bind its
    // tensors or receive its results.
    auto isTensor = [](Type t) { return isa<TensorType>(t); };
    if (kernel->getNumResults() != 0 ||
        llvm::any_of(kernel->getArgumentTypes(), isTensor)) {
      kernel->emitError("@")
          << kernel->getSymName()
          << " cannot run as a kernel: a kernel takes start addresses and "
             "scalars and returns nothing (a function on tensors is a "
             "helper to call)";
      return signalPassFailure();
    }
    SymbolTable symbols(module);
    if (failed(inlineCalls(*kernel, symbols)))
      return signalPassFailure();
    // A function without a grid runs on one tile; a grid on an enclosing
    // op moves to the kernel, where the later passes look for it.
    FailureOr<std::optional<SmallVector<int64_t>>> grid =
        ktdp::getLaunchGrid(*kernel);
    if (failed(grid))
      return signalPassFailure();
    if (!(*kernel)->hasAttr(ktdp::kGridAttrName))
      (*kernel)->setAttr(
          ktdp::kGridAttrName,
          Builder(module.getContext())
              .getI64ArrayAttr(grid->value_or(SmallVector<int64_t>{1})));
    for (auto fn : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
      if (fn != *kernel)
        fn.erase();
  }
};
} // namespace
