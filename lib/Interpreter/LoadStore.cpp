//===- LoadStore.cpp - ktdp.load and ktdp.store ---------------------------===//
//
// This file moves data between memory and tensors through access tiles.
// Direct tiles over box-shaped sets and views take the fast path: the tile
// is intersected with each part's coordinate box and every intersection is
// copied with strided address arithmetic, rows that are contiguous in memory
// whole. Everything else (non-box sets,
// overlapping parts, indirect tiles, tiles over tensors) resolves one
// coordinate at a time, except that a load takes a row of coordinates that
// step by a constant (forEachTileRun) as one strided run where one box part
// holds it. A load first yields to the other tiles (see TileScheduler.h).
//
//===----------------------------------------------------------------------===//

#include "AccessTiles.h"
#include "BufferPool.h"
#include "Strided.h"

#include "ktflow/Dialect/KTDP/IR/KTDP.h"

using namespace mlir;
using namespace ktflow::interp;

namespace {
enum class Direction { Load, Store };
} // namespace

static bool canUseBoxPath(const AccessTile &tile) {
  if (tile.kind != AccessTile::Kind::Direct || !tile.dense || !tile.view)
    return false;
  if (tile.view->parts.size() > 1 && tile.view->partsMayOverlap)
    return false;
  return llvm::all_of(tile.view->parts,
                      [](const ViewPart &p) { return p.set->isBox(); });
}

/// Copies a box whose innermost dimension is contiguous in memory (and,
/// as the tile is row-major, in the tensor) one row at a time: the rows'
/// 8-byte slots move as they are, in the per-element order, so stores to
/// rows that overlap leave the same last value.
static void moveRows(MemRegion &region, Tensor &tensor,
                     ArrayRef<int64_t> extents, int64_t memOrigin,
                     ArrayRef<int64_t> memStrides, int64_t tileOrigin,
                     ArrayRef<int64_t> tileStrides, Direction direction) {
  size_t rank = extents.size();
  int64_t row = extents[rank - 1];
  bool floats = isFloat(tensor.dtype);
  auto *data = floats ? static_cast<void *>(tensor.floats.data())
                      : static_cast<void *>(tensor.ints.data());
  auto *slots = static_cast<uint8_t *>(data);
  if (direction == Direction::Store)
    region.written = true;
  // The odometer over the outer dimensions: one call per row.
  SmallVector<int64_t, 4> outer(extents.drop_back());
  outer.push_back(1);
  forEachStrided(outer, memOrigin, memStrides, tileOrigin, tileStrides,
                 [&](int64_t m, int64_t t) {
                   if (direction == Direction::Load)
                     region.readSlots(m, row, slots + t * 8);
                   else
                     region.writeSlots(m, row, slots + t * 8);
                 });
}

/// Copies between `tensor` (in tile order) and memory for a box tile.
static LogicalResult moveBox(TileExecutor &exec, Operation *op,
                             const AccessTile &tile, Tensor &tensor,
                             Direction direction) {
  size_t rank = tile.shape.size();
  SmallVector<int64_t, 4> lo(rank), hi(rank);
  for (size_t d = 0; d < rank; ++d) {
    lo[d] = tile.anchor[d] + tile.setLower[d];
    hi[d] = tile.anchor[d] + tile.setUpper[d];
  }
  SmallVector<int64_t, 4> tileStrides = rowMajorStrides(tile.shape);
  for (const ViewPart &part : tile.view->parts) {
    SmallVector<int64_t, 4> a(rank), b(rank);
    bool empty = false;
    for (size_t d = 0; d < rank; ++d) {
      a[d] = std::max(lo[d], part.box.lower[d]);
      b[d] = std::min(hi[d], part.box.upper[d]);
      empty |= a[d] > b[d];
    }
    if (empty)
      continue;
    int64_t origin = part.offset, minAddr = 0, maxAddr = 0;
    for (size_t d = 0; d < rank; ++d) {
      if (b[d] - part.box.lower[d] >= part.sizes[d]) {
        SmallVector<int64_t, 4> bad = a;
        bad[d] = part.box.lower[d] + part.sizes[d];
        return exec.error(op) << "coordinate " << formatCoords(bad)
                              << " is in the coordinate_set of a view but "
                                 "outside its sizes "
                              << formatCoords(part.sizes);
      }
      origin += (a[d] - part.box.lower[d]) * part.strides[d];
      int64_t span = (b[d] - a[d]) * part.strides[d];
      (span < 0 ? minAddr : maxAddr) += span;
    }
    minAddr += origin;
    maxAddr += origin;
    MemRegion *region = part.space->findAtOrBelow(minAddr, tile.view->dtype);
    if (!region || minAddr < region->base ||
        maxAddr >= region->base + region->size()) {
      auto diag = exec.error(op);
      diag << "coordinates " << formatCoords(a) << " to " << formatCoords(b);
      if (region)
        diag << " map to elements [" << minAddr - region->base << ", "
             << maxAddr - region->base << "] of '" << region->name
             << "', outside its " << region->size() << " elements";
      else
        diag << " map to addresses [" << minAddr << ", " << maxAddr
             << "], outside memory";
      return diag;
    }
    if (region->dtype != tile.view->dtype)
      return exec.error(op) << "type mismatch: memory holds "
                            << dtypeName(region->dtype.value_or(DType::F32))
                            << " elements";
    SmallVector<int64_t, 4> extents(rank), memStrides(rank);
    int64_t tileOrigin = 0;
    for (size_t k = 0; k < rank; ++k) {
      unsigned d = tile.perm[k];
      extents[k] = b[d] - a[d] + 1;
      memStrides[k] = part.strides[d];
      tileOrigin += (a[d] - lo[d]) * tileStrides[k];
    }
    int64_t memOrigin = origin - region->base;
    bool floats = isFloat(tensor.dtype);
    if (rank > 0 && region->holdsSlots() && memStrides[rank - 1] == 1) {
      moveRows(*region, tensor, extents, memOrigin, memStrides, tileOrigin,
               tileStrides, direction);
      continue;
    }
    if (direction == Direction::Load) {
      if (floats)
        forEachStrided(extents, memOrigin, memStrides, tileOrigin, tileStrides,
                       [&](int64_t m, int64_t t) {
                         tensor.floats[t] = region->getFloat(m);
                       });
      else
        forEachStrided(
            extents, memOrigin, memStrides, tileOrigin, tileStrides,
            [&](int64_t m, int64_t t) { tensor.ints[t] = region->getInt(m); });
    } else {
      region->written = true;
      if (floats)
        forEachStrided(extents, memOrigin, memStrides, tileOrigin, tileStrides,
                       [&](int64_t m, int64_t t) {
                         region->setFloat(m, tensor.floats[t]);
                       });
      else
        forEachStrided(
            extents, memOrigin, memStrides, tileOrigin, tileStrides,
            [&](int64_t m, int64_t t) { region->setInt(m, tensor.ints[t]); });
    }
  }
  return success();
}

