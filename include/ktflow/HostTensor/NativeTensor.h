//===- NativeTensor.h - Host tensors in their memory layout -----*- C++ -*-===//
//
// This file declares the native tensor: a dense, row-major buffer holding
// each element in its own bits and width (f16 as 16 bits, i1 as one byte,
// index as 64 bits), as compiled code and .npy files hold them. The
// compiled tier of `ktflow interp` reads its inputs, runs and writes its
// outputs in this form, so a large tensor never passes through the
// one-double-per-element Tensor of the interpreter; the two convert into
// each other exactly.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_HOSTTENSOR_NATIVETENSOR_H
#define KTFLOW_HOSTTENSOR_NATIVETENSOR_H

#include "ktflow/HostTensor/Tensor.h"

#include "llvm/Support/Error.h"

#include <cstdlib>
#include <memory>

namespace ktflow::host {

class NativeTensor {
public:
  NativeTensor() = default;
  /// Uninitialised elements (zero-filled with `zeroed`, which costs nothing
  /// until a page is touched).
  NativeTensor(DType dtype, llvm::ArrayRef<int64_t> shape, bool zeroed);

  /// The elements of `tensor` in their native bits.
  static NativeTensor fromTensor(const Tensor &tensor);
  /// The same elements as a Tensor.
  Tensor toTensor() const;
  /// A copy that owns its own elements.
  NativeTensor clone() const;
  /// The same elements, not copied: both tensors see each other's writes
  /// and the storage lives while either does. For inputs compiled code only
  /// reads.
  NativeTensor share() const { return *this; }

  DType getDType() const { return dtype; }
  llvm::ArrayRef<int64_t> getShape() const { return shape; }
  int64_t numElements() const { return productOf(shape); }
  /// Bytes per element (one for i1).
  size_t getElementBytes() const { return byteSize(dtype); }
  size_t numBytes() const { return numElements() * getElementBytes(); }
  uint8_t *data() { return elements; }
  const uint8_t *data() const { return elements; }

  /// The bits of element `i`, zero-extended.
  uint64_t getBits(int64_t i) const;
  /// Element `i` as the interpreter holds it (Tensor::getDouble).
  double getDouble(int64_t i) const;
  /// Element `i` as Tensor::getInt gives it (floats truncate toward zero).
  int64_t getInt(int64_t i) const;

  /// Elements at `elements` in memory `storage` keeps alive (a mapped
  /// file, say).
  NativeTensor(DType dtype, llvm::ArrayRef<int64_t> shape, uint8_t *elements,
               std::shared_ptr<void> storage)
      : dtype(dtype), shape(shape.begin(), shape.end()),
        storage(std::move(storage)), elements(elements) {}

private:
  // Copies only through clone() or share(), which say which they are.
  NativeTensor(const NativeTensor &) = default;
  NativeTensor &operator=(const NativeTensor &) = default;

public:
  NativeTensor(NativeTensor &&) = default;
  NativeTensor &operator=(NativeTensor &&) = default;

private:
  DType dtype = DType::F32;
  llvm::SmallVector<int64_t, 4> shape;
  std::shared_ptr<void> storage;
  uint8_t *elements = nullptr;
};

/// Parses the bytes of a .npy file (as parseNpy, with the same errors),
/// copying the payload without converting it.
llvm::Expected<NativeTensor> parseNpyNative(llvm::StringRef bytes);
/// Reads and parses a .npy file into a native tensor.
llvm::Expected<NativeTensor> readNpyFileNative(llvm::StringRef path);
/// Writes `tensor` as writeNpyFile writes the equal Tensor, byte for byte.
llvm::Error writeNpyFile(llvm::StringRef path, const NativeTensor &tensor);

/// computeStats of the equal Tensor, bit for bit.
TensorStats computeStats(const NativeTensor &tensor);
/// printTensorSummary of the equal Tensor, character for character.
void printTensorSummary(llvm::raw_ostream &os, llvm::StringRef name,
                        const NativeTensor &tensor);

} // namespace ktflow::host

#endif // KTFLOW_HOSTTENSOR_NATIVETENSOR_H
