//===- BufferPoolTest.cpp - Element buffers reused across ops and runs ----===//
//
// This file tests the interpreter's buffer pool: a buffer given back is the
// next request's storage, handed out zero-filled whatever it held; a
// pooled tensor's storage goes back when its last reference goes; a copy
// holds the source's elements; too small a buffer is never handed out.
//
//===----------------------------------------------------------------------===//

#include "BufferPool.h"

#include "gtest/gtest.h"

using namespace ktflow::interp;

namespace {

TEST(BufferPool, GivenBufferComesBackZeroFilled) {
  clearBufferPool(); // other tests' kernels fill it
  std::vector<double> a = takeZeroFloats(1000);
  std::fill(a.begin(), a.end(), 7.5);
  const double *storage = a.data();
  giveBuffer(a);
  EXPECT_TRUE(a.empty());
  std::vector<double> b = takeZeroFloats(900);
  EXPECT_EQ(b.data(), storage);
  EXPECT_EQ(b, std::vector<double>(900, 0.0));
  giveBuffer(b);
}

TEST(BufferPool, TooSmallOrTooLargeBuffersAreNotHandedOut) {
  clearBufferPool(); // other tests' kernels fill it
  std::vector<int64_t> a = takeZeroInts(100);
  const int64_t *storage = a.data();
  giveBuffer(a);
  std::vector<int64_t> bigger = takeZeroInts(101);
  EXPECT_NE(bigger.data(), storage);
  EXPECT_EQ(bigger, std::vector<int64_t>(101, 0));
  // Half of the pooled buffer would go unused: a fresh one instead.
  std::vector<int64_t> smaller = takeZeroInts(40);
  EXPECT_NE(smaller.data(), storage);
  std::vector<int64_t> fits = takeZeroInts(60);
  EXPECT_EQ(fits.data(), storage);
  for (std::vector<int64_t> *v : {&bigger, &smaller, &fits})
    giveBuffer(*v);
}

TEST(BufferPool, TensorStorageReturnsWithItsLastReference) {
  clearBufferPool(); // other tests' kernels fill it
  const double *storage;
  {
    std::shared_ptr<Tensor> t = makeZeroTensor(DType::F32, {16, 32});
    EXPECT_EQ(t->floats, std::vector<double>(512, 0.0));
    EXPECT_TRUE(t->ints.empty());
    EXPECT_EQ(t->shape, (llvm::SmallVector<int64_t, 4>{16, 32}));
    std::fill(t->floats.begin(), t->floats.end(), -3.0);
    storage = t->floats.data();
  }
  std::shared_ptr<Tensor> u = makeZeroTensor(DType::BF16, {512});
  EXPECT_EQ(u->floats.data(), storage);
  EXPECT_EQ(u->floats, std::vector<double>(512, 0.0));
  EXPECT_EQ(u->dtype, DType::BF16);
}

TEST(BufferPool, CopyHoldsTheSourceElements) {
  Tensor source = Tensor::zeros(DType::I16, {3, 7});
  for (size_t i = 0; i < source.ints.size(); ++i)
    source.ints[i] = static_cast<int64_t>(i) - 10;
  std::shared_ptr<Tensor> copy = makeTensorCopy(source);
  EXPECT_EQ(copy->dtype, source.dtype);
  EXPECT_EQ(copy->shape, source.shape);
  EXPECT_EQ(copy->ints, source.ints);
  EXPECT_TRUE(copy->floats.empty());
}

} // namespace
