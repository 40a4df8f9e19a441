//===- WalkRecordsTest.cpp - The walks' records, their storage kept -------===//
//
// This file checks ProgramWalker::Records::make (WalkRecords.cpp): records
// put back keep their storage for the next walks and come back empty, and
// an estimate made on records another kernel's walks used is the one made
// on fresh records.
//
//===----------------------------------------------------------------------===//

#include "EstimateTestUtil.h"
#include "ProgramWalker.h"

using namespace ktflow::machine;
using namespace ktflow::machine::test;
using Records = ktflow::machine::detail::ProgramWalker::Records;

namespace {

TEST(WalkRecordsTest, RecordsComeBackEmptyWithTheirStorage) {
  // More than are kept: every record kept before is taken, then those
  // made first are kept when all are dropped.
  std::vector<std::shared_ptr<Records>> made;
  for (size_t i = 0; i < Records::kKept + 10; ++i) {
    made.push_back(Records::make());
    made.back()->chainEvents.resize(100);
    made.back()->receives.resize(10);
    made.back()->waitLog.push_back(3);
    made.back()->loadsInto[2].loads.push_back({0, 0});
    made.back()->memoryCharges.push_back({1, 2.5});
  }
  made.clear();
  for (size_t i = 0; i < Records::kKept; ++i) {
    std::shared_ptr<Records> records = Records::make();
    EXPECT_TRUE(records->chainEvents.empty());
    EXPECT_GE(records->chainEvents.capacity(), 100u);
    EXPECT_TRUE(records->receives.empty());
    EXPECT_TRUE(records->waitLog.empty());
    EXPECT_TRUE(records->loadsInto.empty());
    EXPECT_TRUE(records->memoryCharges.empty());
    made.push_back(std::move(records));
  }
  // Those beyond were freed: the next are new.
  EXPECT_EQ(Records::make()->chainEvents.capacity(), 0u);
}

/// A stage fed by dma2 (expStage), `dmas` DMAs of 64 bytes before its
/// token.
Executable fedStage(int64_t dmas) {
  Executable exe = fedByDma2();
  ProgramBuilder dma(DMA2);
  size_t loop = dma.loopBegin(dmas);
  dma.dma(DDR, 0, L1, 0, 64);
  dma.loopEnd(loop);
  dma.syncSend(0);
  exe.programs = {dma.done()};
  for (UnitProgram &program : expStage({0}, {}))
    exe.programs.push_back(std::move(program));
  return exe;
}

void expectSame(const KernelEstimate &a, const KernelEstimate &b) {
  EXPECT_EQ(a.cycles, b.cycles);
  EXPECT_EQ(a.busiest, b.busiest);
  EXPECT_EQ(a.latency, b.latency);
  EXPECT_EQ(a.bottleneck, b.bottleneck);
  EXPECT_EQ(a.unitBusy, b.unitBusy);
  EXPECT_EQ(a.memoryBusy, b.memoryBusy);
}

TEST(WalkRecordsTest, AnEstimateOnUsedRecordsIsTheSame) {
  Machine m = coreMachine();
  Executable small = fedStage(4), large = fedStage(100);
  KernelEstimate first = estimateKernel(m, small);
  // The large kernel's walks take the small one's records and grow them;
  // the small one's again take records that held more.
  KernelEstimate other = estimateKernel(m, large);
  expectSame(estimateKernel(m, small), first);
  expectSame(estimateKernel(m, large), other);
  EXPECT_GT(other.cycles, first.cycles);
}

} // namespace
