//===- TileCoordinates.cpp - The coordinates an access tile reaches -------===//
//
// This file enumerates the coordinates of an access tile's positions, in
// row-major tile order, a row of the innermost tile dimension at a time.
// An indirect tile reads its index views as it goes. Where the innermost
// dimension's variable enters the direct subscripts only through sums and
// products with terms free of it, and no index subscript at all, each
// subscript is a linear function of it along a row: the row's coordinates
// are first + i * step, with first and step found from the row's first two
// points. Every point of such a row resolves exactly when the first and
// the last do (each subexpression is linear along the row, so it stays
// between its values at the ends, and the index elements read are the
// same), so a caller that only reads memory may take the row as one run.
//
//===----------------------------------------------------------------------===//

#include "AccessTiles.h"

using namespace mlir;
using namespace ktflow::interp;

/// Whether `expr` is a linear function of dim `x` once every other dim is
/// fixed: `x` under no division or modulo, and never multiplied by an
/// expression that contains it too.
static bool isLinearAlong(AffineExpr expr, unsigned x) {
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary || !expr.isFunctionOfDim(x))
    return true;
  AffineExpr lhs = binary.getLHS(), rhs = binary.getRHS();
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return isLinearAlong(lhs, x) && isLinearAlong(rhs, x);
  case AffineExprKind::Mul:
    if (lhs.isFunctionOfDim(x) && rhs.isFunctionOfDim(x))
      return false;
    return isLinearAlong(lhs, x) && isLinearAlong(rhs, x);
  default:
    return false;
  }
}

/// The bounding box of every coordinate some part of `view` holds.
static ktdp::IntegerBox coordinateBounds(const MemoryView &view) {
  ktdp::IntegerBox box;
  for (const ViewPart &part : view.parts) {
    if (box.lower.empty()) {
      box = part.box;
      continue;
    }
    for (size_t d = 0; d < box.lower.size(); ++d) {
      box.lower[d] = std::min(box.lower[d], part.box.lower[d]);
      box.upper[d] = std::max(box.upper[d], part.box.upper[d]);
    }
  }
  return box;
}

namespace {
/// Finds the coordinate an indirect tile's set point accesses, locating
/// each index element once per run of points that read it (the view's
/// mapping to memory does not change while the tile is walked; its value
/// may, and is read at every point).
class IndirectResolver {
public:
  explicit IndirectResolver(const AccessTile &tile) : tile(tile) {
    for (const AccessTile::Subscript &sub : tile.subscripts)
      if (sub.indirect)
        accessors.emplace_back(*sub.indexView);
    cache.resize(accessors.size());
    if (tile.view)
      baseBounds = coordinateBounds(*tile.view);
    dims.assign(tile.captured.begin(), tile.captured.end());
    dims.resize(tile.captured.size() + tile.shape.size());
  }

  /// Whether every subscript is linear along dim `x` of (captured...,
  /// variables...) and no index subscript depends on it.
  bool linearAlong(unsigned x) const {
    for (const AccessTile::Subscript &sub : tile.subscripts)
      for (const CompiledExpr &expr : sub.exprs)
        if (sub.indirect ? expr.expr.isFunctionOfDim(x)
                         : !isLinearAlong(expr.expr, x))
          return false;
    return true;
  }

  /// Fills `coord` with the coordinate set point `point` accesses. A
  /// failure is reported at `op` when `exec` is given, silent otherwise.
  LogicalResult resolve(ArrayRef<int64_t> point, MutableArrayRef<int64_t> coord,
                        TileExecutor *exec, Operation *op);

private:
  /// The index element an index view's last coordinate located.
  struct IndexElement {
    SmallVector<int64_t, 4> coord;
    MemRegion *region = nullptr;
    int64_t index = 0;
  };
  const AccessTile &tile;
  SmallVector<ViewAccessor, 2> accessors;
  SmallVector<IndexElement, 2> cache;
  ktdp::IntegerBox baseBounds;
  SmallVector<int64_t, 8> dims;
  SmallVector<int64_t, 4> indexCoord;
};
} // namespace

