//===- SplitGathers.cpp - Gathers larger than the scratchpad, in chunks ---===//
//
// This file implements the part of --ktdf-stream-wide-rows that splits
// gathers (SplitGathers.h): a gather moves whole through
// the scratchpad (an indirect tile is one transfer of the pipeline), so the
// field guide's paged KV copy, a 4x8x2048x128 f16 gather (16 MB) stored
// transposed, cannot pass through a 2 MB scratchpad. When the gathered
// tensor is only stored (possibly after a tensor.expand_shape that adds
// unit dimensions) and is over `max-tile-bytes`, the load and the store
// become a loop over chunks of the leading variables (of at most 32 KiB,
// spread over the device's instances): each iteration
// gathers one chunk (the chunk's offsets captured in the subscripts) and
// stores it at the matching offsets of the destination tile.
//
// ktdf-split-index-bound-gathers cuts the same way a
// gather of any size that reads an index for every element: its DMA
// engine waits an index round trip per element, and the chunks, one per
// idle lane, share the reads out over the device's DMA engines.
//
//===----------------------------------------------------------------------===//

#include "SplitGathers.h"
#include "IndexStaging.h"

#include "ktflow/Dialect/KTDF/Transforms/IndirectTiles.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"

#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"
#include "ktflow/Dialect/KTDP/Utils/LaunchGrid.h"
#include "ktflow/Scheduler/ScheduleTargetPass.h"
#include "ktflow/Support/ElementBytes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFSPLITINDEXBOUNDGATHERS
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

namespace {
/// A gathered tensor that is only stored.
struct GatherCopy {
  ktdp::LoadOp load;
  ktdp::ConstructIndirectAccessTileOp source;
  /// Adds unit dimensions between the load and the store, or null.
  tensor::ExpandShapeOp expand;
  ktdp::StoreOp store;
  ktdp::ConstructAccessTileOp destination;
  /// The extents of the variable space (from 0).
  SmallVector<int64_t> extents;
  /// The stored tensor's dimension of each variable.
  SmallVector<unsigned> storedDim;
};
} // namespace

int64_t ktdf::loadedBytes(ktdp::LoadOp load) {
  auto type = cast<RankedTensorType>(load.getType());
  return type.getNumElements() * ktflow::bytesPerElement(type.getElementType());
}

/// The extents of a box-shaped set from 0 without symbols.
static FailureOr<SmallVector<int64_t>> boxFromZero(IntegerSet set) {
  if (set.getNumSymbols() != 0 || !ktdp::isBoxShaped(set))
    return failure();
  FailureOr<ktdp::IntegerBox> box = ktdp::getBoundingBox(set, {});
  if (failed(box) || box->isEmpty() ||
      llvm::any_of(box->lower, [](int64_t l) { return l != 0; }))
    return failure();
  return box->getExtents();
}

