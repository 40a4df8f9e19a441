//===- ResolveDistributedViews.cpp - Tiles of distributed views -----------===//
//
// This file implements --ktdf-resolve-distributed-views. A distributed view
// stitches parts held in several places into one logical view (a tensor
// stored as column or row shards, `ptr + k * shard`); the scheduler moves
// tiles of plain views only. When the parts are shards of one tensor laid
// out alike (same sizes, strides and memory space, coordinate sets that are
// consecutive boxes along one dimension, starts at `ptr + c0 + k * delta`)
// and every tile of the distributed view provably lies in one part, each
// tile becomes a tile of that part: a view at the computed address of part
// `k = (anchor - lo) floordiv L` in the part's local coordinates (global
// minus the part's lower bound, as the interpreter indexes parts), anchored
// at the anchor minus the part's lower bound. The part is chosen per grid
// point and loop iteration by the unit programs, like any computed view
// address. Everything else is refused at the tile or the view, naming why.
//
//===----------------------------------------------------------------------===//

#include "IndexAnalysis.h"
#include "StraddlingTiles.h"
#include "ktflow/Analysis/LaunchArguments.h"
#include "ktflow/Device/Target.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDF/Transforms/TileBounds.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"
#include "ktflow/Scheduler/ScheduleTarget.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/STLExtras.h"

#include <numeric>

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFRESOLVEDISTRIBUTEDVIEWS
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

namespace {
/// The parts of a distributed view that are shards of one tensor along
/// dimension `dim`, in ascending order of their lower bound there.
struct ShardLayout {
  SmallVector<ktdp::ConstructMemoryViewOp> parts;
  /// Part 0's coordinate box; part k's is shifted by k * `extent` along
  /// `dim`.
  ktdp::IntegerBox box;
  unsigned dim = 0;
  int64_t extent = 0;
  /// The tensor the parts start in, part 0's displacement and the
  /// displacement from one part to the next, in elements.
  BlockArgument argument;
  int64_t start = 0, delta = 0;
};
} // namespace

/// The constant displacement of a view at `offset` from its argument.
static std::optional<std::pair<BlockArgument, int64_t>>
constantAddress(Value offset) {
  std::optional<ktflow::ViewAddress> address = ktflow::getViewAddress(offset);
  if (!address)
    return std::nullopt;
  APInt value;
  if (!address->displacement)
    return std::make_pair(address->argument, int64_t(0));
  if (!matchPattern(address->displacement, m_ConstantInt(&value)))
    return std::nullopt;
  return std::make_pair(address->argument, value.getSExtValue());
}

using Refusal = std::pair<Operation *, std::string>;

