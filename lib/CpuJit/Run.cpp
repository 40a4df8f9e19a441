//===- Run.cpp - Running a compiled kernel over its grid ------------------===//
//
// This file runs a compiled kernel with the interpreter's bindings: each
// tensor argument becomes a dense native buffer holding the contents the
// interpreter would start it with (Interpreter::getInitialNative), scalars
// their bound values, and the grid's tiles run on a thread pool, a chunk
// of consecutive tiles per task. Tiles run concurrently only when no tile
// can load what another stores (Interpreter::whyTilesShareMemory); where
// one may, they take turns in the interpreter's order (Interleave.h),
// which defines what such loads see. Each store reports the range of elements
// it wrote (StoreLog.h); where ranges written by two concurrent tasks
// intersect, every tile reruns in ascending order, so the store that lands
// last is the interpreter's.
//
//===----------------------------------------------------------------------===//

#include "ktflow/CpuJit/CpuJit.h"
#include "ktflow/HostTensor/GeneratedPages.h"
#include "ktflow/Interpreter/ElementTypes.h"

#include "CompiledKernel.h"
#include "GrownViews.h"
#include "Interleave.h"
#include "PhaseTimer.h"
#include "StoreLog.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>

using namespace mlir;
using namespace ktflow;
using namespace ktflow::jit;
using host::DType;

namespace {
/// A memref<?xT> descriptor of a flat buffer, as the packed convention
/// passes it.
struct FlatMemRef {
  void *allocated = nullptr, *aligned = nullptr;
  int64_t offset = 0, size = 0, stride = 1;

  FlatMemRef() = default;
  FlatMemRef(void *data, int64_t n) : allocated(data), aligned(data), size(n) {}
  void pack(std::vector<void *> &args) {
    args.insert(args.end(), {&allocated, &aligned, &offset, &size, &stride});
  }
};

/// A scalar argument in its native width.
struct ScalarSlot {
  uint64_t bits = 0;
};
} // namespace

static uint64_t scalarBits(const interp::ScalarValue &value) {
  if (host::isFloat(value.dtype))
    return host::floatToBits(value.f, value.dtype);
  return host::zeroExtend(value.i, value.dtype);
}

namespace {
/// How many times a run starts over because views at computed addresses
/// grew a tensor (each rerun's buffers hold every view the runs before it
/// built, so a kernel whose addresses do not depend on loaded data needs
/// one).
constexpr unsigned kMaxGrowthReruns = 3;

/// The most tiles that take turns (a thread each).
constexpr int64_t kMaxInterleavedTiles = 256;
} // namespace

