//===- StreamTilerBuild.cpp - Rebuilding streamed stages in chunks
//---------===//
//
// This file rewrites a routed pipeline's stages once StreamTiler has chosen
// the chunk width and planned the passes: the compute stage's generics over
// chunks and row values, row by row, and the feed and drain stages' chunk
// transfers in the same order. Column reductions, built chunk of columns by
// chunk, are in StreamColumnMajor.cpp.
//
//===----------------------------------------------------------------------===//

#include "StreamTiler.h"

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::detail;

Value StreamTiler::index(int64_t v) {
  return arith::ConstantIndexOp::create(b, compute.getLoc(), v);
}

/// Replaces `stage`'s body with a fresh block and positions `b` in it.
Block *StreamTiler::freshBody(StageOp stage) {
  Block *old = &stage.getBody().front();
  Block *body = new Block();
  stage.getBody().push_front(body);
  b.setInsertionPointToStart(body);
  return old;
}

/// A chunk (rank 1, `width` elements) or row value (rank 0) of type T.
Type StreamTiler::chunkType(Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  if (plan.isStreamed(v))
    return RankedTensorType::get({width}, type.getElementType());
  return RankedTensorType::get({}, type.getElementType());
}

void StreamTiler::readChunk(ReadFromFifoOp read, IRMapping &map) {
  map.map(read.getResult(),
          ReadFromFifoOp::create(b, read.getLoc(), chunkType(read.getResult()),
                                 read.getSlot()));
}

/// The operand `v` of a generic as its chunk or row form; splat
/// constants are rebuilt at the right shape.
Value StreamTiler::lookup(Value v, IRMapping &map) {
  if (Value mapped = map.lookupOrNull(v))
    return mapped;
  if (auto empty = v.getDefiningOp<tensor::EmptyOp>()) {
    auto type = cast<RankedTensorType>(chunkType(v));
    Value fresh = tensor::EmptyOp::create(b, empty.getLoc(), type.getShape(),
                                          type.getElementType());
    map.map(v, fresh);
    return fresh;
  }
  auto cst = v.getDefiningOp<arith::ConstantOp>();
  auto dense = cst ? dyn_cast<SplatElementsAttr>(cst.getValue()) : nullptr;
  if (!dense)
    return v;
  auto type = cast<RankedTensorType>(chunkType(v));
  Value rebuilt = arith::ConstantOp::create(
      b, cst.getLoc(), type,
      SplatElementsAttr::get(type, dense.getSplatValue<Attribute>()));
  map.map(v, rebuilt);
  return rebuilt;
}

/// Emits `op` over one chunk (Stream, RowReduction) or one row (RowOp).
SmallVector<Value> StreamTiler::emitOp(linalg::GenericOp op, OpRole role, IRMapping &map,
                          ValueRange accumulators) {
  MLIRContext *ctx = op.getContext();
  unsigned loops = role == OpRole::RowOp ? 0 : 1;
  AffineMap chunkMap = AffineMap::getMultiDimIdentityMap(loops, ctx);
  AffineMap scalarMap = AffineMap::get(loops, 0, ctx);
  SmallVector<Value> inputs, outputs;
  SmallVector<AffineMap> maps;
  for (Value v : op.getDpsInputs()) {
    inputs.push_back(lookup(v, map));
    bool chunked = isa<RankedTensorType>(v.getType()) && plan.isStreamed(v);
    maps.push_back(chunked ? chunkMap : scalarMap);
  }
  if (role == OpRole::RowReduction || role == OpRole::ColReduction) {
    // Row reductions fold the chunk into one value; column reductions
    // fold each row's chunk into a chunk of per-column accumulators.
    outputs.append(accumulators.begin(), accumulators.end());
    maps.append(outputs.size(),
                role == OpRole::RowReduction ? scalarMap : chunkMap);
  } else {
    for (Value init : op.getDpsInits()) {
      auto type = cast<RankedTensorType>(chunkType(op.getTiedOpResult(
          op.getDpsInitOperand(outputs.size()))));
      outputs.push_back(tensor::EmptyOp::create(
          b, op.getLoc(), type.getShape(), type.getElementType()));
      maps.push_back(loops ? chunkMap : scalarMap);
      (void)init;
    }
  }
  SmallVector<utils::IteratorType> iterators(
      loops, role == OpRole::RowReduction ? utils::IteratorType::reduction
                                          : utils::IteratorType::parallel);
  SmallVector<Type> resultTypes;
  for (Value out : outputs)
    resultTypes.push_back(out.getType());
  auto tiled = linalg::GenericOp::create(b, op.getLoc(), resultTypes, inputs,
                                         outputs, maps, iterators);
  IRMapping bodyMap = map;
  op.getRegion().cloneInto(&tiled.getRegion(), bodyMap);
  for (auto [old, now] : llvm::zip(op.getResults(), tiled.getResults()))
    map.map(old, now);
  return SmallVector<Value>(tiled.getResults());
}

