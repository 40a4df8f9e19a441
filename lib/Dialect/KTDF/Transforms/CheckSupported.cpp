//===- CheckSupported.cpp - What the scheduler cannot handle yet ----------===//
//
// This file implements --ktdf-check-supported: one located error per KTIR
// construct that the mapping group cannot turn into ScheduleIR yet, naming
// the construct, so an unsupported kernel fails early and clearly instead
// of deep inside a later pass.
//
//===----------------------------------------------------------------------===//

#include "IndexIdioms.h"
#include "MatrixIdioms.h"
#include "MemoryHazards.h"
#include "ScalarIdioms.h"
#include "ShapeIdioms.h"
#include "TransposeIdioms.h"

#include "ktflow/Analysis/LaunchArguments.h"
#include "ktflow/Analysis/TensorExtent.h"
#include "ktflow/Dialect/KTDF/Transforms/IndirectTiles.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDF/Transforms/TileBounds.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"
#include "ktflow/Dialect/KTDP/Utils/LaunchGrid.h"
#include "ktflow/Dialect/SpyreOp/IR/SpyreOp.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFCHECKSUPPORTED
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

/// Whether `view` is a scratchpad view naming its tile (`ct_id`) on a grid
/// of several tiles: another tile's scratchpad for all but one of them.
static bool isOtherTilesView(ktdp::ConstructMemoryViewOp view) {
  std::optional<ktdp::NormalizedMemorySpace> space =
      ktdp::normalizeMemorySpace(view.getMemorySpace());
  if (!space || space->kind != ktdp::MemoryKind::ct_local ||
      !space->computeTileId)
    return false;
  auto grid = ktdp::getLaunchGrid(view->getParentOfType<func::FuncOp>());
  return succeeded(grid) && *grid && ktdp::getNumTiles(**grid) > 1;
}

/// The refusal ktdf-resolve-distributed-views makes at the load or store
/// `op` for a distributed view of its kernel (a view over scratchpad parts
/// is refused at the access that cannot be forwarded), if any.
static std::optional<std::string> distributedViewRefusalAt(Operation *op) {
  std::optional<std::string> found;
  op->getParentOfType<func::FuncOp>().walk(
      [&](ktdp::ConstructDistributedMemoryViewOp view) {
        if (auto refusal = whyNotResolvable(view);
            refusal && refusal->first == op) {
          found = refusal->second;
          return WalkResult::interrupt();
        }
        return WalkResult::advance();
      });
  return found;
}

namespace {
/// getScaledTensorShape of each kernel argument, computed once per argument
/// (it walks the kernel; once per view made the check quadratic in views).
class ScaledShapes {
public:
  /// Null when no view of `arg` starts at a scaled displacement.
  const ktflow::ScaledTensorShape *of(func::FuncOp fn, BlockArgument arg) {
    auto [it, inserted] = shapes.try_emplace(arg);
    if (inserted)
      it->second = ktflow::getScaledTensorShape(fn, arg);
    return it->second ? &*it->second : nullptr;
  }

private:
  DenseMap<BlockArgument, std::optional<ktflow::ScaledTensorShape>> shapes;
};
} // namespace

