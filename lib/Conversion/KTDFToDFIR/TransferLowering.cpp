//===- TransferLowering.cpp - Transfers of a unit instance's program ------===//
//
// This file emits the transfers of a unit instance's stages other than the
// DMA of a tile (DmaLowering.cpp): a buffer <-> slot transfer becomes a
// `dfir.load` / `dfir.store` at the buffer's address in the execution's
// copy, a buffer <-> buffer transfer one `dfir.dma` of the whole buffer,
// and an indexed tile <-> slot transfer (a scratchpad view feeding or
// draining the compute unit directly) a load or store at the chunk's
// address. A chunk loop draining one slot into consecutive chunks is one
// store of all its entries.
//
//===----------------------------------------------------------------------===//

#include "ProgramBuilder.h"

#include "ktflow/Analysis/LaunchArguments.h"
#include "ktflow/Dialect/KTDF/Transforms/SplitProductColumns.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/IR/ScratchpadView.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"
#include "ktflow/Support/ElementBytes.h"

#include "mlir/Dialect/Affine/Utils.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

bool lowering::isScratchpadTile(Value end) {
  return isa<ktdp::AccessTileType>(end.getType()) &&
         ktdp::isScratchpadView(ktdp::getAccessTileView(end));
}

FailureOr<SmallVector<Value, 8>>
lowering::expandAnchor(OpBuilder &b, Location loc,
                       ktdp::ConstructAccessTileOp tile,
                       function_ref<FailureOr<Value>(Value)> materialize) {
  SmallVector<Value> operands;
  for (Value index : tile.getIndices()) {
    auto v = materialize(index);
    if (failed(v))
      return failure();
    operands.push_back(*v);
  }
  auto anchor = affine::expandAffineMap(b, loc, tile.getBaseMap(), operands);
  if (!anchor)
    return tile.emitError("cannot expand the anchor of this access tile");
  return std::move(*anchor);
}

/// The rows of a two-dimensional block whose rows start `pitch` elements
/// apart, when it is a column block of wider rows: one load or store of
/// rows; std::nullopt when its bytes are contiguous.
static std::optional<int64_t> columnBlockRows(ArrayRef<int64_t> block,
                                              int64_t pitch) {
  if (block.size() != 2 || block[0] < 2 || ShapedType::isDynamic(pitch) ||
      pitch == block[1])
    return std::nullopt;
  return block[0];
}

void TransferEmitter::emitLoadOrStore(Location loc, bool load,
                                      FlatSymbolRefAttr fifo, StringAttr memory,
                                      Value addr, FifoSlotType slot,
                                      int64_t pitch) {
  OpBuilder &b = *builder;
  int64_t esize = ktflow::bytesPerElement(slot.getElementType());
  Value size = constant(slot.getSizeInBytes()), rows, stride;
  if (std::optional<int64_t> count = columnBlockRows(slot.getShape(), pitch)) {
    size = constant(slot.getShape().back() * esize);
    rows = constant(*count);
    stride = constant(pitch * esize);
  }
  if (load)
    dfir::LoadOp::create(b, loc, fifo, memory, addr, size, rows, stride);
  else
    dfir::StoreOp::create(b, loc, fifo, memory, addr, size, rows, stride);
}

