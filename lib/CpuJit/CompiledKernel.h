//===- CompiledKernel.h - A kernel compiled to native code ------*- C++ -*-===//
//
// This file declares a kernel compiled by the tier (Compile.cpp): the JIT
// that holds its code, the native `ktflow_tile` entry point and the layout
// of its arguments.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_CPUJIT_COMPILEDKERNEL_H
#define KTFLOW_LIB_CPUJIT_COMPILEDKERNEL_H

#include "TileFunction.h"

#include "ktflow/Interpreter/Interpreter.h"

#include <memory>

// Only Compile.cpp, which makes a CompiledKernel, needs these two complete:
// their headers (ORC's JIT) are a third of a file's compile time.
namespace mlir {
class ExecutionEngine;
} // namespace mlir
namespace llvm::orc {
class LLJIT;
} // namespace llvm::orc

namespace ktflow::jit {

/// The `ktflow_jit_stored` the compiled code calls (TileFunction.h): logs
/// the rows for the task the calling thread runs (Run.cpp).
void recordStoredRows(int64_t buffer, int64_t lo, int64_t hi, int64_t rows,
                      int64_t step);

class CompiledKernel {
public:
  /// Compiles `kernelName` of `module` (left unchanged) for a grid of
  /// `numTiles` tiles (`interleaved`: tiles that yield before each load,
  /// TileFunction.h); on failure `why` says what the tier cannot compile.
  static mlir::FailureOr<std::unique_ptr<CompiledKernel>>
  compile(mlir::ModuleOp module, llvm::StringRef kernelName,
          llvm::ArrayRef<interp::ArgumentInfo> args, int64_t numTiles,
          bool interleaved, interp::NumericsPolicy numerics, std::string &why);
  ~CompiledKernel();

  const TileFunctionLayout &getLayout() const { return layout; }
  /// Whether the code came from the on-disk cache (ObjectCache.h).
  bool isFromCache() const { return fromCache; }
  /// Calls `ktflow_tile` with MLIR's packed convention: one pointer per
  /// LLVM-level argument (a memref<?xT> is five: allocated and aligned
  /// pointers, offset, size, stride).
  void call(void **packedArgs) const { entry(packedArgs); }

private:
  CompiledKernel() = default;
  /// Holds the code: the engine that compiled it, or the JIT that loaded
  /// it from the cache.
  std::unique_ptr<mlir::ExecutionEngine> engine;
  std::unique_ptr<llvm::orc::LLJIT> cachedJit;
  bool fromCache = false;
  void (*entry)(void **) = nullptr;
  TileFunctionLayout layout;
};

} // namespace ktflow::jit

#endif // KTFLOW_LIB_CPUJIT_COMPILEDKERNEL_H
