//===- AccessTileParserTest.cpp - Custom syntax of the access-tile ops ----===//
//
// This file parses construct_indirect_access_tile and construct_access_tile
// from strings through the C++ API and checks what the custom parsers
// build: the canonical subscript-map domain (captured..., intermediate...),
// the subscript kinds, the operand segments, and the base_map built from
// the bracket expressions.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Registration/Registration.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::ktdp;

namespace {

class AccessTileParserTest : public ::testing::Test {
protected:
  AccessTileParserTest() : context(makeRegistry()) {
    context.loadAllAvailableDialects();
  }

  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    ktflow::registerAllDialects(registry);
    return registry;
  }

  /// Parses `body` as the body of `func.func @f(<args>)` and returns the
  /// first op of type OpTy in it.
  template <typename OpTy> OpTy parseOp(StringRef args, StringRef body) {
    std::string text =
        ("func.func @f(" + args + ") {\n" + body + "\n  return\n}\n").str();
    module = parseSourceString<ModuleOp>(text, &context);
    EXPECT_TRUE(module) << text;
    if (!module)
      return {};
    OpTy found;
    module->walk([&](OpTy op) {
      if (!found)
        found = op;
    });
    EXPECT_TRUE(found);
    return found;
  }

  func::FuncOp func() {
    return llvm::cast<func::FuncOp>(module->getBody()->front());
  }

  AffineMap map(StringRef text) {
    auto attr =
        llvm::dyn_cast_or_null<AffineMapAttr>(parseAttribute(text, &context));
    EXPECT_TRUE(attr) << text.str();
    return attr ? attr.getValue() : AffineMap();
  }

  /// Maps compare equal after simplification: the parser may build `a + b`
  /// where the expected string builds `b + a`.
  static bool same(AffineMap a, AffineMap b) {
    return a && b && simplifyAffineMap(a) == simplifyAffineMap(b);
  }

  static SmallVector<int32_t> segments(Operation *op) {
    auto attr = op->getAttrOfType<DenseI32ArrayAttr>("operandSegmentSizes");
    return attr ? SmallVector<int32_t>(attr.asArrayRef())
                : SmallVector<int32_t>();
  }

  static SmallVector<bool> kinds(ConstructIndirectAccessTileOp op) {
    SmallVector<bool> result;
    for (Attribute kind : op.getPerDimSubscriptKinds())
      result.push_back(llvm::cast<BoolAttr>(kind).getValue());
    return result;
  }

