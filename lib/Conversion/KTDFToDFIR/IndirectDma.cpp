//===- IndirectDma.cpp - Gathers and scatters as index-gated DMAs ---------===//
//
// This file emits the transfer between an indirect access tile (a gather
// or a scatter, `ktdp.construct_indirect_access_tile`) and its buffer as
// index-gated DMAs: per point of the variables above the run
// (IndirectTiles.h), the unit reads each index the point's coordinates
// need with `dfir.read_index` from the index view in device memory, or
// from the buffer another unit staged its box in when the moving unit
// does not read device memory (the simulator stops the run, naming the
// address and value, on an index outside the base view's extent along
// its dimension), computes the
// element's address with the subscripts' own arithmetic (floordiv, mod,
// captured tile ids and scalars), and moves the run with one `dfir.dma`.
// A run that may leave its view is clamped to it; a load first zeroes the
// run's row in the buffer, where the reference interpreter reads 0. Runs
// that follow each other in memory, or lie evenly spaced there while they
// share their indices (SpacedRuns.cpp), move as one DMA.
//
//===----------------------------------------------------------------------===//

#include "ProgramBuilder.h"

#include "ktflow/Analysis/LaunchArguments.h"
#include "ktflow/Dialect/KTDF/Transforms/IndirectTiles.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"
#include "ktflow/Support/ElementBytes.h"

#include "mlir/Dialect/Affine/Utils.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

/// One row of `size` bytes between device memory `memName` at `mem` and
/// the buffer in `bufName` at `buf`, in the direction of the transfer.
static void emitRowDma(OpBuilder &b, Location loc, bool load, Value size,
                       StringRef memName, Value mem, StringRef bufName,
                       Value buf) {
  if (load)
    dfir::DmaOp::create(b, loc, size, memName, mem, bufName, buf, Value(),
                        Value(), Value());
  else
    dfir::DmaOp::create(b, loc, size, bufName, buf, memName, mem, Value(),
                        Value(), Value());
}

FailureOr<Value> TransferEmitter::viewStart(Location loc,
                                            ktdp::ConstructMemoryViewOp view,
                                            IRMapping &map) {
  OpBuilder &b = *builder;
  std::string tensor = kernel.tensorOf(view.getOffset());
  if (tensor.empty())
    return view.emitError("view does not start at a kernel argument or a "
                          "literal address");
  Value addr = dfir::AddressOp::create(b, loc, b.getIndexType(), tensor);
  auto address = ktflow::getViewAddress(view.getOffset());
  if (!address || !address->displacement)
    return addr;
  // A view at a computed address starts `displacement` elements in.
  auto displacement = materialize(address->displacement, map);
  if (failed(displacement))
    return failure();
  int64_t esize = ktflow::bytesPerElement(
      cast<MemRefType>(view.getType()).getElementType());
  return arith::AddIOp::create(
             b, loc, addr,
             arith::MulIOp::create(b, loc, *displacement, constant(esize)))
      .getResult();
}

/// The access tile whose transfer into `buffer` staged an indirect tile's
/// indices there (RouteTransfers.cpp), looking through an export.
static ktdp::ConstructAccessTileOp
stagingTileOf(Value buffer, const llvm::DenseMap<Value, Value> &exported) {
  if (auto it = exported.find(buffer); it != exported.end())
    buffer = it->second;
  for (Operation *user : buffer.getUsers())
    if (auto t = dyn_cast<DataTransferOp>(user); t && t.getDst() == buffer)
      return t.getSrc().getDefiningOp<ktdp::ConstructAccessTileOp>();
  return {};
}

