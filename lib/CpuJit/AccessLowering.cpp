//===- AccessLowering.cpp - ktdp loads and stores as loop nests -----------===//
//
// This file lowers ktdp.load / ktdp.store on an access tile to a loop nest
// over the tile's positions with the interpreter's semantics
// (docs/interpreter.md §3): tile index t maps to set point
// `lower[perm[k]] + t_k` of the access (or variables-space) set; a point
// outside the set, or a coordinate outside the view's coordinate_set, is
// masked (a load yields 0, a store skips it); a coordinate inside the set
// but outside the view's sizes, or an element outside the tensor's buffer,
// is an error, recorded in the status buffer while the access is skipped.
// A direct tile's coordinate is anchor + point. An indirect tile's is one
// subscript per base dimension over (captured values, point): an affine
// expression, or an element of an integer index view read at affine
// coordinates; reading an index view anywhere but inside its
// coordinate_set, sizes and tensor, or reading a value outside the base
// view's coordinate bounds, is an error, as in the interpreter.
//
// A store reports the lowest and highest element it wrote, so that the
// caller can tell whether concurrent tiles' stores may overlap (Run.cpp).
// The guards are evaluated per element; LLVM hoists what does not depend on
// the position. A dense tile in identity order that lies in bounds as a
// whole skips them (DenseTiles.cpp). Loads build their tensor with
// tensor.insert in scf.for iter_args, which one-shot bufferization turns
// into stores in place.
//
//===----------------------------------------------------------------------===//

#include "AccessLowering.h"
#include "TileFunction.h"
#include "TileLowering.h"
#include "WorkBudget.h"

#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <limits>

using namespace mlir;
using namespace ktflow::jit;

namespace {

/// What one tile position does.
struct ElementAccess {
  /// The access happens (the position is not masked and nothing is wrong).
  Value ok;
  /// The position is not masked but the interpreter reports an error: an
  /// element outside the view's sizes or the tensor (`bad`), an index view
  /// read outside the view or a value out of the base's range (`badIndex`,
  /// indirect tiles only).
  Value bad, badIndex;
  /// The element of the buffer.
  Value address;
};

} // namespace

