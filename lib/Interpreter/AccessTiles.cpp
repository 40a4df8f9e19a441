//===- AccessTiles.cpp - Construction and enumeration of access tiles -----===//
//
// This file builds direct and indirect access tiles and enumerates their
// coordinates. A tile's shape is its type's static extents, or the set's
// extents (in `access_tile_order`) where the type says `?`; tile index t_k
// is set point lower[perm[k]] + t_k. A static extent larger than the set
// leaves masked positions; a smaller one is an error.
//
//===----------------------------------------------------------------------===//

#include "AccessTiles.h"

#include "ktflow/Dialect/KTDP/IR/KTDP.h"

using namespace mlir;
using namespace ktflow::interp;

ViewAccessor::ViewAccessor(const MemoryView &view) : view(view) {
  for (const ViewPart &part : view.parts) {
    int64_t lo = part.offset;
    bool empty = false;
    for (auto [size, stride] : llvm::zip(part.sizes, part.strides)) {
      empty |= size == 0;
      int64_t span = (size - 1) * stride;
      if (span < 0)
        lo += span;
    }
    regions.push_back(empty ? nullptr
                            : part.space->findAtOrBelow(lo, view.dtype));
  }
}

ViewAccessor::Status ViewAccessor::locate(ArrayRef<int64_t> coord,
                                          MemRegion *&region, int64_t &index,
                                          std::string *message) const {
  for (auto [i, part] : llvm::enumerate(view.parts)) {
    bool inside = true;
    if (part.set->isBox()) {
      for (size_t d = 0; d < coord.size() && inside; ++d)
        inside = coord[d] >= part.box.lower[d] && coord[d] <= part.box.upper[d];
    } else {
      inside = part.set->contains(coord, part.setSymbols);
    }
    if (!inside)
      continue;
    int64_t addr = part.offset;
    for (size_t d = 0; d < coord.size(); ++d) {
      int64_t local = coord[d] - part.box.lower[d];
      if (local < 0 || local >= part.sizes[d]) {
        if (message)
          *message = "coordinate " + formatCoords(coord) +
                     " is in the coordinate_set of a view but outside its "
                     "sizes " +
                     formatCoords(part.sizes);
        return Status::OutsideView;
      }
      addr += local * part.strides[d];
    }
    MemRegion *r = regions[i];
    if (!r || addr < r->base || addr >= r->base + r->size()) {
      if (message) {
        *message = "coordinate " + formatCoords(coord);
        if (r)
          *message += " maps to element " + std::to_string(addr - r->base) +
                      " of '" + r->name + "', outside its " +
                      std::to_string(r->size()) + " elements";
        else
          *message += " maps to address " + std::to_string(addr) +
                      ", outside memory";
      }
      return Status::OutsideMemory;
    }
    region = r;
    index = addr - r->base;
    return Status::Ok;
  }
  return Status::Masked;
}

bool ViewAccessor::locateRun(ArrayRef<int64_t> first, ArrayRef<int64_t> last,
                             ArrayRef<int64_t> step, MemRegion *&region,
                             int64_t &index, int64_t &indexStep) const {
  // The first part serves every coordinate it holds. Its box, its sizes
  // and the region are convex: what lies between two coordinates (and
  // addresses) they hold, they hold too.
  if (view.parts.empty() || !view.parts[0].set->isBox() || !regions[0])
    return false;
  const ViewPart &part = view.parts[0];
  int64_t firstAddr = part.offset, lastAddr = part.offset;
  indexStep = 0;
  for (size_t d = 0; d < first.size(); ++d) {
    for (int64_t c : {first[d], last[d]})
      if (c < part.box.lower[d] || c > part.box.upper[d] ||
          c - part.box.lower[d] >= part.sizes[d])
        return false;
    firstAddr += (first[d] - part.box.lower[d]) * part.strides[d];
    lastAddr += (last[d] - part.box.lower[d]) * part.strides[d];
    indexStep += step[d] * part.strides[d];
  }
  MemRegion *r = regions[0];
  for (int64_t addr : {firstAddr, lastAddr})
    if (addr < r->base || addr >= r->base + r->size())
      return false;
  region = r;
  index = firstAddr - r->base;
  return true;
}

/// Fills the shape, permutation and set bounds shared by both tile kinds.
static LogicalResult shapeTile(TileExecutor &exec, Operation *op,
                               AccessTile &tile, IntegerSet set,
                               AffineMap order, ArrayRef<int64_t> symbols) {
  FailureOr<SmallVector<unsigned, 4>> perm = getOrderPermutation(order);
  if (failed(perm) || perm->size() != set.getNumDims())
    return exec.error(op) << "the order map must be a permutation of the "
                             "set's dimensions";
  tile.perm = *perm;
  tile.set = &exec.state.setPlans.get(set);
  tile.setSymbols.assign(symbols.begin(), symbols.end());
  FailureOr<ktdp::IntegerBox> box = tile.set->bounds(tile.setSymbols);
  if (failed(box))
    return exec.error(op) << "the access set is unbounded";
  tile.setLower.assign(box->lower.begin(), box->lower.end());
  tile.setUpper.assign(box->upper.begin(), box->upper.end());
  SmallVector<int64_t, 4> extents = box->getExtents();
  auto type = cast<ShapedType>(op->getResult(0).getType());
  if (type.getRank() != static_cast<int64_t>(tile.perm.size()))
    return exec.error(op) << "tile type rank does not match the set";
  tile.dense = tile.set->isBox();
  for (auto [k, d] : llvm::enumerate(tile.perm)) {
    int64_t extent = extents[d];
    int64_t typed = type.getDimSize(k);
    if (ShapedType::isDynamic(typed)) {
      tile.shape.push_back(extent);
      continue;
    }
    if (typed < extent)
      return exec.error(op) << "the tile type has extent " << typed
                            << " in dimension " << k
                            << " but the set spans " << extent << " points";
    tile.dense &= typed == extent;
    tile.shape.push_back(typed);
  }
  if (!fitsElementLimit(tile.shape))
    return exec.error(op) << "the tile's shape " << formatShape(tile.shape)
                          << " has more than 2^28 elements";
  return success();
}

