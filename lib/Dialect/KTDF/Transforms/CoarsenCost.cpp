//===- CoarsenCost.cpp - The cost query of --ktdf-coarsen ----------------===//
//
// This file describes a group of sibling pipelines to the cost model so it
// can choose how many iterations --ktdf-coarsen merges: the bytes each DMA
// load and store stage moves per iteration, the cycles the compute unit
// spends per iteration (charged as the lowering and the simulator charge
// them), the latencies of the DMA hops and of the feed and drain routes,
// how the lanes share the DMA units, and the buffer bytes against the
// scratchpad a lane has.
//
//===----------------------------------------------------------------------===//

#include "Coarsening.h"

#include "ktflow/Device/ComputeOpClass.h"
#include "ktflow/Support/ElementBytes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::coarsen;
using ktflow::sched::CoarsenQuery;
using ktflow::sched::Hop;
using ktflow::sched::ScheduleTarget;
using NodeIdOrNone = std::optional<ktflow::device::NodeId>;

/// The bytes each DMA load and store stage of `pipeline` moves per
/// iteration. A load of a tile that does not move with the driver (a
/// layernorm's W and B in its grid of rows) is the same every iteration:
/// ktdf-hoist-invariant-transfers loads it once per instance, with the
/// first execution's loads, whatever F (as does one execution of all the
/// iterations): `onceBytes`. Counted F times in every execution, the
/// layernorm's 256-byte W and B merged its points in twos: 627 cycles on
/// sample_device where one point an execution takes 613. Only under a
/// grid whose lanes load and store on separate engines, where that was
/// measured (`hoisted`); elsewhere, as before, in every execution: under
/// a loop (bias_loop on sample_device) and on mesh_device's one engine
/// (broadcast_add) the once-only count picked factors 1-2 % slower.
static void addTransfers(PipelineOp pipeline,
                         ArrayRef<ktdp::ConstructAccessTileOp> moving,
                         bool hoisted, CoarsenQuery &query) {
  for (auto stage : pipeline.getBody().front().getOps<StageOp>()) {
    bool loads = stage.isApplicable(UnitRole::dma_load);
    if (!loads && !stage.isApplicable(UnitRole::dma_store))
      continue;
    stage.walk([&](DataTransferOp op) {
      auto tile = op.getSrc().getDefiningOp<ktdp::ConstructAccessTileOp>();
      bool once = hoisted && loads && tile && !llvm::is_contained(moving, tile);
      auto type =
          dyn_cast<MemRefType>((loads ? op.getDst() : op.getSrc()).getType());
      if (type)
        (once    ? query.onceBytes
         : loads ? query.loadBytes
                 : query.storeBytes)
            .push_back(type.getNumElements() *
                       ktflow::bytesPerElement(type.getElementType()));
    });
  }
}

/// The latency of the datapaths of `chain` between the buffer the feed
/// reads (or the drain writes) and the compute unit.
double coarsen::fifoLatency(const ScheduleTarget &target,
                            const ktflow::sched::HopChain &chain) {
  const ktflow::device::Route &route = chain.route;
  for (const Hop &hop : chain.hops) {
    bool feed = hop.kind == Hop::Feed;
    NodeIdOrNone buffer = feed ? hop.from : hop.to;
    if (hop.kind == Hop::Dma || !buffer)
      continue;
    auto it = llvm::find(route.nodes, *buffer);
    size_t at = it - route.nodes.begin();
    double latency = 0;
    for (auto [i, dp] : llvm::enumerate(route.datapaths))
      if (feed ? i >= at : i < at)
        latency += target.getModel().getDatapath(dp).spec.latency;
    return latency;
  }
  return 0;
}

/// How many times the loops around `op` inside its stage run (loops with
/// non-constant bounds count once).
static double tripsAround(Operation *op) {
  double times = 1;
  for (Operation *p = op->getParentOp(); p && !isa<StageOp>(p);
       p = p->getParentOp())
    if (auto loop = dyn_cast<scf::ForOp>(p)) {
      APInt lb, ub, st;
      if (matchPattern(loop.getLowerBound(), m_ConstantInt(&lb)) &&
          matchPattern(loop.getUpperBound(), m_ConstantInt(&ub)) &&
          matchPattern(loop.getStep(), m_ConstantInt(&st)) &&
          st.getSExtValue() > 0)
        times *= std::max<int64_t>(
            0, (ub.getSExtValue() - lb.getSExtValue() + st.getSExtValue() - 1) /
                   st.getSExtValue());
    }
  return times;
}

