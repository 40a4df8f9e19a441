//===- SourceTableTest.cpp - Tests of the bundle's source locations -------===//
//
// This file tests the optional LOCS section: the kernel source location of
// every instruction survives writing and reading, a bundle without any
// writes no section, and a damaged table (a file index past the file
// names, a count of programs that is not the bundle's, a line past 32
// bits) is refused with a message saying which.
//
//===----------------------------------------------------------------------===//

#include "TestBundle.h"

#include "gtest/gtest.h"

#include <algorithm>

using namespace ktflow;
using namespace ktflow::bundle;
using namespace ktflow::bundle::test;

namespace {

std::string readError(const std::vector<uint8_t> &bytes) {
  auto b = readBundle(bytes);
  return b ? "" : llvm::toString(b.takeError());
}

/// The offset in `bytes` of the LOCS section's body.
size_t locsBody(const std::vector<uint8_t> &bytes) {
  const char tag[] = {'L', 'O', 'C', 'S'};
  auto at = std::search(bytes.begin() + kHeaderSize, bytes.end(),
                        std::begin(tag), std::end(tag));
  EXPECT_NE(at, bytes.end());
  return (at - bytes.begin()) + 4 + 8;
}

/// Adds `delta` to the little-endian 64-bit field at `at` of `bytes`.
void addToFixed64(std::vector<uint8_t> &bytes, size_t at, uint64_t delta) {
  uint64_t value = 0;
  for (int i = 0; i < 8; ++i)
    value |= uint64_t(bytes[at + i]) << (8 * i);
  value += delta;
  for (int i = 0; i < 8; ++i)
    bytes[at + i] = static_cast<uint8_t>(value >> (8 * i));
}

TEST(SourceTableTest, RoundTrips) {
  Bundle b = makeLocatedBundle();
  auto read = readBundle(writeBundle(b));
  ASSERT_TRUE(static_cast<bool>(read)) << llvm::toString(read.takeError());
  EXPECT_EQ(read->sources.files, b.sources.files);
  EXPECT_EQ(read->sources.programs, b.sources.programs);
  EXPECT_EQ(read->sources.describe(0, 0), "k.mlir:10:3");
  EXPECT_EQ(read->sources.describe(0, 1), "");
  EXPECT_EQ(read->sources.describe(0, 2), "k.mlir:12:3");
  EXPECT_EQ(read->sources.describe(0, b.sources.programs[0].size() - 1),
            "lib.mlir:7:1");
  // Past the table: unknown, never out of range.
  EXPECT_EQ(read->sources.describe(0, 1000), "");
  EXPECT_EQ(read->sources.describe(5, 0), "");
}

TEST(SourceTableTest, NoLocationsNoSection) {
  Bundle plain = makeBundle();
  std::vector<uint8_t> bytes = writeBundle(plain);
  const char tag[] = {'L', 'O', 'C', 'S'};
  EXPECT_EQ(
      std::search(bytes.begin(), bytes.end(), std::begin(tag), std::end(tag)),
      bytes.end());
  // The table adds its section and changes nothing before it.
  std::vector<uint8_t> located = writeBundle(makeLocatedBundle());
  size_t start = locsBody(located) - 12;
  EXPECT_EQ(start, bytes.size());
  EXPECT_TRUE(std::equal(bytes.begin() + kHeaderSize, bytes.end(),
                         located.begin() + kHeaderSize));
  auto read = readBundle(bytes);
  ASSERT_TRUE(static_cast<bool>(read)) << llvm::toString(read.takeError());
  EXPECT_TRUE(read->sources.programs.empty());
}

TEST(SourceTableTest, DamageIsRefused) {
  std::vector<uint8_t> good = writeBundle(makeLocatedBundle());
  size_t body = locsBody(good);
  // Body: 2 files ("k.mlir", "lib.mlir"), 1 program, its count, then the
  // first location (file 1, line 10, col 3).
  size_t programs = body + 1 + 1 + 6 + 1 + 8;
  size_t firstFile = programs + 2;
  ASSERT_EQ(good[programs], 1u);
  ASSERT_EQ(good[firstFile], 1u);
  ASSERT_EQ(good[firstFile + 1], 10u);

  std::vector<uint8_t> bytes = good;
  bytes[firstFile] = 3;
  fixChecksum(bytes);
  EXPECT_EQ(readError(bytes).find(
                "corrupt bundle: a source location names no file at byte "),
            0u)
      << readError(bytes);

  // Locations for two programs, one in the code.
  Bundle two = makeLocatedBundle();
  two.sources.programs.push_back(two.sources.programs[0]);
  EXPECT_EQ(readError(writeBundle(two)),
            "corrupt bundle: source locations for 2 programs, the bundle "
            "has 1");

  // The first line, 10, becomes 2^35 - 1 (five bytes of ULEB128): the
  // section and the payload grow by four bytes.
  bytes = good;
  size_t line = firstFile + 1;
  bytes[line] = 0xff;
  bytes.insert(bytes.begin() + line + 1, {0xff, 0xff, 0xff, 0x7f});
  addToFixed64(bytes, body - 8, 4);
  addToFixed64(bytes, 16, 4);
  fixChecksum(bytes);
  EXPECT_EQ(readError(bytes).find("corrupt bundle: integer out of range"), 0u)
      << readError(bytes);
}

} // namespace
