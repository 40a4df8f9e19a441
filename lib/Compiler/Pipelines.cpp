//===- Pipelines.cpp - The scheduler's pass pipeline ----------------------===//
//
// This file builds the scheduler's pass pipeline: three groups with a fixed
// IR contract at each boundary and the device's PDL patterns applied at the
// four checkpoints. -O0 keeps the simplest legal schedule.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Compiler/Pipelines.h"
#include "ktflow/Conversion/Passes.h"
#include "ktflow/Dialect/KTDF/Transforms/MergedLoads.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/Transforms/Passes.h"

#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using ktflow::CompileOptions;

namespace {
/// One schedule choice as describeSchedule spells it: a number, or a
/// switch written `on`/`off`.
struct ScheduleWord {
  const char *name;
  int64_t &(*number)(CompileOptions &);
  bool &(*flag)(CompileOptions &);
};
} // namespace

/// Every choice, in describeSchedule's order.
static const ScheduleWord kScheduleWords[] = {
    {"chunk", [](CompileOptions &o) -> int64_t & { return o.chunk; }, nullptr},
    {"chunk-scale",
     [](CompileOptions &o) -> int64_t & { return o.knobs.chunkScale; },
     nullptr},
    {"depth", [](CompileOptions &o) -> int64_t & { return o.depth; }, nullptr},
    {"coarsen",
     [](CompileOptions &o) -> int64_t & { return o.knobs.coarsenFactor; },
     nullptr},
    {"coarsen-scale",
     [](CompileOptions &o) -> int64_t & { return o.knobs.coarsenScale; },
     nullptr},
    {"spread",
     [](CompileOptions &o) -> int64_t & { return o.knobs.spreadFactor; },
     nullptr},
    {"split",
     [](CompileOptions &o) -> int64_t & { return o.knobs.splitFactor; },
     nullptr},
    {"lanes", nullptr,
     [](CompileOptions &o) -> bool & { return o.knobs.useLanes; }},
    {"hoist", nullptr,
     [](CompileOptions &o) -> bool & { return o.knobs.hoist; }},
    {"hoist-grid", nullptr,
     [](CompileOptions &o) -> bool & { return o.knobs.hoistGrid; }},
    {"spans", nullptr,
     [](CompileOptions &o) -> bool & { return o.knobs.spans; }},
    {"merge", nullptr,
     [](CompileOptions &o) -> bool & { return o.knobs.mergePoints; }},
    {"merge-loads", nullptr,
     [](CompileOptions &o) -> bool & { return o.knobs.mergeLoads; }},
};

std::string ktflow::describeSchedule(const CompileOptions &options) {
  CompileOptions given = options, defaults;
  std::string words;
  for (const ScheduleWord &word : kScheduleWords) {
    std::string value;
    if (word.number && word.number(given) != word.number(defaults))
      value = std::to_string(word.number(given));
    if (word.flag && word.flag(given) != word.flag(defaults))
      value = word.flag(given) ? "on" : "off";
    if (!value.empty())
      words += (words.empty() ? "" : " ") + (word.name + ("=" + value));
  }
  return words.empty() ? "default" : words;
}

