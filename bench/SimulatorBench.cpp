//===- SimulatorBench.cpp - Speed of the cycle-level simulator ------------===//
//
// This file measures the simulator on the 32-core spyre_like device: a
// generated DataflowIR kernel computes y = x + 1 over 8 MiB of f16, every
// core moving its 256 KiB slice through all its units (DMA in -> LX ->
// both corelets' load unit -> vector unit -> store unit -> LX -> DMA out) in
// double-buffered 32 KiB tiles. Parsing and emission are outside the timed
// loop; linking the bundle (relocation patching and decoding) and the
// simulation are inside. It reports simulated instructions per second and
// simulated cycles per second, and checks the result.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Bundle/Emitter.h"
#include "ktflow/Machine/FromDevice.h"
#include "ktflow/Machine/Values.h"
#include "ktflow/Registration/Registration.h"
#include "ktflow/Runtime/Runtime.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "benchmark/benchmark.h"

#include <string>

using namespace ktflow;

namespace {

constexpr int kCores = 32;
constexpr int64_t kBytes = 8 << 20;
constexpr int64_t kPerCore = kBytes / kCores;
constexpr int64_t kTile = 32 << 10;
constexpr int64_t kTiles = kPerCore / kTile;

std::string substitute(std::string text,
                       std::initializer_list<std::pair<const char *, int64_t>>
                           values) {
  for (const auto &[name, value] : values) {
    std::string token = std::string("@") + name + "@";
    for (size_t at = text.find(token); at != std::string::npos;
         at = text.find(token, at))
      text.replace(at, token.size(), std::to_string(value));
  }
  return text;
}

/// Declarations of one core. Syncs: DMA_IN -> LXLU k (@ldK), LXLU k ->
/// DMA_IN (@frK), LXSU k -> DMA_OUT (@stK), DMA_OUT -> LXSU k (@drK).
const char *kCoreDecls = R"mlir(
  dfir.buffer @in_@C@ in "core[@C@]/LX" size @TWO_TILES@
  dfir.buffer @out_@C@ in "core[@C@]/LX" size @TWO_TILES@
)mlir";

const char *kCoreletDecls = R"mlir(
  dfir.fifo @to_sfp@K@_@C@ from "core[@C@]/corelet[@K@]/LXLU" to "core[@C@]/corelet[@K@]/SFP" entry 128
  dfir.fifo @to_su@K@_@C@ from "core[@C@]/corelet[@K@]/SFP" to "core[@C@]/corelet[@K@]/LXSU" entry 128
  dfir.sync @ld@K@_@C@ from "core[@C@]/DMA_IN" to "core[@C@]/corelet[@K@]/LXLU"
  dfir.sync @fr@K@_@C@ from "core[@C@]/corelet[@K@]/LXLU" to "core[@C@]/DMA_IN"
  dfir.sync @st@K@_@C@ from "core[@C@]/corelet[@K@]/LXSU" to "core[@C@]/DMA_OUT"
  dfir.sync @dr@K@_@C@ from "core[@C@]/DMA_OUT" to "core[@C@]/corelet[@K@]/LXSU"
)mlir";

/// Common constants of every unit program; %t is the tile loop variable.
const char *kPrologue = R"mlir(
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %tiles = arith.constant @TILES@ : index
    %reuse_until = arith.constant @REUSE@ : index
    %tile = arith.constant @TILE@ : index
    %half = arith.constant @HALF@ : index
)mlir";

const char *kDmaIn = R"mlir(
  dfir.unit "core[@C@]/DMA_IN" {@PROLOGUE@
    %x = dfir.address @x
    %in = dfir.address @in_@C@
    %base = arith.constant @BASE@ : index
    %xb = arith.addi %x, %base : index
    scf.for %t = %c0 to %tiles step %c1 {
      %off = arith.muli %t, %tile : index
      %src = arith.addi %xb, %off : index
      %b = arith.remui %t, %c2 : index
      %boff = arith.muli %b, %tile : index
      %dst = arith.addi %in, %boff : index
      %reuse = arith.cmpi uge, %t, %c2 : index
      %n = arith.select %reuse, %c1, %c0 : index
      scf.for %w = %c0 to %n step %c1 {
        dfir.sync_recv @fr0_@C@
        dfir.sync_recv @fr1_@C@
      }
      dfir.dma %tile bytes from "DDR"[%src] to "core[@C@]/LX"[%dst]
      dfir.sync_send @ld0_@C@
      dfir.sync_send @ld1_@C@
    }
  }
)mlir";

