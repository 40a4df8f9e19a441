//===- CheckSupported.cpp - What the scheduler cannot handle yet ----------===//
//
// This file implements --ktdf-check-supported: one located error per KTIR
// construct that the mapping group cannot turn into ScheduleIR yet, naming
// the construct, so an unsupported kernel fails early and clearly instead
// of deep inside a later pass.
//
//===----------------------------------------------------------------------===//

#include "TileBounds.h"

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"
#include "ktflow/Dialect/KTDP/Utils/LaunchGrid.h"
#include "ktflow/Dialect/SpyreOp/IR/SpyreOp.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFCHECKSUPPORTED
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

/// A dynamic size is supported when it is a runtime argument's value.
static bool isRuntimeArgValue(Value v) {
  return v.getDefiningOp<ktdp::RuntimeArgExtractOp>() != nullptr;
}

static std::optional<std::string> checkView(ktdp::ConstructMemoryViewOp view) {
  std::optional<ktdp::NormalizedMemorySpace> space =
      ktdp::normalizeMemorySpace(view.getMemorySpace());
  if (space && space->kind == ktdp::MemoryKind::ct_local) {
    // A tile's own scratchpad at a literal address; one owned by another
    // tile would need transfers between cores.
    APInt address;
    if (!matchPattern(view.getOffset(), m_ConstantInt(&address)) ||
        address.isNegative() || !view.getSizes().empty())
      return std::string("scratchpad (ct_local) views need a literal, "
                         "non-negative address and static sizes");
    if (space->computeTileId.value_or(0) != 0)
      return std::string("scratchpad (ct_local) views of another compute "
                         "tile are not supported by the scheduler yet");
  }
  auto arg = dyn_cast<BlockArgument>(view.getOffset());
  APInt literal;
  bool isLiteral = matchPattern(view.getOffset(), m_ConstantInt(&literal));
  if (isLiteral && (literal.isNegative() || !view.getSizes().empty()))
    return std::string("a memory view at a literal address needs a "
                       "non-negative address and static sizes");
  if (!isLiteral &&
      (!arg || !isa<func::FuncOp>(arg.getOwner()->getParentOp())))
    return std::string("memory views at computed addresses are not "
                       "supported by the scheduler yet (the start address "
                       "must be a kernel argument or a literal)");
  // Element (c) of the view is at offset + sum(c * stride) only when its
  // coordinate set starts at the origin.
  SmallVector<int64_t> bigSymbols(view.getCoordinateSet().getNumSymbols(),
                                  int64_t(1) << 30);
  auto box = ktdp::getBoundingBox(view.getCoordinateSet(), bigSymbols);
  if (failed(box) ||
      llvm::any_of(box->lower, [](int64_t l) { return l != 0; }))
    return std::string("memory views whose coordinate set does not start at "
                       "the origin are not supported yet");
  // The view holds the coordinates of its set, which the transfers bound
  // per dimension (TileBounds, and the row clamp of the DMA lowering).
  for (unsigned d = 0; d < view.getCoordinateSet().getNumDims(); ++d)
    if (failed(ktdp::getUpperBoundMap(view.getCoordinateSet(), d)))
      return std::string("memory views whose coordinate set is not a box "
                         "(each dimension bounded on its own by linear "
                         "constraints) are not supported yet");
  if (view.getCoordinateSet().getNumSymbols() > view.getSizes().size())
    return std::string("the view's coordinate set has more symbols than the "
                       "view has dynamic sizes");
  for (Value size : view.getSizes())
    if (!isRuntimeArgValue(size))
      return std::string("a dynamic view size must be a runtime argument "
                         "(ktdp.runtime_arg_extract)");
  if (!view.getStrides().empty())
    return std::string("dynamic view strides are not supported yet");
  ArrayRef<int64_t> strides = view.getStaticStrides();
  if (strides.empty() || strides.back() != 1)
    return std::string("views whose innermost dimension is not contiguous "
                       "(stride 1) are not supported yet");
  return std::nullopt;
}

