//===- Interpreter.h - The KTIR reference interpreter -----------*- C++ -*-===//
//
// This file declares the public interface of the KTIR reference interpreter:
// pick a kernel function of a module, bind its arguments (tensor arguments
// are initialised from data or a generator spec, scalar and runtime_arg
// arguments from values), run every compute tile of the grid, and read back
// the tensors the kernel wrote. Semantics are documented in
// docs/interpreter.md. Errors during the run are MLIR diagnostics located
// at the failing op; errors in the bindings are llvm::Errors.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_INTERPRETER_INTERPRETER_H
#define KTFLOW_INTERPRETER_INTERPRETER_H

#include "ktflow/HostTensor/InputSpec.h"
#include "ktflow/HostTensor/Tensor.h"
#include "ktflow/Interpreter/Arguments.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mlir::func {
class FuncOp;
} // namespace mlir::func

namespace ktflow {
struct ViewFootprint;
} // namespace ktflow

namespace ktflow::host {
class PageBudget;
} // namespace ktflow::host

namespace ktflow::interp {

/// The tile and address of a scratchpad input name, or std::nullopt for a
/// name of another form; an error for a malformed `lx...@...` name.
llvm::Expected<std::optional<std::pair<int64_t, int64_t>>>
parseScratchpadInputName(llvm::StringRef name);

/// How structured ops that reduce round 16-bit floats (docs/interpreter.md
/// §4).
enum class NumericsPolicy {
  /// An f16/bf16/df16 accumulator is held in f32 and rounded once per output
  /// element (numpy, ktir-cpu and matrix/vector hardware).
  Accumulate,
  /// Every scalar op of a linalg body rounds to its own type, so a 16-bit
  /// accumulator rounds at every step (MLIR's literal reading).
  Strict,
};

struct InterpreterOptions {
  /// Capacity of each compute tile's scratchpad (ct_local memory).
  int64_t scratchpadBytes = 2 << 20;
  /// Whether each tile's live intermediate tensors must fit its scratchpad
  /// too, each freed at its last use (`ktflow interp --scratchpad-bytes`).
  bool chargeIntermediates = false;
  /// Seed of the generators of `random`, `randn` and `range` inputs.
  uint64_t seed = 0;
  NumericsPolicy numerics = NumericsPolicy::Accumulate;
  /// Work budget of a run, in element operations: one per op executed and
  /// per block entered, plus one per element of the tensors an op produces
  /// (stores: consumes) or per point of a linalg op's iteration space. The
  /// default is ten times a 64x2048x8192 matmul over 32 tiles (1.6 G).
  uint64_t maxElementOps = uint64_t(1) << 34;
  /// Wall-clock budget of a run in seconds; 0 for none.
  double maxSeconds = 3600;
  /// One of findReorderableReductions' ops, or null. Every result of that
  /// op is displaced by the bound on how far a reordered execution of its
  /// fold may move it (docs/interpreter.md §9), so the outputs show how far
  /// such a change travels through the rest of the kernel.
  mlir::Operation *displacedReduction = nullptr;
  /// An op the device rounds differently (it computes the op in a wider type
  /// and rounds twice), or null. Every float element of that op's tensor
  /// results is moved by one unit in the last place of its type: how far the
  /// device's result may sit from the reference's (docs/interpreter.md §9).
  mlir::Operation *displacedRounding = nullptr;
  /// Moves the displaced op's results (displacedReduction,
  /// displacedRounding) down by their bound instead of up. A later
  /// rounding can absorb a move one way and not the other (x - m rounded
  /// to f16 with x - m just below a rounding boundary), so the bounds run
  /// both (docs/interpreter.md §9).
  bool displaceDownward = false;
  /// Ceiling on the bytes the memories of a run hold (pages of tensors,
  /// literal-address memory and scratchpads, allocated as they are
  /// touched); 0 for half the machine's physical memory.
  int64_t maxMemoryBytes = 0;
};

/// What a run did.
struct RunStatistics {
  /// Element operations charged to the work budget.
  uint64_t elementOps = 0;
  /// The most tiles that were started and unfinished at once.
  int64_t peakLiveTiles = 0;
  /// With chargeIntermediates: the most bytes of intermediate tensors one
  /// tile held at once.
  int64_t peakIntermediateBytes = 0;
};

/// The structured ops of `module` that fold floats with addf or mulf: their
/// results depend on the order of the fold, which another execution of the
/// kernel (the device's, in chunks) may change.
std::vector<mlir::Operation *> findReorderableReductions(mlir::ModuleOp module);

/// The value `--arg` gave a scalar or runtime_arg argument.
struct ScalarValue {
  host::DType dtype = host::DType::I64;
  /// Integers, wrapped to their type (index and i64 as int64).
  int64_t i = 0;
  /// Floats, exactly representable in their type.
  double f = 0;
};

/// A tensor the kernel wrote, after the run.
struct OutputTensor {
  /// Argument name (or position), or `@ADDR` for a literal-address region.
  std::string name;
  int argIndex = -1;
  host::Tensor tensor;
};

class Interpreter {
public:
  explicit Interpreter(mlir::ModuleOp module, InterpreterOptions options = {});
  ~Interpreter();
  Interpreter(const Interpreter &) = delete;
  Interpreter &operator=(const Interpreter &) = delete;

  /// Selects the function to run: `name`, or (when empty) the only function
  /// with a `grid` attribute, else the only function with a body.
  llvm::Error selectFunction(llvm::StringRef name = "");

