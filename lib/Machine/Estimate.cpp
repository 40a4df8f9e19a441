//===- Estimate.cpp - A kernel's cycles from its programs, analytically ---===//
//
// This file implements the whole-kernel estimate (Estimate.h): one walk of
// each unit program with the scalar registers it can evaluate, charging
// each instruction its uncontended cost as the simulator's timing model
// states it, and the bytes each memory moves. Programs have no branches but
// counted loops, so a loop body is walked once, at its first iteration's
// values, and its cost multiplied by its trip count (a loop whose trip
// count is unknown counts once), except short loops, walked iteration by
// iteration within a budget so that loops whose trips differ between
// iterations (a lane's grid points of unequal work) count what they run.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Machine/Estimate.h"
#include "ktflow/Machine/MatrixTiming.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cmath>
#include <optional>

using namespace ktflow::machine;

/// The simulator's charge for `n` elements at `perCycle` a cycle.
static double cyclesFor(uint64_t n, double perCycle) {
  return perCycle <= 0 ? 0
                       : std::ceil(static_cast<double>(n) / perCycle - 1e-9);
}

namespace {
/// The least bandwidth and summed latency of a route.
struct RouteCost {
  double bandwidth = 0;
  double latency = 0;
  std::vector<uint32_t> links;
};

class ProgramWalker {
public:
  ProgramWalker(const Machine &machine, const Executable &exe,
                const UnitProgram &program, KernelEstimate &out)
      : machine(machine), exe(exe), program(program), out(out),
        unit(machine.units[program.unit]), regs(program.numSRegs),
        vtype(program.numVRegs, nullptr) {}

  double run() { return walk(0, program.insts.size(), 1.0); }

  /// The longest DMA route latency into and out of a memory outside the
  /// cores (device memory) this program uses.
  double loadLatency = 0, storeLatency = 0;
  /// Whether the program moves data both from and to device memory (one
  /// engine loading and storing in program order).
  bool loads = false, stores = false;
  /// Executions whose device-memory stores the program issues after
  /// waiting (a sync_recv) for their compute: an engine that also loads
  /// waits there for the execution's loads to land and be computed.
  double storeGroups = 0;
  /// Those of skewed loops instead, whose loads of the next execution are
  /// in flight while this one is computed (loop_begin's sub).
  double skewedGroups = 0;
  /// Hand-overs through the scratchpad a load unit waits for: runs of
  /// sync_recv from a store unit between its loads (a carried block, a row
  /// value the next pass reads). The compute unit it feeds has sent what
  /// is stored and waits, empty, for the round trip.
  double handOvers = 0;

  /// The latency of one hand-over: the compute unit's last entry through
  /// the FIFO to the store unit and stored, the token, the first entry
  /// loaded and through the FIFO to the compute unit, one cycle for each
  /// of the two entries. (Their whole occupancy, a matrix tile's 16 cycles
  /// on spyre_like, overcharged swiglu_ffn_64x1024x4096 there, +22.9 %:
  /// its PT has waves queued during the hand-over.)
  double handOverLatency() const {
    if (!handOverStore || !loadMemory)
      return 0;
    NodeRef self{NodeRef::Unit, program.unit};
    NodeRef store{NodeRef::Unit, *handOverStore};
    NodeRef memory{NodeRef::Memory, *loadMemory};
    double latency = machine.syncLatency + 2 +
                     routeCost(store, memory).latency +
                     routeCost(memory, self).latency;
    for (const FifoDesc &fifo : exe.fifos)
      if (fifo.producer == program.unit ||
          (fifo.consumer == *handOverStore &&
           (machine.units[fifo.producer].roles & (RoleVector | RoleMatrix))))
        latency += machine.links[fifo.link].latency;
    return latency;
  }
  /// The device memory this program first loads from and first stores
  /// to, and the least bandwidth of those transfers' routes.
  std::optional<uint32_t> loadDevice, storeDevice;
  double loadRoute = 0, storeRoute = 0;
  /// Device-memory bytes loaded before the first signal of each sync
  /// channel this program sends on (program order, a loop's first
  /// iteration walked and its others added).
  llvm::DenseMap<uint32_t, double> loadedBeforeSignal;
  /// The sync channels waited for before the program's first load from a
  /// scratchpad: what a load unit needs before it feeds its first entry.
  llvm::SmallVector<uint32_t> waitedBeforeFirstLoad;
  /// Device-memory bytes stored in program order (loops as loaded bytes
  /// are), and how many of them before the last wait on each sync channel.
  double storedBytes = 0;
  llvm::DenseMap<uint32_t, double> storedBeforeLastWait;
  /// The sync channels signalled after the program's last scratchpad
  /// store: a store unit's tokens for the last execution's output.
  llvm::SmallVector<uint32_t> signalledAfterLastStore;