static LogicalResult bindBase(TileExecutor &exec, Operation *op,
                              AccessTile &tile, Value base) {
  const RValue &value = exec.get(base);
  if (value.isView())
    tile.view = value.view();
  else if (value.isTensor())
    tile.tensorBase = value.tensor();
  else
    return exec.error(op) << "the base must be a memory view or a tensor";
  return success();
}

static unsigned baseRank(const AccessTile &tile) {
  return tile.view ? tile.view->rank
                   : static_cast<unsigned>(tile.tensorBase->rank());
}

LogicalResult ktflow::interp::runConstructAccessTile(TileExecutor &exec,
                                                     Operation *op) {
  auto tileOp = cast<ktdp::ConstructAccessTileOp>(op);
  auto tile = std::make_shared<AccessTile>();
  tile->kind = AccessTile::Kind::Direct;
  tile->op = op;
  if (failed(bindBase(exec, op, *tile, tileOp.getBase())))
    return failure();
  FailureOr<SmallVector<int64_t, 4>> indices =
      exec.getIndices(op, tileOp.getIndices());
  FailureOr<SmallVector<int64_t, 4>> symbols =
      exec.getIndices(op, tileOp.getSymbolOperands());
  if (failed(indices) || failed(symbols))
    return failure();
  FailureOr<SmallVector<int64_t, 4>> anchor =
      evaluateMap(tileOp.getBaseMap(), *indices);
  if (failed(anchor))
    return exec.error(op) << "cannot evaluate the anchor coordinate";
  tile->anchor = *anchor;
  IntegerSet set = tileOp.getAccessTileSet();
  if (set.getNumSymbols() != symbols->size())
    return exec.error(op) << "access_tile_set has " << set.getNumSymbols()
                          << " symbols but " << symbols->size()
                          << " symbol operands are given";
  if (failed(shapeTile(exec, op, *tile, set, tileOp.getAccessTileOrder(),
                       *symbols)))
    return failure();
  if (tile->anchor.size() != set.getNumDims() ||
      baseRank(*tile) != set.getNumDims())
    return exec.error(op) << "the anchor, the access set and the base must "
                             "have the same rank";
  exec.set(tileOp, TileRef(std::move(tile)));
  return success();
}

LogicalResult ktflow::interp::runConstructIndirectAccessTile(TileExecutor &exec,
                                                             Operation *op) {
  auto tileOp = cast<ktdp::ConstructIndirectAccessTileOp>(op);
  auto tile = std::make_shared<AccessTile>();
  tile->kind = AccessTile::Kind::Indirect;
  tile->op = op;
  if (failed(bindBase(exec, op, *tile, tileOp.getBase())))
    return failure();
  FailureOr<SmallVector<int64_t, 4>> captured =
      exec.getIndices(op, tileOp.getCapturedVariables());
  FailureOr<SmallVector<int64_t, 4>> symbols =
      exec.getIndices(op, tileOp.getSymbolOperands());
  if (failed(captured) || failed(symbols))
    return failure();
  tile->captured = *captured;
  IntegerSet set = tileOp.getVariablesSpaceSet();
  if (set.getNumSymbols() != symbols->size())
    return exec.error(op) << "variables_space_set has " << set.getNumSymbols()
                          << " symbols but " << symbols->size()
                          << " symbol operands are given";
  if (failed(shapeTile(exec, op, *tile, set, tileOp.getVariablesSpaceOrder(),
                       *symbols)))
    return failure();
  unsigned numDims = captured->size() + set.getNumDims();
  ArrayAttr kinds = tileOp.getPerDimSubscriptKinds();
  ArrayAttr maps = tileOp.getPerDimSubscriptMaps();
  if (kinds.size() != maps.size() || maps.size() != baseRank(*tile))
    return exec.error(op) << "one subscript per base dimension is required";
  unsigned nextIndexView = 0;
  auto indexViews = tileOp.getIndirectMemrefs();
  for (auto [kindAttr, mapAttr] : llvm::zip(kinds, maps)) {
    AffineMap map = cast<AffineMapAttr>(mapAttr).getValue();
    if (map.getNumDims() != numDims || map.getNumSymbols() != 0)
      return exec.error(op) << "subscript maps must range over the captured "
                               "and intermediate variables";
    AccessTile::Subscript sub;
    sub.indirect = cast<BoolAttr>(kindAttr).getValue();
    for (AffineExpr expr : map.getResults())
      sub.exprs.push_back(CompiledExpr::compile(expr, numDims));
    if (sub.indirect) {
      if (nextIndexView >= indexViews.size())
        return exec.error(op) << "missing index view";
      const RValue &value = exec.get(indexViews[nextIndexView++]);
      if (!value.isView())
        return exec.error(op) << "index views must be memory views";
      sub.indexView = value.view();
      if (isFloat(sub.indexView->dtype))
        return exec.error(op) << "type mismatch: index views must hold "
                                 "integers, not "
                              << dtypeName(sub.indexView->dtype);
      if (sub.indexView->rank != sub.exprs.size())
        return exec.error(op) << "an indirect subscript needs one expression "
                                 "per index-view dimension";
    } else if (sub.exprs.size() != 1) {
      return exec.error(op) << "a direct subscript has one expression";
    }
    tile->subscripts.push_back(std::move(sub));
  }
  exec.set(tileOp, TileRef(std::move(tile)));
  return success();
}
