//===- Npy.h - NumPy .npy files ---------------------------------*- C++ -*-===//
//
// This file declares reading and writing of NumPy `.npy` files (format
// versions 1.0, 2.0 and 3.0 on read; 1.0, or 2.0 when the header needs it,
// on write): little-endian, C order, dtypes bool, int8/16/32/64 and
// float16/32/64. bf16 and df16 tensors are written as float32, which holds
// their values exactly; index tensors as int64.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_HOSTTENSOR_NPY_H
#define KTFLOW_HOSTTENSOR_NPY_H

#include "ktflow/HostTensor/Tensor.h"

#include "llvm/Support/Error.h"

namespace ktflow::host {

/// Where a .npy file's elements are and what they are.
struct NpyLayout {
  DType dtype;
  llvm::SmallVector<int64_t, 4> shape;
  /// The little-endian elements, `byteSize(dtype)` bytes each.
  llvm::StringRef payload;
};

/// Parses the header of the bytes of a .npy file and checks the payload's
/// size, with parseNpy's errors.
llvm::Expected<NpyLayout> parseNpyLayout(llvm::StringRef bytes);

/// The header (magic, version, length and dict) of a .npy file holding a
/// tensor of `dtype` and `shape`, as serializeNpy writes it.
std::string npyHeader(DType dtype, llvm::ArrayRef<int64_t> shape,
                      unsigned version = 0);

/// Parses the bytes of a .npy file. Malformed headers, unsupported dtypes,
/// big-endian or Fortran-ordered data and truncated payloads are errors.
llvm::Expected<Tensor> parseNpy(llvm::StringRef bytes);

/// Reads and parses a .npy file.
llvm::Expected<Tensor> readNpyFile(llvm::StringRef path);

/// The bytes of a .npy file holding `tensor`. `version` 0 picks 1.0 unless
/// the header is too long for it; 1 or 2 force that format version.
std::string serializeNpy(const Tensor &tensor, unsigned version = 0);

/// Writes `tensor` to `path` as a .npy file.
llvm::Error writeNpyFile(llvm::StringRef path, const Tensor &tensor,
                         unsigned version = 0);

/// The numpy dtype descriptor a tensor of `t` is written with ("<f2", ...).
llvm::StringRef npyDescr(DType t);

/// The element type a tensor of `t` has after a write/read round trip
/// (bf16 and df16 come back as f32).
DType npyStorageType(DType t);

/// The checksum `ktflow interp` prints for a tensor: XXH3-64 (seed 0) of
/// the payload of its .npy file, the little-endian elements as written
/// (`xxhash.xxh3_64_intdigest(np.load(f).tobytes())` in Python).
uint64_t payloadChecksum(llvm::ArrayRef<uint8_t> payload);

} // namespace ktflow::host

#endif // KTFLOW_HOSTTENSOR_NPY_H
