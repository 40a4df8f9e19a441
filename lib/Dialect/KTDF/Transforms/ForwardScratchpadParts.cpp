//===- ForwardScratchpadParts.cpp - Reloads of scratchpad parts -----------===//
//
// This file implements --ktdf-forward-scratchpad-parts. A distributed view
// may stitch parts held in the scratchpads of several tiles (`ct_local`,
// `ct_id = k`): a tile stores through it, which writes into other tiles'
// scratchpads, then reads elements back through plain views of those
// scratchpads, or through the distributed view itself. The scheduler keeps
// each scratchpad private to its core. When every load of the parts'
// memory provably returns what the loading tile itself stored there,
// nothing has to cross the interconnect: the load is the stored tensor's
// slice, reloaded from where the stored tensor was loaded (the scheduler
// has no slicing op), and the stores become dead. A load that returns what
// one store wrote on another tile becomes a copy between the two cores
// instead (PartCopies.cpp). Parts in device memory beside the scratchpad
// parts are read from there (DeviceParts.cpp). A box of a scratchpad part
// no store writes holds what was there before the kernel: the part's tile
// reads it and copies it to every tile (ResidentParts.cpp).
//
// The proof, per grid point (the grid is static; every tile is enumerated):
// the load reads, through a view laid out as part k (same tile, address,
// sizes, strides, element type; coordinates in the part's local frame,
// which is global minus the part's lower bound, as the interpreter indexes
// parts), a box that lies in part k and inside the box the nearest earlier
// store through the distributed view wrote, at the same offset on every
// tile; nothing between them writes a scratchpad; and no store through the
// distributed view by any OTHER tile ever touches that box, so no
// interleaving of the tiles can change what the load sees. The stored
// tensor must be a load of a box of device memory that stays in its view
// and that no store of the kernel writes (then reloading the slice later
// reads the same values), or exactly the tile the load reads.
//
//===----------------------------------------------------------------------===//

#include "ScratchpadParts.h"

#include "ktflow/Device/Target.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/IR/ScratchpadView.h"
#include "ktflow/Scheduler/ScheduleTarget.h"

#include "llvm/ADT/SetVector.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFFORWARDSCRATCHPADPARTS
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;
using mlir::ktdf::parts::reloadSlice;

Value mlir::ktdf::parts::reloadSlice(OpBuilder &b, ktdp::LoadOp source,
                                     ArrayRef<int64_t> offset,
                                     ktdp::LoadOp like) {
  auto from =
      source.getAccessTile().getDefiningOp<ktdp::ConstructAccessTileOp>();
  auto into = like.getAccessTile().getDefiningOp<ktdp::ConstructAccessTileOp>();
  AffineMap map = from.getBaseMap();
  SmallVector<AffineExpr> results;
  for (auto [result, delta] : llvm::zip(map.getResults(), offset))
    results.push_back(result + delta);
  auto tile = ktdp::ConstructAccessTileOp::create(
      b, like.getLoc(), into.getType(), from.getBase(), from.getIndices(),
      ValueRange(),
      AffineMap::get(map.getNumDims(), map.getNumSymbols(), results,
                     b.getContext()),
      into.getAccessTileSet(), into.getAccessTileOrder());
  return ktdp::LoadOp::create(b, like.getLoc(), like.getType(), tile);
}

Value mlir::ktdf::parts::reloadSlice(OpBuilder &b, ktdp::LoadOp source,
                                     ArrayRef<int64_t> offset,
                                     ArrayRef<int64_t> extents, Location loc) {
  auto from =
      source.getAccessTile().getDefiningOp<ktdp::ConstructAccessTileOp>();
  Type element = cast<ShapedType>(source.getType()).getElementType();
  return ktdp::LoadOp::create(b, loc, RankedTensorType::get(extents, element),
                              pieceOfTile(b, from, offset, extents));
}

