//===- KernelTensors.cpp - The kernel's tensors in DataflowIR -------------===//
//
// This file gives the tensors a scheduled kernel reads and writes their
// runtime symbols and declarations: a kernel argument used as the start
// address of memory views becomes tensor `argN`, a launch scalar (a
// runtime argument, a plain integer argument no view starts at, or a float
// scalar such as a norm's epsilon)
// `dfir.runtime_arg argN`, and the views at a literal address a tensor
// `litADDR` of its own (literal tensors must not overlap); each records
// where the kernel has it (argument position and source name, or address),
// which is how the tools find it. A tensor's type
// is the one --ktdf-record-tensor-extents recorded, else the one its views
// declare now; its role (input, output, inout) follows from the transfers
// that read and write it.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "ktflow/Analysis/LaunchArguments.h"
#include "ktflow/Analysis/TensorExtent.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/IR/ScratchpadView.h"
#include "ktflow/Support/ArgumentNames.h"

#include "mlir/IR/Matchers.h"

#include <limits>

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

std::string KernelLowering::tensorOf(Value viewOffset) const {
  if (auto it = tensorSymbols.find(viewOffset); it != tensorSymbols.end())
    return it->second;
  // A computed address: the tensor of the argument it is computed from.
  if (auto address = ktflow::getViewAddress(viewOffset))
    if (auto it = tensorSymbols.find(address->argument);
        it != tensorSymbols.end())
      return it->second;
  APInt literal;
  if (matchPattern(viewOffset, m_ConstantInt(&literal)))
    if (auto it = literalSymbols.find(literal.getSExtValue());
        it != literalSymbols.end())
      return it->second;
  return "";
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
    // Runtime arguments and plain integer and float scalars are bound at
    // launch.
    if (ktflow::isLaunchScalar(arg) || ktflow::isFloatLaunchScalar(arg)) {
      runtimeSymbols[arg] = symbol;
      continue;
    }
    for (Operation *user : arg.getUsers()) {
      auto view = dyn_cast<ktdp::ConstructMemoryViewOp>(user);
      // Or the start of views at a computed address (`arg + offset`).
      auto add = dyn_cast<arith::AddIOp>(user);
      bool computed = add && llvm::all_of(add->getUsers(), [&](Operation *u) {
                        auto v = dyn_cast<ktdp::ConstructMemoryViewOp>(u);
                        auto address = v ? ktflow::getViewAddress(v.getOffset())
                                         : std::nullopt;
                        return address && address->argument == arg;
                      });
      if (!computed && (!view || view.getOffset() != arg))
        return user->emitError("kernel argument ")
               << arg.getArgNumber()
               << " is used other than as the start address of a memory "
                  "view; only integer and index scalar arguments are "
                  "supported";
      tensorSymbols[arg] = symbol;
    }
    if (tensorSymbols.count(arg) &&
        failed(collectTensorType(symbol, arg, std::nullopt)))
      return failure();
  }
  if (failed(collectLiteralTensors()))
    return failure();
  const ktflow::sched::Lane &lane0 = target.getLanes().front();
  globalMemory = target.getInstanceName(target.getGlobalMemory(), 0, lane0);
  return success();
}

LogicalResult KernelLowering::collectLiteralTensors() {
  // Views at literal addresses: one tensor per address, which must not
  // overlap another (the runtime places each tensor where it likes).
  std::map<int64_t, ktdp::ConstructMemoryViewOp> literalViews;
  parallel.walk([&](ktdp::ConstructMemoryViewOp view) {
    APInt literal;
    if (matchPattern(view.getOffset(), m_ConstantInt(&literal)) &&
        !ktdp::isScratchpadView(view))
      literalViews.insert({literal.getSExtValue(), view});
  });
  int64_t end = 0;
  for (auto &[start, view] : literalViews) {
    std::string symbol = "lit" + std::to_string(start);
    if (failed(collectTensorType(symbol, {}, start)))
      return failure();
    if (start < end)
      return view.emitError("the view at literal address ")
             << start
             << " overlaps the memory of another view at a literal "
                "address; such aliasing is not supported yet";
    end = start + tensorTypes[symbol].type.getNumElements();
    literalSymbols[start] = symbol;
  }
  return success();
}

