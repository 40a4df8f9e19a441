//===- MergedLoads.cpp - One transfer for a lane's executions -------------===//
//
// This file emits a DMA load stage that ktdf-row-blocks marked
// `ktdf.merged_executions` (K for a lane): the lane's executions e, e + 1,
// ..., e + K - 1 (e a multiple of K) are grid points whose tiles are
// consecutive rows of one tensor, and copies e mod N ... of the N-copy
// buffer are consecutive too, so execution e loads all K tiles as one
// transfer and the others load nothing. Each execution still sends its
// own token after it (the engine sends a token once its transfers in
// flight have landed), so the feed waits as before; execution e takes
// the K copies' free tokens first (those of executions N and later).
//
// The lowering merges only what it proves: the pipeline runs once per
// grid point of the lane (it is in the grid's body), the lane has whole
// groups of K points, and for every group the tiles' origins, folded to
// constants from the points' coordinates, are K consecutive whole-row
// tiles inside their view (no clamp, no mask). A tile whose position
// depends on a launch value, or anything else, keeps one transfer per
// execution.
//
//===----------------------------------------------------------------------===//

#include "ProgramBuilder.h"
#include "TileDma.h"

#include "ktflow/Dialect/KTDF/Transforms/MergedLoads.h"
#include "ktflow/Dialect/KTDF/Transforms/RowBlocks.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

/// The value of `v` when its operands fold to constants, op by op.
static std::optional<int64_t> foldedConstant(Value v) {
  if (std::optional<int64_t> c = getConstantIntValue(v))
    return c;
  Operation *def = v.getDefiningOp();
  if (!def || def->getNumRegions() != 0)
    return std::nullopt;
  SmallVector<Attribute> operands;
  for (Value operand : def->getOperands()) {
    std::optional<int64_t> c = foldedConstant(operand);
    if (!c)
      return std::nullopt;
    operands.push_back(IntegerAttr::get(operand.getType(), *c));
  }
  SmallVector<OpFoldResult> results;
  if (failed(def->fold(operands, results)) ||
      results.size() != def->getNumResults())
    return std::nullopt;
  OpFoldResult folded = results[cast<OpResult>(v).getResultNumber()];
  if (auto attr = dyn_cast_if_present<IntegerAttr>(
          dyn_cast_if_present<Attribute>(folded)))
    return attr.getInt();
  if (auto value = dyn_cast_if_present<Value>(folded); value && value != v)
    return foldedConstant(value);
  return std::nullopt;
}

/// The grid coordinates of `li`'s point in round `j` (as UnitProgram's
/// pointAt computes them in the program).
static SmallVector<int64_t>
pointCoordinates(ParallelOp parallel, const LaneInstance &li, int64_t j) {
  int64_t n = *parallel.getNumInstances();
  int64_t t = parallel.getSnake()
                  ? j * n + li.start + (j % 2) * (n - 1 - 2 * li.start)
                  : li.start + j;
  SmallVector<int64_t> coords;
  int64_t stride = parallel.getNumPoints();
  for (int64_t extent : parallel.getExtents()) {
    stride /= extent;
    coords.push_back((t / stride) % extent);
  }
  return coords;
}

bool ProgramBuilder::tilesContiguous(DataTransferOp transfer, int64_t merge,
                                     int64_t copyBytes,
                                     const LaneInstance &li) {
  OpBuilder &b = *builder;
  OpBuilder::InsertionGuard guard(b);
  Location loc = transfer.getLoc();
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(loc);
  b.setInsertionPointToStart(scratch->getBody());
  ParallelOp parallel = kernel.parallel;
  std::optional<int64_t> expected;
  for (int64_t j = 0; j < li.count; ++j) {
    IRMapping map;
    for (auto [d, coord] : llvm::enumerate(pointCoordinates(parallel, li, j)))
      map.map(parallel.getBody().getArgument(d), constant(coord));
    // Diagnostics of a failed evaluation belong to the real emission.
    ScopedDiagnosticHandler quiet(b.getContext(),
                                  [](Diagnostic &) { return success(); });
    FailureOr<TileDma> dma = resolveTileDma(transfer, map, li, constant(0));
    if (failed(dma) || dma->extents.size() != 2 || dma->strides.size() != 2 ||
        dma->strides[1] != 1 || dma->extents[1] != dma->strides[0] ||
        llvm::any_of(dma->runtimeStrides, [](Value v) { return bool(v); }))
      return false;
    FailureOr<Value> origin =
        tileElementOffset(loc, dma->tile, dma->anchor, dma->strides, {}, map);
    FailureOr<Value> rows = viewExtent(loc, dma->view, 0, map),
                     cols = viewExtent(loc, dma->view, 1, map);
    if (failed(origin) || failed(rows) || failed(cols))
      return false;
    std::optional<int64_t> offset = foldedConstant(*origin),
                           row = foldedConstant(dma->anchor[0]),
                           col = foldedConstant(dma->anchor[1]),
                           nRows = foldedConstant(*rows),
                           nCols = foldedConstant(*cols);
    int64_t tileElements = dma->extents[0] * dma->extents[1];
    // Whole rows, inside the view: the tile is one contiguous range, laid
    // out as one copy of the buffer.
    if (tileElements * dma->esize != copyBytes || !offset || !row || !col ||
        !nRows || !nCols || *col != 0 || *nCols != dma->extents[1] ||
        *row < 0 || *row + dma->extents[0] > *nRows)
      return false;
    // Each group's tiles follow one another.
    if (j % merge != 0 && offset != expected)
      return false;
    expected = *offset + tileElements;
  }
  return true;
}

