//===- OwnRowStores.cpp - Each part stores its own rows of a sum ---------===//
//
// ktdf-split-wide-reductions cuts a one-point kernel's contraction into P
// parts whose f32 partials an all-reduce sums. A value computed from the
// sum and only stored (the product rounded to f16) was stored by part 0
// alone, every part holding the whole sum: the ring's all-gather then
// moved every chunk to every part for one store. Each part storing its own
// rows of the value needs only the chunk a reduce-scatter leaves it
// (swiglu_ffn on mesh_device: the f16 rounding and store of 8x64 on one
// part, then 1 row on each of 8). The reduce is marked `ktdf.scatter` so
// ktdf-lower-inter-tile drops the all-gather; the kernel stays a valid
// KTIR kernel either way (every tile still gets the whole result, and
// reads a slice of it).
//
//===----------------------------------------------------------------------===//

#include "OwnRowStores.h"
#include "InterTile.h"
#include "OutputSlices.h"
#include "TileSlices.h"

#include "ktflow/Dialect/KTDF/IR/ScatterAttr.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"
#include "ktflow/Dialect/KTDP/Utils/LaunchGrid.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <functional>

using namespace mlir;
using namespace mlir::ktdf;

/// A splat tensor constant: an operand the rows of a value can share.
static bool isSplatConstant(Value value) {
  auto constant = value.getDefiningOp<arith::ConstantOp>();
  return constant && isa<SplatElementsAttr>(constant.getValue()) &&
         isa<RankedTensorType>(constant.getType());
}

/// Whether the index values `roots` are the same on every tile: computed
/// from constants and the function's arguments, no tile id (nor a loop's
/// induction variable) among them.
static bool isTileInvariantIndex(ValueRange roots) {
  SmallVector<Value> work(roots.begin(), roots.end());
  llvm::SmallPtrSet<Value, 16> seen;
  while (!work.empty()) {
    Value value = work.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (!isa<func::FuncOp>(arg.getOwner()->getParentOp()))
        return false;
      continue;
    }
    Operation *def = value.getDefiningOp();
    if (isa<ktdp::GetComputeTileIdOp>(def) || def->getNumRegions() != 0 ||
        !isMemoryEffectFree(def))
      return false;
    llvm::append_range(work, def->getOperands());
  }
  return true;
}

/// Whether `value` is an operand every tile holds the same rows of: a
/// splat constant, or a load through a tile no tile id (nor loop) places,
/// of a tensor the kernel does not store (the residual X that sharded_ffn
/// adds to its all-reduced sum).
static bool isTileInvariant(Value value) {
  if (isSplatConstant(value))
    return true;
  auto load = value.getDefiningOp<ktdp::LoadOp>();
  auto func = load ? load->getParentOfType<func::FuncOp>() : nullptr;
  auto tile =
      load ? load.getAccessTile().getDefiningOp<ktdp::ConstructAccessTileOp>()
           : nullptr;
  return func && tile && isRecomputable(load, func) &&
         isTileInvariantIndex(tile->getOperands());
}

namespace {
/// A stored value computed from an all-reduced sum: the reduce, the
/// expand_shape back to the shape it was collapsed from (if any), the
/// element-wise ops from the store back (`chain`), the store's tile.
struct SumChain {
  ktdp::InterTileReduceOp reduce;
  tensor::ExpandShapeOp expand;
  SmallVector<Operation *> chain;
  ktdp::ConstructAccessTileOp tile;
};
} // namespace

