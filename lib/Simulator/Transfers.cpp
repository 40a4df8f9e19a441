//===- Transfers.cpp - Data movement in the simulator ---------------------===//
//
// This file implements the instructions that move data: DMA between
// memories (a remote DMA's route crosses the core interconnect), fills of a
// memory with zeros, loads from a memory into a FIFO, stores from a FIFO
// into a memory, vector send/receive and sync tokens. Transfers advance one
// chunk (DMA and fill: the route's transfer granularity; FIFO: one entry)
// per step, so units sharing a link or memory interleave at that grain;
// each chunk reserves every resource of its route for bytes/bandwidth
// cycles. A unit that keeps several transfers in flight
// (MachineUnit::maxOutstanding) moves on once a DMA's, fill's or store's
// bytes have left; what it signals after that is visible only when the
// transfer lands.
//
//===----------------------------------------------------------------------===//

#include "Engine.h"
#include "StridedRange.h"

#include "ktflow/Machine/Values.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cstring>

using namespace ktflow::machine;
using namespace ktflow::sim;
using namespace ktflow::sim::detail;

namespace {
/// A DMA's second level: `count` planes of its rows, each plane's first row
/// `srcStride` and `dstStride` bytes after the previous plane's.
struct Planes {
  int64_t count = 1, srcStride = 0, dstStride = 0;
};
} // namespace

/// Reads the size operands of a transfer and starts it. Returns false (and
/// records an error) on a negative size.
static bool beginTransfer(Engine &e, UnitState &u, int64_t bytes, int64_t rows,
                          int64_t src, int64_t dst, int64_t srcStride,
                          int64_t dstStride, Planes planes) {
  if (bytes < 0 || rows < 0 || planes.count < 0 || src < 0 || dst < 0) {
    e.fail(u, llvm::formatv("negative size or address (bytes {0}, rows {1}, "
                            "planes {2}, addresses {3} and {4})",
                            bytes, rows, planes.count, src, dst)
                  .str());
    return false;
  }
  u.active = true;
  u.rowsLeft = u.planeRows = rows;
  u.rowBytes = u.rowBytesLeft = bytes;
  u.rowSrc = u.src = u.planeSrc = src;
  u.rowDst = u.dst = u.planeDst = dst;
  u.srcStride = srcStride;
  u.dstStride = dstStride;
  u.planesLeft = planes.count;
  u.srcPlaneStride = planes.srcStride;
  u.dstPlaneStride = planes.dstStride;
  u.instStart = u.lastArrival = u.now;
  ++u.instructions;
  // Saturated: the sizes of a transfer that fails its bounds check.
  uint64_t moved;
  if (__builtin_mul_overflow(static_cast<uint64_t>(bytes),
                             static_cast<uint64_t>(rows), &moved) ||
      __builtin_mul_overflow(moved, static_cast<uint64_t>(planes.count),
                             &moved))
    moved = UINT64_MAX;
  u.transferBytes = moved;
  u.bytes += u.transferBytes;
  return true;
}

/// Before a transfer of a unit that keeps several in flight: forgets those
/// that have landed, then waits for the ones whose bytes this transfer reads
/// or overwrites, and for a free slot. Returns true if the unit waited (the
/// caller steps again).
static bool waitForSlot(Engine &e, UnitState &u,
                        std::initializer_list<StridedRange> touches) {
  if (e.blocksOnTransfers(u))
    return false;
  llvm::erase_if(u.inFlight,
                 [&](const InFlight &t) { return t.landsAt <= u.now; });
  Tick until = 0;
  for (const InFlight &t : u.inFlight)
    for (const StridedRange &r : touches)
      if (mayOverlap(t.writes, r))
        until = std::max(until, t.landsAt);
  if (u.inFlight.size() >= e.machine.units[u.prog->unit].maxOutstanding) {
    Tick earliest = u.inFlight.front().landsAt;
    for (const InFlight &t : u.inFlight)
      earliest = std::min(earliest, t.landsAt);
    until = std::max(until, earliest);
  }
  if (until <= u.now)
    return false;
  e.waitUntil(u, until, kWaitInFlight, false);
  return true;
}

