//===- Simulator.cpp - The event loop of the simulator --------------------===//
//
// This file implements the simulator's event loop: every unit is a process
// that runs its instructions until it has to wait (for time to pass, for a
// FIFO or a sync token); the earliest event runs next, ties broken by the
// order in which events were scheduled, so a simulation is deterministic.
// It also implements the scalar and control instructions and deadlock
// reporting; Setup.cpp validates the machine and the programs and builds
// the engine's state, Routes.cpp resolves the routes of transfers and
// reserves their bandwidth.
//
//===----------------------------------------------------------------------===//

#include "Engine.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace ktflow::machine;
using namespace ktflow::sim;
using namespace ktflow::sim::detail;

Engine::Engine(const Machine &machine, const Executable &exe,
               MemoryImage &memory, const SimOptions &options,
               std::vector<TraceEvent> *trace)
    : machine(machine), exe(exe), memory(memory), options(options),
      trace(options.recordTrace ? trace : nullptr) {}

uint64_t Engine::costCycles(uint64_t n, double perCycle) {
  return static_cast<uint64_t>(std::ceil(static_cast<double>(n) / perCycle -
                                         1e-9));
}

std::string Engine::sourceOf(uint32_t program, uint32_t pc) const {
  std::string loc = exe.sources.describe(program, pc);
  return loc.empty() ? loc : ", at " + loc;
}

std::string Engine::at(const UnitState &u) const {
  return llvm::formatv("{0} (instruction {1}, {2}, cycle {3}{4})", unitName(u),
                       u.pc, opcodeName(u.prog->insts[u.pc].op),
                       u.now / kTicksPerCycle, sourceOf(u.index, u.pc))
      .str();
}

Step Engine::fail(const UnitState &u, const std::string &message) {
  if (error.empty())
    error = at(u) + ": " + message;
  return Step::Error;
}

void Engine::schedule(UnitState &u, Tick time) {
  queue.emplace(time, sequence++, u.index);
}

void Engine::wake(int64_t &waiter, Tick time) {
  if (waiter < 0)
    return;
  UnitState &w = units[waiter];
  waiter = -1;
  Tick resume = std::max(time, w.waitStart);
  if (trace && resume > w.waitStart)
    trace->push_back({w.index, w.waitStart, resume, w.prog->insts[w.pc].op,
                      true, w.waitOn, w.wait == Wait::Sync, 0});
  w.stall += resume - w.waitStart;
  w.now = resume;
  w.wait = Wait::None;
  schedule(w, resume);
}

Step Engine::block(UnitState &u, Wait wait, uint32_t on) {
  u.wait = wait;
  u.waitOn = on;
  u.waitStart = u.now;
  if (wait == Wait::FifoFull)
    fifos[on].waitingProducer = u.index;
  else if (wait == Wait::FifoEmpty)
    fifos[on].waitingConsumer = u.index;
  else
    syncs[on].waitingReceiver = u.index;
  return Step::Block;
}

void Engine::waitUntil(UnitState &u, Tick time, uint32_t on, bool isSync) {
  if (time <= u.now)
    return;
  if (trace)
    trace->push_back({u.index, u.now, time, u.prog->insts[u.pc].op, true, on,
                      isSync, 0});
  u.stall += time - u.now;
  u.now = time;
}

void Engine::record(const UnitState &u, Opcode op, Tick start, Tick end,
                    uint64_t bytes) {
  if (trace && end > start)
    trace->push_back({u.index, start, end, op, false, kNoReg, false, bytes});
}

