//===- TensorExtentTest.cpp - The shared definition of tensor extents -----===//
//
// Tests ktflow/Analysis/TensorExtent.h, the extent and shape of a tensor
// that the interpreter and the compiler both compute from the footprints of
// the views at its start address.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Analysis/TensorExtent.h"

#include <gtest/gtest.h>

using namespace ktflow;

static ViewFootprint footprint(int64_t offset, llvm::ArrayRef<int64_t> sizes,
                               llvm::ArrayRef<int64_t> strides) {
  ViewFootprint fp;
  fp.offset = offset;
  fp.sizes.assign(sizes.begin(), sizes.end());
  fp.strides.assign(strides.begin(), strides.end());
  return fp;
}

static TensorExtent extentOf(llvm::ArrayRef<ViewFootprint> fps) {
  std::string message;
  mlir::FailureOr<TensorExtent> extent = computeTensorExtent(fps, message);
  EXPECT_TRUE(mlir::succeeded(extent)) << message;
  return succeeded(extent) ? *extent : TensorExtent();
}

TEST(TensorExtentTest, LargestRowMajorViewGivesTheShape) {
  TensorExtent e = extentOf({footprint(0, {96, 64}, {64, 1}),
                             footprint(0, {128, 64}, {64, 1}),
                             footprint(64, {3, 64}, {64, 1})});
  EXPECT_EQ(e.numElements, 128 * 64);
  EXPECT_EQ(e.shape, (llvm::SmallVector<int64_t, 4>{128, 64}));
}

TEST(TensorExtentTest, ViewsPastTheRowMajorOneMakeItFlat) {
  // A 1-row view at row 96 reaches past the 96x64 view: 97 * 64 elements.
  TensorExtent e = extentOf(
      {footprint(0, {96, 64}, {64, 1}), footprint(96 * 64, {1, 64}, {64, 1})});
  EXPECT_EQ(e.numElements, 97 * 64);
  EXPECT_EQ(e.shape, (llvm::SmallVector<int64_t, 4>{97 * 64}));
}

TEST(TensorExtentTest, StridesNotSetsDeclareMemory) {
  // Padded rows and a transposed (column-major) view.
  EXPECT_EQ(extentOf({footprint(0, {96, 64}, {72, 1})}).shape,
            (llvm::SmallVector<int64_t, 4>{95 * 72 + 64}));
  TensorExtent t = extentOf({footprint(0, {64, 32}, {1, 64})});
  EXPECT_EQ(t.numElements, 32 * 64);
  EXPECT_EQ(t.shape, (llvm::SmallVector<int64_t, 4>{2048}));
  // Dimensions of one element have no stride to speak of.
  EXPECT_EQ(extentOf({footprint(0, {1, 64}, {4096, 1})}).shape,
            (llvm::SmallVector<int64_t, 4>{1, 64}));
}

TEST(TensorExtentTest, EmptyViews) {
  TensorExtent e = extentOf({footprint(0, {0, 64}, {64, 1})});
  EXPECT_EQ(e.numElements, 0);
  EXPECT_EQ(e.shape, (llvm::SmallVector<int64_t, 4>{0, 64}));
}

TEST(TensorExtentTest, ErrorsBeforeTheStartAndPastTheRange) {
  std::string message;
  TensorExtentBuilder builder;
  EXPECT_FALSE(builder.add(footprint(10, {16}, {-1}), message));
  EXPECT_EQ(message, "the view declares element -5, before the start of its "
                     "tensor");
  EXPECT_FALSE(builder.add(
      footprint(0, {int64_t(1) << 40, int64_t(1) << 30}, {int64_t(1) << 30, 1}),
      message));
  EXPECT_EQ(message, "the view declares elements past 2^62");
}

TEST(TensorExtentTest, MergeShiftsFootprints) {
  std::string message;
  TensorExtentBuilder a, b;
  ASSERT_TRUE(a.add(footprint(0, {4, 8}, {8, 1}), message));
  ASSERT_TRUE(b.add(footprint(0, {2, 8}, {8, 1}), message));
  a.merge(b, 32);
  EXPECT_EQ(a.get().numElements, 48);
  EXPECT_EQ(a.get().shape, (llvm::SmallVector<int64_t, 4>{48}));
  TensorExtentBuilder c;
  c.merge(a, 0);
  EXPECT_EQ(c.get().numElements, 48);
}
