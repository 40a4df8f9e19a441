//===- TransferLowering.cpp - Transfers of a unit instance's program ------===//
//
// This file emits the transfers of a unit instance's stages: a tile <->
// buffer transfer becomes a `dfir.dma` (rows and strides from the access
// tile and its view, the row count clamped at run time to the rows the
// view holds, by its sizes and its coordinate_set, and to the transfer's
// `rows`), a buffer <-> slot transfer a `dfir.load` / `dfir.store` at the
// buffer's address in the execution's copy, and an indexed tile <-> slot transfer (a scratchpad view feeding or
// draining the compute unit directly) a load or store at the chunk's
// address.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"

#include "mlir/Dialect/Affine/Utils.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

/// Bytes of one element of a buffer, slot or view.
static int64_t elementBytes(Type type) {
  return (type.getIntOrFloatBitWidth() + 7) / 8;
}

/// The coordinates of `tile`'s origin in its view: its base map applied to
/// its indices, each brought into the program by `materialize`. Fails after
/// reporting when the map cannot be expanded.
static FailureOr<SmallVector<Value, 8>>
expandAnchor(OpBuilder &b, Location loc, ktdp::ConstructAccessTileOp tile,
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

LogicalResult ProgramBuilder::emitTransfer(DataTransferOp op, IRMapping &map,
                                           const LaneInstance &li,
                                           Value copy) {
  OpBuilder &b = *builder;
  Location loc = op.getLoc();
  bool srcTile = isa<ktdp::AccessTileType>(op.getSrc().getType());
  bool dstTile = isa<ktdp::AccessTileType>(op.getDst().getType());
  if ((srcTile && isa<FifoSlotType>(op.getDst().getType())) ||
      (dstTile && isa<FifoSlotType>(op.getSrc().getType())))
    return emitTileChunk(op, map, li);
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
    // A buffer exported by another pipeline has one copy.
    Value c = kernel.exported.count(buffer) ? constant(0) : copy;
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
        b, loc, linear, constant(elementBytes(type.getElementType())));
    return arith::AddIOp::create(b, loc, addr, offset).getResult();
  };
  auto kindOf = [&](Value buffer) {
    return b.getStringAttr(kernel.memoryOf(
        getBufferMemoryKind(cast<MemRefType>(buffer.getType())), li));
  };
  auto fifo = [&](Value slot) {
    return FlatSymbolRefAttr::get(b.getContext(), kernel.fifoOf(slot, li));
  };
  if (auto slot = dyn_cast<FifoSlotType>(op.getDst().getType())) {
    auto addr = bufferAddress(op.getSrc(), op.getSrcIndices());
    if (failed(addr))
      return failure();
    dfir::LoadOp::create(b, loc, fifo(op.getDst()), kindOf(op.getSrc()), *addr,
                         constant(slot.getSizeInBytes()));
    return success();
  }
  if (auto slot = dyn_cast<FifoSlotType>(op.getSrc().getType())) {
    auto addr = bufferAddress(op.getDst(), op.getDstIndices());
    if (failed(addr))
      return failure();
    dfir::StoreOp::create(b, loc, fifo(op.getSrc()), kindOf(op.getDst()),
                          *addr, constant(slot.getSizeInBytes()));
    return success();
  }
  // Buffer to buffer: the whole buffer, one DMA.
  auto src = bufferAddress(op.getSrc(), op.getSrcIndices());
  auto dst = bufferAddress(op.getDst(), op.getDstIndices());
  if (failed(src) || failed(dst))
    return failure();
  auto type = cast<MemRefType>(op.getSrc().getType());
  dfir::DmaOp::create(
      b, loc,
      constant(type.getNumElements() * elementBytes(type.getElementType())),
      kindOf(op.getSrc()), *src, kindOf(op.getDst()), *dst, Value(), Value(),
      Value());
  return success();
}

/// A tile <-> buffer transfer with its ends resolved: the byte addresses
/// of the tile's origin in its tensor and of the buffer's copy, the
/// memories they are in, and the tile's shape and its view's strides.
struct mlir::ktdf::lowering::TileDma {
  /// Tensor to buffer (a load), else buffer to tensor.
  bool load = false;
  ktdp::ConstructMemoryViewOp view;
  SmallVector<Value, 8> anchor;
  Value memAddr, bufAddr;
  std::string memName, bufName;
  int64_t esize = 0;
  SmallVector<int64_t> extents;
  ArrayRef<int64_t> strides;
};

