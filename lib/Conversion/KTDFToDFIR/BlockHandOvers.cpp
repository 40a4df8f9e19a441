//===- BlockHandOvers.cpp - Buffers handed over where they are moved ------===//
//
// Within one execution of a pipeline, a transfer stage used to wait for
// every buffer an earlier stage fills before its first transfer, and to
// hand every buffer on to a later stage after its last. When the stage
// moves its buffers one after another (the chunk loops of a pass split into
// independent parts by ktdf-tile-streams: the 256x4096 RMSNorm's four
// 1x1024 blocks of a row), that made the feed wait for the row's last
// block before sending the first chunk of its first, and the DMA engine
// wait for the row's last block before storing its first.
//
// Now a transfer stage waits for a buffer of its own pipeline just before
// the chunk loop of such a part (marked ktdf.part) that first moves it, and
// hands one on just after the part's loop that last moves it, when the loop
// runs once per execution (inside loops of one trip): the feed starts on a
// row's first block while the engine loads the others, and the engine
// stores the last row's first blocks while the compute unit works on its
// last. So does a transfer of its own when the stage moves three or more
// buffers of its pipeline that way (the tiles of an unrolled loop: the
// paged attention's SFP starts on the first V page while the engine
// gathers the other seven). Other stages keep their waits and hand-overs
// where they were.
//
//===----------------------------------------------------------------------===//

#include "ProgramBuilder.h"

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

/// The buffers `stage`'s transfers write (`written`) or read.
static llvm::SmallDenseSet<Value, 4> buffersMovedBy(StageOp stage,
                                                    bool written) {
  llvm::SmallDenseSet<Value, 4> buffers;
  stage.walk([&](DataTransferOp transfer) {
    Value buffer = written ? transfer.getDst() : transfer.getSrc();
    if (isa<MemRefType>(buffer.getType()))
      buffers.insert(buffer);
  });
  return buffers;
}

/// Whether `stage` moves at least three buffers that other transfer stages
/// of its pipeline fill (`isReader`) or empty, each by a transfer of its
/// own: the tiles of a loop ktdf-unroll-carried-loops unrolled (a paged
/// attention's eight V pages), which the unit can take one by one. With
/// two (a product's operands, an attention's K^T and V blocks) the wait
/// moves past one transfer, which was not faster on every kernel: the
/// 1024x1024x128 attention on mesh_device came 0.25 % slower (its tiles'
/// last DMAs later on the shared HBM).
static bool movesUnrolledTiles(StageOp stage, bool isReader) {
  llvm::SmallPtrSet<Operation *, 8> others;
  for (Operation &op : stage.getBody().front()) {
    auto transfer = dyn_cast<DataTransferOp>(op);
    if (!transfer)
      continue;
    Value buffer = isReader ? transfer.getSrc() : transfer.getDst();
    if (!isa<MemRefType>(buffer.getType()))
      continue;
    for (Operation *user : buffer.getUsers())
      if (auto mover = user->getParentOfType<StageOp>();
          mover && mover != stage && !mover.isCompute() &&
          mover->getParentOp() == stage->getParentOp())
        others.insert(mover);
  }
  return others.size() >= 3;
}

Operation *ProgramBuilder::handOverPoint(const Channel &ch, bool isReader) {
  StageOp stage = isReader ? ch.to : ch.from;
  StageOp other = isReader ? ch.from : ch.to;
  if (ch.copies != 0 || ch.exported || ch.carry || ch.kept ||
      !ch.sendLoops.empty() || stage->getParentOp() != other->getParentOp() ||
      stage.isCompute() || other.isCompute() || getAllReduce(stage) ||
      getTileCopy(stage))
    return nullptr;
  // The reader waits for what the other stage writes; the writer hands on
  // what the other stage reads.
  llvm::SmallDenseSet<Value, 4> buffers =
      buffersMovedBy(other, /*written=*/isReader);
  if (buffers.empty())
    return nullptr;
  // Only worth it when the stage moves other data first (last): a point
  // that is the stage's first (last) mover changes nothing.
  bool othersOutside = false;
  Block *block = &stage.getBody().front();
  while (block) {
    SmallVector<Operation *> ops;
    for (Operation &op : *block)
      ops.push_back(&op);
    if (!isReader)
      std::reverse(ops.begin(), ops.end());
    Block *inner = nullptr;
    for (Operation *op : ops) {
      if (!transfersAny(op, buffers, /*orWrites=*/true)) {
        othersOutside |= op->walk([](DataTransferOp) {
                             return WalkResult::interrupt();
                           }).wasInterrupted();
        continue;
      }
      auto loop = dyn_cast<scf::ForOp>(op);
      if (!loop || !runsOnce(loop))
        return othersOutside && (op->hasAttr(kPartLoopAttrName) ||
                                 (isa<DataTransferOp>(op) &&
                                  movesUnrolledTiles(stage, isReader)))
                   ? op
                   : nullptr;
      inner = loop.getBody();
      break;
    }
    block = inner;
  }
  return nullptr;
}