LogicalResult ProgramBuilder::emitTransfer(DataTransferOp op, IRMapping &map,
                                           const LaneInstance &li,
                                           Value copy) {
  if (syncOnly)
    return success();
  OpBuilder &b = *builder;
  Location loc = op.getLoc();
  bool srcTile = isa<ktdp::AccessTileType>(op.getSrc().getType());
  bool dstTile = isa<ktdp::AccessTileType>(op.getDst().getType());
  if ((srcTile && isa<FifoSlotType>(op.getDst().getType())) ||
      (dstTile && isa<FifoSlotType>(op.getSrc().getType())))
    return emitTileChunk(op, map, li);
  // A DMA between device memory and a tile copy's view (ExchangeDma.cpp)
  // that this tile's copies do not use.
  if (srcTile && dstTile &&
      kernel.skipsFill(op, kernel.infoOf(op->getParentOfType<PipelineOp>()),
                       li))
    return success();
  if (srcTile || dstTile)
    return emitDma(op, map, li, copy);
  const PipelineInfo &info =
      kernel.infoOf(op->getParentOfType<PipelineOp>());
  // Byte address of an indexed buffer end (in this copy).
  auto bufferAddress = [&](Value buffer, ValueRange indices) -> FailureOr<Value> {
    auto type = cast<MemRefType>(buffer.getType());
    auto [base, bytes] = kernel.bufferOf(info, buffer);
    Value addr = dfir::AddressOp::create(b, loc, b.getIndexType(),
                                         KernelLowering::perLane(base, li));
    Value c = copyOf(buffer, copy, li);
    Value copyOffset = arith::MulIOp::create(b, loc, c, constant(bytes));
    addr = arith::AddIOp::create(b, loc, addr, copyOffset);
    Value linear = constant(0);
    for (auto [i, index] : llvm::enumerate(indices)) {
      auto v = materialize(index, map);
      if (failed(v))
        return failure();
      linear = arith::MulIOp::create(b, loc, linear,
                                     constant(type.getDimSize(i)));
      linear = arith::AddIOp::create(b, loc, linear, *v);
    }
    Value offset = arith::MulIOp::create(
        b, loc, linear,
        constant(ktflow::bytesPerElement(type.getElementType())));
    return arith::AddIOp::create(b, loc, addr, offset).getResult();
  };
  auto kindOf = [&](Value buffer) {
    return b.getStringAttr(kernel.memoryOf(
        getBufferMemoryKind(cast<MemRefType>(buffer.getType())), li));
  };
  auto fifo = [&](Value slot) {
    return FlatSymbolRefAttr::get(b.getContext(), kernel.fifoOf(slot, li));
  };
  // A block of the slot's shape at the indices: a column block of a
  // two-dimensional buffer's rows moves as rows a buffer row apart.
  auto pitchOf = [](Value buffer) {
    ArrayRef<int64_t> shape = cast<MemRefType>(buffer.getType()).getShape();
    return shape.size() == 2 ? shape.back() : ShapedType::kDynamic;
  };
  if (auto slot = dyn_cast<FifoSlotType>(op.getDst().getType())) {
    auto addr = bufferAddress(op.getSrc(), op.getSrcIndices());
    if (failed(addr))
      return failure();
    emitLoadOrStore(loc, /*load=*/true, fifo(op.getDst()), kindOf(op.getSrc()),
                    *addr, slot, pitchOf(op.getSrc()));
    return success();
  }
  if (auto slot = dyn_cast<FifoSlotType>(op.getSrc().getType())) {
    auto addr = bufferAddress(op.getDst(), op.getDstIndices());
    if (failed(addr))
      return failure();
    emitLoadOrStore(loc, /*load=*/false, fifo(op.getSrc()), kindOf(op.getDst()),
                    *addr, slot, pitchOf(op.getDst()));
    return success();
  }
  // Buffer to buffer: the whole buffer, one DMA.
  auto src = bufferAddress(op.getSrc(), op.getSrcIndices());
  auto dst = bufferAddress(op.getDst(), op.getDstIndices());
  if (failed(src) || failed(dst))
    return failure();
  auto type = cast<MemRefType>(op.getSrc().getType());
  dfir::DmaOp::create(b, loc,
                      constant(type.getNumElements() *
                               ktflow::bytesPerElement(type.getElementType())),
                      kindOf(op.getSrc()), *src, kindOf(op.getDst()), *dst,
                      Value(), Value(), Value());
  return success();
}

FailureOr<Value> TransferEmitter::tileElementOffset(
    Location loc, ktdp::ConstructAccessTileOp tile, ArrayRef<Value> anchor,
    ArrayRef<int64_t> strides, ValueRange indices, IRMapping &map) {
  OpBuilder &b = *builder;
  if (anchor.size() != strides.size())
    return tile.emitError("cannot expand the anchor of this access tile");
  // A view at a computed address starts `displacement` elements into its
  // tensor, computed by the program like the anchor.
  Value offset = constant(0);
  auto view = ktdp::getAccessTileView(tile.getResult());
  if (auto address =
          view ? ktflow::getViewAddress(view.getOffset()) : std::nullopt;
      address && address->displacement) {
    auto displacement = materialize(address->displacement, map);
    if (failed(displacement))
      return failure();
    offset = *displacement;
  }
  for (auto [d, coord] : llvm::enumerate(anchor)) {
    Value at = coord;
    if (d < indices.size()) {
      auto v = materialize(indices[d], map);
      if (failed(v))
        return failure();
      at = arith::AddIOp::create(b, loc, at, *v);
    }
    Value stride;
    if (ShapedType::isDynamic(strides[d])) {
      auto runtime = materialize(cast<Value>(view.getMixedStrides()[d]), map);
      if (failed(runtime))
        return failure();
      stride = *runtime;
    } else {
      stride = constant(strides[d]);
    }
    offset = arith::AddIOp::create(b, loc, offset,
                                   arith::MulIOp::create(b, loc, at, stride));
  }
  return offset;
}

