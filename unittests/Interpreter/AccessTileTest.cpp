//===- AccessTileTest.cpp - Enumeration of access tiles -------------------===//
//
// This file tests how the interpreter enumerates access tiles: the order
// map's permutation of the tile's dimensions, masking by the view's
// coordinate_set on loads and stores, non-box (triangular) access sets, tile
// types larger or smaller than their set, distributed views, and an
// indirect store that overwrites its own index elements.
//
//===----------------------------------------------------------------------===//

#include "KernelTestSupport.h"

#include "gtest/gtest.h"

using namespace ktflow::testing;
using ktflow::host::DType;
using ktflow::host::InputSpec;
using ktflow::host::Tensor;

namespace {

/// A 4x8 f32 tensor with element (i, j) = 10 i + j.
Tensor iota4x8() {
  Tensor t = Tensor::zeros(DType::F32, {4, 8});
  for (int64_t i = 0; i < 4; ++i)
    for (int64_t j = 0; j < 8; ++j)
      t.floats[i * 8 + j] = 10.0 * i + j;
  return t;
}

/// Builds a kernel that loads A (4x8 f32, coordinate set `aSet`) through a
/// tile with `tileSet`/`order` of type `tileType`, and stores the loaded
/// tensor into B (shape `bShape`) through an identity tile.
std::string copyKernel(const std::string &aSet, const std::string &tileSet,
                       const std::string &order, const std::string &tileType,
                       const std::string &bShape, const std::string &bSet) {
  return R"(
module {
  func.func @k(%a: index, %b: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %A = ktdp.construct_memory_view %a, sizes: [4, 8], strides: [8, 1] {coordinate_set = )" +
         aSet + R"(, memory_space = #ktdp.memory_space<global>} : memref<4x8xf32>
    %B = ktdp.construct_memory_view %b, sizes: [)" +
         bShape + R"(], strides: [)" + (bShape == "4, 8" ? "8" : "4") +
         R"(, 1] {coordinate_set = )" + bSet +
         R"(, memory_space = #ktdp.memory_space<global>} : memref<)" +
         tileType + R"(xf32>
    %ta = ktdp.construct_access_tile %A[%c0, %c0] {access_tile_set = )" +
         tileSet + ", access_tile_order = " + order +
         R"(} : memref<4x8xf32> -> !ktdp.access_tile<)" + tileType +
         R"(xindex>
    %tb = ktdp.construct_access_tile %B[%c0, %c0] {access_tile_set = )" +
         bSet + R"(, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<)" +
         tileType + "xf32> -> !ktdp.access_tile<" + tileType + R"(xindex>
    %v = ktdp.load %ta : !ktdp.access_tile<)" +
         tileType + "xindex> -> tensor<" + tileType + R"(xf32>
    ktdp.store %v, %tb : tensor<)" +
         tileType + "xf32>, !ktdp.access_tile<" + tileType + R"(xindex>
    return
  }
}
)";
}

const std::string kFull4x8 =
    "affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>";
const std::string kFull8x4 =
    "affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 3 >= 0)>";
const std::string kIdentity = "affine_map<(d0, d1) -> (d0, d1)>";
const std::string kTranspose = "affine_map<(d0, d1) -> (d1, d0)>";

TEST(AccessTile, OrderPermutesTheTile) {
  auto run = KernelRun::fromText(
      copyKernel(kFull4x8, kFull4x8, kTranspose, "8x4", "8, 4", kFull8x4));
  ASSERT_TRUE(run->ok()) << run->errors;
  run->input("a", iota4x8());
  ASSERT_TRUE(run->run()) << run->errors;
  Tensor b = run->output("b");
  std::vector<double> ref(32);
  for (int64_t j = 0; j < 8; ++j)
    for (int64_t i = 0; i < 4; ++i)
      ref[j * 4 + i] = 10.0 * i + j; // tile element (j, i) = A[i, j]
  expectClose(b, ref, Tolerance::exact(), "B");
}

