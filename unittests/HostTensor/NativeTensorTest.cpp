//===- NativeTensorTest.cpp - Host tensors in their memory layout ---------===//
//
// This file tests the native tensor against the interpreter's Tensor: for
// every element type, converting either way keeps every bit, the summary
// line and checksum are the Tensor's character for character, and a .npy
// file written from either form has the same bytes and reads back into
// the same bits.
//
//===----------------------------------------------------------------------===//

#include "ktflow/HostTensor/NativeTensor.h"
#include "ktflow/HostTensor/Npy.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>

using namespace ktflow::host;

namespace {

/// A 3x5 tensor of `dtype` with negative, fractional, NaN (floats) and
/// extreme values.
Tensor sample(DType dtype) {
  Tensor t = Tensor::zeros(dtype, {3, 5});
  for (int64_t i = 0; i < 15; ++i)
    t.setDouble(i, (i - 7) * 1.375);
  if (isFloat(dtype)) {
    t.floats[3] = std::numeric_limits<double>::quiet_NaN();
    // df16 has one pattern for NaN and infinity: its largest value instead.
    t.floats[4] = dtype == DType::DF16
                      ? -maxFinite(dtype)
                      : -std::numeric_limits<double>::infinity();
    t.floats[5] = roundToDType(1e-7, dtype); // subnormal in f16
  } else {
    t.ints[0] = wrapInt(std::numeric_limits<int64_t>::min(), dtype);
  }
  return t;
}

template <typename T> std::string summary(const T &tensor) {
  std::string line;
  llvm::raw_string_ostream os(line);
  printTensorSummary(os, "out", tensor);
  return line;
}

std::string fileBytes(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  return buffer ? (*buffer)->getBuffer().str() : "";
}

class NativeTensorTest : public testing::TestWithParam<DType> {};

TEST_P(NativeTensorTest, AgreesWithTensor) {
  DType dtype = GetParam();
  Tensor tensor = sample(dtype);
  NativeTensor native = NativeTensor::fromTensor(tensor);
  ASSERT_EQ(native.numElements(), 15);
  EXPECT_EQ(native.getShape(), llvm::ArrayRef<int64_t>({3, 5}));
  EXPECT_EQ(native.numBytes(), 15 * byteSize(dtype));
  for (int64_t i = 0; i < 15; ++i) {
    uint64_t expected = isFloat(dtype) ? floatToBits(tensor.floats[i], dtype)
                                       : zeroExtend(tensor.ints[i], dtype);
    EXPECT_EQ(native.getBits(i), expected) << i;
  }
  Tensor back = native.toTensor();
  EXPECT_EQ(back.dtype, dtype);
  EXPECT_EQ(back.shape, tensor.shape);
  EXPECT_EQ(back.ints, tensor.ints);
  ASSERT_EQ(back.floats.size(), tensor.floats.size());
  for (size_t i = 0; i < back.floats.size(); ++i)
    EXPECT_TRUE(back.floats[i] == tensor.floats[i] ||
                (std::isnan(back.floats[i]) && std::isnan(tensor.floats[i])));

  EXPECT_EQ(summary(native), summary(tensor));
  EXPECT_EQ(native.clone().getBits(7), native.getBits(7));

  llvm::SmallString<128> fromTensor, fromNative;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("native", "npy", fromTensor));
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("native", "npy", fromNative));
  ASSERT_FALSE(static_cast<bool>(writeNpyFile(fromTensor, tensor)));
  ASSERT_FALSE(static_cast<bool>(writeNpyFile(fromNative, native)));
  EXPECT_EQ(fileBytes(fromNative), fileBytes(fromTensor));
  llvm::Expected<NativeTensor> read = readNpyFileNative(fromNative);
  llvm::sys::fs::remove(fromTensor);
  llvm::sys::fs::remove(fromNative);
  ASSERT_TRUE(static_cast<bool>(read)) << llvm::toString(read.takeError());
  // bf16 and df16 come back as the f32 they are written as.
  EXPECT_EQ(read->getDType(), npyStorageType(dtype));
  for (int64_t i = 0; i < 15; ++i) {
    double was = native.getDouble(i), is = read->getDouble(i);
    EXPECT_TRUE(was == is || (std::isnan(was) && std::isnan(is))) << i;
  }
}

INSTANTIATE_TEST_SUITE_P(EveryType, NativeTensorTest,
                         testing::Values(DType::I1, DType::I8, DType::I16,
                                         DType::I32, DType::I64, DType::Index,
                                         DType::F16, DType::BF16, DType::DF16,
                                         DType::F32, DType::F64));

TEST(NativeTensor, NpyBoolsAreNormalised) {
  Tensor t = Tensor::zeros(DType::I1, {4});
  std::string bytes = serializeNpy(t);
  // Numpy bools are any non-zero byte.
  bytes[bytes.size() - 3] = 7;
  llvm::Expected<NativeTensor> read = parseNpyNative(bytes);
  ASSERT_TRUE(static_cast<bool>(read));
  EXPECT_EQ(read->getBits(1), 1u);
  EXPECT_EQ(read->getBits(0), 0u);
  EXPECT_FALSE(static_cast<bool>(parseNpyNative(bytes.substr(0, 70))));
}

