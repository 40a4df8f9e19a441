//===- RouteCostsTest.cpp - The route costs the estimate's walks ask for --===//
//
// This file checks RouteCosts (RouteCosts.h), which keeps the routes
// asked for last by a hash of their ends in front of its map: each answer,
// asked in any order and again, is the route's own (its links' least
// bandwidth and summed latency, by hand) where many routes share a slot.
//
//===----------------------------------------------------------------------===//

#include "TestMachine.h"

#include "ProgramWalker.h"

#include "gtest/gtest.h"

using namespace ktflow::machine;
using namespace ktflow::machine::detail;
using namespace ktflow::machine::test;

namespace {

constexpr uint32_t DDR = 0, L1 = 1, kEngines = 80;

/// The test machine with `kEngines` more DMA engines, engine i linked from
/// DDR at 1 + i B/cycle (latency 1) and to L1 at 200 - i B/cycle (latency
/// 1 + i), and engine 14 to engine 0 at 7 B/cycle (latency 3): every
/// route costs its own.
Machine manyEngines(std::vector<uint32_t> &engines) {
  Machine m = makeTestMachine();
  auto mem = [](uint32_t i) { return NodeRef{NodeRef::Memory, i}; };
  auto unit = [](uint32_t i) { return NodeRef{NodeRef::Unit, i}; };
  for (uint32_t i = 0; i < kEngines; ++i) {
    uint32_t u = m.units.size();
    engines.push_back(u);
    m.units.push_back(m.units[0]);
    m.units.back().name = "dma" + std::to_string(i);
    m.links.push_back({mem(DDR), unit(u), 1.0 + i, 1, 0, {}});
    m.links.push_back({unit(u), mem(L1), 200.0 - i, 1 + i, 0, {}});
  }
  m.links.push_back({unit(engines[14]), unit(engines[0]), 7, 3, 0, {}});
  return m;
}

TEST(RouteCostsTest, EachRouteCostsItsOwnWhereSlotsAreShared) {
  std::vector<uint32_t> engines;
  Machine m = manyEngines(engines);
  Executable exe;
  RouteCosts routes(m, exe);
  auto check = [&](uint32_t i) {
    NodeRef engine{NodeRef::Unit, engines[i]};
    RouteCost in = routes({NodeRef::Memory, DDR}, engine);
    EXPECT_EQ(in.bandwidth, 1.0 + i);
    EXPECT_EQ(in.latency, 1);
    RouteCost out = routes(engine, {NodeRef::Memory, L1});
    EXPECT_EQ(out.bandwidth, 200.0 - i);
    EXPECT_EQ(out.latency, 1 + i);
    // No route from L1 to the engine.
    RouteCost none = routes({NodeRef::Memory, L1}, engine);
    EXPECT_EQ(none.bandwidth, 0);
    EXPECT_EQ(none.latency, 0);
    // Engine 14 to engine 0 (a link of its own), whose slot is DDR's
    // route to engine 0.
    RouteCost across =
        routes({NodeRef::Unit, engines[14]}, {NodeRef::Unit, engines[0]});
    EXPECT_EQ(across.bandwidth, 7);
    EXPECT_EQ(across.latency, 3);
  };
  // 241 routes for 64 slots, asked in turn, then again the other way
  // round, then each twice in a row.
  for (uint32_t i = 0; i < kEngines; ++i)
    check(i);
  for (uint32_t i = kEngines; i-- > 0;)
    check(i);
  for (uint32_t i = 0; i < kEngines; ++i) {
    check(i);
    check(i);
  }
}

} // namespace
