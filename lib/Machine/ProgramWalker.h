//===- ProgramWalker.h - One unit program's cost, walked --------*- C++ -*-===//
//
// This file declares the walk behind the whole-kernel estimate
// (Estimate.cpp): one unit program with the scalar registers it can
// evaluate, each instruction charged its uncontended cost as the
// simulator's timing model states it, and what the kernel-level estimate
// needs of the program (its first loads, last stores, hand-overs).
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_MACHINE_PROGRAMWALKER_H
#define KTFLOW_LIB_MACHINE_PROGRAMWALKER_H

#include "RouteCosts.h"

#include "ktflow/Machine/Estimate.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <cmath>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

namespace ktflow::machine::detail {
/// Whether `unit` computes (a vector or matrix unit): the unit a stream's
/// load unit feeds and whose output its store unit stores.
inline bool computes(const MachineUnit &unit) {
  return (unit.roles & (RoleVector | RoleMatrix)) != 0;
}

/// The cycles a transfer that stays in flight `inFlightFor` cycles waits,
/// at time `at`, until fewer than `slots` of those landing at `landings`
/// are in flight (the earliest landing first); records its landing.
double waitInQueue(llvm::SmallVectorImpl<double> &landings, double at,
                   double inFlightFor, unsigned slots);

struct Renaming;

/// For each instruction of `program`, whether the scalar it writes may
/// reach an operand the walk reads (a transfer's or index read's size, a
/// loop's bounds and step, except those of the loops `counted`), directly
/// or through the values computed from it (SameWalks.cpp). Where
/// `compared` is given, only the operands of the instructions it marks.
std::vector<bool> definitionsRead(const UnitProgram &program,
                                  llvm::ArrayRef<size_t> counted,
                                  const std::vector<bool> *compared = nullptr);

/// A value per sync channel or FIFO of a program, which names a few: held
/// inline (allocating a map for each took a third of a tiny kernel's
/// estimate).
using PerId = llvm::SmallDenseMap<uint32_t, double, 4>;

class ProgramWalker {
public:
  ProgramWalker(const Machine &machine, const Executable &exe,
                const UnitProgram &program, KernelEstimate &out,
                RouteCosts &routes);
  /// The walk of `program`, which SameWalks found to be `walked`'s with
  /// its resources renamed by `names` (SameWalks.cpp): `walked` copied and
  /// renamed, its charges to the memories made again, renamed, in their
  /// order.
  ProgramWalker(const ProgramWalker &walked, const UnitProgram &program,
                const Renaming &names);

  double run();

  /// Charges the memories of `estimate` what this walk charged them, in
  /// the same order, renamed by `names` for a copy (the names it was
  /// copied with), and charges `estimate` from now on: a copy charging
  /// what its walked program did, or a walk kept from the estimate's
  /// first pass (Estimate.cpp) for its second.
  void chargeAgain(KernelEstimate &estimate, const Renaming *names);

  /// The loop iterations the walk went through one by one.
  double iterations() const { return iterationsWalked; }

  /// Loops of at most kWalkEach known trips are walked iteration by
  /// iteration while the program's walked iterations stay within
  /// kWalkBudget; the others once, their cost times their trips.
  static constexpr double kWalkEach = 128, kWalkBudget = 16384;

