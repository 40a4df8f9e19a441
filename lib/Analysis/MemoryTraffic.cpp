//===- MemoryTraffic.cpp - The device memory a kernel touches -------------===//
//
// This file follows views and access tiles with their values evaluated and
// adds each load's and store's touched elements to its tensor's byte
// ranges. What it cannot follow (a view or tile with an unknown value, the
// data-dependent elements of an indirect tile) it leaves out and names as
// a gap, so the bytes stay a lower bound.
//
//===----------------------------------------------------------------------===//

#include "MemoryTraffic.h"

#include "ktflow/Analysis/CompiledAffineExpr.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Support/ElementBytes.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace ktflow;

bool MemoryTraffic::visit(Operation *op) {
  if (auto view = dyn_cast<ktdp::ConstructMemoryViewOp>(op))
    noteView(view);
  else if (auto view = dyn_cast<ktdp::ConstructDistributedMemoryViewOp>(op))
    noteDistributedView(view);
  else if (auto tile = dyn_cast<ktdp::ConstructAccessTileOp>(op))
    noteTile(tile);
  else if (auto tile = dyn_cast<ktdp::ConstructIndirectAccessTileOp>(op))
    noteIndirectTile(tile);
  else if (auto load = dyn_cast<ktdp::LoadOp>(op))
    noteAccess(load.getAccessTile(), load.getType(), /*store=*/false);
  else if (auto store = dyn_cast<ktdp::StoreOp>(op))
    noteAccess(store.getAccessTile(), store.getDataTile().getType(),
               /*store=*/true);
  else
    return false;
  return true;
}

void MemoryTraffic::finish() {
  for (auto &[key, use] : tensors) {
    demand.bytesRead += use.read.size();
    demand.bytesWritten += use.written.size();
  }
}

/// A tile a helper returns keeps naming the helper's values (its view, its
/// index views), which the helper's next call rebinds: a tile the kernel
/// held across a second call of its helper would count at that call's
/// values (no shipped kernel does so).
void MemoryTraffic::bind(Value to, Value from) {
  auto copy = [&](auto &map) {
    if (auto it = map.find(from); it != map.end()) {
      auto known = it->second;
      map[to] = std::move(known);
    } else {
      map.erase(to);
    }
  };
  copy(views);
  copy(tiles);
  addresses.erase(to);
  if (isa<IndexType, IntegerType>(from.getType()))
    if (auto address = resolveAddress(from))
      addresses[to] = *address;
}

/// The tensor an address points into and the offset (in elements) it
/// points at: an argument plus known values, or a literal.
std::optional<std::pair<MemoryTraffic::TensorKey, int64_t>>
MemoryTraffic::resolveAddress(Value address) {
  if (auto it = addresses.find(address); it != addresses.end())
    return it->second;
  if (auto arg = dyn_cast<BlockArgument>(address);
      arg && arg.getOwner() == &kernel.getBody().front())
    return std::make_pair(TensorKey{false, arg.getArgNumber()}, 0);
  APInt literal;
  if (matchPattern(address, m_ConstantInt(&literal)))
    return std::make_pair(TensorKey{true, literal.getSExtValue()}, 0);
  if (auto add = address.getDefiningOp<arith::AddIOp>())
    for (auto [base, offset] : {std::make_pair(add.getLhs(), add.getRhs()),
                                std::make_pair(add.getRhs(), add.getLhs())})
      if (auto resolved = resolveAddress(base))
        if (auto v = value(offset); v && !resolved->first.first)
          return std::make_pair(resolved->first, resolved->second + *v);
  return std::nullopt;
}

std::optional<SmallVector<int64_t, 4>> MemoryTraffic::values(ValueRange range) {
  SmallVector<int64_t, 4> result;
  for (Value v : range) {
    std::optional<int64_t> known = value(v);
    if (!known)
      return std::nullopt;
    result.push_back(*known);
  }
  return result;
}

std::optional<SmallVector<int64_t, 4>>
MemoryTraffic::values(ArrayRef<OpFoldResult> mixed) {
  SmallVector<int64_t, 4> result;
  for (OpFoldResult ofr : mixed) {
    std::optional<int64_t> known =
        isa<Value>(ofr) ? value(cast<Value>(ofr))
                        : std::optional<int64_t>(
                              cast<IntegerAttr>(cast<Attribute>(ofr)).getInt());
    if (!known)
      return std::nullopt;
    result.push_back(*known);
  }
  return result;
}