llvm::Error ktflow::parseSchedule(StringRef words, CompileOptions &options) {
  SmallVector<StringRef> list;
  words.split(list, ' ', -1, /*KeepEmpty=*/false);
  for (StringRef text : list) {
    if (text == "default")
      continue;
    StringRef name, value;
    std::tie(name, value) = text.split('=');
    const ScheduleWord *word = llvm::find_if(
        kScheduleWords, [&](const ScheduleWord &w) { return name == w.name; });
    if (word == std::end(kScheduleWords))
      return llvm::createStringError(
          "'" + text +
          "' is not a schedule choice (chunk, chunk-scale, "
          "depth, coarsen, coarsen-scale, spread, split, lanes, "
          "hoist, hoist-grid, spans, merge, merge-loads)");
    int64_t number = 0;
    if (word->number && !value.getAsInteger(10, number)) {
      word->number(options) = number;
      continue;
    }
    if (word->flag && (value == "on" || value == "off")) {
      word->flag(options) = value == "on";
      continue;
    }
    return llvm::createStringError("'" + text + "': " + name + " takes " +
                                   (word->number ? "a number" : "on or off"));
  }
  return llvm::Error::success();
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
  // The device first: ktdf-merge-column-blocks asks for its lanes, before
  // ktdf-unroll-carried-loops unrolls a block loop carrying its offset.
  pm.addPass(ktdf::createKTDFImportTarget());
  // Before the column blocks: a run-time block loop whose offset it
  // derives from the induction variable carries nothing any more.
  pm.addPass(ktdf::createKTDFLowerCarriedScalars());
  if (options.optimize)
    pm.addPass(ktdf::createKTDFMergeColumnBlocks());
  pm.addPass(ktdf::createKTDFUnrollCarriedLoops());
  pm.addPass(ktdf::createKTDFSplitBatchedReductions());
  pm.addPass(ktdf::createKTDFLiftSlices());
  pm.addPass(ktdf::createKTDFForwardStores());
  ktdf::KTDFStreamWideRowsOptions stream;
  stream.maxTileBytes = options.maxRowBytes;
  pm.addPass(ktdf::createKTDFStreamWideRows(stream));
  pm.addPass(ktdf::createKTDFRecordTensorExtents());
  pm.addPass(ktdf::createKTDFForwardScratchpadParts());
  pm.addPass(ktdf::createKTDFResolveDistributedViews());
  pm.addPass(ktdf::createKTDFRemoteScratchpadLoads());
  pm.addPass(ktdf::createKTDFRowMajorViews());
  addCheckpoint(pm, "pre_mapping");
  pm.addPass(ktdp::createKTIRCheckLegality());
  pm.addPass(ktdf::createKTDFCheckSupported());
  if (options.optimize) {
    // One grid point's wide rows cut over idle cores, first; the passes
    // that fill idle lanes count them as ktdf-distribute will.
    pm.addPass(ktdf::createKTDFSplitWideReductions());
    ktdf::KTDFShareLeftOperandsOptions share;
    share.useLanes = options.knobs.useLanes;
    share.mergePoints = options.knobs.mergePoints;
    pm.addPass(ktdf::createKTDFShareLeftOperands(share));
    ktdf::KTDFSplitOutputBlocksOptions split;
    split.maxFactor = options.knobs.splitFactor;
    split.useLanes = options.knobs.useLanes;
    pm.addPass(ktdf::createKTDFSplitOutputBlocks(split));
    ktdf::KTDFSplitRowTilesOptions rows;
    rows.maxFactor = options.knobs.spreadFactor;
    rows.useLanes = options.knobs.useLanes;
    pm.addPass(ktdf::createKTDFSplitRowTiles(rows));
    ktdf::KTDFSplitPointRowsOptions halves;
    halves.useLanes = options.knobs.useLanes;
    pm.addPass(ktdf::createKTDFSplitPointRows(halves));
    // Spread over the lanes, a gather's chunks share out its index reads.
    pm.addPass(ktdf::createKTDFSplitIndexBoundGathers());
  }
  pm.addPass(ktdf::createKTDFLowerInterTile());
  ktdf::KTDFMergeExchangeTilesOptions merge;
  merge.useLanes = options.optimize && options.knobs.useLanes;
  pm.addPass(ktdf::createKTDFMergeExchangeTiles(merge));
  pm.addPass(ktdf::createKTDFCarryInScratchpad());
  // After the carried views: its views go past theirs. Its rows of one
  // element take no fixed chunk width.
  if (options.optimize && options.chunk == 0)
    pm.addPass(ktdf::createKTDFStoreStatsAfterLoop());
  pm.addPass(ktdf::createKTDFMapMemorySpaces());
  pm.addPass(ktdf::createKTDFSinkIntoLoops());
  pm.addPass(ktdf::createKTDFGeneralize());
  pm.addPass(ktdf::createKTDFLegalizeUnitTypes());
  pm.addPass(ktdf::createKTDFSplitMatrixGroups());
  pm.addPass(ktdf::createKTDFSplitShapeGroups());
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
  if (options.optimize)
    pm.addPass(ktdf::createKTDFMergeAdjacentLoads());
  pm.addPass(ktdf::createKTDFOrderGrid());
  if (options.optimize) {
    ktdf::KTDFSpreadIterationsOptions spread;
    spread.maxFactor = knobs.spreadFactor;
    spread.useLanes = knobs.useLanes;
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
    ktdf::KTDFRowBlocksOptions rowBlocks;
    rowBlocks.mergeLoadsOption =
        static_cast<int64_t>(knobs.mergeLoads ? ktdf::MergeLoads::CostModel
                                              : ktdf::MergeLoads::None);
    pm.addPass(ktdf::createKTDFRowBlocks(rowBlocks));
    // The halves ktdf-split-point-rows put on a core's two lanes.
    pm.addPass(ktdf::createKTDFSplitProductColumns());
    // Products sharing a left operand whose columns fit one block.
    pm.addPass(ktdf::createKTDFJoinProductColumns());
  }
  pm.addPass(ktdf::createKTDFAllocateScratchpad());
  pm.addPass(ktdf::createKTDFScheduleAllReduce());
  addCheckpoint(pm, "post_scheduling");
}

void ktflow::buildLoweringPipeline(OpPassManager &pm) {
  pm.addPass(createKTDFToDFIR());
  addCheckpoint(pm, "post_lowering");
}

void ktflow::buildCompilePipeline(OpPassManager &pm,
                                  const CompileOptions &options) {
  buildMappingPipeline(pm, options);
  buildSchedulingPipeline(pm, options);
  buildLoweringPipeline(pm);
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
  PassPipelineRegistration<>(
      "ktdf-lowering", "ScheduleIR to DataflowIR: the lowering group",
      [](OpPassManager &pm) { buildLoweringPipeline(pm); });
  PassPipelineRegistration<PipelineCLOptions>(
      "ktdf-compile", "KTIR to DataflowIR: mapping, scheduling, lowering",
      [](OpPassManager &pm, const PipelineCLOptions &o) {
        buildCompilePipeline(pm, o.get());
      });
}