/// The copy `load` starts, or why it cannot be split (empty when `load`
/// is not a gather at all).
static FailureOr<GatherCopy> matchGatherCopy(ktdp::LoadOp load,
                                             std::string &why) {
  GatherCopy copy;
  copy.load = load;
  copy.source =
      load.getAccessTile().getDefiningOp<ktdp::ConstructIndirectAccessTileOp>();
  if (!copy.source)
    return failure();
  FailureOr<SmallVector<int64_t>> extents =
      boxFromZero(copy.source.getVariablesSpaceSet());
  if (!copy.source.getVariablesSpaceOrder().isIdentity() || failed(extents)) {
    why = "its variable space is not a box from 0 in identity order";
    return failure();
  }
  copy.extents = *extents;
  if (!load->hasOneUse()) {
    why = "the gathered tensor has more than one use";
    return failure();
  }
  Operation *user = *load->user_begin();
  copy.storedDim = llvm::to_vector(llvm::seq<unsigned>(0, copy.extents.size()));
  if ((copy.expand = dyn_cast<tensor::ExpandShapeOp>(user))) {
    ArrayRef<int64_t> shape = copy.expand.getResultType().getShape();
    for (auto [v, group] :
         llvm::enumerate(copy.expand.getReassociationIndices())) {
      // Only unit dimensions added: the variable's extent is the one
      // dimension of its group that is not 1 (or its last).
      copy.storedDim[v] = group.back();
      for (int64_t d : group)
        if (shape[d] != 1)
          copy.storedDim[v] = d;
      for (int64_t d : group)
        if (shape[d] != 1 && d != copy.storedDim[v]) {
          why = "the tensor.expand_shape after it splits a dimension";
          return failure();
        }
    }
    if (!copy.expand->hasOneUse()) {
      why = "the gathered tensor has more than one use";
      return failure();
    }
    user = *copy.expand->user_begin();
  }
  copy.store = dyn_cast<ktdp::StoreOp>(user);
  Operation *last = copy.expand ? copy.expand.getOperation() : load;
  if (!copy.store || copy.store.getDataTile() != last->getResult(0)) {
    why = "the gathered tensor is computed on, not only stored";
    return failure();
  }
  // The loop takes the load to the store: nothing between may write memory.
  for (Operation *op = load->getNextNode(); op != copy.store;
       op = op->getNextNode())
    if (!op || !isMemoryEffectFree(op)) {
      why = "the gathered tensor is not stored right after it is loaded";
      return failure();
    }
  copy.destination =
      copy.store.getAccessTile().getDefiningOp<ktdp::ConstructAccessTileOp>();
  if (!copy.destination || !copy.destination.getSymbolOperands().empty() ||
      !copy.destination.getAccessTileOrder().isPermutation() ||
      failed(boxFromZero(copy.destination.getAccessTileSet()))) {
    why = "the destination is not a box tile from its anchor in a "
          "permuted order";
    return failure();
  }
  return copy;
}

/// How to cut a gather of `extents` elements of `elementBytes` into
/// chunks of at most `maxBytes`: every variable before `dim` one at a
/// time, `dim` in steps of `step` (a divisor of its extent, so every chunk
/// has the same shape), the others whole.
static std::pair<unsigned, int64_t> chooseChunks(ArrayRef<int64_t> extents,
                                                 int64_t elementBytes,
                                                 int64_t maxBytes) {
  unsigned dim = extents.size() - 1;
  int64_t inner = elementBytes;
  while (dim > 0 && inner * extents[dim] <= maxBytes) {
    inner *= extents[dim];
    --dim;
  }
  int64_t step = 1;
  for (int64_t s = 1; s <= extents[dim]; ++s)
    if (extents[dim] % s == 0 && s * inner <= maxBytes)
      step = s;
  return {dim, step};
}

/// The largest chunk: a gather over the scratchpad is megabytes, and
/// chunks of 32 KiB give each of a device's instances (64 lanes on
/// spyre_like) several to double-buffer, the DMA load of one overlapping
/// the store of the one before, while one DMA of a chunk's 128 rows of
/// 256 bytes still pays its route latency (~150 cycles) on 256 cycles of
/// transfer or more.
constexpr int64_t kMaxChunkBytes = 32768;

