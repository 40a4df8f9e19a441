//===- CompiledAffineExprTest.cpp - Affine expressions compiled once ------===//
//
// Tests ktflow/Analysis/CompiledAffineExpr.h: a compiled expression gives
// what mlir::ktdp::evaluateAffineExpr gives (value or failure) at every
// point of a grid of negative and positive dims, for strided, modular,
// nested and symbol-dependent expressions; and the roofline's byte count
// of an indirect tile whose subscripts are strided, modular and indirect
// at once, which evaluates them compiled.
//
//===----------------------------------------------------------------------===//

#include "DemandTestSupport.h"

#include "ktflow/Analysis/CompiledAffineExpr.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"

#include "mlir/AsmParser/AsmParser.h"

using namespace mlir;
using namespace ktflow;

namespace {

class CompiledAffineExprTest : public analysis_testing::DemandTest {};

TEST_F(CompiledAffineExprTest, AgreesWithTheTreeEvaluator) {
  const char *maps[] = {
      // Strided (linear): the coefficient path.
      "affine_map<(d0, d1, d2)[s0] -> (d0 * 65536 + d1 * 128 - d2 + 3, "
      "s0 * 4 + d2 * 2)>",
      // Modular and divided: the program path, floor not truncation.
      "affine_map<(d0, d1, d2)[s0] -> (d0 floordiv 4, d1 mod 3, "
      "(d0 * 7 + d2) ceildiv 5, (d1 - d2 * 3) mod 4 + d0 floordiv 2)>",
      // Nested, symbols as factors and divisors (0 fails).
      "affine_map<(d0, d1, d2)[s0] -> (((d0 + d1) mod 5) floordiv 2 * 3 + "
      "d2, d0 * s0 - d2, d0 floordiv s0, d1 mod s0, (d2 + s0) * s0)>",
      // Intermediates past 64 bits fail.
      "affine_map<(d0, d1, d2)[s0] -> (d0 * 4611686018427387904, "
      "(d1 + 9223372036854775807) floordiv 2)>"};
  int checked = 0;
  for (const char *text : maps) {
    AffineMap map =
        cast<AffineMapAttr>(parseAttribute(text, &context)).getValue();
    for (AffineExpr expr : map.getResults()) {
      CompiledExpr compiled = CompiledExpr::compile(expr, map.getNumDims());
      for (int64_t d0 = -5; d0 <= 5; ++d0)
        for (int64_t d1 = -4; d1 <= 4; ++d1)
          for (int64_t d2 = -3; d2 <= 3; ++d2)
            for (int64_t s0 : {-3, 0, 2}) {
              int64_t dims[] = {d0, d1, d2}, symbols[] = {s0};
              EXPECT_EQ(compiled.eval(dims, symbols),
                        ktdp::evaluateAffineExpr(expr, dims, symbols))
                  << text << " at " << d0 << ", " << d1 << ", " << d2 << " ["
                  << s0 << "]";
              ++checked;
            }
      // Too few dims or symbols fail as the tree evaluator does.
      int64_t one[] = {1};
      EXPECT_EQ(compiled.eval(one, {}),
                ktdp::evaluateAffineExpr(expr, one, {}));
    }
  }
  EXPECT_GT(checked, 10000);
}

TEST_F(CompiledAffineExprTest, IndirectTileBytesThroughModularSubscripts) {
  // Tile point (b, t, h), b < 2, t < 6, h < 2, reads
  // X[Idx[b, t floordiv 2], (t mod 2) + h * 3]: the six rows Idx holds
  // (3, 7, 1, 0, 9, 5), each at columns 0, 1, 3 and 4 (8 distinct bytes of
  // f16): 48 bytes, plus Idx's six i32 (24 bytes). A floordiv read as mod
  // reads Idx[b, 0..1] only; t rather than t mod 2 reaches column 6,
  // outside X; h * 3 read as h overlaps columns.
  const char *source = R"mlir(
#x = affine_set<(d0, d1) : (d0 >= 0, -d0 + 9 >= 0, d1 >= 0, -d1 + 5 >= 0)>
#idx = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 2 >= 0)>
#space = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 5 >= 0, d2 >= 0, -d2 + 1 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @k(%x: index, %i: index) {
  %X = ktdp.construct_memory_view %x, sizes: [10, 6], strides: [6, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<10x6xf16>
  %Idx = ktdp.construct_memory_view %i, sizes: [2, 3], strides: [3, 1] {coordinate_set = #idx, memory_space = #ktdp.memory_space<global>} : memref<2x3xi32>
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%b, %s, %h) %X[ind(%Idx[%b, (%s floordiv 2)]), ((%s mod 2) + %h * 3)] {variables_space_set = #space, variables_space_order = #id3} : memref<10x6xf16>, memref<2x3xi32> -> !ktdp.access_tile<2x6x2xindex>
  %v = ktdp.load %t : <2x6x2xindex> -> tensor<2x6x2xf16>
  return
}
)mlir";
  const int64_t idx[] = {3, 7, 1, 0, 9, 5};
  IndexValues values = [&](TensorLocation tensor,
                           int64_t element) -> std::optional<int64_t> {
    if (tensor.literal || tensor.position != 1 || element < 0 || element >= 6)
      return std::nullopt;
    return idx[element];
  };
  device::KernelDemand demand = countText(source, ScalarArgs(), values);
  EXPECT_EQ(demand.bytesRead, 6u * 4 * 2 + 6 * 4);
  EXPECT_TRUE(demand.gaps.empty());
}

} // namespace
