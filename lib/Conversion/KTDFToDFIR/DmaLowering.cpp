//===- DmaLowering.cpp - DMA transfers between a tile and a buffer --------===//
//
// This file emits a tile <-> buffer transfer of a unit instance's program
// as `dfir.dma`s: rows and strides from the access tile and its view, one
// transfer per point of the dimensions above the last two. Coordinates of
// the tile past those its view holds (by its sizes and its coordinate_set)
// are masked, neither read nor written. A load reads 0 there, as the
// reference interpreter does: `dfir.fill`s zero the part of the buffer the
// clamped DMA leaves out (DmaWindow.cpp), so every value computed from the
// tile is the interpreter's. The rows of a 2-d tile are always clamped at
// run time (also to the transfer's `rows`, the iterations a partial
// coarsened iteration covers); every other dimension is clamped where the
// tile may leave its view (mayLeaveView). A tile that stays inside its
// view, or has a permuted order (a transposed load or store, clamped to
// the same window), moves as DMAs of planes of rows (BlockDma.cpp). A view's
// stride known only at launch (the size after it, `strides: [%n, 1]`) is
// computed by the program: its rows move as one strided DMA whose stride
// operand is that value.
//
//===----------------------------------------------------------------------===//

#include "ProgramBuilder.h"
#include "TileDma.h"

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDF/Transforms/TileBounds.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"
#include "ktflow/Support/ElementBytes.h"

#include "mlir/Dialect/Affine/Utils.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

