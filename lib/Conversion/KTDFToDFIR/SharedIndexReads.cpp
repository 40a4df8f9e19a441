//===- SharedIndexReads.cpp - A gather's index read once for the next -----===//
//
// A gather reads each index from device memory with `dfir.read_index`
// (IndirectDma.cpp), one round trip of the route's latency on which the
// unit waits (~150 cycles on spyre_like), and keeps the last address and
// value read in its point loop's iter_args, so a page's runs read the
// page's index once. A paged attention gathers, per page j, K^T and then
// V through the same block-table entry: the DMA engine, running the two
// pipelines' loads by iteration (IterationOrder.cpp), read BT[b, j] twice,
// 16 reads of 150 cycles a point, the engine's largest item.
//
// When no transfer of the kernel writes the index view's tensor (a kernel
// argument the kernel only reads), an index at an address holds the same
// value whenever it is read. Then a gather's point loop starts its cache
// from the last address and value an earlier gather of the same block of
// the unit's program read from the same memory, with the same index type
// and bound (the bound the simulator checks the value against), instead
// of from "nothing read": V_j's gather finds BT[b, j] read by K_j's.
//
//===----------------------------------------------------------------------===//

#include "TransferEmitter.h"

#include "ktflow/Analysis/LaunchArguments.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

static constexpr StringLiteral kIndexReads = "ktdf.index_reads";

bool KernelLowering::neverWritten(ktdp::ConstructMemoryViewOp view) {
  auto address = ktflow::getViewAddress(view.getOffset());
  if (!address || !address->argument)
    return false;
  bool written = false;
  forEachViewMoved([&](ktdp::ConstructMemoryViewOp other, bool isRead) {
    auto space = ktdp::normalizeMemorySpace(other.getMemorySpace());
    if (isRead || (space && space->kind == ktdp::MemoryKind::ct_local))
      return;
    auto at = ktflow::getViewAddress(other.getOffset());
    // A device memory view at an address the analysis cannot place may
    // alias it.
    written |= !at || !at->argument || at->argument == address->argument;
  });
  return !written;
}

void TransferEmitter::markIndexReads(scf::ForOp loop,
                                     const IndirectTilePlan &plan,
                                     ArrayRef<IndexSource> indexSources,
                                     bool staged) {
  ktdp::ConstructIndirectAccessTileOp tile = plan.tile;
  SmallVector<Attribute> keys;
  unsigned k = 0;
  for (auto [j, kind] : llvm::enumerate(tile.getPerDimSubscriptKinds())) {
    if (!cast<BoolAttr>(kind).getValue())
      continue;
    ktdp::ConstructMemoryViewOp view = plan.indexViews[k];
    std::string key;
    if (!staged && kernel.neverWritten(view)) {
      llvm::raw_string_ostream os(key);
      os << indexSources[k].memory << ' '
         << cast<MemRefType>(view.getType()).getElementType() << " below "
         << plan.baseExtents[j];
    }
    keys.push_back(StringAttr::get(loop.getContext(), key));
    ++k;
  }
  loop->setAttr(kIndexReads, ArrayAttr::get(loop.getContext(), keys));
}

void KernelLowering::shareIndexReads(dfir::UnitOp unit) {
  unit->walk([](Block *block) {
    // Per key, the last address and value an earlier gather of the block
    // read.
    DenseMap<Attribute, std::pair<Value, Value>> last;
    for (Operation &op : *block) {
      auto loop = dyn_cast<scf::ForOp>(op);
      auto keys = loop ? loop->getAttrOfType<ArrayAttr>(kIndexReads) : nullptr;
      if (!keys)
        continue;
      loop->removeAttr(kIndexReads);
      for (auto [k, key] : llvm::enumerate(keys)) {
        if (cast<StringAttr>(key).getValue().empty())
          continue;
        if (auto it = last.find(key); it != last.end()) {
          for (unsigned i : {0u, 1u}) {
            OpOperand &init = loop.getInitArgsMutable()[2 * k + i];
            Operation *old = init.get().getDefiningOp();
            init.set(i ? it->second.second : it->second.first);
            if (old && isa<arith::ConstantOp>(old) && old->use_empty())
              old->erase();
          }
        }
        last[key] = {loop.getResult(2 * k), loop.getResult(2 * k + 1)};
      }
    }
  });
}