FailureOr<TileDma> ProgramBuilder::resolveTileDma(DataTransferOp op,
                                                  IRMapping &map,
                                                  const LaneInstance &li,
                                                  Value copy) {
  OpBuilder &b = *builder;
  Location loc = op.getLoc();
  TileDma dma;
  dma.load = isa<ktdp::AccessTileType>(op.getSrc().getType());
  Value tileValue = dma.load ? op.getSrc() : op.getDst();
  Value buffer = dma.load ? op.getDst() : op.getSrc();
  if (!isa<MemRefType>(buffer.getType()))
    return op.emitError("moving an access tile straight into a FIFO is not "
                        "supported yet");
  auto tile = tileValue.getDefiningOp<ktdp::ConstructAccessTileOp>();
  dma.view = ktdp::getAccessTileView(tileValue);
  if (!dma.view)
    return op.emitError("access tile is not built on a memory view");
  std::string tensor = kernel.tensorOf(dma.view.getOffset());
  if (tensor.empty())
    return dma.view.emitError("view does not start at a kernel argument or a "
                              "literal address");
  auto memref = cast<MemRefType>(dma.view.getType());
  dma.esize = elementBytes(memref.getElementType());
  dma.strides = dma.view.getStaticStrides();

  // The anchor coordinate and the element offset of the tile's origin.
  auto anchor = expandAnchor(b, loc, tile,
                             [&](Value v) { return materialize(v, map); });
  if (failed(anchor))
    return failure();
  dma.anchor = std::move(*anchor);
  auto origin = tileElementOffset(loc, tile, dma.anchor, dma.strides, {}, map);
  if (failed(origin))
    return failure();
  Value tensorAddr = dfir::AddressOp::create(b, loc, b.getIndexType(), tensor);
  dma.memAddr = arith::AddIOp::create(
      b, loc, tensorAddr,
      arith::MulIOp::create(b, loc, *origin, constant(dma.esize)));

  auto box = ktdp::getBoundingBox(tile.getAccessTileSet(), {});
  if (failed(box))
    return tile.emitError("access tile set is unbounded");
  dma.extents = box->getExtents();
  const PipelineInfo &info = kernel.infoOf(op->getParentOfType<PipelineOp>());
  auto [bufBase, bufBytes] = info.buffers.lookup(buffer);
  dma.bufAddr = arith::AddIOp::create(
      b, loc,
      dfir::AddressOp::create(b, loc, b.getIndexType(),
                              KernelLowering::perLane(bufBase, li)),
      arith::MulIOp::create(b, loc, copy, constant(bufBytes)));
  dma.memName = kernel.globalMemory;
  dma.bufName = kernel.memoryOf(
      getBufferMemoryKind(cast<MemRefType>(buffer.getType())), li);
  return dma;
}

void ProgramBuilder::emitDirectedDma(Location loc, const TileDma &dma,
                                     Value size, Value memAt, Value bufAt,
                                     Value nRows, int64_t memStride,
                                     int64_t bufStride) {
  OpBuilder &b = *builder;
  Value srcStride, dstStride;
  if (nRows) {
    srcStride = constant(dma.load ? memStride : bufStride);
    dstStride = constant(dma.load ? bufStride : memStride);
  }
  if (dma.load)
    dfir::DmaOp::create(b, loc, size, dma.memName, memAt, dma.bufName, bufAt,
                        nRows, srcStride, dstStride);
  else
    dfir::DmaOp::create(b, loc, size, dma.bufName, bufAt, dma.memName, memAt,
                        nRows, srcStride, dstStride);
}

LogicalResult ProgramBuilder::emitDma(DataTransferOp op, IRMapping &map,
                                      const LaneInstance &li, Value copy) {
  FailureOr<TileDma> dma = resolveTileDma(op, map, li, copy);
  if (failed(dma))
    return failure();
  size_t rank = dma->extents.size();
  if (rank == 0) {
    // A single element.
    emitDirectedDma(op.getLoc(), *dma, constant(dma->esize), dma->memAddr,
                    dma->bufAddr, Value(), 0, 0);
    return success();
  }
  if (rank == 2)
    return emitMaskedRowsDma(op, *dma, map);
  if (op.getRows())
    return op.emitError("a row limit on a transfer of rank ")
           << rank << " is not supported yet";
  emitOuterLoopDma(op.getLoc(), *dma);
  return success();
}

