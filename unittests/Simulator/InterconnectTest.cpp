//===- InterconnectTest.cpp - Remote DMAs over the core interconnect ------===//
//
// This file tests the timing of remote DMAs on a small ring built in C++:
// bytes over the slowest bandwidth plus the datapath and per-hop latencies,
// links shared by transfers that cross them in the same direction, the
// bytes each link carried, and the refusal of a remote DMA into the unit's
// own core.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Simulator/Simulator.h"

#include "gtest/gtest.h"

using namespace ktflow::machine;
using namespace ktflow::sim;

namespace {

/// A one-way ring of 4 cores, 32 B/cycle per link, 1 cycle per hop. Core c
/// has memory c ("core[c]/L1") and unit c, a DMA engine reading it through
/// a 64 B/cycle datapath of latency 2.
Machine makeRing() {
  Machine m;
  m.name = "ring";
  m.interconnect.topology = MachineInterconnect::Ring;
  m.interconnect.numCores = 4;
  m.interconnect.linkBandwidth = 32;
  m.interconnect.hopLatency = 1;
  for (uint32_t c = 0; c < 4; ++c) {
    std::string core = "core[" + std::to_string(c) + "]";
    MachineMemory mem{core + "/L1", "L1", 1 << 16, 0, static_cast<int32_t>(c)};
    m.memories.push_back(mem);
    MachineUnit unit;
    unit.name = core + "/DMA";
    unit.kind = "DMA";
    unit.roles = RoleDma;
    unit.core = static_cast<int32_t>(c);
    m.units.push_back(unit);
    m.links.push_back({{NodeRef::Memory, c}, {NodeRef::Unit, c}, 64, 2, 0, {}});
  }
  return m;
}

/// A program of unit `unit` that sends `bytes` from its core's memory to
/// memory `to` at address `dst`.
UnitProgram remoteDma(uint32_t unit, uint32_t to, int64_t dst, int64_t bytes) {
  UnitProgram p;
  p.unit = unit;
  p.numSRegs = 3;
  int64_t values[] = {0, dst, bytes};
  for (uint32_t r = 0; r < 3; ++r) {
    Inst set;
    set.op = Opcode::SetImm;
    set.a = r;
    set.imm = values[r];
    p.insts.push_back(set);
  }
  Inst copy;
  copy.op = Opcode::RemoteDma;
  copy.a = unit, copy.b = 0, copy.c = to, copy.d = 1, copy.e = 2;
  copy.f = copy.g = copy.h = kNoReg;
  p.insts.push_back(copy);
  Inst halt;
  halt.op = Opcode::Halt;
  p.insts.push_back(halt);
  return p;
}

TEST(InterconnectTest, OneTransferPaysEveryHop) {
  Machine m = makeRing();
  Executable exe;
  exe.programs = {remoteDma(0, 2, 256, 1024)};
  MemoryImage mem(m);
  for (int i = 0; i < 1024; ++i)
    mem.writePointer(0, i, 1)[0] = static_cast<uint8_t>(i * 5);
  auto stats = simulate(m, exe, mem);
  ASSERT_TRUE(static_cast<bool>(stats)) << llvm::toString(stats.takeError());
  // 1024 / 32 (the links are the bottleneck) + 2 (datapath) + 2 hops x 1.
  EXPECT_EQ(stats->cycles, 32u + 2u + 2u);
  for (int i = 0; i < 1024; ++i)
    ASSERT_EQ(mem.readPointer(2, 256 + i, 1)[0], static_cast<uint8_t>(i * 5));
  ASSERT_EQ(stats->interconnect.size(), 2u);
  EXPECT_EQ(stats->interconnect[0].fromCore, 0u);
  EXPECT_EQ(stats->interconnect[0].toCore, 1u);
  EXPECT_EQ(stats->interconnect[1].fromCore, 1u);
  EXPECT_EQ(stats->interconnect[1].toCore, 2u);
  EXPECT_EQ(stats->interconnect[1].bytes, 1024u);
}

TEST(InterconnectTest, TransfersShareALinkTheyBothCross) {
  Machine m = makeRing();
  Executable exe;
  // Core 0 -> 2 (links 0->1, 1->2) and core 1 -> 2 (link 1->2), both 1 KiB
  // in 128-byte chunks of 4 cycles on a link. Link 1->2 alternates: core
  // 0's chunks start at 0, 8, ..., 56 and core 1's at 4, ..., 60, so core
  // 0's last byte leaves at 60 and lands 2 + 2 hops later (64), core 1's
  // leaves at 64 and lands 2 + 1 later: 67. Alone each took 36 or 35.
  exe.programs = {remoteDma(0, 2, 0, 1024), remoteDma(1, 2, 1024, 1024)};
  MemoryImage mem(m);
  auto stats = simulate(m, exe, mem);
  ASSERT_TRUE(static_cast<bool>(stats)) << llvm::toString(stats.takeError());
  EXPECT_EQ(stats->cycles, 67u);
  EXPECT_EQ(stats->units[0].finishCycle, 64u);
  EXPECT_EQ(stats->units[1].finishCycle, 67u);
  ASSERT_EQ(stats->interconnect.size(), 2u);
  EXPECT_EQ(stats->interconnect[0].bytes, 1024u); // 0 -> 1
  EXPECT_EQ(stats->interconnect[1].bytes, 2048u); // 1 -> 2, shared
}

TEST(InterconnectTest, OppositeDirectionsDoNotContend) {
  Machine m = makeRing();
  m.interconnect.bidirectional = true;
  Executable exe;
  // 0 -> 1 and 1 -> 0 use the two directions of one pair: 32 + 2 + 1 each.
  exe.programs = {remoteDma(0, 1, 0, 1024), remoteDma(1, 0, 0, 1024)};
  MemoryImage mem(m);
  auto stats = simulate(m, exe, mem);
  ASSERT_TRUE(static_cast<bool>(stats)) << llvm::toString(stats.takeError());
  EXPECT_EQ(stats->cycles, 35u);
}

TEST(InterconnectTest, ARemoteDmaIntoItsOwnCoreIsRefused) {
  Machine m = makeRing();
  Executable exe;
  exe.programs = {remoteDma(1, 1, 0, 64)};
  MemoryImage mem(m);
  auto stats = simulate(m, exe, mem);
  ASSERT_FALSE(static_cast<bool>(stats));
  EXPECT_EQ(llvm::toString(stats.takeError()),
            "core[1]/DMA: remote dma to core[1]/L1: needs a scratchpad of "
            "another core than the unit's");
}

} // namespace
