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
// ktdf-split-index-bound-gathers (SplitIndexBoundGathers.cpp) cuts the
// same way a gather bound by its index reads.
//
//===----------------------------------------------------------------------===//

#include "SplitGathers.h"

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"

#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"
#include "ktflow/Support/ElementBytes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::ktdf;

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
FailureOr<GatherCopy> ktdf::matchGatherCopy(ktdp::LoadOp load,
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

/// Replaces `copy` by a loop moving it in chunks. Each chunk is
/// gathered with one variable per dimension of the destination view, in
/// its order, so that the store is a box tile in identity order (rows of
/// the view at a stride, moved by DMA) instead of a transposition through
/// a compute unit: a variable of the gather becomes the variable of the
/// view dimension its stored dimension is enumerated over, and the unit
/// dimensions a tensor.expand_shape added become variables of extent 1
/// that no subscript uses.
void ktdf::offsetGatherVariables(ktdp::ConstructIndirectAccessTileOp gather,
                                 ValueRange offsets,
                                 ArrayRef<unsigned> position,
                                 unsigned variables) {
  MLIRContext *ctx = gather.getContext();
  unsigned captured = gather.getCapturedVariables().size();
  unsigned added = offsets.size();
  SmallVector<AffineExpr> replacements;
  for (unsigned c = 0; c < captured; ++c)
    replacements.push_back(getAffineDimExpr(c, ctx));
  for (auto [v, at] : llvm::enumerate(position)) {
    AffineExpr var = getAffineDimExpr(captured + added + at, ctx);
    replacements.push_back(v < added ? getAffineDimExpr(captured + v, ctx) + var
                                     : var);
  }
  SmallVector<Attribute> maps;
  for (Attribute attr : gather.getPerDimSubscriptMaps()) {
    AffineMap map = cast<AffineMapAttr>(attr).getValue();
    maps.push_back(AffineMapAttr::get(map.replaceDimsAndSymbols(
        replacements, {}, captured + added + variables, map.getNumSymbols())));
  }
  gather.getCapturedVariablesMutable().append(offsets);
  gather.setPerDimSubscriptMapsAttr(ArrayAttr::get(ctx, maps));
}

void ktdf::splitCopy(GatherCopy &copy, int64_t maxBytes) {
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
  unsigned split = offsets.size();
  offsetGatherVariables(source, offsets, viewDim, rank);
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
