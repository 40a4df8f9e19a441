//===- RangeOfTest.cpp - Ranges of index values through clamps ------------===//
//
// This file tests rangeOf, upperBoundOf and lowerBoundOf on Triton's clamps
// (arith.minsi / arith.maxsi and the cmpi + select idiom), unsigned minima
// of operands that may be negative, selects, loops whose bounds are
// clamped, a trip count that is the difference of two clamped bounds, and
// sums with a negative operand, against bounds computed by hand; a clamp
// that bounds only one end stays unbounded, and so does a bound that
// overflows.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/KTDF/Transforms/TileBounds.h"

#include "ktflow/Registration/Registration.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <limits>

using namespace mlir;

namespace {

using Range = std::optional<std::pair<int64_t, int64_t>>;
using Bound = std::optional<int64_t>;

// A 4-tile grid: %pid lies in [0, 3]; %n (index) and %m (i32) are plain
// scalar arguments, which may be anything.
constexpr const char *kKernel = R"mlir(
func.func @k(%n: index, %m: i32) attributes {grid = [4, 1]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %cm1 = arith.constant -1 : index
  %q = arith.muli %pid, %c32 : index
  %0 = arith.minsi %q, %c64 {probe = "min_const"} : index
  %1 = arith.minsi %n, %c64 {probe = "min_unbounded_below"} : index
  %2 = arith.maxsi %1, %c0 {probe = "min_then_max"} : index
  %b = arith.subi %q, %c16 : index
  %3 = arith.maxsi %b, %c0 {probe = "max_const"} : index
  %4 = arith.maxsi %n, %c0 {probe = "max_unbounded_above"} : index
  %e = arith.addi %q, %c32 : index
  %lt = arith.cmpi slt, %e, %n : index
  %5 = arith.select %lt, %e, %n {probe = "select_min"} : index
  %6 = arith.maxsi %5, %c0 {probe = "select_min_clamped"} : index
  %gt = arith.cmpi sgt, %b, %c0 : index
  %7 = arith.select %gt, %b, %c0 {probe = "select_max"} : index
  %lt2 = arith.cmpi slt, %b, %c0 : index
  %8 = arith.select %lt2, %c0, %b {probe = "select_max_swapped"} : index
  %first = arith.cmpi eq, %pid, %c0 : index
  %9 = arith.select %first, %c0, %c64 {probe = "select_either"} : index
  %10 = arith.select %first, %c0, %n {probe = "select_either_unbounded"} : index
  %mi = arith.index_cast %m : i32 to index
  %11 = arith.minsi %mi, %c16 {probe = "cast_min"} : index
  %12 = arith.maxsi %11, %c0 {probe = "cast_min_max"} : index
  %p1 = arith.subi %pid, %c1 : index
  %lo = arith.maxsi %p1, %c0 : index
  %p2 = arith.addi %pid, %c2 : index
  %hi4 = arith.minsi %p2, %c4 : index
  %hi = arith.minsi %hi4, %n : index
  %trips = arith.subi %hi, %lo {probe = "trips"} : index
  %18 = arith.minui %cm1, %c64 {probe = "minui_negative"} : index
  %19 = arith.minui %n, %c64 {probe = "minui_unknown_sign"} : index
  %20 = arith.minui %q, %c64 {probe = "minui_non_negative"} : index
  %21 = arith.minui %q, %cm1 {probe = "minui_against_negative"} : index
  %22 = arith.minui %n, %mi {probe = "minui_unbounded"} : index
  %s = arith.subi %pid, %c2 : index
  %23 = arith.muli %s, %s {probe = "square_of_signed"} : index
  %24 = arith.divui %s, %c2 {probe = "divui_of_signed"} : index
  %cmax = arith.constant 9223372036854775807 : index
  %25 = arith.addi %pid, %cm1 {probe = "plus_negative"} : index
  %26 = arith.addi %pid, %cmax {probe = "sum_overflows"} : index
  %27 = arith.subi %s, %cmax {probe = "difference_overflows"} : index
  %28 = arith.muli %q, %cmax {probe = "product_overflows"} : index
  scf.for %j = %lo to %hi step %c1 {
    %13 = arith.addi %j, %c0 {probe = "window_iv"} : index
  }
  scf.for %i = %c0 to %trips step %c1 {
    %14 = arith.addi %i, %c0 {probe = "difference_iv"} : index
    %15 = arith.addi %lo, %i {probe = "lo_plus_iv"} : index
  }
  scf.for %i = %c0 to %n step %c1 {
    %16 = arith.minsi %i, %c4 {probe = "open_loop_min"} : index
    %17 = arith.maxsi %i, %c4 {probe = "open_loop_max"} : index
  }
  return
}
)mlir";

