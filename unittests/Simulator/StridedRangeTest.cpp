//===- StridedRangeTest.cpp - Tests of the strided overlap test -----------===//
//
// This file tests the test that orders a unit's transfers in flight: the
// cases a transposed or masked load makes (interleaved columns, the two
// parts of the same rows), zero and negative strides, single rows, rows
// that touch, the bounding-box fallback, operands near 2^63, and, against
// the bytes each range touches listed one by one, that it never misses a
// common byte and is exact where the header says it is.
//
//===----------------------------------------------------------------------===//

#include "StridedRange.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <limits>
#include <set>

using namespace ktflow::sim::detail;

namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

StridedRange rows(int64_t addr, int64_t count, int64_t stride, int64_t bytes,
                  uint32_t memory = 0) {
  return {memory, addr, count, stride, bytes};
}
StridedRange interval(int64_t addr, int64_t bytes) {
  return rows(addr, 1, 0, bytes);
}

/// Both orders, which must agree.
bool overlap(const StridedRange &a, const StridedRange &b) {
  bool ab = mayOverlap(a, b), ba = mayOverlap(b, a);
  EXPECT_EQ(ab, ba);
  return ab;
}

TEST(StridedRangeTest, IntervalsShareAByteOrNot) {
  EXPECT_FALSE(overlap(interval(0, 4), interval(4, 4)));
  EXPECT_TRUE(overlap(interval(0, 5), interval(4, 4)));
  EXPECT_TRUE(overlap(interval(10, 1), interval(0, 100)));
  EXPECT_FALSE(overlap(interval(0, 100), rows(0, 1, 0, 100, /*memory=*/1)));
}

// The columns of a transposed load: one strided DMA per column, each
// writing 2 bytes per row of a 256-byte-wide buffer. Their boxes all
// overlap; their bytes do not.
TEST(StridedRangeTest, InterleavedColumnsAreDisjoint) {
  for (int64_t col = 1; col < 128; ++col)
    EXPECT_FALSE(overlap(rows(0, 128, 256, 2), rows(2 * col, 128, 256, 2)));
  EXPECT_TRUE(overlap(rows(0, 128, 256, 2), rows(0, 128, 256, 2)));
  // One byte out of step: column 0's second byte.
  EXPECT_TRUE(overlap(rows(0, 128, 256, 2), rows(1, 128, 256, 2)));
  // The last byte of each row against the next row's first.
  EXPECT_TRUE(overlap(rows(0, 2, 256, 2), rows(255, 2, 256, 2)));
  EXPECT_FALSE(overlap(rows(0, 2, 256, 2), rows(254, 2, 256, 2)));
}

// A masked load: a fill zeroes bytes 384-1023 of two 1024-byte rows, a
// DMA writes bytes 0-383 of the same rows (test/Simulator/fill.mlir).
TEST(StridedRangeTest, MaskedAndValidPartsOfRowsAreDisjoint) {
  EXPECT_FALSE(overlap(rows(384, 2, 1024, 640), rows(0, 2, 1024, 384)));
  EXPECT_TRUE(overlap(rows(383, 2, 1024, 641), rows(0, 2, 1024, 384)));
  // The whole buffer, read back by a store, meets both.
  EXPECT_TRUE(overlap(rows(384, 2, 1024, 640), interval(0, 2048)));
  EXPECT_TRUE(overlap(rows(0, 2, 1024, 384), interval(0, 2048)));
}

// An interval that falls between two rows, and one that reaches the next.
TEST(StridedRangeTest, IntervalInTheGapBetweenRows) {
  StridedRange r = rows(0, 3, 100, 10); // [0,10) [100,110) [200,210)
  EXPECT_FALSE(overlap(r, interval(10, 90)));
  EXPECT_TRUE(overlap(r, interval(10, 91)));
  EXPECT_TRUE(overlap(r, interval(209, 50)));
  EXPECT_FALSE(overlap(r, interval(210, 50)));
  EXPECT_FALSE(overlap(r, interval(110, 90)));
}

TEST(StridedRangeTest, NegativeStrideIsTheSameRowsReversed) {
  StridedRange up = rows(0, 3, 100, 10), down = rows(200, 3, -100, 10);
  for (int64_t addr = 0; addr < 230; ++addr)
    EXPECT_EQ(overlap(up, interval(addr, 5)), overlap(down, interval(addr, 5)))
        << addr;
  EXPECT_FALSE(overlap(down, rows(10, 3, 100, 90)));
  EXPECT_TRUE(overlap(down, rows(10, 3, -100, 91)));
}