/// The chain `store` stores from an inter_tile_reduce's result (an
/// expand_shape of it, then element-wise ops of it and operands every tile
/// holds alike), each value on the way used once, when the rows divide
/// into `members`; failure otherwise.
static FailureOr<SumChain> sumChainOf(ktdp::StoreOp store, int64_t members) {
  SumChain found;
  found.tile =
      store.getAccessTile().getDefiningOp<ktdp::ConstructAccessTileOp>();
  auto stored = cast<RankedTensorType>(store.getDataTile().getType());
  if (!found.tile || stored.getRank() < 1 || !stored.hasStaticShape() ||
      stored.getDimSize(0) % members != 0 ||
      cast<ktdp::AccessTileType>(found.tile.getType()).getShape() !=
          stored.getShape())
    return failure();
  for (Value value = store.getDataTile();;) {
    if (!value.hasOneUse())
      return failure();
    if (auto expand = value.getDefiningOp<tensor::ExpandShapeOp>()) {
      found.expand = expand;
      value = expand.getSrc();
      if (!value.hasOneUse())
        return failure();
    }
    if (auto reduce = value.getDefiningOp<ktdp::InterTileReduceOp>()) {
      if (reduce->getNumResults() != 1)
        return failure();
      found.reduce = reduce;
      break;
    }
    Operation *op = value.getDefiningOp();
    if (found.expand || !op || op->getNumResults() != 1 ||
        op->getNumRegions() != 0 || !OpTrait::hasElementwiseMappableTraits(op))
      return failure();
    Value next;
    for (Value operand : op->getOperands()) {
      if (isTileInvariant(operand))
        continue;
      if (next)
        return failure();
      next = operand;
    }
    if (!next)
      return failure();
    found.chain.push_back(op);
    value = next;
  }
  // The rows are those of the value the reduce (or the expand) yields.
  Value sum =
      found.expand ? found.expand.getResult() : found.reduce.getResult(0);
  auto type = dyn_cast<RankedTensorType>(sum.getType());
  if (!type || !type.hasStaticShape() || type.getShape() != stored.getShape())
    return failure();
  return found;
}

/// Rows [first, first + rows) of `value`, its other dimensions whole.
static Value sliceRows(OpBuilder &b, Value value, Value first, int64_t rows) {
  auto type = cast<RankedTensorType>(value.getType());
  int64_t rank = type.getRank();
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
  offsets[0] = first;
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < rank; ++d)
    sizes.push_back(b.getIndexAttr(d == 0 ? rows : type.getDimSize(d)));
  SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
  return tensor::ExtractSliceOp::create(b, value.getLoc(), value, offsets,
                                        sizes, strides);
}

/// Rows [first, first + rows) of the operand `value` every tile holds: a
/// splat of the rows' shape, or a load of those rows of the loaded tile
/// (a compute group captures no index: a slice at the tile's rows would
/// not lower).
static Value rowsOfInvariant(OpBuilder &b, Value value, Value first,
                             int64_t rows) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape[0] = rows;
  if (auto constant = value.getDefiningOp<arith::ConstantOp>()) {
    auto splat = cast<SplatElementsAttr>(constant.getValue());
    return arith::ConstantOp::create(
        b, constant.getLoc(),
        DenseElementsAttr::get(type.clone(shape),
                               splat.getSplatValue<Attribute>()));
  }
  auto load = value.getDefiningOp<ktdp::LoadOp>();
  return ktdp::LoadOp::create(
      b, load.getLoc(), type.clone(shape),
      buildDimSlice(b, load.getAccessTile(), 0, first, rows));
}

/// Rows [p R / `members`, (p + 1) R / `members`) of the chain's value
/// stored through the rows of its tile, p = `position`, the chain's ops
/// again on those rows; the reduce marked `ktdf.scatter`.
static void storeRows(OpBuilder &b, ktdp::StoreOp store, SumChain &found,
                      Value position, int64_t members) {
  auto stored = cast<RankedTensorType>(store.getDataTile().getType());
  int64_t rows = stored.getDimSize(0) / members;
  Location loc = store.getLoc();
  b.setInsertionPoint(store);
  Value first = arith::MulIOp::create(
      b, loc, position, arith::ConstantIndexOp::create(b, loc, rows));
  Value value = sliceRows(
      b, found.expand ? found.expand.getResult() : found.reduce.getResult(0),
      first, rows);
  for (Operation *op : llvm::reverse(found.chain)) {
    IRMapping map;
    for (Value operand : op->getOperands())
      map.map(operand, isTileInvariant(operand)
                           ? rowsOfInvariant(b, operand, first, rows)
                           : value);
    Operation *rowOp = b.clone(*op, map);
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    SmallVector<int64_t> shape(type.getShape());
    shape[0] = rows;
    rowOp->getResult(0).setType(type.clone(shape));
    value = rowOp->getResult(0);
  }
  store.getDataTileMutable().assign(value);
  store.getAccessTileMutable().assign(
      buildDimSlice(b, found.tile.getResult(), 0, first, rows));
  // What no longer has a reader: the chain, the whole operands (splats,
  // loads) and their tiles.
  std::function<void(Operation *)> eraseUnread = [&](Operation *op) {
    if (!op || !op->use_empty() || op->getNumResults() != 1 ||
        !(llvm::is_contained(found.chain, op) ||
          isa<ktdp::LoadOp, ktdp::ConstructAccessTileOp>(op) ||
          isSplatConstant(op->getResult(0))))
      return;
    SmallVector<Value> operands(op->getOperands());
    op->erase();
    for (Value operand : operands)
      eraseUnread(operand.getDefiningOp());
  };
  eraseUnread(found.chain.empty() ? nullptr : found.chain.front());
  eraseUnread(found.tile);
  setScattered(found.reduce);
}

