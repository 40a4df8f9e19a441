//===- SpecialViews.cpp - Views beyond one tensor argument ----------------===//
//
// This file lowers views of the tiles' scratchpads and reports views at
// computed addresses (SpecialViews.h).
//
//===----------------------------------------------------------------------===//

#include "SpecialViews.h"
#include "TileFunction.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::jit;

static Value indexConstant(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// The constant lower bound of each dimension of a view's coordinate_set
/// (its constraints `d - c >= 0` or `d - c == 0` without symbols), or
/// failure when some dimension's lower bound depends on the symbols.
FailureOr<SmallVector<int64_t>>
ktflow::jit::constantLowerBounds(IntegerSet set) {
  unsigned numDims = set.getNumDims();
  SmallVector<std::optional<int64_t>> lower(numDims);
  for (unsigned c = 0; c < set.getNumConstraints(); ++c) {
    AffineExpr expr = set.getConstraint(c);
    for (unsigned d = 0; d < numDims; ++d) {
      if (!expr.isFunctionOfDim(d))
        continue;
      // expr = coefficient * d + rest, rest a constant.
      AffineExpr rest =
          expr.replace(getAffineDimExpr(d, expr.getContext()),
                       getAffineConstantExpr(0, expr.getContext()));
      auto constant = dyn_cast<AffineConstantExpr>(rest);
      AffineExpr once =
          expr.replace(getAffineDimExpr(d, expr.getContext()),
                       getAffineConstantExpr(1, expr.getContext()));
      auto atOne = dyn_cast<AffineConstantExpr>(once);
      if (!constant || !atOne)
        continue;
      int64_t coefficient = atOne.getValue() - constant.getValue();
      // Only `d + rest >= 0` (or == 0) bounds d from below by -rest.
      if (coefficient == 1)
        lower[d] = std::max(lower[d].value_or(INT64_MIN), -constant.getValue());
    }
  }
  SmallVector<int64_t> bounds;
  for (std::optional<int64_t> bound : lower) {
    if (!bound)
      return failure();
    bounds.push_back(*bound);
  }
  return bounds;
}

/// Reports the footprint of a view at a computed address as it is built
/// (kViewFunctionName): the tensor grows to hold it, as in the interpreter.
LogicalResult ktflow::jit::reportComputedView(OpBuilder &b, Location loc,
                                              const ViewLowering &view,
                                              std::string &why) {
  unsigned rank = view.sizes.size();
  if (rank > kMaxReportedViewRank) {
    why = "a view of rank above " + std::to_string(kMaxReportedViewRank) +
          " at a computed address";
    return failure();
  }
  SmallVector<Value> operands = {indexConstant(b, loc, view.buffer),
                                 view.relativeOffset,
                                 indexConstant(b, loc, rank)};
  for (ArrayRef<Value> values : {ArrayRef(view.sizes), ArrayRef(view.strides)})
    for (unsigned d = 0; d < kMaxReportedViewRank; ++d)
      operands.push_back(d < rank ? values[d] : indexConstant(b, loc, 0));
  auto module = b.getBlock()->getParentOp()->getParentOfType<ModuleOp>();
  if (!module.lookupSymbol(kViewFunctionName)) {
    OpBuilder declare = OpBuilder::atBlockBegin(module.getBody());
    SmallVector<Type> types(operands.size(), b.getIndexType());
    func::FuncOp::create(declare, loc, kViewFunctionName,
                         declare.getFunctionType(types, {}))
        .setPrivate();
  }
  func::CallOp::create(b, loc, kViewFunctionName, TypeRange{}, operands);
  return success();
}

/// A view of a scratchpad: of the executing tile's, or of the tile its
/// memory space names. Building it is an error where the interpreter's is:
/// a tile outside the grid, a negative address, or bytes past the
/// capacity (docs/interpreter.md §2); the error is recorded in the status
/// buffer and the accesses stay inside the buffer.
LogicalResult ktflow::jit::lowerScratchpadView(
    ktdp::ConstructMemoryViewOp view, const Scratchpads &scratchpads,
    DenseMap<Value, ViewLowering> &views, std::string &why) {
  FailureOr<SmallVector<int64_t>> lower =
      constantLowerBounds(view.getCoordinateSet());
  if (failed(lower)) {
    why = "a view's coordinate_set has a lower bound that depends on its "
          "sizes";
    return failure();
  }
  OpBuilder b(view->getContext());
  b.setInsertionPointAfter(view);
  Location loc = view.getLoc();
  ViewLowering lowering;
  lowering.buffer = scratchpads.buffer;
  lowering.bufferValue = scratchpads.bufferValue;
  lowering.set = view.getCoordinateSet();
  lowering.lower = *lower;
  Value zero = indexConstant(b, loc, 0);
  Value owner = scratchpads.tileId;
  if (std::optional<int64_t> id =
          view.getMemorySpaceInterface().getComputeTileId())
    owner = indexConstant(b, loc, *id);
  // Bad: a tile outside the grid, or the view's elements [lo, hi] outside
  // [0, capacity) when it has any.
  Value bad = arith::OrIOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, owner, zero),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, owner,
                            indexConstant(b, loc, scratchpads.numTiles)));
  Value lo = view.getOffset(), hi = view.getOffset();
  Value empty = arith::ConstantIntOp::create(b, loc, 0, 1);
  auto materialize = [&](OpFoldResult ofr) -> Value {
    if (auto v = dyn_cast<Value>(ofr))
      return v;
    return indexConstant(b, loc, *getConstantIntValue(ofr));
  };
  for (auto [sizeOfr, strideOfr] :
       llvm::zip(view.getMixedSizes(), view.getMixedStrides())) {
    Value size = materialize(sizeOfr), stride = materialize(strideOfr);
    lowering.sizes.push_back(size);
    lowering.strides.push_back(stride);
    if (isa<Value>(sizeOfr))
      lowering.setSymbols.push_back(cast<Value>(sizeOfr));
    empty = arith::OrIOp::create(
        b, loc, empty,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, size, zero));
    Value span = arith::MulIOp::create(
        b, loc, arith::SubIOp::create(b, loc, size, indexConstant(b, loc, 1)),
        stride);
    lo = arith::AddIOp::create(b, loc, lo,
                               arith::MinSIOp::create(b, loc, span, zero));
    hi = arith::AddIOp::create(b, loc, hi,
                               arith::MaxSIOp::create(b, loc, span, zero));
  }
  if (lowering.setSymbols.size() != lowering.set.getNumSymbols()) {
    why = "a view's coordinate_set symbols do not match its dynamic sizes";
    return failure();
  }
  Value outside = arith::OrIOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, lo, zero),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, hi,
                            indexConstant(b, loc, scratchpads.capacity)));
  bad = arith::OrIOp::create(
      b, loc, bad,
      arith::AndIOp::create(
          b, loc, outside,
          arith::XOrIOp::create(b, loc, empty,
                                arith::ConstantIntOp::create(b, loc, 1, 1))));
  scf::IfOp::create(b, loc, bad, [&](OpBuilder &then, Location l) {
    memref::StoreOp::create(
        then, l, arith::ConstantIntOp::create(then, l, kErrorOutsideMemory, 64),
        scratchpads.status, ValueRange{indexConstant(then, l, kStatusError)});
    scf::YieldOp::create(then, l);
  });
  // A bad owner addresses tile 0's scratchpad instead (the run is
  // discarded).
  Value safeOwner = arith::SelectOp::create(b, loc, bad, zero, owner);
  lowering.relativeOffset = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, safeOwner,
                            indexConstant(b, loc, scratchpads.capacity)),
      view.getOffset());
  views[view.getResult()] = std::move(lowering);
  return success();
}

