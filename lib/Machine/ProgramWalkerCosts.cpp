//===- ProgramWalkerCosts.cpp - What each instruction costs the walk ------===//
//
// This file implements ProgramWalker::instructionCost (ProgramWalker.h):
// each instruction's uncontended cost as the simulator's timing model
// states it, the bytes it moves through each memory, and what the
// whole-kernel estimate records of it (its transfers in flight, tokens,
// receives and loads).
//
//===----------------------------------------------------------------------===//

#include "ProgramWalker.h"
#include "ktflow/Device/ChargedType.h"
#include "ktflow/Machine/MatrixTiming.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cmath>

using namespace ktflow::machine;
using namespace ktflow::machine::detail;

/// The simulator's charge for `n` elements at `perCycle` a cycle.
static double cyclesFor(uint64_t n, double perCycle) {
  return perCycle <= 0 ? 0
                       : std::ceil(static_cast<double>(n) / perCycle - 1e-9);
}

/// The cycles `bytes` hold a route of `bandwidth` bytes a cycle (none
/// without one).
static double occupancyOf(double bytes, double bandwidth) {
  return bandwidth > 0 ? std::ceil(bytes / bandwidth) : 0;
}

double ProgramWalker::fifoBandwidth(uint32_t fifo) const {
  return machine.links[exe.fifos[fifo].link].bandwidth;
}

void ProgramWalker::chargeMemories(std::initializer_list<uint32_t> memories,
                                   double bytes, double times) {
  for (uint32_t m : memories)
    if (machine.memories[m].bandwidth > 0) {
      double busy = times * bytes / machine.memories[m].bandwidth;
      out->memoryBusy[m] += busy;
      records->memoryCharges.push_back({m, busy});
    }
}

double ProgramWalker::dmaCost(uint32_t src, uint32_t dst, double bytes,
                              double times, bool remote) {
  NodeRef self{NodeRef::Unit, program->unit};
  RouteCost in = routeCost({NodeRef::Memory, src}, self);
  RouteCost outRoute = routeCost(self, {NodeRef::Memory, dst});
  if (remote) {
    // A remote DMA crosses the core interconnect, one link per hop, into
    // the other core's scratchpad (as the simulator routes it).
    const MachineInterconnect &ic = machine.interconnect;
    int32_t to = machine.memories[dst].core;
    double hops = unit->core < 0 || to < 0 ? 0 : ic.hops(unit->core, to);
    outRoute.bandwidth = ic.linkBandwidth;
    outRoute.latency = hops * ic.hopLatency;
  }
  double bandwidth = std::min(in.bandwidth, outRoute.bandwidth);
  double latency = in.latency + outRoute.latency;
  chargeMemories({src, dst}, bytes, times);
  // A DMA from device memory to device memory (PassThroughDma.cpp) lands
  // once: its way in is the load's latency, its way out the store's.
  bool deviceToDevice =
      machine.memories[src].core < 0 && machine.memories[dst].core < 0;
  if (machine.memories[src].core < 0) {
    if (afterStoreWait)
      chainedStoreTailCycles += storeSegment;
    storeSegment = 0;
    afterStoreWait = false;
    // (A DMA to device memory is nothing the compute waits for: no
    // execution's loads, no fill before the compute; its landing, its way
    // in and out, is copyTail's.)
    if (!deviceToDevice) {
      loadedSinceStoreWait = loads = true;
      loadLatency = std::max(loadLatency, latency);
    }
    loadedBytes += bytes;
    deviceLoaded += times * bytes;
    ++loadsSinceIndexRead;
    if (chainDepth > 0)
      skewedLoaded += times * bytes;
    if (!loadDevice) {
      loadDevice = src;
      loadRoute = bandwidth;
    }
  }
  if (machine.memories[dst].core < 0) {
    storeLatency =
        std::max(storeLatency, deviceToDevice ? outRoute.latency : latency);
    stores = true;
    storedBytes += bytes;
    deviceStored += times * bytes;
    if (chainDepth > 0)
      skewedStored += times * bytes;
    if (!storeDevice) {
      storeDevice = dst;
      storeRoute = bandwidth;
    }
    if (waited)
      (skewedDepth > 0 ? skewedGroups : storeGroups) += times;
    waited = false;
  }
  // Every lane moves its data at once: at its share of the device memory.
  double shared = bandwidth;
  if (machine.memories[src].core < 0)
    shared = routes->deviceBandwidth(src, /*load=*/true, shared, program->unit,
                                     deviceLoaded - times * bytes);
  if (machine.memories[dst].core < 0)
    shared =
        routes->deviceBandwidth(dst, /*load=*/false, shared, program->unit);
  double cost = landedCost(occupancyOf(bytes, shared), latency, times);
  if (deviceToDevice)
    copyLandsAt = std::max(
        copyLandsAt, clock + cost + (unit->maxOutstanding > 1 ? latency : 0));
  if (afterStoreWait && machine.memories[dst].core < 0) {
    chainedStoreCycles += times * cost;
    storeSegment += times * cost;
  }
  return cost;
}

