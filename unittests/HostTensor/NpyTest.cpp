//===- NpyTest.cpp - .npy reader and writer -------------------------------===//
//
// This file tests the .npy reader and writer: round trips of every dtype
// with v1 and v2 headers, a byte-exact header as numpy writes it, and the
// rejection of malformed files.
//
//===----------------------------------------------------------------------===//

#include "ktflow/HostTensor/Npy.h"

#include "llvm/Support/FileSystem.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace ktflow::host;

namespace {

Tensor sample(DType dtype) {
  Tensor t = Tensor::zeros(dtype, {2, 3});
  for (int64_t i = 0; i < 6; ++i) {
    if (isFloat(dtype))
      t.floats[i] = roundToDType(-1.25 + 0.7 * i, dtype);
    else
      t.ints[i] = wrapInt(i * 37 - 100, dtype);
  }
  return t;
}

TEST(Npy, RoundTripEveryDType) {
  for (DType dtype :
       {DType::I1, DType::I8, DType::I16, DType::I32, DType::I64, DType::Index,
        DType::F16, DType::BF16, DType::DF16, DType::F32, DType::F64}) {
    for (unsigned version : {1u, 2u}) {
      Tensor t = sample(dtype);
      std::string bytes = serializeNpy(t, version);
      EXPECT_EQ(static_cast<unsigned>(bytes[6]), version);
      llvm::Expected<Tensor> back = parseNpy(bytes);
      ASSERT_TRUE(static_cast<bool>(back)) << llvm::toString(back.takeError());
      EXPECT_EQ(back->dtype, npyStorageType(dtype)) << dtypeName(dtype).str();
      EXPECT_EQ(back->shape, t.shape);
      for (int64_t i = 0; i < 6; ++i)
        EXPECT_EQ(back->getDouble(i), t.getDouble(i))
            << dtypeName(dtype).str() << " element " << i;
    }
  }
}

TEST(Npy, HeaderIsWhatNumpyWrites) {
  Tensor t = Tensor::zeros(DType::F32, {3});
  t.floats = {1.0, 2.0, 3.0};
  std::string bytes = serializeNpy(t);
  ASSERT_EQ(bytes.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  size_t headerLen = static_cast<unsigned char>(bytes[8]) |
                     (static_cast<unsigned char>(bytes[9]) << 8);
  std::string header = bytes.substr(10, headerLen);
  EXPECT_EQ(header.rfind("{'descr': '<f4', 'fortran_order': False, "
                         "'shape': (3,), }",
                         0),
            0u);
  EXPECT_EQ(header.back(), '\n');
  EXPECT_EQ((10 + headerLen) % 64, 0u);
  EXPECT_EQ(bytes.size(), 10 + headerLen + 12);
  // 1.0f little-endian.
  EXPECT_EQ(bytes.substr(10 + headerLen, 4), std::string("\0\0\x80\x3f", 4));
}

TEST(Npy, ReadsHandWrittenHeaders) {
  auto make = [](const std::string &dict, const std::string &payload,
                 unsigned major = 1) {
    std::string out("\x93NUMPY", 6);
    out.push_back(static_cast<char>(major));
    out.push_back(0);
    std::string header = dict + "\n";
    size_t len = header.size();
    out.push_back(static_cast<char>(len & 0xff));
    out.push_back(static_cast<char>((len >> 8) & 0xff));
    if (major != 1) {
      out.push_back(0);
      out.push_back(0);
    }
    return out + header + payload;
  };
  // Scalar (shape ()), keys in another order, double quotes, v3.
  llvm::Expected<Tensor> scalar =
      parseNpy(make("{\"shape\": (), \"fortran_order\": False, "
                    "\"descr\": \"<i4\"}",
                    std::string("\x05\0\0\0", 4), 3));
  ASSERT_TRUE(static_cast<bool>(scalar)) << llvm::toString(scalar.takeError());
  EXPECT_EQ(scalar->shape.size(), 0u);
  EXPECT_EQ(scalar->ints[0], 5);
  // Bools are any non-zero byte.
  llvm::Expected<Tensor> bools =
      parseNpy(make("{'descr': '|b1', 'fortran_order': False, 'shape': (2,), }",
                    std::string("\x00\x07", 2)));
  ASSERT_TRUE(static_cast<bool>(bools));
  EXPECT_EQ(bools->ints[1], 1);
  // Empty arrays.
  llvm::Expected<Tensor> empty = parseNpy(
      make("{'descr': '<f8', 'fortran_order': False, 'shape': (0, 4), }", ""));
  ASSERT_TRUE(static_cast<bool>(empty));
  EXPECT_EQ(empty->numElements(), 0);

  auto rejects = [&](const std::string &bytes, llvm::StringRef needle) {
    llvm::Expected<Tensor> t = parseNpy(bytes);
    ASSERT_FALSE(static_cast<bool>(t));
    std::string message = llvm::toString(t.takeError());
    EXPECT_NE(message.find(needle.str()), std::string::npos) << message;
  };
  const std::string ok = "{'descr': '<f4', 'fortran_order': False, "
                         "'shape': (2,), }";
  const std::string eight(8, '\0');
  rejects("NUMPY" + eight, "magic");
  rejects(make(ok, eight, 9), "version");
  rejects(make(ok, eight.substr(0, 7)), "payload has 7 bytes");
  rejects(
      make("{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", eight),
      "unsupported dtype");
  rejects(
      make("{'descr': '<u2', 'fortran_order': False, 'shape': (2,), }", eight),
      "unsupported dtype");
  rejects(
      make("{'descr': '<f4', 'fortran_order': True, 'shape': (2,), }", eight),
      "Fortran");
  rejects(make("{'descr': '<f4', 'shape': (2,), }", eight), "must have");
  rejects(
      make("{'descr': '<f4', 'fortran_order': False, 'shape': (-2,), }", eight),
      "non-negative");
  rejects(make("{'descr': [('a', '<f4')], 'fortran_order': False, "
               "'shape': (2,), }",
               eight),
          "structured");
  rejects(make("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), "
               "'extra': 1}",
               eight),
          "unexpected header key");
  rejects(make("['descr']", eight), "dict");
  std::string truncated = make(ok, eight).substr(0, 20);
  rejects(truncated, "truncated header");
}

TEST(Npy, FileRoundTrip) {
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("npytest", "npy", path));
  Tensor t = sample(DType::F16);
  ASSERT_FALSE(static_cast<bool>(writeNpyFile(path, t)));
  llvm::Expected<Tensor> back = readNpyFile(path);
  ASSERT_TRUE(static_cast<bool>(back));
  EXPECT_EQ(back->floats, t.floats);
  llvm::sys::fs::remove(path);
  llvm::Expected<Tensor> missing = readNpyFile(path);
  ASSERT_FALSE(static_cast<bool>(missing));
  EXPECT_NE(llvm::toString(missing.takeError()).find("cannot read"),
            std::string::npos);
}

} // namespace
