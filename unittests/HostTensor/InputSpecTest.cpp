//===- InputSpecTest.cpp - Parsing --input specs --------------------------===//
//
// This file tests the parser every command's `--input NAME=SPEC` goes
// through: each accepted form and its fields, the bounds of range and seq,
// reading a .npy file, and the message of each malformed spec.
//
//===----------------------------------------------------------------------===//

#include "ktflow/HostTensor/InputSpec.h"
#include "ktflow/HostTensor/Npy.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>

using namespace ktflow::host;

namespace {

InputSpec parsed(llvm::StringRef text) {
  llvm::Expected<InputSpec> spec = InputSpec::parse(text);
  if (!spec) {
    ADD_FAILURE() << text.str() << ": " << llvm::toString(spec.takeError());
    return {};
  }
  return *spec;
}

std::string errorOf(llvm::StringRef text) {
  llvm::Expected<InputSpec> spec = InputSpec::parse(text);
  if (spec)
    return "(accepted)";
  return llvm::toString(spec.takeError());
}

TEST(InputSpec, GeneratorsAndConstants) {
  EXPECT_EQ(parsed("random").kind, InputSpec::Kind::Uniform);
  EXPECT_EQ(parsed("randn").kind, InputSpec::Kind::Normal);
  EXPECT_EQ(parsed("zeros").kind, InputSpec::Kind::Zeros);
  InputSpec value = parsed("value:-2.5e3");
  EXPECT_EQ(value.kind, InputSpec::Kind::Value);
  EXPECT_EQ(value.value, -2500.0);
  EXPECT_EQ(InputSpec().kind, InputSpec::Kind::Default);
  EXPECT_EQ(InputSpec::zeros().kind, InputSpec::Kind::Zeros);
}

TEST(InputSpec, RangeAndSequenceTakeAnyInt64Bounds) {
  InputSpec range = parsed("range:-3:7");
  EXPECT_EQ(range.kind, InputSpec::Kind::Range);
  EXPECT_EQ(range.lo, -3);
  EXPECT_EQ(range.hi, 7);
  InputSpec seq = parsed("seq:-9223372036854775808:9223372036854775807");
  EXPECT_EQ(seq.kind, InputSpec::Kind::Sequence);
  EXPECT_EQ(seq.lo, std::numeric_limits<int64_t>::min());
  EXPECT_EQ(seq.hi, std::numeric_limits<int64_t>::max());
}

TEST(InputSpec, MalformedSpecsSayWhatIsExpected) {
  EXPECT_EQ(errorOf("range:5:5"), "invalid 'range:5:5' (expected range:LO:HI "
                                  "with LO < HI, both 64-bit integers)");
  EXPECT_EQ(errorOf("seq:1"), "invalid 'seq:1' (expected seq:LO:HI with LO < "
                              "HI, both 64-bit integers)");
  EXPECT_EQ(errorOf("range:0:9223372036854775808"),
            "invalid 'range:0:9223372036854775808' (expected range:LO:HI "
            "with LO < HI, both 64-bit integers)");
  EXPECT_EQ(errorOf("value:"), "invalid value in 'value:'");
  EXPECT_EQ(errorOf("value:one"), "invalid value in 'value:one'");
  EXPECT_EQ(errorOf("ones"),
            "invalid input 'ones' (expected FILE.npy, random, randn, zeros, "
            "value:V, range:LO:HI or seq:LO:HI)");
}

TEST(InputSpec, NpyFileGivesItsData) {
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("inputspec", "npy", path));
  Tensor written = Tensor::zeros(DType::I16, {2, 2});
  written.ints = {1, -2, 3, -4};
  ASSERT_FALSE(static_cast<bool>(writeNpyFile(path, written)));
  InputSpec spec = parsed(path);
  llvm::sys::fs::remove(path);
  ASSERT_EQ(spec.kind, InputSpec::Kind::Data);
  ASSERT_TRUE(spec.data);
  EXPECT_EQ(spec.data->dtype(), DType::I16);
  EXPECT_EQ(spec.data->shape(), llvm::ArrayRef<int64_t>(written.shape));
  EXPECT_EQ(spec.data->tensor().ints, written.ints);
  // The file's bits, as they are.
  const NativeTensor &native = spec.data->native();
  ASSERT_EQ(native.numElements(), 4);
  EXPECT_EQ(native.getBits(1), 0xfffeu);
  EXPECT_EQ(native.getDouble(3), -4.0);

  std::string missing = (path + ".gone.npy").str();
  EXPECT_NE(errorOf(missing).find("cannot read '" + missing + "'"),
            std::string::npos)
      << errorOf(missing);
}

TEST(InputSpec, FromTensorHoldsTheTensor) {
  Tensor t = Tensor::zeros(DType::F32, {3});
  t.floats = {0.5, 1.5, 2.5};
  InputSpec spec = InputSpec::fromTensor(t);
  EXPECT_EQ(spec.kind, InputSpec::Kind::Data);
  EXPECT_EQ(spec.data->tensor().floats, t.floats);
  EXPECT_EQ(spec.data->native().getBits(2), 0x40200000u); // 2.5f
}

TEST(InputSpec, RoundsToItselfOnlyWhereRoundingChangesNothing) {
  // Values of f16, the specials included: rounding them to f16 keeps
  // their bits; to another type it is not checked (false).
  Tensor t = Tensor::zeros(DType::F16, {6000});
  double specials[] = {0.5,
                       -0.0,
                       std::numeric_limits<double>::quiet_NaN(),
                       65504.0,
                       -std::numeric_limits<double>::infinity(),
                       std::ldexp(1.0, -24)};
  for (size_t i = 0; i < t.floats.size(); ++i)
    t.floats[i] = specials[i % 6];
  InputData exact(t);
  EXPECT_TRUE(exact.roundsToItself(DType::F16));
  EXPECT_FALSE(exact.roundsToItself(DType::F32));
  EXPECT_FALSE(exact.roundsToItself(DType::BF16));
  // One value that f16 does not hold, past the first 4096 elements the
  // check reads at a time: the whole data is checked.
  t.floats[5000] = 0.1;
  EXPECT_FALSE(InputData(t).roundsToItself(DType::F16));
  // Integers are never rounded.
  EXPECT_FALSE(
      InputData(Tensor::zeros(DType::I32, {4})).roundsToItself(DType::I32));
}

} // namespace