FailureOr<IndexSource>
TransferEmitter::stagedIndexSource(DataTransferOp op, Value buffer,
                                   IRMapping &map, const LaneInstance &li,
                                   Value copy) {
  OpBuilder &b = *builder;
  Location loc = op.getLoc();
  ktdp::ConstructAccessTileOp tile = stagingTileOf(buffer, kernel.exported);
  auto box = tile ? ktdp::getBoundingBox(tile.getAccessTileSet(), {})
                  : FailureOr<ktdp::IntegerBox>(failure());
  if (failed(box))
    return op.emitError("a staged index buffer that no access tile fills");
  auto anchor =
      expandAnchor(b, loc, tile, [&](Value v) { return materialize(v, map); });
  if (failed(anchor))
    return failure();
  IndexSource source;
  source.origin = std::move(*anchor);
  SmallVector<int64_t> extents = box->getExtents();
  source.strides.assign(extents.size(), 1);
  for (int64_t d = static_cast<int64_t>(extents.size()) - 2; d >= 0; --d)
    source.strides[d] = source.strides[d + 1] * extents[d + 1];
  const PipelineInfo &info = kernel.infoOf(op->getParentOfType<PipelineOp>());
  auto [base, bytes] = kernel.bufferOf(info, buffer);
  Value c = copyOf(buffer, copy, li);
  source.base = arith::AddIOp::create(
      b, loc,
      dfir::AddressOp::create(b, loc, b.getIndexType(),
                              KernelLowering::perLane(base, li)),
      arith::MulIOp::create(b, loc, c, constant(bytes)));
  source.memory = kernel.memoryOf(
      getBufferMemoryKind(cast<MemRefType>(buffer.getType())), li);
  return source;
}