/// Finishes a transfer once its last chunk has been issued. A blocking
/// transfer completes when its last byte has landed; a unit that keeps
/// several in flight records where it writes and moves on.
static void endTransfer(Engine &e, UnitState &u, bool waitForArrival,
                        StridedRange writes = {}) {
  if (waitForArrival && !e.blocksOnTransfers(u)) {
    if (u.lastArrival > u.now)
      u.inFlight.push_back({u.lastArrival, writes});
  } else if (waitForArrival && u.lastArrival > u.now) {
    u.busy += u.lastArrival - u.now;
    u.now = u.lastArrival;
  }
  e.record(u, u.prog->insts[u.pc].op, u.instStart, u.now, u.transferBytes);
  u.active = false;
  ++u.pc;
}

Tick Engine::landedBy(const UnitState &u) const {
  Tick last = 0;
  for (const InFlight &t : u.inFlight)
    last = std::max(last, t.landsAt);
  return last;
}

/// Advances the row cursor by `chunk` bytes, to the next plane's first row
/// after a plane's last; returns true when done.
static bool advance(UnitState &u, uint64_t chunk) {
  u.rowBytesLeft -= chunk;
  u.src += chunk;
  u.dst += chunk;
  if (u.rowBytesLeft)
    return false;
  if (--u.rowsLeft == 0) {
    if (--u.planesLeft == 0)
      return true;
    u.rowsLeft = u.planeRows;
    u.rowSrc = u.planeSrc += u.srcPlaneStride;
    u.rowDst = u.planeDst += u.dstPlaneStride;
  } else {
    u.rowSrc += u.srcStride;
    u.rowDst += u.dstStride;
  }
  u.src = u.rowSrc;
  u.dst = u.rowDst;
  u.rowBytesLeft = u.rowBytes;
  return false;
}

/// Starts the transfer of the unit's current instruction unless one is under
/// way: waits for the transfers in flight whose bytes it `touches`, reads
/// its sizes, binds its route and finishes an empty one at once. Returns
/// the step to report, or nothing when a chunk is to move.
static std::optional<Step>
startTransfer(Engine &e, UnitState &u,
              std::initializer_list<StridedRange> touches, int64_t bytes,
              int64_t rows, int64_t src, int64_t dst, int64_t srcStride,
              int64_t dstStride, Planes planes = {}) {
  if (u.active)
    return std::nullopt;
  if (waitForSlot(e, u, touches))
    return Step::Continue;
  if (!beginTransfer(e, u, bytes, rows, src, dst, srcStride, dstStride, planes))
    return Step::Error;
  u.route = e.routeFor(u.index, u.pc);
  if (bytes == 0 || rows == 0 || planes.count == 0) {
    u.rowsLeft = 0;
    endTransfer(e, u, false);
    return Step::Continue;
  }
  return std::nullopt;
}

/// Charges a chunk written to memory to the transfer's route (and the
/// interconnect links it crosses), advances the transfer, and finishes it
/// after its last chunk, once its bytes have landed.
static void chargeWrittenChunk(Engine &e, UnitState &u, uint64_t chunk,
                               StridedRange writes, uint64_t advanced = 0) {
  auto [start, occupancy] = e.reserve(u, u.route->uses, chunk);
  for (uint32_t hop : u.route->interconnectHops)
    e.interconnectBytes[hop] += chunk;
  u.busy += occupancy;
  u.now = start + occupancy;
  u.lastArrival = std::max(u.lastArrival, u.now + u.route->latency);
  if (advance(u, chunk - advanced))
    endTransfer(e, u, true, writes);
}