static std::optional<std::string> checkTile(ktdp::ConstructAccessTileOp tile) {
  if (!tile.getBase().getDefiningOp<ktdp::ConstructMemoryViewOp>())
    return std::string("access tiles must be built on a "
                       "ktdp.construct_memory_view");
  if (!tile.getSymbolOperands().empty() ||
      tile.getAccessTileSet().getNumSymbols() != 0)
    return std::string("access tiles with symbolic (dynamic) extents are not "
                       "supported yet");
  if (!ktdp::isBoxShaped(tile.getAccessTileSet()))
    return std::string("access tiles over non-box coordinate sets are not "
                       "supported yet");
  if (!tile.getAccessTileOrder().isIdentity())
    return std::string("access tiles with a permuted order (transposed "
                       "access) are not supported yet");
  auto box = ktdp::getBoundingBox(tile.getAccessTileSet(), {});
  if (failed(box) || llvm::any_of(box->lower, [](int64_t l) { return l != 0; }))
    return std::string("access tile sets must start at offset 0 in every "
                       "dimension");
  if (!tile.getType().hasStaticShape())
    return std::string("access tiles must have a static shape");
  SmallVector<int64_t> extents = box->getExtents();
  // A view holds the coordinates of its coordinate_set, no more than its
  // sizes. Only the rows of a 2-d tile in device memory are masked where
  // they leave it (from the end: the tile must start inside); every other
  // dimension must provably stay inside.
  auto view = tile.getBase().getDefiningOp<ktdp::ConstructMemoryViewOp>();
  if (tile.getBaseMap().getNumResults() != extents.size() ||
      view.getStaticSizes().size() != extents.size())
    return std::string("access tiles must have the rank of their view");
  auto space = ktdp::normalizeMemorySpace(view.getMemorySpace());
  bool masksRows = extents.size() == 2 &&
                   !(space && space->kind == ktdp::MemoryKind::ct_local);
  if (masksRows && anchorLowerBound(tile, 0).value_or(-1) < 0)
    return std::string("the access tile may start before its view along "
                       "dimension 0 (rows are only masked past the end of "
                       "the view)");
  for (size_t d = masksRows ? 1 : 0; d < extents.size(); ++d) {
    auto range = anchorRange(tile, d);
    auto extent = staticViewExtent(view, d);
    if (!range || !extent || range->first < 0 ||
        range->second + extents[d] > *extent)
      return "the access tile may reach past its view along dimension " +
             std::to_string(d) +
             " (the coordinates of its coordinate_set within its sizes; "
             "only the rows of a 2-d tile in device memory are masked, "
             "others must provably stay inside a view of static extent)";
  }
  return std::nullopt;
}

