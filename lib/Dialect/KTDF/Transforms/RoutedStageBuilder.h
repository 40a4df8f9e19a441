//===- RoutedStageBuilder.h - Pieces of a routed pipeline -------*- C++ -*-===//
//
// This file defines the builder --ktdf-route-transfers (RouteTransfers.cpp)
// spells a routed pipeline with: FIFO slots and buffers on device nodes,
// and the DMA, feed, compute and drain stages bound to units.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_ROUTEDSTAGEBUILDER_H
#define KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_ROUTEDSTAGEBUILDER_H

#include "ktflow/Device/DeviceModel.h"
#include "ktflow/Dialect/KTDF/IR/KTDF.h"

namespace mlir::ktdf {

/// Buffers keep the tile's rows (leading dimensions flattened) and columns.
inline SmallVector<int64_t> bufferShape(ArrayRef<int64_t> tile) {
  if (tile.size() <= 2)
    return llvm::to_vector(tile);
  int64_t rows = 1;
  for (int64_t d : tile.drop_back())
    rows *= d;
  return {rows, tile.back()};
}

/// Spells the pieces of a routed pipeline at the builder's insertion point:
/// private FIFO slots and buffers on device nodes, and stages bound to a
/// unit that run one or several transfers.
class RoutedStageBuilder {
public:
  RoutedStageBuilder(const ktflow::device::DeviceModel &model,
                     PipelineOp pipeline)
      : model(model), pipeline(pipeline), builder(pipeline.getContext()),
        ctx(pipeline.getContext()) {}

  OpBuilder &getBuilder() { return builder; }

  Value makeSlot(ktflow::device::NodeId from, ktflow::device::NodeId to,
                 FifoSlotType logical) {
    auto type =
        FifoSlotType::get(ctx, builder.getStringAttr(model.getNode(from).name),
                          builder.getStringAttr(model.getNode(to).name),
                          logical.getShape(), logical.getElementType());
    return makePrivate(type);
  }

  Value makeBuffer(ktflow::device::NodeId memory, FifoSlotType logical) {
    return makeBuffer(memory, getBufferType(bufferShape(logical.getShape()),
                                            logical.getElementType(), ""));
  }
  Value makeBuffer(ktflow::device::NodeId memory, MemRefType like) {
    auto type = getBufferType(like.getShape(), like.getElementType(),
                              model.getNode(memory).getKind());
    return makePrivate(type);
  }

  /// A stage running one transfer, producing `tokens` tokens; the
  /// transfer reads `stagedIndices` (an indirect tile's index buffers).
  SmallVector<Value> makeStage(StringRef name, ValueRange deps, unsigned tokens,
                               UnitRole role, ktflow::device::NodeId unit,
                               Location loc, Value src, Value dst,
                               ValueRange stagedIndices = {}) {
    SmallVector<Type> types(tokens, TokenType::get(ctx));
    auto stage = StageOp::create(
        builder, loc, types, builder.getStringAttr(name), deps, rolesAttr(role),
        builder.getStringAttr(model.getNode(unit).name));
    OpBuilder::InsertionGuard guard(builder);
    builder.createBlock(&stage.getBody());
    DataTransferOp::create(builder, loc, src, ValueRange{}, dst, ValueRange{},
                           Value(), stagedIndices);
    return SmallVector<Value>(stage.getResults());
  }

  /// A stage running several transfers in order; returns its token.
  Value makeMultiStage(StringRef name, ValueRange deps, UnitRole role,
                       ktflow::device::NodeId unit, Location loc,
                       ArrayRef<std::pair<Value, Value>> transfers) {
    auto stage =
        StageOp::create(builder, loc, TypeRange{TokenType::get(ctx)},
                        builder.getStringAttr(name), deps, rolesAttr(role),
                        builder.getStringAttr(model.getNode(unit).name));
    OpBuilder::InsertionGuard guard(builder);
    builder.createBlock(&stage.getBody());
    for (auto [src, dst] : transfers)
      DataTransferOp::create(builder, loc, src, ValueRange{}, dst,
                             ValueRange{});
    return stage.getResult(0);
  }

  /// The compute stage, cloned after `feedToken` and bound to `unit`,
  /// which plays `role`.
  StageOp moveCompute(StageOp compute, Value feedToken,
                      ktflow::device::NodeId unit, UnitRole role) {
    auto moved = cast<StageOp>(builder.clone(*compute.getOperation()));
    moved->setOperands(ValueRange{feedToken});
    moved.setUnitAttr(builder.getStringAttr(model.getNode(unit).name));
    moved.setApplicableUnitsAttr(rolesAttr(role));
    return moved;
  }

private:
  Value makePrivate(Type type) {
    return PrivateOp::create(builder, pipeline.getLoc(), type, IntegerAttr());
  }

  ArrayAttr rolesAttr(UnitRole role) {
    return builder.getArrayAttr({UnitRoleAttr::get(ctx, role)});
  }

  const ktflow::device::DeviceModel &model;
  PipelineOp pipeline;
  OpBuilder builder;
  MLIRContext *ctx;
};

} // namespace mlir::ktdf

#endif // KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_ROUTEDSTAGEBUILDER_H
