//===- Assignment.h - NAME=VALUE options of the commands --------*- C++ -*-===//
//
// This file declares the one parser of the `NAME=VALUE` text that `--arg`,
// `--input` and `--output` take, so `ktflow interp` and `ktflow run` accept
// and refuse the same spellings with the same message.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_SUPPORT_ASSIGNMENT_H
#define KTFLOW_SUPPORT_ASSIGNMENT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace ktflow {

/// `text` split at its first '=' into a name and a value, neither empty,
/// else "--FLAG expects NAME=VALUE, got 'TEXT'". The value may hold more
/// '=' characters.
struct Assignment {
  llvm::StringRef name, value;
};
llvm::Expected<Assignment> parseAssignment(llvm::StringRef text,
                                           llvm::StringRef flag);

} // namespace ktflow

#endif // KTFLOW_SUPPORT_ASSIGNMENT_H