FailureOr<std::pair<Value, std::string>>
TransferEmitter::tileAddress(Value tileValue, ValueRange indices,
                             IRMapping &map, const LaneInstance &li) {
  OpBuilder &b = *builder;
  auto tile = tileValue.getDefiningOp<ktdp::ConstructAccessTileOp>();
  auto view = ktdp::getAccessTileView(tileValue);
  if (!view)
    return emitError(tileValue.getLoc(),
                     "access tile is not built on a memory view");
  // A kept copy's destination read in place (ResidentCopies.cpp).
  view = kernel.viewOnTile(view, li);
  Location loc = tile.getLoc();
  auto memref = cast<MemRefType>(view.getType());
  int64_t esize = ktflow::bytesPerElement(memref.getElementType());
  ArrayRef<int64_t> strides = view.getStaticStrides();
  auto anchor = expandAnchor(b, loc, tile,
                             [&](Value v) { return materialize(v, map); });
  if (failed(anchor))
    return failure();
  auto offset = tileElementOffset(loc, tile, *anchor, strides, indices, map);
  if (failed(offset))
    return failure();
  Value bytes = arith::MulIOp::create(b, loc, *offset, constant(esize));
  if (ktdp::isScratchpadView(view)) {
    // The kernel's scratchpad views start the lane's region; the view's
    // own address counts elements from there.
    auto kind = view->getAttrOfType<StringAttr>("ktdf.memory");
    APInt literal;
    if (!kind || !matchPattern(view.getOffset(), m_ConstantInt(&literal)))
      return view.emitError("scratchpad view without a literal address or "
                            "device memory");
    // A view both lanes of the core share sits in its first lane's region.
    LaneInstance owner = li;
    if (view->hasAttr(kLanesSharedViewAttrName))
      owner.lane = 0;
    Value base = dfir::AddressOp::create(
        b, loc, b.getIndexType(),
        KernelLowering::localOf(kind.getValue(), owner));
    base = arith::AddIOp::create(
        b, loc, base, constant(literal.getSExtValue() * esize));
    return std::make_pair(
        arith::AddIOp::create(b, loc, base, bytes).getResult(),
        kernel.memoryOf(kind.getValue(), li));
  }
  std::string tensor = kernel.tensorOf(view.getOffset());
  if (tensor.empty())
    return view.emitError("view does not start at a kernel argument or a "
                          "literal address");
  Value base = dfir::AddressOp::create(b, loc, b.getIndexType(), tensor);
  return std::make_pair(arith::AddIOp::create(b, loc, base, bytes).getResult(),
                        kernel.globalMemory);
}

LogicalResult ProgramBuilder::emitTileChunk(DataTransferOp op, IRMapping &map,
                                            const LaneInstance &li) {
  OpBuilder &b = *builder;
  bool fromTile = isa<ktdp::AccessTileType>(op.getSrc().getType());
  Value slot = fromTile ? op.getDst() : op.getSrc();
  if (auto tile = (fromTile ? op.getSrc() : op.getDst())
                      .getDefiningOp<ktdp::ConstructAccessTileOp>();
      tile && !tile.getAccessTileOrder().isIdentity())
    return op.emitError("a permuted access tile moves only by DMA; this "
                        "device's load or store unit reaches it directly");
  auto where = tileAddress(fromTile ? op.getSrc() : op.getDst(),
                           fromTile ? op.getSrcIndices() : op.getDstIndices(),
                           map, li);
  if (failed(where))
    return failure();
  auto fifo = FlatSymbolRefAttr::get(b.getContext(), kernel.fifoOf(slot, li));
  // A block of a view whose rows are wider (a column block) moves as rows
  // the view's row stride apart; a kept copy's destination read in place,
  // at its part's (ResidentCopies.cpp).
  ArrayRef<int64_t> strides =
      kernel
          .viewOnTile(
              ktdp::getAccessTileView(fromTile ? op.getSrc() : op.getDst()), li)
          .getStaticStrides();
  int64_t pitch = strides.size() == 2 && strides[1] == 1 ? strides[0]
                                                         : ShapedType::kDynamic;
  emitLoadOrStore(op.getLoc(), fromTile, fifo, b.getStringAttr(where->second),
                  where->first, cast<FifoSlotType>(slot.getType()), pitch);
  return success();
}

