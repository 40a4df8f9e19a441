//===- SameReplays.cpp - Groups of units whose replays are the same -------===//
//
// This file implements ReplayPairing (SameReplays.h).
//
//===----------------------------------------------------------------------===//

#include "SameReplays.h"

#include "llvm/ADT/STLExtras.h"

#include <cstring>
#include <utility>

using namespace ktflow::machine;
using namespace ktflow::machine::detail;

using Event = ProgramWalker::ChainEvent;

/// (Bit for bit: a replay of -0 and one of 0 may end apart.)
static bool sameBits(double x, double y) {
  uint64_t bx, by;
  std::memcpy(&bx, &x, sizeof(bx));
  std::memcpy(&by, &y, sizeof(by));
  return bx == by;
}

bool ReplayPairing::sameEvents(const ProgramWalker &x, const ProgramWalker &y) {
  llvm::ArrayRef<Event> ex = x.chainEvents(), ey = y.chainEvents();
  if (ex.size() != ey.size() || !sameBits(x.finishedAt, y.finishedAt))
    return false;
  for (auto [p, q] : llvm::zip_equal(ex, ey))
    if (p.kind != q.kind || !sameBits(p.at, q.at) ||
        !sameBits(p.bytes, q.bytes) || !sameBits(p.cost, q.cost) ||
        !sameBits(p.after, q.after) || !sameBits(p.rounding, q.rounding))
      return false;
  return true;
}

bool ReplayPairing::Pairs::bind(uint32_t x, uint32_t y) {
  if (x >= to.size() || y >= to.size())
    return false;
  if (to[x] != kNone)
    return to[x] == y;
  if (from[y] != kNone)
    return false;
  to[x] = y;
  from[y] = x;
  paired.push_back(x);
  return true;
}

void ReplayPairing::Pairs::reset(size_t ids) {
  to.resize(ids, kNone);
  from.resize(ids, kNone);
  for (uint32_t x : paired)
    from[std::exchange(to[x], kNone)] = kNone;
  paired.clear();
}

void ReplayPairing::reset() {
  fifoPairs.reset(exe.fifos.size());
  syncPairs.reset(exe.syncs.size());
}

bool ReplayPairing::pair(const ProgramWalker &x, const ProgramWalker &y) {
  // Copies of one walk are paired through the shorter of their
  // instructions and their walk's events (a long walk of a short program:
  // layernorm_1151x8192's lanes).
  if (x.chainEvents().data() != y.chainEvents().data())
    return pairEvents(x, y);
  return x.unitProgram().insts.size() <= x.chainEvents().size()
             ? pairInstructions(x, y)
             : pairCopies(x, y);
}

/// Pairs the FIFOs and channels the events of `x` and `y` (in turn) name.
bool ReplayPairing::pairEvents(const ProgramWalker &x, const ProgramWalker &y) {
  for (auto [p, q] : llvm::zip_equal(x.chainEvents(), y.chainEvents())) {
    uint32_t idX = x.chainId(p), idY = y.chainId(q);
    switch (p.kind) {
    case Event::Signal:
    case Event::Wait:
      if (!syncPairs.bind(idX, idY))
        return false;
      break;
    case Event::Push:
    case Event::Pop:
      if (!fifoPairs.bind(idX, idY))
        return false;
      break;
    case Event::Transfer:
      break;
    }
  }
  return true;
}

const ReplayPairing::Named &
ReplayPairing::namedBy(llvm::ArrayRef<Event> events) {
  auto [known, fresh] = named.try_emplace(events.data());
  if (!fresh)
    return known->second;
  Named &result = known->second;
  std::vector<bool> fifoSeen(exe.fifos.size()), syncSeen(exe.syncs.size());
  auto once = [](std::vector<bool> &seen, std::vector<uint32_t> &ids,
                 uint32_t id) {
    if (!seen[id]) {
      seen[id] = true;
      ids.push_back(id);
    }
  };
  for (const Event &e : events)
    switch (e.kind) {
    case Event::Signal:
    case Event::Wait:
      once(syncSeen, result.syncs, e.id);
      break;
    case Event::Push:
    case Event::Pop:
      once(fifoSeen, result.fifos, e.id);
      break;
    case Event::Transfer:
      break;
    }
  return result;
}

/// Pairs the FIFOs and channels the events of `x` and `y`, copies of one
/// walk, name: those the walk's events name, each renamed as each copy
/// renames it (what pairEvents pairs, without a bind per event).
bool ReplayPairing::pairCopies(const ProgramWalker &x, const ProgramWalker &y) {
  const Named &walked = namedBy(x.chainEvents());
  for (uint32_t fifo : walked.fifos)
    if (!fifoPairs.bind(x.fifoId(fifo), y.fifoId(fifo)))
      return false;
  for (uint32_t sync : walked.syncs)
    if (!syncPairs.bind(x.syncId(sync), y.syncId(sync)))
      return false;
  return true;
}

/// Pairs the FIFOs and channels the instructions of `x` and `y`, copies of
/// one walk, name where their events do (those pairCopies pairs and the
/// others the programs name).
bool ReplayPairing::pairInstructions(const ProgramWalker &x,
                                     const ProgramWalker &y) {
  for (auto [p, q] :
       llvm::zip_equal(x.unitProgram().insts, y.unitProgram().insts)) {
    bool paired = true;
    switch (p.op) {
    case Opcode::Send:
    case Opcode::Load:
    case Opcode::Store:
      paired = fifoPairs.bind(p.a, q.a);
      break;
    case Opcode::Recv:
      paired = fifoPairs.bind(p.b, q.b);
      break;
    case Opcode::SyncSend:
    case Opcode::SyncRecv:
      paired = syncPairs.bind(p.a, q.a);
      break;
    default:
      break;
    }
    if (!paired)
      return false;
  }
  return true;
}