TEST(StridedRangeTest, ZeroStrideAndOneRowAreIntervals) {
  // Five rows at the same address: 8 bytes, whatever the row count.
  EXPECT_FALSE(overlap(rows(100, 5, 0, 8), interval(108, 100)));
  EXPECT_TRUE(overlap(rows(100, 5, 0, 8), interval(107, 100)));
  // One row: the stride is never taken (its box would reach 10^18).
  EXPECT_FALSE(overlap(rows(0, 1, 1000000000000000000, 4), interval(1000, 4)));
  EXPECT_FALSE(overlap(rows(4, 1, -3, 4), rows(0, 1, 7, 4)));
  // Rows that touch (stride <= bytes) are one interval.
  EXPECT_FALSE(overlap(rows(0, 3, 4, 8), interval(16, 4)));
  EXPECT_TRUE(overlap(rows(0, 3, 4, 8), interval(15, 4)));
  EXPECT_TRUE(overlap(rows(0, 3, 8, 8), rows(8, 2, 1000, 1)));
}

TEST(StridedRangeTest, EmptyTransfersTouchNothing) {
  EXPECT_FALSE(overlap(rows(0, 0, 16, 8), interval(0, 1024)));
  EXPECT_FALSE(overlap(rows(0, 4, 16, 0), interval(0, 1024)));
  EXPECT_FALSE(overlap(rows(0, -1, 16, 8), interval(0, 1024)));
  EXPECT_FALSE(overlap(rows(0, 4, 16, -8), interval(0, 1024)));
}

// Different strides, both with several rows: the boxes, so a false "yes"
// (rows at 0, 256 and 64, 192 share no byte) but never a false "no".
TEST(StridedRangeTest, DifferentStridesCompareBoxes) {
  EXPECT_TRUE(overlap(rows(0, 2, 256, 2), rows(64, 2, 128, 2)));
  EXPECT_FALSE(overlap(rows(0, 2, 256, 2), rows(300, 2, 128, 2)));
}

// Operands a user may write: the arithmetic must neither overflow nor give
// up its answer for ranges inside [0, 2^63).
TEST(StridedRangeTest, OperandsNear2To63) {
  constexpr int64_t kHalf = int64_t(1) << 62;
  EXPECT_FALSE(overlap(rows(0, 2, kHalf, 8), interval(kHalf + 8, 8)));
  EXPECT_TRUE(overlap(rows(0, 2, kHalf, 8), interval(kHalf + 7, 8)));
  EXPECT_FALSE(overlap(rows(4, 2, kHalf, 8), rows(12, 2, kHalf, 8)));
  EXPECT_TRUE(overlap(rows(kMax - 8, 1, 0, 8), interval(kMax - 1, 1)));
  // Past 2^63 (a transfer that fails its bounds check): boxes, in 128 bits.
  EXPECT_FALSE(overlap(rows(kMax - 1, kMax, kMax, 4), interval(0, 8)));
  EXPECT_TRUE(overlap(rows(kMax - 1, kMax, kMax, 4), interval(kMax - 2, 4)));
  EXPECT_TRUE(overlap(rows(0, kMax, kMin, 4), interval(0, 8)));
  EXPECT_TRUE(
      overlap(rows(kMax, kMax, kMin, kMax), rows(kMax, kMax, kMax, kMax)));
  EXPECT_FALSE(overlap(rows(kMin, 1, 0, 8), interval(0, 8)));
}

StridedRange planes(StridedRange rows, int64_t count, int64_t stride) {
  rows.planes = count;
  rows.planeStride = stride;
  return rows;
}

// A transposed 128x128 block of 2-byte elements in one DMA: 128 planes (the
// keys, 2 bytes apart in the buffer) of 128 rows of one element (256 bytes
// apart). Its bytes fill the block, read from 32 KiB of contiguous keys.
TEST(StridedRangeTest, ATransposedBlockFillsItsBox) {
  StridedRange written = planes(rows(0, 128, 256, 2), 128, 2);
  StridedRange read = planes(rows(0, 128, 2, 2), 128, 256);
  EXPECT_TRUE(overlap(written, interval(32767, 1)));
  EXPECT_FALSE(overlap(written, interval(32768, 8)));
  EXPECT_TRUE(overlap(written, rows(300, 2, 65536, 2)));
  // The next block's buffer, and the block itself, in the same form.
  EXPECT_FALSE(overlap(written, planes(rows(32768, 128, 256, 2), 128, 2)));
  EXPECT_TRUE(overlap(written, planes(rows(32766, 128, 256, 2), 128, 2)));
  EXPECT_FALSE(overlap(read, interval(-8, 8)));
  EXPECT_TRUE(overlap(read, interval(16384, 1)));
  // Planes of negative strides: the same bytes.
  EXPECT_FALSE(
      overlap(planes(rows(32512, 128, -256, 2), 128, 2), interval(32768, 8)));
  EXPECT_TRUE(
      overlap(planes(rows(32766, 128, 256, 2), 128, -2), interval(32767, 1)));
}