const char *kCorelet = R"mlir(
  dfir.unit "core[@C@]/corelet[@K@]/LXLU" {@PROLOGUE@
    %in = dfir.address @in_@C@
    %koff = arith.constant @KOFF@ : index
    scf.for %t = %c0 to %tiles step %c1 {
      %b = arith.remui %t, %c2 : index
      %boff = arith.muli %b, %tile : index
      %a = arith.addi %in, %boff : index
      %src = arith.addi %a, %koff : index
      dfir.sync_recv @ld@K@_@C@
      dfir.load @to_sfp@K@_@C@ from "core[@C@]/LX"[%src] size %half
      %early = arith.cmpi ult, %t, %reuse_until : index
      %n = arith.select %early, %c1, %c0 : index
      scf.for %w = %c0 to %n step %c1 {
        dfir.sync_send @fr@K@_@C@
      }
    }
  }
  dfir.unit "core[@C@]/corelet[@K@]/SFP" {@PROLOGUE@
    %entries = arith.constant @ENTRIES@ : index
    scf.for %i = %c0 to %entries step %c1 {
      %v = dfir.recv @to_sfp@K@_@C@ : vector<64xf16>
      %r = dfir.map %v : vector<64xf16> -> vector<64xf16> {
      ^bb0(%p: f16):
        %one = arith.constant 1.0 : f16
        %s = arith.addf %p, %one : f16
        dfir.yield %s : f16
      }
      dfir.send @to_su@K@_@C@, %r : vector<64xf16>
    }
  }
  dfir.unit "core[@C@]/corelet[@K@]/LXSU" {@PROLOGUE@
    %out = dfir.address @out_@C@
    %koff = arith.constant @KOFF@ : index
    scf.for %t = %c0 to %tiles step %c1 {
      %b = arith.remui %t, %c2 : index
      %boff = arith.muli %b, %tile : index
      %a = arith.addi %out, %boff : index
      %dst = arith.addi %a, %koff : index
      %reuse = arith.cmpi uge, %t, %c2 : index
      %n = arith.select %reuse, %c1, %c0 : index
      scf.for %w = %c0 to %n step %c1 {
        dfir.sync_recv @dr@K@_@C@
      }
      dfir.store @to_su@K@_@C@ to "core[@C@]/LX"[%dst] size %half
      dfir.sync_send @st@K@_@C@
    }
  }
)mlir";

const char *kDmaOut = R"mlir(
  dfir.unit "core[@C@]/DMA_OUT" {@PROLOGUE@
    %y = dfir.address @y
    %out = dfir.address @out_@C@
    %base = arith.constant @BASE@ : index
    %yb = arith.addi %y, %base : index
    scf.for %t = %c0 to %tiles step %c1 {
      %off = arith.muli %t, %tile : index
      %dst = arith.addi %yb, %off : index
      %b = arith.remui %t, %c2 : index
      %boff = arith.muli %b, %tile : index
      %src = arith.addi %out, %boff : index
      dfir.sync_recv @st0_@C@
      dfir.sync_recv @st1_@C@
      dfir.dma %tile bytes from "core[@C@]/LX"[%src] to "DDR"[%dst]
      %early = arith.cmpi ult, %t, %reuse_until : index
      %n = arith.select %early, %c1, %c0 : index
      scf.for %w = %c0 to %n step %c1 {
        dfir.sync_send @dr0_@C@
        dfir.sync_send @dr1_@C@
      }
    }
  }
)mlir";