  /// A loop's trips from its bounds and step (one where unknown).
  static double tripsOf(KnownScalar lb, KnownScalar ub, KnownScalar step);

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
  /// Iterations of the innermost skewed loops (those that hold no other)
  /// and the device-memory bytes loaded and stored inside them.
  double skewedTrips = 0, skewedLoaded = 0, skewedStored = 0;
  /// The bytes the program loads from and stores to device memory, each
  /// loop's trips counted (what its share of the memory moves).
  double deviceLoaded = 0, deviceStored = 0;
  /// The device-memory bytes loaded before the program's second index
  /// read (0: it has none walked), or, where they stay in step longer,
  /// before the engines fall apart (endInStep): the lanes' engines start
  /// together and take their first index read at once, so these move in
  /// step with the other engines, at the memory's bandwidth over its users
  /// (shareDeviceMemories). Engines that load one transfer an index read
  /// take each later index read at once too (each waits for the memory to
  /// serve the others' transfers, asked for at once, before its read):
  /// their idle cycles coincide and leave the memory to nobody, until a
  /// token sets them apart (indexed_add_2048x1024 on spyre_like, 32 DMA_IN
  /// engines gathering one 1 KiB row an index read, 128 rows each).
  double loadedInStep = 0;
  /// The cycles the program waits for its index reads' round trips (each
  /// loop's trips counted): a device-memory engine moves nothing then.
  double indexReadCycles = 0;
  /// Tokens it sends another DMA engine after loading device memory: an
  /// execution's loads handed over to the engine that stores them, which
  /// waits for them to land (WaterFill.h, idleInStep).
  double handOversToEngines = 0;
  /// The execution chains their engine runs one after another: a loop of
  /// n trips issuing loads D ahead runs (n + D) / (D + 1).
  double skewedChainCount = 0;
  /// The executions of loops that issue every load before their first
  /// store (at most D + 1 executions, more than two, no outer skewed loop:
  /// ProgramWalker.cpp): each such loop waits for one landing, then its
  /// stores follow the compute (Estimate.cpp skewedChain).
  /// skewedChainCount counts the other loops' chains.
  double skewedAheadExecutions = 0;
  /// The landings the chains wait for: one a chain, one a loop that loads
  /// every execution first.
  double skewedLandings = 0;
  /// Executions whose device-memory loads wait, in program order, for the
  /// output of the previous execution's compute: waits for a token from a
  /// store unit (not an engine) of the program's core after device-memory
  /// loads (the loads since the previous such wait). The compute unit
  /// waits, empty, for each such execution's loads to land. A skewed
  /// loop's waits are none: the loads before them are those of an
  /// execution ahead (skewedChainCount counts its chains).
  double chainedExecutions = 0;
  /// The program's cycles from each such wait to its next device-memory
  /// load (the stores of the execution the wait announced).
  double chainedStoreCycles = 0;
  /// Of them, the store unit's further tokens waited for before that load
  /// (an execution's output stored in blocks, each announced by its own
  /// token) and the cycles after the last such token: the stores of the
  /// blocks before it go while the compute works on the later blocks
  /// (exposedChainedStores).
  double chainedStoreWaits = 0;
  double chainedStoreTail() const {
    return chainedStoreTailCycles + (afterStoreWait ? storeSegment : 0);
  }
  /// A compute unit's cycles to receive the entries before its first work
  /// (each at its FIFO's bandwidth): the feed of an execution's operands.
  double feedBeforeWork = 0;
  /// Hand-overs through the scratchpad a load unit waits for: runs of
  /// sync_recv from a store unit between its loads (a carried block, a row
  /// value the next pass reads). The compute unit it feeds has sent what
  /// is stored and waits, empty, for the round trip.
  double handOvers = 0;

  /// For a unit that keeps several transfers in flight, its cycles from
  /// its first wait for a token (what it issued before landed) until its
  /// transfers have landed were every later token there when it waits:
  /// each transfer waits only for a slot (a store engine behind a compute
  /// unit that sends its rows faster than they land).
  double slotBoundSpan = 0;

  /// Of the program's cycles, those it waits for a free slot for a
  /// transfer (a unit that keeps several in flight).
  double slotWaits = 0;