// Planes that continue the rows are more rows (exact); planes that neither
// continue nor touch them are their box (a false "yes", never a false
// "no"); no planes, or planes at one address, are the rows.
TEST(StridedRangeTest, PlanesOfRows) {
  StridedRange continued = planes(rows(0, 4, 16, 4), 2, 64); // 8 rows
  EXPECT_FALSE(overlap(continued, rows(4, 8, 16, 12)));
  EXPECT_TRUE(overlap(continued, rows(4, 8, 16, 13)));
  EXPECT_FALSE(overlap(continued, interval(128, 4)));
  StridedRange apart = planes(rows(0, 2, 100, 4), 2, 1000);
  EXPECT_TRUE(overlap(apart, interval(50, 4)));
  EXPECT_FALSE(overlap(apart, interval(1104, 4)));
  EXPECT_FALSE(overlap(planes(rows(0, 3, 100, 10), 5, 0), interval(10, 90)));
  EXPECT_FALSE(overlap(planes(rows(0, 0, 16, 8), 4, 64), interval(0, 1024)));
  EXPECT_FALSE(overlap(planes(rows(0, 4, 16, 8), 0, 64), interval(0, 1024)));
  EXPECT_FALSE(overlap(planes(rows(0, 4, 16, 8), -2, 64), interval(0, 1024)));
  // A level reaching past 2^65: a transfer that fails its bounds check.
  EXPECT_TRUE(overlap(planes(rows(0, 4, 16, 8), kMax, kMax), interval(-8, 1)));
}

/// The bytes a range touches, listed.
std::set<int64_t> bytesOf(const StridedRange &r) {
  std::set<int64_t> bytes;
  for (int64_t plane = 0; plane < r.planes; ++plane)
    for (int64_t row = 0; row < r.rows; ++row)
      for (int64_t b = 0; b < r.bytes; ++b)
        bytes.insert(r.addr + plane * r.planeStride + row * r.stride + b);
  return bytes;
}

bool isOneInterval(const StridedRange &r) {
  return r.rows <= 1 || std::llabs(r.stride) <= r.bytes;
}

// Small ranges drawn from a fixed sequence: a common byte is never missed,
// and where the test is exact (equal strides up to sign, or a range that is
// one interval) it finds no byte that is not there.
TEST(StridedRangeTest, AgreesWithTheBytesListed) {
  uint64_t state = 12345;
  auto next = [&](int64_t lo, int64_t hi) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + static_cast<int64_t>((state >> 33) % uint64_t(hi - lo + 1));
  };
  auto draw = [&](int64_t stride) {
    return rows(next(0, 64), next(0, 5), stride, next(0, 9));
  };
  int exactCases = 0;
  for (int i = 0; i < 20000; ++i) {
    int64_t stride = next(-24, 24);
    StridedRange a = draw(stride);
    // Half the time an equal stride (or its negation), else any.
    int64_t other =
        next(0, 1) ? (next(0, 1) ? stride : -stride) : next(-24, 24);
    StridedRange b = draw(other);
    std::set<int64_t> bytesA = bytesOf(a), bytesB = bytesOf(b);
    bool common = false;
    for (int64_t byte : bytesA)
      common |= bytesB.count(byte) != 0;
    bool answer = mayOverlap(a, b);
    if (common)
      EXPECT_TRUE(answer) << i;
    if (std::llabs(a.stride) == std::llabs(b.stride) || isOneInterval(a) ||
        isOneInterval(b)) {
      ++exactCases;
      EXPECT_EQ(answer, common)
          << i << " " << a.addr << "," << a.rows << "," << a.stride << ","
          << a.bytes << " vs " << b.addr << "," << b.rows << "," << b.stride
          << "," << b.bytes;
    }
  }
  EXPECT_GT(exactCases, 10000);
}

// Planes of small ranges: a common byte is never missed.
TEST(StridedRangeTest, PlanesNeverMissACommonByte) {
  uint64_t state = 777;
  auto next = [&](int64_t lo, int64_t hi) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + static_cast<int64_t>((state >> 33) % uint64_t(hi - lo + 1));
  };
  auto draw = [&] {
    return planes(rows(next(0, 64), next(0, 4), next(-24, 24), next(0, 6)),
                  next(0, 4), next(-40, 40));
  };
  int overlaps = 0;
  for (int i = 0; i < 20000; ++i) {
    StridedRange a = draw(), b = next(0, 1) ? draw()
                                            : rows(next(0, 64), next(0, 5),
                                                   next(-24, 24), next(0, 9));
    std::set<int64_t> bytesA = bytesOf(a), bytesB = bytesOf(b);
    bool common = false;
    for (int64_t byte : bytesA)
      common |= bytesB.count(byte) != 0;
    overlaps += common;
    if (common)
      EXPECT_TRUE(overlap(a, b)) << i;
    else if (bytesA.empty() || bytesB.empty())
      EXPECT_FALSE(overlap(a, b)) << i;
  }
  EXPECT_GT(overlaps, 1000);
}

} // namespace
