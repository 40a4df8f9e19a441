//===- Interleave.h - Tiles that take turns as the interpreter's do -*- C++
//-*-//
//
// This file declares how the compiled tier runs the tiles of a kernel in
// which one tile may load what another stores. The interpreter then runs
// its tiles as coroutines on one thread (docs/interpreter.md §2): started
// in linear order, each runs until it is about to load (it yields to the
// others first) or ends, and the unfinished tiles resume round-robin. The
// tier runs each tile on a thread of its own and passes one turn among
// them in that order: the compiled code calls ktflow_jit_yield before each
// load (TileFunction.h), which hands the turn to the next unfinished tile
// and waits for it to come back. One tile runs at a time, so every load
// and store happens in the interpreter's order, and sees and leaves the
// same memory.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_CPUJIT_INTERLEAVE_H
#define KTFLOW_LIB_CPUJIT_INTERLEAVE_H

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace ktflow::jit {

class TileTurns {
public:
  explicit TileTurns(int64_t numTiles);
  /// Makes the calling thread tile `tile` and waits for its first turn.
  void start(int64_t tile);
  /// Passes the turn to the next unfinished tile and waits for it back.
  void yield();
  /// Ends the calling thread's tile: passes the turn for good.
  void finish();

private:
  /// Hands the turn on from `tile`; the caller holds `mutex`.
  void passTurn(int64_t tile);

  std::mutex mutex;
  std::vector<std::unique_ptr<std::condition_variable>> wake;
  std::vector<bool> finished;
  int64_t turn = 0;
};

/// The `ktflow_jit_yield` the compiled code calls.
void yieldTurn();

} // namespace ktflow::jit

#endif // KTFLOW_LIB_CPUJIT_INTERLEAVE_H