  /// The latency of one hand-over: the compute unit's last entry through
  /// the FIFO to the store unit and stored, the token, the first entry
  /// loaded and through the FIFO to the compute unit, one cycle for each
  /// of the two entries. (Their whole occupancy, a matrix tile's 16 cycles
  /// on spyre_like, overcharged swiglu_ffn_64x1024x4096 there, +22.9 %:
  /// its PT has waves queued during the hand-over.)
  double handOverLatency() const;
  /// The latency of an execution's entries: the first loaded by this unit
  /// and through the FIFO to the compute unit it feeds, the last through
  /// the FIFO to `storeUnit` (or the store unit the compute unit sends to)
  /// and stored, one cycle for each.
  double entriesLatency(uint32_t storeUnit) const;
  double entriesLatency() const;
  /// The device memory this program first loads from and first stores
  /// to, and the least bandwidth of those transfers' routes.
  std::optional<uint32_t> loadDevice, storeDevice;
  double loadRoute = 0, storeRoute = 0;
  /// What the program had done at its first signal on each sync channel
  /// it sends on (program order, a loop's first iteration walked and its
  /// others added). One map for the three, all set at once (three were
  /// three lookups a signal, and three renamings a copy).
  struct FirstSignal {
    /// Device-memory bytes loaded before it.
    double loaded;
    /// The program's own cycles (its busy cycles and waits for a slot,
    /// none for tokens) before it, its transfers then in flight landed.
    double at;
    /// Of them, those it waited for a free slot for a transfer.
    double slotWaits;
  };
  llvm::SmallDenseMap<uint32_t, FirstSignal, 4> firstSignals;
  /// The sync channels waited for before the program's first load from a
  /// scratchpad: what a load unit needs before it feeds its first entry.
  llvm::SmallVector<uint32_t> waitedBeforeFirstLoad;
  /// How many sync channels the program waited for, and the k-th (in
  /// program order).
  size_t waits() const { return records->waitLog.size(); }
  uint32_t waitedFor(size_t k) const { return syncId(records->waitLog[k]); }
  /// The program's tokens and FIFO entries in program order, each at the
  /// unit's own time (`clock`) when its instruction starts: what the token
  /// chains across units (TokenChains.h) follow.
  struct ChainEvent {
    enum Kind : uint8_t { Signal, Wait, Push, Pop, Transfer } kind;
    /// The sync channel or FIFO.
    uint32_t id;
    double at;
    /// A FIFO entry's bytes; a signal's, the device-memory bytes the
    /// program loaded before it (loops as loadedBytes counts them).
    double bytes = 0;
    /// The instruction's own cycles (a push's occupancy of its route, a
    /// pop's cycles, a transfer's wait for a slot).
    double cost = 0;
    /// Push: the route's latency after the occupancy. Pop: the cycles
    /// after its last byte is there (a store's last entry and its
    /// landing). Transfer (of a unit that keeps several in flight): from
    /// its start until it lands, which a token sent after it waits for.
    double after = 0;
    /// The cycles the walk charges a transfer over the simulator's: the
    /// occupancy of its route rounded up to whole cycles (a 32-byte entry
    /// on a 64 B/cycle FIFO takes half a cycle).
    double rounding = 0;
  };
  llvm::ArrayRef<ChainEvent> chainEvents() const {
    return records->chainEvents;
  }
  /// A compute unit's receives: the FIFO, the bytes received from it
  /// before, the unit's cycles before (the work it can do before the
  /// entry arrives), the entry's bytes and how many times it is received.
  struct Receive {
    uint32_t fifo;
    double offset, before, bytes, times;
  };
  llvm::ArrayRef<Receive> receives() const { return records->receives; }
  /// The FIFOs of the receives (as the records name them), the first
  /// received first.
  llvm::ArrayRef<uint32_t> fifosReceived() const {
    return records->fifosReceived;
  }
  /// The sync channel or FIFO of an event, and the FIFO of a receive, in
  /// this program: a walk copied for another program (SameWalks.h) shares
  /// the walked program's events and receives (a production kernel's
  /// lanes, copied, spent a sixth of its estimate copying them) and renames
  /// their ids as they are read.
  uint32_t chainId(const ChainEvent &event) const {
    switch (event.kind) {
    case ChainEvent::Signal:
    case ChainEvent::Wait:
      return syncId(event.id);
    case ChainEvent::Transfer:
      return event.id;
    default:
      return fifoId(event.id);
    }
  }
  uint32_t fifoId(uint32_t walked) const {
    return fifoNames.empty() ? walked : fifoNames[walked];
  }
  uint32_t syncId(uint32_t walked) const {
    return syncNames.empty() ? walked : syncNames[walked];
  }
  /// A load unit's loads into each FIFO: the bytes loaded into it before
  /// and how many of waitLog's waits precede the load.
  struct FifoLoad {
    double offset;
    size_t waits;
  };
  struct FifoLoads {
    std::vector<FifoLoad> loads;
    /// The load `at` last found: the receives ask in program order, each
    /// for the same load or the next one mostly.
    mutable size_t last = 0;
    /// The load an entry at `offset` comes from (the last that starts at
    /// or before the offset), if any.
    const FifoLoad *at(double offset) const;
  };
  /// This program's loads into `fifo`, if any. (The receives of a compute
  /// unit come from a few FIFOs in turn: callers keep the FIFO's loads
  /// while the FIFO stays the same, rather than look it up each receive.)
  const FifoLoads *loadsOf(uint32_t fifo) const {
    auto found = records->loadsInto.find(walkedFifo(fifo));
    return found == records->loadsInto.end() ? nullptr : &found->second;
  }
  /// The walked program's FIFO that is this program's `fifo` (UINT32_MAX:
  /// none), the name its records know it by.
  uint32_t walkedFifo(uint32_t fifo) const {
    return walkedFifos.empty() ? fifo : walkedFifos[fifo];
  }
  /// Device-memory bytes stored in program order (loops as loaded bytes
  /// are), and scratchpad bytes loaded (a load unit's: what it feeds) in
  /// the same order.
  double storedBytes = 0, fedBytes = 0;
  /// What the program had done at its last wait on each sync channel (one
  /// map for the three, all set at once: three were three lookups a wait).
  struct LastWait {
    /// storedBytes and fedBytes then.
    double stored, fed;
    /// The program's own time then: an engine that stores the last
    /// execution's output runs from there to finishedAt after the store
    /// unit's token of that output.
    double clock;
  };
  llvm::SmallDenseMap<uint32_t, LastWait, 4> lastWaits;
  /// When the program finishes, its transfers in flight landed.
  double finishedAt = 0;
  /// For an engine that feeds a load unit and waits for a store unit's
  /// tokens: its own time at its first such wait, and when the data of
  /// its first token to the load unit after device-memory loads had
  /// landed (the token left): a skewed engine's loads ahead run between
  /// (Estimate.cpp).
  std::optional<double> firstStoreWaitAt, firstFeedLeaves;
  /// The cycles after the program's own time ends (its busy cycles and
  /// waits for a slot) until its last DMA from device memory to device
  /// memory lands, its way in and out (PassThroughDma.cpp): nothing in the
  /// core waits for such a copy, whose landing only ends the kernel
  /// (lx_resident_copy's global rows on mesh_device, 12 KiB, landing 96
  /// cycles after the engine's last store leaves).
  double copyTail = 0;
  /// Whether the program stores to a scratchpad (a store unit).
  bool stored = false;
  /// The sync channels signalled after the program's last scratchpad
  /// store or transfer: a store unit's tokens for the last execution's
  /// output (an engine's after its last transfer).
  llvm::SmallVector<uint32_t> signalledAfterLastStore;

