//===- RunSupport.h - Inputs, roofline and checks of `ktflow run` -*- C++ -*-===//
//
// This file declares the helpers of `ktflow run`: generating input tensors
// from a spec (shared by the simulator and the interpreter so both see the
// same data), the roofline lower bound of a launch, and the comparison of a
// simulated output with the interpreter's under a per-dtype tolerance.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_TOOLS_KTFLOW_RUNSUPPORT_H
#define KTFLOW_TOOLS_KTFLOW_RUNSUPPORT_H

#include "ktflow/Bundle/Bundle.h"
#include "ktflow/Device/Roofline.h"
#include "ktflow/Interpreter/Tensor.h"
#include "ktflow/Runtime/Runtime.h"

#include <random>
#include <string>

namespace ktflow::driver {

/// The interpreter's dtype for a simulator element type (none for types the
/// interpreter does not model).
std::optional<interp::DType> toInterpDType(sim::ElemType elem);

/// A tensor of `elem` and `shape` filled as `spec` says (parsed by
/// interp::InputSpec::parse): FILE.npy, random (uniform in [-1, 1) for
/// floats, integers in [-8, 8]), randn, zeros, value:V, range:LO:HI
/// (uniform integers) or seq:LO:HI (LO, LO+1, ... wrapping at HI).
llvm::Expected<interp::Tensor> makeTensor(llvm::StringRef spec,
                                          sim::ElemType elem,
                                          llvm::ArrayRef<int64_t> shape,
                                          std::mt19937_64 &rng);

/// The little-endian bytes of `tensor` as elements of `elem`.
std::vector<uint8_t> toBytes(const interp::Tensor &tensor, sim::ElemType elem);

/// The inverse of toBytes: the tensor of `shape` the bytes hold. Integers
/// are read exactly (sim::loadElement's double holds only 53 bits).
interp::Tensor fromBytes(llvm::ArrayRef<uint8_t> bytes, sim::ElemType elem,
                         llvm::ArrayRef<int64_t> shape);

/// The memory half of the roofline (WorkCount.h has the compute half).
struct RooflineBound {
  /// Bytes every tensor must cross to or from device memory: inputs read
  /// once, outputs written once (in-out tensors both).
  uint64_t bytes = 0;
  double bytesPerCycle = 0;
  double cycles = 0;
};
RooflineBound computeRoofline(const bundle::Bundle &bundle,
                              const rt::Launch &launch,
                              const device::Roofline &roofline);

struct CheckResult {
  bool pass = false;
  std::string summary;
};
/// Compares a simulated output (its bytes) with the interpreter's tensor:
/// integers must match exactly; floats within |sim - ref| <= atol + rtol *
/// |ref| with (rtol, atol) = (1e-5, 1e-6) for f32 and f64, (4e-3, 1e-3) for
/// f16 and (3e-2, 1e-2) for bf16 (about four units in the last place), and
/// NaN only where the reference has NaN.
CheckResult compareOutput(const interp::Tensor &expected,
                          llvm::ArrayRef<uint8_t> bytes, sim::ElemType elem,
                          llvm::ArrayRef<int64_t> shape);

} // namespace ktflow::driver

#endif // KTFLOW_TOOLS_KTFLOW_RUNSUPPORT_H
