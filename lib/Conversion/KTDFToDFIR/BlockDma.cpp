//===- BlockDma.cpp - A tile inside its view as DMAs of planes of rows ----===//
//
// This file emits the transfers of a tile that stays inside its view, in
// the tile's order or a permuted one (a transposed load or store, which
// may also be clamped to its view's window), as `dfir.dma`s of planes of
// rows: the rows along one dimension, the planes along the next one out,
// one DMA per point of the dimensions above. A
// transposed 128x128 block of 2-byte elements (K^T) is one DMA of 128
// planes (its keys) of 128 rows of one element, where it was 128 DMAs,
// each holding a slot of the engine for the route latency. A tile of rank
// 3 or more in its own order moves its 2-d slices as the planes of one DMA.
//
//===----------------------------------------------------------------------===//

#include "ProgramBuilder.h"
#include "TileDma.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

void TransferEmitter::emitPermutedDma(Location loc, const TileDma &whole,
                                      const DmaWindow *window) {
  OpBuilder &b = *builder;
  TileDma dma = whole;
  ArrayRef<int64_t> extents = dma.extents;
  size_t rank = extents.size();
  // Buffer dimension k holds the tile's (view) dimension order[k]; the
  // buffer is row-major in its own dimensions.
  ktdp::ConstructAccessTileOp tile = dma.tile;
  AffineMap order = tile.getAccessTileOrder();
  SmallVector<int64_t> bufStride(rank), memStride(rank);
  int64_t bytes = dma.esize;
  for (int64_t k = static_cast<int64_t>(rank) - 1; k >= 0; --k) {
    unsigned d = order.getDimPosition(k);
    bufStride[d] = bytes;
    bytes *= extents[d];
  }
  // A 2-d buffer whose rows lie further apart (a column block of a wider
  // buffer, a resident part read in place).
  if (dma.bufPitch && rank == 2)
    bufStride[order.getDimPosition(0)] = dma.bufPitch;
  for (size_t d = 0; d < rank; ++d)
    memStride[d] = dma.strides[d] * dma.esize;
  // Each DMA moves rows along one view dimension. When the buffer keeps
  // the view's innermost dimension innermost, its rows are contiguous on
  // both sides; else each row is one element, taken along the view's
  // innermost dimension (contiguous in the tensor, strided in the buffer).
  unsigned inner = rank - 1;
  bool contiguous = order.getDimPosition(rank - 1) == inner;
  int64_t rowBytes = contiguous ? extents[inner] * dma.esize : dma.esize;
  unsigned rowDim = contiguous ? order.getDimPosition(rank - 2) : inner;
  // The other dimensions (those of extent 1 add nothing to an address);
  // the last of them is the DMA's planes (its rows, when the rows are one).
  SmallVector<unsigned> outer;
  for (unsigned d = 0; d < rank; ++d)
    if (d != rowDim && !(contiguous && d == inner) && extents[d] > 1)
      outer.push_back(d);
  std::optional<unsigned> planeDim;
  if (!outer.empty())
    planeDim = outer.pop_back_val();
  int64_t points = 1;
  for (unsigned d : outer)
    points *= extents[d];
  // Clamped to `window`: along each dimension a DMA spans (the rows, the
  // elements of a row, the planes, and those of extent 1) it moves the
  // window's coordinates from its first one, and only when there are any;
  // the points of the other dimensions outside it move nothing.
  auto count = [&](unsigned d) {
    return window && window->count[d] ? window->count[d] : Value();
  };
  auto extent = [&](unsigned d) {
    Value n = count(d);
    return n ? n : constant(extents[d]);
  };
  Value inside;
  auto require = [&](Value in) {
    inside = inside ? arith::AndIOp::create(b, loc, inside, in) : in;
  };
  for (unsigned d = 0; window && d < rank; ++d) {
    if (llvm::is_contained(outer, d))
      continue;
    if (Value n = count(d))
      require(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, n,
                                    constant(0)));
    if (Value first = window->begin[d]) {
      dma.memAddr = arith::AddIOp::create(
          b, loc, dma.memAddr,
          arith::MulIOp::create(b, loc, first, constant(memStride[d])));
      dma.bufAddr = arith::AddIOp::create(
          b, loc, dma.bufAddr,
          arith::MulIOp::create(b, loc, first, constant(bufStride[d])));
    }
  }
  auto emitPoint = [&](Value memAt, Value bufAt) {
    Value size = constant(rowBytes);
    if (contiguous && count(inner))
      size = arith::MulIOp::create(b, loc, count(inner), constant(dma.esize));
    Value nRows = extents[rowDim] > 1 ? extent(rowDim) : Value();
    if (!planeDim) {
      emitDirectedDma(loc, dma, size, memAt, bufAt, nRows, memStride[rowDim],
                      bufStride[rowDim]);
      return;
    }
    unsigned p = *planeDim;
    if (!nRows) {
      emitDirectedDma(loc, dma, size, memAt, bufAt, extent(p), memStride[p],
                      bufStride[p]);
      return;
    }
    DmaPlanes planes{extent(p), constant(memStride[p]), bufStride[p]};
    emitDirectedDma(loc, dma, size, memAt, bufAt, nRows, memStride[rowDim],
                    bufStride[rowDim], Value(), &planes);
  };
  auto emitInside = [&](Value in, function_ref<void()> body) {
    if (in)
      emitIf(in, body);
    else
      body();
  };
  if (points == 1) {
    emitInside(inside, [&] { emitPoint(dma.memAddr, dma.bufAddr); });
    return;
  }
  // One DMA per point of the other dimensions, the last of them fastest.
  emitInside(inside, [&] {
    scf::ForOp::create(
        b, loc, constant(0), constant(points), constant(1), ValueRange{},
        [&](OpBuilder &, Location, Value p, ValueRange) {
          Value memOffset = constant(0), bufOffset = constant(0), rest = p;
          Value pointInside;
          for (unsigned d : llvm::reverse(outer)) {
            Value coord =
                arith::RemUIOp::create(b, loc, rest, constant(extents[d]));
            rest = arith::DivUIOp::create(b, loc, rest, constant(extents[d]));
            memOffset = arith::AddIOp::create(
                b, loc, memOffset,
                arith::MulIOp::create(b, loc, coord, constant(memStride[d])));
            bufOffset = arith::AddIOp::create(
                b, loc, bufOffset,
                arith::MulIOp::create(b, loc, coord, constant(bufStride[d])));
            auto within = [&](arith::CmpIPredicate predicate, Value bound) {
              if (!bound)
                return;
              Value in = arith::CmpIOp::create(b, loc, predicate, coord, bound);
              pointInside = pointInside
                                ? arith::AndIOp::create(b, loc, pointInside, in)
                                : in;
            };
            if (window) {
              within(arith::CmpIPredicate::slt, window->end[d]);
              within(arith::CmpIPredicate::sge, window->begin[d]);
            }
          }
          emitInside(pointInside, [&] {
            emitPoint(arith::AddIOp::create(b, loc, dma.memAddr, memOffset),
                      arith::AddIOp::create(b, loc, dma.bufAddr, bufOffset));
          });
          scf::YieldOp::create(b, loc);
        });
  });
}

