//===- Transfers.cpp - Data movement in the simulator ---------------------===//
//
// This file implements the instructions that move data: DMA between
// memories, loads from a memory into a FIFO, stores from a FIFO into a
// memory, vector send/receive and sync tokens. Transfers advance one chunk
// (DMA: the route's transfer granularity; FIFO: one entry) per step, so
// units sharing a link or memory interleave at that grain; each chunk
// reserves every resource of its route for bytes/bandwidth cycles.
//
//===----------------------------------------------------------------------===//

#include "Engine.h"

#include "ktflow/Simulator/Values.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cstring>

using namespace ktflow::sim;
using namespace ktflow::sim::detail;

/// Reads the size operands of a transfer and starts it. Returns false (and
/// records an error) on a negative size.
static bool beginTransfer(Engine &e, UnitState &u, int64_t bytes, int64_t rows,
                          int64_t src, int64_t dst, int64_t srcStride,
                          int64_t dstStride) {
  if (bytes < 0 || rows < 0 || src < 0 || dst < 0) {
    e.fail(u, llvm::formatv("negative size or address (bytes {0}, rows {1}, "
                            "addresses {2} and {3})",
                            bytes, rows, src, dst)
                  .str());
    return false;
  }
  u.active = true;
  u.rowsLeft = rows;
  u.rowBytes = u.rowBytesLeft = bytes;
  u.rowSrc = u.src = src;
  u.rowDst = u.dst = dst;
  u.srcStride = srcStride;
  u.dstStride = dstStride;
  u.instStart = u.lastArrival = u.now;
  ++u.instructions;
  u.transferBytes = static_cast<uint64_t>(bytes) * static_cast<uint64_t>(rows);
  u.bytes += u.transferBytes;
  return true;
}

/// Finishes a transfer once its last chunk has been issued: a blocking
/// transfer completes when its last byte has landed.
static void endTransfer(Engine &e, UnitState &u, bool waitForArrival) {
  if (waitForArrival && u.lastArrival > u.now) {
    u.busy += u.lastArrival - u.now;
    u.now = u.lastArrival;
  }
  e.record(u, u.prog->insts[u.pc].op, u.instStart, u.now, u.transferBytes);
  u.active = false;
  ++u.pc;
}

/// Advances the row cursor by `chunk` bytes; returns true when done.
static bool advance(UnitState &u, uint64_t chunk) {
  u.rowBytesLeft -= chunk;
  u.src += chunk;
  u.dst += chunk;
  if (u.rowBytesLeft)
    return false;
  if (--u.rowsLeft == 0)
    return true;
  u.rowSrc += u.srcStride;
  u.rowDst += u.dstStride;
  u.src = u.rowSrc;
  u.dst = u.rowDst;
  u.rowBytesLeft = u.rowBytes;
  return false;
}

Step Engine::stepDma(UnitState &u, const Inst &in) {
  if (!u.active) {
    const std::vector<int64_t> &s = u.s;
    int64_t rows = in.f == kNoReg ? 1 : s[in.f];
    int64_t srcStride = in.f == kNoReg ? 0 : s[in.g];
    int64_t dstStride = in.f == kNoReg ? 0 : s[in.h];
    if (!beginTransfer(*this, u, s[in.e], rows, s[in.b], s[in.d], srcStride,
                       dstStride))
      return Step::Error;
    u.route = routeFor(u.index, u.pc);
    if (s[in.e] == 0 || rows == 0) {
      u.rowsLeft = 0;
      endTransfer(*this, u, false);
      return Step::Continue;
    }
  }
  uint64_t chunk = std::min<uint64_t>(u.route->chunkBytes, u.rowBytesLeft);
  uint8_t *from = access(u, in.a, u.src, chunk, "dma reads");
  if (!from)
    return Step::Error;
  uint8_t *to = access(u, in.c, u.dst, chunk, "dma writes");
  if (!to)
    return Step::Error;
  std::memmove(to, from, chunk);
  auto [start, occupancy] = reserve(u, u.route->resources, chunk);
  u.busy += occupancy;
  u.now = start + occupancy;
  u.lastArrival = std::max(u.lastArrival, u.now + u.route->latency);
  if (advance(u, chunk))
    endTransfer(*this, u, true);
  return Step::Continue;
}