  uint32_t unitIndex() const { return program->unit; }
  /// The records this walk reads, shared by its copies: an analysis of
  /// them read through the same names (walkedFifo, syncId) is the same.
  const void *recordsId() const { return records.get(); }
  const UnitProgram &unitProgram() const { return *program; }

  /// Whether this program's wait for `sync` is a hand-over: a load unit
  /// waiting for a store unit's token (what a compute unit sent, stored).
  bool handsOver(uint32_t sync) const;

  /// The compute unit this load unit feeds, if any.
  std::optional<uint32_t> fed() const { return feeds; }

  /// The cycles `bytes` take through `fifo`, at its link's bandwidth.
  double fifoCycles(uint32_t fifo, double bytes) const {
    return std::ceil(bytes / fifoBandwidth(fifo));
  }
  double fifoBandwidth(uint32_t fifo) const;

  /// What the walk records as it goes, shared by its copies (SameWalks.h),
  /// which read it in the walked program's names (a production kernel's
  /// lanes, copied, spent a sixth of its estimate copying the events and
  /// receives, and then a tenth copying the loads, waits and charges).
  struct Records {
    std::vector<ChainEvent> chainEvents;
    std::vector<Receive> receives;
    /// The FIFOs of the receives, the first received first.
    llvm::SmallVector<uint32_t, 4> fifosReceived;
    /// The sync channels waited for, in program order.
    std::vector<uint32_t> waitLog;
    /// A load unit's loads into each FIFO.
    llvm::DenseMap<uint32_t, FifoLoads> loadsInto;
    /// Each memory charged and the busy cycles added, in order.
    std::vector<std::pair<uint32_t, double>> memoryCharges;