Step Engine::failAccess(UnitState &u, uint32_t mem, uint64_t addr,
                        uint64_t size, const char *what,
                        MemoryImage::Access why) {
  const MachineMemory &m = machine.memories[mem];
  if (why == MemoryImage::Access::OutOfMemory)
    return fail(u, llvm::formatv("{0} bytes [{1}, {2}) of {3}: out of memory, "
                                 "the simulation needs more than {4} bytes "
                                 "for the pages of memory it writes, its "
                                 "ceiling (half the machine's memory)",
                                 what, addr, addr + size, m.name,
                                 memory.getMaxBackedBytes())
                       .str());
  uint64_t limit = memory.addressableLimit(mem);
  return fail(u,
              llvm::formatv("{0} bytes [{1}, {2}) outside {3} ({4} bytes{5})",
                            what, addr, addr + size, m.name, limit,
                            limit < m.size ? " allocated" : " capacity")
                  .str());
}

const uint8_t *Engine::readBytes(UnitState &u, uint32_t mem, uint64_t addr,
                                 uint64_t size, const char *what,
                                 std::vector<uint8_t> &scratch) {
  if (!noteRead(u, mem, addr, size))
    return nullptr;
  if (const uint8_t *p = memory.readPointer(mem, addr, size))
    return p;
  // Across a page boundary: a copy.
  scratch.resize(size);
  MemoryImage::Access why = memory.read(mem, addr, size, scratch.data());
  if (why != MemoryImage::Access::Ok) {
    failAccess(u, mem, addr, size, what, why);
    return nullptr;
  }
  return scratch.data();
}

bool Engine::writeBytes(UnitState &u, uint32_t mem, uint64_t addr,
                        uint64_t size, const uint8_t *data, const char *what) {
  if (uint8_t *to = memory.writePointer(mem, addr, size)) {
    if (!noteWrite(u, mem, addr, size, data, to))
      return false;
    // A DMA within one memory may copy between overlapping ranges.
    if (data)
      std::memmove(to, data, size);
    else
      std::memset(to, 0, size);
    return true;
  }
  MemoryImage::Access why = memory.diagnose(mem, addr, size);
  if (why != MemoryImage::Access::Ok) {
    failAccess(u, mem, addr, size, what, why);
    return false;
  }
  // Across a page boundary. The data is staged first: it may be bytes of
  // the pages about to be written.
  if (data) {
    writeScratch.assign(data, data + size);
    data = writeScratch.data();
  }
  oldScratch.resize(size);
  why = memory.read(mem, addr, size, oldScratch.data());
  if (why == MemoryImage::Access::Ok) {
    if (!noteWrite(u, mem, addr, size, data, oldScratch.data()))
      return false;
    why = memory.write(mem, addr, size, data);
  }
  if (why != MemoryImage::Access::Ok) {
    failAccess(u, mem, addr, size, what, why);
    return false;
  }
  return true;
}

Step Engine::stepScalar(UnitState &u, const Inst &in) {
  ++u.instructions;
  std::vector<int64_t> &s = u.s;
  switch (in.op) {
  case Opcode::SetImm:
    s[in.a] = in.imm;
    break;
  case Opcode::MovS:
    s[in.a] = s[in.b];
    break;
  case Opcode::SelectS:
    s[in.a] = s[in.b] != 0 ? s[in.c] : s[in.d];
    break;
  case Opcode::Alu: {
    int64_t r;
    if (!evaluateAlu(static_cast<AluOp>(in.sub), s[in.b], s[in.c], r))
      return fail(u, llvm::formatv("integer overflow or division by zero "
                                   "({0} and {1})",
                                   s[in.b], s[in.c])
                         .str());
    s[in.a] = r;
    break;
  }
  case Opcode::LoopBegin:
    if (s[in.d] <= 0)
      return fail(u, "loop step must be positive, got " +
                         std::to_string(s[in.d]));
    s[in.a] = s[in.b];
    if (!(s[in.a] < s[in.c])) {
      u.pc = in.e + 1;
      return Step::Continue;
    }
    break;
  case Opcode::LoopEnd: {
    int64_t next;
    if (__builtin_add_overflow(s[in.a], s[in.d], &next))
      return fail(u, "loop induction variable overflows");
    s[in.a] = next;
    if (next < s[in.c]) {
      u.pc = in.e + 1;
      return Step::Continue;
    }
    break;
  }
  default:
    break;
  }
  ++u.pc;
  return Step::Continue;
}