FailureOr<TileDma> TransferEmitter::resolveTileDma(DataTransferOp op,
                                                   IRMapping &map,
                                                   const LaneInstance &li,
                                                   Value copy) {
  OpBuilder &b = *builder;
  Location loc = op.getLoc();
  TileDma dma;
  // The buffer end may be a scratchpad view's tile, or the destination
  // tile of a move from device memory to device memory (ExchangeDma.cpp,
  // PassThroughDma.cpp).
  dma.load = isa<ktdp::AccessTileType>(op.getSrc().getType()) &&
             !isScratchpadTile(op.getSrc());
  Value tileValue = dma.load ? op.getSrc() : op.getDst();
  Value buffer = dma.load ? op.getDst() : op.getSrc();
  if (!isa<MemRefType, ktdp::AccessTileType>(buffer.getType()))
    return op.emitError("moving an access tile straight into a FIFO is not "
                        "supported yet");
  dma.tile = tileValue.getDefiningOp<ktdp::ConstructAccessTileOp>();
  dma.view = ktdp::getAccessTileView(tileValue);
  if (!dma.view)
    return op.emitError("access tile is not built on a memory view");
  std::string tensor = kernel.tensorOf(dma.view.getOffset());
  if (tensor.empty())
    return dma.view.emitError("view does not start at a kernel argument or a "
                              "literal address");
  auto memref = cast<MemRefType>(dma.view.getType());
  dma.esize = ktflow::bytesPerElement(memref.getElementType());
  dma.strides = dma.view.getStaticStrides();
  if (!dma.view.getStrides().empty()) {
    for (OpFoldResult stride : dma.view.getMixedStrides()) {
      Value runtime;
      if (auto v = dyn_cast<Value>(stride)) {
        auto materialized = materialize(v, map);
        if (failed(materialized))
          return failure();
        runtime = *materialized;
      }
      dma.runtimeStrides.push_back(runtime);
    }
  }

  // The anchor coordinate and the element offset of the tile's origin.
  auto anchor = expandAnchor(b, loc, dma.tile,
                             [&](Value v) { return materialize(v, map); });
  if (failed(anchor))
    return failure();
  dma.anchor = std::move(*anchor);
  auto origin =
      tileElementOffset(loc, dma.tile, dma.anchor, dma.strides, {}, map);
  if (failed(origin))
    return failure();
  Value tensorAddr = dfir::AddressOp::create(b, loc, b.getIndexType(), tensor);
  dma.memAddr = arith::AddIOp::create(
      b, loc, tensorAddr,
      arith::MulIOp::create(b, loc, *origin, constant(dma.esize)));

  auto box = ktdp::getBoundingBox(dma.tile.getAccessTileSet(), {});
  if (failed(box))
    return dma.tile.emitError("access tile set is unbounded");
  dma.extents = box->getExtents();
  dma.memName = kernel.globalMemory;
  if (isa<ktdp::AccessTileType>(buffer.getType())) {
    // A whole dense scratchpad view from its origin, or a contiguous tile
    // of device memory (a device-to-device move), laid out as the buffer
    // would be (ExchangeDma.cpp, PassThroughDma.cpp).
    auto where = tileAddress(buffer, {}, map, li);
    if (failed(where))
      return failure();
    std::tie(dma.bufAddr, dma.bufName) = *where;
    // A kept copy's destination read in place on this tile: its resident
    // part's rows lie further apart (ResidentCopies.cpp).
    ktdp::ConstructMemoryViewOp own = ktdp::getAccessTileView(buffer);
    ktdp::ConstructMemoryViewOp onTile = kernel.viewOnTile(own, li);
    if (onTile != own && !isDenseRowMajor(onTile)) {
      if (dma.extents.size() != 2 || onTile.getStaticStrides().size() != 2)
        return op.emitError("a DMA of a scratchpad part whose rows lie "
                            "further apart needs a 2-d tile");
      dma.bufPitch = onTile.getStaticStrides()[0] * dma.esize;
    }
    return dma;
  }
  const PipelineInfo &info = kernel.infoOf(op->getParentOfType<PipelineOp>());
  auto [bufBase, bufBytes] = info.buffers.lookup(buffer);
  dma.bufAddr = arith::AddIOp::create(
      b, loc,
      dfir::AddressOp::create(b, loc, b.getIndexType(),
                              KernelLowering::perLane(bufBase, li)),
      arith::MulIOp::create(b, loc, copy, constant(bufBytes)));
  dma.bufName = kernel.memoryOf(
      getBufferMemoryKind(cast<MemRefType>(buffer.getType())), li);
  // An indexed buffer end: the tile moves into (or out of) a column block
  // of a wider buffer (ktdf-join-product-columns). Only the rows of a 2-d
  // tile inside its view move (no fills, no planes), the DMA's buffer
  // stride the buffer's row.
  ValueRange at = dma.load ? op.getDstIndices() : op.getSrcIndices();
  if (at.empty())
    return dma;
  auto type = cast<MemRefType>(buffer.getType());
  if (type.getRank() != 2 || dma.extents.size() != 2 ||
      !dma.tile.getAccessTileOrder().isIdentity() || mayLeaveView(dma.tile))
    return op.emitError("a DMA into a block of a wider buffer needs a 2-d "
                        "tile in its own order that stays inside its view");
  Value linear = constant(0);
  for (auto [d, index] : llvm::enumerate(at)) {
    auto v = materialize(index, map);
    if (failed(v))
      return failure();
    linear = arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(b, loc, linear, constant(type.getDimSize(d))),
        *v);
  }
  dma.bufAddr = arith::AddIOp::create(
      b, loc, dma.bufAddr,
      arith::MulIOp::create(b, loc, linear, constant(dma.esize)));
  dma.bufPitch = type.getDimSize(1) * dma.esize;
  return dma;
}

void TransferEmitter::emitDirectedDma(Location loc, const TileDma &dma,
                                      Value size, Value memAt, Value bufAt,
                                      Value nRows, int64_t memStride,
                                      int64_t bufStride, Value runtimeMemStride,
                                      const DmaPlanes *planes) {
  OpBuilder &b = *builder;
  Value srcStride, dstStride;
  auto memSide = [&] {
    return runtimeMemStride ? runtimeMemStride : constant(memStride);
  };
  if (nRows) {
    srcStride = dma.load ? memSide() : constant(bufStride);
    dstStride = dma.load ? constant(bufStride) : memSide();
  }
  Value count, srcPlane, dstPlane;
  if (planes) {
    count = planes->count;
    srcPlane = dma.load ? planes->memStride : constant(planes->bufStride);
    dstPlane = dma.load ? constant(planes->bufStride) : planes->memStride;
  }
  if (dma.load)
    dfir::DmaOp::create(b, loc, size, dma.memName, memAt, dma.bufName, bufAt,
                        nRows, srcStride, dstStride, count, srcPlane, dstPlane);
  else
    dfir::DmaOp::create(b, loc, size, dma.bufName, bufAt, dma.memName, memAt,
                        nRows, srcStride, dstStride, count, srcPlane, dstPlane);
}