static Value indexConstant(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

static ElementAccess emitElementAccess(OpBuilder &b, Location loc,
                                       const TileLowering &tile,
                                       ValueRange positions) {
  const ViewLowering &view = *tile.view;
  unsigned rank = tile.perm.size();
  Value trueValue = arith::ConstantIntOp::create(b, loc, 1, 1);
  SmallVector<Value> point(rank);
  for (unsigned k = 0; k < rank; ++k) {
    unsigned d = tile.perm[k];
    point[d] = arith::AddIOp::create(b, loc, positions[k],
                                     indexConstant(b, loc, tile.setLower[d]));
  }
  Value inSet = trueValue;
  if (!tile.dense)
    inSet = emitContains(b, loc, tile.set, point, {});
  SmallVector<Value> coord;
  Value readable = trueValue;
  if (tile.indirect) {
    coord = emitIndirectCoordinates(b, loc, tile, point, readable);
  } else {
    for (unsigned d = 0; d < rank; ++d)
      coord.push_back(arith::AddIOp::create(b, loc, tile.anchor[d], point[d]));
  }
  Value inView, address, valid;
  emitViewLookup(b, loc, view, coord, inView, address, valid);
  // An unreadable index is an error wherever the set holds the point; a
  // readable one leads to a coordinate, masked outside the view's set.
  Value unreadable = arith::XOrIOp::create(b, loc, readable, trueValue);
  Value active = arith::AndIOp::create(
      b, loc, inSet, arith::AndIOp::create(b, loc, readable, inView));
  ElementAccess access;
  access.ok = arith::AndIOp::create(b, loc, active, valid);
  access.bad = arith::AndIOp::create(
      b, loc, active, arith::XOrIOp::create(b, loc, valid, trueValue));
  if (tile.indirect)
    access.badIndex = arith::AndIOp::create(b, loc, inSet, unreadable);
  access.address = address;
  return access;
}

/// Records error `code` in the status buffer when `condition` holds.
static void emitErrorIf(OpBuilder &b, Location loc, Value condition,
                        Value status, int64_t code) {
  scf::IfOp::create(b, loc, condition, [&](OpBuilder &then, Location l) {
    Value codeValue = arith::ConstantIntOp::create(then, l, code, 64);
    memref::StoreOp::create(then, l, codeValue, status,
                            ValueRange{indexConstant(then, l, kStatusError)});
    scf::YieldOp::create(then, l);
  });
}

LogicalResult ktflow::jit::shapeTile(TileLowering &tile, Value base,
                                     IntegerSet set, AffineMap order,
                                     ShapedType type, unsigned baseRank,
                                     const DenseMap<Value, ViewLowering> &views,
                                     std::string &why) {
  auto it = views.find(base);
  if (it == views.end()) {
    why = "access tiles over tensors are not lowered yet";
    return failure();
  }
  tile.view = &it->second;
  tile.set = set;
  if (!order.isPermutation() || order.getNumDims() != tile.set.getNumDims()) {
    why = "an access_tile_order that is not a permutation";
    return failure();
  }
  for (AffineExpr expr : order.getResults())
    tile.perm.push_back(cast<AffineDimExpr>(expr).getPosition());
  if (tile.set.getNumSymbols() != 0) {
    why = "access_tile_sets with symbols are not lowered yet";
    return failure();
  }
  FailureOr<ktdp::IntegerBox> box = ktdp::getBoundingBox(tile.set, {});
  if (failed(box)) {
    why = "an unbounded access_tile_set";
    return failure();
  }
  tile.setLower = box->lower;
  tile.setUpper = box->upper;
  SmallVector<int64_t> extents = box->getExtents();
  if (type.getRank() != static_cast<int64_t>(tile.perm.size()) ||
      tile.view->sizes.size() != baseRank) {
    why = "an access tile whose rank differs from its set or view";
    return failure();
  }
  tile.dense = ktdp::isBoxShaped(tile.set);
  for (auto [k, d] : llvm::enumerate(tile.perm)) {
    int64_t typed = type.getDimSize(k);
    if (ShapedType::isDynamic(typed)) {
      why = "access tiles of dynamic shape are not lowered yet";
      return failure();
    }
    if (typed < extents[d]) {
      why = "an access tile smaller than its set";
      return failure();
    }
    tile.dense &= typed == extents[d];
    tile.shape.push_back(typed);
  }
  return success();
}

static FailureOr<TileLowering>
lowerTile(ktdp::ConstructAccessTileOp op,
          const DenseMap<Value, ViewLowering> &views, std::string &why) {
  TileLowering tile;
  auto type = cast<ShapedType>(op.getType());
  if (failed(shapeTile(tile, op.getBase(), op.getAccessTileSet(),
                       op.getAccessTileOrder(), type, type.getRank(), views,
                       why)))
    return failure();
  OpBuilder b(op);
  std::optional<SmallVector<Value, 8>> anchor =
      affine::expandAffineMap(b, op.getLoc(), op.getBaseMap(), op.getIndices());
  if (!anchor) {
    why = "an anchor map that cannot be expanded";
    return failure();
  }
  tile.anchor.assign(anchor->begin(), anchor->end());
  return tile;
}

/// The tile's loop bounds.
static void tileBounds(OpBuilder &b, Location loc, const TileLowering &tile,
                       SmallVector<Value> &lbs, SmallVector<Value> &ubs,
                       SmallVector<Value> &steps) {
  for (int64_t extent : tile.shape) {
    lbs.push_back(indexConstant(b, loc, 0));
    ubs.push_back(indexConstant(b, loc, extent));
    steps.push_back(indexConstant(b, loc, 1));
  }
}

/// The tile loaded into `init` position by position, each guarded.
static Value emitGuardedLoad(OpBuilder &b, Location loc,
                             const TileLowering &tile, Value init,
                             Value status) {
  Type element = cast<ShapedType>(init.getType()).getElementType();
  SmallVector<Value> lbs, ubs, steps;
  tileBounds(b, loc, tile, lbs, ubs, steps);
  scf::LoopNest nest = scf::buildLoopNest(
      b, loc, lbs, ubs, steps, ValueRange{init},
      [&](OpBuilder &nb, Location l, ValueRange ivs,
          ValueRange iterArgs) -> scf::ValueVector {
        ElementAccess access = emitElementAccess(nb, l, tile, ivs);
        auto value = scf::IfOp::create(
            nb, l, access.ok,
            [&](OpBuilder &then, Location tl) {
              Value v = memref::LoadOp::create(then, tl, tile.view->bufferValue,
                                               ValueRange{access.address});
              scf::YieldOp::create(then, tl, v);
            },
            [&](OpBuilder &otherwise, Location el) {
              Value zero = arith::ConstantOp::create(
                  otherwise, el, element, otherwise.getZeroAttr(element));
              scf::YieldOp::create(otherwise, el, zero);
            });
        emitErrorIf(nb, l, access.bad, status, kErrorOutsideMemory);
        if (access.badIndex)
          emitErrorIf(nb, l, access.badIndex, status, kErrorIndex);
        Value updated = tensor::InsertOp::create(nb, l, value.getResult(0),
                                                 iterArgs.front(), ivs);
        return {updated};
      });
  return nest.results.empty() ? init : nest.results.front();
}

/// Records the error of an element outside its tensor: what the guarded
/// loop nest of a tile proved inside its view (TileLowering::inViewOnGrid)
/// finds when the fast path's check fails, so the nest itself is not
/// emitted (it doubled the code of each access: paged attention's cold
/// compile grew past 300 ms).
static void emitOutsideTensor(OpBuilder &b, Location loc, Value status) {
  emitErrorIf(b, loc, arith::ConstantIntOp::create(b, loc, 1, 1), status,
              kErrorOutsideMemory);
}

/// A tile with a fast path (DenseTiles.cpp) takes it when it lies in
/// bounds as a whole; the guarded loop nest handles the others.
static void lowerLoad(ktdp::LoadOp load, const TileLowering &tile,
                      Value status) {
  OpBuilder b(load);
  Location loc = load.getLoc();
  auto type = cast<RankedTensorType>(load.getType());
  Value init =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  Value loaded;
  if (hasFastPath(tile)) {
    Value base;
    Value inBounds = emitTileInBounds(b, loc, tile, base);
    loaded = scf::IfOp::create(
                 b, loc, inBounds,
                 [&](OpBuilder &then, Location l) {
                   scf::YieldOp::create(
                       then, l, emitDenseLoad(then, l, tile, base, init));
                 },
                 [&](OpBuilder &otherwise, Location l) {
                   if (tile.inViewOnGrid) {
                     emitOutsideTensor(otherwise, l, status);
                     scf::YieldOp::create(otherwise, l, init);
                     return;
                   }
                   scf::YieldOp::create(
                       otherwise, l,
                       emitGuardedLoad(otherwise, l, tile, init, status));
                 })
                 .getResult(0);
  } else {
    loaded = emitGuardedLoad(b, loc, tile, init, status);
  }
  load.replaceAllUsesWith(loaded);
  load.erase();
}

void ktflow::jit::emitRowReport(OpBuilder &b, Location loc, unsigned buffer,
                                Value lo, Value hi, Value rows, Value step,
                                Value status) {
  Value wrote =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, lo, hi);
  scf::IfOp::create(b, loc, wrote, [&](OpBuilder &then, Location tl) {
    Value one = arith::ConstantIntOp::create(then, tl, 1, 64);
    memref::StoreOp::create(
        then, tl, one, status,
        ValueRange{indexConstant(then, tl, kStatusWritten + buffer)});
    func::CallOp::create(
        then, tl, kStoredRangeFunctionName, TypeRange{},
        ValueRange{indexConstant(then, tl, buffer), lo, hi, rows, step});
    scf::YieldOp::create(then, tl);
  });
}