  uint32_t unitIndex() const { return program.unit; }

  /// The compute unit this load unit feeds, if any.
  std::optional<uint32_t> fed() const {
    for (const FifoDesc &fifo : exe.fifos)
      if (fifo.producer == program.unit &&
          (machine.units[fifo.consumer].roles & (RoleVector | RoleMatrix)))
        return fifo.consumer;
    return std::nullopt;
  }

private:
  using Known = KnownScalar;

  RouteCost routeCost(NodeRef from, NodeRef to) const {
    RouteCost cost;
    std::optional<std::vector<uint32_t>> route = machine.route(from, to);
    if (!route)
      return cost;
    cost.bandwidth = INFINITY;
    for (uint32_t l : *route) {
      cost.bandwidth = std::min(cost.bandwidth, machine.links[l].bandwidth);
      cost.latency += machine.links[l].latency;
    }
    cost.links = *route;
    return cost;
  }

  /// Adds `bytes` to every memory with a bandwidth along `route`'s ends.
  void chargeMemories(std::initializer_list<uint32_t> memories, double bytes,
                      double times) {
    for (uint32_t m : memories)
      if (machine.memories[m].bandwidth > 0)
        out.memoryBusy[m] += times * bytes / machine.memories[m].bandwidth;
  }

  int64_t value(uint32_t reg) const { return regs[reg].value_or(0); }

  /// The cost of a DMA of `bytes` from memory `src` to memory `dst`.
  double dmaCost(uint32_t src, uint32_t dst, double bytes, double times) {
    NodeRef self{NodeRef::Unit, program.unit};
    RouteCost in = routeCost({NodeRef::Memory, src}, self);
    RouteCost outRoute = routeCost(self, {NodeRef::Memory, dst});
    double bandwidth = std::min(in.bandwidth, outRoute.bandwidth);
    double latency = in.latency + outRoute.latency;
    chargeMemories({src, dst}, bytes, times);
    if (machine.memories[src].core < 0) {
      loadLatency = std::max(loadLatency, latency);
      loads = true;
      loadedBytes += bytes;
      if (!loadDevice) {
        loadDevice = src;
        loadRoute = bandwidth;
      }
    }
    if (machine.memories[dst].core < 0) {
      storeLatency = std::max(storeLatency, latency);
      stores = true;
      storedBytes += bytes;
      if (!storeDevice) {
        storeDevice = dst;
        storeRoute = bandwidth;
      }
      if (waited)
        (skewedDepth > 0 ? skewedGroups : storeGroups) += times;
      waited = false;
    }
    double occupancy = bandwidth > 0 ? std::ceil(bytes / bandwidth) : 0;
    // A unit that keeps one transfer in flight waits for each to land.
    return unit.maxOutstanding <= 1 ? occupancy + latency : occupancy;
  }

  /// A map's micro-ops over `n` elements, each at the unit's rate for its
  /// class and type (a compare at the type it reads).
  double mapCost(const MapBody &body, uint64_t n) const {
    double cycles = 0;
    for (const MicroOp &op : body.ops)
      if (op.op != ScalarOp::Const) {
        ElemType t = op.op == ScalarOp::CmpF || op.op == ScalarOp::CmpI
                         ? op.srcType
                         : op.type;
        cycles += cyclesFor(n, unit.getThroughput(scalarOpClass(op.op), t));
      }
    return cycles;
  }

