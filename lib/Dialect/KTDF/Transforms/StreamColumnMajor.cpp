//===- StreamColumnMajor.cpp - Streamed column reductions -----------------===//
//
// This file rebuilds the stages of a column-major plan once StreamTiler has
// chosen it: the compute stage walks each chunk of columns down the rows,
// and the feed and drain move the per-column values around the rows' chunks
// in the same order.
//
//===----------------------------------------------------------------------===//

#include "StreamTiler.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::detail;

/// Column reductions: each chunk of columns goes down the rows,
///   for c { per-column values; for r { row chunk, fold }; results }.
void StreamTiler::buildColumnMajorCompute(IRMapping &base, Block *old) {
  Location loc = compute.getLoc();
  Value c0 = index(0), c1 = index(1), rows = index(plan.rows),
        cols = index(plan.cols), step = index(width);
  // What depends on a column reduction's result comes after the rows.
  llvm::SmallPtrSet<Operation *, 8> after;
  for (auto [op, role] : plan.roles) {
    bool late = role == OpRole::ColReduction;
    for (Value v : op->getOperands())
      if (Operation *def = v.getDefiningOp(); def && after.contains(def))
        late = true;
    if (late)
      after.insert(op);
  }
  auto inRows = [&](Operation *op) {
    return llvm::any_of(op->getResults(),
                        [&](Value v) { return plan.getKind(v) == Kind::Tile; });
  };
  scf::ForOp::create(
      b, loc, c0, cols, step, ValueRange{},
      [&](OpBuilder &, Location, Value, ValueRange) {
        IRMapping chunkMap = base;
        for (ReadFromFifoOp read : plan.reads)
          if (plan.getKind(read.getResult()) != Kind::Tile)
            readChunk(read, chunkMap);
        for (auto [op, role] : plan.roles)
          if (!after.contains(op) && !inRows(op))
            emitOp(op, role, chunkMap);
        SmallVector<Value> inits;
        for (auto [op, role] : plan.roles)
          if (role == OpRole::ColReduction)
            for (Value init : op.getDpsInits())
              inits.push_back(lookup(init, chunkMap));
        auto down = scf::ForOp::create(
            b, loc, c0, rows, c1, inits,
            [&](OpBuilder &, Location, Value, ValueRange accs) {
              IRMapping rowMap = chunkMap;
              for (ReadFromFifoOp read : plan.reads)
                if (plan.getKind(read.getResult()) == Kind::Tile)
                  readChunk(read, rowMap);
              SmallVector<Value> next;
              unsigned a = 0;
              for (auto [op, role] : plan.roles) {
                if (role == OpRole::ColReduction) {
                  unsigned n = op.getNumDpsInits();
                  next.append(emitOp(op, role, rowMap, accs.slice(a, n)));
                  a += n;
                } else if (inRows(op)) {
                  emitOp(op, role, rowMap);
                }
              }
              for (WriteToFifoOp write : plan.writes)
                if (plan.getKind(write.getValue()) == Kind::Tile)
                  WriteToFifoOp::create(b, write.getLoc(),
                                        rowMap.lookup(write.getValue()),
                                        write.getSlot());
              scf::YieldOp::create(b, loc, next);
            });
        unsigned r = 0;
        for (auto [op, role] : plan.roles)
          if (role == OpRole::ColReduction)
            for (Value result : op->getResults())
              chunkMap.map(result, down.getResult(r++));
        for (auto [op, role] : plan.roles)
          if (after.contains(op) && role != OpRole::ColReduction)
            emitOp(op, role, chunkMap);
        for (WriteToFifoOp write : plan.writes)
          if (plan.getKind(write.getValue()) != Kind::Tile)
            WriteToFifoOp::create(b, write.getLoc(),
                                  lookup(write.getValue(), chunkMap),
                                  write.getSlot());
        scf::YieldOp::create(b, loc);
      });
  old->dropAllDefinedValueUses();
  old->erase();
}

/// The feed or drain of a column-major stage: per chunk of columns, the
/// per-column transfers around the rows' transfers, in the compute's
/// order.
void StreamTiler::buildColumnMajorTransfers(StageOp stage, bool isFeed) {
  Block *old = freshBody(stage);
  Location loc = stage.getLoc();
  Value c0 = index(0), c1 = index(1), rows = index(plan.rows),
        cols = index(plan.cols), step = index(width);
  auto move = [&](Value slot, Location at, SmallVector<Value> indices) {
    Value buffer = source.lookup(slot);
    if (isFeed)
      DataTransferOp::create(b, at, buffer, indices, slot, ValueRange{});
    else
      DataTransferOp::create(b, at, slot, ValueRange{}, buffer, indices);
  };
  auto perColumn = [&](Value slot, Value value, Location at, Value c) {
    Value buffer = source.lookup(slot);
    if (!plan.isStreamed(value))
      move(slot, at, rowIndex(buffer, c));
    else
      move(slot, at, columnIndex(buffer, c));
  };
  scf::ForOp::create(
      b, loc, c0, cols, step, ValueRange{},
      [&](OpBuilder &, Location, Value c, ValueRange) {
        if (isFeed)
          for (ReadFromFifoOp read : plan.reads)
            if (plan.getKind(read.getResult()) != Kind::Tile)
              perColumn(read.getSlot(), read.getResult(), read.getLoc(), c);
        bool perRow =
            isFeed ? llvm::any_of(plan.reads,
                                  [&](ReadFromFifoOp read) {
                                    return plan.getKind(read.getResult()) ==
                                           Kind::Tile;
                                  })
                   : llvm::any_of(plan.writes, [&](WriteToFifoOp write) {
                       return plan.getKind(write.getValue()) == Kind::Tile;
                     });
        if (perRow)
          scf::ForOp::create(
              b, loc, c0, rows, c1, ValueRange{},
              [&](OpBuilder &, Location, Value r, ValueRange) {
                if (isFeed) {
                  for (ReadFromFifoOp read : plan.reads)
                    if (plan.getKind(read.getResult()) == Kind::Tile)
                      move(read.getSlot(), read.getLoc(),
                           chunkIndices(source.lookup(read.getSlot()), r, c));
                } else {
                  for (WriteToFifoOp write : plan.writes)
                    if (plan.getKind(write.getValue()) == Kind::Tile)
                      move(write.getSlot(), write.getLoc(),
                           chunkIndices(source.lookup(write.getSlot()), r, c));
                }
                scf::YieldOp::create(b, loc);
              });
        if (!isFeed)
          for (WriteToFifoOp write : plan.writes)
            if (plan.getKind(write.getValue()) != Kind::Tile)
              perColumn(write.getSlot(), write.getValue(), write.getLoc(), c);
        scf::YieldOp::create(b, loc);
      });
  old->dropAllDefinedValueUses();
  old->erase();
}