static FailureOr<ShardLayout>
analyzeShards(ktdp::ConstructDistributedMemoryViewOp view, Refusal &refusal) {
  auto refuse = [&](const Twine &why) {
    refusal = {view, ("the scheduler supports distributed views whose parts "
                      "are shards of one tensor only: " +
                      why)
                         .str()};
    return failure();
  };
  ShardLayout layout;
  SmallVector<ktdp::IntegerBox> boxes;
  for (Value input : view.getMemrefs()) {
    auto part = input.getDefiningOp<ktdp::ConstructMemoryViewOp>();
    if (!part)
      return refuse("a part is not a ktdp.construct_memory_view");
    auto space = ktdp::normalizeMemorySpace(part.getMemorySpace());
    if (!space || space->kind != ktdp::MemoryKind::global) {
      // ktdf-forward-scratchpad-parts removes the views it can prove.
      auto why = whyNotForwardable(view);
      refusal = {why ? why->first : view.getOperation(),
                 "a distributed view over scratchpad (ct_local) parts "
                 "compiles only when every load of the parts provably reads "
                 "what the loading tile stored itself, or what one earlier "
                 "store wrote on another tile (copied between the cores): " +
                     (why ? why->second
                          : std::string("run ktdf-forward-scratchpad-parts "
                                        "first"))};
      return failure();
    }
    if (!part.getSizes().empty() || !part.getStrides().empty() ||
        part.getCoordinateSet().getNumSymbols() != 0) {
      // Parts of run-time sizes are accessed part by part or not at all.
      std::string why = "a part has dynamic sizes or strides";
      if (std::optional<std::string> notParts =
              straddle::whyNotGlobalParts(view))
        why += " (nor can it be accessed part by part: " + *notParts + ")";
      return refuse(why);
    }
    if (!ktdp::isBoxShaped(part.getCoordinateSet()))
      return refuse("a part's coordinate_set is not a box");
    FailureOr<ktdp::IntegerBox> box =
        ktdp::getBoundingBox(part.getCoordinateSet(), {});
    if (failed(box) || box->isEmpty())
      return refuse("a part's coordinate_set is unbounded or empty");
    if (!layout.parts.empty()) {
      ktdp::ConstructMemoryViewOp first = layout.parts.front();
      if (part.getType() != first.getType() ||
          part.getStaticSizes() != first.getStaticSizes() ||
          part.getStaticStrides() != first.getStaticStrides() ||
          part.getMemorySpace() != first.getMemorySpace())
        return refuse("the parts differ in type, sizes, strides or memory "
                      "space");
    }
    layout.parts.push_back(part);
    boxes.push_back(*box);
  }
  // The dimension the boxes differ in; all others equal.
  unsigned rank = boxes.front().lower.size();
  SmallVector<unsigned> differing;
  for (unsigned d = 0; d < rank; ++d)
    if (llvm::any_of(boxes, [&](const ktdp::IntegerBox &b) {
          return b.lower[d] != boxes.front().lower[d] ||
                 b.upper[d] != boxes.front().upper[d];
        }))
      differing.push_back(d);
  if (differing.size() > 1)
    return refuse("the parts split more than one dimension");
  if (differing.empty() && boxes.size() > 1)
    return refuse("the parts hold the same coordinates");
  layout.dim = differing.empty() ? 0 : differing.front();
  SmallVector<unsigned> order(layout.parts.size());
  std::iota(order.begin(), order.end(), 0);
  llvm::stable_sort(order, [&](unsigned a, unsigned b) {
    return boxes[a].lower[layout.dim] < boxes[b].lower[layout.dim];
  });
  unsigned d = layout.dim;
  layout.box = boxes[order.front()];
  layout.extent = layout.box.upper[d] - layout.box.lower[d] + 1;
  SmallVector<ktdp::ConstructMemoryViewOp> sorted;
  for (auto [k, index] : llvm::enumerate(order)) {
    const ktdp::IntegerBox &box = boxes[index];
    if (box.lower[d] != layout.box.lower[d] + int64_t(k) * layout.extent ||
        box.upper[d] - box.lower[d] + 1 != layout.extent)
      return refuse("the parts are not consecutive boxes of one extent "
                    "along dimension " +
                    Twine(d));
    auto address = constantAddress(layout.parts[index].getOffset());
    if (!address)
      return refuse("a part does not start at a kernel argument plus a "
                    "constant");
    if (k == 0) {
      layout.argument = address->first;
      layout.start = address->second;
    } else if (k == 1) {
      layout.delta = address->second - layout.start;
    }
    if (address->first != layout.argument ||
        address->second != layout.start + int64_t(k) * layout.delta)
      return refuse("the parts do not start at evenly spaced addresses of "
                    "one argument");
    sorted.push_back(layout.parts[index]);
  }
  layout.parts = std::move(sorted);
  return layout;
}

/// The largest number every value of `v` is a multiple of (0: `v` is 0).
static int64_t divisorOf(Value v, int depth = 0) {
  APInt c;
  if (matchPattern(v, m_ConstantInt(&c)))
    return std::abs(c.getSExtValue());
  // A loop's induction variable takes lb, lb + step, ...
  if (auto loop = scf::getForInductionVarOwner(v); loop && depth <= 16)
    return std::gcd(divisorOf(loop.getLowerBound(), depth + 1),
                    divisorOf(loop.getStep(), depth + 1));
  Operation *def = v.getDefiningOp();
  if (!def || depth > 16)
    return 1;
  if (isa<arith::MulIOp>(def))
    return divisorOf(def->getOperand(0), depth + 1) *
           divisorOf(def->getOperand(1), depth + 1);
  if (isa<arith::AddIOp, arith::SubIOp>(def))
    return std::gcd(divisorOf(def->getOperand(0), depth + 1),
                    divisorOf(def->getOperand(1), depth + 1));
  return 1;
}