/// Moves data one coordinate at a time; a load takes a run of coordinates
/// that lies in one box part (ViewAccessor::locateRun) with strided reads,
/// a contiguous one whole.
static LogicalResult movePoints(TileExecutor &exec, Operation *op,
                                const AccessTile &tile, Tensor &tensor,
                                Direction direction) {
  bool floats = isFloat(tensor.dtype);
  // Runs read their index elements before moving any point: loads only.
  bool runs = direction == Direction::Load;
  SmallVector<int64_t, 4> coord, last;
  auto forEachPoint = [&](const CoordinateRun &run,
                          function_ref<LogicalResult(int64_t)> move) {
    coord.resize(run.first.size());
    for (int64_t i = 0; i < run.count; ++i) {
      for (size_t d = 0; d < coord.size(); ++d)
        coord[d] = run.first[d] + i * run.step[d];
      if (failed(move(run.flat + i)))
        return failure();
    }
    return success();
  };
  if (tile.tensorBase) {
    const Tensor &base = *tile.tensorBase;
    SmallVector<int64_t, 4> strides = rowMajorStrides(base.shape);
    return forEachTileRun(exec, op, tile, runs, [&](const CoordinateRun &run) {
      return forEachPoint(run, [&](int64_t flat) {
        int64_t at = 0;
        for (auto [d, c] : llvm::enumerate(coord)) {
          if (c < 0 || c >= base.shape[d])
            return success(); // masked
          at += c * strides[d];
        }
        if (floats)
          tensor.floats[flat] = base.floats[at];
        else
          tensor.ints[flat] = base.ints[at];
        return success();
      });
    });
  }
  ViewAccessor accessor(*tile.view);
  auto movePoint = [&](int64_t flat) -> LogicalResult {
    MemRegion *region = nullptr;
    int64_t index = 0;
    switch (accessor.locate(coord, region, index)) {
    case ViewAccessor::Status::Masked:
      return success();
    case ViewAccessor::Status::OutsideView:
    case ViewAccessor::Status::OutsideMemory: {
      // The message is built only for the coordinate that fails.
      std::string why;
      accessor.locate(coord, region, index, &why);
      return LogicalResult(exec.error(op) << why);
    }
    case ViewAccessor::Status::Ok:
      break;
    }
    if (region->dtype != tile.view->dtype)
      return LogicalResult(exec.error(op)
                           << "type mismatch: memory holds "
                           << dtypeName(region->dtype.value_or(DType::F32))
                           << " elements");
    if (direction == Direction::Load) {
      if (floats)
        tensor.floats[flat] = region->getFloat(index);
      else
        tensor.ints[flat] = region->getInt(index);
    } else {
      region->written = true;
      if (floats)
        region->setFloat(index, tensor.floats[flat]);
      else
        region->setInt(index, tensor.ints[flat]);
    }
    return success();
  };
  return forEachTileRun(exec, op, tile, runs, [&](const CoordinateRun &run) {
    MemRegion *region = nullptr;
    int64_t index = 0, step = 0;
    if (direction == Direction::Load && run.count > 1) {
      last.resize(run.first.size());
      for (size_t d = 0; d < last.size(); ++d)
        last[d] = run.first[d] + (run.count - 1) * run.step[d];
      if (accessor.locateRun(run.first, last, run.step, region, index, step) &&
          region->dtype == tile.view->dtype) {
        if (step == 1 && region->holdsSlots()) {
          auto *data = floats ? static_cast<void *>(tensor.floats.data())
                              : static_cast<void *>(tensor.ints.data());
          region->readSlots(index, run.count,
                            static_cast<uint8_t *>(data) + run.flat * 8);
        } else if (floats) {
          for (int64_t i = 0; i < run.count; ++i)
            tensor.floats[run.flat + i] = region->getFloat(index + i * step);
        } else {
          for (int64_t i = 0; i < run.count; ++i)
            tensor.ints[run.flat + i] = region->getInt(index + i * step);
        }
        return success();
      }
    }
    return forEachPoint(run, movePoint);
  });
}