/// Replaces `copy` by a loop moving it in chunks. Each chunk is
/// gathered with one variable per dimension of the destination view, in
/// its order, so that the store is a box tile in identity order (rows of
/// the view at a stride, moved by DMA) instead of a transposition through
/// a compute unit: a variable of the gather becomes the variable of the
/// view dimension its stored dimension is enumerated over, and the unit
/// dimensions a tensor.expand_shape added become variables of extent 1
/// that no subscript uses.
static void splitCopy(GatherCopy &copy, int64_t maxBytes) {
  MLIRContext *ctx = copy.load.getContext();
  auto loaded = cast<RankedTensorType>(copy.load.getType());
  unsigned n = copy.extents.size();
  auto [dim, step] = chooseChunks(
      copy.extents, ktflow::bytesPerElement(loaded.getElementType()),
      std::min(maxBytes, kMaxChunkBytes));
  SmallVector<int64_t> chunk(copy.extents);
  for (unsigned v = 0; v <= dim; ++v)
    chunk[v] = v < dim ? 1 : step;
  SmallVector<int64_t> storedChunk(chunk);
  if (copy.expand) {
    storedChunk.assign(copy.expand.getResultType().getShape().begin(),
                       copy.expand.getResultType().getShape().end());
    for (unsigned v = 0; v < n; ++v)
      storedChunk[copy.storedDim[v]] = chunk[v];
  }
  // The view dimension of each variable, and the chunk in view order.
  AffineMap order = copy.destination.getAccessTileOrder();
  unsigned rank = storedChunk.size();
  SmallVector<unsigned> viewDim(n);
  for (unsigned v = 0; v < n; ++v)
    viewDim[v] = order.getDimPosition(copy.storedDim[v]);
  SmallVector<int64_t> viewChunk(rank);
  for (unsigned d = 0; d < rank; ++d)
    viewChunk[order.getDimPosition(d)] = storedChunk[d];

  // One loop over the chunks, their offsets taken apart from its
  // induction variable (the last split variable fastest), marked so that
  // ktdf-spread-iterations spreads the chunks over the device's instances.
  OpBuilder b(copy.store);
  Location loc = copy.load.getLoc();
  auto index = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  int64_t chunks = 1;
  for (unsigned v = 0; v <= dim; ++v)
    chunks *= copy.extents[v] / chunk[v];
  auto loop = scf::ForOp::create(b, loc, index(0), index(chunks), index(1));
  loop->setAttr(kSpreadChunksAttrName, b.getUnitAttr());
  b.setInsertionPointToStart(loop.getBody());
  SmallVector<Value> offsets(dim + 1);
  Value rest = loop.getInductionVar();
  for (int64_t v = dim; v >= 0; --v) {
    int64_t trips = copy.extents[v] / chunk[v];
    Value at =
        v == 0 ? rest : arith::RemUIOp::create(b, loc, rest, index(trips));
    if (v > 0)
      rest = arith::DivUIOp::create(b, loc, rest, index(trips));
    offsets[v] =
        chunk[v] == 1
            ? at
            : arith::MulIOp::create(b, loc, at, index(chunk[v])).getResult();
  }

  // The chunk's gather: variable v becomes offset_v + the variable of its
  // view dimension (no offset past the split ones).
  auto source = cast<ktdp::ConstructIndirectAccessTileOp>(
      b.clone(*copy.source.getOperation()));
  unsigned captured = source.getCapturedVariables().size();
  unsigned split = offsets.size();
  SmallVector<AffineExpr> replacements;
  for (unsigned c = 0; c < captured; ++c)
    replacements.push_back(getAffineDimExpr(c, ctx));
  for (unsigned v = 0; v < n; ++v) {
    AffineExpr var = getAffineDimExpr(captured + split + viewDim[v], ctx);
    replacements.push_back(v < split ? getAffineDimExpr(captured + v, ctx) + var
                                     : var);
  }
  SmallVector<Attribute> maps;
  for (Attribute attr : source.getPerDimSubscriptMaps()) {
    AffineMap map = cast<AffineMapAttr>(attr).getValue();
    maps.push_back(AffineMapAttr::get(map.replaceDimsAndSymbols(
        replacements, {}, captured + split + rank, map.getNumSymbols())));
  }
  source.getCapturedVariablesMutable().append(offsets);
  source.setPerDimSubscriptMapsAttr(ArrayAttr::get(ctx, maps));
  source.setVariablesSpaceSetAttr(
      IntegerSetAttr::get(ktdp::getBoxSet(viewChunk, ctx)));
  source.setVariablesSpaceOrderAttr(
      AffineMapAttr::get(AffineMap::getMultiDimIdentityMap(rank, ctx)));
  Block &body = source.getBody().front();
  body.eraseArguments(0, body.getNumArguments());
  for (unsigned d = 0; d < rank; ++d)
    body.addArgument(b.getIndexType(), loc);
  source.getResult().setType(ktdp::AccessTileType::get(ctx, viewChunk));

  auto load = cast<ktdp::LoadOp>(b.clone(*copy.load.getOperation()));
  load->setOperand(0, source.getResult());
  load.getResult().setType(
      RankedTensorType::get(viewChunk, loaded.getElementType()));

  // The chunk's destination: the anchor moves by offset_v along the view
  // dimension of v; identity order.
  auto destination = cast<ktdp::ConstructAccessTileOp>(
      b.clone(*copy.destination.getOperation()));
  AffineMap base = destination.getBaseMap();
  SmallVector<AffineExpr> anchor(base.getResults());
  for (unsigned v = 0; v < split; ++v)
    anchor[viewDim[v]] =
        anchor[viewDim[v]] + getAffineDimExpr(base.getNumDims() + v, ctx);
  destination.getIndicesMutable().append(offsets);
  destination.setBaseMapAttr(AffineMapAttr::get(AffineMap::get(
      base.getNumDims() + split, base.getNumSymbols(), anchor, ctx)));
  destination.setAccessTileSetAttr(
      IntegerSetAttr::get(ktdp::getBoxSet(viewChunk, ctx)));
  destination.setAccessTileOrderAttr(
      AffineMapAttr::get(AffineMap::getMultiDimIdentityMap(rank, ctx)));
  destination.getResult().setType(ktdp::AccessTileType::get(ctx, viewChunk));

  IRMapping mapping;
  mapping.map(copy.store.getDataTile(), load.getResult());
  mapping.map(copy.store.getAccessTile(), destination.getResult());
  b.clone(*copy.store.getOperation(), mapping);

  copy.store.erase();
  if (copy.expand)
    copy.expand.erase();
  copy.load.erase();
  if (copy.destination->use_empty())
    copy.destination.erase();
  if (copy.source->use_empty())
    copy.source.erase();
}

