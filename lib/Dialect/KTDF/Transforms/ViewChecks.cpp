//===- ViewChecks.cpp - Views and tiles the scheduler supports ------------===//
//
// This file implements ViewChecks.h: ktdf-check-supported's located reasons
// why a memory view or an access tile cannot become transfers yet.
//
//===----------------------------------------------------------------------===//

#include "ViewChecks.h"

#include "ktflow/Analysis/LaunchArguments.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDF/Transforms/TileBounds.h"
#include "ktflow/Dialect/KTDP/IR/ScratchpadView.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"
#include "ktflow/Dialect/KTDP/Utils/LaunchGrid.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::ktdf;

bool mlir::ktdf::isOtherTilesView(ktdp::ConstructMemoryViewOp view) {
  std::optional<ktdp::NormalizedMemorySpace> space =
      ktdp::normalizeMemorySpace(view.getMemorySpace());
  if (!space || space->kind != ktdp::MemoryKind::ct_local ||
      !space->computeTileId)
    return false;
  auto grid = ktdp::getLaunchGrid(view->getParentOfType<func::FuncOp>());
  return succeeded(grid) && *grid && ktdp::getNumTiles(**grid) > 1;
}

std::optional<std::string>
mlir::ktdf::whyNotSupportedView(ktdp::ConstructMemoryViewOp view,
                                ScaledShapes &scaledShapes) {
  std::optional<ktdp::NormalizedMemorySpace> space =
      ktdp::normalizeMemorySpace(view.getMemorySpace());
  if (space && space->kind == ktdp::MemoryKind::ct_local) {
    // A tile's own scratchpad at a literal address; another tile's is
    // read by copies between cores (ktdf-remote-scratchpad-loads), checked
    // at its loads and stores.
    APInt address;
    if (!matchPattern(view.getOffset(), m_ConstantInt(&address)) ||
        address.isNegative() || !view.getSizes().empty() ||
        !view.getStrides().empty())
      return std::string("scratchpad (ct_local) views need a literal, "
                         "non-negative address and static sizes and "
                         "strides");
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
  if (failed(box) || llvm::any_of(box->lower, [](int64_t l) { return l != 0; }))
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

std::optional<std::string>
mlir::ktdf::whyNotSupportedTile(ktdp::ConstructAccessTileOp tile) {
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
  bool masks = !ktdp::isScratchpadView(view);
  // A permuted order (a transposed load or store) moves by strided DMAs
  // into the buffer's layout, clamped to the view like any other.
  if (!tile.getAccessTileOrder().isIdentity()) {
    if (!tile.getAccessTileOrder().isPermutation())
      return std::string("an access tile's order must be a permutation of "
                         "its dimensions");
    if (!masks)
      return std::string("scratchpad (ct_local) access tiles with a "
                         "permuted order are not supported yet");
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