/// Makes `tile` a tile of the part of `layout` that holds it (or only
/// checks that it can, unless `rewrite`).
static LogicalResult resolveTile(ktdp::ConstructAccessTileOp tile,
                                 const ShardLayout &layout, Refusal &refusal,
                                 bool rewrite) {
  unsigned d = layout.dim;
  auto refuse = [&](const Twine &why) {
    refusal = {tile, ("an access tile of a distributed view must lie in one "
                      "part for the scheduler: " +
                      why)
                         .str()};
    return failure();
  };
  if (!tile.getSymbolOperands().empty())
    return refuse("its tile set has symbols");
  ValueRange indices = tile.getIndices();
  auto form =
      affineCoefficients(tile.getBaseMap().getResult(d), indices.size());
  if (!form)
    return refuse("its anchor is not affine");
  // a = anchor - lo: a multiple of the part extent, within the parts.
  int64_t lo = layout.box.lower[d];
  int64_t divisor = std::abs(form->first - lo);
  for (auto [coeff, index] : llvm::zip(form->second, indices))
    if (coeff != 0)
      divisor = std::gcd(divisor, std::abs(coeff) * divisorOf(index));
  FailureOr<ktdp::IntegerBox> tileBox =
      ktdp::getBoundingBox(tile.getAccessTileSet(), {});
  if (failed(tileBox) || tileBox->lower[d] < 0)
    return refuse("its tile set is unbounded or reaches before its anchor");
  int64_t span = tileBox->upper[d] + 1;
  auto range = anchorRange(tile, d);
  int64_t parts = layout.parts.size();
  if (!range || range->first < lo ||
      range->second > lo + parts * layout.extent - span)
    return refuse("its anchor along dimension " + Twine(d) +
                  " may lie outside the parts");
  // A constant anchor needs only to fit in its part; any other must be a
  // part's first coordinate.
  bool fits = range->first == range->second
                  ? (range->first - lo) % layout.extent + span <= layout.extent
                  : span <= layout.extent &&
                        (divisor == 0 || divisor % layout.extent == 0);
  if (!fits)
    return refuse("along dimension " + Twine(d) +
                  " it may straddle two "
                  "parts (its anchor minus " +
                  Twine(lo) +
                  " is not always a multiple of the parts' extent " +
                  Twine(layout.extent) + ", or it is wider than a part)");
  if (!rewrite)
    return success();

  OpBuilder b(tile);
  Location loc = tile.getLoc();
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  // k = (anchor - lo) / extent, computed as the unit programs compute an
  // anchor.
  Value k;
  if (range->first == range->second) {
    k = constant((range->first - lo) / layout.extent);
  } else {
    Value a;
    auto add = [&](Value term) {
      a = a ? arith::AddIOp::create(b, loc, a, term).getResult() : term;
    };
    for (auto [coeff, index] : llvm::zip(form->second, indices))
      if (coeff != 0)
        add(coeff == 1 ? index
                       : arith::MulIOp::create(b, loc, index, constant(coeff))
                             .getResult());
    if (form->first != lo)
      add(constant(form->first - lo));
    k = arith::DivUIOp::create(b, loc, a, constant(layout.extent));
  }
  Value displacement = arith::MulIOp::create(b, loc, k, constant(layout.delta));
  if (layout.start != 0)
    displacement =
        arith::AddIOp::create(b, loc, displacement, constant(layout.start));
  Value address = arith::AddIOp::create(b, loc, layout.argument, displacement);
  // The part in local coordinates: its box moved to the origin.
  ktdp::ConstructMemoryViewOp first = layout.parts.front();
  MLIRContext *ctx = b.getContext();
  unsigned rank = layout.box.lower.size();
  SmallVector<AffineExpr> constraints;
  for (unsigned i = 0; i < rank; ++i) {
    AffineExpr di = getAffineDimExpr(i, ctx);
    constraints.push_back(di);
    constraints.push_back(-di + (layout.box.upper[i] - layout.box.lower[i]));
  }
  IntegerSet localSet = IntegerSet::get(
      rank, 0, constraints, SmallVector<bool>(constraints.size(), false));
  auto part = cast<ktdp::ConstructMemoryViewOp>(b.clone(*first));
  part.getOffsetMutable().assign(address);
  part.setCoordinateSet(localSet);
  // The anchor minus the part's lower bound; k is a new last index.
  AffineMap map = tile.getBaseMap();
  AffineExpr kExpr = getAffineDimExpr(map.getNumDims(), ctx);
  SmallVector<AffineExpr> results;
  for (unsigned i = 0; i < rank; ++i) {
    AffineExpr r = map.getResult(i) - layout.box.lower[i];
    if (i == d)
      r = r - kExpr * layout.extent;
    results.push_back(r);
  }
  SmallVector<Value> newIndices(indices);
  newIndices.push_back(k);
  auto resolved = ktdp::ConstructAccessTileOp::create(
      b, loc, tile.getType(), part.getResult(), newIndices, ValueRange(),
      AffineMap::get(map.getNumDims() + 1, map.getNumSymbols(), results, ctx),
      tile.getAccessTileSet(), tile.getAccessTileOrder());
  tile.replaceAllUsesWith(resolved.getResult());
  tile.erase();
  return success();
}