TEST(AccessTile, LoadMasksCoordinatesOutsideTheView) {
  // A holds rows 0..2 only: row 3 of the tile loads the fill value 0.
  std::string rows3 =
      "affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 7 >= 0)>";
  auto run = KernelRun::fromText(
      copyKernel(rows3, kFull4x8, kIdentity, "4x8", "4, 8", kFull4x8));
  ASSERT_TRUE(run->ok()) << run->errors;
  run->input("a", iota4x8());
  ASSERT_TRUE(run->run()) << run->errors;
  std::vector<double> ref(32);
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 8; ++j)
      ref[i * 8 + j] = 10.0 * i + j;
  expectClose(run->output("b"), ref, Tolerance::exact(), "B");
}

TEST(AccessTile, StoreSkipsMaskedCoordinates) {
  // B holds columns 0..5 only: the store leaves columns 6, 7 untouched.
  std::string cols6 =
      "affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 5 >= 0)>";
  auto run = KernelRun::fromText(
      copyKernel(kFull4x8, kFull4x8, kIdentity, "4x8", "4, 8", cols6));
  ASSERT_TRUE(run->ok()) << run->errors;
  // The B tile uses B's set, so widen it: the tile type stays 4x8 and
  // positions outside the 4x6 set are masked.
  run->input("a", iota4x8());
  Tensor b0 = Tensor::zeros(DType::F32, {4, 8});
  std::fill(b0.floats.begin(), b0.floats.end(), -1.0);
  run->input("b", b0);
  ASSERT_TRUE(run->run()) << run->errors;
  std::vector<double> ref(32, -1.0);
  for (int64_t i = 0; i < 4; ++i)
    for (int64_t j = 0; j < 6; ++j)
      ref[i * 8 + j] = 10.0 * i + j;
  expectClose(run->output("b"), ref, Tolerance::exact(), "B");
}

TEST(AccessTile, TriangularSetMasksOutsidePoints) {
  std::string lower =
      "affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, d0 - d1 >= 0)>";
  std::string square =
      "affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 3 >= 0)>";
  auto run = KernelRun::fromText(
      copyKernel(kFull4x8, lower, kIdentity, "4x4", "4, 4", square));
  ASSERT_TRUE(run->ok()) << run->errors;
  run->input("a", iota4x8());
  ASSERT_TRUE(run->run()) << run->errors;
  std::vector<double> ref(16, 0.0);
  for (int64_t i = 0; i < 4; ++i)
    for (int64_t j = 0; j <= i; ++j)
      ref[i * 4 + j] = 10.0 * i + j;
  expectClose(run->output("b"), ref, Tolerance::exact(), "B");
}

TEST(AccessTile, TileTypeSmallerThanItsSetIsAnError) {
  // The 4x8 set does not fit a 4x4 tile type.
  std::string square =
      "affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 3 >= 0)>";
  auto run = KernelRun::fromText(
      copyKernel(kFull4x8, kFull4x8, kIdentity, "4x4", "4, 4", square));
  ASSERT_TRUE(run->ok()) << run->errors;
  EXPECT_FALSE(run->run());
  EXPECT_NE(run->errors.find("the tile type has extent 4 in dimension 1 but "
                             "the set spans 8 points"),
            std::string::npos)
      << run->errors;
  EXPECT_NE(run->errors.find("tile 0"), std::string::npos) << run->errors;
}

