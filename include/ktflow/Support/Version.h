//===- Version.h - ktflow's version -----------------------------*- C++ -*-===//
//
// This file declares the version `ktflow --version` prints and the Python
// package reports: the project's release and the commit it was built from.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_SUPPORT_VERSION_H
#define KTFLOW_SUPPORT_VERSION_H

#include "llvm/Support/raw_ostream.h"

#include <string>

namespace ktflow {

/// The release, "0.1.0".
std::string getVersion();
/// The abbreviated commit hash of the build's source tree, or "unknown".
std::string getGitHash();
/// Prints `ktflow VERSION (git HASH)` and the LLVM it was built with.
void printVersion(llvm::raw_ostream &os);

} // namespace ktflow

#endif // KTFLOW_SUPPORT_VERSION_H
