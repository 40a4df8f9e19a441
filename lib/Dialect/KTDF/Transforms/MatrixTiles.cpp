//===- MatrixTiles.cpp - Whole-tile compute stages of matrix products -----===//
//
// This file implements the part of --ktdf-tile-streams that handles a
// compute stage multiplying matrices (MatrixStages.h). Such a stage is not
// streamed in chunks: its unit receives each operand tile whole, as one
// FIFO entry, multiplies whole tiles (a matrix engine in waves of its
// block, docs/simulator.md "Matrix engine"), and sends each result whole.
// Here the stage is checked against its unit — the element types the unit
// multiplies, and on a matrix engine nothing but the products and the
// accumulator's initial value, since it has no element-wise datapath; its
// operands and results move whole between the unit and buffers or whole
// scratchpad views (a loop-carried accumulator ktdf-carry-in-scratchpad
// keeps there) — each FIFO read moves down to just before its first use,
// so the unit starts a product as soon as its operands are in while later
// operands still arrive, and each product is annotated with the decision
// the description gives: the engine's block (`ktdf.matrix_block`), the
// waves it takes (`ktdf.matrix_waves`) and its cycles
// (`ktdf.matrix_cycles`, the formula the simulator charges,
// MatrixTiming.h).
//
//===----------------------------------------------------------------------===//

#include "StreamTiler.h"

#include "ktflow/Dialect/KTDF/Transforms/MatrixStages.h"
#include "ktflow/Dialect/KTDF/Transforms/TileBounds.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/IR/ScratchpadView.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"
#include "ktflow/Machine/MatrixTiming.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"

using namespace mlir;
using namespace mlir::ktdf;

/// The device's spelling of `type` in a message.
static std::string typeName(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << type;
  return s;
}

/// Whether `map` reads the leading dimensions of the loops in order,
/// (d0, ..., dk) (the identity included): the vector unit broadcasts such
/// an operand along the trailing dimensions.
static bool isLeadingDims(AffineMap map) {
  if (map.getNumSymbols() != 0)
    return false;
  for (auto [i, expr] : llvm::enumerate(map.getResults())) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim || dim.getPosition() != i)
      return false;
  }
  return true;
}

/// Whether the vector unit computes `generic` on whole tiles next to a
/// product: element-wise over its output, or reducing only its innermost
/// dimension (a row's maximum or sum, dfir.reduce), every input read
/// through leading dimensions (a row value broadcast over the row).
static bool isWholeTileWork(linalg::GenericOp generic) {
  unsigned loops = generic.getNumLoops();
  unsigned reductions = generic.getNumReductionLoops();
  if (reductions > 1 ||
      (reductions == 1 && generic.getIteratorTypesArray()[loops - 1] !=
                              utils::IteratorType::reduction))
    return false;
  for (OpOperand *in : generic.getDpsInputOperands())
    if (isa<RankedTensorType>(in->get().getType()) &&
        !isLeadingDims(generic.getMatchingIndexingMap(in)))
      return false;
  for (OpOperand &out : generic.getDpsInitsMutable()) {
    AffineMap map = generic.getMatchingIndexingMap(&out);
    if (!isLeadingDims(map) || map.getNumResults() != loops - reductions)
      return false;
  }
  return true;
}

/// Whether `transfer` moves a tile that is a contiguous block of a
/// scratchpad view laid out row-major — the whole view (what
/// ktdf-carry-in-scratchpad makes of a loop-carried accumulator) or whole
/// rows of it that stay inside it (a trip's gate in the exchange view of
/// ktdf-share-left-operands) — to or from a FIFO slot: one contiguous load
/// or store of the slot's bytes at the tile's address, like a buffer's
/// (TransferLowering emitTileChunk).
static bool movesWholeView(DataTransferOp transfer) {
  bool fromTile = isa<ktdp::AccessTileType>(transfer.getSrc().getType());
  Value tileValue = fromTile ? transfer.getSrc() : transfer.getDst();
  Value slot = fromTile ? transfer.getDst() : transfer.getSrc();
  if (!isa<ktdp::AccessTileType>(tileValue.getType()) ||
      !isa<FifoSlotType>(slot.getType()) ||
      !(fromTile ? transfer.getSrcIndices() : transfer.getDstIndices()).empty())
    return false;
  auto tile = tileValue.getDefiningOp<ktdp::ConstructAccessTileOp>();
  ktdp::ConstructMemoryViewOp view = ktdp::getAccessTileView(tileValue);
  if (!tile || !view || !tile.getAccessTileOrder().isIdentity())
    return false;
  if (!ktdp::isScratchpadView(view))
    return false;
  ArrayRef<int64_t> shape =
      cast<ktdp::AccessTileType>(tileValue.getType()).getShape();
  ArrayRef<int64_t> sizes = view.getStaticSizes();
  ArrayRef<int64_t> strides = view.getStaticStrides();
  if (shape.size() != sizes.size() || shape.empty() ||
      ShapedType::isDynamicShape(sizes) ||
      shape.drop_front() != sizes.drop_front())
    return false;
  // Every dimension but the first whole, from 0; the first inside the view.
  for (auto [d, origin] : llvm::enumerate(tile.getBaseMap().getResults())) {
    auto constant = dyn_cast<AffineConstantExpr>(origin);
    if (d == 0 ? mayLeaveView(tile, 0) : !constant || constant.getValue() != 0)
      return false;
  }
  FailureOr<ktdp::IntegerBox> box =
      ktdp::getBoundingBox(tile.getAccessTileSet(), {});
  if (!ktdp::isBoxShaped(tile.getAccessTileSet()) || failed(box) ||
      llvm::any_of(box->lower, [](int64_t lo) { return lo != 0; }))
    return false;
  return strides == ArrayRef<int64_t>(computeSuffixProduct(sizes));
}