LogicalResult ProgramBuilder::emitMaskedRowsDma(DataTransferOp op,
                                                const TileDma &dma,
                                                IRMapping &map) {
  OpBuilder &b = *builder;
  Location loc = op.getLoc();
  int64_t rowBytes = dma.extents[1] * dma.esize;
  int64_t rows = dma.extents[0];
  int64_t rowStride = dma.strides[0] * dma.esize;
  // Masking: rows of the tile past the rows its view holds are neither
  // read nor written (a load leaves them undefined; ktdf-check-supported
  // made sure that no stored element depends on them).
  auto extent = viewRows(loc, dma.view, map);
  if (failed(extent))
    return failure();
  Value left = arith::SubIOp::create(b, loc, *extent, dma.anchor[0]);
  Value limit = constant(rows);
  if (op.getRows()) {
    // The rows the (partial) last merged iteration covers.
    auto n = materialize(op.getRows(), map);
    if (failed(n))
      return failure();
    limit = arith::MinSIOp::create(b, loc, limit, *n);
  }
  Value valid = arith::MaxSIOp::create(
      b, loc, arith::MinSIOp::create(b, loc, left, limit), constant(0));
  Value any = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, valid,
                                    constant(0));
  emitIf(any, [&] {
    Value size = constant(rowBytes), nRows;
    if (rowStride == rowBytes)
      size = arith::MulIOp::create(b, loc, valid, size);
    else
      nRows = valid;
    emitDirectedDma(loc, dma, size, dma.memAddr, dma.bufAddr, nRows, rowStride,
                    rowBytes);
  });
  return success();
}

void ProgramBuilder::emitOuterLoopDma(Location loc, const TileDma &dma) {
  OpBuilder &b = *builder;
  ArrayRef<int64_t> extents = dma.extents;
  ArrayRef<int64_t> strides = dma.strides;
  int64_t esize = dma.esize;
  size_t rank = extents.size();
  // Rows of the innermost dimension; dimensions above the last two become
  // loops. Contiguous rows merge into one transfer.
  int64_t rowBytes = extents.back() * esize;
  int64_t rows = rank >= 2 ? extents[rank - 2] : 1;
  int64_t rowStride = rank >= 2 ? strides[rank - 2] * esize : rowBytes;
  int64_t outer = 1;
  for (size_t d = 0; d + 2 < rank; ++d)
    outer *= extents[d];
  if (rows > 1 && rowStride == rowBytes) {
    rowBytes *= rows;
    rows = 1;
  }
  auto emitRows = [&](Value memAt, Value bufAt) {
    Value size = constant(rowBytes);
    Value nRows = rows > 1 ? constant(rows) : Value();
    emitDirectedDma(loc, dma, size, memAt, bufAt, nRows, rowStride, rowBytes);
  };
  if (outer == 1) {
    emitRows(dma.memAddr, dma.bufAddr);
    return;
  }
  // Outer dimensions: one 2-d transfer per point, row-major.
  int64_t planeBytes = extents[rank - 2] * extents[rank - 1] * esize;
  Value c0 = constant(0), c1 = constant(1);
  scf::ForOp::create(
      b, loc, c0, constant(outer), c1, ValueRange{},
      [&](OpBuilder &, Location, Value o, ValueRange) {
        Value memOffset = constant(0), rest = o;
        for (int64_t d = static_cast<int64_t>(rank) - 3; d >= 0; --d) {
          Value coord =
              arith::RemUIOp::create(b, loc, rest, constant(extents[d]));
          rest = arith::DivUIOp::create(b, loc, rest, constant(extents[d]));
          memOffset = arith::AddIOp::create(
              b, loc, memOffset,
              arith::MulIOp::create(b, loc, coord,
                                    constant(strides[d] * esize)));
        }
        emitRows(arith::AddIOp::create(b, loc, dma.memAddr, memOffset),
                 arith::AddIOp::create(
                     b, loc, dma.bufAddr,
                     arith::MulIOp::create(b, loc, o, constant(planeBytes))));
        scf::YieldOp::create(b, loc);
      });
}

