//===- AffineEvalTest.cpp - Integer-set bounds and affine evaluation ------===//
//
// This file tests the interpreter's precompiled affine forms: box bounds
// computed straight from single-dimension constraints (with symbols,
// equalities, negative coefficients, empty sets), the Presburger fallback
// for non-box sets, and linear/non-linear expression evaluation.
//
//===----------------------------------------------------------------------===//

#include "AffineEval.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace ktflow::interp;

namespace {

class AffineEvalTest : public ::testing::Test {
protected:
  IntegerSet set(StringRef text) {
    return parseIntegerSet(text, &context);
  }
  AffineMap map(StringRef text) {
    return cast<AffineMapAttr>(parseAttribute(text, &context)).getValue();
  }
  MLIRContext context;
};

TEST_F(AffineEvalTest, BoxBoundsFromConstraints) {
  SetPlan plan(set("(d0, d1)[s0] : (d0 - 2 >= 0, s0 - d0 - 1 >= 0, "
                   "d1 >= 0, -2 * d1 + 9 >= 0)"));
  ASSERT_TRUE(plan.isBox());
  FailureOr<ktdp::IntegerBox> box = plan.bounds({10});
  ASSERT_TRUE(succeeded(box));
  EXPECT_EQ(box->lower, (SmallVector<int64_t>{2, 0}));
  // -2 d1 + 9 >= 0  =>  d1 <= floor(9 / 2) = 4.
  EXPECT_EQ(box->upper, (SmallVector<int64_t>{9, 4}));
  EXPECT_EQ(box->getExtents(), (SmallVector<int64_t>{8, 5}));
}

TEST_F(AffineEvalTest, EqualitiesAndEmptySets) {
  SetPlan fixed(set("(d0, d1) : (d0 - 3 == 0, d1 >= 0, -d1 + 1 >= 0)"));
  FailureOr<ktdp::IntegerBox> box = fixed.bounds({});
  ASSERT_TRUE(succeeded(box));
  EXPECT_EQ(box->lower[0], 3);
  EXPECT_EQ(box->upper[0], 3);
  // 2 d0 == 3 has no integer solution.
  SetPlan noSolution(set("(d0) : (2 * d0 - 3 == 0)"));
  box = noSolution.bounds({});
  ASSERT_TRUE(succeeded(box));
  EXPECT_TRUE(box->isEmpty());
  // A symbol-only constraint that fails empties the set.
  SetPlan guarded(set("(d0)[s0] : (d0 >= 0, -d0 + 7 >= 0, s0 - 5 >= 0)"));
  box = guarded.bounds({4});
  ASSERT_TRUE(succeeded(box));
  EXPECT_TRUE(box->isEmpty());
  box = guarded.bounds({5});
  ASSERT_TRUE(succeeded(box));
  EXPECT_FALSE(box->isEmpty());
}

TEST_F(AffineEvalTest, UnboundedAndWrongSymbolCount) {
  SetPlan open(set("(d0) : (d0 >= 0)"));
  EXPECT_TRUE(failed(open.bounds({})));
  SetPlan symbolic(set("(d0)[s0] : (d0 >= 0, s0 - d0 >= 0)"));
  EXPECT_TRUE(failed(symbolic.bounds({})));
}

TEST_F(AffineEvalTest, NonBoxSetsUseTheBoundingBox) {
  // Triangle: 0 <= d1 <= d0 <= 5 couples two dims.
  SetPlan triangle(set("(d0, d1) : (d0 >= 0, -d0 + 5 >= 0, d1 >= 0, "
                       "d0 - d1 >= 0)"));
  EXPECT_FALSE(triangle.isBox());
  FailureOr<ktdp::IntegerBox> box = triangle.bounds({});
  ASSERT_TRUE(succeeded(box));
  EXPECT_EQ(box->upper, (SmallVector<int64_t>{5, 5}));
  EXPECT_TRUE(triangle.contains({4, 2}, {}));
  EXPECT_FALSE(triangle.contains({2, 4}, {}));
  // A stride constraint uses one dim but is not an interval.
  SetPlan even(set("(d0) : (d0 >= 0, -d0 + 7 >= 0, d0 mod 2 == 0)"));
  EXPECT_FALSE(even.isBox());
  EXPECT_TRUE(even.contains({6}, {}));
  EXPECT_FALSE(even.contains({5}, {}));
}

TEST_F(AffineEvalTest, CompiledExpressions) {
  AffineMap m = map("affine_map<(d0, d1)[s0] -> (3 * d0 - d1 + s0 + 2, "
                    "d0 floordiv 4, d1 mod 3)>");
  CompiledExpr linear = CompiledExpr::compile(m.getResult(0), 2);
  ASSERT_TRUE(linear.linear);
  EXPECT_EQ(linear.coeffs, (SmallVector<int64_t, 4>{3, -1}));
  EXPECT_EQ(linear.eval({5, 7}, {10}), 3 * 5 - 7 + 10 + 2);
  CompiledExpr floorDiv = CompiledExpr::compile(m.getResult(1), 2);
  EXPECT_FALSE(floorDiv.linear);
  EXPECT_EQ(floorDiv.eval({-1, 0}, {0}), -1); // floor, not truncation
  CompiledExpr mod = CompiledExpr::compile(m.getResult(2), 2);
  EXPECT_EQ(mod.eval({0, -1}, {0}), 2);       // non-negative remainder
}

TEST_F(AffineEvalTest, OrderPermutations) {
  FailureOr<SmallVector<unsigned, 4>> perm =
      getOrderPermutation(map("affine_map<(d0, d1, d2) -> (d2, d0, d1)>"));
  ASSERT_TRUE(succeeded(perm));
  EXPECT_EQ(*perm, (SmallVector<unsigned, 4>{2, 0, 1}));
  EXPECT_TRUE(failed(
      getOrderPermutation(map("affine_map<(d0, d1) -> (d0, d0)>"))));
  EXPECT_TRUE(failed(
      getOrderPermutation(map("affine_map<(d0, d1) -> (d0 + d1, d1)>"))));
}

} // namespace