/// The innermost loop carries the lowest and highest element it stored;
/// each row of the tile that wrote any element reports them
/// (kStoredRangeFunctionName), so blocks of a matrix report their rows, not
/// one range that spans the blocks beside them.
static void emitGuardedStore(OpBuilder &b, Location loc,
                             const TileLowering &tile, Value data,
                             Value status) {
  SmallVector<Value> lbs, ubs, steps;
  tileBounds(b, loc, tile, lbs, ubs, steps);
  auto storeRow = [&](OpBuilder &rb, Location l, ValueRange outerIvs) {
    Value noLo = indexConstant(rb, l, std::numeric_limits<int64_t>::max());
    Value noHi = indexConstant(rb, l, std::numeric_limits<int64_t>::min());
    auto storeElement = [&](OpBuilder &nb, ValueRange ivs,
                            ValueRange range) -> SmallVector<Value> {
      ElementAccess access = emitElementAccess(nb, l, tile, ivs);
      auto stored = scf::IfOp::create(
          nb, l, access.ok,
          [&](OpBuilder &then, Location tl) {
            Value v = tensor::ExtractOp::create(then, tl, data, ivs);
            memref::StoreOp::create(then, tl, v, tile.view->bufferValue,
                                    ValueRange{access.address});
            Value lo =
                arith::MinSIOp::create(then, tl, range[0], access.address);
            Value hi =
                arith::MaxSIOp::create(then, tl, range[1], access.address);
            scf::YieldOp::create(then, tl, ValueRange{lo, hi});
          },
          [&](OpBuilder &otherwise, Location el) {
            scf::YieldOp::create(otherwise, el, range);
          });
      emitErrorIf(nb, l, access.bad, status, kErrorOutsideMemory);
      if (access.badIndex)
        emitErrorIf(nb, l, access.badIndex, status, kErrorIndex);
      return {stored.getResult(0), stored.getResult(1)};
    };
    SmallVector<Value> range;
    if (lbs.empty()) {
      range = storeElement(rb, {}, ValueRange{noLo, noHi});
    } else {
      auto row = scf::ForOp::create(
          rb, l, lbs.back(), ubs.back(), steps.back(), ValueRange{noLo, noHi},
          [&](OpBuilder &nb, Location, Value iv, ValueRange iterArgs) {
            SmallVector<Value> ivs(outerIvs);
            ivs.push_back(iv);
            scf::YieldOp::create(nb, l, storeElement(nb, ivs, iterArgs));
          });
      range.assign(row.getResults().begin(), row.getResults().end());
    }
    emitRowReport(rb, l, tile.view->buffer, range[0], range[1],
                  indexConstant(rb, l, 1), indexConstant(rb, l, 0), status);
  };
  if (lbs.size() <= 1) {
    storeRow(b, loc, {});
  } else {
    scf::buildLoopNest(b, loc, ArrayRef(lbs).drop_back(),
                       ArrayRef(ubs).drop_back(), ArrayRef(steps).drop_back(),
                       [&](OpBuilder &nb, Location l, ValueRange ivs) {
                         storeRow(nb, l, ivs);
                       });
  }
}