LogicalResult TransferEmitter::emitIndirectDma(DataTransferOp op,
                                               IRMapping &map,
                                               const LaneInstance &li,
                                               Value copy) {
  OpBuilder &b = *builder;
  Location loc = op.getLoc();
  bool load = isa<ktdp::AccessTileType>(op.getSrc().getType());
  Value buffer = load ? op.getDst() : op.getSrc();
  auto tile = (load ? op.getSrc() : op.getDst())
                  .getDefiningOp<ktdp::ConstructIndirectAccessTileOp>();
  if (!isa<MemRefType>(buffer.getType()))
    return op.emitError("moving an indirect access tile straight into a "
                        "FIFO is not supported yet");
  if (op.getRows() || !op.getSrcIndices().empty() ||
      !op.getDstIndices().empty())
    return op.emitError("an indirect access tile moves whole, not in rows "
                        "or chunks");
  // Without staged indices the unit reads them from device memory: a
  // store unit that only writes it (sample_device's, spyre_like's) needs
  // them staged (ktdf-route-transfers does).
  const ktflow::sched::ScheduleTarget &target = kernel.target;
  auto stage = op->getParentOfType<StageOp>();
  std::optional<ktflow::device::NodeId> node =
      stage && stage.getUnit() ? target.findNode(*stage.getUnit())
                               : std::nullopt;
  if (node && op.getStagedIndices().empty() &&
      !target.readsMemory(*node, target.getGlobalMemory()))
    return op.emitError("the unit moving this ")
           << (load ? "gather" : "scatter") << ", '" << *stage.getUnit()
           << "', does not read device memory, where the indices are, and "
              "they are not staged";
  std::string why;
  FailureOr<IndirectTilePlan> plan = planIndirectTile(tile, why);
  if (failed(plan))
    return tile.emitError("the scheduler cannot move this indirect access "
                          "tile yet: ")
           << why;
  auto base = viewStart(loc, plan->base, map);
  if (failed(base))
    return failure();
  SmallVector<IndexSource> indexSources;
  for (auto [k, view] : llvm::enumerate(plan->indexViews)) {
    if (!op.getStagedIndices().empty()) {
      auto source =
          stagedIndexSource(op, op.getStagedIndices()[k], map, li, copy);
      if (failed(source))
        return failure();
      indexSources.push_back(std::move(*source));
      continue;
    }
    auto start = viewStart(loc, view, map);
    if (failed(start))
      return failure();
    IndexSource source;
    source.memory = kernel.globalMemory;
    source.base = *start;
    source.strides.assign(view.getStaticStrides().begin(),
                          view.getStaticStrides().end());
    indexSources.push_back(std::move(source));
  }
  SmallVector<Value> dims;
  for (Value v : tile.getCapturedVariables()) {
    auto m = materialize(v, map);
    if (failed(m))
      return failure();
    dims.push_back(*m);
  }

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

  auto memref = cast<MemRefType>(plan->base.getType());
  int64_t esize = ktflow::bytesPerElement(memref.getElementType());
  int64_t run = plan->runLength;
  size_t looped = plan->extents.size() - (run > 1 ? 1 : 0);
  int64_t points = 1;
  for (size_t v = 0; v < looped; ++v)
    points *= plan->extents[v];

  // Each index's last address and value ride along the loop: consecutive
  // runs that need the same index (a page's 16 rows) read it once.
  SmallVector<Value> init;
  for (size_t k = 0; k < plan->indexViews.size(); ++k)
    init.append({constant(-1), constant(0)});
  // Runs that follow each other in device memory (a page's rows) move as
  // one DMA: the pending run's memory and buffer addresses and bytes ride
  // along too, and a run that does not extend it moves it first. A DMA
  // pays its route's latency once, so 64 rows of 256 bytes in one DMA
  // take a 64th of the time per row that 64 DMAs do on an engine with 8
  // in flight. A run that may leave its view is clamped and moves alone.
  // A permuted order lands runs apart in the buffer: no two extend.
  bool coalesce = !plan->runMayLeave && plan->identityOrder();
  // The innermost variable above the run that takes more than one value,
  // where it reads no index: the runs of its steps share their indices and
  // lie evenly spaced in memory (a page's rows of one head in a [page,
  // token, head, dim] cache).
  std::optional<size_t> spacedVar;
  for (size_t v = looped; v-- > 0;)
    if (plan->extents[v] > 1) {
      if (!readsIndexAt(tile, tile.getCapturedVariables().size() + v))
        spacedVar = v;
      break;
    }
  // Such runs move as the rows of one strided DMA, whose rows and memory
  // stride ride along too.
  bool spaced = coalesce && spacedVar;
  // A permuted tile's runs of such steps (a K^T page's tokens) lie evenly
  // spaced in the buffer too: they move as the planes of one DMA, whose
  // memory address and plane stride ride along as above (the buffer's
  // plane stride is that variable's).
  std::optional<size_t> planeVar =
      !plan->identityOrder() && run > 1 ? spacedVar : std::nullopt;
  int64_t runBytes = run * esize;
  size_t pending = init.size();
  if (coalesce)
    init.append({constant(-1), constant(0), constant(0)});
  if (spaced)
    init.append({constant(0), constant(0)});
  if (planeVar)
    init.append({constant(0), constant(0), constant(0), constant(0)});
  auto dma = [&](Value size, Value mem, Value buf) {
    emitRowDma(b, loc, load, size, memName, mem, bufName, buf);
  };
  // The pending rows, each `size` bytes, `stride` bytes apart in memory
  // and `size` apart in the buffer (which holds the runs in point order).
  auto rowsDma = [&](Value size, Value mem, Value buf, Value rows,
                     Value stride) {
    if (load)
      dfir::DmaOp::create(b, loc, size, memName, mem, bufName, buf, rows,
                          stride, size);
    else
      dfir::DmaOp::create(b, loc, size, bufName, buf, memName, mem, rows, size,
                          stride);
  };
  // The pending runs as planes of `run` one-element rows, each row's
  // element consecutive in memory and a column's stride apart in the
  // buffer.
  auto planesDma = [&](Value mem, Value buf, Value count, Value stride) {
    Value next = constant(esize), rows = constant(run),
          apart = constant(plan->bufferStrides.back() * esize),
          bufPlane = constant(plan->bufferStrides[*planeVar] * esize);
    if (load)
      dfir::DmaOp::create(b, loc, next, memName, mem, bufName, buf, rows, next,
                          apart, count, stride, bufPlane);
    else
      dfir::DmaOp::create(b, loc, next, bufName, buf, memName, mem, rows, apart,
                          next, count, bufPlane, stride);
  };
  auto loop = scf::ForOp::create(
      b, loc, constant(0), constant(points), constant(1), init,
      [&](OpBuilder &, Location, Value p, ValueRange last) {
        // The point's variables, the last fastest (0 for a run's).
        SmallVector<Value> domain(dims);
        SmallVector<Value> vars(plan->extents.size(), constant(0));
        Value rest = p;
        for (int64_t v = static_cast<int64_t>(looped) - 1; v >= 0; --v) {
          vars[v] =
              arith::RemUIOp::create(b, loc, rest, constant(plan->extents[v]));
          rest =
              arith::DivUIOp::create(b, loc, rest, constant(plan->extents[v]));
        }
        domain.append(vars);
        SmallVector<Value> next;
        auto [offset, start] =
            emitIndirectPoint(loc, *plan, domain, indexSources, last, next);
        Value memAt = arith::AddIOp::create(
            b, loc, *base,
            arith::MulIOp::create(b, loc, offset, constant(esize)));
        Value bufOffset = p;
        int64_t unitBytes = runBytes;
        if (!plan->identityOrder()) {
          // The point's place in the permuted tile, in elements.
          bufOffset = constant(0);
          for (size_t v = 0; v < looped; ++v)
            bufOffset = arith::AddIOp::create(
                b, loc, bufOffset,
                arith::MulIOp::create(b, loc, vars[v],
                                      constant(plan->bufferStrides[v])));
          unitBytes = esize;
        }
        Value bufAt = arith::AddIOp::create(
            b, loc, bufAddr,
            arith::MulIOp::create(b, loc, bufOffset, constant(unitBytes)));
        if (planeVar) {
          next.append(extendPlanes(
              loc, last.drop_front(pending), memAt, bufAt, next, last,
              plan->bufferStrides[*planeVar] * esize, planesDma));
          scf::YieldOp::create(b, loc, next);
          return;
        }
        if (!coalesce) {
          emitIndirectRun(loc, *plan, load, memName, memAt, bufName, bufAt,
                          start);
          scf::YieldOp::create(b, loc, next);
          return;
        }
        Value pendMem = last[pending], pendBuf = last[pending + 1],
              pendLen = last[pending + 2];
        if (spaced) {
          SmallVector<Value> extended =
              extendSpaced(loc, last.drop_front(pending), memAt, bufAt, next,
                           last, runBytes, rowsDma);
          next.append(extended);
          scf::YieldOp::create(b, loc, next);
          return;
        }
        // The buffer holds the runs in point order, so a run extends the
        // pending one when it starts where that one ends in memory.
        Value extends = arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::eq, memAt,
            arith::AddIOp::create(b, loc, pendMem, pendLen));
        // Nothing is pending before the first run (its address, -1,
        // extends to no run).
        Value flush = arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::sgt,
            arith::SelectOp::create(b, loc, extends, constant(0), pendLen),
            constant(0));
        emitIf(flush, [&] { dma(pendLen, pendMem, pendBuf); });
        next.push_back(
            arith::SelectOp::create(b, loc, extends, pendMem, memAt));
        next.push_back(
            arith::SelectOp::create(b, loc, extends, pendBuf, bufAt));
        next.push_back(arith::SelectOp::create(
            b, loc, extends,
            arith::AddIOp::create(b, loc, pendLen, constant(runBytes)),
            constant(runBytes)));
        scf::YieldOp::create(b, loc, next);
      });
  markIndexReads(loop, *plan, indexSources, !op.getStagedIndices().empty());
  if (spaced)
    rowsDma(loop.getResult(pending + 2), loop.getResult(pending),
            loop.getResult(pending + 1), loop.getResult(pending + 3),
            loop.getResult(pending + 4));
  else if (coalesce)
    dma(loop.getResult(pending + 2), loop.getResult(pending),
        loop.getResult(pending + 1));
  else if (planeVar)
    planesDma(loop.getResult(pending), loop.getResult(pending + 1),
              loop.getResult(pending + 2), loop.getResult(pending + 3));
  return success();
}

