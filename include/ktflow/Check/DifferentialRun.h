//===- DifferentialRun.h - A simulated run and its reference ----*- C++ -*-===//
//
// This file declares the two executions `ktflow run` compares: a program
// bundle launched on the simulator and the reference interpreter running the
// kernel as written, bound to the same runtime arguments and the same
// generated input tensors; then the roofline bound of the kernel
// (docs/roofline.md) and the check of every tensor the kernel writes
// (ktflow/Check/Check.h has the pieces).
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_CHECK_DIFFERENTIALRUN_H
#define KTFLOW_CHECK_DIFFERENTIALRUN_H

#include "ktflow/Analysis/KernelDemand.h"
#include "ktflow/Check/Check.h"
#include "ktflow/Device/RooflineBound.h"
#include "ktflow/Runtime/Runtime.h"

#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/DenseSet.h"

#include <memory>
#include <optional>

namespace ktflow::check {

/// One checked output: the bundle tensor, its name as the kernel spells it
/// (the SSA name, else the bundle's, `@ADDR` at a literal address) and the
/// comparison.
struct OutputCheck {
  uint32_t tensor = 0;
  std::string label;
  CheckResult result;
};

/// The contents of one input tensor: a `--input` spec as written, or data
/// (the Python package's arrays).
struct NamedInput {
  /// An SSA name, a position or `@ADDR`.
  std::string name;
  /// The spec's text (host::InputSpec::parse); it names `data` in errors
  /// when `data` is given.
  std::string text;
  std::optional<host::InputSpec> data;
};

/// The default an index tensor (interp::ArgumentInfo::index, or at a
/// literal address Interpreter::getLiteralIndexTensors) got from
/// bindInputs, no input naming it: `spec` (`range:0:E`, or `seq:0:E` for a
/// scatter's) of indices into dimension `dimension` of tensor `indexed`
/// (an argument's name, or `@ADDR`; empty when unknown). `name` is the
/// argument's, or `@ADDR`.
struct IndexDefault {
  std::string name, spec, indexed;
  unsigned dimension = 0;
  bool scatter = false;
};

class DifferentialRun {
public:
  /// Clones `module` (the kernel as written, before it is compiled in place)
  /// for the interpreter and selects its kernel (`function`, or the
  /// module's only one when empty). Arguments are known by position and by
  /// the names their NameLocs carry (ModuleLoader gives them,
  /// ktflow/Support/ArgumentNames.h).
  static llvm::Expected<std::unique_ptr<DifferentialRun>>
  create(mlir::ModuleOp module, const interp::InterpreterOptions &options,
         llvm::StringRef function = {});
  ~DifferentialRun();

  /// Loads `bundle` (the compiled kernel) through its encoding, as a runtime
  /// would, and prepares its launch.
  llvm::Error load(const bundle::Bundle &bundle);

  /// Binds `--arg NAME=VALUE` assignments (NAME an SSA name or position) in
  /// both executions; every runtime argument of the bundle must be bound.
  llvm::Error bindArguments(llvm::ArrayRef<std::string> assignments);
  /// Generates every input tensor (`--input NAME=SPEC`, NAME an SSA name, a
  /// position or `@ADDR`; when not given, indices into the dimension an
  /// index tensor selects (getIndexDefaults), else `random`) from `seed`
  /// and gives it to both executions: each tensor's values are those
  /// `ktflow interp --seed` and `ktflow sim --seed` draw for it
  /// (ktflow/HostTensor/GeneratedInputs.h). An output starts as zeros
  /// unless given, and keeps the elements the kernel does not write.
  llvm::Error bindInputs(llvm::ArrayRef<std::string> assignments,
                         uint64_t seed);
  /// The same for inputs named and given already. An input of more than
  /// kLazyInputElements elements given by a generated spec (not a `.npy`
  /// file) at an argument is generated in both executions page by page as
  /// each touches it (the same values): a paged KV pool of 655 M elements
  /// costs the pages a gather reads.
  llvm::Error bindInputs(llvm::ArrayRef<NamedInput> inputs, uint64_t seed);
  static constexpr uint64_t kLazyInputElements = uint64_t(1) << 24;
  /// Whether a generated input of `shape` is past kLazyInputElements (a
  /// count that overflows is): `run` and `sim` bind those page by page.
  static bool generatesLazily(llvm::ArrayRef<int64_t> shape);
  /// The index tensors the last bindInputs gave their defaults.
  llvm::ArrayRef<IndexDefault> getIndexDefaults() const {
    return indexDefaults;
  }
  /// The `NAME=SPEC` assignments as inputs, their names checked.
  llvm::Expected<std::vector<NamedInput>>
  parseInputs(llvm::ArrayRef<std::string> assignments) const;

