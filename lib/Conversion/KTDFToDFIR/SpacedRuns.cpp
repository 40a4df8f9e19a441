//===- SpacedRuns.cpp - A gather's evenly spaced runs as one DMA ---------===//
//
// This file extends the pending DMA of an indirect transfer (IndirectDma.cpp)
// whose runs may lie evenly spaced in device memory, as a page's rows of one
// head in a [page, token, head, dim] cache do: such runs move as the rows of
// one strided DMA, which pays its route's latency once where a DMA per run
// paid it per run, 8 in flight. A permuted tile's runs (a transposed page,
// each token's elements a column of K^T) move as the planes of one DMA of
// one-element rows.
//
//===----------------------------------------------------------------------===//

#include "ProgramBuilder.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

/// Whether the point read no index of its own: `indices` and
/// `lastIndices` hold the index addresses first in pairs with their values.
static Value reusedIndices(OpBuilder &b, Location loc, ArrayRef<Value> indices,
                           ValueRange lastIndices) {
  auto eq = [&](Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, y)
        .getResult();
  };
  Value reused = eq(indices[0], lastIndices[0]);
  for (size_t k = 2; k < indices.size(); k += 2)
    reused =
        arith::AndIOp::create(b, loc, reused, eq(indices[k], lastIndices[k]));
  return reused;
}

SmallVector<Value> TransferEmitter::extendSpaced(
    Location loc, ValueRange pend, Value memAt, Value bufAt,
    ArrayRef<Value> indices, ValueRange lastIndices, int64_t runBytes,
    llvm::function_ref<void(Value, Value, Value, Value, Value)> rowsDma) {
  OpBuilder &b = *builder;
  Value pendMem = pend[0], pendBuf = pend[1], pendLen = pend[2],
        pendRows = pend[3], pendStride = pend[4];
  auto eq = [&](Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, y)
        .getResult();
  };
  auto select = [&](Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y).getResult();
  };
  // The buffer holds the runs in point order, so a run extends the pending
  // DMA of one row when it starts where that row ends in memory, and a DMA
  // of rows of one run when it starts a stride (the gap between the first
  // two rows, wider than a run) after the last row: in the buffer it
  // starts where that row ends.
  Value oneRow = eq(pendRows, constant(1));
  Value contiguous = arith::AndIOp::create(
      b, loc, oneRow,
      eq(memAt, arith::AddIOp::create(b, loc, pendMem, pendLen)));
  Value gap = arith::SubIOp::create(b, loc, memAt, pendMem);
  Value stride = select(oneRow, gap, pendStride);
  // Only a run that read no index of its own extends a DMA of spaced rows
  // (a page's rows after the first): one whose read held the unit
  // meanwhile gains nothing by waiting for the next run to leave, where
  // its own DMA would already be in flight.
  Value reused = reusedIndices(b, loc, indices, lastIndices);
  Value strided = arith::AndIOp::create(
      b, loc,
      arith::AndIOp::create(
          b, loc, reused,
          arith::AndIOp::create(
              b, loc, eq(pendLen, constant(runBytes)),
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, stride,
                                    constant(runBytes)))),
      eq(memAt, arith::AddIOp::create(
                    b, loc, pendMem,
                    arith::MulIOp::create(b, loc, pendRows, stride))));
  Value extends = arith::OrIOp::create(b, loc, contiguous, strided);
  // Nothing is pending before the first run (no rows).
  Value flush = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt,
                                      select(extends, constant(0), pendRows),
                                      constant(0));
  emitIf(flush,
         [&] { rowsDma(pendLen, pendMem, pendBuf, pendRows, pendStride); });
  return {select(extends, pendMem, memAt), select(extends, pendBuf, bufAt),
          select(contiguous,
                 arith::AddIOp::create(b, loc, pendLen, constant(runBytes)),
                 constant(runBytes)),
          select(strided, arith::AddIOp::create(b, loc, pendRows, constant(1)),
                 constant(1)),
          select(strided, stride, constant(0))};
}

SmallVector<Value> TransferEmitter::extendPlanes(
    Location loc, ValueRange pend, Value memAt, Value bufAt,
    ArrayRef<Value> indices, ValueRange lastIndices, int64_t bufStride,
    llvm::function_ref<void(Value, Value, Value, Value)> planesDma) {
  OpBuilder &b = *builder;
  Value pendMem = pend[0], pendBuf = pend[1], pendPlanes = pend[2],
        pendStride = pend[3];
  auto cmp = [&](arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y).getResult();
  };
  auto select = [&](Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y).getResult();
  };
  auto all = [&](ArrayRef<Value> conditions) {
    Value r = conditions.front();
    for (Value c : conditions.drop_front())
      r = arith::AndIOp::create(b, loc, r, c);
    return r;
  };
  using P = arith::CmpIPredicate;
  // A run that read no index of its own (a page's tokens after the first)
  // extends the pending DMA as its next plane when it starts a stride
  // after the last plane in memory (the gap between the first two, set by
  // the second) and `bufStride` bytes after it in the buffer.
  Value first = cmp(P::eq, pendPlanes, constant(1));
  Value stride =
      select(first, arith::SubIOp::create(b, loc, memAt, pendMem), pendStride);
  Value extends = all(
      {reusedIndices(b, loc, indices, lastIndices),
       cmp(P::sgt, pendPlanes, constant(0)), cmp(P::sgt, stride, constant(0)),
       cmp(P::eq, memAt,
           arith::AddIOp::create(
               b, loc, pendMem,
               arith::MulIOp::create(b, loc, pendPlanes, stride))),
       cmp(P::eq, bufAt,
           arith::AddIOp::create(b, loc, pendBuf,
                                 arith::MulIOp::create(b, loc, pendPlanes,
                                                       constant(bufStride))))});
  // Nothing is pending before the first run (no planes).
  Value flush =
      cmp(P::sgt, select(extends, constant(0), pendPlanes), constant(0));
  emitIf(flush, [&] { planesDma(pendMem, pendBuf, pendPlanes, pendStride); });
  return {select(extends, pendMem, memAt), select(extends, pendBuf, bufAt),
          select(extends,
                 arith::AddIOp::create(b, loc, pendPlanes, constant(1)),
                 constant(1)),
          select(extends, stride, constant(0))};
}