  double instructionCost(const Inst &in, double times) {
    switch (in.op) {
    case Opcode::Map:
      vtype[in.a] = &program.vtypes[in.c];
      return mapCost(program.maps[in.b], program.vtypes[in.c].numElements());
    case Opcode::Reduce: {
      const VectorType *src = vtype[in.b];
      vtype[in.a] = &program.vtypes[in.c];
      if (!src)
        return 0;
      return cyclesFor(src->numElements(),
                       unit.getThroughput(OpClass::Reduction, src->elem));
    }
    case Opcode::Broadcast:
    case Opcode::Iota: {
      const VectorType &type = program.vtypes[in.c];
      vtype[in.a] = &type;
      return cyclesFor(type.numElements(),
                       unit.getThroughput(OpClass::Elementwise, type.elem));
    }
    case Opcode::Matmul: {
      const VectorType *a = vtype[in.b], *b = vtype[in.c];
      vtype[in.a] = &program.vtypes[in.e];
      std::optional<MatrixDims> dims =
          a && b ? matrixDims(a->shape, b->shape) : std::nullopt;
      if (!dims)
        return 0;
      double thr = unit.getThroughput(OpClass::Matrix, a->elem);
      if (thr <= 0)
        return 0;
      return static_cast<double>(matrixProductCycles(
          unit.matrix, thr, dims->rows, dims->cols, dims->depth));
    }
    case Opcode::Recv:
    case Opcode::Splat:
      vtype[in.a] = &program.vtypes[in.c];
      return 0;
    case Opcode::MovV:
      vtype[in.a] = vtype[in.b];
      return 0;
    case Opcode::Send: {
      const VectorType *type = vtype[in.b];
      if (!type)
        return 0;
      const FifoDesc &fifo = exe.fifos[in.a];
      return std::ceil(static_cast<double>(type->bytes()) /
                       machine.links[fifo.link].bandwidth);
    }
    case Opcode::Load:
    case Opcode::Store: {
      if (in.op == Opcode::Store)
        signalledAfterLastStore.clear();
      if (in.op == Opcode::Load) {
        loadedFromScratchpad = true;
        inHandOver = false;
        loadMemory = in.b;
      }
      NodeRef self{NodeRef::Unit, program.unit};
      NodeRef mem{NodeRef::Memory, in.b};
      RouteCost route =
          in.op == Opcode::Load ? routeCost(mem, self) : routeCost(self, mem);
      double bytes = static_cast<double>(value(in.d));
      chargeMemories({in.b}, bytes, times);
      return route.bandwidth > 0 ? std::ceil(bytes / route.bandwidth) : 0;
    }
    case Opcode::Dma:
    case Opcode::RemoteDma: {
      double rows = in.f == kNoReg ? 1 : static_cast<double>(value(in.f));
      return dmaCost(in.a, in.c, static_cast<double>(value(in.e)) * rows,
                     times);
    }
    case Opcode::Fill: {
      double rows = in.d == kNoReg ? 1 : static_cast<double>(value(in.d));
      double bytes = static_cast<double>(value(in.c)) * rows;
      NodeRef self{NodeRef::Unit, program.unit};
      RouteCost route = routeCost(self, {NodeRef::Memory, in.a});
      chargeMemories({in.a}, bytes, times);
      double occupancy =
          route.bandwidth > 0 ? std::ceil(bytes / route.bandwidth) : 0;
      return unit.maxOutstanding <= 1 ? occupancy + route.latency : occupancy;
    }
    case Opcode::ReadIndex: {
      // The unit waits for each index: its bytes over the route memory ->
      // unit, then the route's latency (as the simulator charges it).
      NodeRef self{NodeRef::Unit, program.unit};
      RouteCost route = routeCost({NodeRef::Memory, in.b}, self);
      double bytes = in.sub;
      chargeMemories({in.b}, bytes, times);
      return (route.bandwidth > 0 ? bytes / route.bandwidth : 0) +
             route.latency;
    }
    case Opcode::SyncSend:
      loadedBeforeSignal.try_emplace(in.a, loadedBytes);
      signalledAfterLastStore.push_back(in.a);
      return 0;
    case Opcode::SyncRecv: {
      waited = true;
      if (!loadedFromScratchpad)
        waitedBeforeFirstLoad.push_back(in.a);
      storedBeforeLastWait[in.a] = storedBytes;
      waitLog.push_back(in.a);
      uint32_t sender = exe.syncs[in.a].sender;
      if ((unit.roles & RoleLoad) &&
          (machine.units[sender].roles & RoleStore) && !inHandOver) {
        handOvers += times;
        handOverStore = sender;
        inHandOver = true;
      }
      return 0;
    }
    default:
      return 0;
    }
  }

