//===- FuzzSimulator.cpp - libFuzzer harness: the simulator ---------------===//
//
// Feeds each input, as a bundle file with its seal recomputed
// (BundleInput.h), to what `ktflow sim` runs: load the program, bind every
// runtime argument to the least value it accepts, leave the tensors zero,
// link and simulate under a small work budget (10^5 instruction steps, 2
// seconds) so that a long but legal run ends in the budget's error rather
// than in the fuzzer's timeout. Seeds: bundles compiled from
// examples/kernels (scripts/fuzz.sh writes them).
//
//===----------------------------------------------------------------------===//

#include "BundleInput.h"

#include "ktflow/Runtime/Runtime.h"

#include <algorithm>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::vector<uint8_t> bytes = ktflow::fuzz::sealBundle(data, size);
  auto program = ktflow::rt::Program::loadBytes(bytes);
  if (!program) {
    llvm::consumeError(program.takeError());
    return 0;
  }
  ktflow::rt::Launch launch(*program);
  const auto &args = program->getBundle().runtimeArgs;
  for (uint32_t i = 0; i < args.size(); ++i) {
    llvm::Error err =
        args[i].floatType
            ? launch.setFloatRuntimeArg(i, 1.0)
            : launch.setRuntimeArg(
                  i,
                  std::max<int64_t>(args[i].lowerbound,
                                    std::max<int64_t>(args[i].granularity, 1)));
    llvm::consumeError(std::move(err));
  }
  ktflow::sim::SimOptions options;
  options.maxInstructions = 100000;
  options.maxSeconds = 2;
  auto stats = launch.run(options);
  if (!stats)
    llvm::consumeError(stats.takeError());
  return 0;
}
