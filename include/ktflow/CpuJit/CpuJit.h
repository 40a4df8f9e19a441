//===- CpuJit.h - The compiled CPU tier of the KTIR reference ---*- C++ -*-===//
//
// This file declares the compiled tier of `ktflow interp`: it lowers a KTIR
// kernel through upstream MLIR to native code, JITs it with MLIR's
// ExecutionEngine and runs the grid's tiles on a thread pool, with the
// interpreter's bindings (arguments, inputs, extents, output names) and
// numerics policy (docs/interpreter.md, docs/cpu-jit.md). Kernels it does
// not lower, and runs that hit an error the interpreter would report, are
// left to the interpreter, which stays the semantic reference.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_CPUJIT_CPUJIT_H
#define KTFLOW_CPUJIT_CPUJIT_H

#include "ktflow/HostTensor/NativeTensor.h"
#include "ktflow/Interpreter/Interpreter.h"

#include <map>
#include <string>
#include <vector>

namespace ktflow::jit {

struct JitResult {
  /// Whether the tier ran the kernel to its end. When false, `reason` says
  /// why ("not lowerable: ...", or the error a tile hit) and the kernel
  /// must run on the interpreter.
  bool ran = false;
  std::string reason;
  /// Every tensor argument a store wrote into, in position order: its
  /// position and the name its output line has.
  std::vector<std::pair<unsigned, std::string>> outputs;
  /// The final contents of every tensor argument, by position.
  std::map<unsigned, host::NativeTensor> tensors;
  /// Non-empty when the tiles were (re)run one after the other in
  /// ascending order because stores of concurrent tiles may overlap: why.
  std::string tilesInOrder;
  /// Seconds spent lowering and JIT-compiling (or loading the cached
  /// object), and running the tiles.
  double compileSeconds = 0, runSeconds = 0;
  /// Whether the native code came from the on-disk cache.
  bool fromCache = false;
};

/// Compiles and runs the function `bound` selected, with `bound`'s
/// arguments and inputs. `threads` = 0 uses every hardware thread.
JitResult runCompiled(mlir::ModuleOp module, const interp::Interpreter &bound,
                      interp::NumericsPolicy numerics, unsigned threads = 0);

} // namespace ktflow::jit

#endif // KTFLOW_CPUJIT_CPUJIT_H