bool mlir::ktdf::storeOwnRows(OpBuilder &b, ktdp::StoreOp store, Value part,
                              int64_t parts) {
  FailureOr<SumChain> found = sumChainOf(store, parts);
  if (failed(found))
    return false;
  storeRows(b, store, *found, part, parts);
  return true;
}

/// Whether `value` is the constant 1 or 0 selected on whether the tile id
/// `ids[d]` equals a constant in [0, `grid[d]`): the trips of the loop
/// ktdf-lower-if makes of `scf.if %pid == c` (one tile of the grid).
static bool isOneTileTrips(Value value, ValueRange ids,
                           ArrayRef<int64_t> grid) {
  auto select = value.getDefiningOp<arith::SelectOp>();
  auto cmp =
      select ? select.getCondition().getDefiningOp<arith::CmpIOp>() : nullptr;
  if (!cmp || cmp.getPredicate() != arith::CmpIPredicate::eq ||
      getConstantIntValue(select.getTrueValue()) != 1 ||
      getConstantIntValue(select.getFalseValue()) != 0)
    return false;
  // The id as Triton spells it too: cast to i32.
  auto uncast = [](Value v) {
    if (auto cast = v.getDefiningOp<arith::IndexCastOp>())
      return cast.getIn();
    return v;
  };
  for (auto [id, other] : {std::pair(cmp.getLhs(), cmp.getRhs()),
                           std::pair(cmp.getRhs(), cmp.getLhs())}) {
    auto it = llvm::find(ids, uncast(id));
    std::optional<int64_t> c = getConstantIntValue(other);
    if (it != ids.end() && c && *c >= 0 &&
        *c < grid[std::distance(ids.begin(), it)])
      return true;
  }
  return false;
}

/// The loops around `store` up to the function's body when each runs one
/// trip on one tile of the grid and none elsewhere (isOneTileTrips), with
/// nothing in it but side-effect-free ops, loads and the next loop or the
/// store; failure otherwise.
static FailureOr<SmallVector<scf::ForOp>>
oneTileGuards(ktdp::StoreOp store, ValueRange ids, ArrayRef<int64_t> grid) {
  SmallVector<scf::ForOp> guards;
  Operation *inner = store;
  for (Operation *parent = store->getParentOp(); !isa<func::FuncOp>(parent);
       inner = parent, parent = parent->getParentOp()) {
    auto loop = dyn_cast<scf::ForOp>(parent);
    if (!loop || loop.getNumResults() != 0 ||
        getConstantIntValue(loop.getLowerBound()) != 0 ||
        getConstantIntValue(loop.getStep()) != 1 ||
        !isOneTileTrips(loop.getUpperBound(), ids, grid))
      return failure();
    // Reads may run on every tile (a load ktdf-lower-if sank into it).
    for (Operation &op : loop.getBody()->without_terminator())
      if (&op != inner && !isMemoryEffectFree(&op) && !isa<ktdp::LoadOp>(op))
        return failure();
    guards.push_back(loop);
  }
  return guards;
}

