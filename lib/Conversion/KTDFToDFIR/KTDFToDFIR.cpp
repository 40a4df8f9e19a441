//===- KTDFToDFIR.cpp - Scheduled ScheduleIR to DataflowIR ----------------===//
//
// This file implements --ktdf-to-dfir at the kernel level: runtime symbols
// for the kernel's arguments, the distributed grid normalised to cores and
// lanes (instance k runs on core k mod C, lane k div C), and per lane
// instance the buffers (N copies in the lane's region of the scratchpad),
// FIFOs (one per pair of units, wide enough for every slot they carry) and
// sync channels (one per buffer hand-over between two units, plus one
// back for its N copies). Each unit instance then gets its program from
// ProgramBuilder.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "ktflow/Analysis/TensorExtent.h"
#include "ktflow/Conversion/Passes.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/IR/Matchers.h"

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

std::string KernelLowering::unitOf(StageOp stage,
                                   const LaneInstance &li) const {
  const ktflow::sched::Lane &lane = target.getLanes()[li.lane];
  auto node = target.findNode(*stage.getUnit());
  return target.getInstanceName(target.mapFromFirstLane(*node, lane), li.core,
                                lane);
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
  const ktflow::sched::Lane &lane = target.getLanes()[li.lane];
  auto name = [&](StringAttr template_) {
    auto node = target.findNode(template_.getValue());
    return target.getInstanceName(target.mapFromFirstLane(*node, lane),
                                  li.core, lane);
  };
  auto it = fifos.find({name(type.getSrc()), name(type.getDst())});
  return it == fifos.end() ? "" : it->second.first;
}

std::string KernelLowering::tensorOf(Value viewOffset) const {
  if (auto it = tensorSymbols.find(viewOffset); it != tensorSymbols.end())
    return it->second;
  APInt literal;
  if (matchPattern(viewOffset, m_ConstantInt(&literal)))
    if (auto it = literalSymbols.find(literal.getSExtValue());
        it != literalSymbols.end())
      return it->second;
  return "";
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

LogicalResult KernelLowering::collectArguments() {
  Block &entry = func.front();
  SmallVector<ParallelOp> parallels(entry.getOps<ParallelOp>());
  if (parallels.size() != 1)
    return func.emitError("a scheduled kernel has exactly one ktdf.parallel; "
                          "run the mapping group first");
  parallel = parallels.front();
  if (!parallel.getNumInstances())
    return parallel.emitError("the grid is not distributed; run "
                              "--ktdf-distribute first");
  for (BlockArgument arg : entry.getArguments()) {
    std::string symbol = "arg" + std::to_string(arg.getArgNumber());
    if (isa<ktdp::RuntimeArgType>(arg.getType())) {
      runtimeSymbols[arg] = symbol;
      continue;
    }
    for (Operation *user : arg.getUsers()) {
      auto view = dyn_cast<ktdp::ConstructMemoryViewOp>(user);
      if (!view || view.getOffset() != arg)
        return user->emitError("kernel argument ")
               << arg.getArgNumber()
               << " is used other than as the start address of a memory "
                  "view; scalar arguments are not supported yet";
      tensorSymbols[arg] = symbol;
    }
    if (tensorSymbols.count(arg) &&
        failed(collectTensorType(symbol, arg, std::nullopt)))
      return failure();
  }
  // Views at literal addresses: one tensor per address, which must not
  // overlap another (the runtime places each tensor where it likes).
  std::map<int64_t, ktdp::ConstructMemoryViewOp> literalViews;
  parallel.walk([&](ktdp::ConstructMemoryViewOp view) {
    APInt literal;
    auto space = ktdp::normalizeMemorySpace(view.getMemorySpace());
    if (matchPattern(view.getOffset(), m_ConstantInt(&literal)) &&
        !(space && space->kind == ktdp::MemoryKind::ct_local))
      literalViews.insert({literal.getSExtValue(), view});
  });
  int64_t end = 0;
  for (auto &[start, view] : literalViews) {
    std::string symbol = "lit" + std::to_string(start);
    if (failed(collectTensorType(symbol, {}, start)))
      return failure();
    if (start < end)
      return view.emitError("the view at literal address ")
             << start << " overlaps the memory of another view at a literal "
                         "address; such aliasing is not supported yet";
    end = start + tensorTypes[symbol].first.getNumElements();
    literalSymbols[start] = symbol;
  }
  const ktflow::sched::Lane &lane0 = target.getLanes().front();
  globalMemory =
      target.getInstanceName(target.getGlobalMemory(), 0, lane0);
  return success();
}

LogicalResult KernelLowering::collectTensorType(StringRef symbol,
                                                BlockArgument arg,
                                                std::optional<int64_t> literal) {
  auto &[type, dims] = tensorTypes[symbol];
  if (!literal) {
    if (auto recorded = func.getArgAttrOfType<TypeAttr>(arg.getArgNumber(),
                                                        ktflow::kTensorAttr)) {
      type = cast<RankedTensorType>(recorded.getValue());
      if (auto positions = func.getArgAttrOfType<DenseI64ArrayAttr>(
              arg.getArgNumber(), ktflow::kTensorDimsAttr))
        dims.assign(positions.asArrayRef().begin(),
                    positions.asArrayRef().end());
      return success();
    }
  } else if (auto recorded =
                 func->getAttrOfType<DictionaryAttr>(ktflow::kLiteralTensorsAttr)) {
    if (auto entry = recorded.getAs<TypeAttr>(std::to_string(*literal))) {
      type = cast<RankedTensorType>(entry.getValue());
      return success();
    }
  }
  FailureOr<ktflow::DeclaredTensorShape> shape = ktflow::getDeclaredTensorShape(
      literal ? ktflow::getViewsAtLiteral(func, *literal)
              : ktflow::getViewsAtArgument(func, arg));
  if (failed(shape))
    return failure();
  type = RankedTensorType::get(shape->shape, shape->elementType);
  if (literal && !type.hasStaticShape())
    return func.emitError("views at literal address ")
           << *literal << " need static sizes";
  for (Value size : shape->dynamicSizes) {
    auto extract = size.getDefiningOp<ktdp::RuntimeArgExtractOp>();
    auto runtimeArg =
        extract ? dyn_cast<BlockArgument>(extract.getInput()) : BlockArgument();
    if (!runtimeArg)
      return func.emitError("a dynamic size of the tensor ")
             << symbol << " is not a runtime argument";
    dims.push_back(runtimeArg.getArgNumber());
  }
  return success();
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
    li.start = k * block;
    li.count = std::max<int64_t>(0, std::min(points, li.start + block) - li.start);
    if (li.count > 0)
      instances.push_back(li);
  }
  return success();
}