LogicalResult TransferEmitter::emitDma(DataTransferOp op, IRMapping &map,
                                       const LaneInstance &li, Value copy) {
  if ((isa<ktdp::AccessTileType>(op.getSrc().getType()) ? op.getSrc()
                                                        : op.getDst())
          .getDefiningOp<ktdp::ConstructIndirectAccessTileOp>())
    return emitIndirectDma(op, map, li, copy);
  FailureOr<TileDma> dma = resolveTileDma(op, map, li, copy);
  if (failed(dma))
    return failure();
  Location loc = op.getLoc();
  size_t rank = dma->extents.size();
  if (rank == 0) {
    // A single element.
    emitDirectedDma(loc, *dma, constant(dma->esize), dma->memAddr, dma->bufAddr,
                    Value(), 0, 0);
    return success();
  }
  if (op.getRows() && rank != 2)
    return op.emitError("a row limit on a transfer of rank ")
           << rank << " is not supported yet";
  bool permuted = !dma->tile.getAccessTileOrder().isIdentity();
  if (permuted) {
    if (!dma->view.getStrides().empty())
      return op.emitError("a transfer of a permuted access tile of a view "
                          "with run-time strides is not supported yet");
    if (op.getRows())
      return op.emitError("a row limit on a transfer of a permuted access "
                          "tile is not supported");
    bool masked = false;
    for (size_t d = 0; d < rank; ++d)
      masked |= mayLeaveView(dma->tile, d);
    if (!masked) {
      emitPermutedDma(loc, *dma);
      return success();
    }
  }
  // A permuted tile is clamped to the same window, its fills written into
  // the buffer's permuted layout.
  FailureOr<DmaWindow> window = clampToView(op, *dma, map);
  if (failed(window))
    return failure();
  bool rows = rank == 2 && !window->count[1] && !window->begin[0];
  if (dma->bufPitch && !permuted && !rows)
    return op.emitError("a DMA into a block of a wider buffer moves whole "
                        "rows only");
  if (dma->load && !dma->tile->hasAttr(kPartPieceAttrName))
    emitMaskFills(loc, *dma, *window);
  if (permuted)
    emitPermutedDma(loc, *dma, &*window);
  else if (rows)
    emitMaskedRowsDma(loc, *dma, window->count[0]);
  else if (llvm::all_of(window->count, [](Value v) { return !v; }))
    emitOuterLoopDma(loc, *dma);
  else
    emitMaskedDma(loc, *dma, *window);
  return success();
}

Value TransferEmitter::strideBytes(Location loc, const TileDma &dma,
                                   unsigned d) {
  if (Value runtime = dma.runtimeStride(d))
    return arith::MulIOp::create(*builder, loc, runtime, constant(dma.esize));
  return constant(dma.strides[d] * dma.esize);
}

void TransferEmitter::emitMaskedRowsDma(Location loc, const TileDma &dma,
                                        Value validRows) {
  OpBuilder &b = *builder;
  int64_t rowBytes = dma.extents[1] * dma.esize;
  int64_t pitch = dma.bufPitch ? dma.bufPitch : rowBytes;
  bool runtimeRows = dma.runtimeStride(0) != nullptr;
  int64_t rowStride = runtimeRows ? 0 : dma.strides[0] * dma.esize;
  Value any = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt,
                                    validRows, constant(0));
  // Full rows, merged into one transfer when they are contiguous at both
  // ends.
  emitIf(any, [&] {
    Value size = constant(rowBytes), nRows;
    if (!runtimeRows && rowStride == rowBytes && pitch == rowBytes)
      size = arith::MulIOp::create(b, loc, validRows, size);
    else
      nRows = validRows;
    emitDirectedDma(loc, dma, size, dma.memAddr, dma.bufAddr, nRows, rowStride,
                    pitch, runtimeRows ? strideBytes(loc, dma, 0) : Value());
  });
}