/// Whether ktdf-to-dfir reduces into the accumulator with `combine` by a
/// reduce that starts from it (an add or mul of integers or of floats of
/// 32 bits or more), with no fold after it.
static bool reducesFromAccumulator(Operation *combine) {
  if (!isa<arith::AddFOp, arith::AddIOp, arith::MulFOp, arith::MulIOp>(combine))
    return false;
  Type elem = getElementTypeOrSelf(combine->getResult(0).getType());
  return !isa<FloatType>(elem) || elem.getIntOrFloatBitWidth() >= 32;
}

/// Cycles `unit` spends on one run of a chunk-level generic: a broadcast of
/// each input smaller than the iteration space, the ops of its body (a
/// reduction's combining op apart), and for a reduction the reduce and
/// the fold of its result into the accumulator.
static double genericCycles(const ktdf_arch::UnitSpec &unit,
                            linalg::GenericOp op) {
  auto charge = [&](ktdf_arch::OpClass cls, Type type, double elements) {
    double rate =
        type ? unit.getThroughput(cls, getElementTypeOrSelf(type)).value_or(1)
             : 1;
    return std::ceil(elements / std::max(rate, 1e-9));
  };
  double elements = 1;
  for (int64_t r : op.getStaticLoopRanges())
    elements *= ShapedType::isDynamic(r) ? 1 : r;
  double cost = 0;
  // Inputs with fewer elements than the iteration space are broadcast, a
  // move charged at the type the unit holds the values in (f32 for bf16).
  for (Value in : op.getDpsInputs())
    if (auto t = dyn_cast<RankedTensorType>(in.getType());
        t && t.hasStaticShape() && t.getNumElements() < elements)
      cost += charge(ktdf_arch::OpClass::Elementwise,
                     ktflow::device::getHeldType(t.getElementType(), unit),
                     elements);
  Block &body = op.getRegion().front();
  Operation *combine = nullptr;
  if (op.getNumReductionLoops() > 0)
    combine = body.getTerminator()->getOperand(0).getDefiningOp();
  for (Operation &inner : body.without_terminator()) {
    if (inner.getNumResults() != 1 || isa<arith::ConstantOp>(inner))
      continue;
    Type rateType;
    auto cls = ktflow::device::getComputeOpClass(&inner, rateType, &unit);
    if (&inner != combine) {
      cost += charge(cls, rateType, elements);
      continue;
    }
    // The reduce over the chunk, then one fold per result element, save
    // for an add or mul the reduce starts from the accumulator
    // (ktdf-to-dfir's reductions from the accumulator).
    cost += charge(ktdf_arch::OpClass::Reduction, rateType, elements);
    if (!reducesFromAccumulator(combine))
      cost += charge(cls, rateType, 1);
  }
  return cost;
}

/// Cycles the compute unit spends on one execution of the pipeline's
/// compute stage: its chunk-level generics and a FIFO write per chunk, all
/// times the loops around.
double coarsen::estimateCompute(const ScheduleTarget &target,
                                PipelineOp pipeline) {
  const ktflow::sched::Lane &lane = target.getLanes().front();
  const auto &unit = *target.getModel().getNode(lane.compute).unit;
  double fifoBandwidth = 0;
  for (const Hop &hop : lane.outbound.hops)
    if (hop.fifo)
      fifoBandwidth = target.getModel().getDatapath(*hop.fifo).spec.bandwidth;
  double cycles = 0;
  pipeline.walk([&](WriteToFifoOp op) {
    auto type = dyn_cast<ShapedType>(op.getValue().getType());
    if (type && type.hasStaticShape() && fifoBandwidth > 0)
      cycles += tripsAround(op) * type.getNumElements() *
                ktflow::bytesPerElement(type.getElementType()) / fifoBandwidth;
  });
  pipeline.walk([&](linalg::GenericOp op) {
    cycles += tripsAround(op) * genericCycles(unit, op);
  });
  return cycles;
}

/// The grid instances that run `pipeline` at once (1 outside a grid).
static int64_t activeInstances(PipelineOp pipeline) {
  if (auto parallel = pipeline->getParentOfType<ParallelOp>())
    return std::min<int64_t>(parallel.getNumPoints(),
                             parallel.getNumInstances().value_or(1));
  return 1;
}

