//===- DuplicateStoreSplits.cpp - Device rows stored by several tiles -----===//
//
// This file cuts a pipeline that every tile runs to store the same device
// rows (DuplicateStores.cpp), when it is one DMA from device memory to
// device memory (PassThroughDma.cpp, where one unit both loads and
// stores), into pieces of whole rows for the tiles with the fewest bytes
// to store so far, so that they end level. One tile storing them all
// waits for them on its one engine: realworld/lx_resident_copy.mlir on
// mesh_device, where tile 0 stored the 12 KiB of device rows and its 4 KiB
// part and tile 1 only its 8 KiB part (tile 0's engine busy 352 cycles,
// tile 1's 210); now tile 0 stores 64 of the 96 rows and tile 1 the other
// 32, 12 KiB each.
//
//===----------------------------------------------------------------------===//

#include "DuplicateStores.h"

#include "ktflow/Dialect/KTDF/Transforms/TileBounds.h"
#include "ktflow/Dialect/KTDF/Transforms/TilePieces.h"
#include "ktflow/Dialect/KTDP/IR/ScratchpadView.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"
#include "ktflow/Support/ElementBytes.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

/// The extents of `tile` when it is a box of its view from its anchor, in
/// the view's order, and stays inside the view.
static std::optional<SmallVector<int64_t>> boxExtents(Value tile) {
  auto access = tile.getDefiningOp<ktdp::ConstructAccessTileOp>();
  if (!access || !access.getAccessTileOrder().isIdentity() ||
      !ktdp::isBoxShaped(access.getAccessTileSet()) || mayLeaveView(access))
    return std::nullopt;
  auto box = ktdp::getBoundingBox(access.getAccessTileSet(), {});
  if (failed(box) || llvm::any_of(box->lower, [](int64_t l) { return l; }))
    return std::nullopt;
  return box->getExtents();
}

/// The rows [`first`, `first` + `rows`) of access tile `tile`.
static Value rowsOf(OpBuilder &b, ktdp::ConstructAccessTileOp tile,
                    int64_t first, int64_t rows) {
  SmallVector<int64_t> extents(
      cast<ktdp::AccessTileType>(tile.getType()).getShape());
  SmallVector<int64_t> at(extents.size(), 0);
  extents[0] = rows;
  at[0] = first;
  return pieceOfTile(b, tile, at, extents);
}

/// The rows each tile takes of `rows` rows of `rowBytes` bytes so that
/// the tiles with the fewest bytes (`load`) rise to one level.
static SmallVector<int64_t> levelShares(ArrayRef<int64_t> load, int64_t rows,
                                        int64_t rowBytes) {
  SmallVector<int64_t> order =
      llvm::to_vector(llvm::seq<int64_t>(0, load.size()));
  llvm::sort(order, [&](int64_t a, int64_t b) {
    return std::make_pair(load[a], a) < std::make_pair(load[b], b);
  });
  // The level (sum + bytes) / k the k least loaded tiles reach sharing
  // every byte, below the next tile's load.
  int64_t bytes = rows * rowBytes, sum = 0;
  int64_t k = 0, n = static_cast<int64_t>(order.size());
  while (k < n) {
    sum += load[order[k++]];
    if (k == n || sum + bytes <= load[order[k]] * k)
      break;
  }
  SmallVector<int64_t> shares(load.size(), 0);
  int64_t given = 0;
  for (int64_t i = 0; i < k; ++i) {
    int64_t t = order[i];
    shares[t] = std::max<int64_t>(0, ((sum + bytes) / k - load[t]) / rowBytes);
    given += shares[t];
  }
  // The rows left over by rounding, to the least loaded first.
  for (int64_t i = 0; given < rows; i = (i + 1) % k, ++given)
    ++shares[order[i]];
  return shares;
}

SmallVector<std::pair<PipelineOp, int64_t>>
lowering::splitDuplicateRows(const Duplicate &dup,
                             MutableArrayRef<int64_t> load) {
  PipelineOp pipeline = dup.op;
  auto stages = llvm::to_vector(pipeline.getBody().front().getOps<StageOp>());
  if (stages.size() != 1 || dup.stores.size() != 1 || load.size() < 2 ||
      !llvm::all_of(pipeline.getBody().front(),
                    [](Operation &op) { return isa<StageOp>(op); }))
    return {};
  DataTransferOp dma = onlyTransfer(stages[0]);
  if (!dma || dma != dup.stores[0].op || dma.getRows() ||
      !dma.getStagedIndices().empty() ||
      !llvm::all_of(stages[0].getBody().front(), [&](Operation &op) {
        return &op == dma.getOperation() ||
               op.hasTrait<OpTrait::IsTerminator>();
      }))
    return {};
  auto src = dma.getSrc().getDefiningOp<ktdp::ConstructAccessTileOp>();
  auto dst = dma.getDst().getDefiningOp<ktdp::ConstructAccessTileOp>();
  auto srcView = src ? ktdp::getAccessTileView(src.getResult())
                     : ktdp::ConstructMemoryViewOp();
  std::optional<SmallVector<int64_t>> extents = boxExtents(dma.getDst());
  if (!srcView || !dst || ktdp::isScratchpadView(srcView) || !extents ||
      boxExtents(dma.getSrc()) != extents || extents->size() < 2 ||
      (*extents)[0] < 2 || dup.bytes % (*extents)[0])
    return {};
  int64_t rows = (*extents)[0], rowBytes = dup.bytes / rows;
  SmallVector<int64_t> shares = levelShares(load, rows, rowBytes);
  if (llvm::count_if(shares, [](int64_t s) { return s > 0; }) < 2)
    return {};
  // The pieces, in tile order, in the pipeline's place.
  SmallVector<std::pair<PipelineOp, int64_t>> pieces;
  OpBuilder b(pipeline);
  int64_t first = 0;
  for (auto [tile, share] : llvm::enumerate(shares)) {
    if (share == 0)
      continue;
    Value from = rowsOf(b, src, first, share);
    Value to = rowsOf(b, dst, first, share);
    auto piece = cast<PipelineOp>(b.clone(*pipeline));
    DataTransferOp moved =
        onlyTransfer(*piece.getBody().front().getOps<StageOp>().begin());
    moved.getSrcMutable().assign(from);
    moved.getDstMutable().assign(to);
    pieces.push_back({piece, static_cast<int64_t>(tile)});
    load[tile] += share * rowBytes;
    first += share;
  }
  pipeline->erase();
  return pieces;
}
