//===- StreamWideRows.cpp - Rows wider than the scratchpad, in chunks -----===//
//
// This file implements --ktdf-stream-wide-rows: the scheduler keeps every
// tensor of a compute group in the scratchpad, so a row of 262,144 f16
// (512 KiB) cannot be softmaxed whole on a device whose scratchpad is that
// size. Each consumer of such rows (a reduction along the row, a store)
// becomes a loop over column chunks that re-reads its loads from device
// memory and recomputes the element-wise chain on the chunk; the loops the
// pass makes are ordinary carried loops for the rest of the pipeline.
//
//===----------------------------------------------------------------------===//

#include "SplitGathers.h"
#include "TileSlices.h"
#include "WideRows.h"

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFSTREAMWIDEROWS
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

namespace {
/// One chunk loop: the consumers it redoes, placed at the first of them.
struct ChunkLoop {
  SmallVector<Operation *> sinks;
  llvm::SetVector<Operation *> slice;
  Operation *at() const { return sinks.front(); }
};
} // namespace

/// Whether `v` is defined before `point`, which is in `v`'s block or
/// nested under it.
static bool isAvailableAt(Value v, Operation *point) {
  Operation *def = v.getDefiningOp();
  if (!def || def->getBlock() != point->getBlock())
    return true;
  return def->isBeforeInBlock(point);
}

/// The values `op` reads from outside the group: operands that are not
/// row tensors of the group, what its regions capture, and for loads and
/// stores the operands of their access tile (the loop rebuilds the tile).
static SmallVector<Value> externalInputs(const WideRowGroup &group,
                                         Operation *op) {
  SmallVector<Value> inputs;
  for (Value v : op->getOperands()) {
    Operation *def = v.getDefiningOp();
    if (def && group.rowOps.contains(def))
      continue;
    if (auto tile = v.getDefiningOp<ktdp::ConstructAccessTileOp>())
      llvm::append_range(inputs, tile->getOperands());
    else
      inputs.push_back(v);
  }
  llvm::SetVector<Value> captured;
  for (Region &region : op->getRegions())
    getUsedValuesDefinedAbove(region, captured);
  llvm::append_range(inputs, captured);
  return inputs;
}

/// Whether an op between `from` and `to` (either order, same block, both
/// excluded) other than the loop's own consumers may write memory that
/// moving `moved` to the loop reorders against: a load moved past a
/// store, or a store moved past any memory access.
static bool crossesMemoryAccess(Operation *moved, const ChunkLoop &loop) {
  Operation *from = moved, *to = loop.at();
  if (to->isBeforeInBlock(from))
    std::swap(from, to);
  bool isStore = isa<ktdp::StoreOp>(moved);
  for (Operation *op = from->getNextNode(); op && op != to;
       op = op->getNextNode()) {
    if (llvm::is_contained(loop.sinks, op))
      continue;
    bool touches = op->walk([&](Operation *inner) {
                       if (isa<ktdp::StoreOp>(inner) ||
                           (isStore && isa<ktdp::LoadOp>(inner)))
                         return WalkResult::interrupt();
                       return WalkResult::advance();
                     }).wasInterrupted();
    if (touches)
      return true;
  }
  return false;
}