std::string replaceAll(std::string text, const std::string &from,
                       const std::string &to) {
  for (size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

std::string generateKernel() {
  std::string text = "dfir.kernel @bench device \"spyre_like\" {\n";
  text += substitute("  dfir.tensor input @x : tensor<@N@xf16> in \"DDR\"\n"
                     "  dfir.tensor output @y : tensor<@N@xf16> in \"DDR\"\n",
                     {{"N", kBytes / 2}});
  std::string prologue = substitute(
      kPrologue, {{"TILES", kTiles}, {"REUSE", kTiles - 2}, {"TILE", kTile},
                  {"HALF", kTile / 2}});
  for (int c = 0; c < kCores; ++c) {
    std::string core = substitute(kCoreDecls, {{"TWO_TILES", 2 * kTile}});
    for (int k = 0; k < 2; ++k)
      core += substitute(kCoreletDecls, {{"K", k}});
    core += replaceAll(kDmaIn, "@PROLOGUE@", prologue);
    for (int k = 0; k < 2; ++k)
      core += substitute(replaceAll(kCorelet, "@PROLOGUE@", prologue),
                         {{"K", k},
                          {"KOFF", k * kTile / 2},
                          {"ENTRIES", kTiles * kTile / 2 / 128}});
    core += replaceAll(kDmaOut, "@PROLOGUE@", prologue);
    text += substitute(core, {{"C", c}, {"BASE", c * kPerCore}});
  }
  return text + "}\n";
}

void BM_Simulate32Cores8MiB(benchmark::State &state) {
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  ModuleLoader loader(context);
  auto machine = machine::loadMachine(loader, KTFLOW_SOURCE_DIR
                                      "/examples/devices/spyre_like.mlir");
  auto module = mlir::parseSourceString<mlir::ModuleOp>(generateKernel(),
                                                        &context);
  if (failed(machine) || !module) {
    state.SkipWithError("cannot build the benchmark kernel");
    return;
  }
  auto kernel = *module->getOps<mlir::dfir::KernelOp>().begin();
  auto bundle = bundle::emitBundle(kernel, *machine);
  if (failed(bundle)) {
    state.SkipWithError("cannot emit the bundle");
    return;
  }
  std::vector<uint8_t> bytes = bundle::writeBundle(*bundle);
  auto program = rt::Program::loadBytes(bytes);
  if (!program) {
    state.SkipWithError(llvm::toString(program.takeError()).c_str());
    return;
  }
  std::vector<uint8_t> input(kBytes);
  for (int64_t i = 0; i < kBytes / 2; ++i)
    machine::storeElement(machine::ElemType::f16, static_cast<double>(i % 1000),
                          input.data() + 2 * i);
  sim::SimStats stats;
  for (auto _ : state) {
    rt::Launch launch(*program);
    if (llvm::Error e = launch.setTensor(0, input)) {
      state.SkipWithError(llvm::toString(std::move(e)).c_str());
      return;
    }
    auto result = launch.run();
    if (!result) {
      state.SkipWithError(llvm::toString(result.takeError()).c_str());
      return;
    }
    stats = *result;
    state.PauseTiming();
    auto y = launch.readTensor(1);
    for (int64_t i = 0; y && i < kBytes / 2; i += 4099)
      if (machine::loadElement(machine::ElemType::f16, y->data() + 2 * i) !=
          static_cast<double>(i % 1000 + 1)) {
        state.SkipWithError("wrong result");
        return;
      }
    state.ResumeTiming();
  }
  using benchmark::Counter;
  state.counters["sim_cycles"] = static_cast<double>(stats.cycles);
  state.counters["sim_instructions"] = static_cast<double>(stats.instructions);
  state.counters["units"] = static_cast<double>(stats.units.size());
  state.counters["instructions/s"] =
      Counter(static_cast<double>(stats.instructions), Counter::kIsIterationInvariantRate);
  state.counters["cycles/s"] =
      Counter(static_cast<double>(stats.cycles), Counter::kIsIterationInvariantRate);
  state.counters["bytes/s"] =
      Counter(static_cast<double>(kBytes), Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_Simulate32Cores8MiB)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