  static SmallVector<AffineMap> maps(ConstructIndirectAccessTileOp op) {
    SmallVector<AffineMap> result;
    for (Attribute m : op.getPerDimSubscriptMaps())
      result.push_back(llvm::cast<AffineMapAttr>(m).getValue());
    return result;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

constexpr StringLiteral kSet2 =
    "variables_space_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, "
    "d1 >= 0, -d1 + 127 >= 0)>, variables_space_order = "
    "affine_map<(d0, d1) -> (d0, d1)>";

TEST_F(AccessTileParserTest, IndirectCanonicalDomain) {
  // Domain: (%off, %b, %t) -> (d0, d1, d2).
  auto op = parseOp<ConstructIndirectAccessTileOp>(
      "%X: memref<1000x64xf16>, %Idx: memref<4x2xi32>, %off: index",
      ("  %0 = ktdp.construct_indirect_access_tile intermediate_variables(%b, "
       "%t) %X[ind(%Idx[%b, %t floordiv 64]), (%off + %t mod 64)] {" +
       kSet2 +
       "} : memref<1000x64xf16>, memref<4x2xi32> -> "
       "!ktdp.access_tile<4x128xindex>")
          .str());
  ASSERT_TRUE(op);
  EXPECT_EQ(kinds(op), (SmallVector<bool>{true, false}));
  SmallVector<AffineMap> m = maps(op);
  ASSERT_EQ(m.size(), 2u);
  EXPECT_TRUE(
      same(m[0], map("affine_map<(d0, d1, d2) -> (d1, d2 floordiv 64)>")));
  EXPECT_TRUE(same(m[1], map("affine_map<(d0, d1, d2) -> (d0 + d2 mod 64)>")));
  EXPECT_EQ(segments(op), (SmallVector<int32_t>{1, 1, 1, 0}));

  Block &entry = func().getBody().front();
  EXPECT_EQ(op.getBase(), entry.getArgument(0));
  ASSERT_EQ(op.getIndirectMemrefs().size(), 1u);
  EXPECT_EQ(op.getIndirectMemrefs()[0], entry.getArgument(1));
  ASSERT_EQ(op.getCapturedVariables().size(), 1u);
  EXPECT_EQ(op.getCapturedVariables()[0], entry.getArgument(2));
  EXPECT_EQ(op.getIntermediateVariables().size(), 2u);
  for (BlockArgument v : op.getIntermediateVariables())
    EXPECT_TRUE(v.getType().isIndex());
  EXPECT_TRUE(op.getSymbolOperands().empty());
}

TEST_F(AccessTileParserTest, CapturedInOrderOfFirstAppearance) {
  // %q appears before %p, so the domain is (%q, %p, %i, %j).
  auto op = parseOp<ConstructIndirectAccessTileOp>(
      "%X: memref<64x64xf16>, %p: index, %q: index",
      ("  %0 = ktdp.construct_indirect_access_tile intermediate_variables(%i, "
       "%j) %X[(%j + %q), (%p * 2 + %i + %q)] {" +
       kSet2 + "} : memref<64x64xf16> -> !ktdp.access_tile<4x128xindex>")
          .str());
  ASSERT_TRUE(op);
  Block &entry = func().getBody().front();
  ASSERT_EQ(op.getCapturedVariables().size(), 2u);
  EXPECT_EQ(op.getCapturedVariables()[0], entry.getArgument(2)); // %q
  EXPECT_EQ(op.getCapturedVariables()[1], entry.getArgument(1)); // %p
  EXPECT_EQ(kinds(op), (SmallVector<bool>{false, false}));
  SmallVector<AffineMap> m = maps(op);
  EXPECT_TRUE(same(m[0], map("affine_map<(d0, d1, d2, d3) -> (d0 + d3)>")));
  EXPECT_TRUE(
      same(m[1], map("affine_map<(d0, d1, d2, d3) -> (d0 + d1 * 2 + d2)>")));
  EXPECT_EQ(segments(op), (SmallVector<int32_t>{1, 0, 2, 0}));
  for (AffineMap each : m) {
    EXPECT_EQ(each.getNumDims(), 4u);
    EXPECT_EQ(each.getNumSymbols(), 0u);
  }
}

TEST_F(AccessTileParserTest, TwoIndexViewsAndSymbols) {
  auto op = parseOp<ConstructIndirectAccessTileOp>(
      "%X: memref<64x64xf16>, %A: memref<?x8xi32>, %B: memref<?xi64>, "
      "%n: index",
      "  %0 = ktdp.construct_indirect_access_tile intermediate_variables(%r, "
      "%c) %X[ind(%A[%r, %c]), ind(%B[%r])] symbols(%n) {"
      "variables_space_set = affine_set<(d0, d1)[s0] : (d0 >= 0, "
      "-d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 7 >= 0)>, variables_space_order = "
      "affine_map<(d0, d1) -> (d1, d0)>} : memref<64x64xf16>, "
      "memref<?x8xi32>, memref<?xi64> -> !ktdp.access_tile<8x?xindex>");
  ASSERT_TRUE(op);
  Block &entry = func().getBody().front();
  EXPECT_EQ(kinds(op), (SmallVector<bool>{true, true}));
  EXPECT_TRUE(same(maps(op)[0], map("affine_map<(d0, d1) -> (d0, d1)>")));
  EXPECT_TRUE(same(maps(op)[1], map("affine_map<(d0, d1) -> (d0)>")));
  EXPECT_EQ(segments(op), (SmallVector<int32_t>{1, 2, 0, 1}));
  EXPECT_EQ(op.getIndirectMemrefs()[0], entry.getArgument(1));
  EXPECT_EQ(op.getIndirectMemrefs()[1], entry.getArgument(2));
  ASSERT_EQ(op.getSymbolOperands().size(), 1u);
  EXPECT_EQ(op.getSymbolOperands()[0], entry.getArgument(3));
}

TEST_F(AccessTileParserTest, EmptyVariableSpace) {
  auto op = parseOp<ConstructIndirectAccessTileOp>(
      "%X: memref<64xf16>, %Idx: memref<8xi32>, %p: index",
      "  %0 = ktdp.construct_indirect_access_tile intermediate_variables() "
      "%X[ind(%Idx[%p + 1])] {variables_space_set = affine_set<() : ()>, "
      "variables_space_order = affine_map<() -> ()>} : memref<64xf16>, "
      "memref<8xi32> -> !ktdp.access_tile<index>");
  ASSERT_TRUE(op);
  EXPECT_TRUE(op.getIntermediateVariables().empty());
  EXPECT_TRUE(same(maps(op)[0], map("affine_map<(d0) -> (d0 + 1)>")));
  EXPECT_EQ(segments(op), (SmallVector<int32_t>{1, 1, 1, 0}));
  EXPECT_TRUE(op.getResult().getType().getShape().empty());
}

TEST_F(AccessTileParserTest, DirectBaseMap) {
  auto op = parseOp<ConstructAccessTileOp>(
      "%m: memref<64x64xf16>, %i: index, %j: index, %s: index",
      "  %0 = ktdp.construct_access_tile %m[%i * 2, %j + 4] symbols(%s) {"
      "access_tile_set = affine_set<(d0, d1)[s0] : (d0 >= 0, "
      "-d0 + s0 >= 0, d1 >= 0, -d1 + 3 >= 0)>, access_tile_order = "
      "affine_map<(d0, d1) -> (d1, d0)>} : memref<64x64xf16> -> "
      "!ktdp.access_tile<4x?xindex>");
  ASSERT_TRUE(op);
  Block &entry = func().getBody().front();
  EXPECT_TRUE(
      same(op.getBaseMap(), map("affine_map<(d0, d1) -> (d0 * 2, d1 + 4)>")));
  ASSERT_EQ(op.getIndices().size(), 2u);
  EXPECT_EQ(op.getIndices()[0], entry.getArgument(1));
  EXPECT_EQ(op.getIndices()[1], entry.getArgument(2));
  ASSERT_EQ(op.getSymbolOperands().size(), 1u);
  EXPECT_EQ(op.getSymbolOperands()[0], entry.getArgument(3));
  EXPECT_EQ(segments(op), (SmallVector<int32_t>{1, 2, 1}));
  EXPECT_TRUE(
      same(op.getAccessTileOrder(), map("affine_map<(d0, d1) -> (d1, d0)>")));
}

TEST_F(AccessTileParserTest, BaseMapDimsInOrderOfFirstAppearance) {
  // %j comes first, so it is d0; a repeated name is one dimension.
  auto op = parseOp<ConstructAccessTileOp>(
      "%m: memref<64x64xf16>, %i: index, %j: index",
      "  %0 = ktdp.construct_access_tile %m[%j floordiv 4, %i + %j mod 8] {"
      "access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 == 0)>, "
      "access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : "
      "memref<64x64xf16> -> !ktdp.access_tile<1x1xindex>");
  ASSERT_TRUE(op);
  Block &entry = func().getBody().front();
  EXPECT_TRUE(
      same(op.getBaseMap(),
           map("affine_map<(d0, d1) -> (d0 floordiv 4, d1 + d0 mod 8)>")));
  ASSERT_EQ(op.getIndices().size(), 2u);
  EXPECT_EQ(op.getIndices()[0], entry.getArgument(2));
  EXPECT_EQ(op.getIndices()[1], entry.getArgument(1));
}

TEST_F(AccessTileParserTest, ConstantAnchor) {
  auto op = parseOp<ConstructAccessTileOp>(
      "%m: tensor<4x8xf32>",
      "  %0 = ktdp.construct_access_tile %m[0, 3] {access_tile_set = "
      "affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 == 0)>, "
      "access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : "
      "tensor<4x8xf32> -> !ktdp.access_tile<4x1xindex>");
  ASSERT_TRUE(op);
  EXPECT_TRUE(same(op.getBaseMap(), map("affine_map<() -> (0, 3)>")));
  EXPECT_TRUE(op.getIndices().empty());
  EXPECT_EQ(segments(op), (SmallVector<int32_t>{1, 0, 0}));
}

TEST_F(AccessTileParserTest, ParseErrorsAreReported) {
  std::string seen;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    if (seen.empty())
      seen = diag.str();
    return success();
  });
  module = parseSourceString<ModuleOp>(
      "func.func @f(%X: memref<64xf16>) {\n"
      "  %0 = ktdp.construct_indirect_access_tile intermediate_variables(%i) "
      "%X[%i] {variables_space_set = affine_set<(d0) : (d0 == 0)>, "
      "variables_space_order = affine_map<(d0) -> (d0)>} : memref<64xf16> "
      "-> !ktdp.access_tile<1xindex>\n  return\n}\n",
      &context);
  EXPECT_FALSE(module);
  EXPECT_NE(seen.find("unexpected token in subscript list, expected 'ind', "
                      "'(', or ']'"),
            std::string::npos)
      << seen;
}

} // namespace