void TransferEmitter::emitMaskedDma(Location loc, const TileDma &dma,
                                    const DmaWindow &window) {
  OpBuilder &b = *builder;
  ArrayRef<int64_t> extents = dma.extents;
  size_t rank = extents.size();
  size_t colDim = rank - 1, rowDim = rank - 2;
  int64_t esize = dma.esize;
  int64_t rowBytes = extents.back() * esize;
  bool runtimeRows = rank >= 2 && dma.runtimeStride(rowDim);
  int64_t rowStride = runtimeRows ? 0
                      : rank >= 2 ? dma.strides[rowDim] * esize
                                  : rowBytes;
  Value validCols = window.count[colDim];
  Value validRows = rank >= 2 ? window.count[rowDim] : Value();
  auto positive = [&](Value n) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, n,
                                 constant(0))
        .getResult();
  };
  // The valid part of each row (from its first valid column), one strided
  // transfer of the valid rows (from the first valid row) per point of the
  // outer dimensions inside the view.
  auto emitRows = [&](Value memAt, Value bufAt) {
    Value cols = validCols ? validCols : constant(extents.back());
    Value nRows = rank >= 2
                      ? (validRows ? validRows : constant(extents[rowDim]))
                      : Value();
    auto skip = [&](Value first, function_ref<Value()> memBytes,
                    int64_t bufBytes) {
      if (!first)
        return;
      memAt = arith::AddIOp::create(
          b, loc, memAt, arith::MulIOp::create(b, loc, first, memBytes()));
      bufAt = arith::AddIOp::create(
          b, loc, bufAt,
          arith::MulIOp::create(b, loc, first, constant(bufBytes)));
    };
    auto emitValid = [&] {
      skip(window.begin[colDim], [&] { return constant(esize); }, esize);
      if (rank >= 2)
        skip(
            window.begin[rowDim], [&] { return strideBytes(loc, dma, rowDim); },
            rowBytes);
      Value size = arith::MulIOp::create(b, loc, cols, constant(esize));
      emitDirectedDma(loc, dma, size, memAt, bufAt, nRows, rowStride, rowBytes,
                      runtimeRows && nRows ? strideBytes(loc, dma, rowDim)
                                           : Value());
    };
    auto emitValidRows = [&] {
      if (validRows)
        emitIf(positive(validRows), emitValid);
      else
        emitValid();
    };
    if (validCols)
      emitIf(positive(validCols), emitValidRows);
    else
      emitValidRows();
  };
  forEachOuterPoint(loc, dma, window.begin, window.end, emitRows);
}

