//===- LinalgBind.cpp - Binding a linalg op's operands --------------------===//
//
// This file binds the operands of one execution of a linalg op to the
// tile's values and checks them against the decoded plan: ranks and element
// types, the loop extents every operand must agree on, and (for linear
// indexing maps) the flat offset of each operand over the loop nest, whose
// range must stay inside the operand. It also picks the column dimension:
// the parallel loop along which iteration points write distinct output
// elements.
//
//===----------------------------------------------------------------------===//

#include "BufferPool.h"
#include "LinalgRun.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;
using namespace ktflow::interp;

LogicalResult LinalgRun::bindOperands() {
  auto linalgOp = cast<linalg::LinalgOp>(op);
  unsigned total = plan.numInputs + plan.numOutputs;
  for (unsigned o = 0; o < total; ++o) {
    Value v = linalgOp->getOperand(o);
    const RValue &value = exec.get(v);
    LinalgOperand operand;
    if (value.isScalar()) {
      if (o >= plan.numInputs)
        return exec.error(op) << "outputs must be tensors";
      operand.isScalar = true;
      operand.dtype = value.scalar().dtype;
    } else if (value.isTensor()) {
      const Tensor &t = *value.tensor();
      if (static_cast<int64_t>(plan.maps[o].getNumResults()) != t.rank())
        return exec.error(op) << "type mismatch: operand #" << o << " has rank "
                              << t.rank() << " but its indexing map has "
                              << plan.maps[o].getNumResults() << " results";
      operand.dtype = t.dtype;
      if (o >= plan.numInputs) {
        unsigned k = o - plan.numInputs;
        bool wide = !plan.wideOutputs.empty() && plan.wideOutputs[k];
        if (wide && t.dtype != *plan.wideOutputs[k])
          return exec.error(op)
                 << "type mismatch: operand #" << o << " holds "
                 << dtypeName(t.dtype) << " but the body expects "
                 << dtypeName(*plan.wideOutputs[k]);
        inits.push_back(&t);
        outputs.push_back(wide ? makeWideOutput(plan, t) : makeTensorCopy(t));
        operand.dtype = outputs.back()->dtype;
        operand.output = outputs.back().get();
        operand.tensor = operand.output;
      } else {
        operand.tensor = &t;
      }
      operand.strides = rowMajorStrides(t.shape);
    } else {
      return exec.error(op)
             << "operand #" << o << " must be a tensor or a scalar";
    }
    // Block arguments must see exactly their declared element type.
    int slot = o < plan.numInputs ? static_cast<int>(o)
                                  : plan.outputSlot(o - plan.numInputs);
    if (slot >= 0 && plan.slotTypes[slot] != operand.dtype)
      return exec.error(op)
             << "type mismatch: operand #" << o << " holds "
             << dtypeName(operand.dtype) << " but the body expects "
             << dtypeName(plan.slotTypes[slot]);
    operands.push_back(std::move(operand));
  }
  return success();
}

LogicalResult LinalgRun::computeRanges() {
  ranges.assign(plan.numLoops, -1);
  for (auto [o, map] : llvm::enumerate(plan.maps)) {
    if (operands[o].isScalar)
      continue;
    for (auto [r, expr] : llvm::enumerate(map.getResults())) {
      auto dim = dyn_cast<AffineDimExpr>(expr);
      if (!dim)
        continue;
      int64_t extent = operands[o].tensor->shape[r];
      int64_t &range = ranges[dim.getPosition()];
      if (range >= 0 && range != extent)
        return exec.error(op)
               << "type mismatch: loop " << dim.getPosition() << " has extent "
               << range << " from one operand and " << extent
               << " from operand #" << o;
      range = extent;
    }
  }
  for (auto [d, range] : llvm::enumerate(ranges))
    if (range < 0)
      return exec.error(op) << "cannot infer the extent of loop " << d;
  return success();
}

LogicalResult LinalgRun::checkLinearBounds() {
  for (auto [o, operand] : llvm::enumerate(operands)) {
    operand.coeff.assign(plan.numLoops, 0);
    operand.constant = 0;
    if (operand.isScalar)
      continue;
    for (auto [r, expr] : llvm::enumerate(plan.exprs[o])) {
      std::optional<int64_t> rest =
          expr.eval(SmallVector<int64_t, 4>(plan.numLoops, 0), {});
      if (!rest)
        return exec.error(op) << "cannot evaluate indexing map #" << o;
      int64_t lo = *rest, hi = *rest;
      for (unsigned d = 0; d < plan.numLoops; ++d) {
        int64_t c = expr.coeffs[d];
        int64_t span = c * (ranges[d] - 1);
        (span < 0 ? lo : hi) += span;
        operand.coeff[d] += c * operand.strides[r];
      }
      operand.constant += *rest * operand.strides[r];
      int64_t size = operand.tensor->shape[r];
      if (lo < 0 || hi >= size)
        return exec.error(op) << "type mismatch: indexing map #" << o
                              << " reaches index " << (lo < 0 ? lo : hi)
                              << " of dim " << r << ", whose size is " << size;
    }
  }
  return success();
}

/// A parallel loop that every output map uses as a plain result and no
/// other output result mentions, with the largest extent; -1 if none.
int LinalgRun::chooseColumnDim() const {
  int best = -1;
  for (unsigned d = 0; d < plan.numLoops; ++d) {
    if (plan.isReduction[d])
      continue;
    bool ok = true;
    for (unsigned k = 0; k < plan.numOutputs && ok; ++k) {
      bool plain = false;
      for (AffineExpr expr : plan.maps[plan.numInputs + k].getResults()) {
        if (expr == getAffineDimExpr(d, op->getContext()))
          plain = true;
        else if (expr.isFunctionOfDim(d))
          ok = false;
      }
      ok &= plain;
    }
    if (ok && (best < 0 || ranges[d] > ranges[best]))
      best = static_cast<int>(d);
  }
  return best;
}