/// Groups the consumers into loops in block order: a consumer joins the
/// current loop when everything it reads from outside the group exists
/// where that loop starts. Fails (with the reason) when a consumer's loads
/// or stores cannot move to their loop.
static FailureOr<SmallVector<ChunkLoop>> planLoops(const WideRowGroup &group,
                                                   std::string &reason) {
  SmallVector<ChunkLoop> loops;
  for (Operation *sink : group.sinks) {
    SmallVector<Operation *> slice = sliceOf(group, sink);
    auto fitsAt = [&](Operation *point) {
      auto ready = [&](Operation *op) {
        return llvm::all_of(externalInputs(group, op),
                            [&](Value v) { return isAvailableAt(v, point); });
      };
      return ready(sink) && llvm::all_of(slice, ready);
    };
    if (loops.empty() || !fitsAt(loops.back().at()))
      loops.emplace_back();
    loops.back().sinks.push_back(sink);
    loops.back().slice.insert(slice.begin(), slice.end());
  }
  for (ChunkLoop &loop : loops) {
    auto moved = llvm::to_vector(loop.slice);
    llvm::append_range(moved, loop.sinks);
    for (Operation *op : moved)
      if (isa<ktdp::LoadOp, ktdp::StoreOp>(op) &&
          crossesMemoryAccess(op, loop)) {
        reason = "a store between a load of the row and the consumer that "
                 "re-reads it (or a memory access between a store of the "
                 "row and the loop that makes it) would be reordered";
        return failure();
      }
    SmallVector<Operation *> ordered(loop.slice.begin(), loop.slice.end());
    llvm::sort(ordered, [](Operation *a, Operation *b) {
      return a->isBeforeInBlock(b);
    });
    loop.slice = llvm::SetVector<Operation *>(ordered.begin(), ordered.end());
  }
  return loops;
}

/// `type` with its last dimension `chunk` columns wide.
static RankedTensorType chunkType(Type type, int64_t chunk) {
  auto ranked = cast<RankedTensorType>(type);
  SmallVector<int64_t> shape(ranked.getShape());
  shape.back() = chunk;
  return ranked.clone(shape);
}

/// Redoes one row op of the slice on the chunk starting at `column`.
static void cloneOnChunk(OpBuilder &b, Operation *op, Value column,
                         int64_t chunk, IRMapping &mapping) {
  if (auto load = dyn_cast<ktdp::LoadOp>(op)) {
    Value tile = buildColumnSlice(b, load.getAccessTile(), column, chunk);
    mapping.map(load.getResult(),
                ktdp::LoadOp::create(b, load.getLoc(),
                                     chunkType(load.getType(), chunk), tile));
    return;
  }
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    auto splat = cast<SplatElementsAttr>(constant.getValue());
    RankedTensorType type = chunkType(constant.getType(), chunk);
    mapping.map(
        constant.getResult(),
        arith::ConstantOp::create(
            b, constant.getLoc(), type,
            SplatElementsAttr::get(type, splat.getSplatValue<Attribute>())));
    return;
  }
  Operation *copy = b.clone(*op, mapping);
  for (OpResult result : copy->getResults())
    result.setType(chunkType(result.getType(), chunk));
}

/// Computes the consumers of `loop` in one scf.for over the row's chunks
/// and makes their users read its results (the consumers stay, unused).
static void emitChunkLoop(const WideRowGroup &group, const ChunkLoop &loop,
                          int64_t chunk) {
  OpBuilder b(loop.at());
  Location loc = loop.at()->getLoc();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value width = arith::ConstantIndexOp::create(b, loc, group.width);
  Value step = arith::ConstantIndexOp::create(b, loc, chunk);
  SmallVector<Value> inits;
  for (Operation *sink : loop.sinks)
    if (auto reduction = dyn_cast<DestinationStyleOpInterface>(sink))
      llvm::append_range(inits, reduction.getDpsInits());
  auto forOp = scf::ForOp::create(b, loc, zero, width, step, inits);
  b.setInsertionPointToStart(forOp.getBody());
  Value column = forOp.getInductionVar();
  IRMapping mapping;
  for (Operation *op : loop.slice)
    cloneOnChunk(b, op, column, chunk, mapping);
  SmallVector<Value> yielded;
  unsigned carried = 0;
  for (Operation *sink : loop.sinks) {
    if (auto store = dyn_cast<ktdp::StoreOp>(sink)) {
      Value tile = buildColumnSlice(b, store.getAccessTile(), column, chunk);
      ktdp::StoreOp::create(b, store.getLoc(),
                            mapping.lookup(store.getDataTile()), tile);
      continue;
    }
    Operation *copy = b.clone(*sink, mapping);
    auto dps = cast<DestinationStyleOpInterface>(copy);
    for (OpOperand &init : dps.getDpsInitsMutable())
      init.set(forOp.getRegionIterArg(carried++));
    llvm::append_range(yielded, copy->getResults());
  }
  // A loop without results already ends in its scf.yield.
  if (!inits.empty())
    scf::YieldOp::create(b, loc, yielded);
  unsigned result = 0;
  for (Operation *sink : loop.sinks)
    for (Value v : sink->getResults())
      v.replaceAllUsesWith(forOp.getResult(result++));
}

