//===- ScratchpadInputName.h - Names of scratchpad inputs -------*- C++ -*-===//
//
// This file defines the one spelling of what a tile's scratchpad holds at a
// literal address before a kernel starts (field guide §1b.6):
// `lx<tile>@<address>`, the name the interpreter, the runtime and a bundle's
// tensor table all print and accept. Header-only, so libraries that do not
// link each other share it.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_SUPPORT_SCRATCHPADINPUTNAME_H
#define KTFLOW_SUPPORT_SCRATCHPADINPUTNAME_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace ktflow {

/// `lx<tile>@<address>` ("lx1@16384"): tile `tile`'s scratchpad at literal
/// element address `address`.
inline std::string formatScratchpadInputName(int64_t tile, int64_t address) {
  return "lx" + std::to_string(tile) + "@" + std::to_string(address);
}

/// Whether `name` is meant as a scratchpad input name (`lx...@...`), well
/// formed or not.
inline bool looksLikeScratchpadInputName(llvm::StringRef name) {
  return name.starts_with("lx") && name.contains('@');
}

/// The tile and address `name` spells, or std::nullopt when it is not a
/// well-formed `lx<tile>@<address>` with both numbers non-negative.
inline std::optional<std::pair<int64_t, int64_t>>
parseScratchpadInputName(llvm::StringRef name) {
  if (!looksLikeScratchpadInputName(name))
    return std::nullopt;
  auto [tileText, addressText] = name.drop_front(2).split('@');
  int64_t tile, address;
  if (tileText.getAsInteger(10, tile) || tile < 0 ||
      addressText.getAsInteger(10, address) || address < 0)
    return std::nullopt;
  return std::make_pair(tile, address);
}

} // namespace ktflow

#endif // KTFLOW_SUPPORT_SCRATCHPADINPUTNAME_H
