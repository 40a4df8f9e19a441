//===- TensorTest.cpp - Host tensors and their summaries ------------------===//
//
// This file tests the host tensor's storage and element access (rounding
// and wrapping on write), its shape helpers, and the statistics and summary
// line `ktflow interp` prints, whose checksum is recomputed here from the
// element bits independently of the .npy writer.
//
//===----------------------------------------------------------------------===//

#include "ktflow/HostTensor/Tensor.h"

#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace ktflow::host;

namespace {

/// XXH3-64 of the little-endian bytes of `values` as float32.
uint64_t checksumOfFloats(llvm::ArrayRef<float> values) {
  std::vector<uint8_t> bytes(values.size() * 4);
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return llvm::xxh3_64bits(bytes);
}

TEST(Tensor, ShapesAndStrides) {
  EXPECT_EQ(productOf({}), 1);
  EXPECT_EQ(productOf({3, 0, 2}), 0);
  EXPECT_EQ(formatShape({}), "scalar");
  EXPECT_EQ(formatShape({96, 64}), "96x64");
  EXPECT_EQ(rowMajorStrides({2, 3, 4}),
            (llvm::SmallVector<int64_t, 4>{12, 4, 1}));
  Tensor t = Tensor::zeros(DType::BF16, {2, 3});
  EXPECT_EQ(t.rank(), 2);
  EXPECT_EQ(t.numElements(), 6);
  EXPECT_EQ(t.floats.size(), 6u);
  EXPECT_TRUE(t.ints.empty());
}

TEST(Tensor, WritesRoundOrWrapToTheElementType) {
  Tensor h = Tensor::zeros(DType::F16, {1});
  // 2049 lies between the f16 values 2048 and 2050: ties to even, 2048.
  h.setDouble(0, 2049);
  EXPECT_EQ(h.getDouble(0), 2048.0);
  Tensor b = Tensor::zeros(DType::I8, {2});
  b.setDouble(0, 130.9);
  b.setDouble(1, -1.5);
  EXPECT_EQ(b.getInt(0), -126); // 130 wraps to 130 - 256
  EXPECT_EQ(b.getInt(1), -1);   // truncation toward zero
  Tensor f = Tensor::zeros(DType::F32, {1});
  f.setDouble(0, -7.75);
  EXPECT_EQ(f.getInt(0), -7);
}

TEST(Tensor, StatsSkipNaNAndChecksumThePayload) {
  Tensor t = Tensor::zeros(DType::F32, {4});
  t.floats = {1.0, -3.0, std::numeric_limits<double>::quiet_NaN(), 8.0};
  TensorStats stats = computeStats(t);
  EXPECT_EQ(stats.min, -3.0);
  EXPECT_EQ(stats.max, 8.0);
  EXPECT_EQ(stats.mean, 2.0);
  EXPECT_EQ(stats.nanCount, 1);
  EXPECT_EQ(stats.checksum,
            checksumOfFloats(
                {1.0f, -3.0f, std::numeric_limits<float>::quiet_NaN(), 8.0f}));
}

TEST(Tensor, SummaryLine) {
  Tensor t = Tensor::zeros(DType::F32, {2});
  t.floats = {0.5, 0.25};
  std::string line;
  llvm::raw_string_ostream os(line);
  printTensorSummary(os, "y", t);
  char hex[19];
  std::snprintf(
      hex, sizeof(hex), "0x%016llx",
      static_cast<unsigned long long>(checksumOfFloats({0.5f, 0.25f})));
  EXPECT_EQ(line, "y: shape=2 dtype=f32 min=0.25 max=0.5 mean=0.375 "
                  "checksum=" +
                      std::string(hex) + "\n");

  t.floats[1] = std::nan("");
  line.clear();
  printTensorSummary(os, "y", t);
  EXPECT_NE(line.find(" min=0.5 max=0.5 mean=0.5 "), std::string::npos);
  EXPECT_EQ(line.substr(line.size() - 7), " nan=1\n");
}

} // namespace
