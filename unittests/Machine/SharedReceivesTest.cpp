//===- SharedReceivesTest.cpp - Passes over receives shared by copies -----===//
//
// This file checks that the passes over a compute unit's receives that the
// estimate makes once for the walks sharing their records (a walk's copies,
// SameWalks.h) are shared only where the walks read those records through
// the same names: the hand-over stalls' groups of receives
// (HandOverStalls.cpp) and Landings::waitOf's (FillAndDrain.cpp). Each
// answer with a copy is compared with the same programs each walked.
//
//===----------------------------------------------------------------------===//

#include "TestMachine.h"

#include "FillAndDrain.h"
#include "HandOverStalls.h"
#include "ProgramWalker.h"
#include "SameWalks.h"

#include "gtest/gtest.h"

using namespace ktflow::machine;
using namespace ktflow::machine::detail;
using namespace ktflow::machine::test;

namespace {

constexpr uint32_t DDR = 0, L1 = 1, DMA = 0, LU = 1, VEC = 2, SU = 3, DMA2 = 4,
                   LU2 = 5, VEC2 = 6;

/// The test machine with a second load unit and a second vector unit
/// (LU2 reading L1, VEC2), like the first ones, and a FIFO link from LU2
/// to `lu2Feeds`.
Machine twoLanes(uint32_t lu2Feeds) {
  Machine m = makeTestMachine();
  m.memories[L1].core = 0;
  m.units.push_back(m.units[LU]);
  m.units.back().name = "core0.lu2";
  m.units.push_back(m.units[VEC]);
  m.units.back().name = "core0.vec2";
  auto mem = [](uint32_t i) { return NodeRef{NodeRef::Memory, i}; };
  auto unit = [](uint32_t i) { return NodeRef{NodeRef::Unit, i}; };
  m.links.push_back({mem(L1), unit(LU2), 64, 1, 0, {}});           // 10
  m.links.push_back({unit(LU2), unit(lu2Feeds), 64, 1, 4, {128}}); // 11
  return m;
}

/// Each program of `exe` walked on `m` (the walks point at `routes` and
/// `out`: not moved once made).
struct Walks {
  Walks(const Machine &m, const Executable &exe) : routes(m, exe) {
    out.memoryBusy.assign(m.memories.size(), 0);
    each.reserve(exe.programs.size());
    for (const UnitProgram &program : exe.programs)
      each.emplace_back(m, exe, program, out, routes).run();
  }
  Walks(const Walks &) = delete;

  /// The walks but the last, then the last program's walk copied from
  /// walk `walked`, renamed by `names`.
  std::vector<ProgramWalker> lastCopied(size_t walked,
                                        const Renaming &names) const {
    std::vector<ProgramWalker> copied;
    copied.reserve(each.size());
    for (size_t i = 0; i + 1 < each.size(); ++i)
      copied.push_back(each[i]);
    copied.emplace_back(copied[walked], each.back().unitProgram(), names);
    return copied;
  }