/// The buffers a stage's transfers read and write.
static void buffersOf(StageOp stage, llvm::SmallPtrSetImpl<Value> &reads,
                      llvm::SmallPtrSetImpl<Value> &writes) {
  stage.walk([&](DataTransferOp op) {
    if (isa<MemRefType>(op.getSrc().getType()))
      reads.insert(op.getSrc());
    if (isa<MemRefType>(op.getDst().getType()))
      writes.insert(op.getDst());
  });
}

LogicalResult KernelLowering::collectPipelines() {
  SmallVector<PipelineOp> ops;
  parallel.walk([&](PipelineOp op) { ops.push_back(op); });
  for (auto [index, op] : llvm::enumerate(ops)) {
    PipelineInfo info;
    info.op = op;
    info.index = index;
    info.copies = op.getNumCopies();
    std::string prefix = "p" + std::to_string(index);
    unsigned b = 0;
    for (auto priv : op.getBody().front().getOps<PrivateOp>()) {
      auto type = dyn_cast<MemRefType>(priv.getType());
      if (!type)
        continue;
      if (!priv.getOffset())
        return priv.emitError("buffer has no offset; run "
                              "--ktdf-allocate-scratchpad first");
      info.buffers[priv.getResult()] = {
          prefix + "_buf" + std::to_string(b++),
          type.getNumElements() * ((type.getElementTypeBitWidth() + 7) / 8)};
    }
    for (auto [i, result] : llvm::enumerate(op->getResults()))
      if (PrivateOp priv = op.getExportedBuffer(i))
        exported[result] = priv.getResult();
    SmallVector<StageOp> stages(op.getBody().front().getOps<StageOp>());
    for (StageOp stage : stages)
      if (!stage.getUnit() || !target.findNode(*stage.getUnit()))
        return stage.emitError("stage is not bound to a unit of the device; "
                               "run --ktdf-route-transfers first");
    unsigned c = 0;
    for (auto [i, writer] : llvm::enumerate(stages)) {
      llvm::SmallPtrSet<Value, 4> wReads, wWrites;
      buffersOf(writer, wReads, wWrites);
      for (StageOp reader : ArrayRef<StageOp>(stages).drop_front(i + 1)) {
        llvm::SmallPtrSet<Value, 4> rReads, rWrites;
        buffersOf(reader, rReads, rWrites);
        bool handsOver = llvm::any_of(
            wWrites, [&](Value v) { return rReads.contains(v); });
        if (!handsOver || *writer.getUnit() == *reader.getUnit())
          continue;
        std::string id = std::to_string(c++);
        info.channels.push_back({writer, reader, 0, prefix + "_full" + id});
        info.channels.push_back(
            {reader, writer, std::max<int64_t>(info.copies, 1),
             prefix + "_free" + id});
      }
    }
    pipelines.push_back(std::move(info));
  }
  // Exported buffers are filled by their own pipeline and only read by the
  // others, into FIFO slots or buffers (what the channels below order).
  for (auto &entry : exported)
    for (Operation *user : entry.first.getUsers()) {
      auto transfer = dyn_cast<DataTransferOp>(user);
      if (!transfer || transfer.getSrc() != entry.first ||
          transfer.getDst() == entry.first ||
          isa<ktdp::AccessTileType>(transfer.getDst().getType()))
        return user->emitError("a buffer exported by another pipeline can "
                               "only be read into a FIFO slot or a buffer");
    }
  collectExportChannels();
  // Stages of different pipelines that touch the kernel's scratchpad views
  // are ordered by a channel from the earlier to the later one.
  auto touchesLocal = [](StageOp stage, bool &writes) {
    bool touches = false;
    stage.walk([&](DataTransferOp op) {
      for (auto [end, isDst] : {std::make_pair(op.getSrc(), false),
                                std::make_pair(op.getDst(), true)}) {
        auto view = isa<ktdp::AccessTileType>(end.getType()) ? ktdp::getAccessTileView(end)
                                                             : nullptr;
        auto space = view ? ktdp::normalizeMemorySpace(view.getMemorySpace())
                          : std::nullopt;
        if (space && space->kind == ktdp::MemoryKind::ct_local) {
          touches = true;
          writes |= isDst;
        }
      }
    });
    return touches;
  };
  unsigned r = 0;
  for (size_t i = 0; i < pipelines.size(); ++i)
    for (auto first : pipelines[i].op.getBody().front().getOps<StageOp>()) {
      bool firstWrites = false;
      if (!touchesLocal(first, firstWrites))
        continue;
      for (size_t j = i + 1; j < pipelines.size(); ++j)
        for (auto later : pipelines[j].op.getBody().front().getOps<StageOp>()) {
          bool laterWrites = false;
          if (!touchesLocal(later, laterWrites) ||
              !(firstWrites || laterWrites) ||
              *first.getUnit() == *later.getUnit())
            continue;
          pipelines[i].regionChannels.push_back(
              {first, later, 0, "local" + std::to_string(r++)});
        }
    }
  if (auto local = func->getAttrOfType<DictionaryAttr>("ktdf.local")) {
    for (NamedAttribute entry : local)
      if (auto bytes = dyn_cast<IntegerAttr>(entry.getValue()))
        localBytes[entry.getName().getValue()] = bytes.getInt();
    // A lane's scratchpad views hold one grid point's data.
    for (const LaneInstance &li : instances)
      if (li.count > 1)
        return parallel.emitError("a kernel with scratchpad (ct_local) views "
                                  "needs at most one grid point per lane; "
                                  "this device gives a lane ")
               << li.count;
  }
  return success();
}

