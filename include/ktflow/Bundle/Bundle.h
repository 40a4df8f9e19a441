//===- Bundle.h - The ktflow program bundle ---------------------*- C++ -*-===//
//
// This file declares the program bundle: everything needed to run a compiled
// DataflowIR kernel on the simulator, in one versioned, checksummed file. It
// holds (1) each unit's program as a compact binary with relocation sites
// for runtime symbols, (2) the metadata of those symbols (tensor arguments,
// runtime arguments, relocations) plus FIFOs and sync channels, and (3) the
// machine description it was compiled for. The layout is documented in
// docs/bundle-format.md.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_BUNDLE_BUNDLE_H
#define KTFLOW_BUNDLE_BUNDLE_H

#include "ktflow/Machine/Machine.h"
#include "ktflow/Machine/Program.h"
#include "ktflow/Support/ScratchpadInputName.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ktflow::bundle {

constexpr char kMagic[8] = {'K', 'T', 'F', 'L', 'O', 'W', 'B', 'N'};
constexpr uint32_t kVersion = 19;
constexpr size_t kHeaderSize = 32;
constexpr uint32_t kNoArg = UINT32_MAX;

enum class TensorRole : uint8_t { Input, Output, InOut };
llvm::StringRef tensorRoleName(TensorRole role);

/// A tensor dimension: static, or the value of a runtime argument times
/// `scale` (two halves of n rows of 64 at one pointer: 128 n elements).
struct TensorDim {
  int64_t size = 0;
  uint32_t runtimeArg = kNoArg;
  int64_t scale = 1;
};

/// A kernel tensor argument: the runtime allocates it in `memory` and its
/// base address patches every relocation naming it.
struct TensorArg {
  /// The symbol: unique among the bundle's tensors.
  std::string name;
  machine::ElemType elem = machine::ElemType::f16;
  std::vector<TensorDim> dims;
  uint32_t memory = 0;
  TensorRole role = TensorRole::Input;
  /// Where the kernel has the tensor: the position of the argument holding
  /// its start address (kNoArg for none) and that argument's name in the
  /// source ("" when unknown), or the literal address it sits at.
  uint32_t argument = kNoArg;
  std::string argName;
  std::optional<uint64_t> address;
  /// For what tile K's scratchpad (`memory`) holds at literal address
  /// `address` before the kernel: K. The runtime places such a tensor at
  /// `address` times its element size, where the kernel reads it.
  std::optional<uint64_t> tile;
};

/// A launch-time integer: a multiple of `granularity` in [lowerbound,
/// upperbound]. A runtime_arg's lowerbound is 1 (a positive size); a plain
/// scalar argument's is the least value of its type.
struct RuntimeArg {
  /// The symbol: unique among the bundle's runtime arguments.
  std::string name;
  int64_t granularity = 1;
  int64_t upperbound = 0;
  int64_t lowerbound = 1;
  /// The kernel argument it is (kNoArg for none) and its name in the source.
  uint32_t argument = kNoArg;
  std::string argName;
  /// 0 for an integer argument; 1 + the machine::ElemType (f16, bf16, f32)
  /// of a float scalar (a norm's epsilon), whose bounds are unused and
  /// whose value the runtime stores as the bits of the double it rounds to.
  uint8_t floatType = 0;
};

/// The float type of `arg`, none for an integer argument.
inline std::optional<machine::ElemType> getFloatType(const RuntimeArg &arg) {
  if (!arg.floatType)
    return std::nullopt;
  return static_cast<machine::ElemType>(arg.floatType - 1);
}

/// The name the kernel gives a tensor, which the tools print and accept: its
/// argument's name in the source (`x` for `%x`), `@ADDR` for a tensor at a
/// literal address, `lx<K>@ADDR` for one in tile K's scratchpad, else its
/// symbol.
inline std::string getKernelName(const TensorArg &tensor) {
  if (!tensor.argName.empty())
    return tensor.argName;
  if (tensor.address && tensor.tile)
    return formatScratchpadInputName(*tensor.tile, *tensor.address);
  if (tensor.address)
    return "@" + std::to_string(*tensor.address);
  return tensor.name;
}

/// The name the kernel gives a runtime argument: its name in the source,
/// else its symbol.
inline std::string getKernelName(const RuntimeArg &arg) {
  return arg.argName.empty() ? arg.name : arg.argName;
}

/// A statically placed scratchpad buffer (kept for inspection).
struct Buffer {
  std::string name;
  uint32_t memory = 0;
  uint64_t offset = 0, size = 0;
};

/// What a relocation site receives: a tensor's address, a runtime
/// argument's value (a float argument's as the bits of a double), or an
/// integer runtime argument's value as the bits of a double (a splat of
/// the argument converted to float).
enum class SymbolKind : uint8_t {
  TensorAddress,
  RuntimeArg,
  RuntimeArgAsFloat
};

/// Patch site: the 8-byte immediate at `offset` of program `program`'s code
/// receives the value of the symbol at launch.
struct Relocation {
  uint32_t program = 0;
  uint32_t offset = 0;
  SymbolKind kind = SymbolKind::TensorAddress;
  uint32_t symbol = 0;
};

struct EncodedProgram {
  uint32_t unit = 0;
  std::vector<uint8_t> code;
};

struct Bundle {
  std::string kernel;
  std::string device;
  uint64_t deviceFingerprint = 0;
  machine::Machine machine;
  std::vector<TensorArg> tensors;
  std::vector<RuntimeArg> runtimeArgs;
  std::vector<Buffer> buffers;
  std::vector<machine::FifoDesc> fifos;
  std::vector<machine::SyncDesc> syncs;
  std::vector<EncodedProgram> programs;
  std::vector<Relocation> relocations;
  /// The kernel source location of every instruction (the optional LOCS
  /// section): empty, or one list per program, as long as its code.
  machine::SourceTable sources;
};

/// Encodes one program. `immOffsets`, if given, receives for every
/// instruction the byte offset of its 8-byte immediate (0 if it has none),
/// so relocation sites can be recorded.
std::vector<uint8_t> encodeProgram(const machine::UnitProgram &program,
                                   std::vector<uint32_t> *immOffsets = nullptr);
/// Decodes one program (the unit index is taken from `unit`).
llvm::Expected<machine::UnitProgram> decodeProgram(llvm::ArrayRef<uint8_t> code,
                                                   uint32_t unit);

/// Serializes a bundle: header, then the machine, metadata and code
/// sections, and the source locations when there are any.
std::vector<uint8_t> writeBundle(const Bundle &bundle);
/// Parses a bundle, rejecting a foreign, truncated, corrupt or
/// wrong-version file with a message that says which.
llvm::Expected<Bundle> readBundle(llvm::ArrayRef<uint8_t> bytes);

/// Prints the bundle readably: metadata, machine summary, disassembly.
void printBundle(llvm::raw_ostream &os, const Bundle &bundle,
                 size_t fileSize = 0);
/// Prints one program's instructions; with the program's index in the
/// bundle, relocated immediates show the symbol they receive.
void disassemble(llvm::raw_ostream &os, const machine::UnitProgram &program,
                 const Bundle &bundle);
void disassemble(llvm::raw_ostream &os, const machine::UnitProgram &program,
                 const Bundle &bundle, int64_t programIndex);

} // namespace ktflow::bundle

#endif // KTFLOW_BUNDLE_BUNDLE_H