void StreamTiler::emitRowOps(int availableAt, IRMapping &map) {
  for (auto [op, role] : plan.roles)
    if (role == OpRole::RowOp && plan.passOf(op->getResult(0)) == availableAt)
      emitOp(op, role, map);
}

bool StreamTiler::isUnrolled(const PassContents &pass) const {
  auto isHeld = [&](Value v) { return kept.lookup(v).held; };
  return pass.readsColumns || llvm::any_of(pass.keptReads, isHeld) ||
         llvm::any_of(pass.keptWrites, isHeld);
}

SmallVector<Value>
StreamTiler::emitChunk(const PassContents &pass, IRMapping chunkMap,
                       ValueRange accs, int64_t chunk,
                       llvm::DenseMap<Value, SmallVector<Value>> &held) {
  if (pass.readsColumns)
    for (auto &[v, chunks] : columnChunks)
      chunkMap.map(v, chunks[chunk]);
  for (Value v : pass.keptReads) {
    const KeptValue &k = kept.lookup(v);
    chunkMap.map(v, k.held ? held[v][chunk]
                           : ReadFromFifoOp::create(b, v.getLoc(), chunkType(v),
                                                    k.fromFeed)
                                 .getResult());
  }
  for (ReadFromFifoOp read : pass.reads)
    readChunk(read, chunkMap);
  for (Operation *op : pass.streamOps)
    emitOp(cast<linalg::GenericOp>(op), OpRole::Stream, chunkMap);
  SmallVector<Value> next;
  unsigned a = 0;
  for (auto op : pass.reductions) {
    unsigned n = op.getNumDpsInits();
    next.append(emitOp(op, OpRole::RowReduction, chunkMap, accs.slice(a, n)));
    a += n;
  }
  for (WriteToFifoOp write : pass.writes)
    WriteToFifoOp::create(b, write.getLoc(), lookup(write.getValue(), chunkMap),
                          write.getSlot());
  for (Value v : pass.keptWrites) {
    const KeptValue &k = kept.lookup(v);
    if (k.held)
      held[v].push_back(chunkMap.lookup(v));
    else
      WriteToFifoOp::create(b, v.getLoc(), chunkMap.lookup(v), k.toDrain);
  }
  return next;
}

