//===- LaunchGridTest.cpp - The `grid` attribute of KTIR kernels ----------===//
//
// This file tests reading the launch grid: every published spelling parses,
// malformed ones fail with a message, the grid is found on the closest
// ancestor, and tile ids delinearize with x fastest (checked against the
// ktir-cpu formula and as a bijection).
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/KTDP/Utils/LaunchGrid.h"

#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Registration/Registration.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <set>

using namespace mlir;
using namespace mlir::ktdp;

namespace {

class LaunchGridTest : public ::testing::Test {
protected:
  LaunchGridTest() : context(makeRegistry()) {
    context.loadAllAvailableDialects();
  }

  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    ktflow::registerAllDialects(registry);
    return registry;
  }

  /// Parses `text` as an attribute and reads it as a grid; on failure the
  /// diagnostic ends up in `message`.
  FailureOr<SmallVector<int64_t>> parse(StringRef text) {
    message.clear();
    Attribute attr = parseAttribute(text, &context);
    EXPECT_TRUE(attr) << "attribute did not parse: " << text.str();
    if (!attr)
      return failure();
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      message = diag.str();
      return success();
    });
    return parseGridAttr(attr,
                         [&] { return emitError(UnknownLoc::get(&context)); });
  }

  MLIRContext context;
  std::string message;
};

TEST_F(LaunchGridTest, PublishedSpellings) {
  EXPECT_EQ(parse("[32]"), (SmallVector<int64_t>{32}));
  EXPECT_EQ(parse("[32, 1]"), (SmallVector<int64_t>{32, 1}));
  EXPECT_EQ(parse("[1, 1]"), (SmallVector<int64_t>{1, 1}));
  EXPECT_EQ(parse("[2, 1, 1]"), (SmallVector<int64_t>{2, 1, 1}));
  EXPECT_EQ(parse("[1 : index]"), (SmallVector<int64_t>{1}));
  EXPECT_EQ(parse("[4 : i32, 2 : i64]"), (SmallVector<int64_t>{4, 2}));
  EXPECT_EQ(parse("array<i64: 4, 2>"), (SmallVector<int64_t>{4, 2}));
  EXPECT_EQ(parse("array<i32: 8>"), (SmallVector<int64_t>{8}));
  EXPECT_EQ(parse("dense<[4, 2]> : tensor<2xi64>"),
            (SmallVector<int64_t>{4, 2}));
  EXPECT_TRUE(message.empty()) << message;
}

TEST_F(LaunchGridTest, MalformedGridsFailWithAMessage) {
  struct Case {
    const char *text;
    const char *message;
  } cases[] = {
      {"[]", "`grid` must have at least one dimension"},
      {"[0]", "`grid` extents must be positive, but got 0"},
      {"[32, -1]", "`grid` extents must be positive, but got -1"},
      {"array<i64>", "`grid` must have at least one dimension"},
      {"\"32\"", "`grid` must be a list of integers such as [32] or [32, 1], "
                 "but got \"32\""},
      {"32", "`grid` must be a list of integers such as [32] or [32, 1], "
             "but got 32 : i64"},
      {"[1.0 : f32]", "`grid` must be a list of integers, but has "
                      "1.000000e+00 : f32"},
      {"[[2]]", "`grid` must be a list of integers, but has [2]"},
      {"[4294967296, 4294967296]",
       "`grid` has more compute tiles than fit in 64 bits"},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.text);
    EXPECT_TRUE(failed(parse(c.text)));
    EXPECT_EQ(message, c.message);
  }
}

TEST_F(LaunchGridTest, GridOfTheClosestAncestor) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
      R"mlir(
    func.func @with_grid() attributes {grid = [4, 2]} {
      %id:2 = ktdp.get_compute_tile_id : index, index
      return
    }
    func.func @without_grid() {
      %id = ktdp.get_compute_tile_id : index
      return
    }
  )mlir",
      &context);
  ASSERT_TRUE(module);
  SmallVector<GetComputeTileIdOp> ids;
  module->walk([&](GetComputeTileIdOp op) { ids.push_back(op); });
  ASSERT_EQ(ids.size(), 2u);

  FailureOr<std::optional<SmallVector<int64_t>>> grid = getLaunchGrid(ids[0]);
  ASSERT_TRUE(succeeded(grid));
  ASSERT_TRUE(grid->has_value());
  EXPECT_EQ(**grid, (SmallVector<int64_t>{4, 2}));
  EXPECT_EQ(getGridOwner(ids[0]), ids[0]->getParentOp());

  grid = getLaunchGrid(ids[1]);
  ASSERT_TRUE(succeeded(grid));
  EXPECT_FALSE(grid->has_value());
  EXPECT_EQ(getGridOwner(ids[1]), nullptr);
}

TEST_F(LaunchGridTest, MalformedGridOfAnAncestorFails) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
      "func.func @k() attributes {grid = [0]} { return }", &context);
  ASSERT_TRUE(module);
  std::string seen;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    seen = diag.str();
    return success();
  });
  Operation *ret = &module->getBody()->front().getRegion(0).front().front();
  EXPECT_TRUE(failed(getLaunchGrid(ret)));
  EXPECT_EQ(seen, "`grid` extents must be positive, but got 0");
}

TEST(LaunchGrid, NumTiles) {
  EXPECT_EQ(getNumTiles({32}), 32);
  EXPECT_EQ(getNumTiles({4, 2, 3}), 24);
  EXPECT_EQ(getNumTiles({1, 1}), 1);
}

TEST(LaunchGrid, DelinearizeXFastest) {
  SmallVector<int64_t> grid = {4, 2, 3};
  EXPECT_EQ(delinearizeTileId(0, grid), (SmallVector<int64_t>{0, 0, 0}));
  EXPECT_EQ(delinearizeTileId(1, grid), (SmallVector<int64_t>{1, 0, 0}));
  EXPECT_EQ(delinearizeTileId(4, grid), (SmallVector<int64_t>{0, 1, 0}));
  EXPECT_EQ(delinearizeTileId(8, grid), (SmallVector<int64_t>{0, 0, 1}));
  EXPECT_EQ(delinearizeTileId(23, grid), (SmallVector<int64_t>{3, 1, 2}));

  // ktir-cpu: x = id mod nx, y = (id / nx) mod ny, z = id / (nx * ny);
  // every tile gets a distinct id that linearizes back.
  std::set<SmallVector<int64_t>> seen;
  for (int64_t id = 0; id < getNumTiles(grid); ++id) {
    SmallVector<int64_t> xyz = delinearizeTileId(id, grid);
    ASSERT_EQ(xyz.size(), 3u);
    EXPECT_EQ(xyz[0], id % 4);
    EXPECT_EQ(xyz[1], (id / 4) % 2);
    EXPECT_EQ(xyz[2], id / 8);
    EXPECT_EQ(xyz[0] + 4 * (xyz[1] + 2 * xyz[2]), id);
    seen.insert(xyz);
  }
  EXPECT_EQ(seen.size(), 24u);

  EXPECT_EQ(delinearizeTileId(31, {32}), (SmallVector<int64_t>{31}));
}

} // namespace