static void lowerStore(ktdp::StoreOp store, const TileLowering &tile,
                       Value status) {
  OpBuilder b(store);
  Location loc = store.getLoc();
  Value data = store.getDataTile();
  if (hasFastPath(tile)) {
    Value base;
    Value inBounds = emitTileInBounds(b, loc, tile, base);
    scf::IfOp::create(
        b, loc, inBounds,
        [&](OpBuilder &then, Location l) {
          emitDenseStore(then, l, tile, base, data, status);
          scf::YieldOp::create(then, l);
        },
        [&](OpBuilder &otherwise, Location l) {
          if (tile.inViewOnGrid)
            emitOutsideTensor(otherwise, l, status);
          else
            emitGuardedStore(otherwise, l, tile, data, status);
          scf::YieldOp::create(otherwise, l);
        });
  } else {
    emitGuardedStore(b, loc, tile, data, status);
  }
  store.erase();
}

/// A step that is not positive would loop for ever (or not at all where
/// the interpreter reports it): record an error and run no iteration.
static void guardLoopStep(scf::ForOp loop, Value status) {
  if (matchPattern(loop.getStep(), m_Constant()))
    return;
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  Value zero = indexConstant(b, loc, 0);
  Value step = loop.getStep();
  Value bad =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, step, zero);
  emitErrorIf(b, loc, bad, status, kErrorLoopStep);
  loop.getStepMutable().assign(
      arith::SelectOp::create(b, loc, bad, indexConstant(b, loc, 1), step));
  loop.getUpperBoundMutable().assign(arith::SelectOp::create(
      b, loc, bad, loop.getLowerBound(), loop.getUpperBound()));
}

