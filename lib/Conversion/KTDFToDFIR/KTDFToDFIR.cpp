//===- KTDFToDFIR.cpp - Scheduled ScheduleIR to DataflowIR ----------------===//
//
// This file implements --ktdf-to-dfir at the kernel level: the distributed
// grid normalised to cores and lanes (instance k runs on core k mod C, lane
// k div C), the names of unit, memory and FIFO instances per lane
// instance, and the order of the work: the kernel's tensors
// (KernelTensors.cpp), the pipelines' buffers, FIFOs and sync channels
// (PipelineResources.cpp), then one program per unit instance from
// ProgramBuilder (UnitProgram.cpp).
//
//===----------------------------------------------------------------------===//

#include "CopyPipelines.h"
#include "ProgramBuilder.h"

#include "ktflow/Conversion/Passes.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Scheduler/ScheduleTargetPass.h"

namespace mlir {
#define GEN_PASS_DEF_KTDFTODFIR
#include "ktflow/Conversion/Passes.h.inc"
} // namespace mlir

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

std::string KernelLowering::perLane(StringRef base, const LaneInstance &li) {
  return (base + "_c" + Twine(li.core) + "_l" + Twine(li.lane)).str();
}

std::string KernelLowering::nodeInstance(StringRef node,
                                         const LaneInstance &li) const {
  const ktflow::sched::Lane &lane = target.getLanes()[li.lane];
  auto id = target.findNode(node);
  return target.getInstanceName(target.mapFromFirstLane(*id, lane), li.core,
                                lane);
}

static int64_t laneOffsetOf(StageOp stage) {
  auto offset = stage->getAttrOfType<IntegerAttr>(kLaneOffsetAttr);
  return offset ? offset.getInt() : 0;
}

LaneInstance KernelLowering::onLane(const LaneInstance &li, int64_t offset) {
  LaneInstance shifted = li;
  shifted.lane += offset;
  return shifted;
}

bool KernelLowering::onSameUnit(StageOp a, StageOp b) {
  return *a.getUnit() == *b.getUnit() && laneOffsetOf(a) == laneOffsetOf(b);
}

std::string KernelLowering::unitOf(StageOp stage,
                                   const LaneInstance &li) const {
  return nodeInstance(*stage.getUnit(), onLane(li, laneOffsetOf(stage)));
}

const ktdf_arch::UnitSpec *KernelLowering::unitSpecOf(StageOp stage) const {
  for (const ktflow::device::Node &node : target.getModel().getNodes())
    if (node.unit && stage.getUnit() && node.name == *stage.getUnit())
      return &*node.unit;
  return nullptr;
}

std::string KernelLowering::memoryOf(StringRef kind,
                                     const LaneInstance &li) const {
  const ktflow::sched::Lane &lane = target.getLanes()[li.lane];
  auto node = target.getModel().findByKind(kind);
  return target.getInstanceName(target.mapFromFirstLane(*node, lane), li.core,
                                lane);
}

std::string KernelLowering::fifoOf(Value slot, const LaneInstance &li) const {
  auto type = cast<FifoSlotType>(slot.getType());
  auto it = fifos.find({nodeInstance(type.getSrc().getValue(), li),
                        nodeInstance(type.getDst().getValue(), li)});
  return it == fifos.end() ? "" : it->second.first;
}

std::string KernelLowering::localOf(StringRef kind, const LaneInstance &li) {
  return perLane(("local_" + kind).str(), li);
}

const PipelineInfo &KernelLowering::infoOf(PipelineOp op) const {
  for (const PipelineInfo &info : pipelines)
    if (info.op == op)
      return info;
  llvm_unreachable("pipeline was collected");
}

std::pair<std::string, int64_t>
KernelLowering::bufferOf(const PipelineInfo &info, Value buffer) const {
  if (auto it = exported.find(buffer); it != exported.end())
    for (const PipelineInfo &owner : pipelines)
      if (owner.buffers.count(it->second))
        return owner.buffers.lookup(it->second);
  return info.buffers.lookup(buffer);
}