JitResult ktflow::jit::runCompiled(ModuleOp module,
                                   const interp::Interpreter &bound,
                                   interp::NumericsPolicy numerics,
                                   unsigned threads) {
  JitResult result;
  auto notLowerable = [&](const std::string &why) {
    result.reason = "not lowerable: " + why;
    return std::move(result);
  };
  ArrayRef<int64_t> grid = bound.getGrid();
  int64_t numTiles = 1;
  for (int64_t extent : grid)
    numTiles *= extent;
  // Tiles that may load what others store take turns as the interpreter's
  // do (Interleave.h), one thread each; one tile shares memory with none.
  std::optional<std::string> shared = bound.whyTilesShareMemory();
  bool interleaved = shared && numTiles != 1;
  if (interleaved && numTiles > kMaxInterleavedTiles)
    return notLowerable(
        "tiles may load what other tiles store (" + *shared + "), and " +
        std::to_string(numTiles) + " tiles are more than the " +
        std::to_string(kMaxInterleavedTiles) + " threads that take turns");
  ArrayRef<interp::ArgumentInfo> args = bound.getArguments();
  int64_t nx = grid.size() > 0 ? grid[0] : 1;
  int64_t ny = grid.size() > 1 ? grid[1] : 1;
  // Every tile costs at least itself and its entry block: a grid that
  // cannot fit is the interpreter's to refuse, before the kernel is even
  // compiled.
  uint64_t workBudget = bound.getOptions().maxElementOps;
  if (static_cast<uint64_t>(numTiles) > workBudget / 2) {
    result.reason = "the grid's " + std::to_string(numTiles) +
                    " tiles exceed the work budget of " +
                    std::to_string(workBudget) + " element operations";
    return result;
  }
  auto start = std::chrono::steady_clock::now();
  std::string why;
  FailureOr<std::unique_ptr<CompiledKernel>> kernel =
      CompiledKernel::compile(module, bound.getFunctionName(), args, numTiles,
                              interleaved, numerics, why);
  if (failed(kernel))
    return notLowerable(why);
  if (interleaved && !(*kernel)->getLayout().interTile.empty())
    return notLowerable("tiles that may load what other tiles store and "
                        "exchange values");
  auto compiled = std::chrono::steady_clock::now();
  result.compileSeconds =
      std::chrono::duration<double>(compiled - start).count();
  result.fromCache = (*kernel)->isFromCache();
  const TileFunctionLayout &layout = (*kernel)->getLayout();

  // Buffers with the initial contents, in position order, over the
  // extents the views at computed addresses that ran so far give.
  unsigned numBuffers = layout.bufferArgs.size();
  std::vector<DType> dtypes;
  for (unsigned b = 0; b < numBuffers; ++b) {
    // Native code has no df16 arithmetic.
    std::optional<DType> dtype =
        interp::dtypeFromType(layout.bufferElementTypes[b]);
    if (!dtype || *dtype == DType::DF16)
      return notLowerable("a tensor of unsupported element type");
    dtypes.push_back(*dtype);
  }
  // The memory ceiling of each attempt's buffers (made with them): pages of
  // generated values count as the tiles touch them, as the interpreter's
  // do, other buffers whole, 64 KiB pages each, at least what the
  // interpreter would touch.
  std::shared_ptr<host::PageBudget> pages;
  std::string outOfMemory =
      "out of memory: the run needs more than the memory ceiling of " +
      std::to_string(bound.getMemoryCeiling()) + " bytes for its tensors";
  auto initialTensor =
      [&](unsigned b,
          const GrownViews &grown) -> llvm::Expected<host::NativeTensor> {
    if (int(b) == layout.scratchpadBuffer)
      return host::NativeTensor(dtypes[b], {layout.scratchpadElements},
                                /*zeroed=*/true);
    if (layout.bufferArgs[b] == kLiteralArgument) {
      const LiteralRegion &region = layout.literalRegions.at(b);
      llvm::Expected<host::NativeTensor> initial =
          bound.getInitialLiteralNative(region.address, dtypes[b],
                                        {region.footprint}, pages);
      // A larger `.npy` input would extend the region over others.
      int64_t spanned = 1;
      for (auto [size, stride] :
           llvm::zip(region.footprint.sizes, region.footprint.strides))
        spanned += (size - 1) * stride;
      if (initial && initial->numElements() != spanned)
        return llvm::createStringError(
            "an @ADDR input larger than the views at its address");
      return initial;
    }
    return bound.getInitialNative(layout.bufferArgs[b], dtypes[b],
                                  /*readOnly=*/!layout.bufferStored[b],
                                  grown.of(b), pages);
  };
  auto bufferName = [&](unsigned b) {
    if (int(b) == layout.scratchpadBuffer)
      return std::string("the scratchpads");
    if (layout.bufferArgs[b] == kLiteralArgument)
      return "@" + std::to_string(layout.literalRegions.at(b).address);
    return args[layout.bufferArgs[b]].name;
  };
  GrownViews grown;
  for (const GrownView &view : layout.grownAtStart)
    grown.add(view.buffer, view.footprint);
  // Scalars; a tensor argument's value is its start address.
  std::vector<ScalarSlot> scalars(args.size());
  for (const interp::ArgumentInfo &info : args) {
    if (info.kind == interp::ArgumentKind::Tensor) {
      scalars[info.position].bits = (uint64_t(info.position) + 1) << 44;
      continue;
    }
    std::optional<interp::ScalarValue> value =
        bound.getScalarValue(info.position);
    if (!value) {
      result.reason = "argument '" + info.name + "' has no value";
      return result;
    }
    scalars[info.position].bits = scalarBits(*value);
  }

  unsigned numThreads =
      threads ? threads : llvm::hardware_concurrency().compute_thread_count();
  int64_t numTasks = std::min<int64_t>(numTiles, int64_t(numThreads) * 4);
  // Each task draws from the whole budget, which bounds its run; what the
  // tasks drew together is compared with the budget after the run.
  auto freshStatus = [&] {
    std::vector<int64_t> status(kStatusWritten + numBuffers, 0);
    status[kStatusWorkLeft] = static_cast<int64_t>(workBudget);
    return status;
  };
  std::vector<host::NativeTensor> tensors(numBuffers);
  std::vector<FlatMemRef> buffers(numBuffers);
  std::vector<std::vector<int64_t>> statuses;
  PhaseTimer phases;
  for (unsigned attempt = 0;; ++attempt) {
    pages = std::make_shared<host::PageBudget>(bound.getMemoryCeiling());
    for (unsigned b = 0; b < numBuffers; ++b) {
      llvm::Expected<host::NativeTensor> initial = initialTensor(b, grown);
      if (!initial)
        return notLowerable(llvm::toString(initial.takeError()));
      tensors[b] = std::move(*initial);
      buffers[b] = FlatMemRef(tensors[b].data(), tensors[b].numElements());
      if (!host::isGeneratedPageByPage(tensors[b]) &&
          !pages->charge(llvm::alignTo(tensors[b].numBytes(),
                                       host::kGeneratedPageBytes))) {
        result.reason = outOfMemory;
        return result;
      }
    }
    phases.end("run: buffers");
    // What each task's views at computed addresses declared, in task
    // (ascending tile) order.
    std::vector<GrownViews> viewLogs;
    // Runs tiles [first, last) in ascending order.
    auto runTiles = [&](int64_t first, int64_t last,
                        std::vector<int64_t> &statusWords, StoreLog *log,
                        GrownViews *views) {
      setCurrentStoreLog(log);
      setCurrentGrownViews(views);
      std::vector<FlatMemRef> ownBuffers = buffers;
      std::vector<ScalarSlot> ownScalars = scalars;
      int64_t ids[3] = {0, 0, 0};
      FlatMemRef status(statusWords.data(), statusWords.size());
      std::vector<void *> packed;
      for (FlatMemRef &buffer : ownBuffers)
        buffer.pack(packed);
      for (ScalarSlot &slot : ownScalars)
        packed.push_back(&slot.bits);
      for (int64_t &id : ids)
        packed.push_back(&id);
      status.pack(packed);
      for (int64_t tile = first; tile < last; ++tile) {
        ids[0] = tile % nx;
        ids[1] = (tile / nx) % ny;
        ids[2] = tile / (nx * ny);
        (*kernel)->call(packed.data());
        // The interpreter reruns a kernel that hit an error: the other tiles
        // need not run (a grid of 2^62 idle tiles stops at the work budget).
        if (statusWords[kStatusError])
          break;
      }
      setCurrentStoreLog(nullptr);
      setCurrentGrownViews(nullptr);
    };
    statuses.clear();
    if (interleaved) {
      // One tile runs at a time, in the interpreter's order: no store can
      // land in another order than there.
      TileTurns turns(numTiles);
      statuses.assign(numTiles, freshStatus());
      viewLogs.assign(numTiles, GrownViews());
      std::vector<std::thread> tiles;
      for (int64_t tile = 0; tile < numTiles; ++tile)
        tiles.emplace_back([&, tile] {
          turns.start(tile);
          runTiles(tile, tile + 1, statuses[tile], nullptr, &viewLogs[tile]);
          turns.finish();
        });
      for (std::thread &thread : tiles)
        thread.join();
    } else if (!layout.interTile.empty()) {
      // Tiles that exchange values: one thread each, so that any of them can
      // wait for any other (InterTile.h).
      InterTileExchange exchange(layout.interTile, numTiles);
      statuses.assign(numTiles, freshStatus());
      viewLogs.assign(numTiles, GrownViews());
      std::vector<StoreLog> logs(numTiles);
      std::vector<std::thread> tiles;
      for (int64_t tile = 0; tile < numTiles; ++tile)
        tiles.emplace_back([&, tile] {
          exchange.startTile(tile);
          logs[tile].task = tile;
          runTiles(tile, tile + 1, statuses[tile], &logs[tile],
                   &viewLogs[tile]);
          logs[tile].compact();
          exchange.finishTile();
        });
      for (std::thread &thread : tiles)
        thread.join();
      if (std::string error = exchange.getError(); !error.empty()) {
        result.reason = "inter-tile ops: " + error;
        return result;
      }
      // Which of two overlapping stores lands last would depend on the
      // threads; the interpreter's order needs the tiles to run one by one,
      // which tiles that wait for each other cannot.
      if (std::optional<unsigned> buffer = findOverlappingStores(logs)) {
        result.reason = "stores of tiles that exchange values may overlap in "
                        "tensor '" +
                        bufferName(*buffer) + "'";
        return result;
      }
    } else if (numTasks <= 1 || numThreads <= 1) {
      statuses.push_back(freshStatus());
      viewLogs.assign(1, GrownViews());
      runTiles(0, numTiles, statuses.back(), nullptr, &viewLogs[0]);
    } else {
      statuses.assign(numTasks, freshStatus());
      viewLogs.assign(numTasks, GrownViews());
      std::vector<StoreLog> logs(numTasks);
      llvm::DefaultThreadPool pool(llvm::hardware_concurrency(numThreads));
      for (int64_t task = 0; task < numTasks; ++task)
        pool.async([&, task] {
          logs[task].task = task;
          runTiles(numTiles * task / numTasks, numTiles * (task + 1) / numTasks,
                   statuses[task], &logs[task], &viewLogs[task]);
          logs[task].compact();
        });
      pool.wait();
      // Where two tasks' stores may have hit one element, which landed last
      // depended on the schedule: rerun every tile in the interpreter's
      // (ascending) order. No tile loads what another stores, so the rerun
      // computes the same values and its stores overwrite every element the
      // first run wrote.
      if (std::optional<unsigned> buffer = findOverlappingStores(logs)) {
        result.tilesInOrder =
            "stores of tiles run concurrently may overlap in tensor '" +
            bufferName(*buffer) + "'";
        statuses.assign(1, freshStatus());
        viewLogs.assign(1, GrownViews());
        runTiles(0, numTiles, statuses.back(), nullptr, &viewLogs[0]);
      }
    }
    phases.end("run: tiles" + std::string(result.tilesInOrder.empty()
                                              ? ""
                                              : ", then rerun in order"));
    // Past the ceiling, accesses went to a scratch page (GeneratedPages.h):
    // the values are wrong, and the interpreter reports where.
    if (pages->isExceeded()) {
      result.reason = outOfMemory;
      return result;
    }
    // Views at computed addresses that make a tensor larger than (or shape
    // it unlike) the buffer it ran in: run again over the grown extents.
    size_t added = 0;
    for (const GrownViews &log : viewLogs)
      added += grown.append(log);
    if (!added)
      break;
    bool grew = false;
    for (unsigned b : grown.buffers()) {
      llvm::Expected<host::NativeTensor> extent = initialTensor(b, grown);
      if (!extent)
        return notLowerable(llvm::toString(extent.takeError()));
      grew |= extent->getShape() != tensors[b].getShape();
    }
    if (!grew)
      break;
    if (attempt == kMaxGrowthReruns) {
      result.reason = "views at computed addresses still grew a tensor after " +
                      std::to_string(kMaxGrowthReruns) + " reruns";
      return result;
    }
  }
  // Reading the outputs back touches their other pages, past the ceiling
  // as in the interpreter.
  pages->lift();
  result.runSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - compiled)
          .count();
  std::string overBudget = "the run exceeds the work budget of " +
                           std::to_string(workBudget) + " element operations";
  uint64_t drawn = 0;
  for (const std::vector<int64_t> &status : statuses) {
    uint64_t used = workBudget - static_cast<uint64_t>(status[kStatusWorkLeft]);
    if (__builtin_add_overflow(drawn, used, &drawn) || drawn > workBudget) {
      result.reason = overBudget;
      return result;
    }
  }
  for (const std::vector<int64_t> &status : statuses)
    if (status[kStatusError]) {
      switch (status[kStatusError]) {
      case kErrorLoopStep:
        result.reason = "a loop step is not positive";
        break;
      case kErrorIndex:
        result.reason = "an index read outside its view or out of range";
        break;
      case kErrorWorkBudget:
        result.reason = overBudget;
        break;
      default:
        result.reason = "an access outside a view's sizes or outside its "
                        "tensor";
      }
      return result;
    }
  for (unsigned b = 0; b < numBuffers; ++b) {
    if (int(b) == layout.scratchpadBuffer)
      continue;
    bool written = llvm::any_of(statuses, [&](const std::vector<int64_t> &s) {
      return s[kStatusWritten + b] != 0;
    });
    // Literal-address regions after the arguments, named by address.
    bool literal = layout.bufferArgs[b] == kLiteralArgument;
    unsigned position = literal ? args.size() + b : layout.bufferArgs[b];
    std::string name = literal                       ? bufferName(b)
                       : args[position].name.empty() ? std::to_string(position)
                                                     : args[position].name;
    if (written)
      result.outputs.emplace_back(position, name);
    result.tensors[position] = std::move(tensors[b]);
  }
  // The interpreter reports regions in address order: literal addresses
  // (below 2^44) before the arguments' windows.
  std::rotate(result.outputs.begin(),
              llvm::find_if(result.outputs,
                            [&](const std::pair<unsigned, std::string> &out) {
                              return out.first >= args.size();
                            }),
              result.outputs.end());
  result.ran = true;
  return result;
}