LogicalResult
ktflow::jit::lowerAccesses(func::FuncOp fn,
                           const DenseMap<Value, ViewLowering> &views,
                           Value status, bool interleaved, std::string &why) {
  DenseMap<Value, TileLowering> tiles;
  WalkResult walk = fn.walk([&](Operation *op) {
    FailureOr<TileLowering> tile = failure();
    if (auto direct = dyn_cast<ktdp::ConstructAccessTileOp>(op))
      tile = lowerTile(direct, views, why);
    else if (auto indirect = dyn_cast<ktdp::ConstructIndirectAccessTileOp>(op))
      tile = lowerIndirectTile(indirect, views, why);
    else
      return WalkResult::advance();
    if (failed(tile))
      return WalkResult::interrupt();
    tiles[op->getResult(0)] = std::move(*tile);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  // The tile ids x, y, z are the arguments before the status buffer
  // (TileFunction.h), each below the grid's extent along it (1 past the
  // grid's rank).
  SmallVector<std::pair<Value, int64_t>> tileIds;
  auto statusArg = dyn_cast<BlockArgument>(status);
  auto grid = fn->getAttrOfType<ArrayAttr>("grid");
  if (statusArg && statusArg.getArgNumber() >= 3 && grid && grid.size() <= 3) {
    for (unsigned k = 0; k < 3; ++k) {
      auto extent = k < grid.size() ? dyn_cast<IntegerAttr>(grid[k]) : nullptr;
      int64_t size = k >= grid.size() ? 1 : extent ? extent.getInt() : 0;
      if (size <= 0) {
        tileIds.clear();
        break;
      }
      tileIds.push_back(
          {fn.getArgument(statusArg.getArgNumber() - 3 + k), size});
    }
  }
  for (auto &[value, tile] : tiles)
    tile.inViewOnGrid = liesInViewOnGrid(tile, tileIds);
  // Measured before the accesses become loops of their own.
  KernelWork work = measureKernelWork(fn);
  OpBuilder declare(fn);
  Type index = declare.getIndexType();
  func::FuncOp::create(
      declare, fn.getLoc(), kStoredRangeFunctionName,
      declare.getFunctionType({index, index, index, index, index}, {}))
      .setPrivate();
  if (interleaved)
    func::FuncOp::create(declare, fn.getLoc(), kYieldFunctionName,
                         declare.getFunctionType({}, {}))
        .setPrivate();
  SmallVector<Operation *> accesses;
  fn.walk([&](Operation *op) {
    if (isa<ktdp::LoadOp, ktdp::StoreOp>(op))
      accesses.push_back(op);
  });
  for (Operation *op : accesses) {
    Value tileValue = isa<ktdp::LoadOp>(op)
                          ? cast<ktdp::LoadOp>(op).getAccessTile()
                          : cast<ktdp::StoreOp>(op).getAccessTile();
    auto it = tiles.find(tileValue);
    if (it == tiles.end()) {
      why = "an access tile that is not built by construct_access_tile or "
            "construct_indirect_access_tile";
      return failure();
    }
    ShapedType data = isa<ktdp::LoadOp>(op)
                          ? cast<ShapedType>(op->getResult(0).getType())
                          : cast<ShapedType>(op->getOperand(0).getType());
    if (data.getShape() != ArrayRef<int64_t>(it->second.shape) ||
        data.getElementType() !=
            cast<MemRefType>(it->second.view->bufferValue.getType())
                .getElementType()) {
      why = "a load or store whose tensor differs from its tile";
      return failure();
    }
    if (auto load = dyn_cast<ktdp::LoadOp>(op)) {
      if (interleaved) {
        OpBuilder b(load);
        func::CallOp::create(b, load.getLoc(), kYieldFunctionName, TypeRange{},
                             ValueRange{});
      }
      lowerLoad(load, it->second, status);
    } else {
      lowerStore(cast<ktdp::StoreOp>(op), it->second, status);
    }
  }
  fn.walk([&](scf::ForOp loop) { guardLoopStep(loop, status); });
  chargeKernelWork(fn, work, status);
  return success();
}