bool ktdf::splitWideGathers(func::FuncOp func, int64_t maxTileBytes) {
  SmallVector<ktdp::LoadOp> loads;
  func.walk([&](ktdp::LoadOp load) {
    if (loadedBytes(load) > maxTileBytes)
      loads.push_back(load);
  });
  bool split = false;
  for (ktdp::LoadOp load : loads) {
    std::string why;
    FailureOr<GatherCopy> copy = matchGatherCopy(load, why);
    if (failed(copy)) {
      if (!why.empty())
        load.emitWarning("this gather (")
            << loadedBytes(load)
            << " bytes) cannot move through the scratchpad in chunks: " << why;
      continue;
    }
    splitCopy(*copy, maxTileBytes);
    split = true;
  }
  if (split)
    func->setAttr("ktdf.split_gathers", UnitAttr::get(func.getContext()));
  return split;
}

/// The fewest elements of a chunk of a gather that reads an index per
/// element. Each element costs its DMA engine the index reads' round trips
/// (~150 cycles each on spyre_like), so a chunk is bound by those rather
/// than by its transfers, and even 16 elements (~4,800 cycles there)
/// dwarf the chunk's store.
constexpr int64_t kIndexedChunkElements = 16;

/// Whether `tile` reads an index for every element: its innermost
/// variable feeds a subscript read through an index view.
static bool readsIndexPerElement(ktdp::ConstructIndirectAccessTileOp tile) {
  return readsIndexAt(tile, tile.getCapturedVariables().size() +
                                tile.getVariablesSpaceSet().getNumDims() - 1);
}

