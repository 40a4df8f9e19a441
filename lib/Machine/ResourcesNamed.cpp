//===- ResourcesNamed.cpp - Where a program names its resources -----------===//
//
// This file implements ResourcesNamed (SameWalks.h): the places a program
// names a FIFO, sync channel or memory, numbered per program, which
// SameWalks::renaming pairs with another program's names.
//
//===----------------------------------------------------------------------===//

#include "SameWalks.h"

using namespace ktflow::machine;
using namespace ktflow::machine::detail;

llvm::SmallVector<std::tuple<uint8_t, ResourcesNamed::Kind, bool>, 2>
ResourcesNamed::placesOf(const Inst &in) {
  // Fields by index into kNameFields.
  constexpr uint8_t a = 0, b = 1, c = 2;
  switch (in.op) {
  case Opcode::Recv:
    return {{b, Fifo, false}};
  case Opcode::Send:
    return {{a, Fifo, false}};
  case Opcode::Load:
    return {{a, Fifo, false}, {b, Memory, true}};
  case Opcode::Store:
    return {{a, Fifo, false}, {b, Memory, false}};
  case Opcode::Dma:
  case Opcode::RemoteDma:
    return {{a, Memory, true}, {c, Memory, false}};
  case Opcode::Fill:
    return {{a, Memory, false}};
  case Opcode::ReadIndex:
    return {{b, Memory, true}};
  case Opcode::SyncSend:
  case Opcode::SyncRecv:
    return {{a, Sync, false}};
  default:
    return {};
  }
}

ResourcesNamed::ResourcesNamed(const UnitProgram &program)
    : fieldsNamed(program.insts.size(), 0) {
  llvm::DenseMap<uint32_t, uint32_t> numbered[kNumKinds];
  for (auto [pc, in] : llvm::enumerate(program.insts))
    for (auto [field, kind, read] : placesOf(in)) {
      fieldsNamed[pc] |= 1u << field;
      uint32_t id = in.*kNameFields[field];
      auto [it, fresh] = numbered[kind].try_emplace(id, resources[kind].size());
      if (fresh) {
        resources[kind].push_back(id);
        if (kind == Memory)
          memoryReadWritten.emplace_back(false, false);
      }
      if (kind == Memory)
        (read ? memoryReadWritten[it->second].first
              : memoryReadWritten[it->second].second) = true;
      places.push_back({static_cast<uint32_t>(pc), field, kind, it->second});
    }
}