void StreamTiler::buildCompute() {
  Block *old = freshBody(compute);
  Location loc = compute.getLoc();
  IRMapping base;
  for (Operation &op : *old)
    if (isa<arith::ConstantOp>(op) &&
        !isa<RankedTensorType>(op.getResult(0).getType()))
      base.map(op.getResult(0), b.clone(op)->getResult(0));
  Value c0 = index(0), rowStep = index(rowsPerChunk), rows = index(plan.rows),
        cols = index(plan.cols), step = index(width);
  if (plan.columnMajor) {
    buildColumnMajorCompute(base, old);
    return;
  }
  // The column values, once per execution, in the feed's order.
  for (int64_t chunk = 0; chunk < plan.cols / width && !columnOps.empty();
       ++chunk) {
    IRMapping chunkMap = base;
    for (ReadFromFifoOp read : columnReads)
      readChunk(read, chunkMap);
    for (Operation *op : columnOps)
      emitOp(cast<linalg::GenericOp>(op), OpRole::Stream, chunkMap);
    for (auto &[v, chunks] : columnChunks)
      chunks.push_back(chunkMap.lookup(v));
  }
  scf::ForOp::create(
      b, loc, c0, rows, rowStep, ValueRange{},
      [&](OpBuilder &, Location, Value, ValueRange) {
        IRMapping rowMap = base;
        // The chunks of this row the unit holds, per held value.
        llvm::DenseMap<Value, SmallVector<Value>> held;
        // Values read once per row come first, as the feed sends them.
        for (ReadFromFifoOp read : plan.reads)
          if (!plan.isStreamed(read.getResult()))
            readChunk(read, rowMap);
        emitRowOps(0, rowMap);
        int passesDone = 0;
        for (PassContents &pass : passes) {
          SmallVector<Value> inits;
          for (auto op : pass.reductions)
            for (Value init : op.getDpsInits())
              inits.push_back(lookup(init, rowMap));
          // A pass that holds chunks, or reads held ones, runs its chunks one
          // after another in line, each a value of its own.
          SmallVector<Value> folded;
          if (isUnrolled(pass)) {
            folded = inits;
            for (int64_t chunk = 0; chunk < plan.cols / width; ++chunk)
              folded = emitChunk(pass, rowMap, folded, chunk, held);
          } else {
            auto chunks = scf::ForOp::create(
                b, loc, c0, cols, step, inits,
                [&](OpBuilder &, Location, Value, ValueRange accs) {
                  scf::YieldOp::create(b, loc,
                                       emitChunk(pass, rowMap, accs, 0, held));
                });
            folded = chunks.getResults();
          }
          unsigned r = 0;
          for (auto op : pass.reductions)
            for (Value result : op->getResults())
              rowMap.map(result, folded[r++]);
          if (pass.endsPass)
            emitRowOps(++passesDone, rowMap);
        }
        for (WriteToFifoOp write : plan.writes)
          if (!plan.isStreamed(write.getValue()))
            WriteToFifoOp::create(b, write.getLoc(),
                                  lookup(write.getValue(), rowMap),
                                  write.getSlot());
        scf::YieldOp::create(b, loc);
      });
  old->dropAllDefinedValueUses();
  old->erase();
}

/// Indices of the chunk at row `r`, column `c` of `buffer`.
SmallVector<Value> StreamTiler::chunkIndices(Value buffer, Value r, Value c) {
  if (cast<ShapedType>(buffer.getType()).getRank() == 1)
    return {c};
  return {r, c};
}

SmallVector<Value> StreamTiler::columnIndex(Value buffer, Value c) {
  int64_t rank = cast<ShapedType>(buffer.getType()).getRank();
  if (rank == 1)
    return {c};
  SmallVector<Value> indices(rank - 1, index(0));
  indices.push_back(c);
  return indices;
}

/// Indices of row `r` of a per-row buffer; the origin of a one-element
/// (scalar) buffer, the same for every row.
SmallVector<Value> StreamTiler::rowIndex(Value buffer, Value r) {
  auto type = cast<ShapedType>(buffer.getType());
  if (type.getNumElements() == 1)
    return SmallVector<Value>(type.getRank(), index(0));
  return {r};
}

/// Builds `prologue; for r { head(r); for each pass { for c {
/// body(pass, r, c) } }; tail(r) }`.
void StreamTiler::buildRowLoops(
    StageOp stage, function_ref<void()> prologue,
    function_ref<void(Value)> head,
    function_ref<bool(const PassContents &)> hasWork,
    function_ref<void(const PassContents &, Value, Value)> body,
    function_ref<void(Value)> tail) {
  Block *old = freshBody(stage);
  Location loc = stage.getLoc();
  Value c0 = index(0), rowStep = index(rowsPerChunk), rows = index(plan.rows),
        cols = index(plan.cols), step = index(width);
  prologue();
  scf::ForOp::create(b, loc, c0, rows, rowStep, ValueRange{},
                     [&](OpBuilder &, Location, Value r, ValueRange) {
                       head(r);
                       for (const PassContents &pass : passes) {
                         if (!hasWork(pass))
                           continue;
                         auto chunks = scf::ForOp::create(
                             b, loc, c0, cols, step, ValueRange{},
                             [&](OpBuilder &, Location, Value c, ValueRange) {
                               body(pass, r, c);
                               scf::YieldOp::create(b, loc);
                             });
                         if (pass.isPart)
                           chunks->setAttr(kPartLoopAttrName, b.getUnitAttr());
                       }
                       tail(r);
                       scf::YieldOp::create(b, loc);
                     });
  old->dropAllDefinedValueUses();
  old->erase();
}

