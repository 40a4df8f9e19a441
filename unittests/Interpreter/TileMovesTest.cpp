//===- TileMovesTest.cpp - Tile loads and stores a row at a time ----------===//
//
// This file tests the box path of ktdp.load and ktdp.store
// (lib/Interpreter/LoadStore.cpp), which copies rows that are contiguous in
// memory whole, a 64 KiB page at a time: strided rows that straddle pages,
// tiles clamped by the view's coordinate set, permuted (column) tiles that
// move one element per row, and stores into a tensor given as shared data,
// which must stay as it was for the next run (--check binds one input to
// every interpreter run). The expected values are computed here with plain
// index arithmetic.
//
//===----------------------------------------------------------------------===//

#include "KernelTestSupport.h"

#include "gtest/gtest.h"

using namespace ktflow::testing;
using ktflow::host::DType;
using ktflow::host::InputSpec;
using ktflow::host::Tensor;

namespace {

// M: 40 rows of 1000 f32 columns, 1003 apart: 40,120 elements (five
// 8192-element pages). The tile's 16 x 600 box at (30, 450) runs past row
// 39 and column 999: its rows 10.. and columns 550.. are clamped away, and
// its row 2 (M's row 32, elements 32,546 to 33,095) straddles a page.
constexpr int64_t kRows = 40, kCols = 1000, kRowStride = 1003;
constexpr int64_t kTileRows = 16, kTileCols = 600, kAtRow = 30, kAtCol = 450;

const char *const kViewSet =
    "affine_set<(d0, d1) : (d0 >= 0, -d0 + 39 >= 0, d1 >= 0, -d1 + 999 >= 0)>";
const char *const kTileSet =
    "affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 599 >= 0)>";

/// A kernel that loads M's tile (in `order`, of type `tileType`) into T
/// (`tShape`, contiguous) when `load`, else stores T into M's tile.
std::string moveKernel(bool load, const std::string &order,
                       const std::string &tileType, const std::string &tShape,
                       const std::string &tStride, const std::string &tSet) {
  std::string mTile = "%tm = ktdp.construct_access_tile %M[%r, %c] "
                      "{access_tile_set = " +
                      std::string(kTileSet) + ", access_tile_order = " + order +
                      "} : memref<40x1000xf32> -> !ktdp.access_tile<" +
                      tileType + "xindex>";
  std::string tTile = "%tt = ktdp.construct_access_tile %T[%c0, %c0] "
                      "{access_tile_set = " +
                      tSet +
                      ", access_tile_order = affine_map<(d0, d1) -> (d0, "
                      "d1)>} : memref<" +
                      tileType + "xf32> -> !ktdp.access_tile<" + tileType +
                      "xindex>";
  std::string from = load ? "%tm" : "%tt", to = load ? "%tt" : "%tm";
  return std::string(R"(
module {
  func.func @k(%m: index, %t: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %r = arith.constant 30 : index
    %c = arith.constant 450 : index
    %M = ktdp.construct_memory_view %m, sizes: [40, 1000], strides: [1003, 1] {coordinate_set = )") +
         kViewSet +
         R"(, memory_space = #ktdp.memory_space<global>} : memref<40x1000xf32>
    %T = ktdp.construct_memory_view %t, sizes: [)" +
         tShape + "], strides: [" + tStride + R"(, 1] {coordinate_set = )" +
         tSet + R"(, memory_space = #ktdp.memory_space<global>} : memref<)" +
         tileType + R"(xf32>
    )" + mTile +
         R"(
    )" + tTile +
         R"(
    %v = ktdp.load )" +
         from + " : !ktdp.access_tile<" + tileType + "xindex> -> tensor<" +
         tileType + R"(xf32>
    ktdp.store %v, )" +
         to + " : tensor<" + tileType + "xf32>, !ktdp.access_tile<" + tileType +
         R"(xindex>
    return
  }
}
)";
}

const char *const kIdentity = "affine_map<(d0, d1) -> (d0, d1)>";
const char *const kTranspose = "affine_map<(d0, d1) -> (d1, d0)>";
const char *const kSet16x600 =
    "affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 599 >= 0)>";
const char *const kSet600x16 =
    "affine_set<(d0, d1) : (d0 >= 0, -d0 + 599 >= 0, d1 >= 0, -d1 + 15 >= 0)>";

/// M's memory: element k = k + 0.5 (distinct, exact in f32), the gaps
/// between rows included.
Tensor distinctM() {
  Tensor t = Tensor::zeros(DType::F32, {kRows, kRowStride});
  for (int64_t k = 0; k < kRows * kRowStride; ++k)
    t.floats[k] = static_cast<double>(k) + 0.5;
  return t;
}

