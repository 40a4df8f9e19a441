//===- ProgramWalker.cpp - One unit program's cost, walked ----------------===//
//
// This file implements ProgramWalker (ProgramWalker.h). Programs have no
// branches but counted loops, so a loop body is walked once, at its first
// iteration's values, and its cost multiplied by its trip count (a loop
// whose trip count is unknown counts once), except short loops, walked
// iteration by iteration within a budget so that loops whose trips differ
// between iterations (a lane's grid points of unequal work) count what
// they run. What each instruction costs is in ProgramWalkerCosts.cpp.
//
//===----------------------------------------------------------------------===//

#include "ProgramWalker.h"
#include "SameWalks.h"
#include "ScalarSteps.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cmath>
#include <utility>

using namespace ktflow::machine;
using namespace ktflow::machine::detail;

double ProgramWalker::landedBy(double at, llvm::ArrayRef<double> landings) {
  return std::max(at, landings.empty() ? 0.0 : *llvm::max_element(landings));
}

double ProgramWalker::handOverLatency() const {
  if (!handOverStore || !loadMemory)
    return 0;
  return machine.syncLatency + entriesLatency(*handOverStore);
}

double ProgramWalker::entriesLatency(uint32_t storeUnit) const {
  if (!loadMemory)
    return 0;
  NodeRef self{NodeRef::Unit, program->unit};
  NodeRef store{NodeRef::Unit, storeUnit};
  NodeRef memory{NodeRef::Memory, *loadMemory};
  double latency =
      2 + routeCost(store, memory).latency + routeCost(memory, self).latency;
  for (const FifoDesc &fifo : exe.fifos)
    if (fifo.producer == program->unit ||
        (fifo.consumer == storeUnit && computes(machine.units[fifo.producer])))
      latency += machine.links[fifo.link].latency;
  return latency;
}

double ProgramWalker::entriesLatency() const {
  std::optional<uint32_t> compute = fed();
  if (!compute)
    return 0;
  for (const FifoDesc &fifo : exe.fifos)
    if (fifo.producer == *compute &&
        (machine.units[fifo.consumer].roles & RoleStore))
      return entriesLatency(fifo.consumer);
  return 0;
}

double ProgramWalker::tripsOf(Known lb, Known ub, Known step) {
  if (!lb || !ub || !step || *step <= 0)
    return 1;
  return *lb >= *ub ? 0 : static_cast<double>((*ub - *lb + *step - 1) / *step);
}

double ProgramWalker::run() {
  double busy = walk(0, program->insts.size(), 1.0);
  endInStep();
  finishedAt = landedBy(clock, landings);
  copyTail = std::max(0.0, copyLandsAt - clock);
  if (slotBoundStart)
    slotBoundSpan =
        landedBy(clock + slotBoundDrift, slotBoundLandings) - *slotBoundStart;
  // What only the walk reads, released: the copies of this walk for the
  // lanes (SameWalks.h) copied it each (a production kernel's registers,
  // its skip table as long as its program, the queues of tokens), a
  // tenth of layernorm_1151x8192's estimate with their frees.
  auto release = [](auto &state) {
    state = std::remove_reference_t<decltype(state)>();
  };
  release(regs);
  release(vtype);
  release(mapCosts);
  release(next);
  release(waitedSinceSend);
  release(fifoBytes);
  release(landings);
  release(slotBoundLandings);
  release(tokensToLoadUnit);
  return busy;
}

const ProgramWalker::FifoLoad *
ProgramWalker::FifoLoads::at(double offset) const {
  // The last load at or before `offset` is load i where the next starts
  // after it: try the one found last and its successor first.
  auto isLoadOf = [&](size_t i) {
    return i < loads.size() && loads[i].offset <= offset &&
           (i + 1 == loads.size() || offset < loads[i + 1].offset);
  };
  if (isLoadOf(last))
    return &loads[last];
  if (isLoadOf(last + 1))
    return &loads[++last];
  auto load =
      llvm::upper_bound(loads, offset, [](double at, const FifoLoad &l) {
        return at < l.offset;
      });
  if (load == loads.begin())
    return nullptr;
  last = load - loads.begin() - 1;
  return &load[-1];
}

