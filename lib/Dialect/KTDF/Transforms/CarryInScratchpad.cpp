//===- CarryInScratchpad.cpp - Loop-carried tensors in the scratchpad -----===//
//
// This file implements --ktdf-carry-in-scratchpad. The scheduler makes one
// pipeline of each compute group of a block, and a pipeline has no value
// that survives from one execution to the next; a loop whose carried
// tensors ktdf-unroll-carried-loops could not unroll (a trip count known
// only at run time: a Triton column-block or K loop up to a plain `index`
// argument) keeps each of them in a scratchpad view of its own instead.
// The loop then stores and reloads that view like a kernel keeping an
// accumulator in its scratchpad: the init before the loop, a load before its
// first use in each trip and a store of what it yields at its end, a load of
// the result after the loop. The lowering orders these accesses with the
// channels of scratchpad views (a trip's drain before the next trip's
// feed, the last trip before later readers); nothing goes through device
// memory, and the value is rounded at each trip exactly as the kernel
// writes it.
//
//===----------------------------------------------------------------------===//

#include "ScratchpadViews.h"

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/IR/Matchers.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFCARRYINSCRATCHPAD
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

bool mlir::ktdf::isCarriedView(Operation *view) {
  return view && view->hasAttr(kCarriedViewAttrName);
}

std::optional<std::string> mlir::ktdf::whyNotCarriable(scf::ForOp loop) {
  for (Value init : loop.getInitArgs()) {
    auto type = dyn_cast<RankedTensorType>(init.getType());
    if (type && type.hasStaticShape() && type.getRank() != 0)
      continue;
    std::string what =
        type ? "a tensor of another shape"
        : init.getType().isIntOrIndex()
            ? "an integer that is not an offset to which each trip adds the "
              "same loop-invariant amount, or one whose value after the "
              "loop is used (ktdf-lower-carried-scalars derives only "
              "those from the induction variable)"
            : "a scalar";
    return "a loop carrying values over a trip count known only at run time "
           "(or over many trips) keeps them in the scratchpad, which needs "
           "statically shaped tensors of rank 1 or more; this one carries " +
           what;
  }
  return std::nullopt;
}

namespace {
class LoopRewriter {
public:
  LoopRewriter(func::FuncOp func) : func(func), cursor(func) {}

  LogicalResult run(scf::ForOp loop) {
    if (std::optional<std::string> reason = whyNotCarriable(loop))
      return loop.emitError(*reason);
    SmallVector<Value> tiles;
    for (Value init : loop.getInitArgs())
      tiles.push_back(
          createTile(cast<RankedTensorType>(init.getType()), loop.getLoc()));
    Location loc = loop.getLoc();
    OpBuilder b(loop);
    for (auto [init, tile] : llvm::zip(loop.getInitArgs(), tiles))
      ktdp::StoreOp::create(b, loc, init, tile);
    auto plain = scf::ForOp::create(b, loc, loop.getLowerBound(),
                                    loop.getUpperBound(), loop.getStep());
    plain.setUnsignedCmp(loop.getUnsignedCmp());
    plain->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
    Block *body = plain.getBody();
    // The old body's ops move in front of the new yield.
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    body->getOperations().splice(
        Block::iterator(body->getTerminator()), loop.getBody()->getOperations(),
        loop.getBody()->begin(), Block::iterator(yield));
    loop.getInductionVar().replaceAllUsesWith(plain.getInductionVar());
    for (auto [arg, tile] : llvm::zip(loop.getRegionIterArgs(), tiles)) {
      if (arg.use_empty())
        continue;
      // Reloaded right before its first use, not at the trip's start: a
      // trip that adds an all-reduce's result to what it carries then
      // reloads after the exchange, and the addition's compute group lies
      // on one side of it (the view changes only at the trip's end).
      // (The old yield, still in the old body, stands for the new store.)
      Operation *first = body->getTerminator();
      for (Operation *user : arg.getUsers())
        if (Operation *op = body->findAncestorOpInBlock(*user);
            op && op->isBeforeInBlock(first))
          first = op;
      b.setInsertionPoint(first);
      Value value = ktdp::LoadOp::create(b, loc, arg.getType(), tile);
      arg.replaceAllUsesWith(value);
    }
    b.setInsertionPoint(body->getTerminator());
    for (auto [next, tile] : llvm::zip(yield.getOperands(), tiles))
      ktdp::StoreOp::create(b, yield.getLoc(), next, tile);
    b.setInsertionPointAfter(plain);
    for (auto [result, tile] : llvm::zip(loop.getResults(), tiles)) {
      if (result.use_empty())
        continue;
      result.replaceAllUsesWith(
          ktdp::LoadOp::create(b, loc, result.getType(), tile));
    }
    loop.erase();
    return success();
  }

private:
  Value createTile(RankedTensorType type, Location loc) {
    return createScratchpadTile(func, cursor, type, loc, kCarriedViewAttrName);
  }

  func::FuncOp func;
  ScratchpadCursor cursor;
};

struct CarryInScratchpadPass
    : public ktdf::impl::KTDFCarryInScratchpadBase<CarryInScratchpadPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      // Post-order: inner loops first; rewriting one replaces only it.
      SmallVector<scf::ForOp> loops;
      func.walk([&](scf::ForOp loop) {
        if (loop.getNumRegionIterArgs() != 0)
          loops.push_back(loop);
      });
      LoopRewriter rewriter(func);
      for (scf::ForOp loop : loops)
        if (failed(rewriter.run(loop)))
          return signalPassFailure();
    }
  }
};
} // namespace
