//===- Scheduler.h - Cooperative scheduling of compute tiles ----*- C++ -*-===//
//
// This file declares the tile scheduler. Every compute tile runs as a
// coroutine (its own stack, switched with swapcontext) on one thread, so
// the run is deterministic. Tiles are resumed round-robin in linear tile
// order. A tile gives the processor up before every ktdp.load (so a load
// sees every store other tiles issue before their load of the same ordinal)
// and when it waits for a tile future; when every unfinished tile waits,
// the scheduler reports a deadlock.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_INTERPRETER_SCHEDULER_H
#define KTFLOW_LIB_INTERPRETER_SCHEDULER_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <memory>
#include <string>
#include <vector>

namespace ktflow::interp {

class Scheduler {
public:
  Scheduler();
  ~Scheduler();

  /// Runs `body(tile)` for every tile in [0, numTiles). Fails when a tile
  /// fails or the tiles deadlock (reported as a diagnostic).
  mlir::LogicalResult run(int64_t numTiles,
                          llvm::function_ref<mlir::LogicalResult(int64_t)> body);

  /// Lets the other tiles run. Fails when the run is being aborted (the
  /// caller then unwinds without reporting anything).
  mlir::LogicalResult yield();

  /// Blocks the current tile until `ready()` holds. `op` and `reason` say
  /// what it waits for, for the deadlock report. Fails when aborted.
  mlir::LogicalResult waitUntil(llvm::function_ref<bool()> ready,
                                mlir::Operation *op, std::string reason);

  int64_t currentTile() const { return current; }
  int64_t numTiles() const { return static_cast<int64_t>(tiles.size()); }

  struct Tile;

private:
  void resume(int64_t tile);
  void switchToScheduler();
  void reportDeadlock();
  static void entryPoint();

  std::vector<std::unique_ptr<Tile>> tiles;
  llvm::function_ref<mlir::LogicalResult(int64_t)> body;
  int64_t current = -1;
  bool aborted = false;
  struct MainContext;
  std::unique_ptr<MainContext> main;
};

} // namespace ktflow::interp

#endif // KTFLOW_LIB_INTERPRETER_SCHEDULER_H