void MemoryTraffic::noteView(ktdp::ConstructMemoryViewOp view) {
  views.erase(view.getResult());
  std::optional<TensorKey> tensor;
  std::optional<int64_t> offset;
  if (view.getMemorySpaceInterface().getMemoryKind() ==
      ktdp::MemoryKind::global) {
    if (auto address = resolveAddress(view.getOffset())) {
      tensor = address->first;
      offset = address->second;
    }
  } else {
    offset = 0;
  }
  auto sizes = values(view.getMixedSizes());
  auto strides = values(view.getMixedStrides());
  auto dynamicSizes = values(view.getSizes());
  IntegerSet set = view.getCoordinateSet();
  std::optional<ResolvedViewPart> resolved;
  if (offset && sizes && strides && dynamicSizes &&
      set.getNumSymbols() <= dynamicSizes->size())
    resolved = ResolvedViewPart::get(
        *offset, *sizes, *strides, set,
        ArrayRef(*dynamicSizes).take_front(set.getNumSymbols()));
  if (!resolved) {
    demand.addGap("the tensors of views whose address or sizes are not "
                  "known");
    return;
  }
  View &known = views[view.getResult()];
  known.parts.push_back(std::move(*resolved));
  known.tensors.push_back(tensor);
  known.elementBytes.push_back(ktflow::bytesPerElement(
      cast<MemRefType>(view.getType()).getElementType()));
}

void MemoryTraffic::noteDistributedView(
    ktdp::ConstructDistributedMemoryViewOp view) {
  views.erase(view.getResult());
  View joined;
  for (Value input : view.getMemrefs()) {
    auto it = views.find(input);
    if (it == views.end())
      return; // The unknown part's gap is noted.
    llvm::append_range(joined.parts, it->second.parts);
    llvm::append_range(joined.tensors, it->second.tensors);
    llvm::append_range(joined.elementBytes, it->second.elementBytes);
  }
  views[view.getResult()] = std::move(joined);
}

MemoryTraffic::Tile *MemoryTraffic::recordTile(Operation *tileOp, Value view,
                                               bool known) {
  if (!known) {
    demand.addGap("the device memory of access tiles whose anchor or "
                  "symbols are not known");
    return nullptr;
  }
  Tile &tile = tiles[tileOp->getResult(0)];
  tile.op = tileOp;
  tile.view = view;
  return &tile;
}

void MemoryTraffic::noteTile(ktdp::ConstructAccessTileOp tileOp) {
  tiles.erase(tileOp.getResult());
  if (!views.count(tileOp.getBase()))
    return;
  auto indices = values(tileOp.getIndices());
  auto symbols = values(tileOp.getSymbolOperands());
  std::optional<SmallVector<int64_t, 4>> anchor;
  if (indices) {
    anchor.emplace();
    for (AffineExpr expr : tileOp.getBaseMap().getResults()) {
      std::optional<int64_t> v = ktdp::evaluateAffineExpr(expr, *indices, {});
      if (!v) {
        anchor.reset();
        break;
      }
      anchor->push_back(*v);
    }
  }
  if (Tile *tile = recordTile(tileOp, tileOp.getBase(), anchor && symbols)) {
    tile->anchor = std::move(*anchor);
    tile->symbols = std::move(*symbols);
  }
}

void MemoryTraffic::noteIndirectTile(
    ktdp::ConstructIndirectAccessTileOp tileOp) {
  tiles.erase(tileOp.getResult());
  auto captured = values(tileOp.getCapturedVariables());
  auto symbols = values(tileOp.getSymbolOperands());
  if (Tile *tile = recordTile(tileOp, tileOp.getBase(), captured && symbols)) {
    tile->captured = std::move(*captured);
    tile->symbols = std::move(*symbols);
  }
}

void MemoryTraffic::touch(const View &view, unsigned part, int64_t first,
                          int64_t count, bool store) {
  if (!view.tensors[part])
    return;
  TensorUse &use = tensors[*view.tensors[part]];
  int64_t bytes = view.elementBytes[part];
  (store ? use.written : use.read).add(first * bytes, (first + count) * bytes);
}

