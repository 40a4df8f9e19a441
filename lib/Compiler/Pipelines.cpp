//===- Pipelines.cpp - The scheduler's pass pipeline ----------------------===//
//
// This file builds the scheduler's pass pipeline: three groups with a fixed
// IR contract at each boundary and the device's PDL patterns applied at the
// four checkpoints. -O0 keeps the simplest legal schedule.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Compiler/Pipelines.h"
#include "ktflow/Conversion/Passes.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/Transforms/Passes.h"

#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

std::string ktflow::describeSchedule(const CompileOptions &options) {
  const ScheduleKnobs &k = options.knobs, defaults;
  std::string words;
  auto add = [&](StringRef name, const Twine &value) {
    words += (words.empty() ? "" : " ") + (name + "=" + value).str();
  };
  auto flag = [](bool on) { return on ? "on" : "off"; };
  if (options.chunk)
    add("chunk", Twine(options.chunk));
  if (k.chunkScale != defaults.chunkScale)
    add("chunk-scale", Twine(k.chunkScale));
  if (options.depth)
    add("depth", Twine(options.depth));
  if (k.coarsenFactor != defaults.coarsenFactor)
    add("coarsen", Twine(k.coarsenFactor));
  if (k.coarsenScale != defaults.coarsenScale)
    add("coarsen-scale", Twine(k.coarsenScale));
  if (k.spreadFactor != defaults.spreadFactor)
    add("spread", Twine(k.spreadFactor));
  if (k.splitFactor != defaults.splitFactor)
    add("split", Twine(k.splitFactor));
  if (k.useLanes != defaults.useLanes)
    add("lanes", flag(k.useLanes));
  if (k.hoist != defaults.hoist)
    add("hoist", flag(k.hoist));
  if (k.hoistGrid != defaults.hoistGrid)
    add("hoist-grid", flag(k.hoistGrid));
  if (k.spans != defaults.spans)
    add("spans", flag(k.spans));
  return words.empty() ? "default" : words;
}

static void addCheckpoint(OpPassManager &pm, StringRef name) {
  ktdf::KTDFApplyDevicePatternsOptions options;
  options.checkpoint = name.str();
  pm.addPass(ktdf::createKTDFApplyDevicePatterns(options));
}

void ktflow::buildMappingPipeline(OpPassManager &pm,
                                  const CompileOptions &options) {
  ktdf::KTDFSelectKernelOptions select;
  select.function = options.function;
  pm.addPass(ktdf::createKTDFSelectKernel(select));
  pm.addPass(ktdf::createKTDFUpliftWhile());
  pm.addPass(ktdf::createKTDFLowerIf());
  pm.addPass(ktdf::createKTDFUnrollCarriedLoops());
  pm.addPass(ktdf::createKTDFForwardStores());
  ktdf::KTDFStreamWideRowsOptions stream;
  stream.maxTileBytes = options.maxRowBytes;
  pm.addPass(ktdf::createKTDFStreamWideRows(stream));
  pm.addPass(ktdf::createKTDFImportTarget());
  pm.addPass(ktdf::createKTDFRecordTensorExtents());
  pm.addPass(ktdf::createKTDFForwardScratchpadParts());
  pm.addPass(ktdf::createKTDFResolveDistributedViews());
  pm.addPass(ktdf::createKTDFRemoteScratchpadLoads());
  pm.addPass(ktdf::createKTDFRowMajorViews());
  addCheckpoint(pm, "pre_mapping");
  pm.addPass(ktdp::createKTIRCheckLegality());
  pm.addPass(ktdf::createKTDFCheckSupported());
  if (options.optimize) {
    pm.addPass(ktdf::createKTDFShareLeftOperands());
    ktdf::KTDFSplitOutputBlocksOptions split;
    split.maxFactor = options.knobs.splitFactor;
    pm.addPass(ktdf::createKTDFSplitOutputBlocks(split));
    ktdf::KTDFSplitRowTilesOptions rows;
    rows.maxFactor = options.knobs.spreadFactor;
    pm.addPass(ktdf::createKTDFSplitRowTiles(rows));
  }
  pm.addPass(ktdf::createKTDFLowerInterTile());
  ktdf::KTDFMergeExchangeTilesOptions merge;
  merge.useLanes = options.optimize && options.knobs.useLanes;
  pm.addPass(ktdf::createKTDFMergeExchangeTiles(merge));
  pm.addPass(ktdf::createKTDFCarryInScratchpad());
  pm.addPass(ktdf::createKTDFMapMemorySpaces());
  pm.addPass(ktdf::createKTDFSinkIntoLoops());
  pm.addPass(ktdf::createKTDFGeneralize());
  pm.addPass(ktdf::createKTDFSplitMatrixGroups());
  pm.addPass(createKTIRToKTDF());
}

