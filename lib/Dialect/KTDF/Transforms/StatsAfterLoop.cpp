//===- StatsAfterLoop.cpp - Per-row statistics stored after the loop ------===//
//
// This file implements --ktdf-store-stats-after-loop. A grid-stride row
// loop (`scf.for %r = %pid to %n_rows step %c16`) that stores one value a
// row (a row's maximum and sum, a layernorm's mean and reciprocal standard
// deviation) into a vector `OUT[%r]` makes one 2-byte DMA a row and
// output. The DMA holds one of the store engine's slots for the whole
// device-memory latency: on sample_device, whose two lanes of a core share
// one store engine of 4 slots and 107 cycles, row_stats' 32 such stores a
// core kept the engine full from cycle 150 to 850 against 96 cycles of
// compute (965 cycles in all).
//
// Instead each store writes element lb * (rows + 1) + k, k = (r - lb) /
// step, of a scratchpad view of its own (`ct_local`, marked
// `ktdf.carried` and `ktdf.row_stats`; rows + 1 elements for each start lb
// in [0, step), so that the grid points of a lane keep apart what they
// store), which the compute unit's drain reaches without a DMA, and after
// the loop the point's first T elements go out in one transfer: loaded and
// stored into a 2-d view of the output, rows of `step` elements, at column
// lb, whose row count is the number T of trips that stored inside the
// output (the row loop's bound clamped to the output's length). The
// lowering makes that one DMA straight from the scratchpad
// (ScratchpadStoreDma.cpp): T rows, 2 bytes each, `step` elements apart.
//
// Left alone: a store whose output anything else in the kernel reads or
// writes (another iteration would read the old value), a loop whose step
// is not a constant or whose start may lie outside [0, step) (the column
// of the 2-d view), a grid that leaves lanes idle (leavesLanesIdle: its
// trips are spread over them instead), kept views over an eighth of a
// lane's scratchpad (keptViewsFit), and a loop whose stores do not bind
// the store engine (storesBind).
//
//===----------------------------------------------------------------------===//

#include "OutputSlices.h"
#include "ScratchpadViews.h"

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDF/Transforms/StatsAfterLoop.h"
#include "ktflow/Dialect/KTDF/Transforms/TileBounds.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/IR/ScratchpadView.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"
#include "ktflow/Dialect/KTDP/Utils/LaunchGrid.h"
#include "ktflow/Scheduler/CostModel.h"
#include "ktflow/Scheduler/ScheduleTarget.h"
#include "ktflow/Support/ElementBytes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFSTORESTATSAFTERLOOP
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