bool ProgramWalker::handsOver(uint32_t sync) const {
  return (unit->roles & RoleLoad) &&
         (machine.units[exe.syncs[sync].sender].roles & RoleStore);
}

ProgramWalker::ProgramWalker(const Machine &machine, const Executable &exe,
                             const UnitProgram &program, KernelEstimate &out,
                             RouteCosts &routes)
    : machine(machine), exe(exe), program(&program), out(&out),
      unit(&machine.units[program.unit]), routes(&routes),
      regs(program.numSRegs), vtype(program.numVRegs, nullptr) {
  for (const FifoDesc &fifo : exe.fifos)
    if (fifo.producer == program.unit &&
        computes(machine.units[fifo.consumer])) {
      feeds = fifo.consumer;
      break;
    }
  readsIndices = llvm::any_of(
      program.insts, [](const Inst &in) { return in.op == Opcode::ReadIndex; });
}

void ProgramWalker::skipUnread() {
  size_t size = program->insts.size();
  next.resize(size + 1);
  next[size] = size;
  // An index read waits for the transfers that write its address: every
  // scalar is stepped.
  if (readsIndices) {
    for (size_t pc = 0; pc < size; ++pc)
      next[pc] = pc;
    return;
  }
  std::vector<bool> read = definitionsRead(*program, {});
  for (size_t pc = size; pc-- > 0;) {
    Opcode op = program->insts[pc].op;
    bool scalar = op == Opcode::SetImm || op == Opcode::MovS ||
                  op == Opcode::SelectS || op == Opcode::Alu;
    next[pc] = scalar && !read[pc] ? next[pc + 1] : pc;
  }
}

RouteCost ProgramWalker::routeCost(NodeRef from, NodeRef to) const {
  return (*routes)(from, to);
}