FailureOr<Value> ProgramBuilder::viewRows(Location loc,
                                          ktdp::ConstructMemoryViewOp view,
                                          IRMapping &map) {
  OpBuilder &b = *builder;
  OpFoldResult size0 = view.getMixedSizes().front();
  std::optional<int64_t> staticSize;
  Value extent;
  if (auto attr = dyn_cast<Attribute>(size0)) {
    staticSize = cast<IntegerAttr>(attr).getInt();
    extent = constant(*staticSize);
  } else {
    auto v = materialize(cast<Value>(size0), map);
    if (failed(v))
      return failure();
    extent = *v;
  }
  // The coordinate_set's symbols are the view's dynamic sizes, in order.
  auto upper = ktdp::getUpperBoundMap(view.getCoordinateSet(), 0);
  if (failed(upper) || upper->getNumSymbols() > view.getSizes().size())
    return view.emitError("the coordinate set of this view does not bound "
                          "its first dimension on its own");
  SmallVector<Value> symbols;
  for (Value size : view.getSizes().take_front(upper->getNumSymbols())) {
    auto v = materialize(size, map);
    if (failed(v))
      return failure();
    symbols.push_back(*v);
  }
  for (AffineExpr bound : upper->getResults()) {
    AffineExpr rows = simplifyAffineExpr(bound + 1, 0, symbols.size());
    // Bounds no tighter than the size itself cost nothing at run time.
    if (auto c = dyn_cast<AffineConstantExpr>(rows)) {
      if (!staticSize || c.getValue() < *staticSize)
        extent = arith::MinSIOp::create(b, loc, extent,
                                        constant(c.getValue()));
      continue;
    }
    auto symbol = dyn_cast<AffineSymbolExpr>(rows);
    if (symbol && !staticSize &&
        view.getSizes()[symbol.getPosition()] == cast<Value>(size0))
      continue;
    extent = arith::MinSIOp::create(
        b, loc, extent,
        affine::expandAffineExpr(b, loc, rows, ValueRange{}, symbols));
  }
  return extent;
}

FailureOr<Value>
ProgramBuilder::tileElementOffset(Location loc,
                                  ktdp::ConstructAccessTileOp tile,
                                  ArrayRef<Value> anchor,
                                  ArrayRef<int64_t> strides,
                                  ValueRange indices, IRMapping &map) {
  OpBuilder &b = *builder;
  if (anchor.size() != strides.size())
    return tile.emitError("cannot expand the anchor of this access tile");
  Value offset = constant(0);
  for (auto [d, coord] : llvm::enumerate(anchor)) {
    Value at = coord;
    if (d < indices.size()) {
      auto v = materialize(indices[d], map);
      if (failed(v))
        return failure();
      at = arith::AddIOp::create(b, loc, at, *v);
    }
    offset = arith::AddIOp::create(
        b, loc, offset,
        arith::MulIOp::create(b, loc, at, constant(strides[d])));
  }
  return offset;
}

FailureOr<std::pair<Value, std::string>>
ProgramBuilder::tileAddress(Value tileValue, ValueRange indices,
                            IRMapping &map, const LaneInstance &li) {
  OpBuilder &b = *builder;
  auto tile = tileValue.getDefiningOp<ktdp::ConstructAccessTileOp>();
  auto view = ktdp::getAccessTileView(tileValue);
  if (!view)
    return emitError(tileValue.getLoc(),
                     "access tile is not built on a memory view");
  Location loc = tile.getLoc();
  auto memref = cast<MemRefType>(view.getType());
  int64_t esize = elementBytes(memref.getElementType());
  ArrayRef<int64_t> strides = view.getStaticStrides();
  auto anchor = expandAnchor(b, loc, tile,
                             [&](Value v) { return materialize(v, map); });
  if (failed(anchor))
    return failure();
  auto offset = tileElementOffset(loc, tile, *anchor, strides, indices, map);
  if (failed(offset))
    return failure();
  Value bytes = arith::MulIOp::create(b, loc, *offset, constant(esize));
  auto space = ktdp::normalizeMemorySpace(view.getMemorySpace());
  if (space && space->kind == ktdp::MemoryKind::ct_local) {
    // The kernel's scratchpad views start the lane's region; the view's
    // own address counts elements from there.
    auto kind = view->getAttrOfType<StringAttr>("ktdf.memory");
    APInt literal;
    if (!kind || !matchPattern(view.getOffset(), m_ConstantInt(&literal)))
      return view.emitError("scratchpad view without a literal address or "
                            "device memory");
    Value base = dfir::AddressOp::create(
        b, loc, b.getIndexType(),
        KernelLowering::localOf(kind.getValue(), li));
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
  auto where = tileAddress(fromTile ? op.getSrc() : op.getDst(),
                           fromTile ? op.getSrcIndices() : op.getDstIndices(),
                           map, li);
  if (failed(where))
    return failure();
  auto fifo = FlatSymbolRefAttr::get(b.getContext(), kernel.fifoOf(slot, li));
  Value size =
      constant(cast<FifoSlotType>(slot.getType()).getSizeInBytes());
  if (fromTile)
    dfir::LoadOp::create(b, op.getLoc(), fifo,
                         b.getStringAttr(where->second), where->first, size);
  else
    dfir::StoreOp::create(b, op.getLoc(), fifo,
                          b.getStringAttr(where->second), where->first, size);
  return success();
}
