//===- Version.cpp - ktflow's version -------------------------------------===//
//
// The version comes from CMake's project() and the commit from
// cmake/GitVersion.cmake, run at every build.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Support/Version.h"

#include "ktflow/Support/GitVersion.inc"

#include "llvm/Config/llvm-config.h"

std::string ktflow::getVersion() { return KTFLOW_VERSION; }

std::string ktflow::getGitHash() { return KTFLOW_GIT_HASH; }

void ktflow::printVersion(llvm::raw_ostream &os) {
  os << "ktflow " << getVersion() << " (git " << getGitHash() << ")\n"
     << "  built with LLVM/MLIR " << LLVM_VERSION_STRING << "\n";
}