    /// Adds memoryCharges to `busyOf`, each memory's to `busyOf[to(m)]`,
    /// bit for bit as adding them one by one in order does: where every
    /// charge, each memory's sum and what `busyOf` holds are whole
    /// multiples of 2^-16 from 0 to below 2^36 (every partial sum exact,
    /// so any order gives the same), a sum per memory, found once for the
    /// walk's copies; else charge by charge. (A production kernel's lanes
    /// copy a walk of thousands of charges each: chargeAgain took 9 % of
    /// layernorm_1151x8192's estimate on sample_device.)
    void chargeTo(llvm::MutableArrayRef<double> busyOf,
                  llvm::function_ref<uint32_t(uint32_t)> to);

    /// Empty records, whose vectors keep the storage of an earlier
    /// estimate's walk where the thread has such records put back
    /// (WalkRecords.cpp): a production kernel's walks record about a
    /// million events, and faulting their pages in again each estimate
    /// took a third of it.
    static std::shared_ptr<Records> make();
    /// At most this many are kept (a kernel on spyre_like walks 320
    /// programs).
    static constexpr size_t kKept = 1024;

  private:
    /// memoryCharges summed per memory, and whether every sum is exact
    /// (chargeTo), for the first `summedCharges` charges (the sums are
    /// found again where more were recorded since).
    llvm::SmallVector<std::pair<uint32_t, double>, 4> sums;
    bool sumsExact = false;
    size_t summedCharges = SIZE_MAX;
    void sumCharges();

    /// The thread's records put back, oldest first.
    static std::deque<std::unique_ptr<Records>> &kept();
    /// Clears `records` and keeps it, or frees it where enough are kept.
    static void putBack(Records *records);
  };

private:
  using Known = KnownScalar;

  RouteCost routeCost(NodeRef from, NodeRef to) const;

  /// When the transfers landing at `landings` have all landed, at `at` at
  /// the earliest.
  static double landedBy(double at, llvm::ArrayRef<double> landings);

  /// Adds `bytes` to every memory with a bandwidth along `route`'s ends.
  void chargeMemories(std::initializer_list<uint32_t> memories, double bytes,
                      double times);

  int64_t value(uint32_t reg) const { return regs[reg].value_or(0); }

  /// The cost of a DMA of `bytes` from memory `src` to memory `dst`, in
  /// another core if `remote`.
  double dmaCost(uint32_t src, uint32_t dst, double bytes, double times,
                 bool remote);

