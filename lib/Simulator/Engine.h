//===- Engine.h - The simulator's internal state ----------------*- C++ -*-===//
//
// This file declares the state of one simulation: the event queue, the state
// of every unit, FIFO and sync channel, and the bandwidth resources (links
// and memories). Simulator.cpp runs the event loop and the scalar
// instructions; Routes.cpp resolves transfer routes and reserves their
// bandwidth; Transfers.cpp the data movement; Compute.cpp the vector and
// matrix instructions.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_SIMULATOR_ENGINE_H
#define KTFLOW_LIB_SIMULATOR_ENGINE_H

#include "StridedRange.h"

#include "ktflow/Simulator/Simulator.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/IntrusiveRefCntPtr.h"

#include <array>
#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <queue>
#include <string>
#include <tuple>

namespace ktflow::sim::detail {

// The engine executes the machine library's programs on its machines.
using namespace ktflow::machine;

/// A link or memory with a bandwidth: the intervals transfers reserved it
/// for. A transfer takes the earliest free window from its start, so one
/// held back by another resource leaves the time before it to the
/// requests that come later but need this resource earlier.
struct Resource {
  double ticksPerByte = 0;
  /// Reserved [start, end) intervals from `head` on: disjoint, in order,
  /// not touching. Those before `head` ended by the time no unit can ask
  /// for earlier (Engine::eventTime), and `floor` is where the last of them
  /// ended: nothing is placed before it.
  std::vector<std::pair<Tick, Tick>> busy;
  size_t head = 0;
  Tick floor = 0;
  /// Drops the intervals that end by `until`.
  void prune(Tick until);
  /// The earliest start at or after `from` of a free window of `length`.
  Tick earliestFree(Tick from, Tick length) const;
  /// Reserves [start, start + length), which earliestFree found free.
  void add(Tick start, Tick length);
};

/// A resource a route crosses and how many times (a copy within one
/// memory crosses it twice).
struct RouteUse {
  uint32_t resource = 0, crossings = 0;
  bool operator==(const RouteUse &o) const {
    return resource == o.resource && crossings == o.crossings;
  }
};

/// The distinct resources of `resources` in the order of their first
/// crossing, each with its number of crossings.
std::vector<RouteUse> distinctUses(llvm::ArrayRef<uint32_t> resources);

/// The resources and latency of one way through the machine.
struct Route {
  std::vector<uint32_t> resources;
  /// `resources` deduplicated (distinctUses), set once the route is built:
  /// what each chunk reserves.
  std::vector<RouteUse> uses;
  /// The interconnect links among `resources` (a remote DMA's hops), whose
  /// bytes the statistics count.
  std::vector<uint32_t> interconnectHops;
  Tick latency = 0;
  uint32_t chunkBytes = 128;
};

/// A vector clock: per unit, how many of its epochs happen before.
using Clock = std::vector<uint32_t>;
/// The components of a clock that are not zero, (unit, epochs): a unit
/// hears from the few units its tokens and FIFOs chain it to, while a
/// clock has a component per unit of the device (256 on spyre_like).
/// Shared by the tokens and entries that carry it, counted without atomics
/// (the simulator runs on one thread; a shared_ptr's count was 2 % of a
/// layernorm's run).
struct SparseClock : llvm::RefCountedBase<SparseClock> {
  std::vector<std::pair<uint32_t, uint32_t>> components;
};
using SharedClock = llvm::IntrusiveRefCntPtr<const SparseClock>;
/// A unit's clock as it released it (a token or FIFO entry carries it): a
/// copy of its clock, `base`, taken when the clock last changed in another
/// unit's component, with the releasing unit's own component `own`. A unit
/// whose epochs alone advanced between two releases shares one copy.
struct ClockRef {
  SharedClock base;
  uint32_t owner = 0, own = 0;
  explicit operator bool() const { return bool(base); }
};

struct FifoEntry {
  Tick availableAt = 0;
  uint32_t bytes = 0;
  ClockRef clock; ///< the pusher's
};

/// A FIFO's entries in a ring of `capacity` slots (capacity x entryBytes of
/// storage) that grows, up to the FIFO's depth, only when the entries in it
/// fill it: a description may declare a FIFO far deeper than any program
/// fills, and holding its depth up front would allocate that much.
struct FifoState {
  const FifoDesc *desc = nullptr;
  std::vector<uint8_t> storage; ///< capacity x entryBytes
  std::vector<FifoEntry> entries;
  uint32_t capacity = 0, head = 0, count = 0;
  uint32_t linkResource = 0;
  Tick linkLatency = 0;
  int64_t waitingProducer = -1, waitingConsumer = -1;
  /// When races are checked: the entries pushed and popped so far, and the
  /// poppers' clocks of the last pops. Push n needs a free slot, so pop
  /// n - depth happens before it (back-pressure orders too).
  uint64_t pushes = 0, pops = 0;
  std::deque<ClockRef> popClocks;
  uint8_t *slot(uint32_t i) { return storage.data() + size_t(i) * desc->entryBytes; }
  /// The slot the next entry goes to (the FIFO is not full): the ring's
  /// slots double, the entries moved to its start in order, when all hold
  /// one.
  uint32_t tailSlot();
  void popHead() {
    head = (head + 1) % capacity;
    --count;
  }
};

/// A transfer issued by a unit that keeps several in flight, not landed
/// yet: what it writes, and when its last byte lands.
struct InFlight {
  Tick landsAt = 0;
  StridedRange writes;
};

struct SyncState {
  std::deque<Tick> tokens;
  std::deque<ClockRef> clocks; ///< the sender's
  int64_t waitingReceiver = -1;
};

enum class Wait : uint8_t { None, FifoFull, FifoEmpty, Sync };

enum class Step : uint8_t { Continue, Block, Halt, Error };

struct UnitState {
  const UnitProgram *prog = nullptr;
  uint32_t index = 0; ///< program index
  uint32_t pc = 0;
  std::vector<int64_t> s;
  std::vector<std::vector<double>> v;
  std::vector<const VectorType *> vtype;
  /// Per vector register of a 16-bit float type written by a reduce or an
  /// accumulating map: its values at the unit's f32 accumulator precision
  /// (`v` holds them rounded to the type). The next accumulating map reads
  /// these; every other instruction reads `v`. Empty otherwise.
  std::vector<std::vector<double>> wide;
  Tick now = 0;
  bool done = false;
  Wait wait = Wait::None;
  uint32_t waitOn = 0;
  Tick waitStart = 0;
  // State of a multi-step transfer in progress.
  bool active = false;
  uint64_t rowsLeft = 0, rowBytes = 0, rowBytesLeft = 0;
  uint64_t rowSrc = 0, rowDst = 0, src = 0, dst = 0;
  int64_t srcStride = 0, dstStride = 0;
  /// A DMA of planes of rows: the planes after this one, the rows of each,
  /// this plane's first row and the plane strides.
  uint64_t planesLeft = 0, planeRows = 0, planeSrc = 0, planeDst = 0;
  int64_t srcPlaneStride = 0, dstPlaneStride = 0;
  uint64_t transferBytes = 0;
  Tick instStart = 0, lastArrival = 0;
  const Route *route = nullptr;
  /// Transfers issued and not landed (only when the unit keeps more than
  /// one in flight; otherwise each transfer waits for its last byte).
  std::vector<InFlight> inFlight;
  // Statistics, in ticks.
  Tick busy = 0, stall = 0;
  uint64_t bytes = 0, instructions = 0;
  /// Cycles in matrix products, and what their MACs take at peak.
  uint64_t matrixCycles = 0;
  double matrixPeakCycles = 0;
  std::vector<double> slots; ///< Map scratch
  /// Happens-before state (Races.cpp): the unit's vector clock and the
  /// units whose components are not zero, the base of its releases until
  /// the clock changes in another unit's component, and whether it
  /// released in the current epoch (at instruction `releasedInst`).
  Clock clock;
  std::vector<uint32_t> heardFrom;
  SharedClock released;
  bool releasedEpoch = false;
  uint64_t releasedInst = 0;
  /// The bases this unit's clock joined last (held, so that no address is
  /// reused): the clock only grows, so joining one again changes nothing.
  std::array<SharedClock, 4> joined;
  uint32_t nextJoined = 0;
};

/// One access of a byte range by a unit: range start -> this.
struct Access {
  uint64_t hi;
  uint32_t program, pc, epoch;
  Tick at;
};
using AccessMap = std::map<uint64_t, Access>;

/// The reads of a memory by one unit: its last read of each byte, within
/// [lo, hi) (a write elsewhere need not look at them).
struct UnitReads {
  uint32_t unit;
  uint64_t lo = UINT64_MAX, hi = 0;
  AccessMap ranges;
};

/// The accesses of a memory the race detector remembers: the
/// last write of each byte and, per unit, its last read of each byte.
struct Shadow {
  AccessMap writes;
  std::vector<UnitReads> reads;
};

class Engine {
public:
  Engine(const Machine &machine, const Executable &exe, MemoryImage &memory,
         const SimOptions &options, std::vector<TraceEvent> *trace);
  llvm::Expected<SimStats> run();