void StreamTiler::buildFeed() {
  if (plan.columnMajor)
    return buildColumnMajorTransfers(feed, /*isFeed=*/true);
  buildRowLoops(
      feed,
      [&] {
        if (columnOps.empty())
          return;
        Location loc = feed.getLoc();
        scf::ForOp::create(
            b, loc, index(0), index(plan.cols), index(width), ValueRange{},
            [&](OpBuilder &, Location, Value c, ValueRange) {
              for (ReadFromFifoOp read : columnReads) {
                Value buffer = source.lookup(read.getSlot());
                DataTransferOp::create(b, read.getLoc(), buffer,
                                       columnIndex(buffer, c), read.getSlot(),
                                       ValueRange{});
              }
              scf::YieldOp::create(b, loc);
            });
      },
      [&](Value r) {
        for (ReadFromFifoOp read : plan.reads) {
          if (plan.isStreamed(read.getResult()))
            continue;
          Value buffer = source.lookup(read.getSlot());
          DataTransferOp::create(b, read.getLoc(), buffer, rowIndex(buffer, r),
                                 read.getSlot(), ValueRange{});
        }
      },
      [&](const PassContents &p) {
        return !p.reads.empty() || llvm::any_of(p.keptReads, [&](Value v) {
          return !kept.lookup(v).held;
        });
      },
      [&](const PassContents &pass, Value r, Value c) {
        for (Value v : pass.keptReads) {
          const KeptValue &k = kept.lookup(v);
          if (k.held)
            continue;
          DataTransferOp::create(b, v.getLoc(), k.buffer,
                                 chunkIndices(k.buffer, r, c), k.fromFeed,
                                 ValueRange{});
        }
        for (ReadFromFifoOp read : pass.reads) {
          Value buffer = source.lookup(read.getSlot());
          DataTransferOp::create(b, read.getLoc(), buffer,
                                 plan.getKind(read.getResult()) == Kind::Col
                                     ? columnIndex(buffer, c)
                                     : chunkIndices(buffer, r, c),
                                 read.getSlot(), ValueRange{});
        }
      },
      [](Value) {});
}

void StreamTiler::buildDrain() {
  if (plan.columnMajor)
    return buildColumnMajorTransfers(drain, /*isFeed=*/false);
  buildRowLoops(
      drain, [] {}, [](Value) {},
      [&](const PassContents &p) {
        return !p.writes.empty() || llvm::any_of(p.keptWrites, [&](Value v) {
          return !kept.lookup(v).held;
        });
      },
      [&](const PassContents &pass, Value r, Value c) {
        for (WriteToFifoOp write : pass.writes) {
          Value buffer = source.lookup(write.getSlot());
          DataTransferOp::create(b, write.getLoc(), write.getSlot(),
                                 ValueRange{}, buffer,
                                 chunkIndices(buffer, r, c));
        }
        for (Value v : pass.keptWrites) {
          const KeptValue &k = kept.lookup(v);
          if (k.held)
            continue;
          DataTransferOp::create(b, v.getLoc(), k.toDrain, ValueRange{},
                                 k.buffer, chunkIndices(k.buffer, r, c));
        }
      },
      [&](Value r) {
        for (WriteToFifoOp write : plan.writes) {
          if (plan.isStreamed(write.getValue()))
            continue;
          Value buffer = source.lookup(write.getSlot());
          DataTransferOp::create(b, write.getLoc(), write.getSlot(),
                                 ValueRange{}, buffer, rowIndex(buffer, r));
        }
      });
}