LogicalResult KernelLowering::collectScratchpadInputs() {
  // The kernel's own scratchpad views read, and the spans any transfer
  // writes: a read region no write touches holds what was there before the
  // kernel (field guide §1b.6), so each tile's copy is a launch input.
  std::map<int64_t, ScratchpadInput> read;
  SmallVector<std::pair<int64_t, int64_t>> written;
  forEachViewMoved([&](ktdp::ConstructMemoryViewOp view, bool isRead) {
    auto space = ktdp::normalizeMemorySpace(view.getMemorySpace());
    auto kind = view->getAttrOfType<StringAttr>("ktdf.memory");
    APInt literal;
    if (!space || space->kind != ktdp::MemoryKind::ct_local || !kind ||
        !matchPattern(view.getOffset(), m_ConstantInt(&literal)))
      return;
    int64_t start = literal.getSExtValue();
    if (!isRead) {
      // A write of unknown bytes may overwrite any read.
      written.push_back(ktdp::getLiteralByteSpan(view).value_or(
          std::make_pair(std::numeric_limits<int64_t>::min(),
                         std::numeric_limits<int64_t>::max())));
      return;
    }
    if (space->computeTileId || isCarriedView(view) || isHandoverView(view))
      return;
    ScratchpadInput &input = read[start];
    input.kind = kind.getValue().str();
    if (!llvm::is_contained(input.views, view))
      input.views.push_back(view);
  });
  for (auto &[start, input] : read) {
    for (ktdp::ConstructMemoryViewOp view : input.views)
      if (!ktdp::getLiteralByteSpan(view))
        return view.emitError("a scratchpad view the kernel reads needs "
                              "static sizes and strides");
    bool overwritten = llvm::any_of(input.views, [&](auto view) {
      auto readSpan = *ktdp::getLiteralByteSpan(view);
      return llvm::any_of(written, [&](auto span) {
        return std::max(span.first, readSpan.first) <
               std::min(span.second, readSpan.second);
      });
    });
    if (overwritten)
      continue;
    ktdp::ConstructMemoryViewOp view = input.views.front();
    // The runtime places tile K's copy in core K's scratchpad at the
    // literal address, which is where the lowering addresses it only when
    // the tile runs alone on the core's first lane.
    for (int64_t tile = 0, e = parallel.getNumPoints(); tile < e; ++tile) {
      const LaneInstance *li = laneOfTile(tile);
      if (!li || li->lane != 0)
        return view.emitError("tile ")
               << tile << " reads scratchpad memory at literal address "
               << start
               << " that the kernel never writes (an `lx<K>@ADDR` input: "
                  "contents from before the kernel), which needs every tile "
                  "alone on a core of its own; the grid has "
               << e << " tiles and the device " << target.getNumCores()
               << " cores";
    }
    auto shape = ktflow::getDeclaredTensorShape(input.views);
    if (failed(shape))
      return failure();
    if (!shape->dynamicSizes.empty())
      return view.emitError("scratchpad views at literal address ")
             << start << " need static sizes";
    input.type = RankedTensorType::get(shape->shape, shape->elementType);
    scratchpadInputs[start] = std::move(input);
  }
  return success();
}

