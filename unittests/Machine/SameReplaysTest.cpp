//===- SameReplaysTest.cpp - Token-chain replays shared by equal groups ---===//
//
// This file checks that the token-chain replay (TokenChains.cpp) takes a
// group of units' replay from another group's only where it would replay
// the same: groups whose walks are not copies of one walk (each walked,
// as the estimate walks the short walks of each core) are compared by
// their events and their ends. Each answer is compared with the groups
// replayed one at a time.
//
//===----------------------------------------------------------------------===//

#include "TestMachine.h"

#include "ProgramWalker.h"
#include "TokenChains.h"

#include "gtest/gtest.h"

using namespace ktflow::machine;
using namespace ktflow::machine::detail;
using namespace ktflow::machine::test;

namespace {

constexpr uint32_t DDR = 0, L1 = 1, DMA = 0, DMA2 = 4, DMA3 = 5, DMA4 = 6;

/// The test machine with two more DMA engines (DMA3, DMA4) routed as
/// DMA2 is: two pairs of engines that pass tokens only to each other.
Machine twoPairs() {
  Machine m = makeTestMachine();
  m.memories[L1].core = 0;
  auto mem = [](uint32_t i) { return NodeRef{NodeRef::Memory, i}; };
  auto unit = [](uint32_t i) { return NodeRef{NodeRef::Unit, i}; };
  for (uint32_t engine : {DMA3, DMA4}) {
    m.units.push_back(m.units[DMA2]);
    m.units.back().name = engine == DMA3 ? "core0.dma3" : "core0.dma4";
    m.links.push_back({mem(DDR), unit(engine), 32, 10, 0, {}});
    m.links.push_back({unit(engine), mem(L1), 32, 2, 0, {}});
  }
  return m;
}

/// How the waiter of a pair (pingPong) copies: `before` bytes once it has
/// the token each trip, `after` bytes once it has signalled back, and
/// `last` bytes after its last trip.
struct Waiter {
  int64_t before, after, last;
};

/// Four times, `copier` copies 64 bytes and signals `waiter` on `there`,
/// which copies and signals back on `back` (`copies`).
std::pair<UnitProgram, UnitProgram> pingPong(uint32_t copier, uint32_t waiter,
                                             uint32_t there, uint32_t back,
                                             Waiter copies) {
  ProgramBuilder a(copier);
  size_t loopA = a.loopBegin(4);
  a.dma(DDR, 0, L1, 0, 64);
  a.syncSend(there);
  a.syncRecv(back);
  a.loopEnd(loopA);
  ProgramBuilder b(waiter);
  size_t loopB = b.loopBegin(4);
  b.syncRecv(there);
  b.dma(DDR, 0, L1, 4096, copies.before);
  b.syncSend(back);
  b.dma(DDR, 0, L1, 8192, copies.after);
  b.loopEnd(loopB);
  b.dma(DDR, 0, L1, 12288, copies.last);
  return {a.done(), b.done()};
}

/// The two pairs, DMA and DMA2 then DMA3 and DMA4, their waiters copying
/// as `first` and `second` say.
Executable twoPingPongs(Waiter first, Waiter second) {
  Executable exe;
  exe.syncs = {{"there", DMA, DMA2},
               {"back", DMA2, DMA},
               {"there2", DMA3, DMA4},
               {"back2", DMA4, DMA3}};
  auto [a, b] = pingPong(DMA, DMA2, 0, 1, first);
  auto [c, d] = pingPong(DMA3, DMA4, 2, 3, second);
  exe.programs = {a, b, c, d};
  return exe;
}

/// The token chains of `exe` with every program walked (none a copy), and
/// of each pair replayed alone.
struct Chains {
  Chains(const Machine &m, const Executable &exe) : routes(m, exe) {
    out.memoryBusy.assign(m.memories.size(), 0);
    walks.reserve(exe.programs.size());
    for (const UnitProgram &program : exe.programs)
      walks.emplace_back(m, exe, program, out, routes).run();
    llvm::ArrayRef<ProgramWalker> all(walks);
    whole = tokenChains(m, exe, all);
    first = tokenChains(m, exe, all.take_front(2));
    second = tokenChains(m, exe, all.drop_front(2));
  }

  RouteCosts routes;
  KernelEstimate out;
  std::vector<ProgramWalker> walks;
  std::optional<TokenChain> whole, first, second;
};

TEST(SameReplaysTest, EqualPairsReplayAsOne) {
  // The pairs walk alike: whichever replays, the chain is each pair's.
  Machine m = twoPairs();
  Chains chains(m, twoPingPongs({64, 64, 64}, {64, 64, 64}));
  ASSERT_TRUE(chains.whole && chains.first && chains.second);
  EXPECT_EQ(chains.first->cycles, chains.second->cycles);
  EXPECT_EQ(chains.whole->cycles, chains.first->cycles);
}

TEST(SameReplaysTest, EventsOfAnotherPairAreCompared) {
  // The second pair's waiter copies 256 bytes before it signals back and
  // 64 after, the first's the other way round: the walks end at the same
  // time with as many events of the same kinds, but the second pair's
  // tokens come back later, so its chain is the longer one, which the
  // first pair's replay must not stand for.
  Machine m = twoPairs();
  Chains chains(m, twoPingPongs({64, 256, 64}, {256, 64, 64}));
  ASSERT_TRUE(chains.whole && chains.first && chains.second);
  EXPECT_EQ(chains.walks[1].finishedAt, chains.walks[3].finishedAt);
  EXPECT_GT(chains.second->cycles, chains.first->cycles);
  EXPECT_EQ(chains.whole->cycles, chains.second->cycles);
}

TEST(SameReplaysTest, EndOfAnotherPairIsCompared) {
  // The second pair's waiter copies 4 KB after its last token: the same
  // events as the first pair's, but it ends later (ProgramWalker::
  // finishedAt), which ends the chain.
  Machine m = twoPairs();
  Chains chains(m, twoPingPongs({64, 64, 64}, {64, 64, 4096}));
  ASSERT_TRUE(chains.whole && chains.first && chains.second);
  EXPECT_GT(chains.second->cycles, chains.first->cycles);
  EXPECT_EQ(chains.whole->cycles, chains.second->cycles);
  EXPECT_EQ(chains.whole->unit, DMA4);
}

} // namespace
