//===- IndexTensorsTest.cpp - Kernel arguments read as coordinates --------===//
//
// Tests ktflow/Analysis/IndexTensors.h: an argument whose view an indirect
// access tile reads indices from is found with the extent of the base
// dimension it selects (the smallest over its tiles, a coordinate set
// bounding a view below its size), the tensor indexed, and whether a tile
// it indexes is stored through (a scatter), also inside a callee or
// through a tile a helper returns; data tensors and the indexed bases are
// not index tensors. Views at literal addresses are found by address.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Analysis/IndexTensors.h"
#include "ktflow/Registration/Registration.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

using namespace mlir;

namespace {

class IndexTensorsTest : public ::testing::Test {
protected:
  IndexTensorsTest() : context(makeRegistry()) {
    context.loadAllAvailableDialects();
  }

  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    ktflow::registerAllDialects(registry);
    return registry;
  }

  std::map<unsigned, ktflow::IndexTensorUse> analyze(StringRef source) {
    func::FuncOp kernel = parse(source);
    return kernel ? ktflow::findIndexTensors(kernel)
                  : std::map<unsigned, ktflow::IndexTensorUse>();
  }

  func::FuncOp parse(StringRef source) {
    module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    return module ? module->lookupSymbol<func::FuncOp>("k") : func::FuncOp();
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

// %idx selects rows of X (16) and of W, whose coordinate set keeps 10 of
// its 12 rows: the smaller extent, W's, bounds it.
TEST_F(IndexTensorsTest, GatherTakesTheSmallestExtentOverItsTiles) {
  auto found = analyze(R"mlir(
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#w_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 9 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#i_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#space = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @k(%x: index, %w: index, %idx: index, %y: index) attributes {grid = [1]} {
  %X = ktdp.construct_memory_view %x, sizes: [16, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
  %W = ktdp.construct_memory_view %w, sizes: [12, 64], strides: [64, 1] {coordinate_set = #w_set, memory_space = #ktdp.memory_space<global>} : memref<12x64xf16>
  %I = ktdp.construct_memory_view %idx, sizes: [4], strides: [1] {coordinate_set = #i_set, memory_space = #ktdp.memory_space<global>} : memref<4xi32>
  %Y = ktdp.construct_memory_view %y, sizes: [4, 64], strides: [64, 1] {coordinate_set = #space, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %tx = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %X[ind(%I[%i]), (%j)] {variables_space_set = #space, variables_space_order = #id2} : memref<16x64xf16>, memref<4xi32> -> !ktdp.access_tile<4x64xindex>
  %tw = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %W[ind(%I[%i]), (%j)] {variables_space_set = #space, variables_space_order = #id2} : memref<12x64xf16>, memref<4xi32> -> !ktdp.access_tile<4x64xindex>
  %a = ktdp.load %tx : <4x64xindex> -> tensor<4x64xf16>
  %b = ktdp.load %tw : <4x64xindex> -> tensor<4x64xf16>
  %s = arith.addf %a, %b : tensor<4x64xf16>
  %c0 = arith.constant 0 : index
  %ty = ktdp.construct_access_tile %Y[%c0, %c0] {access_tile_set = #space, access_tile_order = #id2} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  ktdp.store %s, %ty : tensor<4x64xf16>, <4x64xindex>
  return
}
)mlir");
  ASSERT_EQ(found.size(), 1u);
  ASSERT_TRUE(found.count(2));
  const ktflow::IndexTensorUse &use = found.at(2);
  EXPECT_EQ(use.extent, 10);
  EXPECT_EQ(use.indexedArgument, std::optional<unsigned>(1));
  EXPECT_EQ(use.dimension, 0u);
  EXPECT_FALSE(use.scatter);
}

// Rows come from %slot and columns from %col; the views are passed to a
// helper that builds the tile and stores through it: both are scatters,
// %col at dimension 1. The same %slot gathered from a larger tensor stays a
// scatter with the smaller extent.
TEST_F(IndexTensorsTest, ScatterThroughACalleeAndASecondDimension) {
  auto found = analyze(R"mlir(
#c_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#g_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 99 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#i_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#space = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @put(%v: tensor<8x8xf16>, %C: memref<64x32xf16>, %S: memref<8xi32>, %K: memref<8xi32>) {
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %C[ind(%S[%i]), ind(%K[%j])] {variables_space_set = #space, variables_space_order = #id2} : memref<64x32xf16>, memref<8xi32>, memref<8xi32> -> !ktdp.access_tile<8x8xindex>
  ktdp.store %v, %t : tensor<8x8xf16>, <8x8xindex>
  return
}
func.func @k(%g: index, %slot: index, %col: index, %cache: index) attributes {grid = [1]} {
  %G = ktdp.construct_memory_view %g, sizes: [100, 32], strides: [32, 1] {coordinate_set = #g_set, memory_space = #ktdp.memory_space<global>} : memref<100x32xf16>
  %S = ktdp.construct_memory_view %slot, sizes: [8], strides: [1] {coordinate_set = #i_set, memory_space = #ktdp.memory_space<global>} : memref<8xi32>
  %K = ktdp.construct_memory_view %col, sizes: [8], strides: [1] {coordinate_set = #i_set, memory_space = #ktdp.memory_space<global>} : memref<8xi32>
  %C = ktdp.construct_memory_view %cache, sizes: [64, 32], strides: [32, 1] {coordinate_set = #c_set, memory_space = #ktdp.memory_space<global>} : memref<64x32xf16>
  %tg = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %G[ind(%S[%i]), (%j)] {variables_space_set = #space, variables_space_order = #id2} : memref<100x32xf16>, memref<8xi32> -> !ktdp.access_tile<8x8xindex>
  %v = ktdp.load %tg : <8x8xindex> -> tensor<8x8xf16>
  func.call @put(%v, %C, %S, %K) : (tensor<8x8xf16>, memref<64x32xf16>, memref<8xi32>, memref<8xi32>) -> ()
  return
}
)mlir");
  ASSERT_EQ(found.size(), 2u);
  ASSERT_TRUE(found.count(1) && found.count(2));
  EXPECT_EQ(found.at(1).extent, 64);
  EXPECT_EQ(found.at(1).dimension, 0u);
  EXPECT_TRUE(found.at(1).scatter);
  EXPECT_EQ(found.at(2).extent, 32);
  EXPECT_EQ(found.at(2).dimension, 1u);
  EXPECT_TRUE(found.at(2).scatter);
}

// The store tile is built by a helper from the views it is passed and
// returned: storing through the call's result makes %slot a scatter, and
// the helper's base argument is named by what the kernel passes.
TEST_F(IndexTensorsTest, ScatterThroughATileAHelperReturns) {
  auto found = analyze(R"mlir(
#c_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#i_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#space = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func private @rows(%C: memref<64x32xf16>, %S: memref<8xi32>) -> !ktdp.access_tile<8x32xindex> {
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %C[ind(%S[%i]), (%j)] {variables_space_set = #space, variables_space_order = #id2} : memref<64x32xf16>, memref<8xi32> -> !ktdp.access_tile<8x32xindex>
  return %t : !ktdp.access_tile<8x32xindex>
}
func.func @k(%x: index, %slot: index, %cache: index) attributes {grid = [1]} {
  %X = ktdp.construct_memory_view %x, sizes: [8, 32], strides: [32, 1] {coordinate_set = #space, memory_space = #ktdp.memory_space<global>} : memref<8x32xf16>
  %S = ktdp.construct_memory_view %slot, sizes: [8], strides: [1] {coordinate_set = #i_set, memory_space = #ktdp.memory_space<global>} : memref<8xi32>
  %C = ktdp.construct_memory_view %cache, sizes: [64, 32], strides: [32, 1] {coordinate_set = #c_set, memory_space = #ktdp.memory_space<global>} : memref<64x32xf16>
  %c0 = arith.constant 0 : index
  %tx = ktdp.construct_access_tile %X[%c0, %c0] {access_tile_set = #space, access_tile_order = #id2} : memref<8x32xf16> -> !ktdp.access_tile<8x32xindex>
  %v = ktdp.load %tx : <8x32xindex> -> tensor<8x32xf16>
  %tc = func.call @rows(%C, %S) : (memref<64x32xf16>, memref<8xi32>) -> !ktdp.access_tile<8x32xindex>
  ktdp.store %v, %tc : tensor<8x32xf16>, <8x32xindex>
  return
}
)mlir");
  ASSERT_EQ(found.size(), 1u);
  ASSERT_TRUE(found.count(1));
  EXPECT_EQ(found.at(1).extent, 64);
  EXPECT_EQ(found.at(1).indexedArgument, std::optional<unsigned>(2));
  EXPECT_TRUE(found.at(1).scatter);
}

// No arguments: the index views sit at literal addresses 4096 and 8192 and
// select the rows and the columns of the view at 0 (its coordinate set
// keeps 48 of 64 rows); the output at 32768 holds no indices.
TEST_F(IndexTensorsTest, IndexViewsAtLiteralAddresses) {
  func::FuncOp kernel = parse(R"mlir(
#src_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 47 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#sq = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @k() {
  %a0 = arith.constant 0 : index
  %a1 = arith.constant 4096 : index
  %a2 = arith.constant 8192 : index
  %a3 = arith.constant 32768 : index
  %SRC = ktdp.construct_memory_view %a0, sizes: [64, 64], strides: [64, 1] {coordinate_set = #src_set, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %ROWS = ktdp.construct_memory_view %a1, sizes: [8, 8], strides: [8, 1] {coordinate_set = #sq, memory_space = #ktdp.memory_space<global>} : memref<8x8xi32>
  %COLS = ktdp.construct_memory_view %a2, sizes: [8, 8], strides: [8, 1] {coordinate_set = #sq, memory_space = #ktdp.memory_space<global>} : memref<8x8xi32>
  %OUT = ktdp.construct_memory_view %a3, sizes: [8, 8], strides: [8, 1] {coordinate_set = #sq, memory_space = #ktdp.memory_space<global>} : memref<8x8xf16>
  %g = ktdp.construct_indirect_access_tile intermediate_variables(%m, %k) %SRC[ind(%ROWS[%m, %k]), ind(%COLS[%m, %k])] {variables_space_set = #sq, variables_space_order = #id2} : memref<64x64xf16>, memref<8x8xi32>, memref<8x8xi32> -> !ktdp.access_tile<8x8xindex>
  %t = ktdp.construct_access_tile %OUT[0, 0] {access_tile_set = #sq, access_tile_order = #id2} : memref<8x8xf16> -> !ktdp.access_tile<8x8xindex>
  %v = ktdp.load %g : <8x8xindex> -> tensor<8x8xf16>
  ktdp.store %v, %t : tensor<8x8xf16>, <8x8xindex>
  return
}
)mlir");
  ASSERT_TRUE(kernel);
  EXPECT_TRUE(ktflow::findIndexTensors(kernel).empty());
  std::map<int64_t, ktflow::IndexTensorUse> found =
      ktflow::findLiteralIndexTensors(kernel);
  ASSERT_EQ(found.size(), 2u);
  ASSERT_TRUE(found.count(4096) && found.count(8192));
  EXPECT_EQ(found.at(4096).extent, 48);
  EXPECT_EQ(found.at(4096).dimension, 0u);
  EXPECT_EQ(found.at(4096).indexedAddress, std::optional<int64_t>(0));
  EXPECT_FALSE(found.at(4096).indexedArgument);
  EXPECT_FALSE(found.at(4096).scatter);
  EXPECT_EQ(found.at(8192).extent, 64);
  EXPECT_EQ(found.at(8192).dimension, 1u);
}

} // namespace