LogicalResult
KernelLowering::collectTensorType(StringRef symbol, BlockArgument arg,
                                  std::optional<int64_t> literal) {
  auto &[type, dims, scales] = tensorTypes[symbol];
  if (!literal) {
    if (auto recorded = func.getArgAttrOfType<TypeAttr>(arg.getArgNumber(),
                                                        ktflow::kTensorAttr)) {
      type = cast<RankedTensorType>(recorded.getValue());
      if (auto positions = func.getArgAttrOfType<DenseI64ArrayAttr>(
              arg.getArgNumber(), ktflow::kTensorDimsAttr))
        dims.assign(positions.asArrayRef().begin(),
                    positions.asArrayRef().end());
      scales.assign(dims.size(), 1);
      if (auto recordedScales = func.getArgAttrOfType<DenseI64ArrayAttr>(
              arg.getArgNumber(), ktflow::kTensorDimScalesAttr))
        scales.assign(recordedScales.asArrayRef().begin(),
                      recordedScales.asArrayRef().end());
      return success();
    }
  } else if (auto recorded = func->getAttrOfType<DictionaryAttr>(
                 ktflow::kLiteralTensorsAttr)) {
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
    BlockArgument scalar = ktflow::getLaunchScalar(size);
    if (!scalar)
      return func.emitError("a dynamic size of the tensor ")
             << symbol << " is not a scalar kernel argument";
    dims.push_back(scalar.getArgNumber());
    scales.push_back(1);
  }
  return success();
}

/// The role of a tensor the kernel reads, writes or both.
static dfir::TensorRole roleOf(bool read, bool written) {
  return written ? (read ? dfir::TensorRole::inout : dfir::TensorRole::output)
                 : dfir::TensorRole::input;
}

void KernelLowering::forEachViewMoved(
    function_ref<void(ktdp::ConstructMemoryViewOp, bool)> fn) {
  parallel.walk([&](DataTransferOp op) {
    for (auto [end, isSrc] : {std::make_pair(op.getSrc(), true),
                              std::make_pair(op.getDst(), false)}) {
      if (!isa<ktdp::AccessTileType>(end.getType()))
        continue;
      if (auto view = ktdp::getAccessTileView(end)) {
        fn(view, isSrc);
        continue;
      }
      // A gather or scatter moves its base view and reads its indices.
      auto tile = end.getDefiningOp<ktdp::ConstructIndirectAccessTileOp>();
      if (!tile)
        continue;
      if (auto base =
              tile.getBase().getDefiningOp<ktdp::ConstructMemoryViewOp>())
        fn(base, isSrc);
      for (Value index : tile.getIndirectMemrefs())
        if (auto view = index.getDefiningOp<ktdp::ConstructMemoryViewOp>())
          fn(view, true);
    }
  });
  // The resident parts read in place of a fill's views (ResidentCopies.cpp).
  for (auto &entry : residentSources)
    fn(entry.second, true);
  for (auto &entry : keptInPlace)
    fn(entry.second.first, true);
}

