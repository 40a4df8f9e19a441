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

  LogicalResult record(func::FuncOp fn) {
    for (BlockArgument arg : fn.getArguments()) {
      auto views = ktflow::getViewsAtArgument(fn, arg);
      if (views.empty())
        continue;
      FailureOr<ktflow::DeclaredTensorShape> shape =
          ktflow::getDeclaredTensorShape(views);
      if (failed(shape))
        return failure();
      std::optional<SmallVector<int64_t>> dims =
          launchScalarPositions(fn, shape->dynamicSizes);
      if (!dims)
        continue;
      unsigned i = arg.getArgNumber();
      fn.setArgAttr(i, ktflow::kTensorAttr,
                    TypeAttr::get(RankedTensorType::get(
                        shape->shape, shape->elementType)));
      if (!dims->empty())
        fn.setArgAttr(i, ktflow::kTensorDimsAttr,
                      DenseI64ArrayAttr::get(&getContext(), *dims));
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
