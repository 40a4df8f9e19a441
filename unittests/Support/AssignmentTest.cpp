//===- AssignmentTest.cpp - NAME=VALUE option text ------------------------===//
//
// This file tests the parser of `--arg`/`--input`/`--output` text: where it
// splits, and the message for each malformed spelling.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Support/Assignment.h"

#include "gtest/gtest.h"

using namespace ktflow;

namespace {

TEST(Assignment, SplitsAtTheFirstEquals) {
  llvm::Expected<Assignment> plain = parseAssignment("n_rows=64", "arg");
  ASSERT_TRUE(static_cast<bool>(plain));
  EXPECT_EQ(plain->name, "n_rows");
  EXPECT_EQ(plain->value, "64");
  llvm::Expected<Assignment> nested = parseAssignment("@8=a=b.npy", "output");
  ASSERT_TRUE(static_cast<bool>(nested));
  EXPECT_EQ(nested->name, "@8");
  EXPECT_EQ(nested->value, "a=b.npy");
}

TEST(Assignment, NameAndValueMustBothBeThere) {
  for (const char *text : {"x", "x=", "=1", "="}) {
    llvm::Expected<Assignment> parsed = parseAssignment(text, "input");
    ASSERT_FALSE(static_cast<bool>(parsed)) << text;
    EXPECT_EQ(llvm::toString(parsed.takeError()),
              "--input expects NAME=VALUE, got '" + std::string(text) + "'");
  }
}

} // namespace
