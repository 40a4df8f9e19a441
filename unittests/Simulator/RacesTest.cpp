//===- RacesTest.cpp - Tests of the race detector -------------------------===//
//
// This file tests that an access of a memory (a core-local one or device
// memory) by one unit and a write of the same bytes by another are an error
// unless a sync token or a chain of FIFO entries orders them, that ordered
// accesses and same-value writes are not, and that by default only the
// writes of device memory are checked.
//
//===----------------------------------------------------------------------===//

#include "EstimateTestUtil.h"

#include "ktflow/Machine/Values.h"
#include "ktflow/Simulator/Simulator.h"

#include "gtest/gtest.h"

using namespace ktflow::machine;
using namespace ktflow::sim;
using namespace ktflow::machine::test;

namespace {

/// When `synced`, a token of sync 0 from what `from` did so far to what
/// `to` does next.
void handOver(ProgramBuilder &from, ProgramBuilder &to, bool synced) {
  if (!synced)
    return;
  from.syncSend(0);
  to.syncRecv(0);
}

/// The DMA engine copies 1 KiB of DDR into the L1; the load unit streams
/// the same bytes to the vector unit, after the DMA's token when `synced`.
Executable producerConsumer(bool synced) {
  Executable exe;
  exe.fifos = {{"in", LU, VEC, 5, 4, 128}};
  exe.syncs = {{"ready", DMA, LU}};
  ProgramBuilder dma(DMA), lu(LU);
  dma.dma(DDR, 0, L1, 0, 1024);
  handOver(dma, lu, synced);
  lu.load(0, L1, 0, 1024);
  ProgramBuilder vec(VEC);
  uint32_t t = vec.vtype(ElemType::f16, {64});
  size_t loop = vec.loopBegin(8);
  vec.recv(0, t);
  vec.loopEnd(loop);
  exe.programs = {dma.done(), lu.done(), vec.done()};
  return exe;
}

/// Options that turn the race detector on.
SimOptions checked() {
  SimOptions options;
  options.checkRaces = true;
  return options;
}

llvm::Expected<SimStats> run(const Machine &m, const Executable &exe,
                             SimOptions options = checked()) {
  MemoryImage mem(m);
  for (int i = 0; i < 2048; ++i)
    mem.writePointer(DDR, i, 1)[0] = static_cast<uint8_t>(i * 7 + 1);
  return simulate(m, exe, mem, options);
}

TEST(RacesTest, ReadOrderedByATokenIsNoRace) {
  auto stats = run(coreMachine(), producerConsumer(true));
  EXPECT_TRUE(static_cast<bool>(stats)) << llvm::toString(stats.takeError());
}

TEST(RacesTest, ReadOfAnUnorderedWriteIsARace) {
  auto stats = run(coreMachine(), producerConsumer(false));
  ASSERT_FALSE(static_cast<bool>(stats));
  std::string msg = llvm::toString(stats.takeError());
  EXPECT_NE(msg.find("race"), std::string::npos) << msg;
  EXPECT_NE(msg.find("of core0.L1"), std::string::npos) << msg;
  EXPECT_NE(msg.find("core0.dma"), std::string::npos) << msg;
  EXPECT_NE(msg.find("core0.lu"), std::string::npos) << msg;
}

TEST(RacesTest, ScratchpadsAreNotCheckedByDefault) {
  auto stats = run(coreMachine(), producerConsumer(false), {});
  EXPECT_TRUE(static_cast<bool>(stats)) << llvm::toString(stats.takeError());
}

/// Two DMA engines copy 512 bytes of memory `from` (at 0, and at
/// `secondSource`: other bytes or the same ones) to one range of memory
/// `to`, at `at`, the second after the first's token when `synced`.
Executable twoWriters(bool synced, int64_t secondSource, uint32_t from = DDR,
                      uint32_t to = L1, int64_t at = 0) {
  Executable exe;
  exe.syncs = {{"done", DMA, DMA2}};
  ProgramBuilder a(DMA), b(DMA2);
  a.dma(from, 0, to, at, 512);
  handOver(a, b, synced);
  b.dma(from, secondSource, to, at, 512);
  exe.programs = {a.done(), b.done()};
  return exe;
}

TEST(RacesTest, UnorderedWritesOfOtherValuesAreARace) {
  auto stats = run(coreMachine(), twoWriters(false, 1000));
  ASSERT_FALSE(static_cast<bool>(stats));
  std::string msg = llvm::toString(stats.takeError());
  EXPECT_NE(msg.find("write-write race: writes bytes [0, "), std::string::npos)
      << msg;
  EXPECT_NE(msg.find("that core0.dma (instruction"), std::string::npos) << msg;
}

TEST(RacesTest, OrderedOrSameValueWritesAreNoRace) {
  auto ordered = run(coreMachine(), twoWriters(true, 1000));
  EXPECT_TRUE(static_cast<bool>(ordered))
      << llvm::toString(ordered.takeError());
  auto same = run(coreMachine(), twoWriters(false, 0));
  EXPECT_TRUE(static_cast<bool>(same)) << llvm::toString(same.takeError());
}

/// A read ordered by a chain of FIFO entries: the load unit streams L1 to
/// the vector unit, which forwards it to the store unit, which writes the
/// bytes the load read (an in-place update); only the chain orders them.
TEST(RacesTest, AFifoChainOrdersAReadBeforeAWrite) {
  Machine m = coreMachine();
  Executable exe;
  exe.fifos = {{"in", LU, VEC, 5, 4, 128}, {"out", VEC, SU, 6, 4, 128}};
  ProgramBuilder lu(LU);
  lu.load(0, L1, 0, 1024);
  ProgramBuilder vec(VEC);
  uint32_t t = vec.vtype(ElemType::f16, {64});
  size_t loop = vec.loopBegin(8);
  uint32_t x = vec.recv(0, t);
  vec.send(1, vec.map(ScalarOp::AddF, t, x, x));
  vec.loopEnd(loop);
  ProgramBuilder su(SU);
  su.store(1, L1, 0, 1024);
  exe.programs = {lu.done(), vec.done(), su.done()};
  MemoryImage mem(m);
  for (int i = 0; i < 512; ++i)
    storeElement(ElemType::f16, i + 1, mem.writePointer(L1, 2 * i, 2));
  auto stats = simulate(m, exe, mem, checked());
  EXPECT_TRUE(static_cast<bool>(stats)) << llvm::toString(stats.takeError());
}

/// An exchange through device memory: the DMA engine stores 512 bytes of
/// the L1 to DDR[4096, 4608) and the second engine loads them back to
/// another L1 range, after the first's token when `synced`. When not
/// `storeFirst` the store waits behind a 1 KiB copy, so the load reads
/// first.
Executable exchange(bool synced, bool storeFirst) {
  Executable exe;
  exe.syncs = {{"stored", DMA, DMA2}};
  ProgramBuilder a(DMA), b(DMA2);
  if (!storeFirst)
    a.dma(DDR, 8192, L1, 8192, 1024);
  a.dma(L1, 0, DDR, 4096, 512);
  handOver(a, b, synced);
  b.dma(DDR, 4096, L1, 2048, 512);
  exe.programs = {a.done(), b.done()};
  return exe;
}

/// Runs `exe` on `m` (checked unless `options` say otherwise), the first
/// 1 KiB of the L1 non-zero.
llvm::Expected<SimStats> runWithL1(const Executable &exe,
                                   SimOptions options = checked(),
                                   const Machine &m = coreMachine()) {
  MemoryImage mem(m);
  for (int i = 0; i < 1024; ++i)
    mem.writePointer(L1, i, 1)[0] = static_cast<uint8_t>(i * 5 + 3);
  return simulate(m, exe, mem, options);
}

TEST(RacesTest, AnUnorderedExchangeThroughDeviceMemoryIsARace) {
  auto late = runWithL1(exchange(false, true));
  ASSERT_FALSE(static_cast<bool>(late));
  std::string msg = llvm::toString(late.takeError());
  EXPECT_NE(msg.find("core0.dma2"), std::string::npos) << msg;
  EXPECT_NE(msg.find("read-write race: reads bytes [4096, 4224) of DDR that "
                     "core0.dma (instruction"),
            std::string::npos)
      << msg;
  auto early = runWithL1(exchange(false, false));
  ASSERT_FALSE(static_cast<bool>(early));
  msg = llvm::toString(early.takeError());
  EXPECT_NE(msg.find("write-read race: writes bytes [4096, 4224) of DDR that "
                     "core0.dma2 (instruction"),
            std::string::npos)
      << msg;
}

TEST(RacesTest, AnExchangeOrderedByATokenIsNoRace) {
  for (bool storeFirst : {true, false}) {
    auto stats = runWithL1(exchange(true, storeFirst));
    EXPECT_TRUE(static_cast<bool>(stats)) << llvm::toString(stats.takeError());
  }
}

/// The test machine whose second DMA engine stores L1 bytes to DDR too.
Machine twoStoringEngines() {
  Machine m = coreMachine();
  m.links.push_back(
      {{NodeRef::Memory, L1}, {NodeRef::Unit, DMA2}, 32, 2, 0, {}});
  m.links.push_back(
      {{NodeRef::Unit, DMA2}, {NodeRef::Memory, DDR}, 32, 10, 0, {}});
  return m;
}

/// Overlapping stores of two grid points: two DMA engines store 512 bytes
/// of the L1 (from 0, and from `secondSource`) to DDR[4096, 4608).
Executable twoStores(bool synced, int64_t secondSource) {
  return twoWriters(synced, secondSource, L1, DDR, 4096);
}

TEST(RacesTest, UnorderedStoresOfOtherValuesAreARaceByDefault) {
  for (SimOptions options : {SimOptions(), checked()}) {
    auto stats = runWithL1(twoStores(false, 100), options, twoStoringEngines());
    ASSERT_FALSE(static_cast<bool>(stats));
    std::string msg = llvm::toString(stats.takeError());
    EXPECT_NE(msg.find("write-write race: writes bytes [4096, 4224) of DDR "
                       "that core0.dma (instruction"),
              std::string::npos)
        << msg;
  }
}

TEST(RacesTest, OrderedOrSameValueStoresAreNoRaceByDefault) {
  auto ordered = runWithL1(twoStores(true, 100), {}, twoStoringEngines());
  EXPECT_TRUE(static_cast<bool>(ordered))
      << llvm::toString(ordered.takeError());
  auto same = runWithL1(twoStores(false, 0), {}, twoStoringEngines());
  EXPECT_TRUE(static_cast<bool>(same)) << llvm::toString(same.takeError());
}

TEST(RacesTest, ReadsOfDeviceMemoryAreNotCheckedByDefault) {
  for (bool storeFirst : {true, false}) {
    auto stats = runWithL1(exchange(false, storeFirst), {});
    EXPECT_TRUE(static_cast<bool>(stats)) << llvm::toString(stats.takeError());
  }
}

} // namespace