Step Engine::stepLoad(UnitState &u, const Inst &in) {
  FifoState &f = fifos[in.a];
  if (!u.active) {
    if (!beginTransfer(*this, u, u.s[in.d], 1, u.s[in.c], 0, 0, 0))
      return Step::Error;
    u.route = routeFor(u.index, u.pc);
    if (u.rowBytes == 0) {
      endTransfer(*this, u, false);
      return Step::Continue;
    }
  }
  if (f.count == f.desc->depth)
    return block(u, Wait::FifoFull, in.a);
  uint64_t chunk = std::min<uint64_t>(f.desc->entryBytes, u.rowBytesLeft);
  uint8_t *from = access(u, in.b, u.src, chunk, "load reads");
  if (!from)
    return Step::Error;
  auto [start, occupancy] = reserve(u, u.route->resources, chunk);
  uint32_t slot = (f.head + f.count) % f.desc->depth;
  std::memcpy(f.slot(slot), from, chunk);
  f.entries[slot] = {start + occupancy + u.route->latency,
                     static_cast<uint32_t>(chunk)};
  ++f.count;
  wake(f.waitingConsumer, f.entries[slot].availableAt);
  u.busy += occupancy;
  u.now = start + occupancy;
  if (advance(u, chunk))
    endTransfer(*this, u, false);
  return Step::Continue;
}

Step Engine::stepStore(UnitState &u, const Inst &in) {
  FifoState &f = fifos[in.a];
  if (!u.active) {
    if (!beginTransfer(*this, u, u.s[in.d], 1, 0, u.s[in.c], 0, 0))
      return Step::Error;
    u.route = routeFor(u.index, u.pc);
    if (u.rowBytes == 0) {
      endTransfer(*this, u, false);
      return Step::Continue;
    }
  }
  if (f.count == 0)
    return block(u, Wait::FifoEmpty, in.a);
  FifoEntry &head = f.entries[f.head];
  if (head.availableAt > u.now) {
    waitUntil(u, head.availableAt, in.a, false);
    return Step::Continue;
  }
  if (head.bytes > u.rowBytesLeft)
    return fail(u, llvm::formatv("FIFO misuse: the store has {0} of {1} bytes "
                                 "left but the next entry of FIFO '{2}' holds "
                                 "{3} bytes",
                                 u.rowBytesLeft, u.rowBytes, f.desc->name,
                                 head.bytes)
                       .str());
  uint8_t *to = access(u, in.b, u.dst, head.bytes, "store writes");
  if (!to)
    return Step::Error;
  uint32_t chunk = head.bytes;
  std::memcpy(to, f.slot(f.head), chunk);
  f.head = (f.head + 1) % f.desc->depth;
  --f.count;
  wake(f.waitingProducer, u.now);
  auto [start, occupancy] = reserve(u, u.route->resources, chunk);
  u.busy += occupancy;
  u.now = start + occupancy;
  u.lastArrival = std::max(u.lastArrival, u.now + u.route->latency);
  if (advance(u, chunk))
    endTransfer(*this, u, true);
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
  auto [start, occupancy] = reserve(u, {f.linkResource}, bytes);
  uint32_t slot = (f.head + f.count) % f.desc->depth;
  uint8_t *p = f.slot(slot);
  unsigned width = elemBytes(type->elem);
  const std::vector<double> &data = u.v[in.b];
  for (size_t i = 0; i < data.size(); ++i)
    storeElement(type->elem, data[i], p + i * width);
  f.entries[slot] = {start + occupancy + f.linkLatency,
                     static_cast<uint32_t>(bytes)};
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
  u.bytes += head.bytes;
  f.head = (f.head + 1) % f.desc->depth;
  --f.count;
  wake(f.waitingProducer, u.now);
  ++u.pc;
  return Step::Continue;
}

Step Engine::stepSyncSend(UnitState &u, const Inst &in) {
  ++u.instructions;
  SyncState &sync = syncs[in.a];
  const SyncDesc &desc = exe.syncs[in.a];
  Tick arrival =
      u.now + cyclesToTicks(machine.syncCycles(desc.sender, desc.receiver));
  sync.tokens.push_back(arrival);
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
  ++u.pc;
  return Step::Continue;
}