double ProgramWalker::walk(size_t begin, size_t end, double times) {
  double cycles = 0;
  for (size_t pc = taken(begin); pc < end; pc = taken(pc)) {
    const Inst &in = program->insts[pc];
    switch (in.op) {
    case Opcode::Halt:
      return cycles;
    case Opcode::SetImm:
    case Opcode::MovS:
    case Opcode::SelectS:
    case Opcode::Alu:
      // A failing alu stops the simulator; the estimate goes on with the
      // register unknown.
      (void)stepKnownScalarInline(in, regs);
      if (next.empty() && ++scalarsStepped > kSkipUnreadAfter * nextSize())
        skipUnread();
      break;
    case Opcode::LoopBegin: {
      Known lb = regs[in.b], step = regs[in.d];
      double trips = tripsOf(lb, regs[in.c], step);
      bool skewed = in.sub >= kLoopSkewed;
      // The executions the engine chains are those of the innermost skewed
      // loops: an outer one that holds them loads its next trip's operands
      // (a load hoisted out of the inner loop, span-copied) ahead of them,
      // and its trips are not executions of their own.
      bool chained = skewed && chainDepth == 0 && !holdsSkewedLoop(pc);
      // A lane's point loop skewed as one stream (SkewedPointLoops.cpp)
      // waits for the compute in each point's row loop, which loads the
      // executions ahead: the executions are the row loops' trips (the
      // first loops in it that wait and load; not a loop that stores an
      // execution's output in blocks, each after its token:
      // rope_163840x128 on mesh_device).
      double rowsBefore = rowExecutions;
      bool rows = false;
      if (chained) {
        rowExecutions = 0;
        rowLoopDepth = waitsForCompute(pc) ? 1 : 0;
      } else if (chainDepth > 0 && rowLoopDepth == 0 && !skewed &&
                 waitsForCompute(pc) && loadsAhead(pc)) {
        rowExecutions += times * trips;
        rows = true;
      }
      rowLoopDepth += rows;
      skewedDepth += skewed;
      chainDepth += chained;
      if (trips > 1 && trips <= kWalkEach &&
          iterationsWalked + trips <= kWalkBudget) {
        // Iterations whose loops run different trip counts (a lane's
        // grid points dealt in snake order, a causal kernel's key loop
        // bounded by the point) are walked one by one.
        iterationsWalked += trips;
        for (int64_t i = 0; i < static_cast<int64_t>(trips); ++i) {
          regs[in.a] = *lb + i * *step;
          cycles += walk(pc + 1, in.e, times);
        }
      } else {
        regs[in.a] = lb;
        double loadedBefore = loadedBytes, storedBefore = storedBytes,
               fedBefore = fedBytes;
        // (Only a body walked for several trips moves its bytes again.)
        PerId fifoBefore;
        if (trips > 1)
          fifoBefore = fifoBytes;
        size_t waitsBefore = waits();
        double body = 0, driftBefore = slotBoundDrift;
        if (trips > 0) {
          // The body walked once advanced the clock by one iteration.
          body = walk(pc + 1, in.e, times * trips);
          cycles += trips * body;
          clock += (trips - 1) * body;
          slotBoundDrift += (trips - 1) * (slotBoundDrift - driftBefore);
        }
        // The body was walked once: its other iterations move as much
        // again, and its waits' last ones are in the last iteration.
        if (trips > 1) {
          double stored = (trips - 1) * (storedBytes - storedBefore);
          double fed = (trips - 1) * (fedBytes - fedBefore);
          loadedBytes += (trips - 1) * (loadedBytes - loadedBefore);
          storedBytes += stored;
          fedBytes += fed;
          for (auto &[fifo, bytes] : fifoBytes)
            bytes += (trips - 1) * (bytes - fifoBefore.lookup(fifo));
          llvm::SmallDenseSet<uint32_t> moved;
          for (uint32_t sync : llvm::drop_begin(records->waitLog, waitsBefore))
            if (moved.insert(sync).second) {
              LastWait &last = lastWaits[sync];
              last.stored += stored;
              last.clock += (trips - 1) * body;
              last.fed += fed;
            }
        }
      }
      skewedDepth -= skewed;
      chainDepth -= chained;
      rowLoopDepth -= rows;
      if (chained) {
        // D ahead, the engine runs one chain per D + 1 executions, and
        // the loop's first D executions one more (Estimate.cpp
        // skewedChain), each chain waiting for one landing.
        double executions = rowExecutions > 0 ? rowExecutions / times : trips;
        skewedTrips += times * executions;
        if (executions <= 0) {
          // (No execution: no chain.)
        } else if (executions > 2 && executions - 1 <= in.sub &&
                   skewedDepth == 0 && times == 1) {
          // A loop of no more executions than its distance + 1 issues
          // every load before its first store: it waits for one landing,
          // then its stores follow the compute (ptr_advance_rows on
          // mesh_device, 4 rows 3 ahead). Only for a loop run once, under
          // no skewed loop (an outer loop's next trip may load ahead of
          // this one's work: kept as chains, unmeasured); not for two
          // executions one ahead, whose chains (1.5) measured closer
          // (paged_attention on mesh_device, 2 points a tile: 21,428
          // against 21,558, 22,263 taken so).
          skewedAheadExecutions += times * executions;
          skewedLandings += times;
        } else {
          double ahead = std::max<double>(1, in.sub);
          double chains = times * (executions + ahead) / (ahead + 1);
          skewedChainCount += chains;
          skewedLandings += chains;
        }
        rowExecutions = rowsBefore;
        rowLoopDepth = 0;
      }
      regs[in.a] = std::nullopt;
      pc = in.e + 1;
      continue;
    }
    case Opcode::ReadIndex: {
      // The index values are data the estimate does not read: it takes
      // each read to name a page two apart from the previous one (0, 2,
      // 4, ... below the bound), so the rows a read addresses are not
      // contiguous with the previous read's and start a new DMA run, as
      // the pages of a paged gather are, while the rows that share a
      // read (a page's) extend one run.
      double cost = instructionCost(in, times);
      cycles += cost;
      clock += cost;
      // (Its wait for the ids staged is not a round trip: the engine's
      // transfers in flight move meanwhile.)
      indexReadCycles += times * (cost - stagedWait);
      Known bound = regs[in.d];
      // In step until the second index read, and on until the engines
      // fall apart (endInStep).
      if (indexReads == 1)
        loadedInStep = deviceLoaded;
      if (indexReads == 0)
        loadsSinceIndexRead = 0;
      else
        endInStep(/*atIndexRead=*/true);
      int64_t value = 2 * indexReads++;
      if (bound && *bound > 0)
        value %= *bound;
      regs[in.a] = value;
      break;
    }
    default: {
      double cost = instructionCost(in, times);
      cycles += cost;
      clock += cost;
      break;
    }
    }
    ++pc;
  }
  return cycles;
}

