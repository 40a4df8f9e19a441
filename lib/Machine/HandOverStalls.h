//===- HandOverStalls.h - A compute unit's waits at hand-overs -*- C++ -*-===//
//
// This file declares what the whole-kernel estimate (Estimate.cpp) charges
// a compute unit for the hand-overs through the scratchpad its load unit
// waits for: their latency, then the feed of the entries its next work
// needs, beyond the work on the input fed ahead of each hand-over.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_MACHINE_HANDOVERSTALLS_H
#define KTFLOW_LIB_MACHINE_HANDOVERSTALLS_H

#include "ProgramWalker.h"

#include "llvm/ADT/ArrayRef.h"

#include <vector>

namespace ktflow::machine::detail {
/// What a compute unit waits for, empty, across the hand-overs one load
/// unit that feeds it waits for.
struct HandOverStall {
  uint32_t compute;
  /// The hand-overs' latency (ProgramWalker::handOverLatency each), less
  /// the work the compute unit does during each on input loaded before it
  /// (the next part of a feed-ahead loop, a pipelined lane's next row):
  /// from its send of what the hand-over returns to its first entry
  /// loaded after the hand-over.
  double latency;
  /// After each hand-over, the entries of the compute unit's next work
  /// that the load unit loads only after it, each at its FIFO's
  /// bandwidth: a matrix unit takes a whole operand before its product
  /// (swiglu's 128 KiB weight slice, 1,024 cycles on spyre_like each
  /// hidden chunk), where an operand loaded before the hand-over (the next
  /// block's weights, while the carried accumulator makes its round trip)
  /// overlaps the previous work. Each hand-over is charged once, to the
  /// first work after it; what that work ahead leaves of it.
  double feed;
};

/// The stalls of every load unit that waits for hand-overs, with the
/// compute unit it feeds.
std::vector<HandOverStall>
handOverStalls(const Executable &exe, llvm::ArrayRef<ProgramWalker> walkers);
} // namespace ktflow::machine::detail

#endif // KTFLOW_LIB_MACHINE_HANDOVERSTALLS_H
