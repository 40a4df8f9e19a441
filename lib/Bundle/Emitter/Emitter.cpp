//===- Emitter.cpp - DataflowIR kernels to program bundles ----------------===//
//
// This file emits the kernel level of a bundle: it resolves the kernel's
// declarations against the device (memories, units, FIFO datapaths and
// their depths), places scratchpad buffers and checks their capacity, then
// has each unit program encoded and records its relocation sites. It also
// holds what the program and map-body emitters share: element type
// conversion and the check that a unit computes an op class on a type.
//
//===----------------------------------------------------------------------===//

#include "EmitterState.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::bundle;
using namespace ktflow::bundle::detail;

std::optional<machine::ElemType> ktflow::bundle::detail::toElemType(Type type) {
  if (type.isF16())
    return machine::ElemType::f16;
  if (type.isBF16())
    return machine::ElemType::bf16;
  if (type.isF32())
    return machine::ElemType::f32;
  if (type.isF64())
    return machine::ElemType::f64;
  if (type.isIndex())
    return machine::ElemType::i64;
  if (auto i = dyn_cast<IntegerType>(type)) {
    switch (i.getWidth()) {
    case 1:
      return machine::ElemType::i1;
    case 8:
      return machine::ElemType::i8;
    case 16:
      return machine::ElemType::i16;
    case 32:
      return machine::ElemType::i32;
    case 64:
      return machine::ElemType::i64;
    default: break;
    }
  }
  return std::nullopt;
}

LogicalResult ktflow::bundle::detail::checkCompute(
    Operation *op, const machine::MachineUnit &unit, machine::OpClass opClass,
    machine::ElemType type) {
  if (unit.getThroughput(opClass, type) > 0)
    return success();
  return op->emitError("unit '")
         << unit.name << "' cannot compute " << op->getName() << " ("
         << machine::stringifyOpClass(opClass) << ") on "
         << machine::elemTypeName(type);
}

namespace {
class KernelEmitter {
public:
  KernelEmitter(dfir::KernelOp kernel, const machine::Machine &machine)
      : kernel(kernel), machine(machine) {}

  FailureOr<Bundle> run() {
    if (kernel.getDevice() != machine.name)
      return kernel.emitError("kernel is compiled for device '")
             << kernel.getDevice() << "' but the description is of '"
             << machine.name << "'";
    bundle.kernel = kernel.getSymName().str();
    bundle.device = machine.name;
    bundle.machine = machine;
    bundle.deviceFingerprint = machine.fingerprint();
    for (Operation &op : kernel.getBody().front()) {
      LogicalResult result =
          llvm::TypeSwitch<Operation *, LogicalResult>(&op)
              .Case<dfir::TensorOp, dfir::RuntimeArgOp, dfir::BufferOp,
                    dfir::FifoOp, dfir::SyncOp>(
                  [&](auto decl) { return declare(decl); })
              .Default([](Operation *) { return success(); });
      if (failed(result))
        return failure();
    }
    // Tensor dims may name runtime args declared after the tensor.
    for (auto [tensor, op] : llvm::zip(bundle.tensors, tensorOps))
      if (failed(resolveDims(tensor, op)))
        return failure();
    for (auto unit : kernel.getBody().front().getOps<dfir::UnitOp>())
      if (failed(emitUnit(unit)))
        return failure();
    // No LOCS section when no instruction has a location.
    if (bundle.sources.files.empty())
      bundle.sources.programs.clear();
    return std::move(bundle);
  }

private:
  FailureOr<uint32_t> findMemory(Operation *op, StringRef name) {
    if (auto m = machine.findMemory(name))
      return *m;
    return op->emitError("device '")
           << machine.name << "' has no memory '" << name << "'";
  }
  FailureOr<uint32_t> findUnit(Operation *op, StringRef name) {
    if (auto u = machine.findUnit(name))
      return *u;
    return op->emitError("device '")
           << machine.name << "' has no execution unit '" << name << "'";
  }

  LogicalResult declare(dfir::TensorOp op) {
    auto type = cast<RankedTensorType>(op.getType());
    auto elem = toElemType(type.getElementType());
    if (!elem || type.getElementType().isIndex())
      return op.emitError("element type ")
             << type.getElementType() << " is not supported by the runtime";
    auto memory = findMemory(op, op.getMemory());
    if (failed(memory))
      return failure();
    TensorArg arg;
    arg.name = op.getSymName().str();
    arg.elem = *elem;
    arg.memory = *memory;
    arg.role = static_cast<TensorRole>(op.getRole());
    if (op.getArgument())
      arg.argument = static_cast<uint32_t>(*op.getArgument());
    arg.argName = op.getArgName().value_or("").str();
    if (op.getAddress())
      arg.address = *op.getAddress();
    if (op.getTile())
      arg.tile = *op.getTile();
    symbols.tensors[arg.name] = bundle.tensors.size();
    bundle.tensors.push_back(arg);
    tensorOps.push_back(op);
    return success();
  }

  LogicalResult resolveDims(TensorArg &arg, dfir::TensorOp op) {
    auto type = cast<RankedTensorType>(op.getType());
    unsigned next = 0;
    for (int64_t d : type.getShape()) {
      TensorDim dim;
      if (ShapedType::isDynamic(d)) {
        if (op.getDimScales())
          dim.scale = (*op.getDimScales())[next];
        auto ref = cast<FlatSymbolRefAttr>((*op.getDims())[next++]);
        dim.runtimeArg = symbols.runtimeArgs.lookup(ref.getValue());
      } else {
        dim.size = d;
      }
      arg.dims.push_back(dim);
    }
    return success();
  }