  // Shared by the instruction files.
  Step stepDma(UnitState &u, const Inst &in);
  Step stepFill(UnitState &u, const Inst &in);
  Step stepReadIndex(UnitState &u, const Inst &in);
  Step stepLoad(UnitState &u, const Inst &in);
  Step stepStore(UnitState &u, const Inst &in);
  Step stepSend(UnitState &u, const Inst &in);
  Step stepRecv(UnitState &u, const Inst &in);
  Step stepSyncSend(UnitState &u, const Inst &in);
  Step stepSyncRecv(UnitState &u, const Inst &in);
  Step stepMap(UnitState &u, const Inst &in);
  Step stepReduce(UnitState &u, const Inst &in);
  Step stepBroadcast(UnitState &u, const Inst &in);
  Step stepIota(UnitState &u, const Inst &in);
  Step stepSplat(UnitState &u, const Inst &in);
  Step stepMatmul(UnitState &u, const Inst &in);

private:
  friend struct EngineAccess;
  llvm::Error setup();
  llvm::Error checkWorkBudget() const;
  /// Resolves the route of every transfer instruction of `prog`.
  llvm::Error resolveRoutes(const UnitProgram &prog);
  /// The route of transfer `in` of `prog` between memories `memA` and
  /// `memB` (kind 0 DMA, 1 load, 2 store or fill, 3 remote DMA, 4 index
  /// read: memory -> unit).
  llvm::Expected<Route> buildRoute(const UnitProgram &prog, const Inst &in,
                                   uint32_t memA, uint32_t memB, int kind);
  /// Appends to `route` the interconnect links from core `from` to core
  /// `to`, creating their resources on first use.
  void addInterconnectPath(Route &route, uint32_t from, uint32_t to);
  void schedule(UnitState &u, Tick time);
  void runUnit(UnitState &u);
  Step step(UnitState &u);
  Step stepScalar(UnitState &u, const Inst &in);
  llvm::Error deadlockError() const;

public:
  // Helpers for the instruction files.
  /// The route resolveRoutes found for transfer instruction `pc`.
  const Route *routeFor(uint32_t program, uint32_t pc) const;
  Step fail(const UnitState &u, const std::string &message);
  Step block(UnitState &u, Wait wait, uint32_t on);
  void wake(int64_t &waiter, Tick time);
  /// Reserves every resource of `uses` for `bytes` per crossing starting no
  /// earlier than `u.now`; returns the start tick and the bottleneck
  /// occupancy.
  std::pair<Tick, Tick> reserve(UnitState &u, llvm::ArrayRef<RouteUse> uses,
                                uint64_t bytes);
  /// Moves the unit to `time` without work (a wait on data not yet
  /// arrived); records a stall.
  void waitUntil(UnitState &u, Tick time, uint32_t on, bool isSync);
  void record(const UnitState &u, Opcode op, Tick start, Tick end,
              uint64_t bytes);
  /// When the last of the unit's transfers in flight lands (0 if none):
  /// what it signals or hands over is visible only then.
  Tick landedBy(const UnitState &u) const;
  /// Whether the unit waits for each transfer's last byte.
  bool blocksOnTransfers(const UnitState &u) const {
    return machine.units[u.prog->unit].maxOutstanding <= 1;
  }
  /// The bytes [addr, addr + size) of memory `mem` to read: a pointer into
  /// the memory image, or into `scratch` when they straddle its pages.
  /// Null after failing `u` (`what` names the access) when they leave the
  /// memory.
  const uint8_t *readBytes(UnitState &u, uint32_t mem, uint64_t addr,
                           uint64_t size, const char *what,
                           std::vector<uint8_t> &scratch);
  /// Writes `data` (zeros when null) to [addr, addr + size) of memory `mem`
  /// once noteWrite has checked it; false after failing `u` (a race, a
  /// range outside the memory, or out of memory for its pages).
  bool writeBytes(UnitState &u, uint32_t mem, uint64_t addr, uint64_t size,
                  const uint8_t *data, const char *what);
  /// Fails `u` for an access the memory image refused, saying why.
  Step failAccess(UnitState &u, uint32_t mem, uint64_t addr, uint64_t size,
                  const char *what, MemoryImage::Access why);
  /// Records that `u` writes `size` bytes at `lo` of memory `mem`: `data`
  /// (zeros when null) over `old`, what the memory holds. When races are
  /// checked, fails (a write-write or write-read race) when the write
  /// changes bytes another unit not ordered before `u` by syncs and FIFOs
  /// wrote or read (Races.cpp).
  bool noteWrite(UnitState &u, uint32_t mem, uint64_t lo, uint64_t size,
                 const uint8_t *data, const uint8_t *old);
  /// Records that `u` reads [lo, lo + size) of memory `mem`; when races are
  /// checked, fails (a read-write race) when another unit not so ordered
  /// last wrote some of those bytes.
  bool noteRead(UnitState &u, uint32_t mem, uint64_t lo, uint64_t size);
  /// `u`'s clock for a token or FIFO entry it sends (null when races are
  /// not checked), and the join of one it receives.
  ClockRef releaseClock(UnitState &u);
  void acquireClock(UnitState &u, const ClockRef &clock);
  /// The clock edges of a FIFO push by `u` (it joins the pop that freed its
  /// slot; returns the clock the entry carries) and of a pop of `entry`.
  ClockRef pushClock(UnitState &u, FifoState &f);
  void popClock(UnitState &u, FifoState &f, const FifoEntry &entry);
  /// The epoch of `u`'s access now: a new one after a release in an
  /// earlier instruction.
  uint32_t accessEpoch(UnitState &u);
  /// Whether access `a` happens before `u`'s current point.
  bool ordered(const UnitState &u, const Access &a) const {
    return a.program == u.index || u.clock[a.program] >= a.epoch;
  }
  const std::string &unitName(const UnitState &u) const {
    return machine.units[u.prog->unit].name;
  }
  /// `u`, its instruction, the instruction's kernel source location when
  /// known, and the cycle: what every error of `u` starts with.
  std::string at(const UnitState &u) const;
  /// ", at FILE:LINE:COL" of instruction `pc` of program `program`, for the
  /// parentheses after an instruction's index; "" when unknown.
  std::string sourceOf(uint32_t program, uint32_t pc) const;
  Tick cyclesToTicks(uint64_t cycles) const { return cycles * kTicksPerCycle; }
  /// Cycles to process `n` elements at `perCycle` elements per cycle.
  static uint64_t costCycles(uint64_t n, double perCycle);