TEST(AccessTile, DistributedViewServesEachCoordinateFromItsPart) {
  // Two parts hold columns [0, 4) and [4, 8) of a 4x8 tensor at different
  // addresses; part 1 is stored column-major. Local index = global - lower.
  auto run = KernelRun::fromText(R"(
#p0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#p1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 - 4 >= 0, -d1 + 7 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @k(%a: index, %b: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %b1 = arith.addi %b, %c16 : index
    %P0 = ktdp.construct_memory_view %b, sizes: [4, 4], strides: [4, 1] {coordinate_set = #p0, memory_space = #ktdp.memory_space<global>} : memref<4x4xf32>
    %P1 = ktdp.construct_memory_view %b1, sizes: [4, 4], strides: [1, 4] {coordinate_set = #p1, memory_space = #ktdp.memory_space<global>} : memref<4x4xf32>
    %D = ktdp.construct_distributed_memory_view(%P0, %P1 : memref<4x4xf32>, memref<4x4xf32>) : memref<4x8xf32>
    %A = ktdp.construct_memory_view %a, sizes: [4, 8], strides: [8, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x8xf32>
    %ta = ktdp.construct_access_tile %A[%c0, %c0] {access_tile_set = #all, access_tile_order = #id} : memref<4x8xf32> -> !ktdp.access_tile<4x8xindex>
    %td = ktdp.construct_access_tile %D[%c0, %c0] {access_tile_set = #all, access_tile_order = #id} : memref<4x8xf32> -> !ktdp.access_tile<4x8xindex>
    %v = ktdp.load %ta : !ktdp.access_tile<4x8xindex> -> tensor<4x8xf32>
    ktdp.store %v, %td : tensor<4x8xf32>, !ktdp.access_tile<4x8xindex>
    return
  }
}
)");
  ASSERT_TRUE(run->ok()) << run->errors;
  run->input("a", iota4x8());
  ASSERT_TRUE(run->run()) << run->errors;
  std::vector<double> ref(32);
  for (int64_t i = 0; i < 4; ++i)
    for (int64_t j = 0; j < 4; ++j) {
      ref[i * 4 + j] = 10.0 * i + j;                // part 0, row-major
      ref[16 + j * 4 + i] = 10.0 * i + (j + 4);     // part 1, column-major
    }
  expectClose(run->output("b"), ref, Tolerance::exact(), "B");
}

TEST(AccessTile, IndirectStoreRereadsAnIndexItOverwrites) {
  // X[X[i, 0], j] = D[i, j] in row-major order: the index element X[i, 0]
  // that a row's points share is read again at every point, so the
  // row's first store, which writes X[0, 0], moves the rest of row 0.
  auto run = KernelRun::fromText(R"(
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @k(%x: index, %d: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %X = ktdp.construct_memory_view %x, sizes: [4, 4], strides: [4, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x4xi32>
    %D = ktdp.construct_memory_view %d, sizes: [4, 4], strides: [4, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x4xi32>
    %td = ktdp.construct_access_tile %D[%c0, %c0] {access_tile_set = #all, access_tile_order = #id} : memref<4x4xi32> -> !ktdp.access_tile<4x4xindex>
    %v = ktdp.load %td : !ktdp.access_tile<4x4xindex> -> tensor<4x4xi32>
    %dst = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %X[ind(%X[(%i), (0)]), (%j)] {variables_space_set = #all, variables_space_order = #id} : memref<4x4xi32>, memref<4x4xi32> -> !ktdp.access_tile<4x4xindex>
    ktdp.store %v, %dst : tensor<4x4xi32>, !ktdp.access_tile<4x4xindex>
    return
  }
}
)");
  ASSERT_TRUE(run->ok()) << run->errors;
  Tensor d = Tensor::zeros(DType::I32, {4, 4});
  d.ints = {2, 1, 3, 1, 1, 2, 0, 3, 3, 0, 1, 2, 0, 3, 2, 1};
  run->input("x", Tensor::zeros(DType::I32, {4, 4}));
  run->input("d", d);
  ASSERT_TRUE(run->run()) << run->errors;
  // Row 0's points 1..3 went to row 2 (X[0, 0] was 2 by then); with the
  // index value kept from the row's first point they would land in row 0.
  std::vector<int64_t> ref = {0, 3, 2, 1, 0, 0, 0, 0, 0, 1, 3, 1, 0, 0, 0, 0};
  EXPECT_EQ(run->output("x").ints, ref);
}

} // namespace