void ScratchpadParts::rewrite() {
  SmallVector<Operation *> loadTiles;
  llvm::SetVector<Operation *> loads;
  // A piece's value is computed with as the load's value is and goes into
  // the same piece of each store (pieceLoads checked the uses are such).
  DenseMap<Operation *, SmallVector<Operation *>> joins;
  auto storePiece = [&](ktdp::LoadOp load, const LoadPiece &piece,
                        Value value) {
    auto [it, inserted] = joins.try_emplace(load);
    Operation *refused = nullptr;
    if (inserted)
      it->second = parts::joinedUses(
          load, cast<RankedTensorType>(load.getType()).getShape(), refused);
    IRMapping map;
    map.map(load.getResult(), value);
    for (Operation *op : it->second) {
      OpBuilder b(op);
      parts::emitPiece(b, op, piece.at, piece.extents, map);
    }
  };
  // The load's value (or its piece's) is now `value`.
  auto replace = [&](ktdp::LoadOp load, const LoadPiece &piece, Value value) {
    loads.insert(load);
    if (piece.at.empty())
      load.getResult().replaceAllUsesWith(value);
    else
      storePiece(load, piece, value);
  };
  for (PartForward &forward : forwardList) {
    ktdp::LoadOp load = forward.load;
    Value replacement = forward.store.getDataTile();
    OpBuilder b(load);
    if (!forward.at.empty())
      replacement = parts::reloadAt(
          b, forward.source, forward.at,
          forward.piece.at.empty()
              ? cast<RankedTensorType>(load.getType()).getShape()
              : ArrayRef<int64_t>(forward.piece.extents),
          load.getLoc());
    else if (forward.source && forward.piece.at.empty())
      replacement = reloadSlice(b, forward.source, forward.offset, load);
    else if (forward.source)
      replacement = reloadSlice(b, forward.source, forward.offset,
                                forward.piece.extents, load.getLoc());
    replace(load, forward.piece, replacement);
  }
  for (DeviceRead &read : readList)
    replace(read.load, read.piece, rewriteDeviceRead(read));
  for (PartCopy &copy : copyList)
    replace(copy.load, copy.piece, rewriteCopy(copy));
  for (ResidentRead &read : residentList)
    replace(read.load, read.piece, rewriteResidentRead(read));
  for (Operation *load : loads) {
    loadTiles.push_back(load->getOperand(0).getDefiningOp());
    // What a straddling load's value was joined in, now piece by piece. A
    // copy: llvm::reverse of lookup's temporary would outlive it.
    SmallVector<Operation *> joined = joins.lookup(load);
    for (Operation *op : llvm::reverse(joined)) {
      if (isa<ktdp::StoreOp>(op))
        loadTiles.push_back(op->getOperand(1).getDefiningOp());
      op->erase();
    }
    load->erase();
  }
  // Nothing reads what the stores wrote any more.
  for (ktdp::StoreOp store : stores)
    store.erase();
  // The views and loads left without users, innermost first.
  SmallVector<Operation *> worklist;
  SmallVector<ktdp::LoadOp> sources;
  for (PartForward &forward : forwardList)
    sources.push_back(forward.source);
  for (PartCopy &copy : copyList)
    sources.push_back(copy.source);
  for (ktdp::LoadOp source : sources)
    if (source)
      worklist.push_back(source);
  for (ktdp::LoadOp source : sources)
    worklist.push_back(source ? source.getAccessTile().getDefiningOp()
                              : nullptr);
  for (Operation *user : view->getUsers())
    worklist.push_back(user);
  worklist.push_back(view);
  for (const ScratchpadPart &part : parts)
    worklist.push_back(part.view);
  for (const DevicePart &device : devices)
    worklist.push_back(device.view);
  for (Operation *tile : loadTiles) {
    worklist.push_back(tile);
    worklist.push_back(tile ? tile->getOperand(0).getDefiningOp() : nullptr);
  }
  llvm::erase(worklist, nullptr);
  llvm::SetVector<Operation *> erased;
  for (bool changed = true; changed;) {
    changed = false;
    for (Operation *op : worklist)
      if (!erased.contains(op) && op->use_empty()) {
        erased.insert(op);
        op->dropAllReferences();
        changed = true;
      }
  }
  for (Operation *op : erased)
    op->erase();
}

std::optional<std::pair<Operation *, std::string>>
mlir::ktdf::whyNotForwardable(Operation *op) {
  auto view = dyn_cast<ktdp::ConstructDistributedMemoryViewOp>(op);
  if (!view)
    return std::make_pair(op, std::string("not a distributed view"));
  PartsRefusal refusal;
  ScratchpadParts analysis(view);
  if (failed(analysis.analyze(refusal)))
    return refusal;
  return std::nullopt;
}

bool mlir::ktdf::isForwardedScratchpadLoad(Operation *op) {
  auto load = dyn_cast<ktdp::LoadOp>(op);
  auto func = op->getParentOfType<func::FuncOp>();
  if (!load || !func)
    return false;
  bool forwarded = false;
  func.walk([&](ktdp::ConstructDistributedMemoryViewOp view) {
    ScratchpadParts analysis(view);
    PartsRefusal refusal;
    forwarded |=
        succeeded(analysis.analyze(refusal)) && analysis.forwards(load);
  });
  return forwarded;
}

namespace {
struct KTDFForwardScratchpadPartsPass
    : public ktdf::impl::KTDFForwardScratchpadPartsBase<
          KTDFForwardScratchpadPartsPass> {
  /// Whether the module's target (none: false) runs a lane's device
  /// loads and stores on one DMA engine (mesh_device's). There a tile
  /// reloads a slice of device memory another tile stored into a part:
  /// a copy costs the writer's engine its bytes and the reader's the store
  /// out of its scratchpad, a reload the reader's one DMA from device
  /// memory to device memory (realworld/lx_mixed_copy.mlir on mesh_device
  /// 750 -> 544 cycles). Where two engines do (spyre_like,
  /// sample_device), the reload adds the reader's load engine's bytes to
  /// the same stores (the kernel written to reload: 657 -> 690 and
  /// 909 -> 974), and the copy stays.
  bool loadsAndStoresOnOneEngine() {
    FailureOr<ktdf_arch::TargetOp> found =
        ktflow::device::findOptionalTarget(getOperation());
    if (failed(found) || !*found)
      return false;
    auto &target = getAnalysis<ktflow::sched::ScheduleTarget>();
    if (!target.isValid() || target.getLanes().empty())
      return false;
    markAnalysesPreserved<ktflow::sched::ScheduleTarget>();
    return target.loadsAndStoresOnOneEngine();
  }

  void runOnOperation() override {
    SmallVector<ktdp::ConstructDistributedMemoryViewOp> views;
    getOperation().walk([&](ktdp::ConstructDistributedMemoryViewOp view) {
      if (llvm::any_of(view.getMemrefs(), [](Value part) {
            return ktdp::isScratchpadView(
                part.getDefiningOp<ktdp::ConstructMemoryViewOp>());
          }))
        views.push_back(view);
    });
    bool reload = !views.empty() && loadsAndStoresOnOneEngine();
    // Refusals are ktdf-resolve-distributed-views' to report.
    for (ktdp::ConstructDistributedMemoryViewOp view : views) {
      ScratchpadParts analysis(view);
      analysis.reloadAcrossTiles = reload;
      PartsRefusal refusal;
      if (succeeded(analysis.analyze(refusal)))
        analysis.rewrite();
    }
  }
};
} // namespace
