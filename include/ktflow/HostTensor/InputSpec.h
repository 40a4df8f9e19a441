//===- InputSpec.h - How an input tensor is filled --------------*- C++ -*-===//
//
// This file declares the input specification every command's `--input
// NAME=SPEC` takes (FILE.npy, random, randn, zeros, value:V, range:LO:HI,
// seq:LO:HI): what the initial contents of a tensor are, before anyone knows
// its shape or element type. ktflow/HostTensor/GeneratedInputs.h turns a
// spec into elements, the same for every command.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_HOSTTENSOR_INPUTSPEC_H
#define KTFLOW_HOSTTENSOR_INPUTSPEC_H

#include "ktflow/HostTensor/NativeTensor.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <mutex>
#include <optional>

namespace ktflow::host {

/// The elements an input spec gives, in the form they came in (a .npy
/// file's native bits, or a Tensor); the other form is made on first use,
/// so the compiled tier never converts a file's elements to doubles and
/// the interpreter never sees native bits.
class InputData {
public:
  explicit InputData(Tensor tensor);
  explicit InputData(NativeTensor native);

  DType dtype() const { return elementType; }
  llvm::ArrayRef<int64_t> shape() const { return dims; }
  int64_t numElements() const { return productOf(dims); }
  const Tensor &tensor() const;
  const NativeTensor &native() const;
  /// Element `i` as Tensor::getDouble / getInt give it, read from the form
  /// the data came in.
  double getDouble(int64_t i) const;
  int64_t getInt(int64_t i) const;
  /// Elements [first, first + n) as getDouble gives them, 0 past the end:
  /// the interpreter fills a page of memory at a time from shared data.
  void readDoubles(int64_t first, int64_t n, double *out) const;
  /// Whether rounding every element, as readDoubles gives it, to `dtype`
  /// leaves its bits as they are: for the data's own element type, checked
  /// once over the whole data (a Tensor's setDouble has rounded them, a
  /// file's bits are values of their type unless it flushes subnormals);
  /// false for any other type. Every interpreter run of --check fills its
  /// pages from the same data and skips the rounding where this holds.
  bool roundsToItself(DType dtype) const;

private:
  bool cameNative;
  DType elementType;
  llvm::SmallVector<int64_t, 4> dims;
  mutable std::once_flag tensorMade, nativeMade, roundingChecked;
  mutable bool rounded = false;
  mutable std::optional<Tensor> asTensor;
  mutable std::optional<NativeTensor> asNative;
};

/// How a tensor argument (or literal-address region) is initialised.
struct InputSpec {
  enum class Kind {
    /// zeros for tensors the kernel only stores into, else `Uniform`
    /// (resolveDefaultSpec, ktflow/HostTensor/GeneratedInputs.h).
    Default,
    Zeros,
    /// Every element `value`.
    Value,
    /// Uniform in [-1, 1), rounded to the element type; integers uniform
    /// in [-8, 8].
    Uniform,
    /// Standard normal, rounded to the element type.
    Normal,
    /// Uniform integers in [lo, hi).
    Range,
    /// lo, lo + 1, ... wrapping at hi: element i is lo + i mod (hi - lo).
    Sequence,
    /// The elements of `data` (its shape and dtype fix the tensor's).
    Data,
  };
  Kind kind = Kind::Default;
  double value = 0;
  int64_t lo = 0, hi = 0;
  std::shared_ptr<const InputData> data;

  static InputSpec zeros() {
    InputSpec spec;
    spec.kind = Kind::Zeros;
    return spec;
  }
  /// Indices into a dimension of `extent` coordinates: uniform in [0,
  /// extent) (`range:0:EXTENT`), or `seq:0:EXTENT` when they must be
  /// `distinct` (they are while the tensor has at most `extent` elements;
  /// past that the sequence wraps and repeats).
  static InputSpec indicesInto(int64_t extent, bool distinct) {
    InputSpec spec;
    spec.kind = distinct ? Kind::Sequence : Kind::Range;
    spec.hi = extent;
    return spec;
  }
  static InputSpec fromTensor(Tensor t);
  static InputSpec fromNative(NativeTensor t);
  /// Parses `FILE.npy | random | randn | zeros | value:V | range:LO:HI |
  /// seq:LO:HI` (reading the file for the first form), the spec of every
  /// command's --input. LO < HI may be any int64_t values.
  static llvm::Expected<InputSpec> parse(llvm::StringRef spec);
  /// The spec as parse() takes it ("range:0:16"); "default" and "data" for
  /// the kinds it has no spelling of.
  std::string str() const;
};

} // namespace ktflow::host

#endif // KTFLOW_HOSTTENSOR_INPUTSPEC_H