  /// load, bindArguments and bindInputs.
  llvm::Error bind(const bundle::Bundle &bundle,
                   llvm::ArrayRef<std::string> arguments,
                   llvm::ArrayRef<std::string> inputs, uint64_t seed);

  const rt::Program &getProgram() const { return *program; }
  rt::Launch &getLaunch() { return *launch; }

  /// Runs the bound launch on the simulator (once), keeping its timeline
  /// when `options` asks for one.
  llvm::Expected<sim::SimStats> simulate(const sim::SimOptions &options);
  /// Writes the simulated run's Chrome-trace timeline to `path`.
  llvm::Error writeTrace(llvm::StringRef path, const sim::SimStats &stats);

  /// The roofline bound of the kernel as written (the interpreter's copy),
  /// with the integer arguments bound, on `device`, whose tensors live in
  /// `deviceMemory` (docs/roofline.md). `devicePatterns` applies the
  /// device's patterns to a probe: the ops they rewrite count as rewritten.
  device::RooflineBound
  computeRoofline(const device::DeviceModel &device,
                  device::NodeId deviceMemory,
                  const DevicePatterns &devicePatterns = {}) const;
  /// The launch's integer inputs, element by element, those of arguments
  /// and those at literal addresses of device memory, for the roofline's
  /// count of what indirect tiles gather (after simulate: read from the
  /// launch's memory; inputs keep their contents).
  IndexValues launchIndexValues() const;

  /// The ops the device computes in a wider type and rounds back, by their
  /// numbers in forEachKernelOp's order of the kernel as written; each
  /// widens the tolerance of checkOutputs (computeReorderBounds).
  void setReroundedOps(llvm::ArrayRef<unsigned> numbers);

  /// Keeps the results of checkOutputs that do not depend on the device in
  /// `directory` (ktflow/Check/ReferenceCache.h), and reads them from there
  /// when an earlier run stored them; empty for none.
  void setReferenceCache(llvm::StringRef directory) {
    referenceCache = directory.str();
  }

  /// Runs the interpreter and compares every output of the (simulated)
  /// launch with its result within the reorder bounds.
  llvm::Expected<std::vector<OutputCheck>> checkOutputs();
  /// The interpreter runs checkOutputs made, and the results it read from
  /// the reference cache.
  const CheckCounts &getCheckCounts() const { return counts; }

private:
  DifferentialRun() = default;
  /// Binds tensor `t` (of `shape`, given `input` or none) to generated
  /// values made page by page when bindInputs says so; false when it does
  /// not and the tensor is to be made whole.
  /// For an index tensor no input names: the indices it starts with
  /// (interp::Interpreter::getInputSpec), recorded in indexDefaults.
  std::optional<host::InputSpec> indexDefault(const bundle::TensorArg &tensor);
  llvm::Expected<bool> bindGeneratedInput(uint32_t t, const NamedInput *input,
                                          llvm::ArrayRef<int64_t> shape);
  /// Runs the reference interpreter and reads back the outputs of the
  /// bundle's tensors `checked` into `expected`.
  llvm::Error runReference(llvm::ArrayRef<uint32_t> checked,
                           std::vector<host::Tensor> &expected);

  mlir::OwningOpRef<mlir::ModuleOp> reference;
  interp::InterpreterOptions options;
  std::unique_ptr<interp::Interpreter> interpreter;
  ReferenceBindings bindings;
  std::vector<IndexDefault> indexDefaults;
  /// Ops of `reference` the device rounds twice (setReroundedOps).
  std::vector<mlir::Operation *> reroundedOps;
  /// The directory of setReferenceCache.
  std::string referenceCache;
  CheckCounts counts;
  /// Integer runtime arguments by position, as bound.
  llvm::DenseMap<unsigned, int64_t> argValues;
  /// Positions of the float scalar arguments bound.
  llvm::DenseSet<unsigned> floatArgs;
  std::optional<rt::Program> program;
  std::unique_ptr<rt::Launch> launch;
  std::vector<sim::TraceEvent> trace;
};

/// Calls `visit` on every op inside `module`'s functions, in a fixed order
/// (post-order, functions in module order), which numbers them the same way
/// in `module` and in any clone of it.
void forEachKernelOp(mlir::ModuleOp module,
                     llvm::function_ref<void(mlir::Operation *)> visit);

} // namespace ktflow::check

#endif // KTFLOW_CHECK_DIFFERENTIALRUN_H
