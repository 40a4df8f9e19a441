//===- UnitProgram.cpp - One unit instance's DataflowIR program -----------===//
//
// This file builds the program of one unit instance. The unit walks the
// grid points of every lane instance it serves (interleaved point by point
// when it serves several lanes), and for each point replays the part of
// the kernel's control flow that contains its stages: loops are cloned,
// index arithmetic is cloned on demand where a transfer needs it, and each
// of its stages becomes synchronisation plus transfers or compute. The
// copy of an N-buffered resource used by an execution of a pipeline is its
// execution count in the lane, modulo N.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

Value ProgramBuilder::constant(int64_t v) {
  return arith::ConstantIndexOp::create(*builder, builder->getUnknownLoc(), v);
}

bool ProgramBuilder::runsIn(Operation *op, const LaneInstance &li) {
  auto it = work.find(&li);
  if (it == work.end())
    return false;
  bool found = false;
  op->walk([&](StageOp stage) {
    if (llvm::is_contained(it->second, stage))
      found = true;
  });
  // A unit also passes the pipelines whose scratchpad writes it waits for.
  op->walk([&](PipelineOp pipeline) {
    for (const Channel &ch : kernel.infoOf(pipeline).regionChannels)
      if (kernel.unitOf(ch.to, li) == unit)
        found = true;
  });
  return found;
}

FailureOr<Value> ProgramBuilder::materialize(Value v, IRMapping &map) {
  if (Value mapped = map.lookupOrNull(v))
    return mapped;
  OpBuilder &b = *builder;
  Operation *def = v.getDefiningOp();
  if (!def)
    return emitError(v.getLoc(), "unit '")
           << unit << "' cannot compute this block argument";
  if (auto extract = dyn_cast<ktdp::RuntimeArgExtractOp>(def)) {
    auto arg = dyn_cast<BlockArgument>(extract->getOperand(0));
    auto it = arg ? kernel.runtimeSymbols.find(arg) : kernel.runtimeSymbols.end();
    if (it == kernel.runtimeSymbols.end())
      return def->emitError("runtime argument is not a kernel argument");
    Value value = dfir::RuntimeValueOp::create(b, def->getLoc(),
                                               b.getIndexType(), it->second);
    map.map(v, value);
    return value;
  }
  if (auto apply = dyn_cast<affine::AffineApplyOp>(def)) {
    SmallVector<Value> operands;
    for (Value operand : apply.getOperands()) {
      auto m = materialize(operand, map);
      if (failed(m))
        return failure();
      operands.push_back(*m);
    }
    auto expanded = affine::expandAffineMap(b, def->getLoc(),
                                            apply.getAffineMap(), operands);
    if (!expanded)
      return def->emitError("cannot expand this affine map");
    map.map(v, (*expanded)[0]);
    return (*expanded)[0];
  }
  bool scalar = llvm::all_of(def->getResultTypes(), [](Type t) {
    return t.isIntOrIndex();
  });
  if (def->getDialect() && def->getDialect()->getNamespace() == "arith" &&
      scalar && def->getNumRegions() == 0) {
    for (Value operand : def->getOperands())
      if (failed(materialize(operand, map)))
        return failure();
    Operation *clone = b.clone(*def, map);
    return clone->getResult(cast<OpResult>(v).getResultNumber());
  }
  return def->emitError("unit '")
         << unit << "' cannot compute '" << def->getName()
         << "' (only index arithmetic, constants and runtime arguments)";
}

void ProgramBuilder::emitIf(Value condition, function_ref<void()> body) {
  OpBuilder &b = *builder;
  Location loc = b.getUnknownLoc();
  Value c0 = constant(0), c1 = constant(1);
  Value n = arith::SelectOp::create(b, loc, condition, c1, c0);
  scf::ForOp::create(b, loc, c0, n, c1, ValueRange{},
                     [&](OpBuilder &, Location, Value, ValueRange) {
    body();
    scf::YieldOp::create(b, loc);
  });
}