/// The error for `op`, if the scheduler cannot handle it.
static std::optional<std::string> check(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<std::string>>(op)
      .Case([](ktdp::ConstructMemoryViewOp v) { return checkView(v); })
      .Case([](ktdp::ConstructAccessTileOp t) { return checkTile(t); })
      .Case<ktdp::InterTileProduceOp, ktdp::InterTileConsumeOp,
            ktdp::InterTileReduceOp>([](Operation *o) {
        return "inter-tile communication (" + o->getName().getStringRef().str() +
               ") is not supported by the scheduler yet";
      })
      .Case([](ktdp::ConstructIndirectAccessTileOp) {
        return std::string("indirect access tiles "
                           "(ktdp.construct_indirect_access_tile) are not "
                           "supported by the scheduler yet");
      })
      .Case([](ktdp::ConstructDistributedMemoryViewOp) {
        return std::string("distributed memory views "
                           "(ktdp.construct_distributed_memory_view) are not "
                           "supported by the scheduler yet");
      })
      .Case<ktdp::LoadOp, ktdp::StoreOp>(
          [](Operation *o) -> std::optional<std::string> {
            Value data = isa<ktdp::LoadOp>(o) ? o->getResult(0)
                                              : o->getOperand(0);
            auto type = dyn_cast<RankedTensorType>(data.getType());
            if (!type || !type.hasStaticShape())
              return std::string("loads and stores of dynamically shaped "
                                 "tensors are not supported yet");
            auto store = dyn_cast<ktdp::StoreOp>(o);
            auto view = store ? ktdp::getAccessTileView(store.getAccessTile())
                              : nullptr;
            if (view && viewMayAlias(view))
              return std::string(
                  "stores through a view whose strides may map two of its "
                  "coordinates to the same element are not supported (the "
                  "stores of different grid points are not ordered)");
            return std::nullopt;
          })
      .Case([](scf::ForOp loop) -> std::optional<std::string> {
        if (loop.getNumRegionIterArgs() != 0)
          return std::string("loops that carry values (scf.for iter_args) "
                             "are not supported by the scheduler yet");
        return std::nullopt;
      })
      .Case<scf::WhileOp, scf::IfOp, scf::ParallelOp, scf::IndexSwitchOp>(
          [](Operation *o) {
            return o->getName().getStringRef().str() +
                   " is not supported by the scheduler yet";
          })
      .Case([](func::CallOp call) {
        return "calls (func.call @" + call.getCallee().str() +
               ") must be inlined first (ktdf-select-kernel does)";
      })
      .Case<linalg::ContractionOpInterface, linalg::ConvolutionOpInterface>(
          [](Operation *o) {
            return "matrix products and convolutions (" +
                   o->getName().getStringRef().str() +
                   ") are not supported by the scheduler yet";
          })
      .Case([](linalg::TransposeOp) {
        return std::string("transposes (linalg.transpose) are not "
                           "supported by the scheduler yet");
      })
      .Default([](Operation *o) -> std::optional<std::string> {
        if (o->getDialect() &&
            o->getDialect()->getNamespace() == "tensor" &&
            !isa<tensor::EmptyOp>(o))
          return o->getName().getStringRef().str() +
                 " is not supported by the scheduler yet";
        return std::nullopt;
      });
}

/// The tensor an access tile reads or writes in device memory: its kernel
/// argument, or its literal address (regions of different literal addresses
/// may not overlap); none for scratchpad views, which the lowering orders.
static std::optional<std::pair<const void *, int64_t>>
deviceTensorOf(Value tileValue) {
  auto view = ktdp::getAccessTileView(tileValue);
  if (!view)
    return std::nullopt;
  auto space = ktdp::normalizeMemorySpace(view.getMemorySpace());
  if (space && space->kind == ktdp::MemoryKind::ct_local)
    return std::nullopt;
  APInt address;
  if (matchPattern(view.getOffset(), m_ConstantInt(&address)))
    return std::make_pair<const void *, int64_t>(nullptr,
                                                 address.getSExtValue());
  return std::make_pair<const void *, int64_t>(
      view.getOffset().getAsOpaquePointer(), -1);
}

/// The elements (relative to its view's start) an access tile may touch
/// over every compute tile and loop iteration; none when unknown.
static std::optional<std::pair<int64_t, int64_t>>
elementRange(Value tileValue) {
  auto tile = tileValue.getDefiningOp<ktdp::ConstructAccessTileOp>();
  auto view = ktdp::getAccessTileView(tileValue);
  if (!view || !view.getStrides().empty())
    return std::nullopt;
  auto box = ktdp::getBoundingBox(tile.getAccessTileSet(), {});
  ArrayRef<int64_t> strides = view.getStaticStrides();
  if (failed(box) || box->getExtents().size() != strides.size() ||
      tile.getBaseMap().getNumResults() != strides.size())
    return std::nullopt;
  int64_t lo = 0, hi = 0;
  for (auto [d, extent] : llvm::enumerate(box->getExtents())) {
    auto anchor = anchorRange(tile, d);
    if (!anchor || strides[d] < 0)
      return std::nullopt;
    lo += strides[d] * anchor->first;
    hi += strides[d] * (anchor->second + extent - 1);
  }
  return std::make_pair(lo, hi);
}