class RangeOfTest : public ::testing::Test {
protected:
  RangeOfTest() : context(makeRegistry()) {
    context.loadAllAvailableDialects();
    module = parseSourceString<ModuleOp>(kKernel, &context);
  }

  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    ktflow::registerAllDialects(registry);
    return registry;
  }

  /// The result of the op tagged `probe = name`.
  Value probe(StringRef name) {
    Value found;
    module->walk([&](Operation *op) {
      if (auto probe = op->getAttrOfType<StringAttr>("probe");
          probe && probe.getValue() == name)
        found = op->getResult(0);
    });
    EXPECT_TRUE(found) << "no probe " << name.str();
    return found;
  }

  Range rangeOfProbe(StringRef name) {
    Value found = probe(name);
    return found ? ktdf::rangeOf(found) : std::nullopt;
  }

  /// The one-sided bounds of the probe, lower then upper.
  Bound lowerOf(StringRef name) {
    Value found = probe(name);
    return found ? ktdf::lowerBoundOf(found) : std::nullopt;
  }
  Bound upperOf(StringRef name) {
    Value found = probe(name);
    return found ? ktdf::upperBoundOf(found) : std::nullopt;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

Range range(int64_t lo, int64_t hi) { return std::make_pair(lo, hi); }

TEST_F(RangeOfTest, SignedMinimaAndMaxima) {
  ASSERT_TRUE(module);
  // min(32 pid, 64) over pid in [0, 3]: 0, 32, 64, 64.
  EXPECT_EQ(rangeOfProbe("min_const"), range(0, 64));
  // min(n, 64) <= 64, but n may be negative.
  EXPECT_EQ(rangeOfProbe("min_unbounded_below"), std::nullopt);
  EXPECT_EQ(rangeOfProbe("min_then_max"), range(0, 64));
  // max(32 pid - 16, 0): 0, 16, 48, 80.
  EXPECT_EQ(rangeOfProbe("max_const"), range(0, 80));
  EXPECT_EQ(rangeOfProbe("max_unbounded_above"), std::nullopt);
  // An i32 argument through index_cast is as unbounded as an index one.
  EXPECT_EQ(rangeOfProbe("cast_min"), std::nullopt);
  EXPECT_EQ(rangeOfProbe("cast_min_max"), range(0, 16));
}

TEST_F(RangeOfTest, Selects) {
  ASSERT_TRUE(module);
  // select(32 pid + 32 < n, 32 pid + 32, n) = min(32 pid + 32, n) <= 128.
  EXPECT_EQ(rangeOfProbe("select_min"), std::nullopt);
  EXPECT_EQ(rangeOfProbe("select_min_clamped"), range(0, 128));
  // max(32 pid - 16, 0), written both ways round.
  EXPECT_EQ(rangeOfProbe("select_max"), range(0, 80));
  EXPECT_EQ(rangeOfProbe("select_max_swapped"), range(0, 80));
  // Either value: their union, unbounded when one of them is.
  EXPECT_EQ(rangeOfProbe("select_either"), range(0, 64));
  EXPECT_EQ(rangeOfProbe("select_either_unbounded"), std::nullopt);
}

TEST_F(RangeOfTest, LoopsOverClampedBounds) {
  ASSERT_TRUE(module);
  // From max(pid - 1, 0) >= 0 to min(pid + 2, 4, n) <= 4, exclusive.
  EXPECT_EQ(rangeOfProbe("window_iv"), range(0, 3));
  // min(pid + 2, 4, n) - max(pid - 1, 0) <= 4 - 0 trips.
  EXPECT_EQ(rangeOfProbe("difference_iv"), range(0, 3));
  // max(pid - 1, 0) in [0, 2] plus i in [0, 3].
  EXPECT_EQ(rangeOfProbe("lo_plus_iv"), range(0, 5));
  // A loop from 0 to a plain n: min(i, 4) is in [0, 4], max(i, 4) is not
  // bounded above.
  EXPECT_EQ(rangeOfProbe("open_loop_min"), range(0, 4));
  EXPECT_EQ(rangeOfProbe("open_loop_max"), std::nullopt);
}

TEST_F(RangeOfTest, UnsignedMinima) {
  ASSERT_TRUE(module);
  // Read unsigned, -1 is the largest index: minui(-1, 64) = 64, not -1.
  EXPECT_EQ(upperOf("minui_negative"), 64);
  EXPECT_EQ(lowerOf("minui_negative"), 64);
  EXPECT_EQ(rangeOfProbe("minui_negative"), range(64, 64));
  // minui(n, 64) for an n of either sign lies in [0, 64].
  EXPECT_EQ(upperOf("minui_unknown_sign"), 64);
  EXPECT_EQ(lowerOf("minui_unknown_sign"), 0);
  EXPECT_EQ(rangeOfProbe("minui_unknown_sign"), range(0, 64));
  // minui(32 pid, 64): 0, 32, 64, 64; minui(32 pid, -1) = 32 pid.
  EXPECT_EQ(rangeOfProbe("minui_non_negative"), range(0, 64));
  EXPECT_EQ(upperOf("minui_non_negative"), 64);
  EXPECT_EQ(upperOf("minui_against_negative"), 96);
  EXPECT_EQ(rangeOfProbe("minui_against_negative"), range(0, 96));
  // Two operands of unknown sign: either may be the smaller.
  EXPECT_EQ(upperOf("minui_unbounded"), std::nullopt);
  EXPECT_EQ(lowerOf("minui_unbounded"), std::nullopt);
  EXPECT_EQ(rangeOfProbe("minui_unbounded"), std::nullopt);
}

TEST_F(RangeOfTest, OneSidedBoundsOfClamps) {
  ASSERT_TRUE(module);
  // min(32 pid + 32, n) <= 128; its lower end depends on n.
  EXPECT_EQ(upperOf("select_min"), 128);
  EXPECT_EQ(lowerOf("select_min"), std::nullopt);
  // max(32 pid - 16, 0) in [0, 80], both ways round.
  EXPECT_EQ(upperOf("select_max"), 80);
  EXPECT_EQ(lowerOf("select_max"), 0);
  EXPECT_EQ(upperOf("select_max_swapped"), 80);
  EXPECT_EQ(lowerOf("select_max_swapped"), 0);
  EXPECT_EQ(upperOf("max_unbounded_above"), std::nullopt);
  EXPECT_EQ(lowerOf("max_unbounded_above"), 0);
  EXPECT_EQ(upperOf("select_either"), 64);
  EXPECT_EQ(upperOf("select_either_unbounded"), std::nullopt);
  EXPECT_EQ(lowerOf("select_either_unbounded"), std::nullopt);
  // min(pid + 2, 4, n) - max(pid - 1, 0) <= 4 - 0; n bounds it below.
  EXPECT_EQ(upperOf("trips"), 4);
  EXPECT_EQ(lowerOf("trips"), std::nullopt);
}

TEST_F(RangeOfTest, SignedOperandsOfProductsAndUnsignedDivisions) {
  ASSERT_TRUE(module);
  // (pid - 2)^2 over pid - 2 in [-2, 1] reaches 4 > 1 * 1.
  EXPECT_EQ(upperOf("square_of_signed"), std::nullopt);
  EXPECT_EQ(rangeOfProbe("square_of_signed"), range(-2, 4));
  // (pid - 2) / 2 unsigned is huge for pid < 2.
  EXPECT_EQ(upperOf("divui_of_signed"), std::nullopt);
}

TEST_F(RangeOfTest, SumsOfOperandsOfEitherSign) {
  ASSERT_TRUE(module);
  // pid + -1 over pid in [0, 3] lies in [-1, 2]: a negative operand bounds
  // a sum as well as a positive one.
  EXPECT_EQ(upperOf("plus_negative"), 2);
  EXPECT_EQ(lowerOf("plus_negative"), -1);
  EXPECT_EQ(rangeOfProbe("plus_negative"), range(-1, 2));
}

TEST_F(RangeOfTest, BoundsThatOverflowAreUnknown) {
  ASSERT_TRUE(module);
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  // pid + INT64_MAX: at least INT64_MAX, its upper end past int64_t.
  EXPECT_EQ(upperOf("sum_overflows"), std::nullopt);
  EXPECT_EQ(lowerOf("sum_overflows"), kMax);
  EXPECT_EQ(rangeOfProbe("sum_overflows"), std::nullopt);
  // (pid - 2) - INT64_MAX over pid - 2 in [-2, 1]: its lower end is.
  EXPECT_EQ(lowerOf("difference_overflows"), std::nullopt);
  EXPECT_EQ(upperOf("difference_overflows"), 1 - kMax);
  EXPECT_EQ(rangeOfProbe("difference_overflows"), std::nullopt);
  // 32 pid * INT64_MAX: 0 at pid = 0, past int64_t above.
  EXPECT_EQ(upperOf("product_overflows"), std::nullopt);
  EXPECT_EQ(lowerOf("product_overflows"), 0);
  EXPECT_EQ(rangeOfProbe("product_overflows"), std::nullopt);
}

} // namespace
