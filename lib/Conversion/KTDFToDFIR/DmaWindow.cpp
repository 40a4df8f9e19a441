//===- DmaWindow.cpp - Where a tile transfer is clamped and zeroed --------===//
//
// This file computes, at run time, the coordinates of an access tile that
// its view holds along each dimension the tile may leave it by (the
// window the DMA moves), and emits the `dfir.fill`s that zero the rest of
// a load's buffer before its DMA, where the reference interpreter reads 0.
//
//===----------------------------------------------------------------------===//

#include "ProgramBuilder.h"
#include "TileDma.h"

#include "ktflow/Dialect/KTDF/Transforms/SpanReach.h"
#include "ktflow/Dialect/KTDF/Transforms/TileBounds.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

FailureOr<DmaWindow> TransferEmitter::clampToView(DataTransferOp op,
                                                  const TileDma &dma,
                                                  IRMapping &map) {
  OpBuilder &b = *builder;
  Location loc = op.getLoc();
  size_t rank = dma.extents.size();
  DmaWindow window;
  window.begin.resize(rank);
  window.end.resize(rank);
  window.count.resize(rank);
  window.limit.resize(rank);
  // Along `d`: end = max(min(extent - anchor, limit), 0), the tile
  // coordinate the view ends at, where `limit` is the tile's extent (and
  // the transfer's `rows` for the rows of a 2-d tile, the iterations a
  // partial coarsened iteration covers); where the anchor may be negative,
  // begin = min(max(-anchor, 0), limit), its first coordinate inside, and
  // count = max(end - begin, 0), else count = end.
  for (size_t d = 0; d < rank; ++d) {
    if (!(rank == 2 && d == 0) && !mayLeaveView(dma.tile, d))
      continue;
    auto extent = viewExtent(loc, dma.view, d, map);
    if (failed(extent))
      return failure();
    Value left = arith::SubIOp::create(b, loc, *extent, dma.anchor[d]);
    Value limit = constant(dma.extents[d]);
    if (rank == 2 && d == 0 && op.getRows()) {
      auto n = materialize(op.getRows(), map);
      if (failed(n))
        return failure();
      limit = arith::MinSIOp::create(b, loc, limit, *n);
      window.limit[d] = limit;
    }
    Value end = arith::MaxSIOp::create(
        b, loc, arith::MinSIOp::create(b, loc, left, limit), constant(0));
    window.end[d] = window.count[d] = end;
    if (anchorLowerBound(dma.tile, d).value_or(-1) >= 0)
      continue;
    Value before = arith::SubIOp::create(b, loc, constant(0), dma.anchor[d]);
    Value begin = arith::MinSIOp::create(
        b, loc, arith::MaxSIOp::create(b, loc, before, constant(0)), limit);
    window.begin[d] = begin;
    window.count[d] = arith::MaxSIOp::create(
        b, loc, arith::SubIOp::create(b, loc, end, begin), constant(0));
  }
  return window;
}

void TransferEmitter::emitMaskFills(Location loc, const TileDma &dma,
                                    const DmaWindow &window) {
  OpBuilder &b = *builder;
  ArrayRef<int64_t> extents = dma.extents;
  size_t rank = extents.size();
  // Buffer dimension k holds the tile's dimension order[k] (a permuted
  // tile, a transposed load, lays its buffer out in that order).
  ktdp::ConstructAccessTileOp tile = dma.tile;
  AffineMap order = tile.getAccessTileOrder();
  // The coordinates outside [begin, end) along a dimension the tile may
  // leave its view by form, in the buffer, a slab (before it) and a slab
  // (after it) across every other dimension: one strided fill each, of the
  // points of the buffer dimensions before it as rows. Overlapping slabs
  // of two masked dimensions are zeroed twice. Only what the DMA leaves out is
  // written, and nothing when the window is the whole tile (each fill runs
  // only when it has bytes), so an unmasked transfer costs no more than
  // before; zeroing the whole buffer first would cost a tile's bytes on
  // every load that may be masked, also where it is not.
  for (size_t d = 0; d < rank; ++d) {
    if (!window.end[d] || !mayLeaveView(dma.tile, d))
      continue;
    size_t k = 0;
    while (order.getDimPosition(k) != d)
      ++k;
    int64_t coordBytes = dma.esize;
    for (size_t e = k + 1; e < rank; ++e)
      coordBytes *= extents[order.getDimPosition(e)];
    // A 2-d tile's rows past the transfer's limit belong to no iteration
    // (a limit is only set on a tile in its own order).
    Value rows;
    if (d > 0 && rank == 2 && window.limit[0]) {
      rows = window.limit[0];
    } else {
      int64_t outer = 1;
      for (size_t e = 0; e < k; ++e)
        outer *= extents[order.getDimPosition(e)];
      if (outer > 1)
        rows = constant(outer);
    }
    Value stride = rows ? constant(extents[d] * coordBytes) : Value();
    auto fill = [&](Value from, Value count) {
      Value any = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt,
                                        count, constant(0));
      emitIf(any, [&] {
        Value at = arith::AddIOp::create(
            b, loc, dma.bufAddr,
            arith::MulIOp::create(b, loc, from, constant(coordBytes)));
        Value size = arith::MulIOp::create(b, loc, count, constant(coordBytes));
        dfir::FillOp::create(b, loc, size, dma.bufName, at, rows, stride);
      });
    };
    Value top = window.limit[d] ? window.limit[d] : constant(extents[d]);
    // A row span clipped to the columns its loops read needs zeros only
    // from the view's end on (ktdf-hoist-invariant-transfers).
    Value from = window.end[d];
    if (auto zeroFrom = tile->getAttrOfType<IntegerAttr>(kZeroFromAttrName);
        zeroFrom && d + 1 == rank)
      from = arith::MaxSIOp::create(b, loc, from, constant(zeroFrom.getInt()));
    fill(from, arith::SubIOp::create(b, loc, top, from));
    if (window.begin[d])
      fill(constant(0), window.begin[d]);
  }
}
