//===- ObjectCache.cpp - Compiled kernels cached on disk ------------------===//
//
// This file implements the tier's on-disk object cache (ObjectCache.h).
// The key hashes the printed tile function with everything else that
// decides the object: the ktflow executable (path, size and modification
// time, so a rebuild never reuses an object), the LLVM version and the
// host CPU with its features.
//
//===----------------------------------------------------------------------===//

#include "ObjectCache.h"

#include "mlir/IR/OperationSupport.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/ExecutionEngine/Orc/AbsoluteSymbols.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/RTDyldObjectLinkingLayer.h"
#include "llvm/ExecutionEngine/SectionMemoryManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include "llvm/TargetParser/Host.h"

#include <cstdlib>

using namespace ktflow::jit;
using llvm::StringRef;

/// `dir` if it exists (or can be made) and files can be created in it.
static std::optional<std::string> usableDirectory(StringRef dir) {
  if (dir.empty() || llvm::sys::fs::create_directories(dir))
    return std::nullopt;
  if (llvm::sys::fs::access(dir, llvm::sys::fs::AccessMode::Write))
    return std::nullopt;
  return dir.str();
}

std::optional<std::string> ktflow::jit::cacheDirectory() {
  if (const char *setting = std::getenv("KTFLOW_JIT_CACHE"))
    if (StringRef(setting) == "off")
      return std::nullopt;
  llvm::SmallString<128> dir;
  if (std::optional<std::string> xdg =
          llvm::sys::Process::GetEnv("XDG_CACHE_HOME");
      xdg && !xdg->empty()) {
    dir = *xdg;
    llvm::sys::path::append(dir, "ktflow");
    if (std::optional<std::string> usable = usableDirectory(dir))
      return usable;
  }
  if (std::optional<std::string> home = llvm::sys::Process::GetEnv("HOME");
      home && !home->empty()) {
    dir = *home;
    llvm::sys::path::append(dir, ".cache", "ktflow");
    return usableDirectory(dir);
  }
  return std::nullopt;
}

/// What identifies the code that turns a tile function into an object.
static std::string toolchainIdentity() {
  static const std::string identity = [] {
    std::string id = "llvm " LLVM_VERSION_STRING "\n";
    // The address of a function of this executable finds it.
    std::string exe = llvm::sys::fs::getMainExecutable(
        nullptr, reinterpret_cast<void *>(&toolchainIdentity));
    llvm::sys::fs::file_status status;
    if (!exe.empty() && !llvm::sys::fs::status(exe, status))
      id += exe + " " + std::to_string(status.getSize()) + " " +
            std::to_string(
                status.getLastModificationTime().time_since_epoch().count()) +
            "\n";
    id += llvm::sys::getHostCPUName().str() + "\n";
    for (const auto &feature : llvm::sys::getHostCPUFeatures())
      if (feature.second)
        id += feature.first().str() + ",";
    return id;
  }();
  return identity;
}

std::string ktflow::jit::cachedObjectPath(StringRef directory,
                                          mlir::ModuleOp tileModule) {
  std::string text = toolchainIdentity();
  llvm::raw_string_ostream os(text);
  tileModule->print(os, mlir::OpPrintingFlags().printGenericOpForm());
  llvm::XXH128_hash_t hash = llvm::xxh3_128bits(llvm::ArrayRef(
      reinterpret_cast<const uint8_t *>(text.data()), text.size()));
  llvm::SmallString<128> path(directory);
  llvm::sys::path::append(
      path, llvm::formatv("{0:x-}{1:x-}.o", hash.high64, hash.low64).str());
  return path.str().str();
}

std::optional<LoadedObject> ktflow::jit::loadCachedObject(
    StringRef path, StringRef entryName,
    llvm::ArrayRef<std::pair<StringRef, void *>> runtimeSymbols) {
  auto object = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!object)
    return std::nullopt;
  // Linked as ExecutionEngine links what it compiles: RuntimeDyld, the
  // process's own symbols (libm, malloc) resolvable.
  auto jit =
      llvm::orc::LLJITBuilder()
          .setObjectLinkingLayerCreator(
              [](llvm::orc::ExecutionSession &session)
                  -> llvm::Expected<std::unique_ptr<llvm::orc::ObjectLayer>> {
                return std::make_unique<llvm::orc::RTDyldObjectLinkingLayer>(
                    session, [](const llvm::MemoryBuffer &) {
                      return std::make_unique<llvm::SectionMemoryManager>();
                    });
              })
          .create();
  if (!jit) {
    llvm::consumeError(jit.takeError());
    return std::nullopt;
  }
  llvm::orc::JITDylib &main = (*jit)->getMainJITDylib();
  auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      (*jit)->getDataLayout().getGlobalPrefix());
  if (!process) {
    llvm::consumeError(process.takeError());
    return std::nullopt;
  }
  main.addGenerator(std::move(*process));
  llvm::orc::MangleAndInterner mangle((*jit)->getExecutionSession(),
                                      (*jit)->getDataLayout());
  llvm::orc::SymbolMap symbols;
  for (auto [name, address] : runtimeSymbols)
    symbols[mangle(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                             llvm::JITSymbolFlags::Exported};
  if (llvm::Error err = main.define(llvm::orc::absoluteSymbols(symbols))) {
    llvm::consumeError(std::move(err));
    return std::nullopt;
  }
  if (llvm::Error err = (*jit)->addObjectFile(std::move(*object))) {
    llvm::consumeError(std::move(err));
    return std::nullopt;
  }
  auto entry = (*jit)->lookup(("_mlir_" + entryName).str());
  if (!entry) {
    llvm::consumeError(entry.takeError());
    return std::nullopt;
  }
  LoadedObject loaded;
  loaded.entry = entry->toPtr<void (*)(void **)>();
  loaded.jit = std::move(*jit);
  return loaded;
}

void ktflow::jit::storeCachedObject(mlir::ExecutionEngine &engine,
                                    StringRef path) {
  llvm::SmallString<128> temporary;
  int fd;
  if (llvm::sys::fs::createUniqueFile(path + ".%%%%%%.tmp", fd, temporary))
    return;
  llvm::sys::Process::SafelyCloseFileDescriptor(fd);
  engine.dumpToObjectFile(temporary);
  uint64_t size = 0;
  if (llvm::sys::fs::file_size(temporary, size) || size == 0 ||
      llvm::sys::fs::rename(temporary, path))
    llvm::sys::fs::remove(temporary);
}