void ProgramWalker::endInStep(bool atIndexRead) {
  bool apart = atIndexRead && loadsSinceIndexRead > 1;
  if (inStep && indexReads >= 2 && !apart)
    loadedInStep = deviceLoaded;
  inStep = inStep && atIndexRead && !apart;
  loadsSinceIndexRead = 0;
}

bool ProgramWalker::holdsSkewedLoop(size_t pc) const {
  const Inst &loop = program->insts[pc];
  for (size_t i = pc + 1; i < loop.e; ++i)
    if (program->insts[i].op == Opcode::LoopBegin &&
        program->insts[i].sub >= kLoopSkewed)
      return true;
  return false;
}

bool ProgramWalker::waitsForCompute(size_t pc) const {
  const Inst &loop = program->insts[pc];
  for (size_t i = pc + 1; i < loop.e; ++i) {
    const Inst &in = program->insts[i];
    if (in.op == Opcode::LoopBegin) {
      i = in.e;
      continue;
    }
    if (in.op != Opcode::SyncRecv)
      continue;
    const MachineUnit &from = machine.units[exe.syncs[in.a].sender];
    if ((from.roles & RoleStore) && !(from.roles & RoleDma) &&
        from.core == unit->core)
      return true;
  }
  return false;
}

bool ProgramWalker::loadsAhead(size_t pc) const {
  const Inst &loop = program->insts[pc];
  for (size_t i = pc + 1; i < loop.e; ++i) {
    const Inst &in = program->insts[i];
    if (in.op == Opcode::Dma && machine.memories[in.a].core < 0 &&
        machine.memories[in.c].core >= 0)
      return true;
  }
  return false;
}

void ProgramWalker::writeInFlight(uint32_t memory, Known addr, int64_t bytes,
                                  int64_t rows, int64_t stride, int64_t planes,
                                  int64_t planeStride, double landsAt) {
  if (!readsIndices || !addr || bytes <= 0 || rows <= 0 || planes <= 0 ||
      machine.memories[memory].core < 0)
    return;
  int64_t begin = *addr, end = *addr + bytes;
  for (int64_t span : {(rows - 1) * stride, (planes - 1) * planeStride})
    (span < 0 ? begin : end) += span;
  writesInFlight.push_back({memory, begin, end, landsAt});
}

double ProgramWalker::waitForWrites(uint32_t memory, Known addr,
                                    int64_t bytes) {
  llvm::erase_if(writesInFlight,
                 [&](const WriteInFlight &w) { return w.landsAt <= clock; });
  double until = clock;
  for (const WriteInFlight &w : writesInFlight)
    if (w.memory == memory &&
        (!addr || (w.begin < *addr + bytes && *addr < w.end)))
      until = std::max(until, w.landsAt);
  return until - clock;
}