  /// The cycles of instructions [begin, end), each executed `times` times.
  double walk(size_t begin, size_t end, double times) {
    double cycles = 0;
    for (size_t pc = begin; pc < end;) {
      const Inst &in = program.insts[pc];
      switch (in.op) {
      case Opcode::Halt:
        return cycles;
      case Opcode::SetImm:
      case Opcode::MovS:
      case Opcode::SelectS:
      case Opcode::Alu:
        // A failing alu stops the simulator; the estimate goes on with the
        // register unknown.
        (void)stepKnownScalar(in, regs);
        break;
      case Opcode::LoopBegin: {
        Known lb = regs[in.b], ub = regs[in.c], step = regs[in.d];
        double trips = 1;
        if (lb && ub && step && *step > 0)
          trips = *lb >= *ub
                      ? 0
                      : static_cast<double>((*ub - *lb + *step - 1) / *step);
        bool skewed = in.sub == kLoopSkewed;
        skewedDepth += skewed;
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
          double loadedBefore = loadedBytes, storedBefore = storedBytes;
          size_t waitsBefore = waitLog.size();
          if (trips > 0)
            cycles += trips * walk(pc + 1, in.e, times * trips);
          // The body was walked once: its other iterations move as much
          // again, and its waits' last ones are in the last iteration.
          if (trips > 1) {
            double stored = (trips - 1) * (storedBytes - storedBefore);
            loadedBytes += (trips - 1) * (loadedBytes - loadedBefore);
            storedBytes += stored;
            llvm::SmallDenseSet<uint32_t> moved;
            for (uint32_t sync : llvm::drop_begin(waitLog, waitsBefore))
              if (moved.insert(sync).second)
                storedBeforeLastWait[sync] += stored;
          }
        }
        skewedDepth -= skewed;
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
        cycles += instructionCost(in, times);
        Known bound = regs[in.d];
        int64_t value = 2 * indexReads++;
        if (bound && *bound > 0)
          value %= *bound;
        regs[in.a] = value;
        break;
      }
      default:
        cycles += instructionCost(in, times);
        break;
      }
      ++pc;
    }
    return cycles;
  }

  const Machine &machine;
  const Executable &exe;
  const UnitProgram &program;
  KernelEstimate &out;
  const MachineUnit &unit;
  std::vector<Known> regs;
  std::vector<const VectorType *> vtype;
  bool waited = false;
  bool inHandOver = false;
  bool loadedFromScratchpad = false;
  double loadedBytes = 0;
  /// The sync channels waited for, in program order.
  std::vector<uint32_t> waitLog;
  std::optional<uint32_t> handOverStore, loadMemory;
  /// How many skewed loops enclose the instruction walked.
  int skewedDepth = 0;
  /// Loops of at most kWalkEach known trips are walked iteration by
  /// iteration while the program's walked iterations stay within
  /// kWalkBudget; the others once, their cost times their trips.
  static constexpr double kWalkEach = 128, kWalkBudget = 16384;
  double iterationsWalked = 0;
  /// Index reads walked (the value the next one takes, halved).
  int64_t indexReads = 0;
};
} // namespace

/// Whether the resource named `bottleneck` is a compute unit (alone or
/// with its hand-overs).
static bool computeBinds(const Machine &machine, llvm::StringRef bottleneck) {
  return llvm::any_of(machine.units, [&](const MachineUnit &unit) {
    return (unit.roles & (RoleVector | RoleMatrix)) &&
           bottleneck.starts_with(unit.name) &&
           (bottleneck.size() == unit.name.size() ||
            bottleneck.substr(unit.name.size()) == " + hand-overs");
  });
}

/// A program's share of a device memory's bandwidth when every program
/// that moves data to or from it (`users`) does so at once, at most its
/// route's.
static double shareOf(const Machine &machine, uint32_t memory, double route,
                      unsigned users) {
  double bandwidth = machine.memories[memory].bandwidth;
  if (bandwidth <= 0 || users == 0)
    return route;
  return route > 0 ? std::min(route, bandwidth / users) : bandwidth / users;
}

/// The cycles before a compute unit's first entry (the device-memory
/// loads the load units wait for before their first load, at each
/// engine's share of the memory, and their route latency) and after its
/// last (the last execution's device-memory stores and their latency).
/// Every engine starts at once, so each gets its share of a memory
/// they all read.
static std::pair<double, double>
fillAndDrain(const Machine &machine, const Executable &exe,
             llvm::ArrayRef<ProgramWalker> walkers) {
  llvm::DenseMap<uint32_t, unsigned> loaders, storers;
  llvm::DenseMap<uint32_t, const ProgramWalker *> walkerOfUnit;
  for (const ProgramWalker &walker : walkers) {
    walkerOfUnit[walker.unitIndex()] = &walker;
    if (walker.loadDevice)
      ++loaders[*walker.loadDevice];
    if (walker.storeDevice)
      ++storers[*walker.storeDevice];
  }
  double head = 0, tail = 0;
  for (const ProgramWalker &walker : walkers) {
    // An engine's stores after it waits for a token a store unit sends
    // once it has stored the last execution's output.
    for (uint32_t sync : walker.signalledAfterLastStore) {
      const ProgramWalker *engine =
          walkerOfUnit.lookup(exe.syncs[sync].receiver);
      if (!engine || !engine->storeDevice)
        continue;
      auto before = engine->storedBeforeLastWait.find(sync);
      double share = shareOf(machine, *engine->storeDevice, engine->storeRoute,
                             storers.lookup(*engine->storeDevice));
      if (before != engine->storedBeforeLastWait.end() && share > 0)
        tail = std::max(tail, (engine->storedBytes - before->second) / share +
                                  engine->storeLatency);
    }
    if (!walker.fed())
      continue;
    for (uint32_t sync : walker.waitedBeforeFirstLoad) {
      const ProgramWalker *sender = walkerOfUnit.lookup(exe.syncs[sync].sender);
      if (!sender || !sender->loadDevice)
        continue;
      auto bytes = sender->loadedBeforeSignal.find(sync);
      double share = shareOf(machine, *sender->loadDevice, sender->loadRoute,
                             loaders.lookup(*sender->loadDevice));
      if (bytes != sender->loadedBeforeSignal.end() && share > 0)
        head = std::max(head, bytes->second / share + sender->loadLatency);
    }
  }
  return {head, tail};
}