void KernelLowering::collectExportChannels() {
  for (PipelineInfo &owner : pipelines) {
    if (owner.op->getNumResults() == 0)
      continue;
    unsigned c = 0;
    for (PipelineInfo &other : pipelines) {
      if (&other == &owner)
        continue;
      for (auto reader : other.op.getBody().front().getOps<StageOp>()) {
        llvm::SmallPtrSet<Value, 4> rReads, rWrites;
        buffersOf(reader, rReads, rWrites);
        for (auto writer : owner.op.getBody().front().getOps<StageOp>()) {
          llvm::SmallPtrSet<Value, 4> wReads, wWrites;
          buffersOf(writer, wReads, wWrites);
          bool handsOver = llvm::any_of(rReads, [&](Value v) {
            auto it = exported.find(v);
            return it != exported.end() && wWrites.contains(it->second);
          });
          if (!handsOver || *writer.getUnit() == *reader.getUnit())
            continue;
          // One copy: the writer refills it only once the reader is done.
          // A per-instance pipeline fills it once: nothing to hand back.
          std::string id = std::to_string(c++);
          std::string prefix = "p" + std::to_string(owner.index);
          owner.channels.push_back(
              {writer, reader, 0, prefix + "_xfull" + id, true});
          if (!owner.op.getPerInstance())
            owner.channels.push_back(
                {reader, writer, 1, prefix + "_xfree" + id, true});
        }
      }
    }
  }
}