void KernelLowering::declareTensors(OpBuilder &b) {
  MLIRContext *ctx = func.getContext();
  Location loc = func.getLoc();
  Block &entry = func.front();
  // Which kernel argument a symbol is, for the tools to name it as the
  // kernel does.
  auto position = [&](BlockArgument arg) {
    return b.getI64IntegerAttr(arg.getArgNumber());
  };
  auto name = [&](BlockArgument arg) {
    std::string text = ktflow::getArgumentName(arg);
    return text.empty() ? StringAttr() : b.getStringAttr(text);
  };
  // Runtime arguments first: tensor dims name them. A runtime_arg is
  // positive (the op's default lower bound); a plain scalar may be any value
  // of its type.
  for (BlockArgument arg : entry.getArguments()) {
    if (!runtimeSymbols.count(arg))
      continue;
    if (isa<FloatType>(arg.getType())) {
      auto op = dfir::RuntimeArgOp::create(b, loc, runtimeSymbols[arg],
                                           /*granularity=*/1,
                                           /*upperbound=*/0);
      op.setFloatTypeAttr(TypeAttr::get(arg.getType()));
      op.setArgumentAttr(position(arg));
      op.setArgNameAttr(name(arg));
      continue;
    }
    ktflow::LaunchArgumentBounds bounds = ktflow::getLaunchArgumentBounds(arg);
    auto op = dfir::RuntimeArgOp::create(b, loc, runtimeSymbols[arg],
                                         bounds.granularity, bounds.upper);
    if (!bounds.lowerPromised)
      op.setLowerboundAttr(b.getI64IntegerAttr(bounds.lower));
    op.setArgumentAttr(position(arg));
    op.setArgNameAttr(name(arg));
  }
  for (BlockArgument arg : entry.getArguments()) {
    auto it = tensorSymbols.find(arg);
    if (it == tensorSymbols.end())
      continue;
    Location at = arg.getUsers().begin()->getLoc();
    bool read = false, written = false;
    forEachViewMoved([&](ktdp::ConstructMemoryViewOp view, bool isRead) {
      auto address = ktflow::getViewAddress(view.getOffset());
      if (address && address->argument == arg)
        (isRead ? read : written) = true;
    });
    auto &[type, dimArgs, scales] = tensorTypes[it->second];
    SmallVector<Attribute> dims;
    for (int64_t position : dimArgs)
      dims.push_back(FlatSymbolRefAttr::get(
          ctx, runtimeSymbols[entry.getArgument(position)]));
    bool scaled = llvm::any_of(scales, [](int64_t s) { return s != 1; });
    dfir::TensorOp::create(
        b, at, roleOf(read, written), it->second, type, globalMemory,
        dims.empty() ? ArrayAttr() : b.getArrayAttr(dims), position(arg),
        name(arg), IntegerAttr(), IntegerAttr(),
        scaled ? b.getDenseI64ArrayAttr(scales) : DenseI64ArrayAttr());
  }
  for (auto &entry : literalSymbols) {
    const std::string &symbol = entry.second;
    ktdp::ConstructMemoryViewOp view;
    bool read = false, written = false;
    forEachViewMoved([&](ktdp::ConstructMemoryViewOp v, bool isRead) {
      if (tensorOf(v.getOffset()) != symbol)
        return;
      view = v;
      (isRead ? read : written) = true;
    });
    if (!view)
      continue;
    dfir::TensorOp::create(b, view.getLoc(), roleOf(read, written), symbol,
                           tensorTypes[symbol].type, globalMemory, ArrayAttr(),
                           IntegerAttr(), StringAttr(),
                           b.getI64IntegerAttr(entry.first), IntegerAttr(),
                           DenseI64ArrayAttr());
  }
  for (auto &[start, input] : scratchpadInputs) {
    // Only the tiles that run a transfer of the region read their copy
    // (a tile copy's fill runs on the tiles that send it only).
    llvm::SmallDenseSet<int64_t> readers;
    ArrayRef<ktdp::ConstructMemoryViewOp> views = input.views;
    parallel.walk([&](DataTransferOp op) {
      auto src = isa<ktdp::AccessTileType>(op.getSrc().getType())
                     ? ktdp::getAccessTileView(op.getSrc())
                     : ktdp::ConstructMemoryViewOp();
      if (!src || !llvm::is_contained(views, src))
        return;
      const PipelineInfo &info = infoOf(op->getParentOfType<PipelineOp>());
      for (int64_t tile = 0, e = parallel.getNumPoints(); tile < e; ++tile)
        if (runsWork(info, *laneOfTile(tile)))
          readers.insert(tile);
    });
    // A resident part a copy sends, on the tiles that send it, or that a
    // kept destination stands for, on the tiles keeping it
    // (ResidentCopies.cpp).
    for (auto &[copy, part] : residentSources)
      if (llvm::is_contained(views, part))
        for (auto [c, p] : llvm::enumerate(cast<TileCopyOp>(copy).getSources()))
          if (p >= 0 && p != static_cast<int64_t>(c))
            readers.insert(p);
    for (auto &[view, kept] : keptInPlace)
      if (llvm::is_contained(views, kept.first))
        readers.insert(kept.second.begin(), kept.second.end());
    for (int64_t tile = 0, e = parallel.getNumPoints(); tile < e; ++tile)
      if (readers.contains(tile))
        dfir::TensorOp::create(
            b, input.views.front().getLoc(), dfir::TensorRole::input,
            "lx" + std::to_string(tile) + "_" + std::to_string(start),
            input.type, memoryOf(input.kind, *laneOfTile(tile)), ArrayAttr(),
            IntegerAttr(), StringAttr(), b.getI64IntegerAttr(start),
            b.getI64IntegerAttr(tile), DenseI64ArrayAttr());
  }
}
