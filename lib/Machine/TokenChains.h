//===- TokenChains.h - The kernel's path through its tokens ----*- C++ -*-===//
//
// This file declares the whole-kernel estimate's (Estimate.cpp) bound from
// the chains of tokens and FIFO entries passed from unit to unit: a unit
// that waits for a token another unit sends after its own wait for a
// third, and so on (a ring reduction's steps, a per-row all-reduce across
// cores). The per-unit walk charges each unit its own cycles; these chains
// add the time each waits for the others.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_MACHINE_TOKENCHAINS_H
#define KTFLOW_LIB_MACHINE_TOKENCHAINS_H

#include "ProgramWalker.h"

#include "llvm/ADT/ArrayRef.h"

#include <optional>

namespace ktflow::machine::detail {
/// The longest path through the kernel's tokens and FIFO entries, and the
/// unit that ends it.
struct TokenChain {
  double cycles;
  uint32_t unit;
};

/// Replays the walked programs' chain events (ProgramWalker::chainEvents)
/// against one another, once each and without contention: each unit runs
/// its own cycles between them, a wait ends no earlier than its token
/// arrives (sent once the sender's transfers in flight have landed, plus
/// the channel's sync cycles), and a pop no earlier than its entries are
/// in the FIFO. The FIFOs' depth and the resources units share are left
/// out: the chains are a floor under the simulated cycles. None where the
/// walks do not pair up (a loop walked once on one side and iteration by
/// iteration on the other): a token or entry left unmatched.
std::optional<TokenChain> tokenChains(const Machine &machine,
                                      const Executable &exe,
                                      llvm::ArrayRef<ProgramWalker> walkers);
} // namespace ktflow::machine::detail

#endif // KTFLOW_LIB_MACHINE_TOKENCHAINS_H