std::string KernelLowering::localOf(StringRef kind, const LaneInstance &li) {
  return perLane(("local_" + kind).str(), li);
}

void KernelLowering::declare(OpBuilder &b) {
  MLIRContext *ctx = func.getContext();
  Location loc = func.getLoc();
  Block &entry = func.front();
  // Runtime arguments first: tensor dims name them.
  for (BlockArgument arg : entry.getArguments())
    if (auto type = dyn_cast<ktdp::RuntimeArgType>(arg.getType()))
      dfir::RuntimeArgOp::create(b, loc, runtimeSymbols[arg],
                                 type.getGranularity().value_or(1),
                                 type.getUpperbound().value_or(int64_t(1) << 31));
  for (BlockArgument arg : entry.getArguments()) {
    auto it = tensorSymbols.find(arg);
    if (it == tensorSymbols.end())
      continue;
    auto view = cast<ktdp::ConstructMemoryViewOp>(*arg.getUsers().begin());
    bool read = false, written = false;
    parallel.walk([&](DataTransferOp op) {
      if (isa<ktdp::AccessTileType>(op.getSrc().getType()) &&
          ktdp::getAccessTileView(op.getSrc()).getOffset() == arg)
        read = true;
      if (isa<ktdp::AccessTileType>(op.getDst().getType()) &&
          ktdp::getAccessTileView(op.getDst()).getOffset() == arg)
        written = true;
    });
    auto &[type, dimArgs] = tensorTypes[it->second];
    SmallVector<Attribute> dims;
    for (int64_t position : dimArgs)
      dims.push_back(FlatSymbolRefAttr::get(
          ctx, runtimeSymbols[entry.getArgument(position)]));
    auto role = written ? (read ? dfir::TensorRole::inout
                                : dfir::TensorRole::output)
                        : dfir::TensorRole::input;
    dfir::TensorOp::create(
        b, view.getLoc(), role, it->second, type, globalMemory,
        dims.empty() ? ArrayAttr() : b.getArrayAttr(dims));
  }
  for (auto &entry : literalSymbols) {
    const std::string &symbol = entry.second;
    ktdp::ConstructMemoryViewOp view;
    bool read = false, written = false;
    parallel.walk([&](DataTransferOp op) {
      for (auto [end, isSrc] : {std::make_pair(op.getSrc(), true),
                                std::make_pair(op.getDst(), false)}) {
        if (!isa<ktdp::AccessTileType>(end.getType()))
          continue;
        auto v = ktdp::getAccessTileView(end);
        if (tensorOf(v.getOffset()) != symbol)
          continue;
        view = v;
        (isSrc ? read : written) = true;
      }
    });
    if (!view)
      continue;
    auto role = written ? (read ? dfir::TensorRole::inout
                                : dfir::TensorRole::output)
                        : dfir::TensorRole::input;
    dfir::TensorOp::create(b, view.getLoc(), role, symbol,
                           tensorTypes[symbol].first, globalMemory,
                           ArrayAttr());
  }
  auto regions = func->getAttrOfType<DictionaryAttr>("ktdf.scratchpad");
  int64_t lanes = target.getLanes().size();
  auto laneBaseOf = [&](StringRef kind, const LaneInstance &li) -> int64_t {
    auto node = *target.getModel().findByKind(kind);
    if (target.getModel().getInstancesPerCore(node) < lanes && regions)
      if (auto size = regions.getAs<IntegerAttr>(kind))
        return li.lane * size.getInt();
    return 0;
  };
  for (const LaneInstance &li : instances)
    for (auto &entry : localBytes)
      dfir::BufferOp::create(b, loc, localOf(entry.getKey(), li),
                             memoryOf(entry.getKey(), li), entry.getValue(),
                             b.getI64IntegerAttr(laneBaseOf(entry.getKey(), li)));
  for (const LaneInstance &li : instances) {
    for (const PipelineInfo &info : pipelines) {
      for (auto priv : PipelineOp(info.op).getBody().front().getOps<PrivateOp>()) {
        auto type = dyn_cast<MemRefType>(priv.getType());
        if (!type)
          continue;
        StringRef kind = getBufferMemoryKind(type);
        auto node = *target.getModel().findByKind(kind);
        int64_t laneBase = 0;
        if (target.getModel().getInstancesPerCore(node) < lanes && regions)
          if (auto size = regions.getAs<IntegerAttr>(kind))
            laneBase = li.lane * size.getInt();
        auto [base, bytes] = info.buffers.lookup(priv.getResult());
        dfir::BufferOp::create(b, priv.getLoc(), perLane(base, li),
                               memoryOf(kind, li), bytes * info.copies,
                               b.getI64IntegerAttr(laneBase + *priv.getOffset()));
      }
      // FIFOs: one per pair of unit instances, as wide as its widest slot.
      for (auto priv : PipelineOp(info.op).getBody().front().getOps<PrivateOp>()) {
        auto type = dyn_cast<FifoSlotType>(priv.getType());
        if (!type)
          continue;
        const ktflow::sched::Lane &lane = target.getLanes()[li.lane];
        auto name = [&](StringAttr template_) {
          auto node = target.findNode(template_.getValue());
          return target.getInstanceName(target.mapFromFirstLane(*node, lane),
                                        li.core, lane);
        };
        auto &entry = fifos[{name(type.getSrc()), name(type.getDst())}];
        if (entry.first.empty())
          entry.first = "fifo" + std::to_string(fifos.size() - 1);
        entry.second = std::max(entry.second, type.getSizeInBytes());
      }
      for (const Channel &ch : info.channels)
        dfir::SyncOp::create(b, loc, perLane(ch.base, li), unitOf(ch.from, li),
                             unitOf(ch.to, li));
      for (const Channel &ch : info.regionChannels)
        dfir::SyncOp::create(b, loc, perLane(ch.base, li), unitOf(ch.from, li),
                             unitOf(ch.to, li));
    }
  }
  for (auto &[ends, entry] : fifos)
    dfir::FifoOp::create(b, loc, entry.first, ends.first, ends.second,
                         entry.second, IntegerAttr());
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
  }
  return success();
}

LogicalResult KernelLowering::run(OpBuilder &moduleBuilder) {
  if (failed(collectArguments()) || failed(planInstances()) ||
      failed(collectPipelines()))
    return failure();
  auto kernel = dfir::KernelOp::create(moduleBuilder, func.getLoc(),
                                       func.getSymName(),
                                       target.getModel().getName());
  OpBuilder b(kernel.getContext());
  b.createBlock(&kernel.getBody());
  declare(b);
  if (failed(buildPrograms(b))) {
    kernel.erase();
    return failure();
  }
  return success();
}

namespace {
struct KTDFToDFIRPass : public impl::KTDFToDFIRBase<KTDFToDFIRPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto &target = getAnalysis<ktflow::sched::ScheduleTarget>();
    if (!target.isValid())
      return signalPassFailure();
    markAnalysesPreserved<ktflow::sched::ScheduleTarget>();
    OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
    for (auto func : llvm::to_vector(module.getOps<func::FuncOp>())) {
      if (func.isExternal() || func.getBody().front().getOps<ParallelOp>().empty())
        continue;
      if (failed(KernelLowering(target, func).run(builder)))
        return signalPassFailure();
      // The dfir.kernel of the same name replaces the function.
      func.erase();
    }
  }
};
} // namespace