/// Moves every FIFO read down to just before its first use, keeping the
/// reads in their order (the FIFO delivers entries in it): from the last
/// read back, each goes right before its first use or the next read,
/// whichever comes first. A read whose entry comes before one used
/// earlier (an accumulator read ahead of the weights of the product
/// before it) thus stays ahead of that use.
static void readLate(StageOp compute) {
  Block &body = compute.getBody().front();
  Operation *next = nullptr;
  auto reads = llvm::to_vector(body.getOps<ReadFromFifoOp>());
  for (ReadFromFifoOp read : llvm::reverse(reads)) {
    Operation *target = nullptr;
    for (Operation *user : read->getUsers()) {
      Operation *inBody = body.findAncestorOpInBlock(*user);
      if (inBody && (!target || inBody->isBeforeInBlock(target)))
        target = inBody;
    }
    if (next && (!target || next->isBeforeInBlock(target)))
      target = next;
    if (target)
      read->moveBefore(target);
    next = read;
  }
}

LogicalResult
mlir::ktdf::detail::tileMatrixStage(const ktflow::sched::ScheduleTarget &target,
                                    PipelineOp pipeline) {
  FailureOr<PipelineStages> stages = findPipelineStages(pipeline);
  if (failed(stages))
    return failure();
  StageOp compute = stages->compute;
  for (StageOp stage : {stages->feed, stages->drain})
    for (auto transfer : stage.getBody().front().getOps<DataTransferOp>())
      if (!isa<MemRefType>(transfer.getSrc().getType()) &&
          !isa<MemRefType>(transfer.getDst().getType()) &&
          !movesWholeView(transfer))
        return transfer.emitError(
            "a matrix product's operands and results move whole between a "
            "buffer or whole rows of a row-major scratchpad view (a "
            "loop-carried accumulator, an exchanged gate) and its unit; "
            "another part of a scratchpad view feeding or draining the unit "
            "directly is not supported yet");

  std::optional<ktflow::device::NodeId> node =
      target.findNode(compute.getUnit().value_or(""));
  if (!node)
    return compute.emitError("compute stage is not bound to a unit; run "
                             "--ktdf-route-transfers first");
  const auto &unit = *target.getModel().getNode(*node).unit;
  bool engine = compute.isApplicable(UnitRole::matrix_compute);
  ktflow::machine::MatrixShape block = matrixBlockOf(unit);
  Builder b(compute.getContext());
  WalkResult walk =
      compute.walk<WalkOrder::PreOrder>([&](Operation *op) -> WalkResult {
        if (isa<StageOp, ReadFromFifoOp, WriteToFifoOp, tensor::EmptyOp>(op) ||
            op->hasTrait<OpTrait::ConstantLike>())
          return WalkResult::advance();
        if (isMatrixProduct(op)) {
          std::optional<double> rate = matrixRate(op, unit);
          if (!rate)
            return op->emitError("the ")
                   << (engine ? "matrix" : "vector") << " unit '"
                   << target.getModel().getNode(*node).name << "' of device '"
                   << target.getModel().getName() << "' does not multiply "
                   << typeName(
                          getElementTypeOrSelf(op->getOperand(0).getType()))
                   << " matrices";
          auto [mDim, nDim, kDim] = matrixProductDims(op);
          uint64_t m = mDim, n = nDim, k = kDim;
          uint64_t cycles =
              ktflow::machine::matrixProductCycles(block, *rate, m, n, k);
          if (block.isEngine()) {
            op->setAttr("ktdf.matrix_block",
                        b.getDenseI64ArrayAttr({block.m, block.n, block.k}));
            op->setAttr("ktdf.matrix_waves",
                        b.getI64IntegerAttr(static_cast<int64_t>(
                            ktflow::machine::matrixWaves(block, m, n, k))));
          }
          op->setAttr("ktdf.matrix_cycles",
                      b.getI64IntegerAttr(static_cast<int64_t>(cycles)));
          return WalkResult::skip();
        }
        if (auto generic = dyn_cast<linalg::GenericOp>(op)) {
          // A fill (a generalised linalg.fill of the accumulator's initial
          // value) reads no tile: the unit splats it.
          bool fill = llvm::none_of(generic.getDpsInputs(), [](Value v) {
            return isa<RankedTensorType>(v.getType());
          });
          if (engine && fill)
            return WalkResult::skip();
          if (engine)
            return op->emitError("the matrix unit '")
                   << target.getModel().getNode(*node).name
                   << "' computes only matrix products; element-wise work in "
                      "the same compute group (an epilogue) is not supported "
                      "on it yet";
          if (!isWholeTileWork(generic))
            return op->emitError(
                "only element-wise work on whole tiles and reductions of "
                "their innermost dimension may share a compute group with a "
                "matrix product yet (every input read whole or through its "
                "leading dimensions, (d0, d1) -> (d0), and the output "
                "written whole or, for a reduction, without its innermost "
                "dimension)");
          return WalkResult::skip();
        }
        return op->emitError("'")
               << op->getName()
               << "' next to a matrix product is not supported "
               << "yet";
      });
  if (walk.wasInterrupted())
    return failure();
  readLate(compute);
  return success();
}