namespace {

/// The share of a lane's scratchpad the kept views may take: the rest is
/// for the pipelines' buffers (ktdf-allocate-scratchpad refuses a kernel
/// whose views and buffers do not fit).
constexpr int64_t kKeptShare = 8;

/// A one-element store at the loop's row into a vector output.
struct RowStore {
  ktdp::StoreOp store;
  ktdp::ConstructAccessTileOp tile;
  ktdp::ConstructMemoryViewOp view;
  /// The output's length and the elements a point keeps (one a trip).
  int64_t length = 0, rows = 0;
};

/// The loop's constant positive step, if it has one.
std::optional<int64_t> constantStep(scf::ForOp loop) {
  APInt step;
  if (!matchPattern(loop.getStep(), m_ConstantInt(&step)) ||
      step.getSExtValue() <= 0)
    return std::nullopt;
  return step.getSExtValue();
}

/// Whether the only use of the view's tensor is `tile`'s store: nothing
/// in the kernel reads the output, nothing else writes it.
bool onlyWriter(ktdp::ConstructMemoryViewOp view,
                ktdp::ConstructAccessTileOp tile) {
  Value base = view.getOffset();
  return base.hasOneUse() && isa<BlockArgument>(base) && view->hasOneUse() &&
         tile->hasOneUse();
}

/// `store` as a RowStore of `loop` (a store directly in its body), or none.
std::optional<RowStore> matchRowStore(ktdp::StoreOp store, scf::ForOp loop,
                                      int64_t step) {
  auto type = dyn_cast<RankedTensorType>(store.getDataTile().getType());
  if (!type || type.getRank() != 1 || type.getDimSize(0) != 1)
    return std::nullopt;
  auto tile =
      store.getAccessTile().getDefiningOp<ktdp::ConstructAccessTileOp>();
  if (!tile || tile.getIndices().size() != 1 ||
      tile.getIndices().front() != loop.getInductionVar() ||
      !tile.getSymbolOperands().empty() ||
      !tile.getAccessTileOrder().isIdentity())
    return std::nullopt;
  AffineMap anchor = tile.getBaseMap();
  if (anchor.getNumResults() != 1 ||
      anchor.getResult(0) != getAffineDimExpr(0, tile.getContext()))
    return std::nullopt;
  auto box = ktdp::getBoundingBox(tile.getAccessTileSet(), {});
  if (failed(box) || box->getExtents() != ArrayRef<int64_t>{1} ||
      box->lower.front() != 0)
    return std::nullopt;
  auto view = tile.getBase().getDefiningOp<ktdp::ConstructMemoryViewOp>();
  if (!view || ktdp::isScratchpadView(view) ||
      view.getStaticSizes().size() != 1 ||
      ShapedType::isDynamic(view.getStaticSizes().front()) ||
      view.getStaticStrides() != ArrayRef<int64_t>{1} ||
      !onlyWriter(view, tile))
    return std::nullopt;
  RowStore row{store, tile, view, view.getStaticSizes().front(), 0};
  row.rows = llvm::divideCeil(row.length, step);
  return row;
}

/// The bytes of the views keeping `rows` for the `step` grid points of a
/// lane: a point's trips and the element its trips past the output write.
int64_t keptBytes(ArrayRef<RowStore> rows, int64_t step) {
  int64_t bytes = 0;
  for (RowStore row : rows)
    bytes += step * (row.rows + 1) *
             ktflow::bytesPerElement(
                 cast<RankedTensorType>(row.store.getDataTile().getType())
                     .getElementType());
  return bytes;
}

/// Whether the grid leaves lanes idle: ktdf-spread-iterations then deals
/// a point's trips over them, which a loop keeping its stores in a view
/// of its lane cannot be (the 1151-row row_stats on spyre_like, 16 points
/// on 64 lanes: 1,577 cycles spread over 4 lanes, 3,037 kept after the
/// loop).
bool leavesLanesIdle(const ktflow::sched::ScheduleTarget &target,
                     int64_t gridPoints) {
  return gridPoints < target.getNumLaneInstances(/*everyLane=*/true);
}

/// Whether the kept views fit their share of a lane's scratchpad.
bool keptViewsFit(const ktflow::sched::ScheduleTarget &target,
                  ArrayRef<RowStore> rows, int64_t step) {
  std::optional<ktflow::sched::NodeId> local = target.getLocalMemory();
  if (!local)
    return false;
  const ktflow::device::DeviceModel &model = target.getModel();
  int64_t lanes = static_cast<int64_t>(target.getLanes().size());
  int64_t sharing = model.getInstancesPerCore(*local) >= lanes ? 1 : lanes;
  int64_t capacity = target.getMemoryTree().getCapacity(*local) / sharing;
  return keptBytes(rows, step) * kKeptShare <= capacity;
}

/// What one trip of a row loop moves through device memory besides its
/// row stores.
struct TripTraffic {
  /// Whether it stores anything else to device memory.
  bool otherStores = false;
  /// A row of each view a tile at the loop's row loads, resp. stores (a
  /// layernorm's X, resp. Y); none when a row's size is not static.
  std::optional<int64_t> loadBytes = 0, storeBytes = 0;
};

TripTraffic tripTraffic(scf::ForOp loop, ArrayRef<RowStore> rows) {
  TripTraffic traffic;
  llvm::SmallPtrSet<Operation *, 4> loaded, stored;
  loop.getBody()->walk([&](Operation *op) {
    Value tileValue;
    if (auto load = dyn_cast<ktdp::LoadOp>(op))
      tileValue = load.getAccessTile();
    else if (auto store = dyn_cast<ktdp::StoreOp>(op))
      tileValue = store.getAccessTile();
    else
      return;
    if (llvm::any_of(rows, [&](const RowStore &r) { return r.store == op; }))
      return;
    auto view = ktdp::getAccessTileView(tileValue);
    if (view && ktdp::isScratchpadView(view))
      return;
    bool isStore = isa<ktdp::StoreOp>(op);
    traffic.otherStores |= isStore;
    std::optional<int64_t> &total =
        isStore ? traffic.storeBytes : traffic.loadBytes;
    auto tile = tileValue.getDefiningOp<ktdp::ConstructAccessTileOp>();
    if (!view || !tile) {
      total = std::nullopt;
      return;
    }
    if (!llvm::is_contained(tile.getIndices(), loop.getInductionVar()) ||
        !(isStore ? stored : loaded).insert(view).second || !total)
      return;
    int64_t bytes = ktflow::bytesPerElement(
        cast<MemRefType>(view.getType()).getElementType());
    for (int64_t size : view.getStaticSizes().drop_front()) {
      if (ShapedType::isDynamic(size)) {
        total = std::nullopt;
        return;
      }
      bytes *= size;
    }
    *total += bytes;
  });
  return traffic;
}

/// Whether the row stores bind the store engine, so that storing them
/// after the loop wins:
///   * the lanes that share the engine issue more of them (their points'
///     trips') than it keeps in flight: each holds a slot for the device
///     memory's latency (spyre_like's 8 slots take row_stats' 8 stores a
///     point on 16 of its 32 cores at once; after the loop they only add
///     their latency, 362 -> 386 cycles);
///   * the lanes' stores of a trip hold the slots at least half as long as
///     the engine takes for their rows (the rows stored, and those loaded
///     where the engine loads too): the 1151x8192 layernorm's rows of
///     16 KiB out take 128 cycles a trip on spyre_like against 39 of its
///     two stores, and went 38,379 -> 46,622 cycles stored after the loop
///     (the kept view orders the trips' drains), 180,718 -> 180,894 on
///     sample_device;
///   * where one engine loads and stores (mesh_device's), the loop stores
///     nothing else: it runs a trip's transfers in order, and the other
///     stores keep it as busy (layernorm_rows 1,327 -> 1,329 cycles, while
///     row_stats, which stores nothing else, went 318 -> 285).
bool storesBind(const ktflow::sched::ScheduleTarget &target, int64_t gridPoints,
                ArrayRef<RowStore> rows, const TripTraffic &traffic) {
  const ktflow::sched::Lane &lane = target.getLanes().front();
  if (lane.outbound.hops.empty() || lane.inbound.hops.empty() ||
      !traffic.loadBytes || !traffic.storeBytes)
    return false;
  const ktflow::sched::Hop &out = lane.outbound.hops.back();
  if (out.kind != ktflow::sched::Hop::Dma)
    return false;
  bool oneEngine = target.loadsAndStoresOnOneEngine();
  if (traffic.otherStores && oneEngine)
    return false;
  const ktflow::device::DeviceModel &model = target.getModel();
  int64_t slots = 1;
  if (model.getNode(out.unit).unit)
    slots = std::max<int64_t>(model.getNode(out.unit).unit->maxOutstanding, 1);
  int64_t served = target.getLanesPerInstance(out.unit);
  int64_t instances =
      std::min(gridPoints, target.getNumLaneInstances(/*everyLane=*/true));
  int64_t sharing = ktflow::sched::lanesSharingEngine(served, instances,
                                                      target.getNumCores());
  int64_t pointsPerLane = llvm::divideCeil(gridPoints, instances);
  int64_t stores = 0;
  for (const RowStore &row : rows)
    stores += row.rows;
  if (sharing * pointsPerLane * stores <= slots)
    return false;
  const ktflow::device::Route &route = lane.outbound.route;
  double slotCycles =
      static_cast<double>(sharing) * static_cast<double>(rows.size()) *
      static_cast<double>(route.latency) / static_cast<double>(slots);
  int64_t engineBytes =
      *traffic.storeBytes + (oneEngine ? *traffic.loadBytes : 0);
  double rowCycles = static_cast<double>(sharing * engineBytes) /
                     std::max(route.bandwidth, 1.0);
  return 2 * slotCycles >= rowCycles;
}

class LoopRewriter {
public:
  explicit LoopRewriter(func::FuncOp func) : func(func), cursor(func) {}

