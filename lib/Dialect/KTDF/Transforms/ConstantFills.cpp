//===- ConstantFills.cpp - Kept chunks started from their constant fill --===//
//
// Part of --ktdf-keep-carried-chunks. After the interchange, the compute
// unit takes each carried chunk from the feed once, before the trips. A
// running sum's chunks come from an earlier pipeline that only fills the
// carried view with a constant (its zeros): the compute unit then starts
// each chunk from that constant instead, and the filling pipeline, its
// sends and stores, goes. The interchanged drain writes every position the
// fill wrote, so the view ends as before.
//
//===----------------------------------------------------------------------===//

#include "KeepCarriedChunks.h"

#include "ktflow/Dialect/KTDF/IR/KTDF.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::carried;

/// Whether `op` moves data to or from `view` (a carried view).
static bool touchesView(Operation *op, Operation *view) {
  return op
      ->walk([&](DataTransferOp t) {
        return carriedViewOf(t.getSrc()) == view ||
                       carriedViewOf(t.getDst()) == view
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Whether nests `a` and `b` walk the same constant space but for their
/// innermost steps, `a`'s `aStep` and `b`'s `bStep`, each dividing the
/// innermost loop's trip.
static bool sameSpaceButSteps(ArrayRef<scf::ForOp> a, ArrayRef<scf::ForOp> b,
                              int64_t aStep, int64_t bStep) {
  if (a.empty() || a.size() != b.size() ||
      !sameSpace(a.drop_back(), b.drop_back()))
    return false;
  std::optional<ConstantBounds> x = constantBounds(a.back()),
                                y = constantBounds(b.back());
  return x && y && x->lower == y->lower && x->upper == y->upper &&
         x->step == aStep && y->step == bStep && aStep > 0 && bStep > 0 &&
         (x->upper - x->lower) % aStep == 0 &&
         (y->upper - y->lower) % bStep == 0;
}

/// The splat constant an earlier pipeline of the block fills `c`'s view
/// with, chunk by chunk at the positions the drain writes (a running sum's
/// zeros), when that pipeline does nothing else and nothing between it and
/// the interchanged pipeline touches the view; sets `fill` to it.
static arith::ConstantOp constantFill(Interchange &ic, CarriedChunk &c,
                                      PipelineOp &fill) {
  Operation *view = carriedViewOf(c.read.getSrc());
  Operation *op = ic.pipeline->getPrevNode();
  for (; op; op = op->getPrevNode()) {
    if (!touchesView(op, view))
      continue;
    fill = dyn_cast<PipelineOp>(op);
    break;
  }
  if (!fill || fill->getNumResults() != 0 || fill.getPerInstance())
    return {};
  SmallVector<DataTransferOp> transfers;
  SmallVector<WriteToFifoOp> gives;
  bool takes = false;
  fill.walk([&](Operation *inner) {
    if (auto t = dyn_cast<DataTransferOp>(inner))
      transfers.push_back(t);
    else if (auto w = dyn_cast<WriteToFifoOp>(inner))
      gives.push_back(w);
    else if (isa<ReadFromFifoOp>(inner))
      takes = true;
  });
  if (takes || transfers.size() != 1 || gives.size() != 1)
    return {};
  DataTransferOp write = transfers.front();
  WriteToFifoOp give = gives.front();
  auto value = give.getValue().getDefiningOp<arith::ConstantOp>();
  auto ours = dyn_cast<RankedTensorType>(c.take.getResult().getType());
  if (write.getSrc() != give.getSlot() || write.getDst() != c.write.getDst() ||
      !value || !isa<SplatElementsAttr>(value.getValue()) || !ours)
    return {};
  auto theirs = cast<RankedTensorType>(value.getType());
  // One constant chunk sent and written per position of the drain's, or,
  // the fill's chunks being of another width (the tiler chose each
  // pipeline's width alone), the fill's innermost loop stepping over the
  // same elements of the row in chunks of its own.
  auto fillNest = chunkNest(write, write->getParentOfType<StageOp>());
  auto giveNest = chunkNest(give, give->getParentOfType<StageOp>());
  auto ourNest = chunkNest(c.write, ic.drain);
  if (!fillNest || !giveNest || !ourNest ||
      theirs.getElementType() != ours.getElementType())
    return {};
  // A carried scalar: one constant element sent and written once, the
  // kept one written once (as a `tensor<1xT>` or the unit's `tensor<T>`).
  if (holdsOneElement(view) && theirs.getNumElements() == 1 &&
      ours.getNumElements() == 1 && oneTrip(*fillNest) && oneTrip(*giveNest) &&
      oneTrip(*ourNest))
    return value;
  if (theirs != ours &&
      !(ours.getRank() == 1 && theirs.getRank() == 1 &&
        sameSpaceButSteps(*fillNest, *ourNest, theirs.getDimSize(0),
                          ours.getDimSize(0)) &&
        sameSpaceButSteps(*giveNest, *ourNest, theirs.getDimSize(0),
                          ours.getDimSize(0))))
    return {};
  if (theirs == ours &&
      (!sameSpace(*fillNest, *ourNest) || !sameSpace(*giveNest, *ourNest)))
    return {};
  for (auto [u, v] : llvm::zip(write.getDstIndices(), c.write.getDstIndices()))
    if (!samePosition(u, *fillNest, v, *ourNest))
      return {};
  return value;
}

void mlir::ktdf::carried::startFromConstants(Interchange &ic) {
  for (CarriedChunk &c : ic.chunks) {
    PipelineOp fill;
    arith::ConstantOp value = constantFill(ic, c, fill);
    if (!value)
      continue;
    OpBuilder b(c.take);
    auto type = cast<RankedTensorType>(c.take.getResult().getType());
    Value start = arith::ConstantOp::create(
        b, value.getLoc(), type,
        SplatElementsAttr::get(type, cast<SplatElementsAttr>(value.getValue())
                                         .getSplatValue<Attribute>()));
    c.take.getResult().replaceAllUsesWith(start);
    Value slot = c.read.getDst();
    SmallVector<Value> positions(c.read.getSrcIndices());
    c.take.erase();
    c.read.erase();
    eraseUnusedPositions(positions);
    if (slot.use_empty())
      slot.getDefiningOp()->erase();
    fill.erase();
  }
}
