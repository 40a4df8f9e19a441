//===- RouteUsesTest.cpp - Tests of a route's deduplicated resources ------===//
//
// This file tests distinctUses, which a route's resources go through once
// when the route is built: each chunk then reserves each resource once, for
// the bytes of all its crossings (a copy within one memory crosses it
// twice).
//
//===----------------------------------------------------------------------===//

#include "Engine.h"

#include "gtest/gtest.h"

using namespace ktflow::sim::detail;

namespace {

TEST(RouteUsesTest, EmptyRouteHasNoUses) {
  EXPECT_TRUE(distinctUses({}).empty());
}

TEST(RouteUsesTest, DistinctResourcesCrossOnceInOrder) {
  std::vector<RouteUse> expected = {{4, 1}, {0, 1}, {9, 1}};
  EXPECT_EQ(distinctUses({4, 0, 9}), expected);
}

TEST(RouteUsesTest, RepeatedResourcesCountTheirCrossings) {
  // The order is that of the first crossing: the reservations of a chunk
  // are tried in it.
  std::vector<RouteUse> expected = {{3, 3}, {5, 2}, {7, 1}};
  EXPECT_EQ(distinctUses({3, 5, 3, 7, 5, 3}), expected);
}

TEST(RouteUsesTest, CopyWithinOneMemoryCrossesItTwice) {
  // memory, link in, link out, memory: as buildRoute lists an L1 -> L1 DMA.
  std::vector<RouteUse> expected = {{12, 2}, {2, 1}, {3, 1}};
  EXPECT_EQ(distinctUses({12, 2, 3, 12}), expected);
}

} // namespace