  /// Rewrites `rows` (stores of `loop`'s body, in order).
  void run(scf::ForOp loop, ArrayRef<RowStore> rows, int64_t step) {
    Location loc = loop.getLoc();
    // In the loop: element lb * (rows + 1) + min((r - lb) / step, rows) of
    // each kept view.
    OpBuilder b(rows.front().store);
    Value trip = arith::DivUIOp::create(
        b, loc,
        arith::SubIOp::create(b, loc, loop.getInductionVar(),
                              loop.getLowerBound()),
        constant(b, step));
    // After the loop: T = max(ceil((min(ub, length) - lb) / step), 0)
    // trips stored inside the output, as one transfer of T rows.
    OpBuilder after(loop->getContext());
    after.setInsertionPointAfter(loop);
    for (RowStore row : rows) {
      Value end = arith::MinSIOp::create(after, loc, loop.getUpperBound(),
                                         constant(after, row.length));
      Value left = arith::AddIOp::create(
          after, loc,
          arith::SubIOp::create(after, loc, end, loop.getLowerBound()),
          constant(after, step - 1));
      Value trips = arith::MaxSIOp::create(
          after, loc,
          arith::DivSIOp::create(after, loc, left, constant(after, step)),
          constant(after, 0));
      rewrite(b, after, trip, trips, loop.getLowerBound(), row, step);
    }
  }

private:
  static Value constant(OpBuilder &b, int64_t v) {
    return arith::ConstantIndexOp::create(b, b.getUnknownLoc(), v);
  }