LogicalResult KernelLowering::planInstances() {
  int64_t points = parallel.getNumPoints();
  int64_t n = *parallel.getNumInstances();
  int64_t cores = target.getNumCores();
  int64_t lanes = target.getLanes().size();
  if (n > cores * lanes)
    return parallel.emitError("distributed over ")
           << n << " instances but the device has " << cores << " cores of "
           << lanes << " lanes";
  int64_t block = (points + n - 1) / n;
  for (int64_t k = 0; k < n; ++k) {
    LaneInstance li;
    li.core = k % cores;
    li.lane = static_cast<unsigned>(k / cores);
    // Dealt in snake order, instance k starts at point k and runs one point
    // of each round (ProgramBuilder::build's pointOf).
    li.start = parallel.getSnake() ? k : k * block;
    li.count = parallel.getSnake()
                   ? points / n
                   : std::max<int64_t>(0, std::min(points, li.start + block) -
                                              li.start);
    if (li.count > 0)
      instances.push_back(li);
  }
  return success();
}

LogicalResult KernelLowering::buildPrograms(OpBuilder &b) {
  std::map<std::string, std::unique_ptr<ProgramBuilder>> programs;
  for (const LaneInstance &li : instances)
    for (const PipelineInfo &info : pipelines)
      for (auto stage : PipelineOp(info.op).getBody().front().getOps<StageOp>()) {
        std::string unit = unitOf(stage, li);
        auto &program = programs[unit];
        if (!program)
          program = std::make_unique<ProgramBuilder>(*this, unit);
        program->addWork(&li, stage);
      }
  for (auto &[unit, program] : programs) {
    auto op = dfir::UnitOp::create(b, func.getLoc(), unit);
    OpBuilder::InsertionGuard guard(b);
    b.createBlock(&op.getBody());
    if (failed(program->build(b)))
      return failure();
    shareIndexReads(op);
  }
  return success();
}

namespace mlir::ktdf::lowering {
/// Merges each run of stores of one FIFO whose addresses step by a constant
/// stride (outputs' buffers side by side) into one store of rows
/// (StridedStores.cpp).
void mergeStridedStores(dfir::KernelOp kernel);
} // namespace mlir::ktdf::lowering

LogicalResult KernelLowering::run(OpBuilder &moduleBuilder) {
  directDevicePassThroughs(func);
  directExchangeDmas(func);
  directKeptStores(func);
  directResidentCopies();
  sendKeptDestinations(func);
  mergeAdjacentCopies(func);
  if (failed(collectArguments()) || failed(planInstances()))
    return failure();
  assignDuplicateStores();
  if (failed(collectPipelines()))
    return failure();
  collectDuplicateStores();
  collectCopyFills();
  if (failed(collectScratchpadInputs()))
    return failure();
  auto kernel = dfir::KernelOp::create(moduleBuilder, func.getLoc(),
                                       func.getSymName(),
                                       target.getModel().getName());
  OpBuilder b(kernel.getContext());
  b.createBlock(&kernel.getBody());
  declareTensors(b);
  declareResources(b);
  if (failed(buildPrograms(b))) {
    kernel.erase();
    return failure();
  }
  mergeStridedStores(kernel);
  return success();
}

namespace {
struct KTDFToDFIRPass : public ktflow::sched::WithScheduleTarget<
                            impl::KTDFToDFIRBase<KTDFToDFIRPass>> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    const ktflow::sched::ScheduleTarget *target = requireScheduleTarget();
    if (!target)
      return;
    OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
    for (auto func : llvm::to_vector(module.getOps<func::FuncOp>())) {
      if (func.isExternal() || func.getBody().front().getOps<ParallelOp>().empty())
        continue;
      if (failed(KernelLowering(*target, func).run(builder)))
        return signalPassFailure();
      // The dfir.kernel of the same name replaces the function.
      func.erase();
    }
  }
};
} // namespace
