//===- Memory.h - Global memory and scratchpads of the interpreter -*- C++ -*-===//
//
// This file declares the interpreter's memories. Addresses are element
// indices. Global memory holds one region per tensor argument, placed at
// `(k + 1) << 44` for argument k so that any address a kernel derives from
// an argument falls in that argument's window, plus regions created on
// demand for literal addresses below 2^44. Each compute tile has a
// scratchpad with a byte capacity. Regions grow to cover every view built
// on them; grown elements get the region's initial values.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_INTERPRETER_MEMORY_H
#define KTFLOW_LIB_INTERPRETER_MEMORY_H

#include "ktflow/Analysis/TensorExtent.h"
#include "ktflow/Interpreter/Interpreter.h"
#include "ktflow/Interpreter/Tensor.h"

#include "llvm/ADT/SmallVector.h"

#include <map>
#include <memory>
#include <string>

namespace ktflow::interp {

/// Start of argument k's address window is `(k + 1) << kArgumentWindowBits`.
inline constexpr unsigned kArgumentWindowBits = 44;

/// A contiguous range of elements of one element type.
struct MemRegion {
  std::string name;
  /// Address of element 0.
  int64_t base = 0;
  /// Set by the first view (or the .npy file) that binds the region.
  std::optional<DType> dtype;
  /// Data from a .npy file fixes the extent; other regions grow.
  bool growable = true;
  /// A .npy float32 array may still be bound once to bf16/df16 views.
  bool rebindableToNarrowFloat = false;
  InputSpec init;
  /// The kernel only stores into this tensor: its default contents are 0.
  bool storeOnly = false;
  /// Seed of the generated initial values.
  uint64_t seed = 0;
  /// Index of the tensor argument, or -1 for literal/scratchpad regions.
  int argIndex = -1;
  std::vector<double> floats;
  std::vector<int64_t> ints;
  /// Whether a store has written into the region.
  bool written = false;
  /// The .npy shape of a region whose data came from a file.
  llvm::SmallVector<int64_t, 4> shape;
  /// The footprints of the views at the region (ktflow/Analysis/
  /// TensorExtent.h), relative to `base`: the region's extent and logical
  /// shape.
  ktflow::TensorExtentBuilder extent;

  int64_t size() const {
    return static_cast<int64_t>(dtype && isFloat(*dtype) ? floats.size()
                                                         : ints.size());
  }
  /// Grows to `newSize` elements initialised from `init`.
  void growTo(int64_t newSize);
  /// The region's contents as a tensor, in its .npy shape or the shape its
  /// extent defines (flat when neither covers it).
  Tensor toTensor() const;
};

/// One memory: global memory or one tile's scratchpad.
class MemorySpace {
public:
  MemorySpace(std::string name, bool isGlobal, int64_t capacityBytes)
      : name(std::move(name)), isGlobal(isGlobal),
        capacityBytes(capacityBytes) {}

  /// Makes sure a region of element type `dtype` covers addresses
  /// [lo, hi] (creating, growing or merging regions). Returns the region,
  /// or an error message (type mismatch, capacity, negative address).
  llvm::Expected<MemRegion *> bind(int64_t lo, int64_t hi, DType dtype);

  /// The region holding address `addr`, or null.
  MemRegion *find(int64_t addr);
  /// The region starting closest at or below `addr` (it may end before
  /// `addr`), or null: the memory an out-of-range address overflows.
  MemRegion *findAtOrBelow(int64_t addr);

  /// Adds an argument region (global memory only).
  MemRegion *addArgument(int argIndex, std::string argName, InputSpec init,
                      std::optional<Tensor> data);

  /// Initial contents of literal-address regions created at an address.
  struct LiteralDefault {
    InputSpec spec;
    bool storeOnly = false;
  };
  std::map<int64_t, LiteralDefault> literalDefaults;
  uint64_t seed = 0;

  const std::string &getName() const { return name; }
  bool global() const { return isGlobal; }
  std::map<int64_t, std::unique_ptr<MemRegion>> &getRegions() { return regions; }

private:
  llvm::Expected<MemRegion *> bindLiteral(int64_t lo, int64_t hi, DType dtype);

  std::string name;
  bool isGlobal;
  int64_t capacityBytes;
  std::map<int64_t, std::unique_ptr<MemRegion>> regions;
};

/// Resolves a Default spec for a region of `dtype`: zeros for tensors the
/// kernel only stores into and for integers, uniform in [-1, 1) otherwise.
void resolveDefaultSpec(InputSpec &spec, DType dtype, bool storeOnly);

/// Deterministic initial value of element `index` of a region.
double initialFloat(const InputSpec &spec, uint64_t stream, int64_t index,
                    DType dtype);
int64_t initialInt(const InputSpec &spec, uint64_t stream, int64_t index,
                   DType dtype);

} // namespace ktflow::interp

#endif // KTFLOW_LIB_INTERPRETER_MEMORY_H