TEST(NativeTensor, ZeroedAllocationIsZero) {
  NativeTensor zeros(DType::F16, {2, 3}, /*zeroed=*/true);
  for (int64_t i = 0; i < 6; ++i)
    EXPECT_EQ(zeros.getBits(i), 0u);
  NativeTensor empty(DType::F32, {0, 4}, /*zeroed=*/false);
  EXPECT_EQ(empty.numElements(), 0);
  EXPECT_NE(empty.data(), nullptr);
}

/// The summary of f16 `values` from the native tensor and from the Tensor;
/// the native one sums exact sums out of order.
void expectSameF16Summary(llvm::ArrayRef<double> values) {
  Tensor tensor = Tensor::zeros(DType::F16, {int64_t(values.size())});
  for (size_t i = 0; i < values.size(); ++i)
    tensor.setDouble(i, values[i]);
  EXPECT_EQ(summary(NativeTensor::fromTensor(tensor)), summary(tensor));
}

TEST(NativeTensor, F16StatsMatchTheSequentialSum) {
  std::vector<double> values;
  for (int i = 0; i < 1003; ++i)
    values.push_back((i % 37 - 18) * 0.0078125 + i * 1e-3);
  expectSameF16Summary(values); // exact sums: in lanes
  values[500] = 0;
  for (double &v : values)
    v = std::fabs(v); // a zero minimum
  expectSameF16Summary(values);
  // Zeros of both signs as the minimum, then as the maximum: the first in
  // element order gives the sign.
  values[200] = -0.0;
  expectSameF16Summary(values);
  std::vector<double> negated;
  for (double v : values)
    negated.push_back(-v);
  expectSameF16Summary(negated);
  // A tensor large enough for the concurrent checksum, of a length that
  // is not a multiple of the lanes.
  std::vector<double> wide(700001);
  for (size_t i = 0; i < wide.size(); ++i)
    wide[i] = double(int(i % 4001) - 2000) * 0.25;
  expectSameF16Summary(wide);
  // Sums past 2^29 round: sequential, whose rounding the Tensor's matches.
  std::vector<double> large(20000, 65504.0);
  large[3] = 1e-7;
  large[19999] = -3.5;
  expectSameF16Summary(large);
  // One large magnitude among small ones: n times the largest passes 2^29
  // but the sum of magnitudes does not.
  std::vector<double> spike(20000, -6.103515625e-05); // the smallest normal
  spike[17] = -65504.0;
  spike[18] = 5.9604644775390625e-08; // the smallest subnormal
  expectSameF16Summary(spike);
  // Every value negative (the maximum too), subnormals among them.
  for (double &v : spike)
    v = -std::fabs(v) * 0.5;
  expectSameF16Summary(spike);
  values[7] = std::numeric_limits<double>::infinity();
  expectSameF16Summary(values);
  values[7] = -std::numeric_limits<double>::infinity();
  expectSameF16Summary(values);
  values[9] = std::numeric_limits<double>::quiet_NaN();
  expectSameF16Summary(values);
}

TEST(NativeTensor, LargeFilesAreSharedNotCopied) {
  // Past 1 MiB a .npy file is mapped; share() sees the same elements.
  Tensor t = Tensor::zeros(DType::F32, {512, 1024});
  for (int64_t i = 0; i < t.numElements(); ++i)
    t.floats[i] = double(i % 1000) - 500;
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("native", "npy", path));
  ASSERT_FALSE(static_cast<bool>(writeNpyFile(path, t)));
  llvm::Expected<NativeTensor> read = readNpyFileNative(path);
  llvm::sys::fs::remove(path); // the mapping outlives the name
  ASSERT_TRUE(static_cast<bool>(read)) << llvm::toString(read.takeError());
  EXPECT_EQ(summary(*read), summary(t));
  NativeTensor shared = read->share();
  EXPECT_EQ(shared.data(), read->data());
  NativeTensor copy = read->clone();
  EXPECT_NE(copy.data(), read->data());
  EXPECT_EQ(copy.getDouble(123457), t.floats[123457]);
  *read = NativeTensor();
  EXPECT_EQ(shared.getDouble(999), 499.0);
  // A large zeroed tensor (its own pages) reads zero and is writable.
  NativeTensor zeros(DType::F16, {1024, 1024}, /*zeroed=*/true);
  EXPECT_EQ(zeros.getBits(1024 * 1024 - 1), 0u);
  zeros.data()[16] = 1;
  EXPECT_EQ(zeros.getBits(8), 1u);
}

TEST(NativeTensor, ChecksumIsXxh3OfThePayload) {
  // XXH3-64 of no bytes (xxHash's reference value), and of an f16
  // payload: the line's checksum is that of the .npy file's payload.
  EXPECT_EQ(payloadChecksum({}), 0x2d06800538d394c2ull);
  Tensor t = Tensor::zeros(DType::F16, {3});
  t.floats = {1.0, -2.0, 0.5};
  const uint8_t payload[] = {0x00, 0x3c, 0x00, 0xc0, 0x00, 0x38};
  EXPECT_EQ(computeStats(t).checksum, payloadChecksum(payload));
  EXPECT_EQ(computeStats(NativeTensor::fromTensor(t)).checksum,
            payloadChecksum(payload));
}

} // namespace
