//===- Check.h - Inputs and checks of a simulated run ----------*- C++ -*-===//
//
// This file declares the differential check behind `ktflow run --check`:
// generating input tensors from a spec (shared by the simulator and the
// interpreter so both see the same data) and the comparison of a simulated
// output with the interpreter's under a tolerance derived from the kernel's
// reductions.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_CHECK_CHECK_H
#define KTFLOW_CHECK_CHECK_H

#include "ktflow/Bundle/Bundle.h"
#include "ktflow/HostTensor/GeneratedInputs.h"
#include "ktflow/HostTensor/InputSpec.h"
#include "ktflow/Interpreter/Interpreter.h"
#include "ktflow/Runtime/Runtime.h"

#include <string>

namespace ktflow::check {

class ReferenceCache;

/// The interpreter's dtype for a simulator element type (none for types the
/// interpreter does not model).
std::optional<host::DType> toInterpDType(machine::ElemType elem);

/// Whose inputs the generated tensor `tensor` is filled with: its
/// argument's position, else its literal address (as the interpreter keys
/// its regions).
host::InputIdentity inputIdentity(const bundle::TensorArg &tensor);

/// A tensor of `elem` and `shape` filled as `spec` says (parsed by
/// host::InputSpec::parse): FILE.npy, random (uniform in [-1, 1) for
/// floats, integers in [-8, 8]), randn, zeros, value:V, range:LO:HI
/// (uniform integers) or seq:LO:HI (LO, LO+1, ... wrapping at HI).
/// Generated values are those of the tensor `who` under `seed`
/// (ktflow/HostTensor/GeneratedInputs.h), the interpreter's.
llvm::Expected<host::Tensor> makeTensor(llvm::StringRef spec,
                                        machine::ElemType elem,
                                        llvm::ArrayRef<int64_t> shape,
                                        uint64_t seed, host::InputIdentity who);
/// The same for a parsed spec; `text` names it in errors ("x.npy holds
/// shape ...").
llvm::Expected<host::Tensor> makeTensor(const host::InputSpec &spec,
                                        llvm::StringRef text,
                                        machine::ElemType elem,
                                        llvm::ArrayRef<int64_t> shape,
                                        uint64_t seed, host::InputIdentity who);

/// An error unless a host tensor of `shape` (8 bytes an element) fits in
/// half the machine's memory: every input is generated as one, and every
/// output is read back into one for the check.
llvm::Error checkHostTensorSize(llvm::ArrayRef<int64_t> shape);

/// The little-endian bytes of `tensor` as elements of `elem`.
std::vector<uint8_t> toBytes(const host::Tensor &tensor,
                             machine::ElemType elem);

/// The inverse of toBytes: the tensor of `shape` the bytes hold. Integers
/// are read exactly (machine::loadElement's double holds only 53 bits).
host::Tensor fromBytes(llvm::ArrayRef<uint8_t> bytes, machine::ElemType elem,
                       llvm::ArrayRef<int64_t> shape);

/// What `ktflow run` bound on the reference interpreter, to bind another
/// interpreter the same way.
struct ReferenceBindings {
  /// The kernel function (`--func`); empty for the module's only kernel.
  std::string function;
  /// (name, value) of setScalar.
  std::vector<std::pair<std::string, std::string>> scalars;
  /// (name, spec) of setInput.
  std::vector<std::pair<std::string, host::InputSpec>> inputs;
};

/// What a check cost: interpreter runs made, and results read from a
/// ReferenceCache instead (each standing for one or more runs).
struct CheckCounts {
  unsigned interpreterRuns = 0;
  unsigned cachedResults = 0;
};

/// How far an execution that folds the kernel's reductions in another order
/// (the device's chunks) may move each element of the reference's outputs
/// `names` (docs/interpreter.md §9): for every reduction whose result
/// depends on that order, the interpreter runs again with the reduction's
/// results displaced by their bound, and an element's bound adds up how far
/// each of these runs moved it. `expected` are the reference's outputs.
/// The same is done for each of `reroundedOps` (ops of `module` the device
/// computes in a wider type and rounds back, so its result may be one ulp
/// of the op's type from the reference's; DifferentialRun::setReroundedOps):
/// a run with that op's results moved by one ulp adds how far it moved each
/// element.
/// Bindings name arguments as `module`'s NameLocs do
/// (ktflow/Support/ArgumentNames.h) or by position. With a `cache`, how far
/// each displaced op moves the outputs is read from it when there, else
/// computed and stored (`reduction N`, `rounding N`: N the op's number in
/// forEachKernelOp's order). `counts` adds up the runs and cached results.
/// Without reorderable reductions or `reroundedOps`, every output's bounds
/// are empty (all 0, as compareOutput reads them).
llvm::Expected<std::vector<std::vector<double>>> computeReorderBounds(
    mlir::ModuleOp module, const interp::InterpreterOptions &options,
    const ReferenceBindings &bindings, llvm::ArrayRef<std::string> names,
    llvm::ArrayRef<host::Tensor> expected,
    llvm::ArrayRef<mlir::Operation *> reroundedOps = {},
    const ReferenceCache *cache = nullptr, CheckCounts *counts = nullptr);

struct CheckResult {
  bool pass = false;
  std::string summary;
};
/// Compares a simulated output (its bytes) with the interpreter's tensor:
/// integers must match exactly; floats within |sim - ref| <= bound + one
/// unit in the last place of the element type at ref, where `bound` is the
/// element's reorder bound (computeReorderBounds; empty means 0); NaN only
/// where the reference has NaN, infinities only where it has the same one.
CheckResult compareOutput(const host::Tensor &expected,
                          llvm::ArrayRef<uint8_t> bytes, machine::ElemType elem,
                          llvm::ArrayRef<int64_t> shape,
                          llvm::ArrayRef<double> bound = {});

} // namespace ktflow::check

#endif // KTFLOW_CHECK_CHECK_H
