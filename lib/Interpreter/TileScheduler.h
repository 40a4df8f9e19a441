//===- TileScheduler.h - Cooperative scheduling of compute tiles *- C++ -*-===//
//
// This file declares the tile scheduler. Every compute tile runs as a
// coroutine (its own stack, switched with swapcontext) on one thread, so
// the run is deterministic. Tiles are created when they start, in linear
// tile order, and resumed round-robin in that order. A tile gives the
// processor up before every ktdp.load (so a load sees every store other
// started tiles issue before their load of the same ordinal) and when it
// waits for a tile future; when every unfinished tile waits, the tile
// scheduler reports a deadlock.
//
// A window bounds how many tiles are started and unfinished at once (the
// memory of a run grows with them, not with the grid): the next tile starts
// only while fewer than `window` are, or when every one of them waits for a
// tile future (which a tile not started yet may produce), up to
// kMaxLiveTiles.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_INTERPRETER_TILESCHEDULER_H
#define KTFLOW_LIB_INTERPRETER_TILESCHEDULER_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ktflow::interp {

class TileScheduler {
public:
  /// The most tiles that can be started and unfinished at once (each holds
  /// a stack and its live values: about 16 KiB for a small kernel).
  static constexpr int64_t kMaxLiveTiles = int64_t(1) << 16;

  TileScheduler();
  ~TileScheduler();

  /// Runs `body(tile)` for every tile in [0, numTiles), with at most
  /// `window` tiles unfinished at once while one of them can run. Fails
  /// when a tile fails, the tiles deadlock or more than kMaxLiveTiles would
  /// have to be unfinished at once (reported as diagnostics).
  mlir::LogicalResult
  run(int64_t numTiles, int64_t window,
      llvm::function_ref<mlir::LogicalResult(int64_t)> body);

  /// Lets the other tiles run. Fails when the run is being aborted (the
  /// caller then unwinds without reporting anything).
  mlir::LogicalResult yield();

  /// Blocks the current tile until `ready()` holds. `op` and `reason` say
  /// what it waits for, for the deadlock report. Fails when aborted.
  mlir::LogicalResult waitUntil(llvm::function_ref<bool()> ready,
                                mlir::Operation *op, std::string reason);

  int64_t currentTile() const { return current; }
  /// The most tiles that were started and unfinished at once in the last
  /// run.
  int64_t peakLiveTiles() const { return peakLive; }

  struct Tile;

private:
  void start(int64_t index);
  void resume(Tile &tile);
  void switchToTileScheduler();
  /// The next tile to resume, round-robin from `cursor` (`nextToStart` is
  /// a candidate when `mayStart`), or -1.
  int64_t pickNext(bool mayStart) const;
  void reportDeadlock();
  void reportTooManyLive();
  static void entryPoint();

  /// Started, unfinished tiles by id (all below nextToStart).
  std::map<int64_t, std::unique_ptr<Tile>> live;
  /// Stacks of finished tiles, reused by the next ones.
  std::vector<void *> freeStacks;
  int64_t numTiles = 0, nextToStart = 0, cursor = 0, peakLive = 0;
  llvm::function_ref<mlir::LogicalResult(int64_t)> body;
  int64_t current = -1;
  bool aborted = false;
  struct MainContext;
  std::unique_ptr<MainContext> main;
};

} // namespace ktflow::interp

#endif // KTFLOW_LIB_INTERPRETER_TILESCHEDULER_H