/// Whether tile element (i, j) (row-major box order) is inside the view.
bool inView(int64_t i, int64_t j) {
  return kAtRow + i < kRows && kAtCol + j < kCols;
}

/// The memory index of tile element (i, j).
int64_t memIndex(int64_t i, int64_t j) {
  return (kAtRow + i) * kRowStride + kAtCol + j;
}

TEST(TileMoves, LoadCopiesStridedClampedRowsAcrossPages) {
  auto run = KernelRun::fromText(
      moveKernel(true, kIdentity, "16x600", "16, 600", "600", kSet16x600));
  ASSERT_TRUE(run->ok()) << run->errors;
  Tensor m = distinctM();
  run->input("m", m);
  ASSERT_TRUE(run->run()) << run->errors;
  std::vector<double> ref(kTileRows * kTileCols, 0.0); // clamped: 0
  for (int64_t i = 0; i < kTileRows; ++i)
    for (int64_t j = 0; j < kTileCols; ++j)
      if (inView(i, j))
        ref[i * kTileCols + j] = m.floats[memIndex(i, j)];
  expectClose(run->output("t"), ref, Tolerance::exact(), "T");
}

TEST(TileMoves, LoadOfAPermutedTileMovesColumns) {
  auto run = KernelRun::fromText(
      moveKernel(true, kTranspose, "600x16", "600, 16", "16", kSet600x16));
  ASSERT_TRUE(run->ok()) << run->errors;
  Tensor m = distinctM();
  run->input("m", m);
  ASSERT_TRUE(run->run()) << run->errors;
  std::vector<double> ref(kTileRows * kTileCols, 0.0);
  for (int64_t i = 0; i < kTileRows; ++i)
    for (int64_t j = 0; j < kTileCols; ++j)
      if (inView(i, j))
        ref[j * kTileRows + i] = m.floats[memIndex(i, j)];
  expectClose(run->output("t"), ref, Tolerance::exact(), "T");
}

/// T's elements: k = -(k + 1), none equal to M's.
Tensor distinctT(std::vector<int64_t> shape) {
  Tensor t = Tensor::zeros(DType::F32, shape);
  for (size_t k = 0; k < t.floats.size(); ++k)
    t.floats[k] = -static_cast<double>(k + 1);
  return t;
}

/// M after storing T (tile element (i, j) at T's flat `tIndex(i, j)`).
template <typename F> std::vector<double> storedM(const Tensor &t, F tIndex) {
  Tensor m = distinctM();
  std::vector<double> ref = m.floats;
  for (int64_t i = 0; i < kTileRows; ++i)
    for (int64_t j = 0; j < kTileCols; ++j)
      if (inView(i, j))
        ref[memIndex(i, j)] = t.floats[tIndex(i, j)];
  return ref;
}

TEST(TileMoves, StoreWritesStridedClampedRowsIntoSharedDataOnce) {
  std::string kernel =
      moveKernel(false, kIdentity, "16x600", "16, 600", "600", kSet16x600);
  Tensor t = distinctT({kTileRows, kTileCols});
  std::vector<double> ref =
      storedM(t, [](int64_t i, int64_t j) { return i * kTileCols + j; });
  // Two runs bound to one InputSpec, as --check's interpreter runs are:
  // the first run's stores must not reach the shared data.
  InputSpec shared = InputSpec::fromTensor(distinctM());
  for (int attempt = 0; attempt < 2; ++attempt) {
    auto run = KernelRun::fromText(kernel);
    ASSERT_TRUE(run->ok()) << run->errors;
    run->input("m", shared);
    run->input("t", t);
    ASSERT_TRUE(run->run()) << run->errors;
    expectClose(run->output("m"), ref, Tolerance::exact(), "M");
    EXPECT_EQ(shared.data->tensor().floats, distinctM().floats)
        << "run " << attempt << " wrote into the shared input";
  }
}

TEST(TileMoves, StoreOfAPermutedTileWritesColumns) {
  auto run = KernelRun::fromText(
      moveKernel(false, kTranspose, "600x16", "600, 16", "16", kSet600x16));
  ASSERT_TRUE(run->ok()) << run->errors;
  Tensor t = distinctT({kTileCols, kTileRows});
  run->input("m", distinctM());
  run->input("t", t);
  ASSERT_TRUE(run->run()) << run->errors;
  std::vector<double> ref =
      storedM(t, [](int64_t i, int64_t j) { return j * kTileRows + i; });
  expectClose(run->output("m"), ref, Tolerance::exact(), "M");
}

} // namespace
