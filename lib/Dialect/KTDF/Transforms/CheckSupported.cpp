//===- CheckSupported.cpp - What the scheduler cannot handle yet ----------===//
//
// This file implements --ktdf-check-supported: one located error per KTIR
// construct that the mapping group cannot turn into ScheduleIR yet, naming
// the construct, so an unsupported kernel fails early and clearly instead
// of deep inside a later pass.
//
//===----------------------------------------------------------------------===//

#include "IndexIdioms.h"
#include "LiftSlices.h"
#include "MatrixIdioms.h"
#include "MemoryHazards.h"
#include "ScalarIdioms.h"
#include "ShapeIdioms.h"
#include "TransposeIdioms.h"
#include "ViewChecks.h"

#include "ktflow/Dialect/KTDF/Transforms/IndirectTiles.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDF/Transforms/TileBounds.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/IR/ScratchpadView.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFCHECKSUPPORTED
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

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
                       "element of a one-element tensor, or of a ktdp.load "
                       "through a box access tile, which ktdf-lift-slices "
                       "loads alone, broadcast back by tensor.splat or in "
                       "scalar float arithmetic)");
  for (Operation *user : extract->getUsers())
    if (!isa<tensor::SplatOp>(user) && !isRowScalarOp(user) &&
        !isCapturedByGeneric(user, extract))
      return "a scalar from tensor.extract used by '" +
             user->getName().getStringRef().str() +
             "' is not supported by the scheduler yet (only a tensor.splat "
             "broadcasting it back, or scalar float arithmetic on "
             "one-element tensors, float arguments and constants, and "
             "comparisons of those that only selects of those pick by)";
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
        return whyNotSupportedView(v, scaledShapes);
      })
      .Case(
          [](ktdp::ConstructAccessTileOp t) { return whyNotSupportedTile(t); })
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
            bool ownScratchpad = load && ktdp::isScratchpadView(tiled);
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
        // The scheduler's passes and the machine's loops compare signed;
        // ktdf-uplift-while signs the unsigned loops where that is the same
        // and ktdf-unroll-carried-loops unrolls others by their own compare.
        if (loop.getUnsignedCmp() && !isSignedForEquivalent(loop) &&
            !isUnrolledCarriedLoop(loop))
          return std::string(
              "an unsigned (scf.for unsigned) loop needs a lower and an upper "
              "bound known not to be negative (the scheduler's loops compare "
              "signed: from -2 to 3 an unsigned loop runs no trip, a signed "
              "one five)");
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
        return std::string(
            "scf.if with results is supported only when its branches yield "
            "values defined outside it or scalars computed from them (it "
            "becomes arith.select), or when every user of its results can "
            "move into both branches (see ktdf-lower-if)");
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
      // ktdf-lift-slices rewrites these into loads and stores of
      // sub-tiles; what it leaves is refused with its reason.
      .Case<tensor::ExtractSliceOp, tensor::InsertSliceOp, tensor::ConcatOp>(
          [](Operation *o) -> std::optional<std::string> {
            if (std::optional<std::string> why = whyNotLiftedSlice(o))
              return why;
            return o->getName().getStringRef().str() +
                   " is lifted into transfers by ktdf-lift-slices, which "
                   "runs before this check";
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