double detail::waitInQueue(llvm::SmallVectorImpl<double> &landings, double at,
                           double inFlightFor, unsigned slots) {
  llvm::erase_if(landings, [&](double landed) { return landed <= at; });
  double wait = 0;
  if (landings.size() >= slots) {
    // The earliest landings free the slots this transfer needs.
    llvm::sort(landings);
    wait = landings[landings.size() - slots] - at;
    landings.erase(landings.begin(), landings.end() - slots + 1);
  }
  landings.push_back(at + wait + inFlightFor);
  return wait;
}

double ProgramWalker::landedCost(double occupancy, double latency,
                                 double times) {
  // A unit that keeps one transfer in flight waits for each to land.
  if (unit->maxOutstanding <= 1)
    return occupancy + latency;
  double wait = waitForSlot(occupancy + latency, times);
  records->chainEvents.push_back(
      {ChainEvent::Transfer, 0, clock, 0, wait, occupancy + latency});
  slotBoundDrift += waitInQueue(slotBoundLandings, clock + slotBoundDrift,
                                occupancy + latency, unit->maxOutstanding) -
                    wait;
  return wait + occupancy;
}

double ProgramWalker::waitForSlot(double inFlightFor, double times) {
  double wait = waitInQueue(landings, clock, inFlightFor, unit->maxOutstanding);
  slotWaits += times * wait;
  slotWaitsWalked += wait;
  return wait;
}

double ProgramWalker::mapCost(const MapBody &body, uint64_t n) const {
  double cycles = 0;
  for (const MicroOp &op : body.ops)
    if (op.op != ScalarOp::Const)
      cycles += cyclesFor(
          n, unit->getThroughput(scalarOpClass(op.op),
                                 ktflow::device::chargedType(op, *unit)));
  return cycles;
}

double ProgramWalker::mapCostOf(const Inst &in) {
  if (mapCosts.empty())
    mapCosts.assign(program->insts.size(), -1);
  double &cost = mapCosts[&in - program->insts.data()];
  if (cost < 0)
    cost = mapCost(program->maps[in.b], program->vtypes[in.c].numElements());
  return cost;
}