void TransferEmitter::emitOuterLoopDma(Location loc, const TileDma &whole) {
  // Dimensions of extent 1 add nothing to an address: without them a
  // 1x2048x1x128 tile (a gather's chunk, stored into one head of a
  // [sequence, token, head, dim] tensor) moves as 2048 strided rows in
  // one DMA instead of 2048 DMAs of one row.
  TileDma dma = whole;
  SmallVector<int64_t> strides;
  dma.extents.clear();
  dma.runtimeStrides.clear();
  for (auto [d, extent] : llvm::enumerate(whole.extents))
    if (extent != 1 || d + 1 == whole.extents.size()) {
      dma.extents.push_back(extent);
      strides.push_back(whole.strides[d]);
      dma.runtimeStrides.push_back(whole.runtimeStride(d));
    }
  dma.strides = strides;
  ArrayRef<int64_t> extents = dma.extents;
  size_t rank = extents.size();
  // Rows of the innermost dimension; contiguous rows merge into one
  // transfer (rows a run-time stride apart never do).
  int64_t rowBytes = extents.back() * dma.esize;
  int64_t rows = rank >= 2 ? extents[rank - 2] : 1;
  bool runtimeRows = rank >= 2 && dma.runtimeStride(rank - 2);
  int64_t rowStride = runtimeRows ? 0
                      : rank >= 2 ? dma.strides[rank - 2] * dma.esize
                                  : rowBytes;
  if (rows > 1 && !runtimeRows && rowStride == rowBytes) {
    rowBytes *= rows;
    rows = 1;
  }
  auto emitRows = [&](Value memAt, Value bufAt, const DmaPlanes *planes) {
    Value size = constant(rowBytes);
    if (rows == 1 && planes) {
      // One row per plane: the planes are the DMA's rows.
      emitDirectedDma(loc, dma, size, memAt, bufAt, planes->count, 0,
                      planes->bufStride, planes->memStride);
      return;
    }
    Value nRows = rows > 1 ? constant(rows) : Value();
    emitDirectedDma(loc, dma, size, memAt, bufAt, nRows, rowStride, rowBytes,
                    runtimeRows && nRows ? strideBytes(loc, dma, rank - 2)
                                         : Value(),
                    planes);
  };
  if (rank < 3) {
    emitRows(dma.memAddr, dma.bufAddr, nullptr);
    return;
  }
  // The 2-d slices along the dimension above the rows are the planes of
  // one DMA, one per point of the dimensions above it (row-major).
  unsigned planeDim = rank - 3;
  int64_t planeBytes = extents[rank - 2] * extents[rank - 1] * dma.esize;
  forEachOuterPoint(
      loc, dma, {}, {},
      [&](Value memAt, Value bufAt) {
        DmaPlanes planes{constant(extents[planeDim]),
                         strideBytes(loc, dma, planeDim), planeBytes};
        emitRows(memAt, bufAt, &planes);
      },
      /*innerDims=*/3);
}