  /// Names arguments after their SSA names in `sourceText`, the text the
  /// module was parsed from (argument locations point into it). Arguments
  /// whose location carries their name (ktflow/Support/ArgumentNames.h, as
  /// ModuleLoader gives them) are named by selectFunction already.
  void recoverArgumentNames(llvm::StringRef sourceText);

  llvm::ArrayRef<ArgumentInfo> getArguments() const;

  /// Resolves an argument by SSA name or position ("A", "0").
  llvm::Expected<unsigned> resolveArgument(llvm::StringRef nameOrPosition) const;

  /// Binds a scalar or runtime_arg argument from its text ("128", "0.5").
  /// runtime_arg values are checked against granularity and upperbound.
  llvm::Error setScalar(llvm::StringRef nameOrPosition, llvm::StringRef value);

  /// Binds the initial contents of a tensor argument, (`@ADDR`) of the
  /// global memory at literal address ADDR, or (`lx<K>@ADDR`) of tile K's
  /// scratchpad at literal address ADDR.
  llvm::Error setInput(llvm::StringRef nameOrPosition, host::InputSpec spec);

  /// The spec a run fills tensor argument `position` from: its input unless
  /// that is the Default spec; else, for a tensor of indices
  /// (ArgumentInfo::index), indices into the dimension it selects
  /// (host::InputSpec::indicesInto, distinct for a scatter); else Default.
  host::InputSpec getInputSpec(unsigned position) const;

  /// The global-memory tensors at literal addresses that hold indices
  /// (ktflow/Analysis/IndexTensors.h), by element address.
  const std::map<int64_t, IndexTensorUse> &getLiteralIndexTensors() const;

  /// The spec a run fills the literal-address region at element address
  /// `address` from: its `@ADDR` input unless that is the Default spec;
  /// else, for a tensor of indices, indices into the dimension it selects
  /// (as getInputSpec); else Default (zeros).
  host::InputSpec getLiteralInputSpec(int64_t address) const;

  /// For another engine running the same kernel (the compiled tier,
  /// ktflow/CpuJit): the value bound to a scalar or runtime_arg argument.
  std::optional<ScalarValue> getScalarValue(unsigned position) const;

  /// For another engine: the contents a run starts tensor argument
  /// `position` with when its views hold `dtype` elements, over the extent
  /// the views at the argument declare (its `.npy` data, or its spec's
  /// values), in the shape the outputs are reported in, in native bits
  /// (no element passes through a double unless generated). Fails when a
  /// `.npy` file's dtype is not `dtype` or a view declares memory before
  /// the tensor: the interpreter then reports it at the op. With
  /// `readOnly` (the engine never writes the tensor) `.npy` data is shared
  /// with the input, not copied, and may be read-only memory.
  /// `grownBy` are footprints of views at computed addresses that ran
  /// (relative to the tensor's start, in the order they ran): they extend
  /// the tensor as they do in a run, after the views at the argument.
  /// Generated values are generated page by page as they are touched
  /// (HostTensor/GeneratedPages.h), charged to `pages` (by default a
  /// budget of the run's memory ceiling of the tensor's own).
  llvm::Expected<host::NativeTensor>
  getInitialNative(unsigned position, host::DType dtype, bool readOnly = false,
                   llvm::ArrayRef<ViewFootprint> grownBy = {},
                   std::shared_ptr<host::PageBudget> pages = nullptr) const;

  /// For another engine: the contents a run starts the literal-address
  /// region at element address `address` with, when its views hold `dtype`
  /// elements and declare `footprints` (relative to `address`): zeros, or
  /// its getLiteralInputSpec (a `.npy` input extends it to the file's elements
  /// and shape), in the shape the outputs are reported in.
  llvm::Expected<host::NativeTensor> getInitialLiteralNative(
      int64_t address, host::DType dtype,
      llvm::ArrayRef<ViewFootprint> footprints,
      std::shared_ptr<host::PageBudget> pages = nullptr) const;

  /// The memory ceiling of a run (--max-memory-bytes, else the default).
  int64_t getMemoryCeiling() const;

  /// For another engine that backs memory lazily (the simulator's memory
  /// image): the generator of the values a run starts tensor argument
  /// `position` with when its views hold `dtype` elements, the values the
  /// interpreter generates page by page as the kernel touches them. It
  /// writes elements [first, first + count) to `out`, `host::byteSize`
  /// bytes each, little-endian. Fails for a `.npy` input (its data is
  /// whole already) and for an argument that is not a tensor.
  using InitialValues =
      std::function<void(int64_t first, int64_t count, uint8_t *out)>;
  llvm::Expected<InitialValues> getInitialValues(unsigned position,
                                                 host::DType dtype) const;

  /// For another engine: why one tile may load what another tile stores
  /// (the run must then interleave tiles as the interpreter does), or
  /// std::nullopt when tiles are independent.
  std::optional<std::string> whyTilesShareMemory() const;

  /// Runs every compute tile. Failures are reported as diagnostics.
  mlir::LogicalResult run();

  /// Every tensor argument or literal-address region a store wrote to,
  /// arguments first in position order.
  std::vector<OutputTensor> getOutputs() const;

  /// The final contents of a tensor argument (or `@ADDR` region).
  llvm::Expected<host::Tensor> getTensor(llvm::StringRef nameOrPosition) const;

  /// The name of the selected function.
  llvm::StringRef getFunctionName() const;

  /// The launch grid of the selected function.
  llvm::ArrayRef<int64_t> getGrid() const;

  /// Statistics of the last run.
  RunStatistics getStatistics() const;

  const InterpreterOptions &getOptions() const;

  struct Impl;

private:
  std::unique_ptr<Impl> impl;
};

} // namespace ktflow::interp

#endif // KTFLOW_INTERPRETER_INTERPRETER_H