  LogicalResult declare(dfir::RuntimeArgOp op) {
    symbols.runtimeArgs[op.getSymName()] = bundle.runtimeArgs.size();
    RuntimeArg arg;
    arg.name = op.getSymName().str();
    arg.granularity = static_cast<int64_t>(op.getGranularity());
    arg.upperbound = static_cast<int64_t>(op.getUpperbound());
    arg.lowerbound = op.getMinimum();
    if (op.getArgument())
      arg.argument = static_cast<uint32_t>(*op.getArgument());
    arg.argName = op.getArgName().value_or("").str();
    if (std::optional<Type> type = op.getFloatType()) {
      std::optional<machine::ElemType> elem = toElemType(*type);
      if (!elem)
        return op.emitError("unsupported float argument type ") << *type;
      arg.floatType = 1 + static_cast<uint8_t>(*elem);
      arg.upperbound = arg.lowerbound = 0;
    }
    bundle.runtimeArgs.push_back(arg);
    return success();
  }

  LogicalResult declare(dfir::BufferOp op) {
    auto memory = findMemory(op, op.getMemory());
    if (failed(memory))
      return failure();
    uint64_t &cursor = nextOffset[*memory];
    uint64_t offset = op.getOffset() ? *op.getOffset() : cursor;
    uint64_t size = op.getSize();
    uint64_t capacity = machine.memories[*memory].size;
    if (offset > capacity || size > capacity - offset)
      return op.emitError("scratchpad over capacity: buffer @")
             << op.getSymName() << " needs bytes [" << offset << ", "
             << offset + size << ") of '" << op.getMemory()
             << "', which has " << capacity << " bytes";
    cursor = std::max(cursor, offset + size);
    symbols.bufferOffsets[op.getSymName()] = offset;
    bundle.buffers.push_back({op.getSymName().str(), *memory, offset, size});
    return success();
  }

  LogicalResult declare(dfir::FifoOp op) {
    auto from = findUnit(op, op.getFrom());
    auto to = findUnit(op, op.getTo());
    if (failed(from) || failed(to))
      return failure();
    auto link = machine.findLink({machine::NodeRef::Unit, *from},
                                 {machine::NodeRef::Unit, *to});
    if (!link)
      return op.emitError("FIFO endpoints '")
             << op.getFrom() << "' and '" << op.getTo()
             << "' are not joined by a datapath of the device";
    const machine::MachineLink &l = machine.links[*link];
    if (l.fifoDepth == 0)
      return op.emitError("the datapath from '")
             << op.getFrom() << "' to '" << op.getTo()
             << "' is not a FIFO (it has no queue feature)";
    uint64_t depth = op.getDepth() ? *op.getDepth() : l.fifoDepth;
    if (depth > l.fifoDepth)
      return op.emitError("depth ")
             << depth << " exceeds the datapath's queue depth "
             << l.fifoDepth;
    uint64_t entry = op.getEntry();
    if (!l.granularities.empty() &&
        !llvm::is_contained(l.granularities, entry))
      return op.emitError("entry size ")
             << entry << " is not a transfer granularity of the datapath";
    symbols.fifos[op.getSymName()] = bundle.fifos.size();
    bundle.fifos.push_back({op.getSymName().str(), *from, *to, *link,
                            static_cast<uint32_t>(depth),
                            static_cast<uint32_t>(entry)});
    return success();
  }

  LogicalResult declare(dfir::SyncOp op) {
    auto from = findUnit(op, op.getFrom());
    auto to = findUnit(op, op.getTo());
    if (failed(from) || failed(to))
      return failure();
    symbols.syncs[op.getSymName()] = bundle.syncs.size();
    bundle.syncs.push_back({op.getSymName().str(), *from, *to});
    return success();
  }

  LogicalResult emitUnit(dfir::UnitOp op) {
    auto unit = findUnit(op, op.getUnit());
    if (failed(unit))
      return failure();
    ProgramEmitter emitter(machine, symbols, bundle, *unit);
    if (failed(emitter.emit(op)))
      return failure();
    std::vector<uint32_t> offsets;
    uint32_t index = bundle.programs.size();
    bundle.programs.push_back({*unit, encodeProgram(emitter.program, &offsets)});
    for (auto [inst, kind, symbol] : emitter.relocations)
      bundle.relocations.push_back({index, offsets[inst], kind, symbol});
    std::vector<machine::SourceLoc> &locs =
        bundle.sources.programs.emplace_back();
    for (LocationAttr loc : emitter.instLocs)
      locs.push_back(toSourceLoc(loc));
    return success();
  }

  /// The file, line and column `loc` holds, or is fused or named from;
  /// unknown when it holds none.
  machine::SourceLoc toSourceLoc(LocationAttr loc) {
    auto file = loc ? loc.findInstanceOf<FileLineColRange>() : nullptr;
    if (!file)
      return {};
    auto [it, added] = fileIndices.try_emplace(file.getFilename().getValue(),
                                               bundle.sources.files.size() + 1);
    if (added)
      bundle.sources.files.push_back(file.getFilename().str());
    return {it->second, file.getStartLine(), file.getStartColumn()};
  }

  dfir::KernelOp kernel;
  const machine::Machine &machine;
  Bundle bundle;
  KernelSymbols symbols;
  std::vector<dfir::TensorOp> tensorOps;
  llvm::DenseMap<uint32_t, uint64_t> nextOffset;
  /// Source file name -> its index in bundle.sources.files, plus one.
  llvm::StringMap<uint32_t> fileIndices;
};
} // namespace

FailureOr<Bundle> ktflow::bundle::emitBundle(dfir::KernelOp kernel,
                                             const machine::Machine &machine) {
  return KernelEmitter(kernel, machine).run();
}
