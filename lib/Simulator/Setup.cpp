//===- Setup.cpp - What the simulator checks and builds before it runs ----===//
//
// This file implements Engine::setup: the machine and the executable are
// validated, the programs' work is bounded before any runs (a launch that
// would execute more instructions than the budget is refused up front,
// naming the heaviest loop), and the engine's state is built: bandwidth
// resources for links and memories, FIFOs, sync tokens and one state per
// unit program with its routes resolved.
//
//===----------------------------------------------------------------------===//

#include "Engine.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace ktflow::machine;
using namespace ktflow::sim;
using namespace ktflow::sim::detail;

llvm::Error Engine::checkWorkBudget() const {
  uint64_t total = 0;
  const UnitProgram *largest = nullptr;
  InstructionBound largestBound;
  for (const UnitProgram &prog : exe.programs) {
    InstructionBound bound = boundInstructions(prog);
    if (__builtin_add_overflow(total, bound.instructions, &total))
      total = UINT64_MAX;
    if (!largest || bound.instructions > largestBound.instructions) {
      largest = &prog;
      largestBound = bound;
    }
  }
  if (total <= options.maxInstructions)
    return llvm::Error::success();
  std::string where = "the program of " + machine.units[largest->unit].name;
  if (std::optional<uint32_t> loop = largestBound.heaviestLoop)
    where += llvm::formatv(" (its loop at instruction {0} runs {1} times{2})",
                           *loop, largestBound.heaviestLoopTrips,
                           sourceOf(largest - exe.programs.data(), *loop))
                 .str();
  return llvm::createStringError(
      llvm::formatv("the programs would exceed the work budget of {0} "
                    "instructions: they execute at least {1} if they run to "
                    "completion, {2} of them in {3}; raise it with "
                    "--max-instructions",
                    options.maxInstructions, total, largestBound.instructions,
                    where)
          .str());
}

llvm::Error Engine::setup() {
  if (std::string err = machine.validate(); !err.empty())
    return llvm::createStringError("invalid machine: %s", err.c_str());
  if (std::string err = exe.validate(machine); !err.empty())
    return llvm::createStringError("invalid program: %s", err.c_str());
  if (llvm::Error e = checkWorkBudget())
    return e;
  // Budgets beyond a few decades are no budget (and would overflow).
  if (options.maxSeconds > 0 && options.maxSeconds < 1e9)
    deadline = std::chrono::steady_clock::now() +
               std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                   std::chrono::duration<double>(options.maxSeconds));
  resources.resize(machine.links.size() + machine.memories.size());
  for (size_t i = 0; i < machine.links.size(); ++i)
    resources[i].ticksPerByte = kTicksPerCycle / machine.links[i].bandwidth;
  for (size_t i = 0; i < machine.memories.size(); ++i)
    if (machine.memories[i].bandwidth > 0)
      resources[machine.links.size() + i].ticksPerByte =
          kTicksPerCycle / machine.memories[i].bandwidth;
  fifos.resize(exe.fifos.size());
  for (size_t i = 0; i < exe.fifos.size(); ++i) {
    FifoState &f = fifos[i];
    f.desc = &exe.fifos[i];
    f.capacity = std::min<uint32_t>(f.desc->depth, 16);
    f.storage.assign(size_t(f.capacity) * f.desc->entryBytes, 0);
    f.entries.resize(f.capacity);
    f.linkResource = f.desc->link;
    f.linkLatency = cyclesToTicks(machine.links[f.desc->link].latency);
  }
  syncs.resize(exe.syncs.size());
  units.resize(exe.programs.size());
  for (size_t i = 0; i < exe.programs.size(); ++i) {
    const UnitProgram &prog = exe.programs[i];
    UnitState &u = units[i];
    u.prog = &prog;
    u.index = i;
    u.s.assign(prog.numSRegs, 0);
    u.v.resize(prog.numVRegs);
    u.wide.resize(prog.numVRegs);
    u.vtype.assign(prog.numVRegs, nullptr);
    u.clock.assign(exe.programs.size(), 0);
    u.clock[i] = 1;
    u.heardFrom = {uint32_t(i)};
    if (llvm::Error e = resolveRoutes(prog))
      return e;
  }
  return llvm::Error::success();
}