Step Engine::step(UnitState &u) {
  const Inst &in = u.prog->insts[u.pc];
  if (++executed > options.maxInstructions)
    return fail(u, llvm::formatv("the simulation exceeded the work budget of "
                                 "{0} instructions; raise it with "
                                 "--max-instructions",
                                 options.maxInstructions)
                       .str());
  // Reading the clock costs about as much as an instruction: do it every
  // 2^16 of them.
  if ((executed & 0xffff) == 0 && deadline &&
      std::chrono::steady_clock::now() > *deadline) {
    std::string seconds;
    llvm::raw_string_ostream(seconds) << llvm::format("%g", options.maxSeconds);
    return fail(u, "the simulation exceeded the wall-clock budget of " +
                       seconds + " seconds; raise it with --max-seconds");
  }
  switch (in.op) {
  case Opcode::Halt:
    // The unit is done when its last transfer has landed.
    if (Tick landed = landedBy(u); landed > u.now) {
      u.busy += landed - u.now;
      record(u, Opcode::Halt, u.now, landed, 0);
      u.now = landed;
    }
    u.inFlight.clear();
    u.done = true;
    return Step::Halt;
  case Opcode::SetImm:
  case Opcode::Alu:
  case Opcode::MovS:
  case Opcode::SelectS:
  case Opcode::LoopBegin:
  case Opcode::LoopEnd:
    return stepScalar(u, in);
  case Opcode::Dma:
  case Opcode::RemoteDma:
    return stepDma(u, in);
  case Opcode::Fill:
    return stepFill(u, in);
  case Opcode::ReadIndex:
    return stepReadIndex(u, in);
  case Opcode::Load: return stepLoad(u, in);
  case Opcode::Store: return stepStore(u, in);
  case Opcode::Recv: return stepRecv(u, in);
  case Opcode::Send: return stepSend(u, in);
  case Opcode::Map: return stepMap(u, in);
  case Opcode::Reduce: return stepReduce(u, in);
  case Opcode::Broadcast: return stepBroadcast(u, in);
  case Opcode::Splat: return stepSplat(u, in);
  case Opcode::Matmul: return stepMatmul(u, in);
  case Opcode::Iota:
    return stepIota(u, in);
  case Opcode::MovV:
    ++u.instructions;
    if (!u.vtype[in.b])
      return fail(u, "reads a vector register that was never written");
    u.v[in.a] = u.v[in.b];
    u.wide[in.a] = u.wide[in.b];
    u.vtype[in.a] = u.vtype[in.b];
    ++u.pc;
    return Step::Continue;
  case Opcode::SyncSend: return stepSyncSend(u, in);
  case Opcode::SyncRecv: return stepSyncRecv(u, in);
  }
  return fail(u, "unknown opcode");
}

void Engine::runUnit(UnitState &u) {
  while (true) {
    Step st = step(u);
    if (st != Step::Continue)
      return;
    // Run on without a queue round-trip while no other unit has anything to
    // do before this unit's next action.
    if (!queue.empty() && std::get<0>(queue.top()) < u.now) {
      schedule(u, u.now);
      return;
    }
  }
}