Step Engine::stepDma(UnitState &u, const Inst &in) {
  const std::vector<int64_t> &s = u.s;
  int64_t rows = in.f == kNoReg ? 1 : s[in.f];
  int64_t srcStride = in.f == kNoReg ? 0 : s[in.g];
  int64_t dstStride = in.f == kNoReg ? 0 : s[in.h];
  Planes planes;
  if (hasPlanes(in))
    planes = {s[in.i], s[in.j], s[in.k]};
  StridedRange reads{in.a,         s[in.b],         rows, srcStride, s[in.e],
                     planes.count, planes.srcStride};
  StridedRange writes{in.c,         s[in.d],         rows, dstStride, s[in.e],
                      planes.count, planes.dstStride};
  if (std::optional<Step> step =
          startTransfer(*this, u, {reads, writes}, s[in.e], rows, s[in.b],
                        s[in.d], srcStride, dstStride, planes))
    return *step;
  uint64_t chunk = std::min<uint64_t>(u.route->chunkBytes, u.rowBytesLeft);
  const uint8_t *from =
      readBytes(u, in.a, u.src, chunk, "dma reads", readScratch);
  if (!from || !writeBytes(u, in.c, u.dst, chunk, from, "dma writes"))
    return Step::Error;
  chargeWrittenChunk(*this, u, chunk, writes);
  return Step::Continue;
}

Step Engine::stepFill(UnitState &u, const Inst &in) {
  const std::vector<int64_t> &s = u.s;
  int64_t rows = in.d == kNoReg ? 1 : s[in.d];
  int64_t stride = in.d == kNoReg ? 0 : s[in.e];
  StridedRange writes{in.a, s[in.b], rows, stride, s[in.c]};
  if (std::optional<Step> step = startTransfer(*this, u, {writes}, s[in.c],
                                               rows, 0, s[in.b], 0, stride))
    return *step;
  // A DMA whose source is zeros: the unit pushes chunks to the memory.
  uint64_t chunk = std::min<uint64_t>(u.route->chunkBytes, u.rowBytesLeft);
  if (!writeBytes(u, in.a, u.dst, chunk, nullptr, "fill writes"))
    return Step::Error;
  chargeWrittenChunk(*this, u, chunk, writes);
  return Step::Continue;
}

Step Engine::stepReadIndex(UnitState &u, const Inst &in) {
  int64_t addr = u.s[in.c], bound = u.s[in.d];
  if (addr < 0)
    return fail(u, llvm::formatv("negative address {0}", addr).str());
  // The index may be what a transfer of this unit still in flight writes.
  StridedRange reads{in.b, addr, 1, 0, in.sub};
  Tick until = 0;
  for (const InFlight &t : u.inFlight)
    if (t.landsAt > u.now && mayOverlap(t.writes, reads))
      until = std::max(until, t.landsAt);
  if (until > u.now) {
    waitUntil(u, until, kWaitInFlight, false);
    return Step::Continue;
  }
  const uint8_t *p =
      readBytes(u, in.b, addr, in.sub, "read_index reads", readScratch);
  if (!p)
    return Step::Error;
  // Little-endian, sign-extended from its width.
  uint64_t bits = 0;
  std::memcpy(&bits, p, in.sub);
  unsigned shift = 64 - 8 * in.sub;
  int64_t value = static_cast<int64_t>(bits << shift) >> shift;
  if (value < 0 || value >= bound)
    return fail(u,
                llvm::formatv("index {0} read from {1}[{2}] is outside "
                              "[0, {3}) of the tensor it addresses",
                              value, machine.memories[in.b].name, addr, bound)
                    .str());
  // Timed as a DMA of the index's bytes from the memory to the unit: the
  // unit waits for the value, (n / B) + L uncontended.
  ++u.instructions;
  Tick begin = u.now;
  const Route *route = routeFor(u.index, u.pc);
  auto [start, occupancy] = reserve(u, route->uses, in.sub);
  u.now = start + occupancy + route->latency;
  u.busy += u.now - start;
  u.bytes += in.sub;
  u.s[in.a] = value;
  record(u, Opcode::ReadIndex, begin, u.now, in.sub);
  ++u.pc;
  return Step::Continue;
}

uint32_t FifoState::tailSlot() {
  if (count == capacity) {
    uint32_t grown = static_cast<uint32_t>(
        std::min<uint64_t>(desc->depth, 2 * uint64_t(capacity)));
    size_t bytes = desc->entryBytes;
    std::vector<uint8_t> ring(size_t(grown) * bytes);
    std::vector<FifoEntry> moved(grown);
    for (uint32_t i = 0; i < count; ++i) {
      uint32_t from = (head + i) % capacity;
      std::memcpy(ring.data() + i * bytes, slot(from), bytes);
      moved[i] = entries[from];
    }
    storage = std::move(ring);
    entries = std::move(moved);
    capacity = grown;
    head = 0;
  }
  return (head + count) % capacity;
}