/// The widest chunk of `group`'s rows, a divisor of the row, whose row
/// tensors hold at most `maxBytes`; 0 when not even one column fits.
static int64_t chooseChunk(const WideRowGroup &group, int64_t maxBytes) {
  int64_t columnBytes = group.leadingElements * group.elementBytes;
  for (int64_t chunk = std::min(group.width, maxBytes / columnBytes); chunk > 0;
       --chunk)
    if (group.width % chunk == 0)
      return chunk;
  return 0;
}

/// Erases `op`, and the access tile it read or wrote if nothing else uses
/// it.
static void eraseWithTile(Operation *op) {
  Operation *tile = nullptr;
  if (auto load = dyn_cast<ktdp::LoadOp>(op))
    tile = load.getAccessTile().getDefiningOp();
  else if (auto store = dyn_cast<ktdp::StoreOp>(op))
    tile = store.getAccessTile().getDefiningOp();
  op->erase();
  if (tile && tile->use_empty())
    tile->erase();
}

/// Streams `group`, started by `load`, if its rows are over `maxBytes`.
/// Returns whether the IR changed; warns at the load when the group is too
/// wide but cannot be streamed.
static bool streamGroup(const WideRowGroup &group, ktdp::LoadOp load,
                        int64_t maxBytes) {
  if (group.rowBytes <= maxBytes)
    return false;
  std::string reason;
  FailureOr<SmallVector<ChunkLoop>> loops = planLoops(group, reason);
  int64_t chunk = chooseChunk(group, maxBytes);
  if (failed(loops) || chunk == 0) {
    load.emitWarning("this row (")
        << group.rowBytes << " bytes) cannot be streamed in column chunks: "
        << (chunk == 0 ? "not one column fits" : reason);
    return false;
  }
  for (const ChunkLoop &loop : *loops) {
    emitChunkLoop(group, loop, chunk);
    for (Operation *sink : loop.sinks)
      eraseWithTile(sink);
  }
  for (Operation *op : llvm::reverse(group.rowOps))
    if (op->use_empty())
      eraseWithTile(op);
  return true;
}

namespace {
struct StreamWideRowsPass
    : public ktdf::impl::KTDFStreamWideRowsBase<StreamWideRowsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (maxTileBytes <= 0)
      return;
    getOperation().walk([&](func::FuncOp func) {
      // Gathers that are only stored move in chunks; their loads are gone.
      splitWideGathers(func, maxTileBytes);
      // A streamed group's loads are gone and the loads its loops make are
      // small, so visiting each load that was there once suffices.
      SmallVector<ktdp::LoadOp> loads;
      func.walk([&](ktdp::LoadOp load) { loads.push_back(load); });
      llvm::DenseSet<Operation *> visited;
      bool streamed = false;
      for (ktdp::LoadOp load : loads) {
        if (!visited.insert(load).second)
          continue;
        std::optional<WideRowGroup> group = findWideRowGroup(load);
        if (!group) {
          // splitWideGathers said why a gather stays whole.
          if (loadedBytes(load) > maxTileBytes &&
              !load.getAccessTile()
                   .getDefiningOp<ktdp::ConstructIndirectAccessTileOp>())
            load.emitWarning("this row (")
                << loadedBytes(load)
                << " bytes) cannot be streamed in column chunks: an op "
                   "computing on it is not element-wise, a broadcast, a "
                   "reduction along its last dimension or a store of whole "
                   "rows through a box tile in identity order, or it is "
                   "used in another block";
          continue;
        }
        visited.insert(group->rowOps.begin(), group->rowOps.end());
        streamed |= streamGroup(*group, load, maxTileBytes);
      }
      if (streamed)
        func->setAttr("ktdf.streamed_rows", UnitAttr::get(&getContext()));
    });
  }
};
} // namespace