void TransferEmitter::forEachOuterPoint(
    Location loc, const TileDma &dma, ArrayRef<Value> begin,
    ArrayRef<Value> end, function_ref<void(Value, Value)> emitRows,
    unsigned innerDims) {
  OpBuilder &b = *builder;
  ArrayRef<int64_t> extents = dma.extents;
  size_t rank = extents.size();
  int64_t outer = 1;
  for (size_t d = 0; d + innerDims < rank; ++d)
    outer *= extents[d];
  // Whether coordinate `coord` of outer dimension `d` lies in the window
  // (null when the dimension is not masked).
  auto inWindow = [&](Value inside, int64_t d, Value coord) {
    auto require = [&](arith::CmpIPredicate predicate, Value bound) {
      Value in = arith::CmpIOp::create(b, loc, predicate, coord, bound);
      inside = inside ? arith::AndIOp::create(b, loc, inside, in) : in;
    };
    if (d < static_cast<int64_t>(end.size()) && end[d])
      require(arith::CmpIPredicate::slt, end[d]);
    if (d < static_cast<int64_t>(begin.size()) && begin[d])
      require(arith::CmpIPredicate::sge, begin[d]);
    return inside;
  };
  if (outer == 1) {
    // A single point, coordinate 0 of each outer dimension of extent 1 (a
    // batch of one): the window may still leave it out, the whole tile
    // outside the view.
    Value inside;
    for (size_t d = 0; d + innerDims < rank; ++d)
      inside = inWindow(inside, d, constant(0));
    auto emitPoint = [&] { emitRows(dma.memAddr, dma.bufAddr); };
    if (inside)
      emitIf(inside, emitPoint);
    else
      emitPoint();
    return;
  }
  // One transfer per point, row-major, skipping the points outside a
  // masked dimension's valid coordinates.
  int64_t pointBytes = dma.esize;
  for (size_t d = rank - innerDims; d < rank; ++d)
    pointBytes *= extents[d];
  Value c0 = constant(0), c1 = constant(1);
  scf::ForOp::create(
      b, loc, c0, constant(outer), c1, ValueRange{},
      [&](OpBuilder &, Location, Value o, ValueRange) {
        Value memOffset = constant(0), rest = o, inside;
        for (int64_t d = static_cast<int64_t>(rank - innerDims) - 1; d >= 0;
             --d) {
          Value coord =
              arith::RemUIOp::create(b, loc, rest, constant(extents[d]));
          rest = arith::DivUIOp::create(b, loc, rest, constant(extents[d]));
          memOffset = arith::AddIOp::create(
              b, loc, memOffset,
              arith::MulIOp::create(b, loc, coord, strideBytes(loc, dma, d)));
          inside = inWindow(inside, d, coord);
        }
        auto emitPoint = [&] {
          emitRows(arith::AddIOp::create(b, loc, dma.memAddr, memOffset),
                   arith::AddIOp::create(
                       b, loc, dma.bufAddr,
                       arith::MulIOp::create(b, loc, o, constant(pointBytes))));
        };
        if (inside)
          emitIf(inside, emitPoint);
        else
          emitPoint();
        scf::YieldOp::create(b, loc);
      });
}

FailureOr<Value> TransferEmitter::viewExtent(Location loc,
                                             ktdp::ConstructMemoryViewOp view,
                                             unsigned d, IRMapping &map) {
  OpBuilder &b = *builder;
  OpFoldResult sizeD = view.getMixedSizes()[d];
  std::optional<int64_t> staticSize;
  Value extent;
  if (auto attr = dyn_cast<Attribute>(sizeD)) {
    staticSize = cast<IntegerAttr>(attr).getInt();
    extent = constant(*staticSize);
  } else {
    auto v = materialize(cast<Value>(sizeD), map);
    if (failed(v))
      return failure();
    extent = *v;
  }
  // The coordinate_set's symbols are the view's dynamic sizes, in order.
  auto upper = ktdp::getUpperBoundMap(view.getCoordinateSet(), d);
  if (failed(upper) || upper->getNumSymbols() > view.getSizes().size())
    return view.emitError("the coordinate set of this view does not bound "
                          "its dimension ")
           << d << " on its own";
  SmallVector<Value> symbols;
  for (Value size : view.getSizes().take_front(upper->getNumSymbols())) {
    auto v = materialize(size, map);
    if (failed(v))
      return failure();
    symbols.push_back(*v);
  }
  for (AffineExpr bound : upper->getResults()) {
    AffineExpr count = simplifyAffineExpr(bound + 1, 0, symbols.size());
    // Bounds no tighter than the size itself cost nothing at run time.
    if (auto c = dyn_cast<AffineConstantExpr>(count)) {
      if (!staticSize || c.getValue() < *staticSize)
        extent = arith::MinSIOp::create(b, loc, extent, constant(c.getValue()));
      continue;
    }
    auto symbol = dyn_cast<AffineSymbolExpr>(count);
    if (symbol && !staticSize &&
        view.getSizes()[symbol.getPosition()] == cast<Value>(sizeD))
      continue;
    extent = arith::MinSIOp::create(
        b, loc, extent,
        affine::expandAffineExpr(b, loc, count, ValueRange{}, symbols));
  }
  return extent;
}