  /// A map's micro-ops over `n` elements, each at the unit's rate for its
  /// class and type (a compare at the type it reads).
  double mapCost(const MapBody &body, uint64_t n) const;
  /// mapCost of map instruction `in` of the program, found once per
  /// instruction: it depends on the instruction's body and type and the
  /// unit alone (a production kernel's maps, walked each trip, looked up a
  /// rate per micro-op each time).
  double mapCostOf(const Inst &in);

  double instructionCost(const Inst &in, double times);

  /// The cost of a transfer that writes a memory, `occupancy` cycles on
  /// its route then `latency` until it lands: a unit that keeps one in
  /// flight waits for it, one that keeps several waits for a slot.
  double landedCost(double occupancy, double latency, double times);

  /// For a unit that keeps several transfers in flight: the cycles it
  /// waits before a transfer that stays in flight `inFlightFor` cycles
  /// until fewer than its maximum are (the earliest landing first), at
  /// `clock`; records the transfer's landing. The transfer runs `times`
  /// times.
  double waitForSlot(double inFlightFor, double times);

  /// The cycles of instructions [begin, end), each executed `times` times.
  double walk(size_t begin, size_t end, double times);

  const Machine &machine;
  const Executable &exe;
  std::shared_ptr<Records> records = Records::make();
  /// A copy's FIFOs and sync channels by the walked program's, and the
  /// walked program's FIFOs by the copy's (none: the walked program's own).
  std::vector<uint32_t> fifoNames, syncNames, walkedFifos;
  /// Pointers, not references: a walk's copy for another program
  /// (SameWalks.h) points at that program.
  const UnitProgram *program;
  /// Where the walk charges the memories (a pointer: chargeAgain moves a
  /// walk to another estimate).
  KernelEstimate *out;
  const MachineUnit *unit;
  RouteCosts *routes;
  std::optional<uint32_t> feeds;
  std::vector<Known> regs;
  /// Per instruction, the first at or after it that the walk takes: the
  /// scalars whose values reach no size or bound are skipped (a
  /// production kernel's address arithmetic, a third of its walk), once
  /// the walk has stepped kSkipUnreadAfter times as many scalars as the
  /// program has instructions (finding them costs a few passes over the
  /// program: done for every program, a tiny kernel's estimate took half
  /// as long again). Empty: none skipped.
  std::vector<size_t> next;
  static constexpr size_t kSkipUnreadAfter = 4;
  size_t scalarsStepped = 0;
  size_t nextSize() const { return program->insts.size(); }
  void skipUnread();
  size_t taken(size_t pc) const { return next.empty() ? pc : next[pc]; }
  std::vector<const VectorType *> vtype;
  /// mapCostOf's costs by instruction (negative: not found yet).
  std::vector<double> mapCosts;
  bool waited = false;
  /// The channels waited for since the unit last sent a token: a store
  /// after a later block's token of one of them (a tile the drain hands
  /// over in row blocks) is in the same execution's group.
  llvm::DenseSet<uint32_t> waitedSinceSend;
  bool inHandOver = false;
  bool loadedSinceStoreWait = false, afterStoreWait = false;
  /// The cycles since the last store unit's token of a chained execution,
  /// and those after each such execution's last token (chainedStoreTail).
  double storeSegment = 0, chainedStoreTailCycles = 0;
  /// When the latest device-to-device DMA lands (copyTail).
  double copyLandsAt = 0;
  bool loadedFromScratchpad = false;
  double loadedBytes = 0;
  std::optional<uint32_t> handOverStore, loadMemory;
  /// Bytes received from or loaded into each FIFO (loops as loaded bytes
  /// are).
  PerId fifoBytes;
  /// The unit's own time at the instruction walked (its busy cycles and
  /// waits for a slot, not for tokens) and when each of its transfers in
  /// flight lands.
  double clock = 0, slotWaitsWalked = 0;
  llvm::SmallVector<double, 8> landings;
  /// The same unit's time were every token there when it waits: `clock`
  /// plus the drift (waits for a slot the token waits hid), its transfers'
  /// landings and its time at its first wait (slotBoundSpan).
  double slotBoundDrift = 0;
  llvm::SmallVector<double, 8> slotBoundLandings;
  std::optional<double> slotBoundStart;
  /// When each token sent to a scratchpad load unit left, oldest first,
  /// per unit: its k-th token back (a buffer freed) answers the k-th.
  llvm::DenseMap<uint32_t, std::deque<double>> tokensToLoadUnit;
  /// How many skewed loops enclose the instruction walked, and how many
  /// of those run the executions the engine chains (skewedTrips): the
  /// innermost.
  int skewedDepth = 0, chainDepth = 0;
  /// Whether the loop that begins at `pc` holds a skewed loop.
  bool holdsSkewedLoop(size_t pc) const;
  /// Whether the body of the loop that begins at `pc`, outside its inner
  /// loops, waits for a token from its core's store unit (a compute's
  /// output stored): the loop whose trips are executions.
  bool waitsForCompute(size_t pc) const;
  /// Whether the loop that begins at `pc` loads from device memory into
  /// its core (in its body or its inner loops).
  bool loadsAhead(size_t pc) const;
  /// The trips of the loops in the chained skewed loop walked that wait
  /// for the compute and load, where the chained loop itself does not
  /// wait (a lane's
  /// point loop skewed as one stream, SkewedPointLoops.cpp: its
  /// executions are the point's row loop's trips), each loop's trips
  /// counted; and how many such loops enclose the instruction walked
  /// (one: the chained loop waits itself).
  double rowExecutions = 0;
  int rowLoopDepth = 0;
  double iterationsWalked = 0;
  /// Index reads walked (the value the next one takes, halved).
  int64_t indexReads = 0;
  /// Whether the engines may still be in step past the second index read
  /// (loadedInStep), and the device-memory loads since the last index read.
  bool inStep = true;
  int loadsSinceIndexRead = 0;
  /// Ends the bytes loaded in step (loadedInStep) at those loaded so far,
  /// once past the second index read, and the engines' step with them: at
  /// a wait for a token, at the end, or (`atIndexRead`) at an index read
  /// after more than one load since the last, where the step ends before
  /// them (the memory serves the engines' first loads of the round in the
  /// order they asked, and those served first issue their next load, and
  /// their next index read, ahead of the others: a paged attention's K and
  /// V pages, whose engines fall apart).
  void endInStep(bool atIndexRead = false);

