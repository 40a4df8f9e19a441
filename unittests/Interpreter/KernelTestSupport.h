//===- KernelTestSupport.h - Running kernels in interpreter tests -*- C++ -*-===//
//
// This file declares the helpers the interpreter's kernel tests share:
// parse a kernel (a file of examples/kernels or inline text), bind inputs,
// run it with diagnostics captured, generate seeded data, and compare with
// a reference computed by the test itself.
//
// Tolerance policy: copies and integer results must match exactly; f16
// results must be within 2 ulp (relative 2^-9, absolute 2^-24) of a
// reference that rounds at the same steps; f32 results within relative
// 1e-5 (absolute 1e-6). The references use the compiler's `_Float16` and
// `float` conversions, not the interpreter's rounding code.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_UNITTESTS_INTERPRETER_KERNELTESTSUPPORT_H
#define KTFLOW_UNITTESTS_INTERPRETER_KERNELTESTSUPPORT_H

#include "ktflow/Interpreter/Interpreter.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

#include <memory>
#include <string>
#include <vector>

namespace ktflow::testing {

/// Rounds through the compiler's binary16 / binary32 conversions.
inline double f16(double x) { return static_cast<double>(static_cast<_Float16>(x)); }
inline double f32(double x) { return static_cast<double>(static_cast<float>(x)); }

/// Per-dtype tolerances of the policy above.
struct Tolerance {
  double rtol = 0, atol = 0;
  static Tolerance exact() { return {0, 0}; }
  static Tolerance half() { return {0x1p-9, 0x1p-24}; }
  static Tolerance single() { return {1e-5, 1e-6}; }
};

/// A seeded tensor of uniform values in [lo, hi) rounded to `dtype`
/// (integers: uniform in [lo, hi)).
host::Tensor randomTensor(host::DType dtype, std::vector<int64_t> shape,
                          uint64_t seed, double lo = -1.0, double hi = 1.0);

/// A kernel parsed into its own context, with an interpreter on it.
class KernelRun {
public:
  /// Parses `examples/kernels/<file>`.
  static std::unique_ptr<KernelRun> fromExample(llvm::StringRef file,
                                                llvm::StringRef func = "");
  /// Parses `text`.
  static std::unique_ptr<KernelRun>
  fromText(llvm::StringRef text, llvm::StringRef func = "",
           interp::InterpreterOptions options = {});

  /// Whether parsing and function selection succeeded (else `errors`).
  bool ok() const { return interpreter != nullptr; }

  void input(llvm::StringRef name, host::Tensor tensor);
  void input(llvm::StringRef name, host::InputSpec spec);
  void arg(llvm::StringRef name, llvm::StringRef value);
  /// Runs the kernel; false on failure (messages in `errors`).
  bool run();
  host::Tensor output(llvm::StringRef name);

  /// Every diagnostic and binding error, one per line.
  std::string errors;
  std::unique_ptr<mlir::MLIRContext> context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::unique_ptr<interp::Interpreter> interpreter;
};

/// Expects `got` to match `ref` element by element within `tol`; reports the
/// first mismatches with their flat index.
void expectClose(const host::Tensor &got, const std::vector<double> &ref,
                 Tolerance tol, llvm::StringRef what);

/// The flat value of element (i, j) of a row-major tensor with `cols`.
inline double at(const host::Tensor &t, int64_t i, int64_t j, int64_t cols) {
  return t.getDouble(i * cols + j);
}

} // namespace ktflow::testing

#endif // KTFLOW_UNITTESTS_INTERPRETER_KERNELTESTSUPPORT_H