LogicalResult IndirectResolver::resolve(ArrayRef<int64_t> point,
                                        MutableArrayRef<int64_t> coord,
                                        TileExecutor *exec, Operation *op) {
  llvm::copy(point, dims.begin() + tile.captured.size());
  unsigned next = 0;
  for (auto [j, sub] : llvm::enumerate(tile.subscripts)) {
    indexCoord.clear();
    for (const CompiledExpr &expr : sub.exprs) {
      std::optional<int64_t> v = expr.eval(dims, {});
      if (!v) {
        if (!exec)
          return failure();
        return exec->error(op) << "subscript evaluation failed (division "
                                  "by zero)";
      }
      indexCoord.push_back(*v);
    }
    if (!sub.indirect) {
      coord[j] = indexCoord.front();
      continue;
    }
    IndexElement &cached = cache[next];
    const ViewAccessor &accessor = accessors[next++];
    if (!cached.region || indexCoord != cached.coord) {
      std::string why;
      ViewAccessor::Status status = accessor.locate(
          indexCoord, cached.region, cached.index, exec ? &why : nullptr);
      if (status != ViewAccessor::Status::Ok) {
        if (!exec)
          return failure();
        if (status == ViewAccessor::Status::Masked)
          why = "coordinate " + formatCoords(indexCoord) +
                " is outside the index view's coordinate_set";
        return exec->error(op)
               << "reading the index view of dimension " << j << ": " << why;
      }
      cached.coord.assign(indexCoord.begin(), indexCoord.end());
    }
    MemRegion *region = cached.region;
    if (!region->dtype || isFloat(*region->dtype)) {
      if (!exec)
        return failure();
      return exec->error(op) << "type mismatch: the index view of dimension "
                             << j << " does not hold integers";
    }
    int64_t value = region->getInt(cached.index);
    if (tile.view &&
        (value < baseBounds.lower[j] || value > baseBounds.upper[j])) {
      if (!exec)
        return failure();
      return exec->error(op)
             << "index value " << value << " read from the index view at "
             << formatCoords(indexCoord) << " is out of range ["
             << baseBounds.lower[j] << ", " << baseBounds.upper[j]
             << "] of dimension " << j << " of the view";
    }
    coord[j] = value;
  }
  return success();
}

/// Sets `step` so that last == first + (count - 1) * step and second ==
/// first + step; false when no such step exists (or overflows).
static bool stepBetween(ArrayRef<int64_t> first, ArrayRef<int64_t> second,
                        ArrayRef<int64_t> last, int64_t count,
                        SmallVectorImpl<int64_t> &step) {
  step.resize(first.size());
  for (size_t d = 0; d < first.size(); ++d) {
    int64_t span, expected;
    if (__builtin_sub_overflow(second[d], first[d], &step[d]) ||
        __builtin_mul_overflow(step[d], count - 1, &span) ||
        __builtin_add_overflow(first[d], span, &expected) ||
        expected != last[d])
      return false;
  }
  return true;
}

LogicalResult ktflow::interp::forEachTileRun(
    TileExecutor &exec, Operation *op, const AccessTile &tile, bool runs,
    function_ref<LogicalResult(const CoordinateRun &)> visit) {
  size_t rank = tile.shape.size();
  int64_t n = productOf(tile.shape);
  if (n == 0)
    return success();
  bool indirect = tile.kind == AccessTile::Kind::Indirect;
  std::optional<IndirectResolver> resolver;
  if (indirect)
    resolver.emplace(tile);
  int64_t rowLength = rank ? tile.shape[rank - 1] : 1;
  // Rows as runs: an indirect tile (a direct tile's loads take the box
  // path where they can) whose every position is a set point.
  bool rowRuns = runs && indirect && tile.dense && rowLength > 1 &&
                 resolver->linearAlong(tile.captured.size() + tile.perm.back());
  size_t coordRank = indirect ? tile.subscripts.size() : rank;
  SmallVector<int64_t, 4> t(rank, 0), point(rank), coord(coordRank),
      second(coordRank), last(coordRank), step(coordRank, 0);
  auto setPoint = [&](int64_t inner) {
    if (rank)
      t[rank - 1] = inner;
    for (size_t k = 0; k < rank; ++k)
      point[tile.perm[k]] = tile.setLower[tile.perm[k]] + t[k];
  };
  auto inSet = [&]() {
    if (tile.dense)
      return true;
    if (!tile.set->isBox())
      return tile.set->contains(point, tile.setSymbols);
    for (size_t d = 0; d < rank; ++d)
      if (point[d] < tile.setLower[d] || point[d] > tile.setUpper[d])
        return false;
    return true;
  };
  auto resolve = [&](MutableArrayRef<int64_t> out, TileExecutor *report) {
    if (indirect)
      return resolver->resolve(point, out, report, op);
    for (size_t d = 0; d < rank; ++d)
      out[d] = tile.anchor[d] + point[d];
    return success();
  };
  // Whether the current row's points resolve to first + i * step: its first
  // two and its last point resolve (silently) and line up.
  auto rowIsRun = [&]() {
    setPoint(1);
    if (failed(resolve(second, nullptr)))
      return false;
    setPoint(rowLength - 1);
    if (failed(resolve(last, nullptr)))
      return false;
    setPoint(0);
    if (failed(resolve(coord, nullptr)))
      return false;
    return stepBetween(coord, second, last, rowLength, step);
  };
  for (int64_t flat = 0; flat < n; flat += rowLength) {
    if (rowRuns && rowIsRun()) {
      if (failed(visit({flat, coord, step, rowLength})))
        return failure();
    } else {
      llvm::fill(step, 0);
      for (int64_t i = 0; i < rowLength; ++i) {
        setPoint(i);
        if (!inSet())
          continue;
        if (failed(resolve(coord, &exec)) ||
            failed(visit({flat + i, coord, step, 1})))
          return failure();
      }
    }
    // The odometer over the outer dimensions.
    for (int64_t k = static_cast<int64_t>(rank) - 2; k >= 0; --k) {
      if (++t[k] < tile.shape[k])
        break;
      t[k] = 0;
    }
  }
  return success();
}
