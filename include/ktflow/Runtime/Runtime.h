//===- Runtime.h - Load and launch program bundles --------------*- C++ -*-===//
//
// This file declares ktflow's runtime API: load a program bundle (rejecting
// corrupt, truncated or wrong-version files), bind runtime arguments
// (checked against their granularity and upperbound), fill tensors, and
// launch: the runtime allocates every tensor in its device memory, patches
// the relocations with the tensor addresses and argument values, runs the
// simulator and keeps the device memory for reading results back.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_RUNTIME_RUNTIME_H
#define KTFLOW_RUNTIME_RUNTIME_H

#include "ktflow/Bundle/Bundle.h"
#include "ktflow/Simulator/Simulator.h"

#include "llvm/ADT/StringMap.h"

#include <memory>
#include <optional>

namespace ktflow::rt {

/// A loaded bundle.
class Program {
public:
  static llvm::Expected<Program> loadFile(llvm::StringRef path);
  static llvm::Expected<Program> loadBytes(llvm::ArrayRef<uint8_t> bytes);

  const bundle::Bundle &getBundle() const { return bundle; }
  /// Fails unless the bundle was built for `machine` (same name and
  /// fingerprint).
  llvm::Error checkDevice(const machine::Machine &machine) const;
  /// The tensor (runtime argument) `name` names: the kernel's name for it
  /// (its argument's SSA name; `@ADDR` for a tensor at a literal address,
  /// `lx<K>@ADDR` in tile K's scratchpad),
  /// else the bundle's symbol (`arg1`, `lit8192`), else the position of the
  /// kernel argument (`1`).
  std::optional<uint32_t> findTensor(llvm::StringRef name) const;
  std::optional<uint32_t> findRuntimeArg(llvm::StringRef name) const;
  /// The tensor whose start address kernel argument `position` holds.
  std::optional<uint32_t> findTensorOfArgument(uint32_t position) const;
  /// The tensor at literal address `address` of global memory, or (with
  /// `tile`) of tile `tile`'s scratchpad.
  std::optional<uint32_t>
  findTensorAt(uint64_t address,
               std::optional<uint64_t> tile = std::nullopt) const;
  /// The runtime argument that kernel argument `position` is.
  std::optional<uint32_t> findRuntimeArgOfArgument(uint32_t position) const;

private:
  bundle::Bundle bundle;
};

/// One launch of a program: arguments, tensor contents, results.
class Launch {
public:
  explicit Launch(const Program &program);

  /// Binds a runtime argument, by name (Program::findRuntimeArg) or index.
  /// A `!ktdp.runtime_arg` (lowerbound 1) must be positive, a multiple of
  /// its granularity and at most its upperbound; a plain scalar argument
  /// (`%n: index`, `%n: i32`) may take any value of its type, negative
  /// ones included ([lowerbound, upperbound]). Any other value is an error.
  /// A float scalar argument (`%eps: f16`) is bound with setFloatRuntimeArg
  /// or bindRuntimeArg only.
  llvm::Error setRuntimeArg(llvm::StringRef name, int64_t value);
  llvm::Error setRuntimeArg(uint32_t index, int64_t value);
  /// Binds float scalar argument `index` to `value` rounded (to nearest
  /// even) to its type; the compute units read that value.
  llvm::Error setFloatRuntimeArg(uint32_t index, double value);
  /// Binds runtime argument `index` from the text of `--arg NAME=TEXT`: a
  /// decimal integer, or for a float argument a number or the type's bit
  /// pattern (`0x1E00` for an f16; ktflow/Support/FloatArgument.h).
  llvm::Error bindRuntimeArg(uint32_t index, llvm::StringRef text);
  llvm::Error bindRuntimeArg(llvm::StringRef name, llvm::StringRef text);
  /// The tensor's shape; fails while one of its runtime args is unbound.
  llvm::Expected<std::vector<int64_t>> getShape(uint32_t tensor) const;
  llvm::Expected<uint64_t> getByteSize(uint32_t tensor) const;
  /// Sets a tensor's initial contents (exactly its byte size). Tensors
  /// never set start as zeros.
  llvm::Error setTensor(uint32_t tensor, llvm::ArrayRef<uint8_t> bytes);
  /// Sets a tensor's initial contents to what `contents` makes of each
  /// byte range (offsets from the tensor's start), generated when the
  /// simulation first touches the range's page: a tensor declared far
  /// larger than the kernel touches (a paged KV pool) costs what it
  /// touches.
  void setTensorContents(uint32_t tensor, sim::MemoryImage::Contents contents);

  /// Places every tensor in its memory and patches the relocations with
  /// the addresses and argument values (getExecutable() is then the
  /// program the simulator would run), without simulating; run() does it
  /// first. A tensor of a tile's scratchpad (`lx<K>@ADDR`) goes at its
  /// literal address, the others one after another from the memory's
  /// start. Fails while a runtime argument is unbound or a tensor does not
  /// fit or overlaps a buffer of the kernel.
  llvm::Error link();
  /// Allocates, patches and runs. Can be called once.
  llvm::Expected<sim::SimStats> run(const sim::SimOptions &options = {},
                                    std::vector<sim::TraceEvent> *trace = nullptr);
  /// A tensor's contents after `run`.
  llvm::Expected<std::vector<uint8_t>> readTensor(uint32_t tensor) const;
  const machine::Executable &getExecutable() const { return executable; }
  uint64_t getTensorAddress(uint32_t tensor) const { return addresses[tensor]; }

private:
  /// The kernel's name for `tensor`, as errors say it.
  std::string tensorName(uint32_t tensor) const {
    return bundle::getKernelName(program.getBundle().tensors[tensor]);
  }

  /// Places tile scratchpad tensor `t` (`size` bytes) at its literal
  /// address, refusing one outside its memory or over a buffer.
  llvm::Error placeInScratchpad(uint32_t t, uint64_t size);

  const Program &program;
  std::vector<std::optional<int64_t>> argValues;
  std::vector<std::vector<uint8_t>> initial;
  std::vector<sim::MemoryImage::Contents> generated;
  std::vector<uint64_t> addresses;
  /// Per memory, the end of the last tensor placed in it (link()).
  std::vector<uint64_t> placedEnd;
  std::unique_ptr<sim::MemoryImage> memory;
  machine::Executable executable;
  bool linked = false;
  bool ran = false;
};

} // namespace ktflow::rt

#endif // KTFLOW_RUNTIME_RUNTIME_H
