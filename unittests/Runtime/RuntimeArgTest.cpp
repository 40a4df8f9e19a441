//===- RuntimeArgTest.cpp - Tests of binding runtime arguments ------------===//
//
// This file tests Launch::setRuntimeArg's rule for the two kinds of launch
// scalars a bundle lists: a `!ktdp.runtime_arg` (lowerbound 1) must be a
// positive multiple of its granularity up to its upperbound, while a plain
// scalar argument takes any value of its type, negative ones included.
//
//===----------------------------------------------------------------------===//

#include "../Bundle/TestBundle.h"

#include "ktflow/Runtime/Runtime.h"

#include "gtest/gtest.h"

#include <limits>

using namespace ktflow;
using namespace ktflow::bundle;
using namespace ktflow::bundle::test;
using namespace ktflow::rt;

namespace {

/// makeBundle's runtime_arg `n` (granularity 64, upperbound 2048) and a
/// plain i32 scalar `start`.
Program loadProgram() {
  Bundle b = makeBundle();
  RuntimeArg start;
  start.name = "start";
  start.lowerbound = std::numeric_limits<int32_t>::min();
  start.upperbound = std::numeric_limits<int32_t>::max();
  b.runtimeArgs.push_back(start);
  auto program = Program::loadBytes(writeBundle(b));
  EXPECT_TRUE(static_cast<bool>(program))
      << llvm::toString(program.takeError());
  return std::move(*program);
}

/// The error message of binding `name` to `value`, or "" when it binds.
std::string bind(const Program &program, llvm::StringRef name, int64_t value) {
  Launch launch(program);
  llvm::Error error = launch.setRuntimeArg(name, value);
  return error ? llvm::toString(std::move(error)) : std::string();
}

TEST(RuntimeArgTest, RuntimeArgIsAPositiveMultipleUpToItsBound) {
  Program program = loadProgram();
  EXPECT_EQ(bind(program, "n", 64), "");
  EXPECT_EQ(bind(program, "n", 2048), "");
  EXPECT_NE(bind(program, "n", 0), "");
  EXPECT_NE(bind(program, "n", -64), "");
  EXPECT_NE(bind(program, "n", 100), "");
  EXPECT_NE(bind(program, "n", 2048 + 64), "");
}

TEST(RuntimeArgTest, PlainScalarTakesAnyValueOfItsType) {
  Program program = loadProgram();
  EXPECT_EQ(bind(program, "start", -16), "");
  EXPECT_EQ(bind(program, "start", 0), "");
  EXPECT_EQ(bind(program, "start", 7), "");
  EXPECT_EQ(bind(program, "start", std::numeric_limits<int32_t>::min()), "");
  EXPECT_EQ(bind(program, "start", std::numeric_limits<int32_t>::max()), "");
  std::string outside =
      bind(program, "start", int64_t(std::numeric_limits<int32_t>::max()) + 1);
  EXPECT_NE(outside.find("outside its range [-2147483648, 2147483647]"),
            std::string::npos)
      << outside;
  EXPECT_NE(
      bind(program, "start", int64_t(std::numeric_limits<int32_t>::min()) - 1),
      "");
}

} // namespace