  /// A transfer in flight into a core's memory, the bytes it may write
  /// (from `begin` to `end`, its rows' and planes' span) and when it lands.
  struct WriteInFlight {
    uint32_t memory;
    int64_t begin, end;
    double landsAt;
  };
  /// Those of a program that reads indices (and so steps every scalar,
  /// their addresses included): an index read of bytes one of them writes
  /// waits for it to land, as the simulator's unit does (indexed_add's
  /// engine reads the first id once the DMA that stages the ids has
  /// landed, 82 cycles on mesh_device).
  bool readsIndices = false;
  /// The last index read's wait for them.
  double stagedWait = 0;
  llvm::SmallVector<WriteInFlight, 8> writesInFlight;
  /// Records a transfer into `memory` from `addr` of `rows` rows of
  /// `bytes` each `stride` apart (and `planes` such `planeStride` apart),
  /// landing at `landsAt`, where its address is known.
  void writeInFlight(uint32_t memory, Known addr, int64_t bytes, int64_t rows,
                     int64_t stride, int64_t planes, int64_t planeStride,
                     double landsAt);
  /// The cycles from `clock` until the transfers in flight that write any
  /// of the `bytes` from `addr` of `memory` have landed (all of them into
  /// that memory where the address is not known).
  double waitForWrites(uint32_t memory, Known addr, int64_t bytes);
};
} // namespace ktflow::machine::detail

#endif // KTFLOW_LIB_MACHINE_PROGRAMWALKER_H