std::pair<Value, Value>
TransferEmitter::emitIndirectPoint(Location loc, const IndirectTilePlan &plan,
                                   ValueRange domain,
                                   ArrayRef<IndexSource> indexSources,
                                   ValueRange last, SmallVector<Value> &next) {
  OpBuilder &b = *builder;
  ktdp::ConstructIndirectAccessTileOp tile = plan.tile;
  ktdp::ConstructMemoryViewOp base = plan.base;
  ArrayRef<int64_t> strides = base.getStaticStrides();
  auto expand = [&](AffineExpr e) {
    return affine::expandAffineExpr(b, loc, e, domain, ValueRange{});
  };
  Value offset = constant(0), start;
  unsigned k = 0;
  for (auto [j, mapAttr, kind] : llvm::enumerate(
           tile.getPerDimSubscriptMaps(), tile.getPerDimSubscriptKinds())) {
    AffineMap m = cast<AffineMapAttr>(mapAttr).getValue();
    Value coord;
    if (!cast<BoolAttr>(kind).getValue()) {
      coord = expand(m.getResult(0));
    } else {
      // The index's address in its view (or in the box of it staged in a
      // buffer), then the index itself, read unless the previous point
      // read the same one.
      const IndexSource &source = indexSources[k];
      ktdp::ConstructMemoryViewOp view = plan.indexViews[k];
      Type elem = cast<MemRefType>(view.getType()).getElementType();
      Value at = constant(0);
      for (auto [r, e] : llvm::enumerate(m.getResults())) {
        Value coord = expand(e);
        if (!source.origin.empty())
          coord = arith::SubIOp::create(b, loc, coord, source.origin[r]);
        at = arith::AddIOp::create(
            b, loc, at,
            arith::MulIOp::create(b, loc, coord, constant(source.strides[r])));
      }
      at = arith::AddIOp::create(
          b, loc, source.base,
          arith::MulIOp::create(b, loc, at,
                                constant(ktflow::bytesPerElement(elem))));
      Value same = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, at,
                                         last[2 * k]);
      Value trips =
          arith::SelectOp::create(b, loc, same, constant(0), constant(1));
      Value bound = constant(plan.baseExtents[j]);
      auto read = scf::ForOp::create(
          b, loc, constant(0), trips, constant(1), ValueRange{last[2 * k + 1]},
          [&](OpBuilder &, Location, Value, ValueRange) {
            Value v = dfir::ReadIndexOp::create(b, loc, b.getIndexType(),
                                                source.memory, at, elem, bound);
            scf::YieldOp::create(b, loc, v);
          });
      coord = read.getResult(0);
      next.append({at, coord});
      ++k;
    }
    if (j + 1 == strides.size())
      start = coord;
    offset = arith::AddIOp::create(
        b, loc, offset,
        arith::MulIOp::create(b, loc, coord, constant(strides[j])));
  }
  return {offset, start};
}

