//===- IndirectRunsTest.cpp - Indirect loads a row at a time --------------===//
//
// This file tests the runs of ktdp.load through indirect tiles
// (lib/Interpreter/TileCoordinates.cpp, LoadStore.cpp): a row of the tile's
// innermost dimension whose coordinates step by a constant moves as one
// strided or contiguous run, and every other row point by point. The
// kernels below gather rows of a cache through a table, as paged attention
// does, and three of them are made so that a row's first, second and last
// points line up although the points between do not: a direct subscript
// with a modulo of the innermost variable, an index subscript that
// depends on it, and a row that leaves the view's first part for its
// second. The expected values are computed here with plain index
// arithmetic.
//
//===----------------------------------------------------------------------===//

#include "KernelTestSupport.h"

#include "gtest/gtest.h"

#include <optional>

using namespace ktflow::testing;
using ktflow::host::DType;
using ktflow::host::Tensor;

namespace {

/// The box set `[0, extent)` per dimension and its dims "d0, d1, ...".
std::pair<std::string, std::string>
boxSet(const std::vector<int64_t> &extents) {
  std::string dims, constraints;
  for (size_t d = 0; d < extents.size(); ++d) {
    std::string v = "d" + std::to_string(d), sep = d ? ", " : "";
    dims += sep + v;
    constraints += sep + v + " >= 0, -" + v + " + " +
                   std::to_string(extents[d] - 1) + " >= 0";
  }
  return {"affine_set<(" + dims + ") : (" + constraints + ")>", dims};
}

std::string joined(const std::vector<int64_t> &values, const char *sep) {
  std::string s;
  for (size_t d = 0; d < values.size(); ++d)
    s += (d ? sep : "") + std::to_string(values[d]);
  return s;
}

/// A kernel gathering a `tile`-shaped f32 tile of C (8x64, row stride 64,
/// or `cView` over %c and %c2) through table BT (`btLength` i32) with
/// `subscripts` over the variables `vars` of `varsSet` (in `order`) into T
/// (`tile`, contiguous).
std::string gatherKernel(const std::string &vars, const std::string &varsSet,
                         const std::string &order,
                         const std::string &subscripts, int64_t btLength,
                         const std::vector<int64_t> &tile,
                         const std::string &cView = "") {
  auto [tSet, tDims] = boxSet(tile);
  std::vector<int64_t> strides(tile.size());
  for (int64_t d = tile.size() - 1, stride = 1; d >= 0; --d) {
    strides[d] = stride;
    stride *= tile[d];
  }
  std::string shape = joined(tile, "x");
  std::string tileType = "!ktdp.access_tile<" + shape + "xindex>";
  std::string c =
      cView.empty()
          ? "%C = ktdp.construct_memory_view %c, sizes: [8, 64], strides: "
            "[64, 1] {coordinate_set = " +
                boxSet({8, 64}).first +
                ", memory_space = #ktdp.memory_space<global>} : "
                "memref<8x64xf32>"
          : cView;
  std::string bt = std::to_string(btLength);
  return std::string(R"(
module {
  func.func @k(%c: index, )") +
         (cView.empty() ? "" : "%c2: index, ") +
         R"(%bt: index, %t: index) attributes {grid = [1]} {
    )" + c +
         R"(
    %BT = ktdp.construct_memory_view %bt, sizes: [)" +
         bt + "], strides: [1] {coordinate_set = " + boxSet({btLength}).first +
         ", memory_space = #ktdp.memory_space<global>} : memref<" + bt +
         R"(xi32>
    %T = ktdp.construct_memory_view %t, sizes: [)" +
         joined(tile, ", ") + "], strides: [" + joined(strides, ", ") +
         "] {coordinate_set = " + tSet +
         ", memory_space = #ktdp.memory_space<global>} : memref<" + shape +
         R"(xf32>
    %g = ktdp.construct_indirect_access_tile intermediate_variables()" +
         vars + ") %C[" + subscripts + "] {variables_space_set = " + varsSet +
         ", variables_space_order = " + order +
         "} : memref<8x64xf32>, memref<" + bt + "xi32> -> " + tileType + R"(
    %tt = ktdp.construct_access_tile %T[)" +
         joined(std::vector<int64_t>(tile.size(), 0), ", ") +
         "] {access_tile_set = " + tSet + ", access_tile_order = affine_map<(" +
         tDims + ") -> (" + tDims + ")>} : memref<" + shape + "xf32> -> " +
         tileType + R"(
    %v = ktdp.load %g : )" +
         tileType + " -> tensor<" + shape + R"(xf32>
    ktdp.store %v, %tt : tensor<)" +
         shape + "xf32>, " + tileType + R"(
    return
  }
}
)";
}

double cAt(int64_t r, int64_t c) { return 100.0 * r + c + 0.5; }

