//===- EstimateBench.cpp - Speed of the whole-kernel cost model -----------===//
//
// This file measures machine::estimateKernel, the analytic estimate --tune
// ranks its candidates with (issue 14: microseconds per candidate), on a
// fixed set of kernels: a tiny one and the production softmax, layernorm,
// RMSNorm (one tile and 2x2), RoPE, vector add, matrix product, attention
// and SwiGLU on the three devices, and realworld kernels the estimate's
// token chains walk. Each kernel is compiled and linked once
// outside the timed loop (its compile time is the `compile_ms` counter);
// the loop times the estimate alone. The `cycles` counter is the estimate,
// so a change to its speed can be checked not to change its value.
// `--bundles ARG... -- FILE.ktfb...` does the same for bundles compiled
// already: `ktflow compile --tune --tune-bundles=DIR` writes every --tune
// candidate's, the estimates --tune makes.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Bundle/Bundle.h"
#include "ktflow/Compiler/Compile.h"
#include "ktflow/Compiler/CompileToBundle.h"
#include "ktflow/Machine/Estimate.h"
#include "ktflow/Registration/Registration.h"
#include "ktflow/Runtime/Runtime.h"
#include "ktflow/Support/ModuleLoader.h"

#include "mlir/IR/MLIRContext.h"

#include "benchmark/benchmark.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <optional>
#include <string>
#include <vector>

using namespace ktflow;

