//===- Compile.cpp - Compile a KTIR module for a device -------------------===//
//
// This file points a kernel module at a device description and runs the
// scheduler's pass pipeline on it. A kernel whose scratchpad comes out over
// capacity is compiled again without the grid points merged for the matrix
// unit (ktdf-share-left-operands) when they were, then with its widest rows
// streamed in column chunks (ktdf-stream-wide-rows), halving the chunk
// until it fits.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Compiler/Compile.h"
#include "ktflow/Device/DeviceModel.h"
#include "ktflow/Device/MemoryTree.h"
#include "ktflow/Device/Target.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDFArch/IR/KTDFArch.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Support/ElementBytes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace ktflow;

LogicalResult ktflow::setTarget(ModuleOp module, StringRef devicePath,
                                ModuleLoader &loader) {
  OwningOpRef<ModuleOp> description = loader.load(devicePath);
  if (!description)
    return failure();
  return setTarget(module, *description, devicePath);
}

LogicalResult ktflow::setTarget(ModuleOp module, ModuleOp description,
                                StringRef devicePath) {
  MLIRContext *ctx = module.getContext();
  FailureOr<ktdf_arch::DeviceOp> found = device::findDevice(description);
  if (failed(found))
    return failure();
  ktdf_arch::DeviceOp device = *found;
  SmallString<256> absolute(devicePath);
  if (std::error_code ec = llvm::sys::fs::make_absolute(absolute))
    return emitError(UnknownLoc::get(ctx))
           << "cannot resolve '" << devicePath << "': " << ec.message();
  auto deviceRef = FlatSymbolRefAttr::get(ctx, device.getSymName());

  FailureOr<ktdf_arch::TargetOp> declared = device::findOptionalTarget(module);
  if (failed(declared))
    return failure();
  if (ktdf_arch::TargetOp target = *declared) {
    target.setDeviceAttr(deviceRef);
    target.setPathAttr(StringAttr::get(ctx, absolute));
    return target.verifyDevice(device);
  }
  FailureOr<device::DeviceModel> model = device::DeviceModel::build(device);
  if (failed(model))
    return failure();
  device::MemoryTree tree(*model);
  SmallVector<Attribute> keys, values;
  if (!tree.getRoots().empty()) {
    keys.push_back(StringAttr::get(ctx, "global"));
    values.push_back(StringAttr::get(
        ctx, model->getNode(tree.getRoots().front()).getKind()));
  }
  for (device::NodeId mem : tree.getMemoriesAtLevel(1))
    if (model->isWithin(model->getNode(mem).scope, model->getCoreScope())) {
      keys.push_back(StringAttr::get(ctx, "ct_local"));
      values.push_back(StringAttr::get(ctx, model->getNode(mem).getKind()));
      break;
    }
  OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
  ktdf_arch::TargetOp::create(builder, module.getLoc(), deviceRef,
                              StringAttr::get(ctx, absolute),
                              ktdf_arch::MapAttr::get(ctx, keys, values));
  return success();
}

static LogicalResult runPipeline(ModuleOp module, const CompileOptions &options,
                                 CompileStage stage) {
  PassManager pm(module.getContext());
  buildMappingPipeline(pm, options);
  buildSchedulingPipeline(pm, options);
  if (stage == CompileStage::Dataflow)
    buildLoweringPipeline(pm);
  if (options.instrument && failed(options.instrument(pm)))
    return failure();
  return pm.run(module);
}

/// Runs the pipeline with its diagnostics held in `diagnostics` instead of
/// reported.
static LogicalResult runHeld(ModuleOp module, const CompileOptions &options,
                             CompileStage stage,
                             std::vector<Diagnostic> &diagnostics) {
  ScopedDiagnosticHandler hold(module.getContext(), [&](Diagnostic &d) {
    diagnostics.push_back(std::move(d));
    return success();
  });
  return runPipeline(module, options, stage);
}

static void report(MLIRContext *ctx, std::vector<Diagnostic> &diagnostics,
                   bool warningsOnly = false) {
  for (Diagnostic &d : diagnostics)
    if (!warningsOnly || d.getSeverity() == DiagnosticSeverity::Warning)
      ctx->getDiagEngine().emit(std::move(d));
  diagnostics.clear();
}

bool ktflow::isScratchpadOverCapacity(const Diagnostic &d) {
  return d.getSeverity() == DiagnosticSeverity::Error &&
         StringRef(d.str()).starts_with(ktdf::kScratchpadOverCapacity);
}

static bool isOverCapacity(ArrayRef<Diagnostic> diagnostics) {
  return llvm::any_of(diagnostics, isScratchpadOverCapacity);
}