/// The footprint of a view every tile builds (one in the entry block) at
/// its tensor argument plus a constant, of constant sizes and strides:
/// known before the run, so its tensor's buffer can hold it from the start
/// instead of a rerun (GrownViews.h).
std::optional<ViewFootprint>
ktflow::jit::entryFootprint(ktdp::ConstructMemoryViewOp view, Block *entry,
                            Value argument) {
  auto add = view.getOffset().getDefiningOp<arith::AddIOp>();
  if (view->getBlock() != entry || !add)
    return std::nullopt;
  APInt constant;
  Value other = add.getLhs() == argument   ? add.getRhs()
                : add.getRhs() == argument ? add.getLhs()
                                           : Value();
  if (!other || !matchPattern(other, m_ConstantInt(&constant)))
    return std::nullopt;
  ViewFootprint footprint;
  footprint.offset = constant.getSExtValue();
  for (OpFoldResult size : view.getMixedSizes()) {
    std::optional<int64_t> v = getConstantIntValue(size);
    if (!v)
      return std::nullopt;
    footprint.sizes.push_back(*v);
  }
  for (OpFoldResult stride : view.getMixedStrides()) {
    std::optional<int64_t> v = getConstantIntValue(stride);
    if (!v)
      return std::nullopt;
    footprint.strides.push_back(*v);
  }
  return footprint;
}