static std::optional<std::string> checkView(ktdp::ConstructMemoryViewOp view,
                                            ScaledShapes &scaledShapes) {
  std::optional<ktdp::NormalizedMemorySpace> space =
      ktdp::normalizeMemorySpace(view.getMemorySpace());
  if (space && space->kind == ktdp::MemoryKind::ct_local) {
    // A tile's own scratchpad at a literal address; another tile's is
    // read by copies between cores (ktdf-remote-scratchpad-loads), checked
    // at its loads and stores.
    APInt address;
    if (!matchPattern(view.getOffset(), m_ConstantInt(&address)) ||
        address.isNegative() || !view.getSizes().empty())
      return std::string("scratchpad (ct_local) views need a literal, "
                         "non-negative address and static sizes");
    if (space->computeTileId.value_or(0) != 0 && !isOtherTilesView(view))
      return std::string("the scratchpad (ct_local) view names a compute "
                         "tile the one-tile grid does not have");
  }
  APInt literal;
  bool isLiteral = matchPattern(view.getOffset(), m_ConstantInt(&literal));
  if (isLiteral && (literal.isNegative() || !view.getSizes().empty()))
    return std::string("a memory view at a literal address needs a "
                       "non-negative address and static sizes");
  std::optional<ktflow::ViewAddress> address =
      ktflow::getViewAddress(view.getOffset());
  if (!isLiteral && !address)
    return std::string("memory views at computed addresses are supported "
                       "by the scheduler only as a kernel argument plus an "
                       "offset computed from no address (arith.addi "
                       "%ptr, %offset)");
  // Views at a launch scalar times a constant past the argument declare a
  // tensor of the scalar times a constant elements, or are refused at the
  // view that keeps it from being one.
  const ktflow::ScaledTensorShape *scaled =
      address ? scaledShapes.of(view->getParentOfType<func::FuncOp>(),
                                address->argument)
              : nullptr;
  if (scaled && scaled->refusedAt == view)
    return "views at a launch scalar times a constant past their tensor's "
           "start (`%ptr + %n * 64`) must each declare that scalar times a "
           "constant elements and not overlap: " +
           scaled->refusal;
  if (address && address->displacement && !scaled) {
    // The runtime places the argument's tensor; the compiler declares it
    // large enough for every view, so the offset must be bounded.
    std::optional<std::pair<int64_t, int64_t>> range =
        rangeOf(address->displacement);
    if (!range || range->first < 0)
      return std::string("the offset of a view at a computed address must "
                         "follow from tile ids, loop bounds and constants, "
                         "and not be negative (the tensor is declared "
                         "large enough for every view)");
    if (!view.getSizes().empty())
      return std::string("a view at a computed address needs static sizes");
  }
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
  // A dynamic size is a symbol the runtime binds at launch.
  for (Value size : view.getSizes())
    if (!ktflow::getLaunchScalar(size))
      return std::string("a dynamic view size must be a scalar kernel "
                         "argument (an integer, index or !ktdp.runtime_arg "
                         "argument, possibly through arith.index_cast)");
  // Run-time strides are the products of the launch scalars' sizes after
  // them (the DMAs compute them at run time).
  if (!view.getStrides().empty())
    if (std::optional<std::string> why = ktflow::whyNotWrittenRowMajor(view))
      return "dynamic view strides must be the sizes after them: " + *why;
  ArrayRef<int64_t> strides = view.getStaticStrides();
  if (strides.empty() || strides.back() != 1)
    return std::string("views whose innermost dimension is not contiguous "
                       "(stride 1) are not supported yet");
  return std::nullopt;
}

static std::optional<std::string> checkTile(ktdp::ConstructAccessTileOp tile) {
  // ktdf-resolve-distributed-views makes a tile of a distributed view a
  // tile of one part, or says why not (at the view or at this tile).
  if (auto distributed =
          tile.getBase()
              .getDefiningOp<ktdp::ConstructDistributedMemoryViewOp>()) {
    if (auto refusal = whyNotResolvable(distributed);
        refusal && refusal->first == tile)
      return refusal->second;
    return std::nullopt;
  }
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
  auto box = ktdp::getBoundingBox(tile.getAccessTileSet(), {});
  if (failed(box) || llvm::any_of(box->lower, [](int64_t l) { return l != 0; }))
    return std::string("access tile sets must start at offset 0 in every "
                       "dimension");
  if (!tile.getType().hasStaticShape())
    return std::string("access tiles must have a static shape");
  SmallVector<int64_t> extents = box->getExtents();
  // A view holds the coordinates of its coordinate_set, no more than its
  // sizes. The DMA transfers of a tile in device memory mask, along every
  // dimension, the coordinates before the start or past the end of the
  // view; a scratchpad tile, which the compute unit reaches without a DMA,
  // must provably stay inside.
  auto view = tile.getBase().getDefiningOp<ktdp::ConstructMemoryViewOp>();
  if (tile.getBaseMap().getNumResults() != extents.size() ||
      view.getStaticSizes().size() != extents.size())
    return std::string("access tiles must have the rank of their view");
  auto space = ktdp::normalizeMemorySpace(view.getMemorySpace());
  bool masks = !(space && space->kind == ktdp::MemoryKind::ct_local);
  // A permuted order (a transposed load or store) moves by strided DMAs
  // into the buffer's layout, which do not mask.
  if (!tile.getAccessTileOrder().isIdentity()) {
    if (!tile.getAccessTileOrder().isPermutation())
      return std::string("an access tile's order must be a permutation of "
                         "its dimensions");
    if (!masks)
      return std::string("scratchpad (ct_local) access tiles with a "
                         "permuted order are not supported yet");
    for (size_t d = 0; d < extents.size(); ++d)
      if (mayLeaveView(tile, d))
        return "an access tile with a permuted order (a transposed access) "
               "must stay inside its view, and this one may leave it along "
               "dimension " +
               std::to_string(d) + " (its transfers are not masked)";
  }
  for (size_t d = 0; d < extents.size() && !masks; ++d)
    if (mayLeaveView(tile, d))
      return "the access tile may leave its scratchpad view along "
             "dimension " +
             std::to_string(d) +
             " (only the transfers of device memory are masked; a "
             "scratchpad tile must provably stay inside a view of static "
             "extent)";
  return std::nullopt;
}