FailureOr<bool>
ProgramBuilder::emitStoreRun(scf::ForOp loop, IRMapping &map,
                             const LaneInstance &li, Value copy,
                             function_ref<bool(Operation *)> handsOver) {
  // The loops of a perfect nest, outermost first, around one transfer.
  SmallVector<scf::ForOp> nest{loop};
  DataTransferOp transfer;
  while (!transfer) {
    Operation *only = nullptr;
    for (Operation &op : nest.back().getBody()->without_terminator()) {
      if (isa<arith::ConstantOp>(op))
        continue;
      if (only)
        return false;
      only = &op;
    }
    if (auto inner = dyn_cast_or_null<scf::ForOp>(only))
      nest.push_back(inner);
    else if (!(transfer = dyn_cast_or_null<DataTransferOp>(only)))
      return false;
  }
  SmallVector<int64_t> lbs, ubs, steps;
  for (scf::ForOp l : nest) {
    std::optional<int64_t> lb = getConstantIntValue(l.getLowerBound());
    std::optional<int64_t> ub = getConstantIntValue(l.getUpperBound());
    std::optional<int64_t> step = getConstantIntValue(l.getStep());
    if (!lb || !ub || !step || *ub <= *lb)
      return false;
    lbs.push_back(*lb);
    ubs.push_back(*ub);
    steps.push_back(*step);
  }
  if (transfer.getRows())
    return false;
  auto slot = dyn_cast<FifoSlotType>(transfer.getSrc().getType());
  ValueRange indices = transfer.getDstIndices();
  // Consecutive chunks: the innermost loop's variable is the last index,
  // stepping by the slot's elements along a unit-stride last dimension, an
  // outer loop's the index before its inner loop's; nothing else changes
  // with them.
  if (!slot || slot.getShape().size() != 1 ||
      slot.getShape()[0] != steps.back() || indices.size() < nest.size())
    return false;
  for (auto [depth, l] : llvm::enumerate(llvm::reverse(nest))) {
    Value iv = l.getInductionVar();
    size_t at = indices.size() - 1 - depth;
    if (indices[at] != iv ||
        llvm::count_if(indices, [&](Value v) { return v == iv; }) != 1)
      return false;
  }
  Value dst = transfer.getDst();
  if (nest.size() > 1) {
    // Rows of a scratchpad buffer follow each other when the loops inside
    // the outermost cover their whole dimensions, one entry at a time
    // below the last; a hand-over inside would be lost in one store.
    auto type = dyn_cast<MemRefType>(dst.getType());
    if (!type || !type.hasStaticShape())
      return false;
    for (size_t level = 1; level < nest.size(); ++level) {
      int64_t dim = type.getDimSize(indices.size() - nest.size() + level);
      bool last = level + 1 == nest.size();
      if (lbs[level] != 0 || ubs[level] != dim ||
          (last ? dim % steps[level] : steps[level] - 1))
        return false;
    }
    bool handedOverInside = loop->walk([&](Operation *op) {
                                  return handsOver(op) ? WalkResult::interrupt()
                                                       : WalkResult::advance();
                                })
                                .wasInterrupted();
    if (steps.front() != 1 || handedOverInside)
      return false;
  } else if (isa<ktdp::AccessTileType>(dst.getType())) {
    auto tile = dst.getDefiningOp<ktdp::ConstructAccessTileOp>();
    auto view = ktdp::getAccessTileView(dst);
    if (!tile || !view || !tile.getAccessTileOrder().isIdentity() ||
        view.getStaticStrides().empty() || view.getStaticStrides().back() != 1)
      return false;
  } else if (!isa<MemRefType>(dst.getType())) {
    return false;
  }
  if (syncOnly)
    return true;
  int64_t entries = 1;
  IRMapping first = map;
  for (auto [l, lb, ub, step] : llvm::zip(nest, lbs, ubs, steps)) {
    entries *= (ub - lb + step - 1) / step;
    first.map(l.getInductionVar(), constant(lb));
  }
  Value size = constant(entries * slot.getSizeInBytes());
  if (failed(emitTransfer(transfer, first, li, copy)))
    return failure();
  auto store = cast<dfir::StoreOp>(*std::prev(builder->getInsertionPoint()));
  store.getSizeMutable().assign(size);
  return true;
}