/// A load's or store's rows: one row of `size` bytes, or `rows` rows
/// `stride` bytes apart (sub 1: fields e and f).
static std::pair<int64_t, int64_t> fifoTransferRows(const UnitState &u,
                                                    const Inst &in) {
  if (in.sub != kTransferRows)
    return {1, 0};
  return {u.s[in.e], u.s[in.f]};
}

Step Engine::stepLoad(UnitState &u, const Inst &in) {
  FifoState &f = fifos[in.a];
  auto [rows, stride] = fifoTransferRows(u, in);
  if (std::optional<Step> step = startTransfer(
          *this, u, {StridedRange{in.b, u.s[in.c], rows, stride, u.s[in.d]}},
          u.s[in.d], rows, u.s[in.c], 0, stride, 0))
    return *step;
  if (f.count == f.desc->depth)
    return block(u, Wait::FifoFull, in.a);
  // An entry takes the FIFO's entry bytes, continuing over the rows.
  uint32_t slot = f.tailSlot();
  uint64_t chunk = 0;
  bool done = false;
  while (!done && chunk < f.desc->entryBytes) {
    uint64_t piece =
        std::min<uint64_t>(f.desc->entryBytes - chunk, u.rowBytesLeft);
    const uint8_t *from =
        readBytes(u, in.b, u.src, piece, "load reads", readScratch);
    if (!from)
      return Step::Error;
    std::memcpy(f.slot(slot) + chunk, from, piece);
    chunk += piece;
    done = advance(u, piece);
  }
  auto [start, occupancy] = reserve(u, u.route->uses, chunk);
  f.entries[slot] = {start + occupancy + u.route->latency,
                     static_cast<uint32_t>(chunk), pushClock(u, f)};
  ++f.count;
  wake(f.waitingConsumer, f.entries[slot].availableAt);
  u.busy += occupancy;
  u.now = start + occupancy;
  if (done)
    endTransfer(*this, u, false);
  return Step::Continue;
}

Step Engine::stepStore(UnitState &u, const Inst &in) {
  FifoState &f = fifos[in.a];
  auto [rows, stride] = fifoTransferRows(u, in);
  StridedRange writes{in.b, u.s[in.c], rows, stride, u.s[in.d]};
  if (std::optional<Step> step = startTransfer(*this, u, {writes}, u.s[in.d],
                                               rows, 0, u.s[in.c], 0, stride))
    return *step;
  if (f.count == 0)
    return block(u, Wait::FifoEmpty, in.a);
  FifoEntry &head = f.entries[f.head];
  if (head.availableAt > u.now) {
    waitUntil(u, head.availableAt, in.a, false);
    return Step::Continue;
  }
  uint64_t left = u.rowBytesLeft + uint64_t(u.rowsLeft - 1) * u.rowBytes;
  if (head.bytes > left)
    return fail(u,
                llvm::formatv("FIFO misuse: the store has {0} of {1} bytes "
                              "left but the next entry of FIFO '{2}' holds "
                              "{3} bytes",
                              left, u.rowBytes * rows, f.desc->name, head.bytes)
                    .str());
  uint32_t chunk = head.bytes;
  acquireClock(u, head.clock);
  // The entry's bytes continue over the rows; the last piece goes through
  // chargeWrittenChunk, which charges the whole entry.
  uint32_t written = 0;
  while (chunk - written > u.rowBytesLeft) {
    uint64_t piece = u.rowBytesLeft;
    if (!writeBytes(u, in.b, u.dst, piece, f.slot(f.head) + written,
                    "store writes"))
      return Step::Error;
    written += piece;
    advance(u, piece);
  }
  if (!writeBytes(u, in.b, u.dst, chunk - written, f.slot(f.head) + written,
                  "store writes"))
    return Step::Error;
  popClock(u, f, head);
  f.popHead();
  wake(f.waitingProducer, u.now);
  chargeWrittenChunk(*this, u, chunk, writes, written);
  return Step::Continue;
}