/// Splats ktdf-generalize turns into a broadcast: of a constant (a splat
/// constant, e.g. a reduction's init), of a float scalar bound at launch (a
/// norm's epsilon), of the only element of a tensor, or of scalar
/// arithmetic on those (ScalarIdioms.h).
static std::optional<std::string> checkSplat(tensor::SplatOp splat) {
  if (!splat.getType().hasStaticShape())
    return std::string("tensor.splat to a dynamically shaped tensor is not "
                       "supported by the scheduler yet");
  if (isRowScalar(splat.getInput()))
    return std::nullopt;
  return std::string("tensor.splat of a scalar that is neither a constant, "
                     "a float kernel argument, an integer one converted to "
                     "float, the element of a one-element tensor "
                     "(tensor.extract), nor arithmetic on those is not "
                     "supported by the scheduler yet");
}

/// Whether `user` sits in the body of a linalg.generic that `extract` is
/// outside of: ktdf-generalize makes the captured scalar a broadcast input.
static bool isCapturedByGeneric(Operation *user, tensor::ExtractOp extract) {
  auto generic = user->getParentOfType<linalg::GenericOp>();
  return generic && !generic->isAncestor(extract);
}

/// Extracts whose scalar only feeds supported splats and scalar arithmetic
/// on row scalars: a broadcast of a one-element tensor, or a row op.
static std::optional<std::string> checkExtract(tensor::ExtractOp extract) {
  if (!isRowScalar(extract.getResult()))
    return std::string("tensor.extract of one element of a larger tensor is "
                       "not supported by the scheduler yet (only the "
                       "element of a one-element tensor, broadcast back by "
                       "tensor.splat or in scalar float arithmetic)");
  for (Operation *user : extract->getUsers())
    if (!isa<tensor::SplatOp>(user) && !isRowScalarOp(user) &&
        !isCapturedByGeneric(user, extract))
      return "a scalar from tensor.extract used by '" +
             user->getName().getStringRef().str() +
             "' is not supported by the scheduler yet (only a tensor.splat "
             "broadcasting it back, or scalar float arithmetic on "
             "one-element tensors, float arguments and constants)";
  return std::nullopt;
}

/// Whether `op` flattens a partial for an inter-tile reduction (a static
/// tensor collapsed only to be yielded by inter_tile_produce) or expands the
/// reduced value back to that shape: ktdf-lower-inter-tile exchanges the
/// partial as computed, so neither reshape remains.
static bool isExchangeReshape(Operation *op) {
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op))
    return collapse.getSrcType().hasStaticShape() && !collapse->use_empty() &&
           llvm::all_of(collapse->getUsers(), [](Operation *user) {
             return isa<ktdp::YieldPartialOp>(user);
           });
  auto expand = dyn_cast<tensor::ExpandShapeOp>(op);
  auto reduce = expand
                    ? expand.getSrc().getDefiningOp<ktdp::InterTileReduceOp>()
                    : nullptr;
  if (!reduce)
    return false;
  auto produce = reduce.getFuture().getDefiningOp<ktdp::InterTileProduceOp>();
  auto yield = produce ? dyn_cast<ktdp::YieldPartialOp>(
                             produce.getBody().front().getTerminator())
                       : nullptr;
  auto collapse =
      yield && yield.getValues().size() == 1
          ? yield.getValues().front().getDefiningOp<tensor::CollapseShapeOp>()
          : nullptr;
  return collapse &&
         llvm::all_of(expand.getSrc().getUsers(), [&](Operation *u) {
           auto other = dyn_cast<tensor::ExpandShapeOp>(u);
           return other && other.getResultType() == collapse.getSrcType();
         });
}

