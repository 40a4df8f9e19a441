//===- ViewResolution.cpp - Memory views and tile ids ---------------------===//
//
// This file implements the ktdp ops that describe memory rather than move
// it: get_compute_tile_id, construct_memory_view (binding the view's
// address range to a region of global memory or a scratchpad),
// construct_distributed_memory_view and runtime_arg_extract.
//
// A view's coordinate_set is in global coordinates: coordinate c of a view
// lives at local index c - lower(coordinate_set), at address
// offset + Σ local_i * stride_i (elements).
//
//===----------------------------------------------------------------------===//

#include "AccessTiles.h"
#include "Executor.h"

#include "ktflow/Dialect/KTDP/IR/KTDP.h"

using namespace mlir;
using namespace ktflow::interp;

/// k ids are the tile's leading k coordinates (x first), so under an
/// [N, 1] grid a single id is the linear tile id; ids beyond the grid's
/// rank are 0 (extent 1).
static LogicalResult runGetComputeTileId(TileExecutor &exec, Operation *op) {
  for (auto [d, result] : llvm::enumerate(op->getResults()))
    exec.set(result, Scalar::ofInt(d < exec.tileCoords.size()
                                       ? exec.tileCoords[d]
                                       : 0,
                                   DType::Index));
  return success();
}

static LogicalResult runConstructMemoryView(TileExecutor &exec,
                                            Operation *op) {
  auto viewOp = cast<ktdp::ConstructMemoryViewOp>(op);
  auto memrefType = dyn_cast<MemRefType>(viewOp.getType());
  std::optional<DType> dtype =
      memrefType ? dtypeFromType(memrefType.getElementType()) : std::nullopt;
  if (!dtype)
    return exec.error(op) << "unsupported view element type";
  FailureOr<int64_t> offset = exec.getIndex(op, viewOp.getOffset());
  FailureOr<SmallVector<int64_t, 4>> sizes =
      evaluateMixed(exec, op, viewOp.getMixedSizes());
  FailureOr<SmallVector<int64_t, 4>> strides =
      evaluateMixed(exec, op, viewOp.getMixedStrides());
  FailureOr<SmallVector<int64_t, 4>> dynamicSizes =
      exec.getIndices(op, viewOp.getSizes());
  if (failed(offset) || failed(sizes) || failed(strides) ||
      failed(dynamicSizes))
    return failure();
  for (int64_t s : *sizes)
    if (s < 0)
      return exec.error(op) << "negative size " << s;

  ViewPart part;
  part.op = op;
  part.offset = *offset;
  part.sizes = *sizes;
  part.strides = *strides;
  IntegerSet set = viewOp.getCoordinateSet();
  if (set.getNumDims() != sizes->size())
    return exec.error(op) << "coordinate_set has " << set.getNumDims()
                          << " dimensions but the view has rank "
                          << sizes->size();
  if (set.getNumSymbols() > dynamicSizes->size())
    return exec.error(op) << "coordinate_set has " << set.getNumSymbols()
                          << " symbols but the view has only "
                          << dynamicSizes->size() << " dynamic sizes";
  part.setSymbols.assign(dynamicSizes->begin(),
                         dynamicSizes->begin() + set.getNumSymbols());
  part.set = &exec.state.setPlans.get(set);
  FailureOr<ktdp::IntegerBox> box = part.set->bounds(part.setSymbols);
  if (failed(box))
    return exec.error(op) << "coordinate_set is unbounded";
  part.box = *box;

  ktdp::MemorySpaceAttrInterface space = viewOp.getMemorySpaceInterface();
  if (space.getMemoryKind() == ktdp::MemoryKind::global) {
    part.space = &exec.state.global;
  } else {
    int64_t owner = space.getComputeTileId().value_or(exec.tileId);
    if (owner < 0 || owner >= exec.state.numTiles)
      return exec.error(op) << "ct_local memory of tile " << owner
                            << ", but the grid has " << exec.state.numTiles
                            << " tiles";
    part.space = &exec.state.scratchpad(owner);
  }

  // Bind the view's address range; views are where regions grow.
  bool empty = llvm::any_of(*sizes, [](int64_t s) { return s == 0; });
  if (!empty) {
    int64_t lo = *offset, hi = *offset;
    for (auto [size, stride] : llvm::zip(*sizes, *strides)) {
      int64_t span = (size - 1) * stride;
      (span < 0 ? lo : hi) += span;
    }
    std::string overlap;
    llvm::Expected<MemRegion *> region =
        part.space->bind(lo, hi, *dtype, &overlap);
    if (!region)
      return exec.error(op) << llvm::toString(region.takeError());
    if (!overlap.empty())
      op->emitWarning() << overlap;
    // Views that the static pass could not size add their footprint now.
    MemRegion &r = **region;
    ktflow::ViewFootprint footprint;
    footprint.offset = *offset - r.base;
    footprint.sizes = *sizes;
    footprint.strides = *strides;
    std::string message;
    if (!r.extent.add(footprint, message))
      return exec.error(op) << message;
  }

  auto view = std::make_shared<MemoryView>();
  view->dtype = *dtype;
  view->rank = sizes->size();
  view->parts.push_back(std::move(part));
  exec.set(viewOp, ViewRef(std::move(view)));
  return success();
}