static FailureOr<TileRef> getTile(TileExecutor &exec, Operation *op, Value v) {
  const RValue &value = exec.get(v);
  if (!value.isTile())
    return exec.error(op) << "expected an access tile operand";
  return value.tile();
}

static LogicalResult checkElementType(TileExecutor &exec, Operation *op,
                                      const AccessTile &tile, DType dtype,
                                      StringRef what) {
  DType held = tile.view ? tile.view->dtype : tile.tensorBase->dtype;
  if (held != dtype)
    return exec.error(op) << "type mismatch: " << what << " has element type "
                          << dtypeName(dtype) << " but the access tile's "
                          << (tile.view ? "view" : "tensor") << " holds "
                          << dtypeName(held);
  return success();
}

/// Fails at `op` when its accesses needed more memory than the ceiling
/// (they went to a scratch page instead, see PagedMemory.h).
static LogicalResult checkMemoryCeiling(TileExecutor &exec, Operation *op) {
  MemoryBudget &memory = exec.state.memory;
  if (!memory.failed())
    return success();
  return exec.error(op) << memory.takeFailure();
}

LogicalResult ktflow::interp::runLoad(TileExecutor &exec, Operation *op) {
  auto load = cast<ktdp::LoadOp>(op);
  if (exec.state.yieldAtLoads && failed(exec.state.tileScheduler.yield()))
    return failure();
  FailureOr<TileRef> tile = getTile(exec, op, load.getAccessTile());
  if (failed(tile))
    return failure();
  auto type = cast<RankedTensorType>(load.getType());
  std::optional<DType> dtype = dtypeFromType(type.getElementType());
  if (!dtype)
    return exec.error(op) << "unsupported element type";
  if (failed(checkElementType(exec, op, **tile, *dtype, "the result")))
    return failure();
  for (auto [k, size] : llvm::enumerate(type.getShape()))
    if (!ShapedType::isDynamic(size) && size != (*tile)->shape[k])
      return exec.error(op) << "type mismatch: the result type " << type
                            << " does not match the tile's shape "
                            << formatShape((*tile)->shape);
  auto result = makeZeroTensor(*dtype, (*tile)->shape);
  LogicalResult moved =
      canUseBoxPath(**tile)
          ? moveBox(exec, op, **tile, *result, Direction::Load)
          : movePoints(exec, op, **tile, *result, Direction::Load);
  if (failed(moved) || failed(checkMemoryCeiling(exec, op)))
    return failure();
  exec.set(load, TensorRef(std::move(result)));
  return success();
}

LogicalResult ktflow::interp::runStore(TileExecutor &exec, Operation *op) {
  auto store = cast<ktdp::StoreOp>(op);
  FailureOr<TileRef> tile = getTile(exec, op, store.getAccessTile());
  FailureOr<TensorRef> data = exec.getTensor(op, store.getDataTile());
  if (failed(tile) || failed(data))
    return failure();
  if ((*tile)->tensorBase)
    return exec.error(op) << "cannot store through an access tile over a "
                             "tensor value";
  if (failed(checkElementType(exec, op, **tile, (*data)->dtype,
                              "the stored tensor")))
    return failure();
  if ((*data)->shape != (*tile)->shape)
    return exec.error(op) << "type mismatch: the stored tensor has shape "
                          << formatShape((*data)->shape)
                          << " but the tile's shape is "
                          << formatShape((*tile)->shape);
  // The move never writes into the tensor on a store.
  Tensor &source = const_cast<Tensor &>(**data);
  LogicalResult moved =
      canUseBoxPath(**tile)
          ? moveBox(exec, op, **tile, source, Direction::Store)
          : movePoints(exec, op, **tile, source, Direction::Store);
  return failure(failed(moved) || failed(checkMemoryCeiling(exec, op)));
}
