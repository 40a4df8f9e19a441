//===- MatrixTimingTest.cpp - Tests of the matrix product timing ----------===//
//
// This file checks the cycles MatrixTiming.h gives a matrix product against
// hand computation: waves of the engine's block (partial blocks padded),
// the per-wave rate, the fill paid once per instruction, and a vector
// unit's multiply-accumulate rate without waves or fill.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Machine/MatrixTiming.h"

#include "gtest/gtest.h"

using namespace ktflow::machine;

namespace {

TEST(MatrixTimingTest, EngineWavesAndFill) {
  // spyre_like's PT: 8x8x8 at the default 64 MACs/cycle, 8 cycles a wave,
  // fill 8 + 8 - 1.
  MatrixShape pt{8, 8, 8};
  EXPECT_EQ(matrixFillCycles(pt), 15u);
  EXPECT_EQ(matrixWaves(pt, 8, 8, 8), 1u);
  EXPECT_EQ(matrixProductCycles(pt, 64, 8, 8, 8), 15u + 8u);
  // 32x64 by 64x64: 4 x 8 x 8 waves.
  EXPECT_EQ(matrixWaves(pt, 32, 64, 64), 256u);
  EXPECT_EQ(matrixProductCycles(pt, 64, 32, 64, 64), 15u + 2048u);
  // A 9-row product pads its second row block: 2 waves, not 9/8.
  EXPECT_EQ(matrixWaves(pt, 9, 8, 8), 2u);
  EXPECT_EQ(matrixProductCycles(pt, 64, 9, 8, 8), 15u + 16u);
}

TEST(MatrixTimingTest, StatedRate) {
  // mesh_device's MXU: 16x16x4 at a stated 128 MACs/cycle, 8 cycles a
  // wave, fill 31.
  MatrixShape mxu{16, 16, 4};
  EXPECT_EQ(matrixProductCycles(mxu, 128, 16, 16, 32), 31u + 8u * 8u);
  // A fractional per-wave time (1024 / 96 = 10.67) rounds up once.
  EXPECT_EQ(matrixProductCycles(mxu, 96, 16, 16, 4), 31u + 11u);
}

TEST(MatrixTimingTest, VectorUnitHasNoWaves) {
  MatrixShape none;
  EXPECT_FALSE(none.isEngine());
  EXPECT_EQ(matrixFillCycles(none), 0u);
  // 16x32 by 32x16 at 32 MACs/cycle: 8192 / 32.
  EXPECT_EQ(matrixProductCycles(none, 32, 16, 16, 32), 256u);
  EXPECT_EQ(matrixProductCycles(none, 32, 1, 1, 1), 1u);
  EXPECT_EQ(matrixProductCycles(none, 32, 0, 16, 32), 0u);
}

} // namespace