static bool boxesOverlap(const ktdp::IntegerBox &a, const ktdp::IntegerBox &b) {
  for (size_t d = 0; d < a.lower.size(); ++d)
    if (a.upper[d] < b.lower[d] || b.upper[d] < a.lower[d])
      return false;
  return true;
}

static LogicalResult runConstructDistributedView(TileExecutor &exec,
                                                 Operation *op) {
  auto distributed = cast<ktdp::ConstructDistributedMemoryViewOp>(op);
  auto memrefType = dyn_cast<MemRefType>(distributed.getType());
  std::optional<DType> dtype =
      memrefType ? dtypeFromType(memrefType.getElementType()) : std::nullopt;
  if (!dtype)
    return exec.error(op) << "unsupported view element type";
  auto view = std::make_shared<MemoryView>();
  view->dtype = *dtype;
  view->rank = memrefType.getRank();
  for (Value input : distributed.getMemrefs()) {
    const RValue &value = exec.get(input);
    if (!value.isView())
      return exec.error(op) << "operands must be memory views";
    const MemoryView &part = *value.view();
    if (part.dtype != *dtype || part.rank != view->rank)
      return exec.error(op) << "type mismatch: parts must have the element "
                               "type and rank of the result";
    view->partsMayOverlap |= part.partsMayOverlap;
    view->parts.append(part.parts.begin(), part.parts.end());
  }
  for (size_t i = 0; i < view->parts.size(); ++i)
    for (size_t j = i + 1; j < view->parts.size(); ++j)
      view->partsMayOverlap |=
          boxesOverlap(view->parts[i].box, view->parts[j].box);
  exec.set(distributed, ViewRef(std::move(view)));
  return success();
}

static LogicalResult runRuntimeArgExtract(TileExecutor &exec, Operation *op) {
  auto extract = cast<ktdp::RuntimeArgExtractOp>(op);
  auto type = cast<ktdp::RuntimeArgType>(extract.getInput().getType());
  switch (extract.getKind()) {
  case ktdp::RuntimeArgExtractKind::value: {
    const RValue &value = exec.get(extract.getInput());
    if (!value.isScalar())
      return exec.error(op) << "runtime_arg has no value";
    exec.set(extract, value.scalar());
    return success();
  }
  case ktdp::RuntimeArgExtractKind::granularity:
  case ktdp::RuntimeArgExtractKind::upperbound: {
    std::optional<int64_t> v =
        extract.getKind() == ktdp::RuntimeArgExtractKind::granularity
            ? type.getGranularity()
            : type.getUpperbound();
    if (!v)
      return exec.error(op) << "runtime_arg has no such attribute";
    exec.set(extract, Scalar::ofInt(*v, DType::Index));
    return success();
  }
  }
  return exec.error(op) << "unknown runtime_arg_extract kind";
}

void ktflow::interp::registerKTDPHandlers(HandlerTable &table) {
  table.add<ktdp::GetComputeTileIdOp>(runGetComputeTileId);
  table.add<ktdp::ConstructMemoryViewOp>(runConstructMemoryView);
  table.add<ktdp::ConstructDistributedMemoryViewOp>(
      runConstructDistributedView);
  table.add<ktdp::RuntimeArgExtractOp>(runRuntimeArgExtract);
  table.add<ktdp::ConstructAccessTileOp>(runConstructAccessTile);
  table.add<ktdp::ConstructIndirectAccessTileOp>(
      runConstructIndirectAccessTile);
  table.add<ktdp::LoadOp>(runLoad);
  table.add<ktdp::StoreOp>(runStore);
}
