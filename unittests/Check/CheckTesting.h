//===- CheckTesting.h - Helpers of the --check tolerance tests -*- C++ -*-===//
//
// This file holds what the tests of the check's reorder bounds share: f16
// rounding and ulps computed independently of the library, f16 bytes of a
// device-like result, a kernel parsed from text, the reference run with its
// bounds, and an all-reduce kernel.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_UNITTESTS_CHECK_CHECKTESTING_H
#define KTFLOW_UNITTESTS_CHECK_CHECKTESTING_H

#include "ktflow/Check/Check.h"

#include "ktflow/Machine/Values.h"
#include "ktflow/Registration/Registration.h"
#include "ktflow/Support/ArgumentNames.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <cmath>
#include <string>

namespace ktflow::check::checktest {

inline double ulpF16(double x) {
  int e = std::max(std::ilogb(std::fabs(x)), -14);
  return std::ldexp(1.0, e - 10);
}

inline double f16(double v) {
  return static_cast<double>(static_cast<_Float16>(v));
}

inline std::vector<uint8_t> halfBytes(const std::vector<double> &values) {
  std::vector<uint8_t> bytes(2 * values.size());
  for (size_t i = 0; i < values.size(); ++i)
    machine::storeElement(machine::ElemType::f16, values[i],
                          bytes.data() + 2 * i);
  return bytes;
}

inline std::vector<double> valuesOf(const host::Tensor &t) {
  std::vector<double> v(t.numElements());
  for (int64_t i = 0; i < t.numElements(); ++i)
    v[i] = t.getDouble(i);
  return v;
}

/// Expects `result` to fail on exactly one of `elements` elements, `at`.
inline void expectOneElementFails(const CheckResult &result, int64_t elements,
                                  int64_t at) {
  EXPECT_FALSE(result.pass);
  std::string failure = "1 of " + std::to_string(elements) +
                        " elements out of tolerance (first at " +
                        std::to_string(at) + ":";
  EXPECT_NE(result.summary.find(failure), std::string::npos) << result.summary;
}

/// Parses kernel `text` into `module`, in a new `context` that has every
/// dialect ktflow reads, its arguments named as the text names them.
inline void parseKernel(llvm::StringRef text,
                        std::unique_ptr<mlir::MLIRContext> &context,
                        mlir::OwningOpRef<mlir::ModuleOp> &module) {
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  context = std::make_unique<mlir::MLIRContext>(registry);
  module = mlir::parseSourceString<mlir::ModuleOp>(text, context.get());
  ASSERT_TRUE(module);
  nameArguments(*module, text);
}

/// Runs the reference interpreter on `module` with `inputs` (name, data)
/// and sets `expected` to its outputs `names` and `bounds` to their reorder
/// bounds.
inline void
runReference(mlir::ModuleOp module,
             llvm::ArrayRef<std::pair<std::string, host::Tensor>> inputs,
             llvm::ArrayRef<std::string> names, ReferenceBindings &bindings,
             std::vector<host::Tensor> &expected,
             std::vector<std::vector<double>> &bounds) {
  interp::Interpreter reference(module);
  ASSERT_FALSE(static_cast<bool>(reference.selectFunction()));
  for (const auto &[name, tensor] : inputs) {
    bindings.inputs.push_back({name, host::InputSpec::fromTensor(tensor)});
    ASSERT_FALSE(static_cast<bool>(
        reference.setInput(name, host::InputSpec::fromTensor(tensor))));
  }
  ASSERT_TRUE(mlir::succeeded(reference.run()));
  for (const std::string &name : names) {
    auto t = reference.getTensor(name);
    ASSERT_TRUE(static_cast<bool>(t));
    expected.push_back(std::move(*t));
  }
  auto computed = computeReorderBounds(module, {}, bindings, names, expected);
  ASSERT_TRUE(static_cast<bool>(computed))
      << llvm::toString(computed.takeError());
  bounds = std::move(*computed);
}

/// An all-reduce over a [`tiles`] grid: tile t loads row t of X (tiles x
/// `columns` f16) as its partial, every tile sums the partials into %c
/// with `linalg.add` (each step rounded to f16), and tile t stores
/// `result` into row t of Y (tiles x `resultColumns` f16). `arguments`
/// (", %w: index") and `epilogue` (lines that may use %c0, %zero and %c)
/// compute the result from %c.
inline std::string allReduceKernel(int64_t tiles, int64_t columns,
                                   int64_t resultColumns,
                                   llvm::StringRef arguments = "",
                                   llvm::StringRef epilogue = "",
                                   llvm::StringRef result = "%c") {
  auto n = [](int64_t v) { return std::to_string(v); };
  std::string partial = "tensor<1x" + n(columns) + "xf16>";
  std::string future =
      "<(" + partial + "), groups = affine_set<(g) : (g == 0)>>";
  auto view = [&](char name, int64_t cols) {
    return "    %" + std::string(1, name) + " = ktdp.construct_memory_view %" +
           std::string(1, static_cast<char>(name - 'A' + 'a')) + ", sizes: [" +
           n(tiles) + ", " + n(cols) + "], strides: [" + n(cols) +
           ", 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= "
           "0, -d0 + " +
           n(tiles - 1) + " >= 0, d1 >= 0, -d1 + " + n(cols - 1) +
           " >= 0)>, memory_space = "
           "#ktdp.memory_space<global>} : memref<" +
           n(tiles) + "x" + n(cols) + "xf16>\n";
  };
  auto row = [&](char name, int64_t cols) {
    return "ktdp.construct_access_tile %" + std::string(1, name) +
           "[%t, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 "
           ">= 0, -d1 + " +
           n(cols - 1) +
           " >= 0)>, access_tile_order = "
           "affine_map<(d0, d1) -> (d0, d1)>} : memref<" +
           n(tiles) + "x" + n(cols) + "xf16> -> !ktdp.access_tile<1x" +
           n(cols) + "xindex>";
  };
  std::string out = "tensor<1x" + n(resultColumns) + "xf16>";
  return "#all = affine_set<(i)[g] : (i >= 0, -i + " + n(tiles - 1) +
         " >= 0)>\nmodule {\n  func.func @all_reduce(%x: index" +
         arguments.str() + ", %y: index) attributes {grid = [" + n(tiles) +
         "]} {\n    %t = ktdp.get_compute_tile_id : index\n    %c0 = "
         "arith.constant 0 : index\n" +
         view('X', columns) + view('Y', resultColumns) +
         "    %tx = " + row('X', columns) + "\n    %p = ktdp.load %tx : <1x" +
         n(columns) + "xindex> -> " + partial +
         "\n    %zero = arith.constant dense<0.0> : " + partial +
         "\n    %f = ktdp.inter_tile_produce producer_tiles_per_group = "
         "#all -> " +
         future +
         " {\n    ^bb0(%gid: index):\n      "
         "ktdp.yield_partial %p : " +
         partial +
         "\n    }\n    %c = "
         "ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all, "
         "identity(%zero : " +
         partial + ") : " + future + " -> " + partial +
         " {\n    ^bb0(%l: " + partial + ", %r: " + partial +
         "):\n      "
         "%a = linalg.add ins(%l, %r : " +
         partial + ", " + partial + ") outs(%l : " + partial + ") -> " +
         partial +
         "\n      "
         "ktdp.yield_reduced %a : " +
         partial + "\n    }\n" + epilogue.str() +
         "    %ty = " + row('Y', resultColumns) + "\n    ktdp.store " +
         result.str() + ", %ty : " + out + ", <1x" + n(resultColumns) +
         "xindex>\n    return\n  }\n}\n";
}

/// The epilogue of allReduceKernel (arguments ", %w: index", result "%d")
/// that multiplies C by weights: C = the f16 all-reduce over tiles t of
/// X[t, :] (linalg.add), on every tile; Y[t, :] = C . W (W 2x2 f16).
inline const char *kProduct = R"(
    %W = ktdp.construct_memory_view %w, sizes: [2, 2], strides: [2, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 1 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x2xf16>
    %tw = ktdp.construct_access_tile %W[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 1 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<2x2xf16> -> !ktdp.access_tile<2x2xindex>
    %wv = ktdp.load %tw : <2x2xindex> -> tensor<2x2xf16>
    %d = linalg.matmul ins(%c, %wv : tensor<1x2xf16>, tensor<2x2xf16>) outs(%zero : tensor<1x2xf16>) -> tensor<1x2xf16>
)";

} // namespace ktflow::check::checktest

#endif // KTFLOW_UNITTESTS_CHECK_CHECKTESTING_H