  /// Stores `row` at element start * (rows + 1) + min(trip, rows) of a
  /// view of its own (`b`, in the loop) and the `trips` elements from
  /// start * (rows + 1) after the loop (`after`), as rows of a 2-d view of
  /// the output at column `start`.
  void rewrite(OpBuilder &b, OpBuilder &after, Value trip, Value trips,
               Value start, RowStore row, int64_t step) {
    Location loc = row.store.getLoc();
    MLIRContext *ctx = func.getContext();
    Type element = cast<RankedTensorType>(row.store.getDataTile().getType())
                       .getElementType();
    // Per grid point of the loop's `step` (its start), one element a trip
    // and one more that the trips past the output (masked before, never
    // stored after) write into. A lane's points keep their own elements:
    // the DMA after a point's loop reads them while the store unit drains
    // the next point's (no token orders the two).
    int64_t span = row.rows + 1;
    auto keptType = RankedTensorType::get({step * span}, element);
    Value whole =
        createScratchpadTile(func, cursor, keptType, loc, kCarriedViewAttrName);
    Value kept = whole.getDefiningOp<ktdp::ConstructAccessTileOp>().getBase();
    kept.getDefiningOp()->setAttr(kRowStatsViewAttrName, UnitAttr::get(ctx));
    whole.getDefiningOp()->erase();

    b.setInsertionPoint(row.store);
    Value at = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, start, constant(b, span)),
        arith::MinUIOp::create(b, loc, trip, constant(b, row.rows)));
    Value one = ktdp::ConstructAccessTileOp::create(
        b, loc, row.tile.getType(), kept, ValueRange{at}, ValueRange{},
        row.tile.getBaseMapAttr(), row.tile.getAccessTileSetAttr(),
        row.tile.getAccessTileOrderAttr());
    ktdp::StoreOp::create(b, loc, row.store.getDataTile(), one);