llvm::Error Engine::deadlockError() const {
  std::string msg = llvm::formatv("deadlock at cycle {0}: no unit can make "
                                  "progress",
                                  [&] {
                                    Tick t = 0;
                                    for (const UnitState &u : units)
                                      t = std::max(t, u.now);
                                    return (t + kTicksPerCycle - 1) /
                                           kTicksPerCycle;
                                  }())
                        .str();
  for (const UnitState &u : units) {
    if (u.done)
      continue;
    msg += "\n  " + unitName(u) + " (instruction " + std::to_string(u.pc) +
           ", " + opcodeName(u.prog->insts[u.pc].op) + sourceOf(u.index, u.pc) +
           ") waits ";
    if (u.wait == Wait::FifoFull || u.wait == Wait::FifoEmpty) {
      const FifoDesc &f = exe.fifos[u.waitOn];
      bool full = u.wait == Wait::FifoFull;
      uint32_t peer = full ? f.consumer : f.producer;
      msg += llvm::formatv("to {0} FIFO '{1}' ({2}; its {3} is {4})",
                           full ? "send on" : "receive from", f.name,
                           full ? "full" : "empty",
                           full ? "consumer" : "producer",
                           machine.units[peer].name)
                 .str();
    } else if (u.wait == Wait::Sync) {
      const SyncDesc &sd = exe.syncs[u.waitOn];
      msg += llvm::formatv("for a token of sync '{0}' from {1}", sd.name,
                           machine.units[sd.sender].name)
                 .str();
    } else {
      msg += "(not blocked)";
    }
  }
  return llvm::createStringError(msg);
}

llvm::Expected<SimStats> Engine::run() {
  if (llvm::Error e = setup())
    return std::move(e);
  for (UnitState &u : units)
    schedule(u, 0);
  while (!queue.empty()) {
    auto [time, seq, index] = queue.top();
    queue.pop();
    UnitState &u = units[index];
    if (u.done || u.wait != Wait::None)
      continue;
    eventTime = std::max(eventTime, time);
    u.now = std::max(u.now, time);
    runUnit(u);
    if (!error.empty())
      return llvm::createStringError(error);
  }
  for (const UnitState &u : units)
    if (!u.done)
      return deadlockError();
  for (const FifoState &f : fifos)
    if (f.count)
      return llvm::createStringError(
          "FIFO '%s' still holds %u entries after every unit finished: %s "
          "sends more than %s receives",
          f.desc->name.c_str(), f.count,
          machine.units[f.desc->producer].name.c_str(),
          machine.units[f.desc->consumer].name.c_str());
  for (size_t i = 0; i < syncs.size(); ++i)
    if (!syncs[i].tokens.empty())
      return llvm::createStringError(
          "sync '%s' still holds %zu tokens after every unit finished: %s "
          "sends more than %s receives",
          exe.syncs[i].name.c_str(), syncs[i].tokens.size(),
          machine.units[exe.syncs[i].sender].name.c_str(),
          machine.units[exe.syncs[i].receiver].name.c_str());

  SimStats stats;
  Tick end = 0;
  for (const UnitState &u : units) {
    UnitStats us;
    us.busyCycles = (u.busy + kTicksPerCycle / 2) / kTicksPerCycle;
    us.stalledCycles = (u.stall + kTicksPerCycle / 2) / kTicksPerCycle;
    us.finishCycle = (u.now + kTicksPerCycle - 1) / kTicksPerCycle;
    us.bytesMoved = u.bytes;
    us.instructions = u.instructions;
    us.matrixCycles = u.matrixCycles;
    us.matrixPeakCycles = u.matrixPeakCycles;
    stats.instructions += u.instructions;
    stats.units.push_back(us);
    end = std::max(end, u.now);
  }
  stats.cycles = (end + kTicksPerCycle - 1) / kTicksPerCycle;
  for (const auto &[ends, resource] : interconnectLinks) {
    InterconnectLinkStats link;
    link.fromCore = ends.first;
    link.toCore = ends.second;
    link.bytes = interconnectBytes[resource];
    stats.interconnect.push_back(link);
  }
  return stats;
}

llvm::Expected<SimStats> ktflow::sim::simulate(const Machine &machine,
                                               const Executable &exe,
                                               MemoryImage &memory,
                                               const SimOptions &options,
                                               std::vector<TraceEvent> *trace) {
  Engine engine(machine, exe, memory, options, trace);
  return engine.run();
}