  RouteCosts routes;
  KernelEstimate out;
  std::vector<ProgramWalker> each;
};

/// One-to-one names from `pairs` (walked -> copy).
Renaming::OneToOne
names(std::initializer_list<std::pair<uint32_t, uint32_t>> pairs) {
  Renaming::OneToOne result;
  for (auto [x, y] : pairs)
    EXPECT_TRUE(result.bind(x, y));
  return result;
}

/// A load unit that loads a 128-byte entry into `fifo`, then, 7 times,
/// waits for the store unit's token on `sync` and loads the next.
UnitProgram handsOver(uint32_t unit, uint32_t fifo, uint32_t sync) {
  ProgramBuilder lu(unit);
  lu.load(fifo, L1, 2048, 128);
  size_t loop = lu.loopBegin(7);
  lu.syncRecv(sync);
  lu.load(fifo, L1, 2048, 128);
  lu.loopEnd(loop);
  return lu.done();
}

TEST(SharedReceivesTest, HandOverGroupsOfAnotherFeedAreNotShared) {
  // The vector unit receives, each of 8 trips, a 128-byte entry from LU
  // (FIFO a) and two 64-byte entries from LU2 (FIFO b), an exp after each,
  // and sends the first to the store unit, which stores it and hands it
  // over to both load units. LU2's program is LU's but for its FIFO and
  // channel, so LU2's walk may be LU's copied: the two share their
  // records, and the compute unit's is the same for both pairs. The pass
  // over its receives is LU's FIFO's for one and LU2's for the other: a
  // 128-byte entry fed after each hand-over (2 cycles) against a 64-byte
  // one (1 cycle).
  Machine m = twoLanes(/*lu2Feeds=*/VEC);
  Executable exe;
  exe.fifos = {{"a", LU, VEC, 5, 4, 128},
               {"out", VEC, SU, 6, 4, 128},
               {"b", LU2, VEC, 11, 4, 128}};
  exe.syncs = {{"stored", SU, LU}, {"stored2", SU, LU2}};
  ProgramBuilder vec(VEC);
  uint32_t whole = vec.vtype(ElemType::f16, {64});
  uint32_t half = vec.vtype(ElemType::f16, {32});
  size_t loop = vec.loopBegin(8);
  uint32_t entry = vec.map(ScalarOp::Exp, whole, vec.recv(0, whole));
  vec.map(ScalarOp::Exp, half, vec.recv(2, half));
  vec.map(ScalarOp::Exp, half, vec.recv(2, half));
  vec.send(1, entry);
  vec.loopEnd(loop);
  ProgramBuilder su(SU);
  size_t suLoop = su.loopBegin(7);
  su.store(1, L1, 2048, 128);
  su.syncSend(0);
  su.syncSend(1);
  su.loopEnd(suLoop);
  su.store(1, L1, 2048, 128);
  exe.programs = {handsOver(LU, 0, 0), vec.done(), su.done(),
                  handsOver(LU2, 2, 1)};

  Walks walks(m, exe);
  Renaming lu2;
  lu2.fifos = names({{0, 2}});
  lu2.syncs = names({{0, 1}});
  lu2.units = names({{LU, LU2}, {VEC, VEC}, {SU, SU}});
  lu2.memories = names({{L1, L1}});
  std::vector<ProgramWalker> copied = walks.lastCopied(0, lu2);

  std::vector<HandOverStall> alone = handOverStalls(exe, walks.each);
  std::vector<HandOverStall> shared = handOverStalls(exe, copied);
  ASSERT_EQ(alone.size(), 2u);
  ASSERT_EQ(shared.size(), 2u);
  // 7 hand-overs, each followed by 2 cycles of feed for LU and 1 for LU2.
  EXPECT_DOUBLE_EQ(alone[0].feed, 14);
  EXPECT_DOUBLE_EQ(alone[1].feed, 7);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(shared[i].compute, alone[i].compute);
    EXPECT_DOUBLE_EQ(shared[i].latency, alone[i].latency);
    EXPECT_DOUBLE_EQ(shared[i].feed, alone[i].feed);
  }
}

TEST(SharedReceivesTest, SendsToAnotherStoreUnitAreNotShared) {
  // The vector unit receives, each of 8 trips, an entry from LU and one
  // from LU2, an exp of each, sends the first to SU, four exps, sends the
  // second to SU2. SU hands its entry over to LU, SU2 to LU2. The compute
  // unit's sends to SU come before its sends to SU2: LU's hand-overs are
  // hidden by the work between that send and the next trip's first entry
  // (16 cycles of exps and a send), LU2's in part (an entry's exp).
  Machine m = twoLanes(/*lu2Feeds=*/VEC);
  constexpr uint32_t SU2 = 7;
  m.units.push_back(m.units[SU]);
  m.units.back().name = "core0.su2";
  auto mem = [](uint32_t i) { return NodeRef{NodeRef::Memory, i}; };
  auto unit = [](uint32_t i) { return NodeRef{NodeRef::Unit, i}; };
  m.links.push_back({unit(VEC), unit(SU2), 64, 1, 4, {128}}); // 12
  m.links.push_back({unit(SU2), mem(L1), 64, 1, 0, {}});      // 13
  Executable exe;
  exe.fifos = {{"a", LU, VEC, 5, 4, 128},
               {"out", VEC, SU, 6, 4, 128},
               {"b", LU2, VEC, 11, 4, 128},
               {"out2", VEC, SU2, 12, 4, 128}};
  exe.syncs = {{"stored", SU, LU}, {"stored2", SU2, LU2}};
  ProgramBuilder vec(VEC);
  uint32_t t = vec.vtype(ElemType::f16, {64});
  size_t loop = vec.loopBegin(8);
  uint32_t first = vec.map(ScalarOp::Exp, t, vec.recv(0, t));
  uint32_t second = vec.map(ScalarOp::Exp, t, vec.recv(2, t));
  vec.send(1, first);
  for (int i = 0; i < 4; ++i)
    first = vec.map(ScalarOp::Exp, t, first);
  vec.send(3, second);
  vec.loopEnd(loop);
  auto stores = [](uint32_t unit, uint32_t fifo, uint32_t sync) {
    ProgramBuilder su(unit);
    size_t suLoop = su.loopBegin(7);
    su.store(fifo, L1, 2048, 128);
    su.syncSend(sync);
    su.loopEnd(suLoop);
    su.store(fifo, L1, 2048, 128);
    return su.done();
  };
  exe.programs = {handsOver(LU, 0, 0), vec.done(), stores(SU, 1, 0),
                  handsOver(LU2, 2, 1), stores(SU2, 3, 1)};

  Walks walks(m, exe);
  std::vector<HandOverStall> stalls = handOverStalls(exe, walks.each);
  ASSERT_EQ(stalls.size(), 2u);
  // A hand-over's latency: 9 cycles (HandOverEstimateTest). LU's 7 are
  // hidden, with their feed (2 cycles each): from the send to SU to the
  // next trip's first entry the unit works 4 x 4 cycles of exps and 2 of
  // the send to SU2. LU2's: from the send to SU2 to the next trip's entry
  // from LU2, the exp of the entry from LU, 4 cycles: 7 x (9 - 4) and the
  // entry's feed, 7 x 2. (Taken to SU2 as sent to SU, LU2's hand-overs
  // were hidden too.)
  EXPECT_DOUBLE_EQ(walks.each[3].handOverLatency(), 9);
  EXPECT_DOUBLE_EQ(stalls[0].latency, 0);
  EXPECT_DOUBLE_EQ(stalls[0].feed, 0);
  EXPECT_DOUBLE_EQ(stalls[1].latency, 35);
  EXPECT_DOUBLE_EQ(stalls[1].feed, 14);
}