LogicalResult ProgramBuilder::build(OpBuilder &b) {
  builder = &b;
  Location loc = kernel.func.getLoc();
  ArrayRef<int64_t> extents = kernel.parallel.getExtents();
  int64_t maxCount = 0;
  for (auto &[li, stages] : work)
    maxCount = std::max(maxCount, li->count);
  Value c0 = constant(0), c1 = constant(1);
  // Per lane, one execution counter per pipeline, carried through every
  // loop: the copy of a buffer an execution uses, and how many tokens are
  // left to take at the end, follow from it.
  size_t numPipelines = kernel.pipelines.size();
  SmallVector<Value> zeros(work.size() * numPipelines, c0);
  LogicalResult result = success();
  auto points = scf::ForOp::create(
      b, loc, c0, constant(maxCount), c1, zeros,
      [&](OpBuilder &, Location, Value j, ValueRange counters) {
    SmallVector<Value> next;
    for (auto [k, entry] : llvm::enumerate(work)) {
      const LaneInstance *li = entry.first;
      ValueRange mine = counters.slice(k * numPipelines, numPipelines);
      auto body = [&](ValueRange executions) -> SmallVector<Value> {
        // The grid point, first dimension slowest.
        Value t = arith::AddIOp::create(b, loc, constant(li->start), j);
        IRMapping map;
        int64_t stride = kernel.parallel.getNumPoints();
        for (auto [d, extent] : llvm::enumerate(extents)) {
          stride /= extent;
          Value q = arith::DivUIOp::create(b, loc, t, constant(stride));
          map.map(kernel.parallel.getBody().getArgument(d),
                  arith::RemUIOp::create(b, loc, q, constant(extent)));
        }
        auto after = emitBlock(kernel.parallel.getBody().front(), map,
                               executions, *li);
        if (failed(after)) {
          result = failure();
          return SmallVector<Value>(executions);
        }
        return *after;
      };
      if (li->count == maxCount) {
        next.append(body(mine));
        continue;
      }
      // Lanes with fewer points skip the last rounds: a loop of 0 or 1.
      Value active = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           j, constant(li->count));
      Value n = arith::SelectOp::create(b, loc, active, c1, c0);
      auto guard = scf::ForOp::create(
          b, loc, c0, n, c1, mine,
          [&](OpBuilder &, Location, Value, ValueRange args) {
        scf::YieldOp::create(b, loc, body(args));
      });
      next.append(guard.getResults().begin(), guard.getResults().end());
    }
    scf::YieldOp::create(b, loc, next);
  });
  if (failed(result))
    return failure();

  // Take the tokens of the last executions that handed buffers back.
  for (auto [k, entry] : llvm::enumerate(work)) {
    const LaneInstance *li = entry.first;
    for (const PipelineInfo &info : kernel.pipelines) {
      Value total = points.getResult(k * numPipelines + info.index);
      for (const Channel &ch : info.channels) {
        if (ch.copies == 0 || kernel.unitOf(ch.to, *li) != unit)
          continue;
        Value n = arith::MinUIOp::create(b, loc, total, constant(ch.copies));
        scf::ForOp::create(b, loc, c0, n, c1, ValueRange{},
                           [&](OpBuilder &, Location, Value, ValueRange) {
          dfir::SyncRecvOp::create(b, loc,
                                   KernelLowering::perLane(ch.base, *li));
          scf::YieldOp::create(b, loc);
        });
      }
    }
  }
  return success();
}

FailureOr<SmallVector<Value>>
ProgramBuilder::emitBlock(Block &block, IRMapping map,
                          ValueRange executionsIn, const LaneInstance &li) {
  OpBuilder &b = *builder;
  SmallVector<Value> executions(executionsIn);
  for (Operation &op : block) {
    if (!runsIn(&op, li))
      continue;
    if (auto pipeline = dyn_cast<PipelineOp>(op)) {
      Value &count = executions[kernel.infoOf(pipeline).index];
      if (failed(emitPipeline(pipeline, map, count, li)))
        return failure();
      count = arith::AddIOp::create(b, pipeline.getLoc(), count, constant(1));
      continue;
    }
    auto loop = dyn_cast<scf::ForOp>(op);
    if (!loop)
      return op.emitError("unit '") << unit << "' cannot run '"
                                    << op.getName() << "' around its stages";
    auto lb = materialize(loop.getLowerBound(), map),
         ub = materialize(loop.getUpperBound(), map),
         step = materialize(loop.getStep(), map);
    if (failed(lb) || failed(ub) || failed(step))
      return failure();
    Location loc = loop.getLoc();
    LogicalResult result = success();
    auto cloned = scf::ForOp::create(
        b, loc, *lb, *ub, *step, executions,
        [&](OpBuilder &, Location, Value iv, ValueRange args) {
      IRMapping inner = map;
      inner.map(loop.getInductionVar(), iv);
      auto after = emitBlock(*loop.getBody(), inner, args, li);
      if (failed(after))
        result = failure();
      scf::YieldOp::create(b, loc,
                           succeeded(after) ? ValueRange(*after) : args);
    });
    if (failed(result))
      return failure();
    executions.assign(cloned.getResults().begin(), cloned.getResults().end());
  }
  return executions;
}

