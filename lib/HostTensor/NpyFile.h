//===- NpyFile.h - Reading .npy files and naming them in errors -*- C++ -*-===//
//
// This file declares what the two readers of .npy files (Npy.cpp's
// readNpyFile, NativeTensor.cpp's readNpyFileNative) share: the file's bytes
// and the file's name in front of a parse error.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_HOSTTENSOR_NPYFILE_H
#define KTFLOW_LIB_HOSTTENSOR_NPYFILE_H

#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>

namespace ktflow::host {

/// The bytes of the file at `path`, or "cannot read 'PATH': REASON".
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readNpyBytes(llvm::StringRef path);

/// `error` as "PATH: MESSAGE", so that a malformed input names its file.
llvm::Error inNpyFile(llvm::StringRef path, llvm::Error error);

} // namespace ktflow::host

#endif // KTFLOW_LIB_HOSTTENSOR_NPYFILE_H