void MemoryTraffic::touchDirect(const Tile &tile, bool store) {
  auto tileOp = cast<ktdp::ConstructAccessTileOp>(tile.op);
  const View &view = views.find(tile.view)->second;
  if (!forEachTouchedRun(view.parts, tile.anchor, tileOp.getAccessTileSet(),
                         tile.symbols, touchBudget,
                         [&](unsigned part, int64_t first, int64_t count) {
                           touch(view, part, first, count, store);
                         }))
    noteTouchGap();
}

/// An indirect tile reads its index views at its subscripts; what it
/// gathers or scatters is where the launch's index values point (the rows
/// the index data selects), counted when the caller knows those values,
/// else a gap. The points come in lexicographic order, so most share all
/// but the innermost variable with the point before: a subscript that does
/// not use that variable (the index subscripts of a gathered row) keeps
/// its value, and consecutive elements touched join into one run.
void MemoryTraffic::touchIndirect(const Tile &tile, bool store) {
  auto tileOp = cast<ktdp::ConstructIndirectAccessTileOp>(tile.op);
  const View *base = nullptr;
  if (inDeviceMemory(tile.view))
    base = &views.find(tile.view)->second;
  bool gathered = base && indexValues;
  unsigned numCaptured = tile.captured.size();
  unsigned numVariables = tileOp.getVariablesSpaceSet().getNumDims();
  // The index view and subscript map of each indirect subscript, null
  // for a direct subscript, with the map's results compiled once.
  struct Subscript {
    const View *view;
    SmallVector<CompiledExpr, 2> exprs;
    // Whether the map uses the innermost variable; if not, the coordinate
    // it gave the point before (when it gave one) is still its value.
    bool usesInnermost = true;
    std::optional<int64_t> lastValue;
    // The last index coordinate, where it lives and the index value there:
    // consecutive points mostly read the same index element (all of a
    // gathered row), looked up once.
    SmallVector<int64_t, 4> lastCoord;
    bool hasLast = false;
    std::optional<std::pair<unsigned, int64_t>> lastAt;
    std::optional<std::optional<int64_t>> lastIndex;
  };
  std::vector<Subscript> subscripts;
  unsigned numIndexed = 0;
  auto indexViews = tileOp.getIndirectMemrefs();
  for (auto [kind, map] : llvm::zip(tileOp.getPerDimSubscriptKinds(),
                                    tileOp.getPerDimSubscriptMaps())) {
    AffineMap subscript = cast<AffineMapAttr>(map).getValue();
    Subscript &sub = subscripts.emplace_back();
    sub.view = nullptr;
    for (AffineExpr expr : subscript.getResults())
      sub.exprs.push_back(CompiledExpr::compile(expr, subscript.getNumDims()));
    sub.usesInnermost =
        numVariables == 0 ||
        llvm::any_of(subscript.getResults(), [&](AffineExpr expr) {
          return expr.isFunctionOfDim(numCaptured + numVariables - 1);
        });
    if (!cast<BoolAttr>(kind).getValue() || numIndexed >= indexViews.size())
      continue;
    auto it = views.find(indexViews[numIndexed++]);
    sub.view = it == views.end() ? nullptr : &it->second;
    gathered &= it != views.end();
  }
  SmallVector<int64_t, 8> dims(tile.captured.begin(), tile.captured.end());
  dims.resize(numCaptured + numVariables);
  SmallVector<int64_t, 4> coord, baseCoord;
  // Whether `dims` holds the point before (whose outer variables the next
  // point is compared with).
  bool hasOuter = false;
  auto evaluate = [&](ArrayRef<CompiledExpr> exprs) {
    coord.clear();
    for (const CompiledExpr &expr : exprs)
      if (auto v = expr.eval(dims, {}))
        coord.push_back(*v);
    return coord.size() == exprs.size();
  };
  // The base elements touched since the last flush: a run in one part.
  struct {
    unsigned part = 0;
    int64_t first = 0, count = 0;
  } run;
  auto flush = [&] {
    if (run.count)
      touch(*base, run.part, run.first, run.count, store);
    run.count = 0;
  };
  // The coordinate subscript `sub` gives the point (none: not gathered).
  auto subscriptValue = [&](Subscript &sub) -> std::optional<int64_t> {
    if (!sub.view) {
      // A direct subscript (or an index view the walk lost).
      if (sub.exprs.size() == 1 && evaluate(sub.exprs))
        return coord.front();
      return std::nullopt;
    }
    if (!evaluate(sub.exprs))
      return std::nullopt;
    // Touching the same element again would add no byte.
    if (!sub.hasLast || ArrayRef(coord) != ArrayRef(sub.lastCoord)) {
      sub.hasLast = true;
      sub.lastCoord.assign(coord.begin(), coord.end());
      sub.lastAt = locateCoordinate(sub.view->parts, coord);
      sub.lastIndex.reset();
      if (sub.lastAt)
        touch(*sub.view, sub.lastAt->first, sub.lastAt->second, 1,
              /*store=*/false);
    }
    const auto &at = sub.lastAt;
    if (!at || !gathered)
      return std::nullopt;
    if (!sub.lastIndex)
      sub.lastIndex = indexValue(*sub.view, at->first, at->second);
    return *sub.lastIndex;
  };
  auto visitPoint = [&](ArrayRef<int64_t> point) {
    // Element by element: a few variables, where memcpy and memcmp calls
    // cost more than the copy and the comparison.
    bool sameOuter = hasOuter;
    for (size_t v = 0; v < point.size(); ++v) {
      int64_t &dim = dims[numCaptured + v];
      if (v + 1 < point.size())
        sameOuter &= dim == point[v];
      dim = point[v];
    }
    hasOuter = true;
    baseCoord.clear();
    for (Subscript &sub : subscripts) {
      if (!sameOuter || sub.usesInnermost || !sub.lastValue)
        sub.lastValue = subscriptValue(sub);
      gathered &= sub.lastValue.has_value();
      baseCoord.push_back(sub.lastValue.value_or(0));
    }
    if (!gathered)
      return;
    // An index outside the base view stops the run (the interpreter's
    // bounds check): nothing is read there.
    auto at = locateCoordinate(base->parts, baseCoord);
    if (!at)
      return;
    if (run.count && at->first == run.part &&
        at->second == run.first + run.count) {
      ++run.count;
      return;
    }
    flush();
    run = {at->first, at->second, 1};
  };
  if (!forEachSetPoint(tileOp.getVariablesSpaceSet(), tile.symbols, touchBudget,
                       visitPoint))
    noteTouchGap();
  if (base)
    flush();
  if (base && !gathered)
    demand.addGap("the device memory indirect access tiles gather or "
                  "scatter (it depends on the data)");
}

