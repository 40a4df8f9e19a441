//===- ApplyDevicePatterns.cpp - The device's PDL checkpoints -------------===//
//
// This file implements --ktdf-apply-device-patterns: the `pdl.pattern`s a
// device description lists for a checkpoint are gathered into one PDL
// module, compiled to PDL bytecode by MLIR's PDLPatternModule and applied
// greedily to the kernel. The native functions that patterns may name are
// registered here, by name, so descriptions can use them without compiler
// changes beyond this table.
//
//===----------------------------------------------------------------------===//

#include "WidenToF32.h"

#include "ktflow/Device/Target.h"
#include "ktflow/Dialect/KTDF/Transforms/DevicePatterns.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Scheduler/ScheduleTarget.h"

#include "mlir/Dialect/PDL/IR/PDL.h"
#include "mlir/Dialect/PDLInterp/IR/PDLInterp.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFAPPLYDEVICEPATTERNS
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

ArrayRef<StringRef> mlir::ktdf::getCheckpoints() {
  return ktdf_arch::getCheckpointNames();
}

//===----------------------------------------------------------------------===//
// Native rewrite functions
//===----------------------------------------------------------------------===//

/// widen_to_f32(op): computes `op` in f32 instead of f16/bf16: its 16-bit
/// float operands are extended, a copy of the op runs on f32, and its
/// 16-bit float results are truncated back, so the value computed is the
/// f32 result rounded once. Fails (leaving the IR alone) for ops with no
/// 16-bit float operand or result, ops with regions, and constants.
static LogicalResult widenToF32(PatternRewriter &rewriter, Operation *op) {
  if (op->getNumRegions() != 0 || op->hasTrait<OpTrait::ConstantLike>())
    return failure();
  bool any = false;
  for (Type t : llvm::concat<const Type>(op->getOperandTypes(),
                                         op->getResultTypes()))
    any |= static_cast<bool>(widenedType(t));
  if (!any)
    return failure();
  rewriter.setInsertionPoint(op);
  Location loc = op->getLoc();
  Operation *wide = cloneInF32(rewriter, op, [&](Value v) -> Value {
    return arith::ExtFOp::create(rewriter, loc, widenedType(v.getType()), v);
  });
  SmallVector<Value> results;
  for (auto [old, now] : llvm::zip(op->getResults(), wide->getResults()))
    results.push_back(old.getType() == now.getType()
                          ? Value(now)
                          : arith::TruncFOp::create(rewriter, loc,
                                                    old.getType(), now)
                                .getResult());
  rewriter.replaceOp(op, results);
  return success();
}

/// is_f16(value): the value is f16 or has f16 elements.
static LogicalResult isF16(PatternRewriter &, Value value) {
  return success(getElementTypeOrSelf(value.getType()).isF16());
}

static void registerNativeFunctions(PDLPatternModule &pdl) {
  pdl.registerRewriteFunction("widen_to_f32", widenToF32);
  pdl.registerConstraintFunction("is_f16", isF16);
}

//===----------------------------------------------------------------------===//
// The compiled patterns
//===----------------------------------------------------------------------===//

std::optional<FrozenRewritePatternSet>
mlir::ktdf::getDevicePatterns(ktdf_arch::DeviceOp device,
                              StringRef checkpoint) {
  MLIRContext *context = device->getContext();
  OwningOpRef<ModuleOp> pdlModule = ModuleOp::create(UnknownLoc::get(context));
  OpBuilder builder(pdlModule->getBodyRegion());
  unsigned count = 0;
  for (auto block : device.getBody().getOps<ktdf_arch::PatternsOp>()) {
    if (!llvm::is_contained(
            block.getCheckpoints().getAsValueRange<StringAttr>(), checkpoint))
      continue;
    for (Operation &op : block.getBody().front()) {
      builder.setInsertionPointToEnd(pdlModule->getBody());
      builder.clone(op);
      ++count;
    }
  }
  if (count == 0)
    return std::nullopt;
  PDLPatternModule pdl(std::move(pdlModule));
  registerNativeFunctions(pdl);
  RewritePatternSet patterns(context);
  patterns.add(std::move(pdl));
  return FrozenRewritePatternSet(std::move(patterns));
}

LogicalResult
mlir::ktdf::applyDevicePatterns(Operation *root,
                                const FrozenRewritePatternSet &patterns) {
  // Only the device's patterns change the IR: no folding, and constants
  // stay where the passes put them.
  GreedyRewriteConfig config;
  config.enableFolding(false).enableConstantCSE(false);
  return applyPatternsGreedily(root, patterns, config);
}

SmallVector<FrozenRewritePatternSet>
mlir::ktdf::getAllDevicePatterns(ktdf_arch::DeviceOp device) {
  SmallVector<FrozenRewritePatternSet> all;
  for (StringRef checkpoint : getCheckpoints())
    if (std::optional<FrozenRewritePatternSet> patterns =
            getDevicePatterns(device, checkpoint))
      all.push_back(std::move(*patterns));
  return all;
}

LogicalResult
mlir::ktdf::applyAllDevicePatterns(Operation *root,
                                   ArrayRef<FrozenRewritePatternSet> patterns) {
  for (const FrozenRewritePatternSet &checkpoint : patterns)
    if (failed(applyDevicePatterns(root, checkpoint)))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {
struct ApplyDevicePatternsPass
    : public ktdf::impl::KTDFApplyDevicePatternsBase<ApplyDevicePatternsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (!llvm::is_contained(getCheckpoints(), StringRef(checkpoint))) {
      module.emitError("unknown checkpoint '")
          << checkpoint
          << "' (expected pre_mapping, pre_scheduling, post_scheduling or "
             "post_lowering)";
      return signalPassFailure();
    }
    // The patterns rewrite the kernel, never the target or its device.
    markAnalysesPreserved<ktflow::sched::ScheduleTarget>();
    FailureOr<ktflow::device::TargetDevice> target =
        ktflow::device::resolveTarget(module,
                                      ktflow::device::TargetImport::InModule);
    if (failed(target))
      return signalPassFailure();
    std::optional<FrozenRewritePatternSet> patterns =
        getDevicePatterns(target->device, checkpoint);
    if (!patterns)
      return;
    for (Operation &op : module.getBody()->getOperations()) {
      if (isa<ktdf_arch::DeviceOp, ktdf_arch::TargetOp>(op))
        continue;
      if (failed(applyDevicePatterns(&op, *patterns))) {
        op.emitError("the device's '")
            << checkpoint << "' patterns did not converge";
        return signalPassFailure();
      }
    }
  }
};
} // namespace