/// Sets `estimate`'s busiest resource to `name` when `busy` exceeds it.
static void consider(KernelEstimate &estimate, double busy,
                     const std::string &name) {
  if (busy > estimate.busiest) {
    estimate.busiest = busy;
    estimate.bottleneck = name;
  }
}

KernelEstimate ktflow::machine::estimateKernel(const Machine &machine,
                                               const Executable &exe) {
  KernelEstimate estimate;
  estimate.memoryBusy.assign(machine.memories.size(), 0);
  double load = 0, store = 0, compute = 0, shared = 0;
  std::string sharedName;
  bool waits = false;
  // Per load unit: the compute unit it feeds and the cycles it waits
  // for hand-overs.
  std::vector<std::pair<uint32_t, double>> handOverStalls;
  std::vector<double> busyOfUnit(machine.units.size(), 0);
  std::vector<ProgramWalker> walkers;
  walkers.reserve(exe.programs.size());
  for (const UnitProgram &program : exe.programs) {
    const MachineUnit &unit = machine.units[program.unit];
    ProgramWalker &walker =
        walkers.emplace_back(machine, exe, program, estimate);
    double busy = walker.run();
    estimate.unitBusy.push_back(busy);
    busyOfUnit[program.unit] = busy;
    if (std::optional<uint32_t> compute = walker.fed();
        compute && walker.handOvers > 0)
      handOverStalls.push_back(
          {*compute, walker.handOvers * walker.handOverLatency()});
    load = std::max(load, walker.loadLatency);
    store = std::max(store, walker.storeLatency);
    if (unit.roles & (RoleVector | RoleMatrix))
      compute = std::max(compute, busy);
    double serial = busy + walker.storeGroups * walker.loadLatency;
    // A skewed engine's transfers overlap the compute like separate load
    // and store units' do.
    bool skewed = walker.skewedGroups > 0 && walker.storeGroups == 0;
    if (walker.loads && walker.stores && !skewed && serial > shared) {
      shared = serial;
      sharedName = unit.name;
    }
    if (busy > estimate.busiest) {
      // A DMA engine that waits for each transfer holds their latency.
      waits = (unit.roles & RoleDma) && unit.maxOutstanding <= 1;
      consider(estimate, busy, unit.name);
    }
  }
  // A compute unit waits, empty, for each hand-over its feed waits for.
  for (auto [compute, stall] : handOverStalls)
    if (busyOfUnit[compute] + stall > estimate.busiest) {
      waits = false;
      consider(estimate, busyOfUnit[compute] + stall,
               machine.units[compute].name + " + hand-overs");
    }
  for (auto [m, busy] : llvm::enumerate(estimate.memoryBusy))
    if (busy > estimate.busiest) {
      waits = false;
      consider(estimate, busy, machine.memories[m].name);
    }
  // One engine that loads and stores runs an execution's loads, then
  // (after the compute) its stores, then the next execution's loads: its
  // transfers, the landing of the loads of each execution it waits for
  // and the compute do not overlap.
  bool serial = false;
  if (shared > 0 && shared + compute > estimate.busiest) {
    waits = false;
    serial = true;
    consider(estimate, shared + compute, sharedName + " + compute");
  }
  // The first load's and the last store's latency are not overlapped (the
  // serial sum holds the loads' already).
  estimate.latency = waits ? 0 : serial ? store : load + store;
  // A compute unit that binds starts when its first entry's data has
  // landed and ends before the last execution's stores leave.
  if (!waits && !serial && computeBinds(machine, estimate.bottleneck)) {
    auto [head, tail] = fillAndDrain(machine, exe, walkers);
    estimate.latency = std::max(load, head) + std::max(store, tail);
  }
  estimate.cycles = estimate.busiest + estimate.latency;
  return estimate;
}
