//===- Link.cpp - Linking a program bundle for one launch -----------------===//
//
// This file patches a bundle's relocation sites with the values of its
// symbols (tensor addresses, runtime arguments) and decodes the patched code
// into the executable the simulator runs. Every relocation is checked against
// the code it patches and the decoded programs against the bundle's machine,
// so a damaged bundle is refused here and never reaches the simulator.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Runtime/Link.h"

using namespace ktflow;
using namespace ktflow::bundle;

llvm::Expected<machine::Executable> ktflow::rt::linkBundle(
    const Bundle &bundle,
    llvm::function_ref<int64_t(SymbolKind, uint32_t)> values) {
  std::vector<std::vector<uint8_t>> code;
  for (const EncodedProgram &p : bundle.programs)
    code.push_back(p.code);
  for (const Relocation &rel : bundle.relocations) {
    size_t limit = rel.kind == SymbolKind::TensorAddress
                       ? bundle.tensors.size()
                       : bundle.runtimeArgs.size();
    if (rel.program >= code.size() || rel.symbol >= limit ||
        uint64_t(rel.offset) + 8 > code[rel.program].size())
      return llvm::createStringError("corrupt bundle: relocation out of range");
    uint64_t v = static_cast<uint64_t>(values(rel.kind, rel.symbol));
    for (int i = 0; i < 8; ++i)
      code[rel.program][rel.offset + i] = static_cast<uint8_t>(v >> (8 * i));
  }
  machine::Executable exe;
  exe.fifos = bundle.fifos;
  exe.syncs = bundle.syncs;
  for (size_t i = 0; i < code.size(); ++i) {
    auto program = decodeProgram(code[i], bundle.programs[i].unit);
    if (!program)
      return llvm::createStringError(
          "corrupt bundle: program %zu: %s", i,
          llvm::toString(program.takeError()).c_str());
    exe.programs.push_back(std::move(*program));
  }
  const machine::SourceTable &sources = bundle.sources;
  for (size_t i = 0; i < sources.programs.size() && i < exe.programs.size();
       ++i)
    if (sources.programs[i].size() != exe.programs[i].insts.size())
      return llvm::createStringError(
          "corrupt bundle: program %zu has %zu instructions and %zu source "
          "locations",
          i, exe.programs[i].insts.size(), sources.programs[i].size());
  exe.sources = sources;
  if (std::string err = exe.validate(bundle.machine); !err.empty())
    return llvm::createStringError("corrupt bundle: %s", err.c_str());
  return exe;
}