/// The tiles of `view`, or the refusal at a user that is not one.
static FailureOr<SmallVector<ktdp::ConstructAccessTileOp>>
tilesOf(ktdp::ConstructDistributedMemoryViewOp view, Refusal &refusal) {
  SmallVector<ktdp::ConstructAccessTileOp> tiles;
  for (Operation *user : view->getUsers()) {
    auto tile = dyn_cast<ktdp::ConstructAccessTileOp>(user);
    if (!tile) {
      refusal = {user, "the scheduler accesses distributed views through "
                       "ktdp.construct_access_tile only"};
      return failure();
    }
    tiles.push_back(tile);
  }
  return tiles;
}

namespace {
/// How the distributed views of one function are resolved: as shards (a
/// view and its layout, every tile in one part), or part by part.
struct Resolution {
  SmallVector<std::pair<ktdp::ConstructDistributedMemoryViewOp, ShardLayout>>
      shards;
  llvm::SetVector<ktdp::ConstructDistributedMemoryViewOp> split;
};
} // namespace

/// Decides how each distributed view of `views` is resolved (or, unless
/// `rewrite`, only checks that it can be), reporting each refusal.
/// `cutElementwise`: straddle::splitAccesses'.
static LogicalResult
resolve(ArrayRef<ktdp::ConstructDistributedMemoryViewOp> views, bool rewrite,
        function_ref<void(const Refusal &)> report,
        bool cutElementwise = false) {
  Resolution resolution;
  SmallVector<ktdp::ConstructDistributedMemoryViewOp> shardsOverGlobalParts;
  bool failedAny = false;
  for (ktdp::ConstructDistributedMemoryViewOp view : views) {
    // The pipeline's ktdf-forward-scratchpad-parts removes those it can
    // prove.
    if (!rewrite && !whyNotForwardable(view))
      continue;
    Refusal refusal;
    FailureOr<SmallVector<ktdp::ConstructAccessTileOp>> tiles =
        tilesOf(view, refusal);
    if (failed(tiles)) {
      report(refusal);
      failedAny = true;
      continue;
    }
    if (tiles->empty())
      continue;
    FailureOr<ShardLayout> layout = analyzeShards(view, refusal);
    bool shards = succeeded(layout) && llvm::all_of(*tiles, [&](auto tile) {
                    return succeeded(
                        resolveTile(tile, *layout, refusal, /*rewrite=*/false));
                  });
    bool globalParts = !straddle::whyNotGlobalParts(view);
    if (shards) {
      resolution.shards.emplace_back(view, std::move(*layout));
      if (globalParts)
        shardsOverGlobalParts.push_back(view);
    } else if (globalParts) {
      // Tiles that may straddle parts, or parts that are no shards of one
      // tensor: accessed part by part.
      resolution.split.insert(view);
    } else {
      report(refusal);
      failedAny = true;
    }
  }
  Refusal refusal;
  if (!resolution.split.empty() &&
      failed(straddle::splitAccesses(resolution.split, shardsOverGlobalParts,
                                     refusal, /*rewrite=*/false))) {
    report(refusal);
    failedAny = true;
  }
  if (failedAny || !rewrite)
    return failure(failedAny);
  for (auto &[view, layout] : resolution.shards) {
    if (resolution.split.contains(view))
      continue;
    SmallVector<ktdp::ConstructAccessTileOp> tiles = *tilesOf(view, refusal);
    for (ktdp::ConstructAccessTileOp tile : tiles)
      (void)resolveTile(tile, layout, refusal, /*rewrite=*/true);
  }
  if (!resolution.split.empty())
    (void)straddle::splitAccesses(resolution.split, shardsOverGlobalParts,
                                  refusal, /*rewrite=*/true, cutElementwise);
  return success();
}