LogicalResult ProgramBuilder::emitPipeline(PipelineOp pipeline, IRMapping &map,
                                           Value execution,
                                           const LaneInstance &li) {
  OpBuilder &b = *builder;
  Location loc = pipeline.getLoc();
  const PipelineInfo &info = kernel.infoOf(pipeline);
  Value copy = info.copies > 1
                   ? arith::RemUIOp::create(b, loc, execution,
                                            constant(info.copies))
                         .getResult()
                   : constant(0);
  for (StageOp stage : work[&li]) {
    if (stage->getParentOp() != pipeline)
      continue;
    for (const Channel &ch : info.channels) {
      if (ch.to != stage)
        continue;
      std::string sync = KernelLowering::perLane(ch.base, li);
      if (ch.copies == 0) {
        dfir::SyncRecvOp::create(b, loc, sync);
        continue;
      }
      // The first N executions find their copy free.
      Value reuse = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                          execution, constant(ch.copies));
      emitIf(reuse, [&] { dfir::SyncRecvOp::create(b, loc, sync); });
    }
    IRMapping stageMap = map;
    if (stage.isApplicable(UnitRole::vector_compute)) {
      auto fifoOf = [&](Value slot) { return kernel.fifoOf(slot, li); };
      if (failed(lowerComputeStage(b, stage, stageMap, fifoOf)))
        return failure();
    } else {
      // Transfer stages: loops with constant bounds around transfers.
      std::function<LogicalResult(Block &, IRMapping &)> walk =
          [&](Block &block, IRMapping &m) -> LogicalResult {
        for (Operation &op : block) {
          if (auto transfer = dyn_cast<DataTransferOp>(op)) {
            if (failed(emitTransfer(transfer, m, li, copy)))
              return failure();
          } else if (auto loop = dyn_cast<scf::ForOp>(op)) {
            auto lb = materialize(loop.getLowerBound(), m),
                 ub = materialize(loop.getUpperBound(), m),
                 step = materialize(loop.getStep(), m);
            if (failed(lb) || failed(ub) || failed(step))
              return failure();
            LogicalResult r = success();
            scf::ForOp::create(b, loop.getLoc(), *lb, *ub, *step, ValueRange{},
                               [&](OpBuilder &, Location l, Value iv,
                                   ValueRange) {
              IRMapping inner = m;
              inner.map(loop.getInductionVar(), iv);
              r = walk(*loop.getBody(), inner);
              scf::YieldOp::create(b, l);
            });
            if (failed(r))
              return failure();
          } else if (!isa<arith::ConstantOp, scf::YieldOp>(op)) {
            return op.emitError("'")
                   << op.getName() << "' is not supported in a transfer stage";
          }
        }
        return success();
      };
      if (failed(walk(stage.getBody().front(), stageMap)))
        return failure();
    }
    for (const Channel &ch : info.channels)
      if (ch.from == stage)
        dfir::SyncSendOp::create(b, loc,
                                 KernelLowering::perLane(ch.base, li));
    for (const Channel &ch : info.regionChannels)
      if (ch.from == stage)
        dfir::SyncSendOp::create(b, loc,
                                 KernelLowering::perLane(ch.base, li));
  }
  for (const Channel &ch : info.regionChannels)
    if (kernel.unitOf(ch.to, li) == unit)
      dfir::SyncRecvOp::create(b, loc, KernelLowering::perLane(ch.base, li));
  return success();
}