/// The fewest elements of a chunk of `load`, a gather of the body bound by
/// its index reads, or none when it is not: one that reads an index per
/// element, or (`shared`) whose runs share their indices (a row or page
/// gather: `ind(%PT[%b, (%t floordiv 16)])`) and whose DMA engine waits
/// longer on those reads than on its bytes (indexReadsBind). A chunk holds
/// whole runs: cutting one would only read its index again.
static std::optional<int64_t>
indexBoundChunk(ktdp::LoadOp load, const ktflow::sched::ScheduleTarget &target,
                std::optional<IndirectTilePlan> &shared) {
  auto tile =
      load.getAccessTile().getDefiningOp<ktdp::ConstructIndirectAccessTileOp>();
  if (!tile || cast<RankedTensorType>(load.getType()).getNumElements() <=
                   kIndexedChunkElements)
    return std::nullopt;
  if (readsIndexPerElement(tile))
    return kIndexedChunkElements;
  std::string why;
  FailureOr<IndirectTilePlan> plan = planIndirectTile(tile, why);
  if (failed(plan) || !indexReadsBind(target, *plan, loadedBytes(load)))
    return std::nullopt;
  shared = *plan;
  return std::max(kIndexedChunkElements, plan->runLength);
}

/// The bytes of the chunks to cut a row or page gather (`plan`) into, at
/// least `leastBytes` each, at most `lanes` of them: those whose index
/// reads weigh least on the busiest of the point's `engines` loading DMA
/// engines, and of equals the most chunks (two lanes sharing an engine
/// overlap one chunk's reads with the other's transfers). Chunk c runs on
/// copy c mod K of ktdf-spread-iterations (K = min(lanes, chunks)), copy j
/// on engine j mod `engines` (ktdf-distribute's core p mod cores). The
/// whole tile's bytes when no cut weighs less.
static int64_t pageChunkBytes(const IndirectTilePlan &plan,
                              int64_t elementBytes, int64_t leastBytes,
                              int64_t lanes, int64_t engines) {
  ArrayRef<int64_t> extents = plan.extents;
  int64_t whole = elementBytes;
  for (int64_t e : extents)
    whole *= e;
  int64_t bestBytes = whole, bestChunks = 1;
  std::optional<int64_t> bestReads =
      countIndexReads(plan, SmallVector<int64_t>(extents.size(), 0), extents);
  if (!bestReads)
    return whole;
  int64_t inner = elementBytes;
  for (size_t dim = extents.size(); dim-- > 0; inner *= extents[dim]) {
    int64_t outer = 1;
    for (size_t v = 0; v < dim; ++v)
      outer *= extents[v];
    for (int64_t step = 1; step < extents[dim]; ++step) {
      int64_t chunks = outer * (extents[dim] / step);
      if (extents[dim] % step || step * inner < leastBytes || chunks > lanes)
        continue;
      SmallVector<int64_t> chunk(extents);
      for (size_t v = 0; v <= dim; ++v)
        chunk[v] = v < dim ? 1 : step;
      int64_t copies = std::min(lanes, chunks);
      SmallVector<int64_t> load(std::min(engines, copies), 0);
      for (int64_t c = 0; c < chunks; ++c) {
        SmallVector<int64_t> from(extents.size(), 0);
        int64_t rest = c;
        for (size_t v = dim + 1; v-- > 0;) {
          int64_t trips = extents[v] / chunk[v];
          from[v] = rest % trips * chunk[v];
          rest /= trips;
        }
        std::optional<int64_t> reads = countIndexReads(plan, from, chunk);
        if (!reads)
          return whole;
        load[c % copies % load.size()] += *reads;
      }
      int64_t worst = *llvm::max_element(load);
      if (worst < *bestReads || (worst == *bestReads && chunks > bestChunks)) {
        bestReads = worst;
        bestBytes = step * inner;
        bestChunks = chunks;
      }
    }
  }
  return bestBytes;
}