std::optional<std::pair<Operation *, std::string>>
mlir::ktdf::whyNotResolvable(Operation *op) {
  auto view = dyn_cast<ktdp::ConstructDistributedMemoryViewOp>(op);
  if (!view)
    return std::make_pair(op, std::string("not a distributed view"));
  // The accesses of one view may be split with those of the others.
  SmallVector<ktdp::ConstructDistributedMemoryViewOp> views;
  Operation *scope = view->getParentOfType<func::FuncOp>();
  (scope ? scope : view->getParentOp())
      ->walk([&](ktdp::ConstructDistributedMemoryViewOp v) {
        views.push_back(v);
      });
  std::optional<Refusal> first;
  (void)resolve(views, /*rewrite=*/false, [&](const Refusal &refusal) {
    if (!first)
      first = refusal;
  });
  return first;
}

namespace {
struct ResolveDistributedViewsPass
    : public ktdf::impl::KTDFResolveDistributedViewsBase<
          ResolveDistributedViewsPass> {
  /// Whether element-wise groups over straddling tiles run at their
  /// pieces' shapes (straddle::splitAccesses). The pieces' groups share no
  /// tensor, so each becomes a pipeline of its own, where the masked
  /// copies of the whole tile share the one of their common operands. A
  /// lane's DMA engine that both loads and stores (mesh_device's) ran the
  /// sibling pipelines' transfers in order, the second's loads behind the
  /// first's store (row_halves_scale in 4 parts: 493 cycles masked, 516
  /// cut); it now issues every piece's loads before their stores
  /// (LoadsFirstRuns.cpp in the DFIR lowering): 364 cut. Without a target
  /// in the module, cut; with one the scheduler cannot read, masked.
  bool cutElementwise() {
    FailureOr<ktdf_arch::TargetOp> found =
        ktflow::device::findOptionalTarget(getOperation());
    if (failed(found) || !*found)
      return succeeded(found);
    auto &target = getAnalysis<ktflow::sched::ScheduleTarget>();
    markAnalysesPreserved<ktflow::sched::ScheduleTarget>();
    return target.isValid() && !target.getLanes().empty();
  }

  void runOnOperation() override {
    SmallVector<ktdp::ConstructDistributedMemoryViewOp> views;
    getOperation().walk(
        [&](ktdp::ConstructDistributedMemoryViewOp v) { views.push_back(v); });
    bool cut = !views.empty() && cutElementwise();
    if (failed(resolve(
            views, /*rewrite=*/true,
            [](const Refusal &refusal) {
              refusal.first->emitError(refusal.second);
            },
            cut)))
      return signalPassFailure();
    // The distributed views and parts nothing reads any more.
    for (ktdp::ConstructDistributedMemoryViewOp view : views) {
      if (!view->use_empty())
        continue;
      SmallVector<Value> inputs(view.getMemrefs());
      view.erase();
      for (Value input : inputs)
        if (Operation *def = input.getDefiningOp();
            def && def->use_empty() && isa<ktdp::ConstructMemoryViewOp>(def))
          def->erase();
    }
  }
};
} // namespace