/// Whether two access tiles of the same tensor may touch a common element.
static bool mayOverlap(Value a, Value b) {
  auto ra = elementRange(a), rb = elementRange(b);
  return !ra || !rb || (ra->first <= rb->second && rb->first <= ra->second);
}

/// Whether `v` is computed from `of` (false when unsure).
static bool dependsOn(Value v, function_ref<bool(Value)> of, int depth = 0) {
  if (of(v))
    return true;
  Operation *def = v.getDefiningOp();
  if (!def || depth > 32)
    return false;
  return llvm::any_of(def->getOperands(), [&](Value operand) {
    return dependsOn(operand, of, depth + 1);
  });
}

/// Whether the tile changes with every loop around it and with the
/// coordinate of every grid dimension of extent > 1: then no two executions
/// of an in-place update touch the same tile. A kernel that asks for fewer
/// tile ids than the grid has dimensions cannot tell the trailing
/// coordinates apart, so its tiles repeat across them.
static bool changesEveryIteration(ktdp::ConstructAccessTileOp tile,
                                  Operation *load, func::FuncOp func) {
  auto changesWith = [&](function_ref<bool(Value)> of) {
    return llvm::any_of(tile.getIndices(),
                        [&](Value i) { return dependsOn(i, of); });
  };
  for (Operation *p = load->getParentOp(); p && p != func;
       p = p->getParentOp())
    if (auto loop = dyn_cast<scf::ForOp>(p)) {
      Value iv = loop.getInductionVar();
      if (!changesWith([&](Value v) { return v == iv; }))
        return false;
    }
  auto grid = ktdp::getLaunchGrid(func);
  if (failed(grid) || !*grid)
    return false;
  for (auto [d, extent] : llvm::enumerate(**grid)) {
    if (extent <= 1)
      continue;
    auto isCoordinate = [d = d](Value v) {
      auto result = dyn_cast<OpResult>(v);
      return result && isa<ktdp::GetComputeTileIdOp>(result.getOwner()) &&
             result.getResultNumber() == d;
    };
    if (!changesWith(isCoordinate))
      return false;
  }
  return true;
}

/// Loads of a tensor the kernel also writes. Compute groups, and the
/// executions of one group across loop iterations and grid points, overlap
/// with no ordering through device memory, so a load may run before or
/// after a store the kernel orders before it. Only stores whose elements
/// may overlap the load's count (bounds from the grid and constant loop
/// bounds), and only an in-place update is safe: a load, then stores of the
/// same access tile in the same block (one compute group), on a tile that
/// no other execution touches.
static bool checkMemoryHazards(func::FuncOp func) {
  using Key = std::pair<const void *, int64_t>;
  llvm::DenseMap<Key, SmallVector<ktdp::StoreOp>> stores;
  func.walk([&](ktdp::StoreOp store) {
    if (auto key = deviceTensorOf(store->getOperand(1)))
      stores[*key].push_back(store);
  });
  bool failed = false;
  func.walk([&](ktdp::LoadOp load) {
    Value tileValue = load->getOperand(0);
    auto key = deviceTensorOf(tileValue);
    if (!key || !stores.count(*key))
      return;
    SmallVector<ktdp::StoreOp> overlapping;
    for (ktdp::StoreOp store : stores[*key])
      if (mayOverlap(tileValue, store->getOperand(1)))
        overlapping.push_back(store);
    if (overlapping.empty())
      return;
    bool inPlace = llvm::all_of(overlapping, [&](ktdp::StoreOp store) {
      return store->getOperand(1) == tileValue &&
             store->getBlock() == load->getBlock() &&
             load->isBeforeInBlock(store);
    });
    auto tile = tileValue.getDefiningOp<ktdp::ConstructAccessTileOp>();
    if (inPlace && changesEveryIteration(tile, load, func))
      return;
    load.emitError("loads of a tensor that the kernel also writes are not "
                   "supported by the scheduler yet (compute groups, loop "
                   "iterations and grid points are not ordered through "
                   "device memory); only an in-place update is: a load, "
                   "then stores of the same access tile in the same block, "
                   "on a tile that changes with every enclosing loop and "
                   "grid point");
    failed = true;
  });
  return failed;
}

