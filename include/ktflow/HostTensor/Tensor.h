//===- Tensor.h - Dense host tensors ----------------------------*- C++ -*-===//
//
// This file declares the host tensor, which the reference interpreter
// computes on and the drivers fill, read and write: a dense, row-major
// buffer of one element type. Floats of every width are stored as doubles
// holding values exactly representable in the element type; integers as int64_t
// wrapped to their width. Holding one storage type per kind lets every op be
// a tight loop over a flat array, whatever the element type.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_HOSTTENSOR_TENSOR_H
#define KTFLOW_HOSTTENSOR_TENSOR_H

#include "ktflow/HostTensor/ElementType.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace ktflow::host {

/// A dense row-major tensor. Exactly one of `floats` / `ints` is used,
/// according to `isFloat(dtype)`, and holds `numElements()` values.
struct Tensor {
  DType dtype = DType::F32;
  llvm::SmallVector<int64_t, 4> shape;
  std::vector<double> floats;
  std::vector<int64_t> ints;

  /// A zero-filled tensor.
  static Tensor zeros(DType dtype, llvm::ArrayRef<int64_t> shape);

  int64_t numElements() const;
  int64_t rank() const { return static_cast<int64_t>(shape.size()); }

  /// Element `i` (flat, row-major) converted to double.
  double getDouble(int64_t i) const;
  /// Element `i` converted to int64_t (floats truncate toward zero).
  int64_t getInt(int64_t i) const;
  /// Sets element `i` from a double, rounding/wrapping to the dtype.
  void setDouble(int64_t i, double v);
};

/// Row-major strides (in elements) of `shape`.
llvm::SmallVector<int64_t, 4> rowMajorStrides(llvm::ArrayRef<int64_t> shape);

/// Product of `shape` (1 for rank 0).
int64_t productOf(llvm::ArrayRef<int64_t> shape);

/// "96x64" (or "scalar" for rank 0).
std::string formatShape(llvm::ArrayRef<int64_t> shape);

/// Summary statistics of a tensor, as `ktflow interp` prints them.
struct TensorStats {
  double min = 0, max = 0, mean = 0;
  /// payloadChecksum (Npy.h) of the bytes the tensor has in a .npy file.
  uint64_t checksum = 0;
  /// NaN elements (excluded from min/max/mean).
  int64_t nanCount = 0;
};
TensorStats computeStats(const Tensor &tensor);

/// The same line as JSON: {"name", "shape", "dtype", "min", "max", "mean"
/// (null when not finite), "checksum" ("0x..."), "nan"}.
llvm::json::Object statsToJSON(llvm::StringRef name,
                               llvm::ArrayRef<int64_t> shape, DType dtype,
                               const TensorStats &stats);

/// Prints the line `ktflow interp` prints for an output: "NAME: shape=64x128
/// dtype=f16 min=... max=... mean=... checksum=0x...", then " nan=N" when the
/// tensor holds NaNs.
void printTensorSummary(llvm::raw_ostream &os, llvm::StringRef name,
                        const Tensor &tensor);
/// The same line for a tensor of `shape` and `dtype` with `stats`.
void printStatsLine(llvm::raw_ostream &os, llvm::StringRef name,
                    llvm::ArrayRef<int64_t> shape, DType dtype,
                    const TensorStats &stats);

} // namespace ktflow::host

#endif // KTFLOW_HOSTTENSOR_TENSOR_H
