//===- ReferenceCache.h - Interpreter results shared by runs ----*- C++ -*-===//
//
// This file declares the cache of `ktflow run --check --reference-cache=DIR`:
// the results of `--check` that do not depend on the device (the reference
// interpreter's outputs, and how far each displaced reduction or op rounded
// twice moves them, docs/interpreter.md §9), kept in a directory so that
// the runs of one kernel with the same inputs on several devices interpret
// it once. An entry is named by a hash of everything its interpreter runs
// depend on; one that cannot be read is recomputed.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_CHECK_REFERENCECACHE_H
#define KTFLOW_CHECK_REFERENCECACHE_H

#include "ktflow/Check/Check.h"

#include <array>
#include <optional>
#include <string>

namespace ktflow::check {

/// The environment variable that names the cache directory when
/// `--reference-cache` is not given (test/lit.cfg.py sets it).
inline constexpr const char *kReferenceCacheEnv = "KTFLOW_REFERENCE_CACHE";

class ReferenceCache {
public:
  /// The entries in `directory` for the kernel `module` runs (the
  /// reference's copy, as written), bound as `bindings`, under `options`
  /// (its displaced op ignored), comparing outputs `names`. The key also
  /// holds ktflow's version and the running executable's size and
  /// modification time, so that a rebuilt interpreter reads nothing an
  /// older one wrote.
  ReferenceCache(llvm::StringRef directory, mlir::ModuleOp module,
                 const interp::InterpreterOptions &options,
                 const ReferenceBindings &bindings,
                 llvm::ArrayRef<std::string> names);

  /// The tensors stored as `entry` (`reference`, `reduction N`...), or none
  /// when there are none or they cannot be read whole.
  std::optional<std::vector<host::Tensor>> lookup(llvm::StringRef entry) const;
  /// Stores `tensors` as `entry`: written to a temporary file and renamed,
  /// so that a reader sees a whole entry or none. Failures are ignored
  /// (the entry is recomputed next time).
  void store(llvm::StringRef entry, llvm::ArrayRef<host::Tensor> tensors) const;

private:
  using Digest = std::array<uint8_t, 32>;
  Digest entryKey(llvm::StringRef entry) const;
  std::string entryPath(const Digest &key) const;

  std::string directory;
  Digest kernelKey;
};

/// The cache `--reference-cache` (or, when it is empty,
/// $KTFLOW_REFERENCE_CACHE) names; empty for none.
std::string getReferenceCacheDirectory(llvm::StringRef flag);

} // namespace ktflow::check

#endif // KTFLOW_CHECK_REFERENCECACHE_H