/// The literal address of the scratchpad (ct_local) view an access tile is
/// built on, if it is one.
static std::optional<int64_t> scratchpadAddressOf(Value tileValue) {
  auto view = ktdp::getAccessTileView(tileValue);
  if (!view)
    return std::nullopt;
  auto space = ktdp::normalizeMemorySpace(view.getMemorySpace());
  APInt address;
  if (!space || space->kind != ktdp::MemoryKind::ct_local ||
      !matchPattern(view.getOffset(), m_ConstantInt(&address)))
    return std::nullopt;
  return address.getSExtValue();
}

/// Loads of a scratchpad tile that a store earlier in the same block may
/// have written. The lowering orders scratchpad accesses of different
/// pipelines, but the store and the load can land in one compute group
/// (when they share a loaded value), whose stages it does not order: the
/// load read the scratchpad before the store.
static bool checkScratchpadHazards(func::FuncOp func) {
  bool failed = false;
  func.walk([&](ktdp::LoadOp load) {
    Value tileValue = load->getOperand(0);
    auto address = scratchpadAddressOf(tileValue);
    if (!address)
      return;
    for (Operation &op : *load->getBlock()) {
      if (&op == load.getOperation())
        break;
      auto store = dyn_cast<ktdp::StoreOp>(op);
      if (!store || scratchpadAddressOf(store->getOperand(1)) != address ||
          !mayOverlap(tileValue, store->getOperand(1)))
        continue;
      load.emitError("a load of a scratchpad (ct_local) tile that a store "
                     "earlier in the same block may have written is not "
                     "supported by the scheduler yet (the store and the "
                     "load may become one compute group, which does not "
                     "order them)");
      failed = true;
      return;
    }
    // A store in a loop around the load feeds the next iteration's load
    // (an accumulator kept in the scratchpad): executions of a pipeline
    // across iterations are not ordered through the scratchpad either.
    bool reported = false;
    func.walk([&](ktdp::StoreOp store) {
      if (reported || scratchpadAddressOf(store->getOperand(1)) != address ||
          !mayOverlap(tileValue, store->getOperand(1)))
        return;
      for (Operation *p = load->getParentOp(); p && p != func;
           p = p->getParentOp())
        if (isa<scf::ForOp>(p) && p->isAncestor(store)) {
          load.emitError("a load of a scratchpad (ct_local) tile that a "
                         "store in the same loop may write is not "
                         "supported by the scheduler yet (loop iterations "
                         "are not ordered through the scratchpad)");
          failed = reported = true;
          return;
        }
    });
  });
  return failed;
}

namespace {
struct CheckSupportedPass
    : public ktdf::impl::KTDFCheckSupportedBase<CheckSupportedPass> {
  void runOnOperation() override {
    bool failed = false;
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal() || !func->hasAttr("grid"))
        continue;
      failed |= checkMemoryHazards(func);
      failed |= checkScratchpadHazards(func);
      failed |= checkMaskedRowUses(func);
      func.walk([&](Operation *op) {
        // Bodies of linalg ops are scalar code the units run as written.
        if (op->getParentOfType<linalg::LinalgOp>())
          return;
        if (std::optional<std::string> error = check(op)) {
          op->emitError(*error);
          failed = true;
        }
      });
    }
    if (failed)
      signalPassFailure();
  }
};
} // namespace
