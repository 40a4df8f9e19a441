//===- RecordTensorExtents.cpp - Tensor extents before scheduling ---------===//
//
// This file implements --ktdf-record-tensor-extents. A tensor's extent
// follows from every view declared at its start address (the definition
// the interpreter shares, ktflow/Analysis/TensorExtent.h); later passes may
// fold away views nothing accesses, so the extents are computed on the
// kernel as written and recorded as attributes the lowering reads.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Analysis/LaunchArguments.h"
#include "ktflow/Analysis/TensorExtent.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDF/Transforms/TileBounds.h"

#include "mlir/IR/Matchers.h"

#include <set>

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFRECORDTENSOREXTENTS
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

/// The argument positions of the launch scalars (runtime arguments or
/// plain integer arguments) whose values the dynamic sizes are, or none when
/// one is something else (the support check reports those).
static std::optional<SmallVector<int64_t>>
launchScalarPositions(func::FuncOp fn, ArrayRef<Value> sizes) {
  SmallVector<int64_t> positions;
  for (Value size : sizes) {
    BlockArgument arg = ktflow::getLaunchScalar(size);
    if (!arg || arg.getOwner() != &fn.front())
      return std::nullopt;
    positions.push_back(arg.getArgNumber());
  }
  return positions;
}

/// The extent of the tensor at `arg` when views start at computed
/// addresses `arg + d` (`ptr + pid * 128`): each such view declares its
/// footprint at the least and the greatest value of d over every compute
/// tile and loop iteration (the interpreter adds it at every value a run
/// takes, which ends at the same element), the others at the argument
/// itself. Returns whether it recorded one; a view it cannot place (an
/// unbounded offset, dynamic sizes) is left to the support check.
static bool recordComputedAddresses(func::FuncOp fn, BlockArgument arg) {
  SmallVector<std::pair<ktdp::ConstructMemoryViewOp, Value>> views;
  fn.walk([&](ktdp::ConstructMemoryViewOp view) {
    if (auto address = ktflow::getViewAddress(view.getOffset());
        address && address->argument == arg)
      views.push_back({view, address->displacement});
  });
  if (llvm::none_of(views, [](auto &v) { return v.second != nullptr; }))
    return false;
  ktflow::TensorExtentBuilder extent;
  Type element;
  for (auto [view, displacement] : views) {
    std::pair<int64_t, int64_t> range{0, 0};
    if (displacement) {
      auto bounds = rangeOf(displacement);
      if (!bounds || bounds->first < 0)
        return false;
      range = *bounds;
    }
    element = cast<MemRefType>(view.getType()).getElementType();
    for (int64_t offset : {range.first, range.second}) {
      auto footprint = ktflow::getViewFootprint(view, offset);
      std::string message;
      if (!footprint || !extent.add(*footprint, message))
        return false;
    }
  }
  ktflow::TensorExtent result = extent.get();
  fn.setArgAttr(arg.getArgNumber(), ktflow::kTensorAttr,
                TypeAttr::get(RankedTensorType::get(result.shape, element)));
  return true;
}

namespace {
struct RecordTensorExtentsPass
    : public ktdf::impl::KTDFRecordTensorExtentsBase<RecordTensorExtentsPass> {
  void runOnOperation() override {
    bool failedAny = false;
    getOperation().walk([&](func::FuncOp fn) {
      if (!fn.isExternal())
        failedAny |= failed(record(fn));
    });
    if (failedAny)
      signalPassFailure();
  }

  /// Records `shape` on `arg`, unless a dynamic size is not a launch scalar
  /// (the support check reports it).
  void recordShape(func::FuncOp fn, BlockArgument arg,
                   const ktflow::DeclaredTensorShape &shape) {
    std::optional<SmallVector<int64_t>> dims =
        launchScalarPositions(fn, shape.dynamicSizes);
    if (!dims)
      return;
    unsigned i = arg.getArgNumber();
    fn.setArgAttr(
        i, ktflow::kTensorAttr,
        TypeAttr::get(RankedTensorType::get(shape.shape, shape.elementType)));
    if (!dims->empty())
      fn.setArgAttr(i, ktflow::kTensorDimsAttr,
                    DenseI64ArrayAttr::get(&getContext(), *dims));
    if (llvm::any_of(shape.dynamicScales, [](int64_t s) { return s != 1; }))
      fn.setArgAttr(i, ktflow::kTensorDimScalesAttr,
                    DenseI64ArrayAttr::get(&getContext(), shape.dynamicScales));
  }

  LogicalResult record(func::FuncOp fn) {
    for (BlockArgument arg : fn.getArguments()) {
      // Views at `arg + n * 64`: a refusal is the support check's to report.
      if (auto scaled = ktflow::getScaledTensorShape(fn, arg)) {
        if (!scaled->refusedAt)
          recordShape(fn, arg, scaled->declared);
        continue;
      }
      if (recordComputedAddresses(fn, arg))
        continue;
      auto views = ktflow::getViewsAtArgument(fn, arg);
      if (views.empty())
        continue;
      FailureOr<ktflow::DeclaredTensorShape> shape =
          ktflow::getDeclaredTensorShape(views);
      if (failed(shape))
        return failure();
      recordShape(fn, arg, *shape);
    }
    std::set<int64_t> addresses;
    fn.walk([&](ktdp::ConstructMemoryViewOp view) {
      APInt literal;
      if (view.getMemorySpaceInterface().getMemoryKind() ==
              ktdp::MemoryKind::global &&
          matchPattern(view.getOffset(), m_ConstantInt(&literal)))
        addresses.insert(literal.getSExtValue());
    });
    SmallVector<NamedAttribute> literals;
    for (int64_t address : addresses) {
      FailureOr<ktflow::DeclaredTensorShape> shape =
          ktflow::getDeclaredTensorShape(
              ktflow::getViewsAtLiteral(fn, address));
      if (failed(shape))
        return failure();
      // Literal views with dynamic sizes are left to the support check.
      if (!shape->dynamicSizes.empty())
        continue;
      literals.push_back(NamedAttribute(
          StringAttr::get(&getContext(), std::to_string(address)),
          TypeAttr::get(
              RankedTensorType::get(shape->shape, shape->elementType))));
    }
    if (!literals.empty())
      fn->setAttr(ktflow::kLiteralTensorsAttr,
                  DictionaryAttr::get(&getContext(), literals));
    return success();
  }
};
} // namespace
