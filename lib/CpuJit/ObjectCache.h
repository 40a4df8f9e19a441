//===- ObjectCache.h - Compiled kernels cached on disk ----------*- C++ -*-===//
//
// This file declares the on-disk cache of the tier's compiled code: one
// native object file per kernel, keyed by a hash of the tile function the
// kernel became (TileFunction.h; everything after it is a fixed function of
// that IR and of the ktflow executable) together with the executable's
// identity, the LLVM version and the host CPU. Results are never cached.
// MLIR's ExecutionEngine keeps objects in memory only, so a hit is loaded
// into an ORC LLJIT of our own, linked the way ExecutionEngine links.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_CPUJIT_OBJECTCACHE_H
#define KTFLOW_LIB_CPUJIT_OBJECTCACHE_H

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"

#include <memory>
#include <optional>
#include <string>

namespace ktflow::jit {

/// `$XDG_CACHE_HOME/ktflow` or `~/.cache/ktflow`, created if needed;
/// std::nullopt when neither is set and writable, or when
/// `KTFLOW_JIT_CACHE=off`.
std::optional<std::string> cacheDirectory();

/// The file the object of `tileModule` (a tile function, before any
/// lowering) is cached in, under `directory`.
std::string cachedObjectPath(llvm::StringRef directory,
                             mlir::ModuleOp tileModule);

/// Loads the object at `path` and returns the JIT holding it and the
/// packed entry point `_mlir_<entryName>`, with `runtimeSymbols` (name,
/// address) defined for the object's calls into ktflow; std::nullopt when
/// there is no usable object (a miss: the caller compiles).
struct LoadedObject {
  std::unique_ptr<llvm::orc::LLJIT> jit;
  void (*entry)(void **) = nullptr;
};
std::optional<LoadedObject> loadCachedObject(
    llvm::StringRef path, llvm::StringRef entryName,
    llvm::ArrayRef<std::pair<llvm::StringRef, void *>> runtimeSymbols);

/// Writes the object `engine` compiled to `path`, atomically (a rename),
/// so that concurrent runs never read half a file. Failures are ignored:
/// the cache only saves time.
void storeCachedObject(mlir::ExecutionEngine &engine, llvm::StringRef path);

} // namespace ktflow::jit

#endif // KTFLOW_LIB_CPUJIT_OBJECTCACHE_H