double ProgramWalker::instructionCost(const Inst &in, double times) {
  switch (in.op) {
  case Opcode::Map:
    vtype[in.a] = &program->vtypes[in.c];
    return mapCostOf(in);
  case Opcode::Reduce: {
    const VectorType *src = vtype[in.b];
    vtype[in.a] = &program->vtypes[in.c];
    if (!src)
      return 0;
    return cyclesFor(src->numElements(),
                     unit->getThroughput(OpClass::Reduction, src->elem));
  }
  case Opcode::Broadcast:
  case Opcode::Iota: {
    const VectorType &type = program->vtypes[in.c];
    vtype[in.a] = &type;
    ElemType rateType = in.op == Opcode::Broadcast
                            ? ktflow::device::heldType(type.elem, *unit)
                            : type.elem;
    return cyclesFor(type.numElements(),
                     unit->getThroughput(OpClass::Elementwise, rateType));
  }
  case Opcode::Matmul: {
    const VectorType *a = vtype[in.b], *b = vtype[in.c];
    vtype[in.a] = &program->vtypes[in.e];
    std::optional<MatrixDims> dims =
        a && b ? matrixDims(a->shape, b->shape) : std::nullopt;
    if (!dims)
      return 0;
    double thr = unit->getThroughput(OpClass::Matrix, a->elem);
    if (thr <= 0)
      return 0;
    return static_cast<double>(matrixProductCycles(
        unit->matrix, thr, dims->rows, dims->cols, dims->depth));
  }
  case Opcode::Recv: {
    vtype[in.a] = &program->vtypes[in.c];
    // (A type's bytes are a product over its shape: found once.)
    double bytes = program->vtypes[in.c].bytes();
    records->chainEvents.push_back({ChainEvent::Pop, in.b, clock, bytes});
    if (computes(*unit)) {
      if (clock == 0)
        feedBeforeWork += fifoCycles(in.b, bytes);
      // (The bytes received before, looked up once.)
      double &received = fifoBytes[in.b];
      records->receives.push_back({in.b, received, clock, bytes, times});
      if (!llvm::is_contained(records->fifosReceived, in.b))
        records->fifosReceived.push_back(in.b);
      received += bytes;
    }
    return 0;
  }
  case Opcode::Splat:
    vtype[in.a] = &program->vtypes[in.c];
    return 0;
  case Opcode::MovV:
    vtype[in.a] = vtype[in.b];
    return 0;
  case Opcode::Send: {
    const VectorType *type = vtype[in.b];
    if (!type)
      return 0;
    double bytes = type->bytes();
    const MachineLink &link = machine.links[exe.fifos[in.a].link];
    // The simulator holds the link, and charges the sender, for the bytes'
    // ticks (1/65536 cycle), not whole cycles: a 16-element bf16 send on
    // mesh_device's 64 B/cycle FIFO is half a cycle (rounded up, bf16
    // bias_loop's VPU was 1,024 cycles over, its estimate +7.5 %).
    double cost = bytes / link.bandwidth;
    records->chainEvents.push_back({ChainEvent::Push, in.a, clock, bytes, cost,
                                    double(link.latency), /*rounding=*/0});
    return cost;
  }
  case Opcode::Load:
  case Opcode::Store: {
    if (in.op == Opcode::Store) {
      signalledAfterLastStore.clear();
      stored = true;
    }
    if (in.op == Opcode::Load) {
      loadedFromScratchpad = true;
      inHandOver = false;
      loadMemory = in.b;
    }
    NodeRef self{NodeRef::Unit, program->unit};
    NodeRef mem{NodeRef::Memory, in.b};
    RouteCost route =
        in.op == Opcode::Load ? routeCost(mem, self) : routeCost(self, mem);
    // A load or store of rows moves its rows' bytes (`size` is a row's).
    double bytes = static_cast<double>(value(in.d));
    if (in.sub == kTransferRows)
      bytes *= static_cast<double>(value(in.e));
    if (in.op == Opcode::Load) {
      fedBytes += bytes;
      // (The bytes loaded before, looked up once.)
      double &loaded = fifoBytes[in.a];
      records->loadsInto[in.a].loads.push_back(
          {loaded, records->waitLog.size()});
      loaded += bytes;
    }
    chargeMemories({in.b}, bytes, times);
    double occupancy = occupancyOf(bytes, route.bandwidth);
    double exact = route.bandwidth > 0 ? bytes / route.bandwidth : 0;
    // A load moves on once its entries are in the FIFO; a store writes
    // the memory and, as a DMA or fill does, lands before its unit moves
    // on (or stays in flight): a masked tile stored one row at a time
    // pays the route's latency each row.
    if (in.op == Opcode::Load) {
      // Its entries then cross the FIFO's own link to the consumer.
      double latency =
          route.latency + machine.links[exe.fifos[in.a].link].latency;
      records->chainEvents.push_back({ChainEvent::Push, in.a, clock, bytes,
                                      exact, latency, occupancy - exact});
      return occupancy;
    }
    std::vector<ChainEvent> &events = records->chainEvents;
    size_t transfer = events.size();
    double cost = landedCost(occupancy, route.latency, times);
    // Its last entry is written once there, then the store lands (or
    // stays in flight: the transfer, after the entries popped).
    double lastEntry = occupancyOf(
        std::min<double>(bytes, exe.fifos[in.a].entryBytes), route.bandwidth);
    events.insert(events.begin() + transfer,
                  {ChainEvent::Pop, in.a, clock, bytes, cost,
                   cost - occupancy + std::min(occupancy, lastEntry),
                   occupancy - exact});
    return cost;
  }
  case Opcode::Dma:
  case Opcode::RemoteDma: {
    // An engine's tokens before its last transfer announce no execution's
    // last output (the handshake of a copy between tiles before its loads).
    signalledAfterLastStore.clear();
    double rows = in.f == kNoReg ? 1 : static_cast<double>(value(in.f));
    if (hasPlanes(in))
      rows *= static_cast<double>(value(in.i));
    double cost = dmaCost(in.a, in.c, static_cast<double>(value(in.e)) * rows,
                          times, in.op == Opcode::RemoteDma);
    if (readsIndices && unit->maxOutstanding > 1 && !landings.empty())
      writeInFlight(
          in.c, regs[in.d], value(in.e), in.f == kNoReg ? 1 : value(in.f),
          in.f == kNoReg ? 0 : value(in.h), hasPlanes(in) ? value(in.i) : 1,
          hasPlanes(in) ? value(in.k) : 0, landings.back());
    return cost;
  }
  case Opcode::Fill: {
    double rows = in.d == kNoReg ? 1 : static_cast<double>(value(in.d));
    double bytes = static_cast<double>(value(in.c)) * rows;
    NodeRef self{NodeRef::Unit, program->unit};
    RouteCost route = routeCost(self, {NodeRef::Memory, in.a});
    chargeMemories({in.a}, bytes, times);
    double cost =
        landedCost(occupancyOf(bytes, route.bandwidth), route.latency, times);
    if (readsIndices && unit->maxOutstanding > 1 && !landings.empty())
      writeInFlight(in.a, regs[in.b], value(in.c),
                    in.d == kNoReg ? 1 : value(in.d),
                    in.d == kNoReg ? 0 : value(in.e), 1, 0, landings.back());
    return cost;
  }
  case Opcode::ReadIndex: {
    // The unit waits for each index: its bytes over the route memory ->
    // unit, then the route's latency (as the simulator charges it).
    NodeRef self{NodeRef::Unit, program->unit};
    RouteCost route = routeCost({NodeRef::Memory, in.b}, self);
    double bytes = in.sub;
    chargeMemories({in.b}, bytes, times);
    // It first waits for the transfers in flight that write the index
    // (those that stage the ids).
    stagedWait = waitForWrites(in.b, regs[in.c], in.sub);
    return stagedWait + (route.bandwidth > 0 ? bytes / route.bandwidth : 0) +
           route.latency;
  }
  case Opcode::SyncSend: {
    waitedSinceSend.clear();
    // The token leaves once the transfers in flight have landed.
    double leaves = landedBy(clock, landings);
    firstSignals.try_emplace(in.a,
                             FirstSignal{loadedBytes, leaves, slotWaitsWalked});
    records->chainEvents.push_back(
        {ChainEvent::Signal, in.a, clock, loadedBytes});
    uint32_t receiver = exe.syncs[in.a].receiver;
    const MachineUnit &to = machine.units[receiver];
    if ((to.roles & RoleLoad) && !(to.roles & RoleDma)) {
      tokensToLoadUnit[receiver].push_back(leaves);
      if (!firstFeedLeaves && deviceLoaded > 0)
        firstFeedLeaves = leaves;
    }
    if ((to.roles & RoleDma) && receiver != program->unit && deviceLoaded > 0)
      handOversToEngines += times;
    signalledAfterLastStore.push_back(in.a);
    return 0;
  }
  case Opcode::SyncRecv: {
    // The walk does not know how long the unit waits for the token: it
    // takes its transfers in flight to land meanwhile. A load unit hands a
    // buffer back only after the token of its data, which left once the
    // transfers then in flight had landed: those after it may still be in
    // flight (while_loop's rows, four in flight, each waits for a slot).
    records->chainEvents.push_back({ChainEvent::Wait, in.a, clock});
    endInStep();
    uint32_t sender = exe.syncs[in.a].sender;
    auto sent = tokensToLoadUnit.find(sender);
    if (sent != tokensToLoadUnit.end() && !sent->second.empty()) {
      double answered = sent->second.front();
      sent->second.pop_front();
      llvm::erase_if(landings, [&](double at) { return at <= answered; });
      llvm::erase_if(writesInFlight, [&](const WriteInFlight &w) {
        return w.landsAt <= answered;
      });
    } else {
      landings.clear();
      writesInFlight.clear();
    }
    if (!slotBoundStart) {
      // Past its first token, whatever it announces has landed.
      slotBoundStart = landedBy(clock + slotBoundDrift, slotBoundLandings);
      slotBoundLandings.clear();
    }
    if (waitedSinceSend.insert(in.a).second)
      waited = true;
    if (!loadedFromScratchpad)
      waitedBeforeFirstLoad.push_back(in.a);
    lastWaits[in.a] = {storedBytes, fedBytes, clock};
    records->waitLog.push_back(in.a);
    const MachineUnit &from = machine.units[sender];
    if ((from.roles & RoleStore) && !(from.roles & RoleDma) &&
        from.core == unit->core) {
      if (!firstStoreWaitAt)
        firstStoreWaitAt = clock;
      if (skewedDepth > 0) {
        // A skewed loop's execution: the loads before its wait are those
        // of an execution D ahead, not the data this one waited for
        // (skewedChainCount counts its chains); it ends the stores of a
        // chained execution before it.
        if (afterStoreWait)
          chainedStoreTailCycles += storeSegment;
        storeSegment = 0;
        afterStoreWait = loadedSinceStoreWait = false;
      } else if (loadedSinceStoreWait) {
        chainedExecutions += times;
        loadedSinceStoreWait = false;
        afterStoreWait = true;
      } else if (afterStoreWait && storeSegment > 0) {
        // A later block of the same execution's output: the stores
        // before it overlap the compute of this block.
        chainedStoreWaits += times;
        storeSegment = 0;
      }
    }
    if (handsOver(in.a) && !inHandOver) {
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