/// Bytes of one element of a buffer, slot or view.
static int64_t elementBytes(Type type) {
  return (type.getIntOrFloatBitWidth() + 7) / 8;
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
    auto [base, bytes] = info.buffers.lookup(buffer);
    Value addr = dfir::AddressOp::create(b, loc, b.getIndexType(),
                                         KernelLowering::perLane(base, li));
    Value copyOffset = arith::MulIOp::create(b, loc, copy, constant(bytes));
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

LogicalResult ProgramBuilder::emitDma(DataTransferOp op, IRMapping &map,
                                      const LaneInstance &li, Value copy) {
  OpBuilder &b = *builder;
  Location loc = op.getLoc();
  bool load = isa<ktdp::AccessTileType>(op.getSrc().getType());
  Value tileValue = load ? op.getSrc() : op.getDst();
  Value buffer = load ? op.getDst() : op.getSrc();
  if (!isa<MemRefType>(buffer.getType()))
    return op.emitError("moving an access tile straight into a FIFO is not "
                        "supported yet");
  auto tile = tileValue.getDefiningOp<ktdp::ConstructAccessTileOp>();
  auto view = tile ? tile.getBase().getDefiningOp<ktdp::ConstructMemoryViewOp>()
                   : nullptr;
  if (!view)
    return op.emitError("access tile is not built on a memory view");
  std::string tensor = kernel.tensorOf(view.getOffset());
  if (tensor.empty())
    return view.emitError("view does not start at a kernel argument or a "
                          "literal address");
  auto memref = cast<MemRefType>(view.getType());
  int64_t esize = elementBytes(memref.getElementType());
  ArrayRef<int64_t> strides = view.getStaticStrides();

  // The anchor coordinate and the element offset of the tile's origin.
  SmallVector<Value> operands;
  for (Value index : tile.getIndices()) {
    auto v = materialize(index, map);
    if (failed(v))
      return failure();
    operands.push_back(*v);
  }
  auto anchor = affine::expandAffineMap(b, loc, tile.getBaseMap(), operands);
  if (!anchor)
    return tile.emitError("cannot expand the anchor of this access tile");
  Value offset = constant(0);
  for (auto [coord, stride] : llvm::zip(*anchor, strides))
    offset = arith::AddIOp::create(
        b, loc, offset, arith::MulIOp::create(b, loc, coord, constant(stride)));
  Value tensorAddr =
      dfir::AddressOp::create(b, loc, b.getIndexType(), tensor);
  Value memAddr = arith::AddIOp::create(
      b, loc, tensorAddr,
      arith::MulIOp::create(b, loc, offset, constant(esize)));

  auto box = ktdp::getBoundingBox(tile.getAccessTileSet(), {});
  if (failed(box))
    return tile.emitError("access tile set is unbounded");
  SmallVector<int64_t> extents = box->getExtents();
  const PipelineInfo &info = kernel.infoOf(op->getParentOfType<PipelineOp>());
  auto [bufBase, bufBytes] = info.buffers.lookup(buffer);
  Value bufAddr = arith::AddIOp::create(
      b, loc,
      dfir::AddressOp::create(b, loc, b.getIndexType(),
                              KernelLowering::perLane(bufBase, li)),
      arith::MulIOp::create(b, loc, copy, constant(bufBytes)));
  std::string memName = kernel.globalMemory;
  std::string bufName = kernel.memoryOf(
      getBufferMemoryKind(cast<MemRefType>(buffer.getType())), li);

  size_t rank = extents.size();
  if (rank == 0) {
    // A single element.
    if (load)
      dfir::DmaOp::create(b, loc, constant(esize), memName, memAddr, bufName,
                          bufAddr, Value(), Value(), Value());
    else
      dfir::DmaOp::create(b, loc, constant(esize), bufName, bufAddr, memName,
                          memAddr, Value(), Value(), Value());
    return success();
  }
  // Rows of the innermost dimension; dimensions above the last two become
  // loops. Contiguous rows merge into one transfer.
  int64_t rowBytes = extents.back() * esize;
  int64_t rows = rank >= 2 ? extents[rank - 2] : 1;
  int64_t rowStride = rank >= 2 ? strides[rank - 2] * esize : rowBytes;
  int64_t outer = 1;
  for (size_t d = 0; d + 2 < rank; ++d)
    outer *= extents[d];

  if (rank == 2) {
    // Masking: rows of the tile past the view's first dimension are neither
    // read nor written (a load leaves them undefined; the computation of
    // each row is independent, so no stored value depends on them).
    OpFoldResult size0 = view.getMixedSizes().front();
    Value extent;
    if (auto attr = dyn_cast<Attribute>(size0)) {
      extent = constant(cast<IntegerAttr>(attr).getInt());
    } else {
      auto v = materialize(cast<Value>(size0), map);
      if (failed(v))
        return failure();
      extent = *v;
    }
    Value left = arith::SubIOp::create(b, loc, extent, (*anchor)[0]);
    Value valid = arith::MaxSIOp::create(
        b, loc, arith::MinSIOp::create(b, loc, left, constant(rows)),
        constant(0));
    Value any = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, valid,
                                      constant(0));
    emitIf(any, [&] {
      Value size = constant(rowBytes), nRows, s1, s2;
      if (rowStride == rowBytes) {
        size = arith::MulIOp::create(b, loc, valid, size);
      } else {
        nRows = valid;
        s1 = constant(load ? rowStride : rowBytes);
        s2 = constant(load ? rowBytes : rowStride);
      }
      if (load)
        dfir::DmaOp::create(b, loc, size, memName, memAddr, bufName, bufAddr,
                            nRows, s1, s2);
      else
        dfir::DmaOp::create(b, loc, size, bufName, bufAddr, memName, memAddr,
                            nRows, s1, s2);
    });
    return success();
  }

  if (rows > 1 && rowStride == rowBytes) {
    rowBytes *= rows;
    rows = 1;
  }
  auto emitRows = [&](Value memAt, Value bufAt) {
    Value size = constant(rowBytes);
    Value nRows, s1, s2;
    if (rows > 1) {
      nRows = constant(rows);
      s1 = constant(load ? rowStride : rowBytes);
      s2 = constant(load ? rowBytes : rowStride);
    }
    if (load)
      dfir::DmaOp::create(b, loc, size, memName, memAt, bufName, bufAt, nRows,
                          s1, s2);
    else
      dfir::DmaOp::create(b, loc, size, bufName, bufAt, memName, memAt, nRows,
                          s1, s2);
  };
  if (outer == 1) {
    emitRows(memAddr, bufAddr);
    return success();
  }
  // Outer dimensions: one 2-d transfer per point, row-major.
  int64_t planeBytes = extents[rank - 2] * extents[rank - 1] * esize;
  Value c0 = constant(0), c1 = constant(1);
  scf::ForOp::create(b, loc, c0, constant(outer), c1, ValueRange{},
                     [&](OpBuilder &, Location, Value o, ValueRange) {
    Value memOffset = constant(0), rest = o;
    for (int64_t d = static_cast<int64_t>(rank) - 3; d >= 0; --d) {
      Value coord = arith::RemUIOp::create(b, loc, rest, constant(extents[d]));
      rest = arith::DivUIOp::create(b, loc, rest, constant(extents[d]));
      memOffset = arith::AddIOp::create(
          b, loc, memOffset,
          arith::MulIOp::create(b, loc, coord, constant(strides[d] * esize)));
    }
    emitRows(arith::AddIOp::create(b, loc, memAddr, memOffset),
             arith::AddIOp::create(
                 b, loc, bufAddr,
                 arith::MulIOp::create(b, loc, o, constant(planeBytes))));
    scf::YieldOp::create(b, loc);
  });
  return success();
}