/// The error for `op`, if the scheduler cannot handle it.
static std::optional<std::string> check(Operation *op,
                                        ScaledShapes &scaledShapes) {
  return llvm::TypeSwitch<Operation *, std::optional<std::string>>(op)
      .Case([&](ktdp::ConstructMemoryViewOp v) -> std::optional<std::string> {
        // The parts of a distributed view, in global coordinates: the
        // view is checked as a whole (ktdf-resolve-distributed-views).
        if (!v->use_empty() && llvm::all_of(v->getUsers(), [](Operation *user) {
              return isa<ktdp::ConstructDistributedMemoryViewOp>(user);
            }))
          return std::nullopt;
        return checkView(v, scaledShapes);
      })
      .Case([](ktdp::ConstructAccessTileOp t) { return checkTile(t); })
      .Case([](ktdp::InterTileReduceOp o) -> std::optional<std::string> {
        // ktdf-lower-inter-tile makes an all-reduce of it, or says why not.
        if (auto refusal = whyNotAllReduce(o); refusal && refusal->first == o)
          return refusal->second;
        return std::nullopt;
      })
      .Case([](ktdp::InterTileProduceOp o) -> std::optional<std::string> {
        Operation *user = o.getFuture().hasOneUse()
                              ? *o.getFuture().getUsers().begin()
                              : nullptr;
        if (!isa_and_nonnull<ktdp::InterTileReduceOp, ktdp::InterTileConsumeOp>(
                user))
          return std::string("inter-tile communication other than an "
                             "inter_tile_produce reduced or consumed once is "
                             "not supported by the scheduler yet");
        auto refusal = isa<ktdp::InterTileReduceOp>(user)
                           ? whyNotAllReduce(user)
                           : whyNotTileCopy(user);
        if (refusal && refusal->first == o)
          return refusal->second;
        return std::nullopt;
      })
      .Case([](ktdp::InterTileConsumeOp o) -> std::optional<std::string> {
        // ktdf-lower-inter-tile makes a tile copy of it, or says why not.
        if (auto refusal = whyNotTileCopy(o); refusal && refusal->first == o)
          return refusal->second;
        return std::nullopt;
      })
      .Case([](ktdp::ConstructIndirectAccessTileOp tile) {
        return whyNotIndirect(tile);
      })
      .Case([](ktdp::ConstructDistributedMemoryViewOp view)
                -> std::optional<std::string> {
        // ktdf-resolve-distributed-views removes those it can handle.
        if (auto refusal = whyNotResolvable(view);
            refusal && refusal->first == view)
          return refusal->second;
        return std::nullopt;
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
            auto load = dyn_cast<ktdp::LoadOp>(o);
            auto tiled = ktdp::getAccessTileView(store ? store.getAccessTile()
                                                       : load.getAccessTile());
            // A load of its own scratchpad may read a part of a
            // distributed view another tile stored into.
            auto space =
                tiled ? ktdp::normalizeMemorySpace(tiled.getMemorySpace())
                      : std::nullopt;
            bool ownScratchpad =
                load && space && space->kind == ktdp::MemoryKind::ct_local;
            if (!tiled || isOtherTilesView(tiled) || ownScratchpad) {
              if (auto refusal = distributedViewRefusalAt(o))
                return refusal;
              if (load && isForwardedScratchpadLoad(load))
                return std::nullopt;
            }
            if (tiled && isOtherTilesView(tiled)) {
              if (store)
                return std::string(
                    "stores into a scratchpad (ct_local) view naming a "
                    "compute tile (ct_id) on a grid of several tiles (another "
                    "tile's scratchpad) are not supported by the scheduler "
                    "yet");
              if (auto refusal = whyNotRemoteLoad(o))
                return refusal->second;
            }
            auto view = store ? tiled : nullptr;
            if (view && viewMayAlias(view))
              return std::string(
                  "stores through a view whose strides may map two of its "
                  "coordinates to the same element are not supported (the "
                  "stores of different grid points are not ordered)");
            return std::nullopt;
          })
      .Case([](scf::ForOp loop) -> std::optional<std::string> {
        if (loop.getNumRegionIterArgs() != 0 && !isUnrolledCarriedLoop(loop))
          return whyNotCarriable(loop);
        return std::nullopt;
      })
      // The pipeline lowers these before the check (ktdf-uplift-while,
      // ktdf-lower-if); run alone, the check accepts what those lower.
      .Case([](scf::WhileOp loop) -> std::optional<std::string> {
        if (std::optional<std::string> reason = whyNotCountedWhile(loop))
          return "scf.while is supported as a counted loop only (see "
                 "ktdf-uplift-while): " +
                 *reason;
        return std::nullopt;
      })
      .Case([](scf::IfOp branch) -> std::optional<std::string> {
        if (isLowerableIf(branch))
          return std::nullopt;
        return std::string("scf.if with results is supported only when its "
                           "branches yield values defined outside it (it "
                           "becomes arith.select, see ktdf-lower-if)");
      })
      .Case<scf::ParallelOp, scf::IndexSwitchOp>([](Operation *o) {
        return o->getName().getStringRef().str() +
               " is not supported by the scheduler yet";
      })
      .Case([](func::CallOp call) {
        return "calls (func.call @" + call.getCallee().str() +
               ") must be inlined first (ktdf-select-kernel does)";
      })
      .Case<linalg::ContractionOpInterface, linalg::ConvolutionOpInterface>(
          [](Operation *o) -> std::optional<std::string> {
            // A row's dot product with itself is its sum of squares.
            if (auto matmul = dyn_cast<linalg::MatmulOp>(o)) {
              if (matchRowSumOfSquares(matmul))
                return std::nullopt;
              std::optional<std::string> why = whyNotMatrixProduct(matmul);
              if (!why)
                return std::nullopt;
              return "the scheduler compiles linalg.matmul only as " + *why;
            }
            if (auto batch = dyn_cast<linalg::BatchMatmulOp>(o)) {
              std::optional<std::string> why = whyNotMatrixProduct(batch);
              if (!why)
                return std::nullopt;
              return "the scheduler compiles linalg.batch_matmul only as " +
                     *why;
            }
            return "matrix products and convolutions other than "
                   "linalg.matmul and linalg.batch_matmul (" +
                   o->getName().getStringRef().str() +
                   ") are not supported by the scheduler yet";
          })
      .Case([](tensor::SplatOp splat) { return checkSplat(splat); })
      .Case([](tensor::ExtractOp extract) { return checkExtract(extract); })
      .Case([](linalg::TransposeOp transpose) -> std::optional<std::string> {
        if (onlyFeedsRowSumsOfSquares(transpose))
          return std::nullopt;
        if (std::optional<std::string> why = whyNotPermutedAccess(transpose))
          return "the scheduler compiles linalg.transpose only as permuted "
                 "access tiles (transposed DMAs): " +
                 *why;
        return std::nullopt;
      })
      .Case<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(
          [](Operation *o) -> std::optional<std::string> {
            if (isUnitReshape(o) || isExchangeReshape(o))
              return std::nullopt;
            return o->getName().getStringRef().str() +
                   " is supported by the scheduler only between static "
                   "shapes and when it removes or adds dimensions of "
                   "extent 1 (not when it merges or splits dimensions)";
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

namespace {
struct CheckSupportedPass
    : public ktdf::impl::KTDFCheckSupportedBase<CheckSupportedPass> {
  void runOnOperation() override {
    bool failed = false;
    ScaledShapes scaledShapes;
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal() || !func->hasAttr("grid"))
        continue;
      failed |= checkMemoryHazards(func);
      failed |= checkScratchpadHazards(func);
      failed |= checkOverlappingStores(func);
      func.walk([&](Operation *op) {
        // Bodies of linalg ops are scalar code the units run as written;
        // index arithmetic (coordinates, captured tile origins) in f32.
        if (auto generic = dyn_cast<linalg::GenericOp>(op))
          if (auto why = whyNotFloatIndexArithmetic(generic)) {
            why->second->emitError(why->first);
            failed = true;
          }
        if (op->getParentOfType<linalg::LinalgOp>())
          return;
        if (std::optional<std::string> error = check(op, scaledShapes)) {
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