  const Machine &machine;
  const Executable &exe;
  MemoryImage &memory;
  SimOptions options;
  std::vector<TraceEvent> *trace;

  std::vector<UnitState> units;
  std::vector<FifoState> fifos;
  std::vector<SyncState> syncs;
  std::vector<Resource> resources;
  /// The interconnect links remote DMAs used, (from core, to core) ->
  /// resource index, and the bytes each carried.
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> interconnectLinks;
  std::map<uint32_t, uint64_t> interconnectBytes;
  std::vector<Route> routes;
  /// (program, pc) -> route index, for Dma/Load/Store instructions.
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> instRoute;
  std::map<std::tuple<uint32_t, uint32_t, uint32_t, int>, uint32_t> routeCache;
  /// Per memory, the accesses the race detector remembers.
  std::vector<Shadow> shadows;
  /// Copies of accesses that straddle pages of the memory image: what a
  /// transfer reads, what a write stages and the bytes it overwrites.
  std::vector<uint8_t> readScratch, writeScratch, oldScratch;

  using Event = std::tuple<Tick, uint64_t, uint32_t>;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> queue;
  uint64_t sequence = 0;
  /// The time of the event being run: no unit asks for a resource before
  /// it, so reservations that end by then are dropped.
  Tick eventTime = 0;
  uint64_t executed = 0;
  std::optional<std::chrono::steady_clock::time_point> deadline;
  std::string error;
};

} // namespace ktflow::sim::detail

#endif // KTFLOW_LIB_SIMULATOR_ENGINE_H