int64_t ProgramBuilder::mergedExecutions(StageOp stage,
                                         const PipelineInfo &info,
                                         const LaneInstance &li) {
  auto perLane =
      stage->getAttrOfType<DenseI64ArrayAttr>(kMergedExecutionsAttrName);
  if (!perLane || li.lane >= perLane.size() || perLane[li.lane] < 2)
    return 1;
  auto key = std::make_pair(stage.getOperation(), &li);
  if (auto it = mergedLoads.find(key); it != mergedLoads.end())
    return it->second;
  int64_t merge = perLane[li.lane];
  auto eligible = [&] {
    PipelineOp pipeline = info.op;
    auto only = stage.getBody().front().getOps<DataTransferOp>();
    Value buffer = getLoadedBuffer(stage);
    if (pipeline->getParentOp() != kernel.parallel ||
        pipeline.getPerInstance() || info.workTiles || info.copies < merge ||
        info.copies % merge != 0 || li.count % merge != 0 || !buffer ||
        isRowBlockStore(stage) || stage->hasAttr(kRowBlocksAttrName) ||
        (*only.begin()).getRows() || !kernel.parallel.getNumInstances())
      return false;
    // Plain hand-overs: the copies back to it, each execution's tile on.
    for (const Channel &ch : info.channels) {
      if (ch.to != stage && ch.from != stage)
        continue;
      if (ch.kept || ch.carry || ch.exported || !ch.sendLoops.empty() ||
          (ch.to == stage) != (ch.copies > 0))
        return false;
    }
    for (const PipelineInfo &other : kernel.pipelines) {
      for (const Channel &ch : other.regionChannels)
        if (ch.to == stage || ch.from == stage)
          return false;
      if (&other != &info)
        for (const Channel &ch : other.channels)
          if (ch.to == stage)
            return false;
    }
    return tilesContiguous(*only.begin(), merge,
                           info.buffers.lookup(buffer).second, li);
  };
  int64_t result = eligible() ? merge : 1;
  mergedLoads[key] = result;
  return result;
}

LogicalResult ProgramBuilder::emitMergedLoad(StageOp stage, int64_t merge,
                                             const PipelineInfo &info,
                                             IRMapping &map, Value execution,
                                             Value copy,
                                             const LaneInstance &li) {
  OpBuilder &b = *builder;
  Location loc = stage.getLoc();
  Value first = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      arith::RemUIOp::create(b, loc, execution, constant(merge)), constant(0));
  LogicalResult result = success();
  emitIf(first, [&] {
    // The copies the transfer fills, each free once the execution N
    // before it has been fed (the first N are free).
    for (const Channel &ch : info.channels)
      if (ch.to == stage)
        for (int64_t i = 0; i < merge; ++i) {
          Value later = arith::AddIOp::create(b, loc, execution, constant(i));
          Value reuse = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                              later, constant(ch.copies));
          std::string sync = KernelLowering::perLane(ch.base, li);
          emitIf(reuse, [&] { dfir::SyncRecvOp::create(b, loc, sync); });
        }
    DataTransferOp transfer =
        *stage.getBody().front().getOps<DataTransferOp>().begin();
    IRMapping stageMap = map;
    FailureOr<TileDma> dma = resolveTileDma(transfer, stageMap, li, copy);
    if (failed(dma)) {
      result = failure();
      return;
    }
    int64_t bytes = dma->extents[0] * dma->extents[1] * dma->esize;
    emitDirectedDma(loc, *dma, constant(merge * bytes), dma->memAddr,
                    dma->bufAddr, Value(), 0, 0);
  });
  if (failed(result))
    return failure();
  for (const Channel &ch : info.channels)
    if (ch.from == stage)
      dfir::SyncSendOp::create(b, loc, KernelLowering::perLane(ch.base, li));
  return success();
}