void mlir::ktdf::storeOnlyWhere(OpBuilder &b, ktdp::StoreOp store,
                                Value condition) {
  Location loc = store.getLoc();
  b.setInsertionPoint(store);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value trips = arith::SelectOp::create(b, loc, condition, one, zero);
  auto loop = scf::ForOp::create(b, loc, zero, trips, one);
  store->moveBefore(loop.getBody()->getTerminator());
  Operation *tile = store.getAccessTile().getDefiningOp();
  if (tile && tile->hasOneUse() && tile->getBlock() == loop->getBlock())
    tile->moveBefore(store);
}

bool mlir::ktdf::storeShardRows(OpBuilder &b, ktdp::StoreOp store,
                                ValueRange ids, ArrayRef<int64_t> grid,
                                ArrayRef<ktdp::InterTileReduceOp> shared) {
  int64_t shards = 1;
  for (int64_t extent : grid.drop_back())
    shards *= extent;
  int64_t parts = grid.back();
  FailureOr<SmallVector<scf::ForOp>> guards =
      oneTileGuards(store, ids.drop_back(), grid.drop_back());
  FailureOr<SumChain> found = sumChainOf(store, shards);
  if (failed(guards) || failed(found) ||
      !llvm::is_contained(shared, found->reduce))
    return false;
  // Every tile runs the store now, then the tiles of group 0 alone.
  for (scf::ForOp guard : *guards) {
    b.setInsertionPoint(guard);
    guard.getUpperBoundMutable().assign(
        arith::ConstantIndexOp::create(b, guard.getLoc(), 1));
  }
  // The tile's number, first dimension fastest (the kernel's numbering):
  // group g holds tiles g, g + P, ... (P parts), tile t at position t / P.
  b.setInsertionPoint(store);
  Location loc = store.getLoc();
  auto index = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  Value tile = index(0);
  for (size_t d = grid.size(); d-- > 0;)
    tile = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, tile, index(grid[d])), ids[d]);
  Value position = arith::DivUIOp::create(b, loc, tile, index(parts));
  Value first = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      arith::RemUIOp::create(b, loc, tile, index(parts)), index(0));
  storeRows(b, store, *found, position, shards);
  storeOnlyWhere(b, store, first);
  return true;
}

bool mlir::ktdf::isEveryTileReduce(ktdp::InterTileReduceOp reduce,
                                   int64_t numTiles) {
  auto produce = reduce.getFuture().getDefiningOp<ktdp::InterTileProduceOp>();
  if (!produce)
    return false;
  auto type = cast<ktdp::TileFutureType>(produce.getFuture().getType());
  auto groups =
      ktdp::enumerateBoundedPoints(type.getGroups().getValue(), {}, 2);
  SmallVector<int64_t> every = llvm::to_vector(llvm::seq<int64_t>(numTiles));
  return succeeded(groups) && groups->size() == 1 &&
         groups->front().front() == 0 &&
         tilesOfGroup(produce.getProducerTilesPerGroup(), 0, numTiles) ==
             every &&
         tilesOfGroup(reduce.getConsumerTilesPerGroup(), 0, numTiles) == every;
}

bool mlir::ktdf::storeTileRows(func::FuncOp func, ArrayRef<int64_t> grid) {
  int64_t numTiles = ktdp::getNumTiles(grid);
  SmallVector<ktdp::InterTileReduceOp> shared;
  SmallVector<ktdp::StoreOp> stores;
  func.walk([&](Operation *op) {
    if (auto store = dyn_cast<ktdp::StoreOp>(op))
      stores.push_back(store);
    auto reduce = dyn_cast<ktdp::InterTileReduceOp>(op);
    if (reduce && !reduce->getParentOfType<scf::ForOp>() &&
        isEveryTileReduce(reduce, numTiles))
      shared.push_back(reduce);
  });
  if (shared.empty())
    return false;
  // One part: group 0 is every tile, tile t at position t.
  ktdp::GetComputeTileIdOp ids = hoistTileIds(func, grid.size());
  OpBuilder b(ids->getContext());
  b.setInsertionPointAfter(ids);
  SmallVector<Value> withPart(ids.getResults());
  withPart.push_back(arith::ConstantIndexOp::create(b, ids.getLoc(), 0));
  SmallVector<int64_t> oneCut(grid);
  oneCut.push_back(1);
  bool stored = false;
  for (ktdp::StoreOp store : stores)
    stored |= storeShardRows(b, store, withPart, oneCut, shared);
  return stored;
}