/// The ktdp.load of `module` that makes the largest tensor, and its bytes.
static std::pair<Operation *, int64_t> widestLoad(ModuleOp module) {
  std::pair<Operation *, int64_t> widest{nullptr, 0};
  module.walk([&](ktdp::LoadOp load) {
    auto type = dyn_cast<RankedTensorType>(load.getType());
    if (!type || !type.hasStaticShape())
      return;
    int64_t bytes =
        type.getNumElements() * ktflow::bytesPerElement(type.getElementType());
    if (bytes > widest.second)
      widest = {load, bytes};
  });
  return widest;
}

/// Makes `module` a copy of `original` again.
static void restore(ModuleOp module, ModuleOp original) {
  module.getBody()->clear();
  IRMapping mapping;
  for (Operation &op : *original.getBody())
    module.getBody()->push_back(op.clone(mapping));
  module->setAttrs(original->getAttrDictionary());
}

/// Whether a pass marked a function of `module` with the attribute `name`:
/// the streaming passes cut something into chunks, or grid points merged.
static bool hasMark(ModuleOp module, StringRef name) {
  return llvm::any_of(module.getOps<func::FuncOp>(),
                      [&](func::FuncOp f) { return f->hasAttr(name); });
}

LogicalResult ktflow::compile(ModuleOp module, const CompileOptions &options,
                              CompileStage stage) {
  if (options.maxRowBytes != 0)
    return runPipeline(module, options, stage);
  MLIRContext *ctx = module.getContext();
  OwningOpRef<ModuleOp> original = module.clone();
  std::vector<Diagnostic> whole;
  LogicalResult result = runHeld(module, options, stage, whole);
  if (succeeded(result) || !isOverCapacity(whole)) {
    report(ctx, whole);
    return result;
  }
  // Merged grid points hold their factor times the rows in the exchange
  // views: unmerged, the kernel may fit whole, as it did before the merge.
  CompileOptions streaming = options;
  if (hasMark(module, ktdf::kMergedPoints)) {
    Location where =
        llvm::find_if(whole, isScratchpadOverCapacity)->getLocation();
    restore(module, *original);
    CompileOptions unmerged = options;
    unmerged.knobs.mergePoints = false;
    std::vector<Diagnostic> separate;
    if (succeeded(runHeld(module, unmerged, stage, separate))) {
      report(ctx, separate);
      emitRemark(where) << "grid points are not merged to fill the matrix "
                           "unit's rows: merged, they need more scratchpad "
                           "than the device has";
      return success();
    }
    if (isOverCapacity(separate))
      streaming = unmerged;
  }
  // Row tensors of at most half, a quarter, ... of the widest load, down to
  // chunks of a few KiB (smaller ones would cost more in DMA setup than the
  // scratchpad they free).
  constexpr int64_t kSmallestChunkBytes = 4096;
  std::vector<Diagnostic> chunked;
  auto [widest, widestBytes] = widestLoad(*original);
  for (int64_t bytes = widestBytes / 2; bytes >= kSmallestChunkBytes;
       bytes /= 2) {
    restore(module, *original);
    streaming.maxRowBytes = bytes;
    chunked.clear();
    if (succeeded(runHeld(module, streaming, stage, chunked))) {
      report(ctx, chunked);
      auto load = dyn_cast<ktdp::LoadOp>(widest);
      if (load && load.getAccessTile()
                      .getDefiningOp<ktdp::ConstructIndirectAccessTileOp>())
        emitRemark(widest->getLoc())
            << "gathers over " << bytes
            << " bytes move in chunks: whole, they need more scratchpad "
               "than the device has";
      else
        emitRemark(widest->getLoc())
            << "row tensors over " << bytes
            << " bytes are computed in column chunks: whole, the rows need "
               "more scratchpad than the device has";
      return success();
    }
    if ((!hasMark(module, "ktdf.streamed_rows") &&
         !hasMark(module, "ktdf.split_gathers")) ||
        !isOverCapacity(chunked))
      break;
  }
  report(ctx, whole);
  // Why a row could not be streamed, if that is why.
  report(ctx, chunked, /*warningsOnly=*/true);
  return failure();
}

dfir::KernelOp ktflow::getCompiledKernel(ModuleOp module) {
  SmallVector<dfir::KernelOp> kernels(module.getOps<dfir::KernelOp>());
  if (kernels.size() == 1)
    return kernels.front();
  emitError(module.getLoc())
      << "expected one compiled kernel in the module, found "
      << kernels.size();
  return {};
}