std::optional<int64_t> MemoryTraffic::indexValue(const View &view,
                                                 unsigned part,
                                                 int64_t element) const {
  const std::optional<TensorKey> &tensor = view.tensors[part];
  if (!tensor || !indexValues)
    return std::nullopt;
  return indexValues(TensorLocation{tensor->first, tensor->second}, element);
}

bool MemoryTraffic::inDeviceMemory(Value view) const {
  auto it = views.find(view);
  return it != views.end() &&
         llvm::any_of(it->second.tensors,
                      [](const auto &tensor) { return tensor.has_value(); });
}

void MemoryTraffic::noteTouchGap() {
  demand.addGap("the device memory of accesses past the first 2^26 rows "
                "or points");
}

void MemoryTraffic::noteAccess(Value tileValue, Type tensorType, bool store) {
  auto it = tiles.find(tileValue);
  if (it == tiles.end())
    return;
  const Tile &tile = it->second;
  if (isa<ktdp::ConstructIndirectAccessTileOp>(tile.op))
    touchIndirect(tile, store);
  else
    touchDirect(tile, store);
  auto shaped = cast<ShapedType>(tensorType);
  if (!inDeviceMemory(tile.view) || !shaped.hasStaticShape())
    return;
  uint64_t bytes = static_cast<uint64_t>(shaped.getNumElements()) *
                   ktflow::bytesPerElement(shaped.getElementType());
  std::optional<uint64_t> &smallest =
      store ? demand.smallestStore : demand.smallestLoad;
  smallest = std::min(smallest.value_or(bytes), bytes);
}
