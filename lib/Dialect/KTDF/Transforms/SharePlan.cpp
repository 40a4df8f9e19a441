//===- SharePlan.cpp - Loops whose left operands copies can share ---------===//
//
// This file implements SharePlan.h: the shape ktdf-share-left-operands
// rewrites, checked op by op, and the trips its exchange view holds (all of
// them for a constant upper bound, else those whose right operand starts
// inside its view and one standing for every later trip).
//
//===----------------------------------------------------------------------===//

#include "SharePlan.h"
#include "GateColumns.h"

#include "ktflow/Dialect/KTDF/Transforms/TileBounds.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::ktdf;

/// The trips of `loop` (from its lower bound by its step) whose tile of
/// `load` may start inside its view: the tile is anchored at the loop
/// variable (plus a constant) along some dimension of static extent.
static std::optional<int64_t> tripsInside(ktdp::LoadOp load, scf::ForOp loop,
                                          const SharePlan &plan) {
  auto tile = load.getAccessTile().getDefiningOp<ktdp::ConstructAccessTileOp>();
  auto view = ktdp::getAccessTileView(load.getAccessTile());
  if (!tile || !view || !tile.getSymbolOperands().empty())
    return std::nullopt;
  std::optional<int64_t> best;
  for (auto [d, result] : llvm::enumerate(tile.getBaseMap().getResults())) {
    int64_t offset = 0;
    AffineExpr expr = result;
    if (auto sum = dyn_cast<AffineBinaryOpExpr>(expr);
        sum && sum.getKind() == AffineExprKind::Add)
      if (auto c = dyn_cast<AffineConstantExpr>(sum.getRHS())) {
        offset = c.getValue();
        expr = sum.getLHS();
      }
    auto dim = dyn_cast<AffineDimExpr>(expr);
    std::optional<int64_t> extent = staticViewExtent(view, d);
    if (!dim ||
        tile.getIndices()[dim.getPosition()] != loop.getInductionVar() ||
        !extent)
      continue;
    // Trip t starts at lb + t * step + offset: inside while below extent.
    int64_t room = *extent - offset - plan.lb;
    int64_t trips = room <= 0 ? 0 : (room + plan.step - 1) / plan.step;
    best = std::min(best.value_or(INT64_MAX), trips);
  }
  return best;
}

FailureOr<SharePlan> mlir::ktdf::planSharing(scf::ForOp loop) {
  SharePlan plan;
  plan.loop = loop;
  APInt lb, step;
  if (loop.getNumRegionIterArgs() != 1 ||
      !matchPattern(loop.getLowerBound(), m_ConstantInt(&lb)) ||
      !matchPattern(loop.getStep(), m_ConstantInt(&step)) ||
      lb.getSExtValue() < 0 || step.getSExtValue() <= 0)
    return failure();
  plan.lb = lb.getSExtValue();
  plan.step = step.getSExtValue();
  Block *body = loop.getBody();
  Value acc = loop.getRegionIterArgs()[0];
  auto product = loop.getYieldedValues()[0].getDefiningOp<linalg::MatmulOp>();
  if (!product || product->getBlock() != body || product.hasUserDefinedMaps() ||
      product.getOutputs()[0] != acc || !acc.hasOneUse())
    return failure();
  plan.product = product;
  Value left = product.getInputs()[0];
  auto leftType = dyn_cast<RankedTensorType>(left.getType());
  Operation *leftDef = left.getDefiningOp();
  if (!leftType || leftType.getRank() != 2 || !leftType.hasStaticShape() ||
      !leftDef || leftDef->getBlock() != body ||
      isa<ktdp::LoadOp, arith::ExtFOp>(leftDef))
    return failure();
  auto right = product.getInputs()[1].getDefiningOp<ktdp::LoadOp>();
  if (!right || right->getBlock() != body)
    return failure();

  llvm::SetVector<Operation *> leftOps, rightOps, outside, rightOutside;
  if (failed(collectLoopSlice(left, body, leftOps, outside)) ||
      failed(collectLoopSlice(right, body, rightOps, rightOutside)))
    return failure();
  // Nothing else in the body: the gate's computation, the right operand's
  // load, the product.
  for (Operation &op : body->without_terminator())
    if (&op != product && !leftOps.contains(&op) && !rightOps.contains(&op))
      return failure();
  for (Operation *op : leftOps)
    if (!isa<ktdp::LoadOp>(op) && !isMemoryEffectFree(op))
      return failure();
  for (Operation *op : outside)
    if (op->getBlock() != loop->getBlock() ||
        !isa<ktdp::LoadOp, arith::ConstantOp, tensor::EmptyOp>(op))
      return failure();
  plan.slice.assign(leftOps.begin(), leftOps.end());
  llvm::sort(plan.slice,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  plan.outside.assign(outside.begin(), outside.end());
  llvm::sort(plan.outside,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });

  // The trips the exchange view holds: all of them for a constant bound,
  // else those whose right operand starts inside its view and one for all
  // later trips.
  APInt ub;
  if (matchPattern(loop.getUpperBound(), m_ConstantInt(&ub))) {
    plan.trips = (ub.getSExtValue() - plan.lb + plan.step - 1) / plan.step;
  } else {
    std::optional<int64_t> inside = tripsInside(right, loop, plan);
    if (!inside)
      return failure();
    plan.trips = *inside + 1;
    plan.clamped = true;
    // Past them, the gate's loads read zeros and the loop variable reaches
    // nothing else: every later trip computes the same gate.
    Value iv = loop.getInductionVar();
    for (Operation *user : iv.getUsers())
      if (leftOps.contains(body->findAncestorOpInBlock(*user)) &&
          !isa<ktdp::ConstructAccessTileOp>(user))
        return failure();
    for (Operation *op : leftOps)
      if (auto load = dyn_cast<ktdp::LoadOp>(op)) {
        auto tile =
            load.getAccessTile().getDefiningOp<ktdp::ConstructAccessTileOp>();
        if (!tile ||
            (llvm::is_contained(tile.getIndices(), iv) &&
             tripsInside(load, loop, plan).value_or(INT64_MAX) > *inside))
          return failure();
      }
  }
  if (plan.trips < 2)
    return failure();
  return plan;
}