bool ktdf::splitIndexBoundGathers(func::FuncOp func, int64_t lanes,
                                  int64_t engines,
                                  const ktflow::sched::ScheduleTarget &target) {
  struct Cut {
    GatherCopy copy;
    int64_t least;
    std::optional<IndirectTilePlan> shared;
  };
  SmallVector<Cut, 2> cuts;
  // Only gathers of the body itself: ktdf-spread-iterations spreads the
  // loops of the body, not loops nested in another.
  for (auto load : func.getBody().getOps<ktdp::LoadOp>()) {
    std::optional<IndirectTilePlan> shared;
    std::optional<int64_t> least = indexBoundChunk(load, target, shared);
    // A gather that is not a copy moves whole, as before.
    std::string why;
    if (FailureOr<GatherCopy> copy = matchGatherCopy(load, why);
        least && succeeded(copy))
      cuts.push_back({*copy, *least, shared});
  }
  // ktdf-spread-iterations spreads the chunk loops only when the body does
  // no other work that the copies would repeat; on one lane the chunks
  // only add their stores' latencies.
  llvm::SmallPtrSet<Operation *, 4> copyStores;
  for (Cut &cut : cuts)
    copyStores.insert(cut.copy.store);
  if (func.walk([&](ktdp::StoreOp store) {
            return copyStores.contains(store) ? WalkResult::advance()
                                              : WalkResult::interrupt();
          })
          .wasInterrupted())
    return false;
  bool split = false;
  for (Cut &cut : cuts) {
    // About one chunk per lane: more only add their stores' latencies.
    auto type = cast<RankedTensorType>(cut.copy.load.getType());
    int64_t esize = ktflow::bytesPerElement(type.getElementType());
    int64_t elements = std::max<int64_t>(
        cut.least, llvm::divideCeil(type.getNumElements(), lanes));
    int64_t bytes = cut.shared
                        ? pageChunkBytes(*cut.shared, esize, elements * esize,
                                         lanes, engines)
                        : elements * esize;
    // Chunks over the cap would be cut smaller, past one a lane: such a
    // gather is left to ktdf-stream-wide-rows when it overflows the
    // scratchpad (paged_kv_gather_full's 16 MB).
    if (bytes >= loadedBytes(cut.copy.load) ||
        (cut.shared && bytes > kMaxChunkBytes))
      continue;
    splitCopy(cut.copy, bytes);
    split = true;
  }
  return split;
}

/// The lanes of a core whose loads one DMA engine moves (spyre_like's and
/// sample_device's two).
static int64_t lanesPerLoadEngine(const ktflow::sched::ScheduleTarget &target) {
  ArrayRef<ktflow::sched::Lane> lanes = target.getLanes();
  if (lanes.empty() || lanes.front().inbound.hops.empty())
    return 1;
  ktflow::sched::NodeId engine = lanes.front().inbound.hops.front().unit;
  return llvm::count_if(lanes, [&](const ktflow::sched::Lane &lane) {
    return !lane.inbound.hops.empty() &&
           lane.inbound.hops.front().unit == engine;
  });
}

namespace {
struct SplitIndexBoundGathersPass
    : public ktflow::sched::WithScheduleTarget<
          ktdf::impl::KTDFSplitIndexBoundGathersBase<
              SplitIndexBoundGathersPass>> {
  using Base::Base;
  void runOnOperation() final {
    const ktflow::sched::ScheduleTarget *target = requireScheduleTarget();
    if (!target)
      return;
    int64_t instances = target->getNumLaneInstances(/*useLanes=*/true);
    int64_t sharing = lanesPerLoadEngine(*target);
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      FailureOr<std::optional<SmallVector<int64_t>>> grid =
          ktdp::getLaunchGrid(func);
      if (func.isExternal() || failed(grid))
        continue;
      // The lanes ktdf-spread-iterations gives each grid point.
      int64_t points = *grid ? ktdp::getNumTiles(**grid) : 1;
      int64_t lanes = instances / points;
      if (lanes > 1)
        splitIndexBoundGathers(
            func, lanes, std::max<int64_t>(1, instances / sharing / points),
            *target);
    }
  }
};
} // namespace