FailureOr<std::pair<Value, std::string>>
ProgramBuilder::tileAddress(Value tileValue, ValueRange indices,
                            IRMapping &map, const LaneInstance &li) {
  OpBuilder &b = *builder;
  auto tile = tileValue.getDefiningOp<ktdp::ConstructAccessTileOp>();
  auto view = tile ? tile.getBase().getDefiningOp<ktdp::ConstructMemoryViewOp>()
                   : nullptr;
  if (!view)
    return emitError(tileValue.getLoc(),
                     "access tile is not built on a memory view");
  Location loc = tile.getLoc();
  auto memref = cast<MemRefType>(view.getType());
  int64_t esize = elementBytes(memref.getElementType());
  ArrayRef<int64_t> strides = view.getStaticStrides();
  SmallVector<Value> operands;
  for (Value index : tile.getIndices()) {
    auto v = materialize(index, map);
    if (failed(v))
      return failure();
    operands.push_back(*v);
  }
  auto anchor = affine::expandAffineMap(b, loc, tile.getBaseMap(), operands);
  if (!anchor || anchor->size() != strides.size())
    return tile.emitError("cannot expand the anchor of this access tile");
  Value offset = constant(0);
  for (auto [d, coord] : llvm::enumerate(*anchor)) {
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
  Value bytes = arith::MulIOp::create(b, loc, offset, constant(esize));
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