Step Engine::stepSend(UnitState &u, const Inst &in) {
  FifoState &f = fifos[in.a];
  const VectorType *type = u.vtype[in.b];
  if (!type)
    return fail(u, "sends a vector register that was never written");
  uint64_t bytes = type->bytes();
  if (bytes > f.desc->entryBytes)
    return fail(u, llvm::formatv("FIFO misuse: sends {0} ({1} bytes) on FIFO "
                                 "'{2}' whose entries hold {3} bytes",
                                 type->str(), bytes, f.desc->name,
                                 f.desc->entryBytes)
                       .str());
  if (f.count == f.desc->depth)
    return block(u, Wait::FifoFull, in.a);
  ++u.instructions;
  Tick begin = u.now;
  auto [start, occupancy] = reserve(u, RouteUse{f.linkResource, 1}, bytes);
  uint32_t slot = f.tailSlot();
  uint8_t *p = f.slot(slot);
  unsigned width = elemBytes(type->elem);
  const std::vector<double> &data = u.v[in.b];
  for (size_t i = 0; i < data.size(); ++i)
    storeElement(type->elem, data[i], p + i * width);
  f.entries[slot] = {start + occupancy + f.linkLatency,
                     static_cast<uint32_t>(bytes), pushClock(u, f)};
  ++f.count;
  wake(f.waitingConsumer, f.entries[slot].availableAt);
  u.busy += occupancy;
  u.now = start + occupancy;
  u.bytes += bytes;
  record(u, Opcode::Send, begin, u.now, bytes);
  ++u.pc;
  return Step::Continue;
}

Step Engine::stepRecv(UnitState &u, const Inst &in) {
  FifoState &f = fifos[in.b];
  if (f.count == 0)
    return block(u, Wait::FifoEmpty, in.b);
  FifoEntry &head = f.entries[f.head];
  if (head.availableAt > u.now) {
    waitUntil(u, head.availableAt, in.b, false);
    return Step::Continue;
  }
  const VectorType &type = u.prog->vtypes[in.c];
  if (head.bytes != type.bytes())
    return fail(u, llvm::formatv("FIFO misuse: receives {0} ({1} bytes) from "
                                 "FIFO '{2}' but its next entry holds {3} "
                                 "bytes",
                                 type.str(), type.bytes(), f.desc->name,
                                 head.bytes)
                       .str());
  ++u.instructions;
  std::vector<double> &data = u.v[in.a];
  data.resize(type.numElements());
  const uint8_t *p = f.slot(f.head);
  unsigned width = elemBytes(type.elem);
  for (size_t i = 0; i < data.size(); ++i)
    data[i] = loadElement(type.elem, p + i * width);
  u.vtype[in.a] = &type;
  u.wide[in.a].clear();
  u.bytes += head.bytes;
  popClock(u, f, head);
  f.popHead();
  wake(f.waitingProducer, u.now);
  ++u.pc;
  return Step::Continue;
}

Step Engine::stepSyncSend(UnitState &u, const Inst &in) {
  ++u.instructions;
  SyncState &sync = syncs[in.a];
  const SyncDesc &desc = exe.syncs[in.a];
  // A token after transfers still in flight says their data is there (or
  // their source free) only once they land.
  Tick arrival =
      std::max(u.now, landedBy(u)) +
      cyclesToTicks(machine.syncCycles(desc.sender, desc.receiver));
  sync.tokens.push_back(arrival);
  sync.clocks.push_back(releaseClock(u));
  wake(sync.waitingReceiver, arrival);
  ++u.pc;
  return Step::Continue;
}

Step Engine::stepSyncRecv(UnitState &u, const Inst &in) {
  SyncState &sync = syncs[in.a];
  if (sync.tokens.empty())
    return block(u, Wait::Sync, in.a);
  if (sync.tokens.front() > u.now) {
    waitUntil(u, sync.tokens.front(), in.a, true);
    return Step::Continue;
  }
  ++u.instructions;
  sync.tokens.pop_front();
  acquireClock(u, sync.clocks.front());
  sync.clocks.pop_front();
  ++u.pc;
  return Step::Continue;
}
