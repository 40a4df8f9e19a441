//===- IntegerSetAnalysisTest.cpp - Bounds and points of integer sets -----===//
//
// This file tests the integer-set helpers of the ktdp utilities: affine
// evaluation of floordiv/ceildiv/mod on negative values against a
// definition by search, box detection, bounding boxes of non-box sets,
// enumeration order and counts against brute force, and symbol-free
// extents.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::ktdp;

namespace {

class IntegerSetAnalysisTest : public ::testing::Test {
protected:
  IntegerSet set(StringRef text) {
    auto attr =
        llvm::dyn_cast_or_null<IntegerSetAttr>(parseAttribute(text, &context));
    EXPECT_TRUE(attr) << "not an integer set: " << text.str();
    return attr ? attr.getValue() : IntegerSet();
  }
  AffineExpr d(unsigned i) { return getAffineDimExpr(i, &context); }
  AffineExpr s(unsigned i) { return getAffineSymbolExpr(i, &context); }
  AffineExpr c(int64_t v) { return getAffineConstantExpr(v, &context); }

  MLIRContext context;
};

// Definitions by search, independent of any division operator.
int64_t floorDivBySearch(int64_t a, int64_t b) {
  int64_t q = -1000;
  while ((q + 1) * b <= a)
    ++q;
  return q;
}
int64_t ceilDivBySearch(int64_t a, int64_t b) {
  int64_t q = 1000;
  while ((q - 1) * b >= a)
    --q;
  return q;
}

TEST_F(IntegerSetAnalysisTest, DivisionOfNegativesMatchesDefinition) {
  for (int64_t a = -25; a <= 25; ++a) {
    for (int64_t b = 1; b <= 7; ++b) {
      SCOPED_TRACE("a = " + std::to_string(a) + ", b = " + std::to_string(b));
      int64_t q = floorDivBySearch(a, b);
      EXPECT_EQ(evaluateAffineExpr(d(0).floorDiv(b), {a}, {}), q);
      EXPECT_EQ(evaluateAffineExpr(d(0).ceilDiv(b), {a}, {}),
                ceilDivBySearch(a, b));
      // The remainder is never negative: a = b * floor(a / b) + (a mod b).
      EXPECT_EQ(evaluateAffineExpr(d(0) % b, {a}, {}), a - b * q);
    }
  }
}

TEST_F(IntegerSetAnalysisTest, HandPickedNegatives) {
  EXPECT_EQ(evaluateAffineExpr(d(0).floorDiv(2), {-7}, {}), -4);
  EXPECT_EQ(evaluateAffineExpr(d(0).ceilDiv(2), {-7}, {}), -3);
  EXPECT_EQ(evaluateAffineExpr(d(0) % 2, {-7}, {}), 1);
  EXPECT_EQ(evaluateAffineExpr(d(0) % 64, {-1}, {}), 63);
  EXPECT_EQ(evaluateAffineExpr(d(0).floorDiv(64), {-1}, {}), -1);
  EXPECT_EQ(evaluateAffineExpr(d(0).floorDiv(64), {-64}, {}), -1);
  EXPECT_EQ(evaluateAffineExpr(d(0).floorDiv(64), {-65}, {}), -2);
}

TEST_F(IntegerSetAnalysisTest, CompoundExpressionsAndSymbols) {
  // (d0 * 3 + s0) mod 5 - d1 floordiv 2 at d = (4, -3), s = (2).
  AffineExpr e = (d(0) * 3 + s(0)) % 5 - d(1).floorDiv(2);
  EXPECT_EQ(evaluateAffineExpr(e, {4, -3}, {2}), ((4 * 3 + 2) % 5) - (-2));
  // Semi-affine: divisor taken from a symbol.
  EXPECT_EQ(evaluateAffineExpr(d(0).floorDiv(s(0)), {-9}, {4}), -3);
  EXPECT_EQ(evaluateAffineExpr(d(0) % s(0), {-9}, {4}), 3);
}

TEST_F(IntegerSetAnalysisTest, UndefinedEvaluations) {
  EXPECT_EQ(evaluateAffineExpr(d(0).floorDiv(s(0)), {5}, {0}), std::nullopt);
  EXPECT_EQ(evaluateAffineExpr(d(0).ceilDiv(s(0)), {5}, {0}), std::nullopt);
  EXPECT_EQ(evaluateAffineExpr(d(0) % s(0), {5}, {0}), std::nullopt);
  EXPECT_EQ(evaluateAffineExpr(d(2), {1, 2}, {}), std::nullopt);
  EXPECT_EQ(evaluateAffineExpr(s(0), {1}, {}), std::nullopt);
  EXPECT_EQ(evaluateAffineExpr(c(-12), {}, {}), -12);
}

// Past 64 bits there is no value (these were signed overflows, and
// INT64_MIN floordiv -1 a SIGFPE); at the edges the exact one.
TEST_F(IntegerSetAnalysisTest, OverflowHasNoValue) {
  const int64_t max = INT64_MAX, min = INT64_MIN;
  EXPECT_EQ(evaluateAffineExpr(d(0) + s(0), {max}, {1}), std::nullopt);
  EXPECT_EQ(evaluateAffineExpr(d(0) * 4, {int64_t(1) << 62}, {}), std::nullopt);
  EXPECT_EQ(evaluateAffineExpr(d(0) * s(0), {min}, {-1}), std::nullopt);
  EXPECT_EQ(evaluateAffineExpr(d(0).floorDiv(s(0)), {min}, {-1}), std::nullopt);
  EXPECT_EQ(evaluateAffineExpr(d(0).ceilDiv(s(0)), {min}, {-1}), std::nullopt);
  EXPECT_EQ(evaluateAffineExpr(d(0) % s(0), {min}, {-1}), 0);
  EXPECT_EQ(evaluateAffineExpr(d(0) % s(0), {-5}, {min}), max - 4);
  EXPECT_EQ(evaluateAffineExpr(d(0) % s(0), {min}, {min}), 0);
  EXPECT_EQ(evaluateAffineExpr(d(0).ceilDiv(s(0)), {min}, {2}), min / 2);
  EXPECT_EQ(evaluateAffineExpr(d(0).floorDiv(s(0)), {min}, {max}), -2);
  EXPECT_EQ(evaluateAffineExpr(d(0).ceilDiv(s(0)), {min + 1}, {-1}), max);
  EXPECT_EQ(evaluateAffineExpr(d(0) + s(0), {max}, {min}), -1);
}

TEST_F(IntegerSetAnalysisTest, ContainsPoint) {
  IntegerSet tri = set("affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, "
                       "d1 >= 0, d0 - d1 >= 0)>");
  EXPECT_TRUE(containsPoint(tri, {0, 0}, {}));
  EXPECT_TRUE(containsPoint(tri, {7, 7}, {}));
  EXPECT_TRUE(containsPoint(tri, {5, 2}, {}));
  EXPECT_FALSE(containsPoint(tri, {2, 5}, {}));
  EXPECT_FALSE(containsPoint(tri, {8, 0}, {}));
  EXPECT_FALSE(containsPoint(tri, {-1, -1}, {}));

  IntegerSet eq = set("affine_set<(d0)[s0] : (d0 - s0 * 2 == 0)>");
  EXPECT_TRUE(containsPoint(eq, {6}, {3}));
  EXPECT_FALSE(containsPoint(eq, {7}, {3}));

  IntegerSet mod = set("affine_set<(d0) : (d0 mod 4 == 0, d0 >= 0)>");
  EXPECT_TRUE(containsPoint(mod, {8}, {}));
  EXPECT_FALSE(containsPoint(mod, {-4}, {}));
  EXPECT_FALSE(containsPoint(mod, {6}, {}));

  // Undefined constraint values (division by a zero symbol) exclude the
  // point rather than crash.
  IntegerSet semi = set("affine_set<(d0)[s0] : (d0 mod s0 == 0)>");
  EXPECT_FALSE(containsPoint(semi, {3}, {0}));
  // The empty set written as `() : (1 == 0)` excludes everything.
  EXPECT_FALSE(containsPoint(set("affine_set<() : (1 == 0)>"), {}, {}));
  EXPECT_TRUE(containsPoint(set("affine_set<() : (0 == 0)>"), {}, {}));
}

TEST_F(IntegerSetAnalysisTest, IsBoxShaped) {
  EXPECT_TRUE(isBoxShaped(set("affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, "
                              "d1 >= 0, -d1 + 63 >= 0)>")));
  // A symbol bound keeps each constraint on one dimension.
  EXPECT_TRUE(isBoxShaped(
      set("affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 == 0)>")));
  EXPECT_TRUE(isBoxShaped(set("affine_set<(d0) : (d0 mod 2 == 0)>")));
  EXPECT_FALSE(isBoxShaped(set("affine_set<(d0, d1) : (d0 >= 0, "
                               "-d0 + 7 >= 0, d1 >= 0, d0 - d1 >= 0)>")));
  EXPECT_FALSE(
      isBoxShaped(set("affine_set<(d0, d1) : ((d0 + d1) mod 2 == 0)>")));
}

TEST_F(IntegerSetAnalysisTest, BoundingBoxOfBox) {
  FailureOr<IntegerBox> box = getBoundingBox(
      set("affine_set<(d0, d1) : (d0 - 3 >= 0, -d0 + 5 >= 0, d1 == 7)>"), {});
  ASSERT_TRUE(succeeded(box));
  EXPECT_EQ(box->lower, (SmallVector<int64_t>{3, 7}));
  EXPECT_EQ(box->upper, (SmallVector<int64_t>{5, 7}));
  EXPECT_EQ(box->getExtents(), (SmallVector<int64_t>{3, 1}));
  EXPECT_FALSE(box->isEmpty());
}

TEST_F(IntegerSetAnalysisTest, BoundingBoxOfTriangleAndSkew) {
  // 0 <= d1 <= d0 <= 7: the projection bounds d1 by 7 too.
  FailureOr<IntegerBox> tri = getBoundingBox(
      set("affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, "
          "d0 - d1 >= 0)>"),
      {});
  ASSERT_TRUE(succeeded(tri));
  EXPECT_EQ(tri->lower, (SmallVector<int64_t>{0, 0}));
  EXPECT_EQ(tri->upper, (SmallVector<int64_t>{7, 7}));

  // A skewed band: 0 <= d0 <= 3, d0 <= d1 <= d0 + 3 gives d1 in [0, 6].
  FailureOr<IntegerBox> skew = getBoundingBox(
      set("affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 - d0 >= 0, "
          "-d1 + d0 + 3 >= 0)>"),
      {});
  ASSERT_TRUE(succeeded(skew));
  EXPECT_EQ(skew->lower, (SmallVector<int64_t>{0, 0}));
  EXPECT_EQ(skew->upper, (SmallVector<int64_t>{3, 6}));
}

TEST_F(IntegerSetAnalysisTest, BoundingBoxWithSymbols) {
  IntegerSet rows = set("affine_set<(d0, d1)[s0] : (d0 >= 0, "
                        "-d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>");
  FailureOr<IntegerBox> box = getBoundingBox(rows, {10});
  ASSERT_TRUE(succeeded(box));
  EXPECT_EQ(box->upper, (SmallVector<int64_t>{9, 63}));
  // Symbol count must match.
  EXPECT_TRUE(failed(getBoundingBox(rows, {})));
  EXPECT_TRUE(failed(getBoundingBox(rows, {1, 2})));
  // A symbol that empties the set gives an empty box.
  FailureOr<IntegerBox> empty = getBoundingBox(rows, {0});
  ASSERT_TRUE(succeeded(empty));
  EXPECT_TRUE(empty->isEmpty());
  EXPECT_EQ(empty->getExtents()[1], 64);
}

TEST_F(IntegerSetAnalysisTest, UnboundedSetsFail) {
  EXPECT_TRUE(failed(getBoundingBox(set("affine_set<(d0) : (d0 >= 0)>"), {})));
  EXPECT_TRUE(failed(enumerateBoundedPoints(
      set("affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0)>"), {})));
}

/// Brute-force enumeration over a generous box, in lexicographic order.
SmallVector<SmallVector<int64_t>>
bruteForce(IntegerSet set, ArrayRef<int64_t> symbols, int64_t lo, int64_t hi) {
  SmallVector<SmallVector<int64_t>> points;
  SmallVector<int64_t> p(set.getNumDims(), lo);
  while (true) {
    if (containsPoint(set, p, symbols))
      points.push_back(p);
    int d = static_cast<int>(p.size()) - 1;
    for (; d >= 0; --d) {
      if (++p[d] <= hi)
        break;
      p[d] = lo;
    }
    if (d < 0)
      return points;
  }
}

TEST_F(IntegerSetAnalysisTest, EnumerationOrderAndCounts) {
  IntegerSet box = set("affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, "
                       "d1 - 5 >= 0, -d1 + 7 >= 0)>");
  FailureOr<SmallVector<SmallVector<int64_t>>> points =
      enumerateBoundedPoints(box, {});
  ASSERT_TRUE(succeeded(points));
  // Last dimension fastest.
  SmallVector<SmallVector<int64_t>> expected = {{0, 5}, {0, 6}, {0, 7},
                                                {1, 5}, {1, 6}, {1, 7}};
  EXPECT_EQ(*points, expected);

  // Triangle: 8 * 9 / 2 points, same order as brute force.
  IntegerSet tri = set("affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, "
                       "d1 >= 0, d0 - d1 >= 0)>");
  points = enumerateBoundedPoints(tri, {});
  ASSERT_TRUE(succeeded(points));
  EXPECT_EQ(points->size(), 36u);
  EXPECT_EQ(*points, bruteForce(tri, {}, -3, 12));

  // Strided (mod) and skewed sets, with a symbol.
  IntegerSet strided = set("affine_set<(d0, d1)[s0] : (d0 >= 0, "
                           "-d0 + s0 >= 0, d0 mod 3 == 0, d1 - d0 >= 0, "
                           "-d1 + d0 + 1 >= 0)>");
  points = enumerateBoundedPoints(strided, {10});
  ASSERT_TRUE(succeeded(points));
  EXPECT_EQ(points->size(), 8u); // d0 in {0, 3, 6, 9}, two d1 each
  EXPECT_EQ(*points, bruteForce(strided, {10}, -2, 14));

  // Rank 0: the one empty point, or none.
  points = enumerateBoundedPoints(set("affine_set<() : (0 == 0)>"), {});
  ASSERT_TRUE(succeeded(points));
  EXPECT_EQ(points->size(), 1u);
  points = enumerateBoundedPoints(
      set("affine_set<(d0) : (d0 - 4 >= 0, -d0 + 2 >= 0)>"), {});
  ASSERT_TRUE(succeeded(points));
  EXPECT_TRUE(points->empty());
}

TEST_F(IntegerSetAnalysisTest, EnumerationLimit) {
  IntegerSet big = set("affine_set<(d0, d1) : (d0 >= 0, -d0 + 999 >= 0, "
                       "d1 >= 0, -d1 + 999 >= 0)>");
  EXPECT_TRUE(failed(enumerateBoundedPoints(big, {}, /*maxPoints=*/999999)));
  FailureOr<SmallVector<SmallVector<int64_t>>> points =
      enumerateBoundedPoints(big, {}, /*maxPoints=*/1000000);
  ASSERT_TRUE(succeeded(points));
  EXPECT_EQ(points->size(), 1000000u);
  EXPECT_EQ(points->back(), (SmallVector<int64_t>{999, 999}));
}

TEST_F(IntegerSetAnalysisTest, SymbolFreeExtents) {
  SmallVector<std::optional<int64_t>> extents = getSymbolFreeExtents(
      set("affine_set<(d0, d1, d2)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, "
          "d1 - 2 >= 0, -d1 + 9 >= 0, d2 >= 0)>"));
  ASSERT_EQ(extents.size(), 3u);
  EXPECT_EQ(extents[0], std::nullopt); // bounded by s0
  EXPECT_EQ(extents[1], 8);
  EXPECT_EQ(extents[2], std::nullopt); // unbounded

  // A symbol anywhere on a dimension makes it free, even with a constant
  // cap.
  extents = getSymbolFreeExtents(
      set("affine_set<(d0)[s0] : (d0 >= 0, -d0 + 7 >= 0, -d0 + s0 >= 0)>"));
  EXPECT_EQ(extents[0], std::nullopt);

  // Non-box sets get the extent of their bounding box.
  extents = getSymbolFreeExtents(set("affine_set<(d0, d1) : (d0 >= 0, "
                                     "-d0 + 3 >= 0, d1 - d0 >= 0, "
                                     "-d1 + d0 + 3 >= 0)>"));
  EXPECT_EQ(extents[0], 4);
  EXPECT_EQ(extents[1], 7);

  // Empty dimension.
  extents = getSymbolFreeExtents(
      set("affine_set<(d0) : (d0 - 4 >= 0, -d0 + 2 >= 0)>"));
  EXPECT_EQ(extents[0], 0);
}

TEST_F(IntegerSetAnalysisTest, UpperBoundMap) {
  // The largest d0 for which every constraint holds, by search.
  auto largestBySearch = [&](IntegerSet s, ArrayRef<int64_t> symbols) {
    int64_t best = -1000;
    for (int64_t v = -50; v <= 50; ++v)
      if (containsPoint(s, {v, 0}, symbols))
        best = v;
    return best;
  };
  IntegerSet rows = set("affine_set<(d0, d1)[s0, s1] : (d0 >= 0, "
                        "-d0 + s0 - 1 >= 0, -2 * d0 + s1 + 3 >= 0, "
                        "-d0 + 40 >= 0, d1 >= 0, -d1 + 5 >= 0)>");
  FailureOr<AffineMap> map = getUpperBoundMap(rows, 0);
  ASSERT_TRUE(succeeded(map));
  EXPECT_EQ(map->getNumDims(), 0u);
  EXPECT_EQ(map->getNumResults(), 3u);
  for (int64_t s0 : {1, 7, 30, 45})
    for (int64_t s1 : {-2, 0, 9, 60}) {
      SmallVector<int64_t> symbols{s0, s1};
      int64_t least = INT64_MAX;
      for (AffineExpr bound : map->getResults())
        least = std::min(least, *evaluateAffineExpr(bound, {}, symbols));
      SCOPED_TRACE("s0 = " + std::to_string(s0) + ", s1 = " +
                   std::to_string(s1));
      EXPECT_EQ(least, largestBySearch(rows, symbols));
    }

  // d1's bound is the constant 5; an equality bounds both ways.
  map = getUpperBoundMap(rows, 1);
  ASSERT_TRUE(succeeded(map));
  EXPECT_EQ(map->getResults(), ArrayRef<AffineExpr>{c(5)});
  map = getUpperBoundMap(set("affine_set<(d0, d1) : (d0 - 3 == 0, d1 >= 0, "
                             "-d1 >= 0)>"),
                         0);
  ASSERT_TRUE(succeeded(map));
  EXPECT_EQ(map->getResults(), ArrayRef<AffineExpr>{c(3)});

  // No upper bound, a constraint tying two dimensions, a floor division.
  EXPECT_TRUE(failed(getUpperBoundMap(set("affine_set<(d0) : (d0 >= 0)>"), 0)));
  EXPECT_TRUE(failed(getUpperBoundMap(
      set("affine_set<(d0, d1) : (d0 >= 0, d1 - d0 >= 0, -d1 + 9 >= 0)>"),
      0)));
  EXPECT_TRUE(failed(getUpperBoundMap(
      set("affine_set<(d0) : (d0 >= 0, -(d0 floordiv 2) + 9 >= 0)>"), 0)));
}

TEST(IntegerBoxTest, ExtentsAndEmptiness) {
  IntegerBox box{{0, 5, -2}, {3, 4, 2}};
  EXPECT_EQ(box.getExtents(), (SmallVector<int64_t>{4, 0, 5}));
  EXPECT_TRUE(box.isEmpty());
  IntegerBox scalar;
  EXPECT_TRUE(scalar.getExtents().empty());
  EXPECT_FALSE(scalar.isEmpty());
}

} // namespace
