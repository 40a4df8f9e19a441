//===- OutputFile.h - Write outputs, reporting I/O errors -------*- C++ -*-===//
//
// This file declares how ktflow's tools write their outputs (files given
// with -o, --output or --trace, and stdout) so that a failed write (a full
// disk, /dev/full) is the error "cannot write '<path>': <reason>" instead of
// LLVM's "IO failure on output stream" abort when the stream is destroyed.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_SUPPORT_OUTPUTFILE_H
#define KTFLOW_SUPPORT_OUTPUTFILE_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

namespace ktflow {

/// Creates (or truncates) `path` and writes it with `write`; "-" writes to
/// stdout (llvm::outs()). Opening, writing and closing are checked.
llvm::Error writeOutputFile(
    llvm::StringRef path, llvm::function_ref<void(llvm::raw_ostream &)> write,
    llvm::sys::fs::OpenFlags flags = llvm::sys::fs::OF_None);

/// The write error `os` has had, if any, as "cannot write '<name>':
/// <reason>"; the stream's error is cleared.
llvm::Error takeWriteError(llvm::raw_fd_ostream &os, llvm::StringRef name);

/// Flushes llvm::outs() and reports (then clears) any write error it had,
/// as "cannot write '<stdout>': <reason>".
llvm::Error flushStdout();

} // namespace ktflow

#endif // KTFLOW_SUPPORT_OUTPUTFILE_H