/// Runs `kernel` with C's elements (r, c) = cAt(r, c) (distinct and exact
/// in f32), table `bt` and, when given, the second part `c2`, and expects
/// T to be `ref`.
void expectGather(const std::string &kernel, std::vector<int64_t> bt,
                  const std::vector<double> &ref,
                  std::optional<Tensor> c2 = std::nullopt) {
  auto run = KernelRun::fromText(kernel);
  ASSERT_TRUE(run->ok()) << run->errors;
  Tensor c = Tensor::zeros(DType::F32, {8, 64});
  for (int64_t r = 0; r < 8; ++r)
    for (int64_t col = 0; col < 64; ++col)
      c.floats[r * 64 + col] = cAt(r, col);
  Tensor table = Tensor::zeros(DType::I32, {static_cast<int64_t>(bt.size())});
  table.ints = std::move(bt);
  run->input("c", c);
  if (c2)
    run->input("c2", *c2);
  run->input("bt", table);
  ASSERT_TRUE(run->run()) << run->errors;
  expectClose(run->output("t"), ref, Tolerance::exact(), "T");
}

/// Page p's token t, element e: C[BT[p], 16 t + e].
const char *const kPageVars = "%p, %tok, %e";
const char *const kPageSubscripts = "ind(%BT[%p]), (%tok * 16 + %e)";
const std::vector<int64_t> kPages = {5, 2, 7, 0};

/// Gathers the pages of kPages as a 4x4x16 (page, token, element) tile,
/// or 4x16x4 (page, element, token) with `tokensInner`: then a row runs
/// over the tokens, 16 elements apart.
void expectPages(bool tokensInner) {
  int64_t outer = tokensInner ? 16 : 4, inner = tokensInner ? 4 : 16;
  std::vector<double> ref;
  for (int64_t p = 0; p < 4; ++p)
    for (int64_t a = 0; a < outer; ++a)
      for (int64_t b = 0; b < inner; ++b) {
        int64_t t = tokensInner ? b : a, e = tokensInner ? a : b;
        ref.push_back(cAt(kPages[p], 16 * t + e));
      }
  expectGather(gatherKernel(kPageVars, boxSet({4, 4, 16}).first,
                            tokensInner
                                ? "affine_map<(d0, d1, d2) -> (d0, d2, d1)>"
                                : "affine_map<(d0, d1, d2) -> (d0, d1, d2)>",
                            kPageSubscripts, 4, {4, outer, inner}),
               kPages, ref);
}

TEST(IndirectRuns, ContiguousRowsOfGatheredPages) { expectPages(false); }

TEST(IndirectRuns, StridedRowsOfTransposedPages) { expectPages(true); }

const char *const kRowOrder = "affine_map<(d0, d1) -> (d0, d1)>";

TEST(IndirectRuns, ModuloOfTheRowVariableIsNotARun) {
  // Column (e mod 3) + 3 (e floordiv 4) = 0, 1, 2, 0, 4: the first, second
  // and last points line up with step 1, point 3 does not.
  std::vector<int64_t> bt = {6, 1};
  std::vector<double> ref;
  for (int64_t r = 0; r < 2; ++r)
    for (int64_t e = 0; e < 5; ++e)
      ref.push_back(cAt(bt[r], e % 3 + (e / 4) * 3));
  expectGather(gatherKernel("%r, %e", boxSet({2, 5}).first, kRowOrder,
                            "ind(%BT[%r]), ((%e mod 3) + (%e floordiv 4) * 3)",
                            2, {2, 5}),
               bt, ref);
}

TEST(IndirectRuns, IndexReadAlongTheRowIsNotARun) {
  // Row BT[e] = 0, 1, 5, 3 of column 5: the ends and the second point line
  // up with step 1, point 2 does not.
  std::vector<int64_t> bt = {0, 1, 5, 3};
  std::vector<double> ref;
  for (int64_t e = 0; e < 4; ++e)
    ref.push_back(cAt(bt[e], 5));
  expectGather(gatherKernel("%e", boxSet({4}).first, "affine_map<(d0) -> (d0)>",
                            "ind(%BT[%e]), (5)", 4, {4}),
               bt, ref);
}

TEST(IndirectRuns, RowLeavingTheFirstPartIsNotARun) {
  // C is two parts: columns 0-31 from %c (whose sizes would cover 64
  // columns) and columns 32-63 from %c2. A row over columns 4, 12, ..., 60
  // starts in the first part and ends in the second.
  std::string parts =
      R"(%C0 = ktdp.construct_memory_view %c, sizes: [8, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 31 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8x64xf32>
    %C1 = ktdp.construct_memory_view %c2, sizes: [8, 32], strides: [32, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 32, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8x32xf32>
    %C = ktdp.construct_distributed_memory_view(%C0, %C1 : memref<8x64xf32>, memref<8x32xf32>) : memref<8x64xf32>)";
  std::vector<int64_t> bt = {3, 6};
  Tensor c2 = Tensor::zeros(DType::F32, {8, 32});
  for (int64_t k = 0; k < 8 * 32; ++k)
    c2.floats[k] = -static_cast<double>(k + 1);
  std::vector<double> ref;
  for (int64_t r = 0; r < 2; ++r)
    for (int64_t e = 0; e < 8; ++e) {
      int64_t col = 8 * e + 4;
      ref.push_back(col < 32 ? cAt(bt[r], col)
                             : c2.floats[bt[r] * 32 + col - 32]);
    }
  expectGather(gatherKernel("%r, %e", boxSet({2, 8}).first, kRowOrder,
                            "ind(%BT[%r]), (%e * 8 + 4)", 2, {2, 8}, parts),
               bt, ref, c2);
}

} // namespace