namespace {

struct Case {
  const char *kernel;
  const char *device;
  std::vector<std::string> arguments;
};

/// A kernel compiled and linked for its device, ready to estimate.
struct Linked {
  std::optional<rt::Program> program;
  std::optional<rt::Launch> launch;
  double compileMs = 0;
};

std::string source(llvm::StringRef relative) {
  return std::string(KTFLOW_SOURCE_DIR) + "/" + relative.str();
}

/// Loads `program` into `out` and links its launch with `arguments`
/// (NAME=VALUE; those the bundle has no runtime argument of are left out),
/// or says why not in `error`.
bool bindAndLink(Linked &out, rt::Program program,
                 llvm::ArrayRef<std::string> arguments, std::string &error) {
  out.program.emplace(std::move(program));
  out.launch.emplace(*out.program);
  for (llvm::StringRef spec : arguments) {
    auto [name, value] = spec.split('=');
    if (!out.program->findRuntimeArg(name))
      continue;
    if (llvm::Error e = out.launch->bindRuntimeArg(name, value)) {
      error = llvm::toString(std::move(e));
      return false;
    }
  }
  if (llvm::Error e = out.launch->link()) {
    error = llvm::toString(std::move(e));
    return false;
  }
  return true;
}

/// Compiles and links `c`, or says why not in `error`.
std::optional<Linked> link(const Case &c, std::string &error) {
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  ModuleLoader loader(context);
  mlir::OwningOpRef<mlir::ModuleOp> module = loader.load(source(c.kernel));
  std::string device =
      source(std::string("examples/devices/") + c.device + ".mlir");
  if (!module || failed(setTarget(*module, device, loader))) {
    error = "cannot load the kernel or its device";
    return std::nullopt;
  }
  auto start = std::chrono::steady_clock::now();
  mlir::FailureOr<CompiledBundle> compiled =
      compileToBundle(*module, CompileOptions());
  std::chrono::duration<double, std::milli> compileTime =
      std::chrono::steady_clock::now() - start;
  if (failed(compiled)) {
    error = "does not compile";
    return std::nullopt;
  }
  Linked out;
  out.compileMs = compileTime.count();
  std::vector<uint8_t> bytes = bundle::writeBundle(compiled->bundle);
  llvm::Expected<rt::Program> program = rt::Program::loadBytes(bytes);
  if (!program) {
    error = llvm::toString(program.takeError());
    return std::nullopt;
  }
  if (!bindAndLink(out, std::move(*program), c.arguments, error))
    return std::nullopt;
  return out;
}

void estimate(benchmark::State &state, const Case &c) {
  std::string error;
  std::optional<Linked> linked = link(c, error);
  if (!linked) {
    state.SkipWithError(error.c_str());
    return;
  }
  const machine::Machine &m = linked->program->getBundle().machine;
  const machine::Executable &exe = linked->launch->getExecutable();
  machine::KernelEstimate result;
  for (auto _ : state) {
    result = machine::estimateKernel(m, exe);
    benchmark::DoNotOptimize(result);
  }
  state.counters["compile_ms"] = linked->compileMs;
  state.counters["cycles"] = result.cycles;
}

const char *const kDevices[] = {"sample_device", "spyre_like", "mesh_device"};

std::vector<Case> allCases() {
  std::vector<Case> cases;
  for (const char *device : kDevices) {
    cases.push_back({"examples/kernels/add.mlir", device, {}});
    cases.push_back(
        {"bench/kernels/softmax_4096x1024.mlir", device, {"n_rows=4096"}});
    cases.push_back({"bench/kernels/layernorm_1151x8192.mlir",
                     device,
                     {"n_rows=1151", "N=8192", "eps=1e-5"}});
    cases.push_back({"bench/kernels/rmsnorm_256x4096.mlir",
                     device,
                     {"n_rows=256", "eps=1e-5"}});
    cases.push_back(
        {"bench/kernels/rmsnorm_256x4096_2x2.mlir", device, {"eps=1e-5"}});
    cases.push_back({"bench/kernels/rope_163840x128.mlir", device, {}});
    cases.push_back({"bench/kernels/vector_add_1048576.mlir",
                     device,
                     {"n_elements=1048576"}});
    cases.push_back(
        {"bench/kernels/matmul_1024x1024x1024.mlir", device, {"K=1024"}});
    cases.push_back({"bench/kernels/attention_1024x1024x128.mlir",
                     device,
                     {"scale=0.088388347"}});
    cases.push_back(
        {"bench/kernels/swiglu_ffn_64x1024x4096.mlir", device, {"d_ff=4096"}});
  }
  cases.push_back(
      {"examples/kernels/realworld/splitk_pv.mlir", "spyre_like", {}});
  cases.push_back({"examples/kernels/realworld/rmsnorm_2x2.mlir",
                   "spyre_like",
                   {"eps=1e-5"}});
  return cases;
}

std::string nameOf(const Case &c) {
  std::string name = llvm::StringRef(c.kernel).rsplit('/').second.str();
  return llvm::StringRef(name).rsplit('.').first.str() + "/" + c.device;
}

/// Prints every case's estimate exactly (`--estimates`): what a change to
/// the estimate's speed must leave bit-identical.
void printEstimates() {
  for (const Case &c : allCases()) {
    std::string error;
    std::optional<Linked> linked = link(c, error);
    if (!linked) {
      std::printf("%s: %s\n", nameOf(c).c_str(), error.c_str());
      continue;
    }
    machine::KernelEstimate e = machine::estimateKernel(
        linked->program->getBundle().machine, linked->launch->getExecutable());
    std::printf("%s: cycles %.17g busiest %.17g latency %.17g (%s)\n",
                nameOf(c).c_str(), e.cycles, e.busiest, e.latency,
                e.bottleneck.c_str());
    for (double busy : e.unitBusy)
      std::printf(" %.17g", busy);
    std::printf("\n");
  }
}

/// CPU milliseconds of one estimate of `linked`: the least of five runs of
/// as many estimates as take 0.2 s (the machine is shared: the least is
/// the one least disturbed).
double cpuMsPerEstimate(const Linked &linked) {
  const machine::Machine &m = linked.program->getBundle().machine;
  const machine::Executable &exe = linked.launch->getExecutable();
  auto cpuMs = [] {
    return 1000.0 * static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
  };
  double start = cpuMs();
  benchmark::DoNotOptimize(machine::estimateKernel(m, exe));
  double once = std::max(cpuMs() - start, 1e-3);
  int repeats = std::max(1, static_cast<int>(200 / once));
  double best = INFINITY;
  for (int run = 0; run < 5; ++run) {
    start = cpuMs();
    for (int i = 0; i < repeats; ++i)
      benchmark::DoNotOptimize(machine::estimateKernel(m, exe));
    best = std::min(best, (cpuMs() - start) / repeats);
  }
  return best;
}

/// Links the bundle in `path` with `arguments` (NAME=VALUE), or says why
/// not in `error`.
std::optional<Linked> linkBundle(llvm::StringRef path,
                                 llvm::ArrayRef<std::string> arguments,
                                 std::string &error) {
  llvm::Expected<rt::Program> program = rt::Program::loadFile(path);
  if (!program) {
    error = llvm::toString(program.takeError());
    return std::nullopt;
  }
  Linked out;
  if (!bindAndLink(out, std::move(*program), arguments, error))
    return std::nullopt;
  return out;
}

/// `--bundles ARG... -- FILE...`: a line per bundle, its estimate exactly
/// and the CPU microseconds of one (cpuMsPerEstimate), then the mean.
int printBundles(llvm::ArrayRef<std::string> arguments,
                 llvm::ArrayRef<std::string> files) {
  double total = 0;
  size_t timed = 0;
  for (const std::string &file : files) {
    std::string error;
    std::optional<Linked> linked = linkBundle(file, arguments, error);
    if (!linked) {
      std::printf("%s: %s\n", file.c_str(), error.c_str());
      continue;
    }
    machine::KernelEstimate e = machine::estimateKernel(
        linked->program->getBundle().machine, linked->launch->getExecutable());
    double us = 1000 * cpuMsPerEstimate(*linked);
    total += us;
    ++timed;
    std::printf("%s: cycles %.17g busiest %.17g latency %.17g (%s) %.0f us\n",
                file.c_str(), e.cycles, e.busiest, e.latency,
                e.bottleneck.c_str(), us);
    std::fflush(stdout);
  }
  if (timed)
    std::printf("mean of %zu: %.0f us\n", timed, total / timed);
  return 0;
}

/// Prints a Markdown row per case (`--table`): its estimate's CPU
/// microseconds, the table bench/README.md keeps before and after each
/// change to its speed.
void printTable() {
  std::printf("| kernel / device | compile ms | estimate us |\n"
              "|---|---:|---:|\n");
  for (const Case &c : allCases()) {
    std::string error;
    std::optional<Linked> linked = link(c, error);
    if (!linked) {
      std::printf("| %s | %s | |\n", nameOf(c).c_str(), error.c_str());
      continue;
    }
    std::printf("| %s | %.0f | %.0f |\n", nameOf(c).c_str(), linked->compileMs,
                1000 * cpuMsPerEstimate(*linked));
    std::fflush(stdout);
  }
}
} // namespace

int main(int argc, char **argv) {
  if (argc == 2 && llvm::StringRef(argv[1]) == "--estimates") {
    printEstimates();
    return 0;
  }
  if (argc == 2 && llvm::StringRef(argv[1]) == "--table") {
    printTable();
    return 0;
  }
  if (argc >= 2 && llvm::StringRef(argv[1]) == "--bundles") {
    std::vector<std::string> arguments, files;
    bool afterDashes = false;
    for (int i = 2; i < argc; ++i) {
      if (!afterDashes && llvm::StringRef(argv[i]) == "--")
        afterDashes = true;
      else
        (afterDashes ? files : arguments).push_back(argv[i]);
    }
    return printBundles(arguments, files);
  }
  benchmark::Initialize(&argc, argv);
  for (const Case &c : allCases())
    benchmark::RegisterBenchmark(nameOf(c).c_str(), estimate, c)
        ->Unit(benchmark::kMicrosecond);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
