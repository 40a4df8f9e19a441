//===- BoundedRunTest.cpp - Tiles alive at once and the work budget -------===//
//
// This file tests that a run's memory follows the tiles alive at once, not
// the grid: tiles that share no memory run a few at a time, tiles that may
// load what others store all run at once (so every load still sees every
// tile's earlier stores), tile futures start more tiles when every started
// one waits; and that the work and wall-clock budgets stop a run with a
// located error.
//
//===----------------------------------------------------------------------===//

#include "KernelTestSupport.h"

#include "gtest/gtest.h"

using namespace ktflow::testing;
using ktflow::host::DType;
using ktflow::host::Tensor;
using ktflow::interp::InterpreterOptions;

namespace {

// Y[t] = X[t] + 1 on 1000 tiles; each tile yields at its load.
const char *kIncrement = R"(
#all = affine_set<(d0) : (d0 >= 0, -d0 + 999 >= 0)>
#one = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
module {
  func.func @increment(%x: index, %y: index) attributes {grid = [1000]} {
    %id = ktdp.get_compute_tile_id : index
    %X = ktdp.construct_memory_view %x, sizes: [1000], strides: [1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<1000xi32>
    %Y = ktdp.construct_memory_view %y, sizes: [1000], strides: [1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<1000xi32>
    %tx = ktdp.construct_access_tile %X[%id] {access_tile_set = #one, access_tile_order = #id1} : memref<1000xi32> -> !ktdp.access_tile<1xindex>
    %ty = ktdp.construct_access_tile %Y[%id] {access_tile_set = #one, access_tile_order = #id1} : memref<1000xi32> -> !ktdp.access_tile<1xindex>
    %v = ktdp.load %tx : !ktdp.access_tile<1xindex> -> tensor<1xi32>
    %one = arith.constant dense<1> : tensor<1xi32>
    %w = arith.addi %v, %one : tensor<1xi32>
    ktdp.store %w, %ty : tensor<1xi32>, !ktdp.access_tile<1xindex>
    return
  }
}
)";

// Tile t stores t + 1 into Y[t], then loads all of Y into row t of Z: Y is
// loaded and stored, so the 100 tiles must run at once for every row to
// hold 1..100.
const char *kGather = R"(
#all = affine_set<(d0) : (d0 >= 0, -d0 + 99 >= 0)>
#one = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>
#zset = affine_set<(d0, d1) : (d0 >= 0, -d0 + 99 >= 0, d1 >= 0, -d1 + 99 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 99 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @gather(%y: index, %z: index) attributes {grid = [@GRID@]} {
    %id = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %v = arith.addi %id, %c1 : index
    %vi = arith.index_cast %v : index to i32
    %vt = tensor.from_elements %vi : tensor<1xi32>
    %Y = ktdp.construct_memory_view %y, sizes: [100], strides: [1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<100xi32>
    %mine = ktdp.construct_access_tile %Y[%id] {access_tile_set = #one, access_tile_order = #id1} : memref<100xi32> -> !ktdp.access_tile<1xindex>
    ktdp.store %vt, %mine : tensor<1xi32>, !ktdp.access_tile<1xindex>
    %every = ktdp.construct_access_tile %Y[%c0] {access_tile_set = #all, access_tile_order = #id1} : memref<100xi32> -> !ktdp.access_tile<100xindex>
    %got = ktdp.load %every : !ktdp.access_tile<100xindex> -> tensor<100xi32>
    %got2 = tensor.expand_shape %got [[0, 1]] output_shape [1, 100] : tensor<100xi32> into tensor<1x100xi32>
    %Z = ktdp.construct_memory_view %z, sizes: [100, 100], strides: [100, 1] {coordinate_set = #zset, memory_space = #ktdp.memory_space<global>} : memref<100x100xi32>
    %tz = ktdp.construct_access_tile %Z[%id, %c0] {access_tile_set = #row, access_tile_order = #id2} : memref<100x100xi32> -> !ktdp.access_tile<1x100xindex>
    ktdp.store %got2, %tz : tensor<1x100xi32>, !ktdp.access_tile<1x100xindex>
    return
  }
}
)";

// Every one of 100 tiles produces t + 1 and reduces all 100 partials: the
// tiles share no memory, but each waits for tiles beyond the window.
const char *kAllReduce = R"(
#all = affine_set<(d0) : (d0 >= 0, -d0 + 99 >= 0)>
#one = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#tiles = affine_set<(i)[g] : (i >= 0, -i + 99 >= 0)>
#group = affine_set<(g) : (g == 0)>
module {
  func.func @allreduce(%y: index) attributes {grid = [100]} {
    %id = ktdp.get_compute_tile_id : index
    %c1 = arith.constant 1 : index
    %v = arith.addi %id, %c1 : index
    %vi = arith.index_cast %v : index to i32
    %vt = tensor.from_elements %vi : tensor<1xi32>
    %zero = arith.constant dense<0> : tensor<1xi32>
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #tiles -> <(tensor<1xi32>), groups = #group> {
    ^bb0(%g: index):
      ktdp.yield_partial %vt : tensor<1xi32>
    }
    %sum = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #tiles, identity(%zero : tensor<1xi32>)
        : <(tensor<1xi32>), groups = #group> -> tensor<1xi32> {
    ^bb0(%l: tensor<1xi32>, %r: tensor<1xi32>):
      %s = arith.addi %l, %r : tensor<1xi32>
      ktdp.yield_reduced %s : tensor<1xi32>
    }
    %Y = ktdp.construct_memory_view %y, sizes: [100], strides: [1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<100xi32>
    %ty = ktdp.construct_access_tile %Y[%id] {access_tile_set = #one, access_tile_order = #id1} : memref<100xi32> -> !ktdp.access_tile<1xindex>
    ktdp.store %sum, %ty : tensor<1xi32>, !ktdp.access_tile<1xindex>
    return
  }
}
)";

// Tiles that do nothing, on a grid of @GRID@.
const char *kIdle = R"(
module {
  func.func @idle() attributes {grid = [@GRID@]} {
    return
  }
}
)";

std::string withGrid(std::string text, int64_t grid) {
  size_t at = text.find("@GRID@");
  text.replace(at, 6, std::to_string(grid));
  return text;
}

TEST(BoundedRun, TilesThatShareNoMemoryRunAFewAtATime) {
  auto run = KernelRun::fromText(kIncrement);
  ASSERT_TRUE(run->ok()) << run->errors;
  Tensor x = Tensor::zeros(DType::I32, {1000});
  std::vector<double> ref;
  for (int64_t i = 0; i < 1000; ++i) {
    x.setDouble(i, 3 * i);
    ref.push_back(3 * i + 1);
  }
  run->input("x", x);
  ASSERT_TRUE(run->run()) << run->errors;
  expectClose(run->output("y"), ref, Tolerance::exact(), "Y");
  // Every tile yields at its load: before tiles were created lazily, all
  // 1000 were alive at once.
  EXPECT_LE(run->interpreter->getStatistics().peakLiveTiles, 64);
}

TEST(BoundedRun, TilesThatShareMemoryAllRunAtOnce) {
  auto run = KernelRun::fromText(withGrid(kGather, 100));
  ASSERT_TRUE(run->ok()) << run->errors;
  ASSERT_TRUE(run->run()) << run->errors;
  std::vector<double> ref;
  for (int t = 0; t < 100; ++t)
    for (int k = 1; k <= 100; ++k)
      ref.push_back(k);
  expectClose(run->output("z"), ref, Tolerance::exact(), "Z");
  EXPECT_EQ(run->interpreter->getStatistics().peakLiveTiles, 100);
}

TEST(BoundedRun, TooManyTilesThatShareMemoryAreRefused) {
  auto run = KernelRun::fromText(withGrid(kGather, 65537));
  ASSERT_TRUE(run->ok()) << run->errors;
  EXPECT_FALSE(run->run());
  EXPECT_NE(run->errors.find("the grid has 65537 tiles, which must all run "
                             "at once because one tile may load what another "
                             "stores, but at most 65536 tiles can"),
            std::string::npos)
      << run->errors;
  EXPECT_NE(run->errors.find("tensor 'y' is both loaded and stored"),
            std::string::npos)
      << run->errors;
}

TEST(BoundedRun, TileFuturesStartTilesBeyondTheWindow) {
  auto run = KernelRun::fromText(kAllReduce);
  ASSERT_TRUE(run->ok()) << run->errors;
  ASSERT_TRUE(run->run()) << run->errors;
  expectClose(run->output("y"), std::vector<double>(100, 5050),
              Tolerance::exact(), "Y");
  EXPECT_EQ(run->interpreter->getStatistics().peakLiveTiles, 100);
}

TEST(BoundedRun, HugeGridIsRefusedBeforeAnyTile) {
  // 2^40 tiles that do nothing: before tiles were created lazily, the run
  // allocated one per grid point up front until memory ran out; now the
  // least the grid costs (2 element operations a tile) is over the budget
  // before any tile runs.
  InterpreterOptions options;
  options.maxElementOps = 10000;
  auto run =
      KernelRun::fromText(withGrid(kIdle, int64_t(1) << 40), "", options);
  ASSERT_TRUE(run->ok()) << run->errors;
  EXPECT_FALSE(run->run());
  EXPECT_NE(run->errors.find("the grid's 1099511627776 tiles need at least 2 "
                             "element operations each, more than the work "
                             "budget of 10000 allows"),
            std::string::npos)
      << run->errors;
  EXPECT_EQ(run->interpreter->getStatistics().peakLiveTiles, 0);
}

TEST(BoundedRun, LargeGridKeepsOneTileAlive) {
  // 2^16 idle tiles within the budget: tiles are created as they run.
  InterpreterOptions options;
  options.maxElementOps = 1 << 17;
  auto run = KernelRun::fromText(withGrid(kIdle, 65536), "", options);
  ASSERT_TRUE(run->ok()) << run->errors;
  EXPECT_TRUE(run->run()) << run->errors;
  EXPECT_EQ(run->interpreter->getStatistics().peakLiveTiles, 1);
}

TEST(BoundedRun, WorkCountsElementsAndIterationPoints) {
  // Per tile: the tile and its block; get_compute_tile_id, two views and
  // two access tiles; the load, the constant, the add and the store, each
  // one op and one element: 15.
  auto run = KernelRun::fromText(kIncrement);
  ASSERT_TRUE(run->ok()) << run->errors;
  ASSERT_TRUE(run->run()) << run->errors;
  EXPECT_EQ(run->interpreter->getStatistics().elementOps, 1000u * 15u);
}

TEST(BoundedRun, WallClockBudgetStopsTheRun) {
  InterpreterOptions options;
  options.maxSeconds = 1e-9;
  auto run = KernelRun::fromText(kIncrement, "", options);
  ASSERT_TRUE(run->ok()) << run->errors;
  EXPECT_FALSE(run->run());
  EXPECT_NE(run->errors.find("the run exceeded the wall-clock budget of "
                             "1e-09 seconds; raise it with --max-seconds"),
            std::string::npos)
      << run->errors;
}

} // namespace