void TransferEmitter::emitIndirectRun(Location loc,
                                      const IndirectTilePlan &plan, bool load,
                                      StringRef memName, Value memAt,
                                      StringRef bufName, Value bufAt,
                                      Value start) {
  OpBuilder &b = *builder;
  ktdp::ConstructMemoryViewOp base = plan.base;
  int64_t esize = ktflow::bytesPerElement(
      cast<MemRefType>(base.getType()).getElementType());
  int64_t run = plan.runLength;
  auto dma = [&](Value size, Value mem, Value buf) {
    emitRowDma(b, loc, load, size, memName, mem, bufName, buf);
  };
  if (!plan.identityOrder()) {
    // The run's elements, consecutive in memory, land bufferStrides.back()
    // elements apart in the buffer (planIndirectTile keeps such runs
    // inside their view).
    Value apart = constant(plan.bufferStrides.back() * esize);
    Value next = constant(esize);
    if (load)
      dfir::DmaOp::create(b, loc, next, memName, memAt, bufName, bufAt,
                          constant(run), next, apart);
    else
      dfir::DmaOp::create(b, loc, next, bufName, bufAt, memName, memAt,
                          constant(run), apart, next);
    return;
  }
  if (!plan.runMayLeave) {
    dma(constant(run * esize), memAt, bufAt);
    return;
  }
  // The run's coordinates [start, start + run) clamped to [0, extent).
  Value lo = arith::MaxSIOp::create(b, loc, start, constant(0));
  Value hi = arith::MinSIOp::create(
      b, loc, arith::AddIOp::create(b, loc, start, constant(run)),
      constant(plan.baseExtents.back()));
  Value count = arith::SubIOp::create(b, loc, hi, lo);
  if (load)
    dfir::FillOp::create(b, loc, constant(run * esize), bufName, bufAt, Value(),
                         Value());
  Value skip = arith::MulIOp::create(
      b, loc, arith::SubIOp::create(b, loc, lo, start), constant(esize));
  emitIf(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, count,
                               constant(0)),
         [&] {
           dma(arith::MulIOp::create(b, loc, count, constant(esize)),
               arith::AddIOp::create(b, loc, memAt, skip),
               arith::AddIOp::create(b, loc, bufAt, skip));
         });
}