    auto rowsType = RankedTensorType::get({row.rows}, element);
    AffineExpr d0 = getAffineDimExpr(0, ctx), d1 = getAffineDimExpr(1, ctx);
    Value firstRows = ktdp::ConstructAccessTileOp::create(
        after, loc, ktdp::AccessTileType::get(ctx, {row.rows}), kept,
        ValueRange{start}, ValueRange{},
        AffineMapAttr::get(AffineMap::get(1, 0, {d0 * span}, ctx)),
        IntegerSetAttr::get(ktdp::getBoxSet({row.rows}, ctx)),
        AffineMapAttr::get(AffineMap::getMultiDimIdentityMap(1, ctx)));
    Value values = ktdp::LoadOp::create(after, loc, rowsType, firstRows);
    auto columnType = RankedTensorType::get({row.rows, 1}, element);
    Value column = tensor::ExpandShapeOp::create(
        after, loc, columnType, values, ArrayRef<ReassociationIndices>{{0, 1}});

    // The output as `trips` rows of `step` elements.
    AffineExpr s0 = getAffineSymbolExpr(0, ctx);
    IntegerSet rowsSet =
        IntegerSet::get(2, 1, {d0, s0 - 1 - d0, d1, step - 1 - d1},
                        {false, false, false, false});
    auto memref = MemRefType::get(
        {ShapedType::kDynamic, step}, element, MemRefLayoutAttrInterface(),
        cast<MemRefType>(row.view.getType()).getMemorySpace());
    auto strided = ktdp::ConstructMemoryViewOp::create(
        after, loc, memref, row.view.getOffset(), ValueRange{trips},
        ValueRange{}, after.getDenseI64ArrayAttr({ShapedType::kDynamic, step}),
        after.getDenseI64ArrayAttr({step, 1}), row.view.getMemorySpace(),
        IntegerSetAttr::get(rowsSet));
    Value out = ktdp::ConstructAccessTileOp::create(
        after, loc, ktdp::AccessTileType::get(ctx, {row.rows, 1}), strided,
        ValueRange{start}, ValueRange{},
        AffineMapAttr::get(
            AffineMap::get(1, 0, {getAffineConstantExpr(0, ctx), d0}, ctx)),
        IntegerSetAttr::get(ktdp::getBoxSet({row.rows, 1}, ctx)),
        AffineMapAttr::get(AffineMap::getMultiDimIdentityMap(2, ctx)));
    ktdp::StoreOp::create(after, loc, column, out);

    row.store.erase();
    row.tile.erase();
    row.view.erase();
  }

  func::FuncOp func;
  ScratchpadCursor cursor;
};

struct StoreStatsAfterLoopPass
    : public ktdf::impl::KTDFStoreStatsAfterLoopBase<StoreStatsAfterLoopPass> {
  void runOnOperation() override {
    auto &target = getAnalysis<ktflow::sched::ScheduleTarget>();
    if (!target.isValid())
      return signalPassFailure();
    markAnalysesPreserved<ktflow::sched::ScheduleTarget>();
    for (auto &[func, grid] : gridKernels(getOperation())) {
      int64_t points = ktdp::getNumTiles(grid);
      SmallVector<std::tuple<scf::ForOp, SmallVector<RowStore>, int64_t>> work;
      func.walk([&](scf::ForOp loop) {
        std::optional<int64_t> step = constantStep(loop);
        auto start = rangeOf(loop.getLowerBound());
        if (!step || loop.getNumRegionIterArgs() != 0 || !start ||
            start->first < 0 || start->second >= *step)
          return;
        SmallVector<RowStore> rows;
        for (auto store : loop.getBody()->getOps<ktdp::StoreOp>())
          if (std::optional<RowStore> row = matchRowStore(store, loop, *step))
            rows.push_back(*row);
        if (!rows.empty() && !leavesLanesIdle(target, points) &&
            keptViewsFit(target, rows, *step) &&
            storesBind(target, points, rows, tripTraffic(loop, rows)))
          work.push_back({loop, std::move(rows), *step});
      });
      LoopRewriter rewriter(func);
      for (auto &[loop, rows, step] : work)
        rewriter.run(loop, rows, step);
    }
  }
};

} // namespace