/// An engine that loads `bytes` from DDR into L1 and signals `sync`.
UnitProgram loadsAndSignals(uint32_t unit, int64_t bytes, uint32_t sync) {
  ProgramBuilder dma(unit);
  dma.dma(DDR, 0, L1, 0, bytes);
  dma.syncSend(sync);
  return dma.done();
}

TEST(SharedReceivesTest, WaitGroupsOfOtherFeedsAreNotShared) {
  // Two vector units run one program, a 64-byte entry received, an exp, a
  // second received: VEC2's walk may be VEC's copied (their records
  // shared). LU waits for DMA's token and loads both entries; LU2 loads the
  // first, then waits for DMA2's, then loads the second. So VEC waits for
  // DMA's landing before its first entry, VEC2 for DMA2's only before its
  // second, after its first exp.
  Machine m = twoLanes(/*lu2Feeds=*/VEC2);
  Executable exe;
  exe.fifos = {{"a", LU, VEC, 5, 4, 128}, {"b", LU2, VEC2, 11, 4, 128}};
  exe.syncs = {{"landed", DMA, LU}, {"landed2", DMA2, LU2}};
  auto vector = [](uint32_t unit, uint32_t fifo) {
    ProgramBuilder vec(unit);
    uint32_t half = vec.vtype(ElemType::f16, {32});
    vec.map(ScalarOp::Exp, half, vec.recv(fifo, half));
    vec.map(ScalarOp::Exp, half, vec.recv(fifo, half));
    return vec.done();
  };
  ProgramBuilder lu(LU), lu2(LU2);
  lu.syncRecv(0);
  lu.load(0, L1, 0, 128);
  lu2.load(1, L1, 0, 64);
  lu2.syncRecv(1);
  lu2.load(1, L1, 64, 64);
  exe.programs = {loadsAndSignals(DMA, 256, 0),  lu.done(),  vector(VEC, 0),
                  loadsAndSignals(DMA2, 256, 1), lu2.done(), vector(VEC2, 1)};

  Walks walks(m, exe);
  Renaming vec2;
  vec2.fifos = names({{0, 1}});
  vec2.units = names({{LU, LU2}, {VEC, VEC2}});
  std::vector<ProgramWalker> copied = walks.lastCopied(2, vec2);

  Landings alone(m, exe, walks.each, walks.routes),
      shared(m, exe, copied, walks.routes);
  for (bool eachToken : {false, true}) {
    auto [vecWait, vecSync] = alone.waitOf(VEC, eachToken);
    auto [vec2Wait, vec2Sync] = alone.waitOf(VEC2, eachToken);
    // Both engines' 256 bytes land at 256 / 32 + 10 + 2 = 20; VEC2 has
    // done an exp of 32 f16 (2 cycles) before the entry that waits for
    // them. (Grouped as VEC's receives, VEC2 waited 20 too.)
    EXPECT_DOUBLE_EQ(vecWait, 20);
    EXPECT_DOUBLE_EQ(vec2Wait, 18);
    EXPECT_EQ(vecSync, std::optional<uint32_t>(0));
    EXPECT_EQ(vec2Sync, std::optional<uint32_t>(1));
    EXPECT_EQ(shared.waitOf(VEC, eachToken), alone.waitOf(VEC, eachToken));
    EXPECT_EQ(shared.waitOf(VEC2, eachToken), alone.waitOf(VEC2, eachToken));
  }
}

} // namespace