/// The device memory's bandwidth over the DMA engines that move data at
/// once (one per lane, or per `lanesPerEngine` lanes that share one): the
/// grid's instances all start together, so an engine gets its share of the
/// memory, not its route's bandwidth (mesh_device's 16 engines at 64
/// B/cycle share 512 B/cycle of HBM: 32 each). Infinite where the memory
/// states no bandwidth.
///
/// The engines counted are the instances over the lanes the estimate puts
/// on each, not the engines busy: 40 instances on spyre_like's 32 cores of
/// 2 lanes are 20 engines of 2 lanes, though all 32 engines start. The
/// memory serves transfers in arrival order, so the 8 engines with two
/// lanes get more of it once the 24 with one finish: they end when 40
/// lanes' bytes have passed, as 20 engines of 2 at 1/20 each do, and not
/// 64 lanes' (16x1024 f16 add tiles: 3899, 4155, 5107, 6971 simulated
/// cycles at 32, 40, 48, 64 points).
double coarsen::deviceMemoryShare(const ScheduleTarget &target,
                                  PipelineOp pipeline, int64_t lanesPerEngine) {
  const ktflow::device::Route &route = target.getLanes().front().inbound.route;
  if (route.nodes.empty())
    return INFINITY;
  const auto &memory = target.getModel().getNode(route.nodes.front()).memory;
  if (!memory || !memory->bandwidth || *memory->bandwidth <= 0)
    return INFINITY;
  int64_t engines =
      llvm::divideCeil(std::max<int64_t>(activeInstances(pipeline), 1),
                       std::max<int64_t>(lanesPerEngine, 1));
  return *memory->bandwidth / static_cast<double>(engines);
}

CoarsenQuery coarsen::describeCoarsening(const ScheduleTarget &target,
                                         ArrayRef<PipelineOp> pipelines,
                                         const Driver &d, int64_t bound) {
  CoarsenQuery query;
  for (int64_t f = 1; f <= bound; ++f)
    if (d.dynamic || bound % f == 0)
      query.candidates.push_back(f);
  const ktflow::sched::Lane &lane = target.getLanes().front();
  query.iterations = d.perInstance;
  // The DMA hops pay their latency per transfer; the feed and drain
  // routes theirs once per execution of the compute stage.
  double feedLatency = fifoLatency(target, lane.inbound);
  double drainLatency = fifoLatency(target, lane.outbound);
  query.latency = lane.inbound.route.latency - feedLatency;
  query.bandwidth = lane.inbound.route.bandwidth;
  query.handoverCycles = feedLatency + drainLatency;
  query.depthLatency = lane.inbound.route.latency;
  const ktflow::device::DeviceModel &model = target.getModel();
  NodeIdOrNone dmaUnit = lane.inbound.hops.front().kind == Hop::Dma
                             ? NodeIdOrNone(lane.inbound.hops.front().unit)
                             : std::nullopt;
  // A unit outside the lane's own scopes serves several lanes of a core,
  // whose transfers queue on it when the grid runs on them.
  int64_t served = dmaUnit ? target.getLanesPerInstance(*dmaUnit) : 1;
  query.dmaSharing = ktflow::sched::lanesSharingEngine(
      served, activeInstances(pipelines.front()), target.getNumCores());
  // Merging a lane's grid points trades the skew between them for larger
  // transfers, whose fill and drain every engine pays at once.
  if (d.parallel)
    query.memoryShare =
        deviceMemoryShare(target, pipelines.front(), query.dmaSharing);
  // One engine that loads and stores runs an execution's stages in order.
  const Hop &lastOut = lane.outbound.hops.back();
  query.sharedDma =
      dmaUnit && lastOut.kind == Hop::Dma && lastOut.unit == *dmaUnit;
  // The lowering skews a driver whose body is one pipeline on a unit that
  // serves one lane.
  query.skewed = query.sharedDma && pipelines.size() == 1 && served == 1;
  // Requests in flight overlap the latency of back-to-back transfers.
  if (dmaUnit && model.getNode(*dmaUnit).unit)
    query.maxOutstanding = model.getNode(*dmaUnit).unit->maxOutstanding;
  // Sibling pipelines run one after another on the same units: their
  // transfers, compute and buffers add up.
  std::optional<StringRef> kind;
  for (PipelineOp pipeline : pipelines) {
    addTransfers(pipeline,
                 findMovingTiles(pipeline, d)
                     .value_or(SmallVector<ktdp::ConstructAccessTileOp>()),
                 d.parallel && !query.sharedDma, query);
    query.computeCycles += estimateCompute(target, pipeline);
    for (auto priv : pipeline.getBody().front().getOps<PrivateOp>())
      if (auto type = dyn_cast<MemRefType>(priv.getType())) {
        query.bytesPerCopy += type.getNumElements() *
                              ktflow::bytesPerElement(type.getElementType());
        kind = getBufferMemoryKind(type);
      }
  }
  if (kind)
    if (auto node = target.getModel().findByKind(*kind))
      query.capacity = target.getMemoryTree().getCapacity(*node) /
                       static_cast<int64_t>(target.getLanes().size());
  return query;
}