void ktflow::buildSchedulingPipeline(OpPassManager &pm,
                                     const CompileOptions &options) {
  const ScheduleKnobs &knobs = options.knobs;
  addCheckpoint(pm, "pre_scheduling");
  pm.addPass(ktdf::createKTDFRouteTransfers());
  ktdf::KTDFTileStreamsOptions tile;
  tile.chunk = options.chunk;
  tile.useCostModel = options.optimize;
  tile.chunkScale = options.optimize ? knobs.chunkScale : 0;
  pm.addPass(ktdf::createKTDFTileStreams(tile));
  if (options.optimize) {
    ktdf::KTDFSpreadIterationsOptions spread;
    spread.maxFactor = knobs.spreadFactor;
    pm.addPass(ktdf::createKTDFSpreadIterations(spread));
  }
  ktdf::KTDFDistributeOptions distribute;
  distribute.useLanes = options.optimize && knobs.useLanes;
  distribute.balance = options.optimize;
  pm.addPass(ktdf::createKTDFDistribute(distribute));
  if (options.optimize) {
    ktdf::KTDFCoarsenOptions coarsen;
    coarsen.factor = knobs.coarsenFactor;
    coarsen.factorScale = knobs.coarsenScale;
    pm.addPass(ktdf::createKTDFCoarsen(coarsen));
  }
  ktdf::KTDFBufferOptions buffer;
  buffer.depth = options.optimize ? options.depth : 1;
  pm.addPass(ktdf::createKTDFBuffer(buffer));
  if (options.optimize && knobs.hoist) {
    ktdf::KTDFHoistInvariantTransfersOptions hoist;
    hoist.grid = knobs.hoistGrid;
    hoist.spans = knobs.spans;
    // A forced depth of 1 (single buffering) holds for spans too.
    hoist.spanCopies = options.depth == 1 ? 1 : 2;
    pm.addPass(ktdf::createKTDFHoistInvariantTransfers(hoist));
    pm.addPass(ktdf::createKTDFWidenInvariantColumns());
  }
  if (options.optimize) {
    pm.addPass(ktdf::createKTDFKeepCarriedChunks());
    pm.addPass(ktdf::createKTDFRowBlocks());
  }
  pm.addPass(ktdf::createKTDFAllocateScratchpad());
  pm.addPass(ktdf::createKTDFScheduleAllReduce());
  addCheckpoint(pm, "post_scheduling");
}

void ktflow::buildLoweringPipeline(OpPassManager &pm, const CompileOptions &) {
  pm.addPass(createKTDFToDFIR());
  addCheckpoint(pm, "post_lowering");
}

void ktflow::buildCompilePipeline(OpPassManager &pm,
                                  const CompileOptions &options) {
  buildMappingPipeline(pm, options);
  buildSchedulingPipeline(pm, options);
  buildLoweringPipeline(pm, options);
}

namespace {
struct PipelineCLOptions : public PassPipelineOptions<PipelineCLOptions> {
  Option<bool> O0{*this, "O0",
                  llvm::cl::desc("the simplest legal schedule (no cost model, "
                                 "single buffering, one lane per core)"),
                  llvm::cl::init(false)};
  Option<std::string> func{
      *this, "func",
      llvm::cl::desc("the kernel function (default: the module's only "
                     "kernel)"),
      llvm::cl::init("")};
  Option<int64_t> maxRowBytes{
      *this, "max-row-bytes",
      llvm::cl::desc("compute row tensors over this many bytes in column "
                     "chunks and move gathers over it in chunks "
                     "(ktdf-stream-wide-rows; 0: whole)"),
      llvm::cl::init(0)};
  ktflow::CompileOptions get() const {
    ktflow::CompileOptions options;
    options.optimize = !O0;
    options.function = func;
    options.maxRowBytes = maxRowBytes;
    return options;
  }
};
} // namespace

void ktflow::registerCompilePipelines() {
  PassPipelineRegistration<PipelineCLOptions>(
      "ktdf-mapping", "KTIR to ScheduleIR: the mapping group",
      [](OpPassManager &pm, const PipelineCLOptions &o) {
        buildMappingPipeline(pm, o.get());
      });
  PassPipelineRegistration<PipelineCLOptions>(
      "ktdf-scheduling", "ScheduleIR to ScheduleIR: the scheduling group",
      [](OpPassManager &pm, const PipelineCLOptions &o) {
        buildSchedulingPipeline(pm, o.get());
      });
  PassPipelineRegistration<PipelineCLOptions>(
      "ktdf-lowering", "ScheduleIR to DataflowIR: the lowering group",
      [](OpPassManager &pm, const PipelineCLOptions &o) {
        buildLoweringPipeline(pm, o.get());
      });
  PassPipelineRegistration<PipelineCLOptions>(
      "ktdf-compile", "KTIR to DataflowIR: mapping, scheduling, lowering",
      [](OpPassManager &pm, const PipelineCLOptions &o) {
        buildCompilePipeline(pm, o.get());
      });
}
